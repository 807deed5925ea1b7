//===- Manifest.cpp - Parse the kernel manifest ---------------------------===//
//
// parseManifest() reads the top-level keys, the operands and the params
// here, the EVT graph in EvtGraph.cpp, then checks the rules across them
// (ManifestValidate.cpp). The JSON reader behind all three, which names the
// key path in every error, is ManifestReader.h; the enumerators' names and
// the Manifest's look-ups are ManifestNames.cpp.
//
//===----------------------------------------------------------------------===//

#include "ManifestReader.h"

#include "ws-gemm-runtime/Prepack.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

namespace wsgemm::runtime {

using namespace detail;

namespace {

template <size_t N>
std::array<uint32_t, N> getPositiveTriple(const json &j,
                                          const std::string &key) {
  getArray(j, key);
  if (j.size() != N)
    fail(key, "must have " + std::to_string(N) + " entries, got " +
                  std::to_string(j.size()));
  std::array<uint32_t, N> out{};
  for (size_t i = 0; i < N; ++i) {
    int64_t v = getPositive(j[i], idx(key, i));
    if (v > std::numeric_limits<int32_t>::max())
      fail(idx(key, i), "exceeds the int32 range");
    out[i] = static_cast<uint32_t>(v);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Sections
//===----------------------------------------------------------------------===//

void parseArch(Manifest &m, const json &root) {
  m.arch = getString(need(root, "", "arch"), "arch");
  const std::string &a = m.arch;
  size_t end = a.size();
  bool specific = end > 3 && a[end - 1] == 'a';
  if (specific)
    --end;
  std::string digits = a.size() > 3 ? a.substr(3, end - 3) : "";
  // Two to four digits: a compute capability, and no int overflow below
  // (the manifest fuzzer found "sm_" followed by 20 digits).
  bool ok = a.rfind("sm_", 0) == 0 && digits.size() >= 2 &&
            digits.size() <= 4 &&
            std::all_of(digits.begin(), digits.end(),
                        [](char c) { return c >= '0' && c <= '9'; });
  if (!ok)
    fail("arch", "must look like sm_90a or sm_90, got '" + a + "'");
  int cc = std::stoi(digits);
  m.archMajor = cc / 10;
  m.archMinor = cc % 10;
  m.archSpecific = specific;
}

void parseGrid(Manifest &m, const json &root) {
  const json &g = getObject(need(root, "", "grid"), "grid");
  m.grid.kind = getEnum<GridKind>(
      need(g, "grid", "kind"), "grid.kind", "grid kind",
      {{"tiles", GridKind::Tiles}, {"persistent", GridKind::Persistent}});
  if (const json *r = maybe(g, "raster"))
    m.grid.raster = getEnum<Raster>(*r, "grid.raster", "raster order",
                                    {{"along_m", Raster::AlongM},
                                     {"along_n", Raster::AlongN},
                                     {"heuristic", Raster::Heuristic},
                                     {"runtime", Raster::Runtime}});
  bool fixed =
      m.grid.raster == Raster::AlongM || m.grid.raster == Raster::AlongN;
  if (m.grid.kind == GridKind::Tiles && !fixed)
    fail("grid.raster", std::string("must be along_m or along_n for grid "
                                    "kind 'tiles' (the grid's shape "
                                    "follows it), got ") +
                            rasterName(m.grid.raster));
  const json *s = maybe(g, "swizzle");
  if (m.grid.raster == Raster::Runtime) {
    // Raster and swizzle are both the launch's, or neither is.
    if (!s || !s->is_string() || s->get<std::string>() != "runtime")
      fail("grid.swizzle", "must be \"runtime\" with raster 'runtime' (the "
                           "tile_order parameter carries both)");
    m.grid.swizzle = 0;
  } else if (s) {
    int64_t v = getPositive(*s, "grid.swizzle");
    if (v != 1 && v != 2 && v != 4 && v != 8)
      fail("grid.swizzle", "must be 1, 2, 4 or 8, got " + std::to_string(v));
    if (m.grid.kind == GridKind::Tiles && v != 1)
      fail("grid.swizzle", "must be 1 for grid kind 'tiles' (tile swizzling "
                           "belongs to the persistent scheduler), got " +
                               std::to_string(v));
    m.grid.swizzle = static_cast<int>(v);
  }
  if (const json *c = maybe(g, "ctas_per_sm")) {
    int64_t v = getPositive(*c, "grid.ctas_per_sm");
    if (v > 32)
      fail("grid.ctas_per_sm", "must be <= 32, got " + std::to_string(v));
    m.grid.ctasPerSm = static_cast<int>(v);
  }
}

/// operands.A.dequant against A's dtype (docs/mixed-input.md): a 4-bit A
/// is packed as nibbles and has a zero point (ui4 or bias8) per group of
/// 32, 64 or 128 of K; an 8-bit one (i8, f8e4m3) is packed as bytes, is
/// signed, so it has none, and takes the same groups or one scale per row
/// (group 0).
void checkDequantFormat(DType a, const OperandInfo::Dequant &dq,
                        const std::string &dk) {
  const bool i4 = a == DType::I4;
  if (!i4 && a != DType::I8 && a != DType::F8E4M3)
    fail(dk, std::string("a dequantized A is i4, i8 or f8e4m3, got ") +
                 dtypeName(a));
  const char *packing = i4 ? kPackingI4 : kPackingB8;
  if (dq.packing != packing)
    fail(dk + ".packing", std::string("must be ") + packing + " for an " +
                              dtypeName(a) + " A, got " + dq.packing);
  if (dq.group != 0 && dq.group != 32 && dq.group != 64 && dq.group != 128)
    fail(dk + ".group", "must be 32, 64 or 128 (a scale per that many of K "
                        "and row) or 0 (one scale per row), got " +
                            std::to_string(dq.group));
  if (i4 && dq.group == 0)
    fail(dk + ".group",
         "must be 32, 64 or 128 for an i4 A (a scale and zero point per "
         "group of K), got 0");
  if (i4 && dq.zero == "none")
    fail(dk + ".zero", "an i4 A has a zero point (ui4 or bias8), got none");
  if (!i4 && dq.zero != "none")
    fail(dk + ".zero", std::string("must be none for an ") + dtypeName(a) +
                           " A (signed values), got " + dq.zero);
}

void parseOperands(Manifest &m, const json &root) {
  const json &ops = getObject(need(root, "", "operands"), "operands");
  for (auto it = ops.begin(); it != ops.end(); ++it) {
    const std::string &name = it.key();
    std::string key = "operands." + name;
    if (name != "A" && name != "B" && name != "C" && name != "D")
      fail(key, "unknown operand (expected A, B, C or D; auxiliary matrices "
                "are declared by evt aux_load/aux_store nodes)");
    const json &o = getObject(it.value(), key);
    OperandInfo info;
    info.dtype = getDType(need(o, key, "dtype"), key + ".dtype");
    std::vector<std::pair<const char *, Layout>> allowed;
    if (name == "A")
      allowed = {{"k_major", Layout::KMajor}, {"m_major", Layout::MMajor}};
    else if (name == "B")
      allowed = {{"k_major", Layout::KMajor}, {"n_major", Layout::NMajor}};
    else if (name == "D")
      allowed = {{"n_major", Layout::NMajor}, {"m_major", Layout::MMajor}};
    else
      allowed = {{"n_major", Layout::NMajor}};
    info.layout = getEnum<Layout>(need(o, key, "layout"), key + ".layout",
                                  ("layout for " + name).c_str(), allowed);
    // D stored with a reduction (cp.reduce.async.bulk.tensor, red.global).
    if (const json *r = maybe(o, "reduce")) {
      if (name != "D")
        fail(key + ".reduce", "only D is stored with a reduction");
      info.reduce = getEnum<StoreReduce>(
          *r, key + ".reduce", "store reduction",
          {{"none", StoreReduce::None},
           {"add", StoreReduce::Add},
           {"min", StoreReduce::Min},
           {"max", StoreReduce::Max}});
    }
    // How A and B are loaded (optional: TMA, 16 bytes).
    if (const json *l = maybe(o, "load")) {
      if (name != "A" && name != "B")
        fail(key + ".load", "only A and B have a load kind");
      info.load = getEnum<OperandLoad>(*l, key + ".load", "operand load",
                                       {{"tma", OperandLoad::Tma},
                                        {"cp_async", OperandLoad::CpAsync}});
    }
    if (const json *a = maybe(o, "align_bytes")) {
      if (name != "A" && name != "B")
        fail(key + ".align_bytes", "only A and B state an alignment");
      int64_t v = getPositive(*a, key + ".align_bytes");
      if (v != 2 && v != 4 && v != 8 && v != 16)
        fail(key + ".align_bytes",
             "must be 2, 4, 8 or 16 bytes, got " + std::to_string(v));
      info.alignBytes = static_cast<uint32_t>(v);
    }
    if (const json *dq = maybe(o, "dequant")) {
      if (name != "A")
        fail(key + ".dequant", "only A is dequantized on load");
      std::string dk = key + ".dequant";
      const json &d = getObject(*dq, dk);
      OperandInfo::Dequant info2;
      info2.scale = getDType(need(d, dk, "scale"), dk + ".scale");
      info2.group = getInt(need(d, dk, "group"), dk + ".group");
      info2.zero = getEnum<std::string>(
          need(d, dk, "zero"), dk + ".zero", "zero point",
          {{"ui4", "ui4"}, {"bias8", "bias8"}, {"none", "none"}});
      info2.packing = getEnum<std::string>(
          need(d, dk, "packing"), dk + ".packing", "packing",
          {{kPackingI4, kPackingI4}, {kPackingB8, kPackingB8}});
      // Absent in manifests before it: group 0 was scaled on the
      // accumulator, groups on the weight.
      info2.onAccumulator = info2.group == 0;
      if (const json *at = maybe(d, "scale_applied"))
        info2.onAccumulator = getEnum<bool>(
            *at, dk + ".scale_applied", "place",
            {{"weight", false}, {"accumulator", true}});
      if (info2.group == 0 && !info2.onAccumulator)
        fail(dk + ".scale_applied",
             "must be accumulator with group 0 (one scale per row "
             "multiplies the accumulator after the K loop)");
      checkDequantFormat(info.dtype, info2, dk);
      info.dequant = info2;
    }
    m.operands[name] = info;
  }
  for (const char *req : {"A", "B", "D"})
    if (!m.operands.count(req))
      fail(std::string("operands.") + req, "missing required field");
}

Param parseParam(const json &j, const std::string &key) {
  getObject(j, key);
  Param p;
  p.name = getString(need(j, key, "name"), key + ".name");
  if (p.name.empty())
    fail(key + ".name", "must not be empty");
  p.kind = getEnum<ParamKind>(need(j, key, "kind"), key + ".kind", "kind",
                              {{"tensor_map", ParamKind::TensorMap},
                               {"pointer", ParamKind::Pointer},
                               {"scalar", ParamKind::Scalar},
                               {"scalar_pointer", ParamKind::ScalarPointer},
                               {"reduction", ParamKind::Reduction},
                               {"size", ParamKind::Size},
                               {"workspace", ParamKind::Workspace},
                               {"stream_k_tiles", ParamKind::StreamKTiles},
                               {"tile_order", ParamKind::TileOrder},
                               {"matrix", ParamKind::Matrix}});
  // Matrices read with cp.async and pointers copied 16 bytes at a time:
  // the alignment their base (and strides) need.
  auto readAlignBytes = [&] {
    const json *a = maybe(j, "align_bytes");
    if (!a)
      return;
    int64_t v = getPositive(*a, key + ".align_bytes");
    if (v != 2 && v != 4 && v != 8 && v != 16)
      fail(key + ".align_bytes",
           "must be 2, 4, 8 or 16 (a cp.async copy width), got " +
               std::to_string(v));
    if (v % static_cast<int64_t>(dtypeSize(p.dtype)) != 0)
      fail(key + ".align_bytes", std::to_string(v) +
                                     " bytes is not a multiple of the " +
                                     dtypeName(p.dtype) + " element");
    p.alignBytes = static_cast<uint32_t>(v);
  };
  switch (p.kind) {
  case ParamKind::TensorMap: {
    p.operand = getString(need(j, key, "operand"), key + ".operand");
    p.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    p.dims = getDims(need(j, key, "dims"), key + ".dims");
    if (p.dims.empty() || p.dims.size() > 5)
      fail(key + ".dims", "must have 1 to 5 dimensions (TMA rank), got " +
                              std::to_string(p.dims.size()));
    const json &box = getArray(need(j, key, "box"), key + ".box");
    if (box.size() != p.dims.size())
      fail(key + ".box", "must have one entry per dimension (" +
                             std::to_string(p.dims.size()) + "), got " +
                             std::to_string(box.size()));
    for (size_t i = 0; i < box.size(); ++i) {
      int64_t v = getPositive(box[i], idx(key + ".box", i));
      if (v > 256)
        fail(idx(key + ".box", i),
             "must be <= 256 (TMA box limit), got " + std::to_string(v));
      p.box.push_back(static_cast<uint32_t>(v));
    }
    p.swizzle =
        getEnum<Swizzle>(need(j, key, "swizzle"), key + ".swizzle", "swizzle",
                         {{"none", Swizzle::None},
                          {"32B", Swizzle::B32},
                          {"64B", Swizzle::B64},
                          {"128B", Swizzle::B128}});
    getEnum<int>(need(j, key, "oob_fill"), key + ".oob_fill", "oob_fill",
                 {{"zero", 0}});
    if (const json *pk = maybe(j, "packing"))
      p.packing = getEnum<std::string>(
          *pk, key + ".packing", "packing",
          {{kPackingI4, kPackingI4}, {kPackingB8, kPackingB8}});
    if (const json *kc = maybe(j, "k_chunks")) {
      int64_t v = getPositive(*kc, key + ".k_chunks");
      if (v < 2 || v > 256)
        fail(key + ".k_chunks", "must be 2 to 256 (blocks of box[0] along K "
                                "per box: a TMA box dimension), got " +
                                    std::to_string(v));
      p.kChunks = static_cast<uint32_t>(v);
    }
    if (const json *l2 = maybe(j, "l2_promotion"))
      p.l2Promotion =
          getEnum<L2Promotion>(*l2, key + ".l2_promotion", "l2_promotion",
                               {{"none", L2Promotion::None},
                                {"64B", L2Promotion::B64},
                                {"128B", L2Promotion::B128},
                                {"256B", L2Promotion::B256}});
    size_t innerBytes = p.box[0] * dtypeSize(p.dtype);
    if (innerBytes % 16 != 0)
      fail(key + ".box", "inner box " + std::to_string(innerBytes) +
                             " bytes (box[0] = " + std::to_string(p.box[0]) +
                             " x " + std::to_string(dtypeSize(p.dtype)) +
                             " bytes) is not a multiple of 16 (TMA "
                             "requirement)");
    if (p.swizzle != Swizzle::None && innerBytes > swizzleBytes(p.swizzle))
      fail(key + ".box", "inner box " + std::to_string(innerBytes) +
                             " bytes exceeds the " + swizzleName(p.swizzle) +
                             " swizzle span (TMA requirement)");
    break;
  }
  case ParamKind::Matrix:
    p.operand = getString(need(j, key, "operand"), key + ".operand");
    p.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    p.dims = getDims(need(j, key, "dims"), key + ".dims");
    readAlignBytes();
    break;
  case ParamKind::Pointer:
    p.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    p.extent = getDims(need(j, key, "extent"), key + ".extent");
    // A mixed-input A's scales and zero points are copied 16 bytes at a
    // time (docs/mixed-input.md).
    readAlignBytes();
    if (const json *bs = maybe(j, "block_scale"))
      p.blockScale = getEnum<std::string>(*bs, key + ".block_scale",
                                          "block_scale",
                                          {{"A", "A"}, {"B", "B"}});
    if (const json *dq = maybe(j, "dequant"))
      p.dequant = getEnum<std::string>(*dq, key + ".dequant", "dequant",
                                       {{"A", "A"}});
    break;
  case ParamKind::Scalar:
  case ParamKind::ScalarPointer:
    p.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    if (p.dtype != DType::F32)
      fail(key + ".dtype", std::string(paramKindName(p.kind)) +
                               " parameters must be f32, got " +
                               dtypeName(p.dtype));
    break;
  case ParamKind::Reduction:
    p.reduce = getReduce(need(j, key, "reduce"), key + ".reduce");
    p.extent = getDims(need(j, key, "extent"), key + ".extent");
    p.dtype = DType::F32;
    if (const json *d = maybe(j, "dtype")) {
      p.dtype = getDType(*d, key + ".dtype");
      if (p.dtype != DType::F32)
        fail(key + ".dtype", std::string("reduction outputs must be f32, "
                                         "got ") +
                                 dtypeName(p.dtype));
    }
    break;
  case ParamKind::Size:
    p.dim = getDim(need(j, key, "dim"), key + ".dim");
    if (p.dim == Dim::KB || p.dim == Dim::NB || p.dim == Dim::KG)
      fail(key + ".dim", std::string("must be M, N, K or L (") +
                             dimName(p.dim) +
                             " is derived from K or N), got " + dimName(p.dim));
    break;
  case ParamKind::Workspace:
  case ParamKind::StreamKTiles:
  case ParamKind::TileOrder:
    break;
  }
  return p;
}

/// "tile_scheduler" (absent: data_parallel) and "workspace".
void parseTileScheduler(Manifest &m, const json &root) {
  if (const json *t = maybe(root, "tile_scheduler")) {
    getObject(*t, "tile_scheduler");
    m.scheduler.kind = getEnum<SchedulerKind>(
        need(*t, "tile_scheduler", "kind"), "tile_scheduler.kind",
        "tile scheduler",
        {{"data_parallel", SchedulerKind::DataParallel},
         {"split_k", SchedulerKind::SplitK},
         {"stream_k", SchedulerKind::StreamK}});
    if (m.scheduler.kind == SchedulerKind::SplitK) {
      int64_t v = getPositive(need(*t, "tile_scheduler", "split_k"),
                              "tile_scheduler.split_k");
      if (v < 2 || v > 64)
        fail("tile_scheduler.split_k",
             "must be in [2, 64] for kind split_k, got " + std::to_string(v));
      m.scheduler.splitK = static_cast<int>(v);
      if (const json *ct = maybe(*t, "cluster_tiles")) {
        auto tiles = getPositiveTriple<2>(*ct, "tile_scheduler.cluster_tiles");
        m.scheduler.clusterTilesM = static_cast<int>(tiles[0]);
        m.scheduler.clusterTilesN = static_cast<int>(tiles[1]);
      }
    }
  }
  if (const json *w = maybe(root, "workspace")) {
    getObject(*w, "workspace");
    WorkspaceRule rule;
    rule.tileBytes =
        getPositive(need(*w, "workspace", "tile_bytes"), "workspace.tile_bytes");
    rule.flagBytes =
        getPositive(need(*w, "workspace", "flag_bytes"), "workspace.flag_bytes");
    if (rule.tileBytes % 16 != 0)
      fail("workspace.tile_bytes",
           "must be a multiple of 16, got " + std::to_string(rule.tileBytes));
    std::string want =
        m.scheduler.kind == SchedulerKind::StreamK ? "stream_k" : "all";
    std::string tiles = getString(need(*w, "workspace", "tiles"),
                                  "workspace.tiles");
    if (tiles != want)
      fail("workspace.tiles", "must be \"" + want + "\" for tile scheduler " +
                                  schedulerKindName(m.scheduler.kind) +
                                  ", got \"" + tiles + "\"");
    m.workspace = rule;
  }
  bool splits = m.scheduler.kind != SchedulerKind::DataParallel;
  if (splits && !m.workspace)
    fail("workspace", std::string("missing: tile scheduler ") +
                          schedulerKindName(m.scheduler.kind) +
                          " sums split tiles through a workspace");
  if (!splits && m.workspace)
    fail("workspace", "given, but tile scheduler data_parallel splits no "
                      "tile");
  if (splits && m.grid.kind != GridKind::Persistent)
    fail("grid.kind", std::string("must be persistent for tile scheduler ") +
                          schedulerKindName(m.scheduler.kind) +
                          " (a split tile's units wait for each other)");
  uint64_t ctas = uint64_t(m.cluster[0]) * m.cluster[1] * m.cluster[2];
  uint64_t groupTiles =
      uint64_t(m.scheduler.clusterTilesM) * m.scheduler.clusterTilesN;
  if (m.scheduler.kind == SchedulerKind::SplitK && groupTiles != ctas)
    fail("tile_scheduler.cluster_tiles",
         "[" + std::to_string(m.scheduler.clusterTilesM) + ", " +
             std::to_string(m.scheduler.clusterTilesN) + "] holds " +
             std::to_string(groupTiles) + " tile(s), but a cluster has " +
             std::to_string(ctas) + " CTA(s)" +
             (ctas > 1 && groupTiles == 1 ? " (the key is missing)" : ""));
  if (m.scheduler.kind == SchedulerKind::StreamK && ctas > 1)
    fail("cluster", "must be [1, 1, 1] for tile scheduler stream_k (its CTAs "
                    "take different K ranges)");
}

Manifest parseRoot(const json &root, const std::string &path) {
  getObject(root, "(root)");
  Manifest m;
  m.path = path;
  size_t slash = path.find_last_of('/');
  m.directory = slash == std::string::npos ? "" : path.substr(0, slash);
  if (slash == 0)
    m.directory = "/";

  std::string format = getString(need(root, "", "format"), "format");
  if (format != "ws-gemm-manifest")
    fail("format", "must be \"ws-gemm-manifest\", got \"" + format + "\"");
  int64_t version = getInt(need(root, "", "version"), "version");
  if (version != 1)
    fail("version", "unsupported version " + std::to_string(version) +
                        " (this runtime reads version 1)");
  m.kernel = getString(need(root, "", "kernel"), "kernel");
  if (m.kernel.empty())
    fail("kernel", "must not be empty");
  m.cubin = getString(need(root, "", "cubin"), "cubin");
  if (m.cubin.empty())
    fail("cubin", "must not be empty");
  parseArch(m, root);
  m.block = getPositiveTriple<3>(need(root, "", "block"), "block");
  uint64_t threads = uint64_t(m.block[0]) * m.block[1] * m.block[2];
  if (threads > 1024)
    fail("block",
         std::to_string(threads) + " threads per CTA exceed the limit of 1024");
  m.cluster = getPositiveTriple<3>(need(root, "", "cluster"), "cluster");
  uint64_t ctas = uint64_t(m.cluster[0]) * m.cluster[1] * m.cluster[2];
  if (ctas > 16)
    fail("cluster",
         std::to_string(ctas) + " CTAs per cluster exceed the limit of 16");
  int64_t smem = getInt(need(root, "", "smem_bytes"), "smem_bytes");
  if (smem < 0 || smem > std::numeric_limits<int32_t>::max())
    fail("smem_bytes", "must be in [0, 2^31), got " + std::to_string(smem));
  m.smemBytes = static_cast<uint32_t>(smem);
  if (const json *p = maybe(root, "pdl")) {
    m.pdl = getBool(*p, "pdl");
    if (m.pdl && m.archMajor < 9)
      fail("pdl", "programmatic dependent launch needs sm_90 or later, but "
                  "arch is " + m.arch);
  }
  auto tile = getPositiveTriple<3>(need(root, "", "tile"), "tile");
  for (int i = 0; i < 3; ++i)
    m.tile[i] = tile[i];
  parseGrid(m, root);
  parseTileScheduler(m, root);
  m.batched = getBool(need(root, "", "batched"), "batched");
  if (const json *s = maybe(root, "static_shape")) {
    getArray(*s, "static_shape");
    if (s->size() != 4)
      fail("static_shape", "must be null or [M, N, K, L], got " +
                               std::to_string(s->size()) + " entries");
    std::array<int64_t, 4> shape{};
    for (size_t i = 0; i < 4; ++i)
      shape[i] = getPositive((*s)[i], idx("static_shape", i));
    if (!m.batched && shape[3] != 1)
      fail("static_shape[3]", "L must be 1 for a kernel that is not batched, "
                              "got " +
                                  std::to_string(shape[3]));
    m.staticShape = shape;
  }
  parseOperands(m, root);

  const json &params = getArray(need(root, "", "params"), "params");
  for (size_t i = 0; i < params.size(); ++i)
    m.params.push_back(parseParam(params[i], idx("params", i)));

  m.nodes = parseEvt(root);

  validateManifest(m);
  return m;
}
} // namespace

Expected<Manifest> parseManifest(const std::string &jsonText,
                                 const std::string &path) {
  std::string where = "manifest" + (path.empty() ? "" : " " + path) + ": ";
  json root;
  try {
    root = json::parse(jsonText, /*cb=*/nullptr, /*allow_exceptions=*/true,
                       /*ignore_comments=*/true);
  } catch (const json::exception &e) {
    return Status::error(where + "invalid JSON: " + e.what());
  }
  try {
    return parseRoot(root, path);
  } catch (const ManifestError &e) {
    return Status::error(where + e.message);
  } catch (const json::exception &e) {
    return Status::error(where + "internal JSON error: " + e.what());
  }
}

Expected<Manifest> loadManifest(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("manifest " + path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseManifest(ss.str(), path);
}

} // namespace wsgemm::runtime
