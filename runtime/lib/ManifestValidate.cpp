//===- ManifestValidate.cpp - Rules across the manifest's sections --------===//
//
// What no single key can say: every tensor map's operand is declared (or is
// an aux matrix of the EVT) with the operand's dtype and the dims its layout
// implies; A, B, D (and C when declared) have exactly one tensor map; every
// pointer, reduction and aux name is the name of the EVT node that reads or
// writes it, with its dtype, reduction kind and extent; the EVT has exactly
// one store, to D's dtype; load_src needs C; scalar nodes name scalar
// parameters. validateManifest() runs after every section is read and
// throws ManifestError on the first broken rule.
//
//===----------------------------------------------------------------------===//

#include "ManifestReader.h"

#include <algorithm>
#include <map>
#include <set>

namespace wsgemm::runtime::detail {

namespace {

std::string paramKey(const Manifest &m, const Param *p) {
  return idx("params", static_cast<size_t>(p - m.params.data()));
}

/// Expected tensor map dims (without L) for an operand.
std::vector<Dim> matrixDims(const Manifest &m, const std::string &operand) {
  if (operand == "A")
    return m.operand("A").layout == Layout::KMajor
               ? std::vector<Dim>{Dim::K, Dim::M}
               : std::vector<Dim>{Dim::M, Dim::K};
  if (operand == "B")
    return m.operand("B").layout == Layout::KMajor
               ? std::vector<Dim>{Dim::K, Dim::N}
               : std::vector<Dim>{Dim::N, Dim::K};
  if (operand == "D" && m.operand("D").layout == Layout::MMajor)
    return {Dim::M, Dim::N}; // a column-major D
  return {Dim::N, Dim::M};   // C, D and aux matrices
}

void checkTensorMap(const Manifest &m, const Param &p,
                    const std::map<std::string, const EvtNode *> &auxNodes) {
  std::string key = paramKey(m, &p);
  bool isMain = p.operand == "A" || p.operand == "B" || p.operand == "C" ||
                p.operand == "D";
  std::string what;
  if (isMain) {
    if (!m.operands.count(p.operand))
      fail(key + ".operand",
           "operand " + p.operand + " is not declared in operands");
    const OperandInfo &o = m.operand(p.operand);
    if (o.dtype != p.dtype)
      fail(key + ".dtype", std::string("must equal operands.") + p.operand +
                               ".dtype (" + dtypeName(o.dtype) + "), got " +
                               dtypeName(p.dtype));
    what = p.operand + " (" + layoutName(o.layout) + ")";
  } else {
    auto it = auxNodes.find(p.operand);
    if (it == auxNodes.end())
      fail(key + ".operand", "'" + p.operand +
                                 "' is neither A, B, C, D nor "
                                 "the name of an evt aux_load/aux_store");
    if (it->second->dtype != p.dtype)
      fail(key + ".dtype", std::string("must equal the dtype of evt node ") +
                               std::to_string(it->second->id) + " (" +
                               dtypeName(it->second->dtype) + "), got " +
                               dtypeName(p.dtype));
    what = "aux matrix '" + p.operand + "'";
  }
  // A dequantized A is read pre-packed, in the packing operands.A.dequant
  // names; nothing else is.
  const auto *dq = p.operand == "A" && m.operands.count("A")
                       ? &m.operand("A").dequant
                       : nullptr;
  if (dq && *dq && p.packing != (*dq)->packing)
    fail(key + ".packing", "must be operands.A.dequant.packing (" +
                               (*dq)->packing + "), got '" + p.packing + "'");
  if ((!dq || !*dq) && !p.packing.empty())
    fail(key + ".packing", "only a dequantized A (operands.A.dequant) is "
                           "pre-packed");
  std::vector<Dim> want = matrixDims(m, p.operand);
  std::vector<Dim> wantL = want;
  wantL.push_back(Dim::L);
  if (m.batched ? p.dims != wantL : (p.dims != want && p.dims != wantL))
    fail(key + ".dims", "must be " + dimsString(m.batched ? wantL : want) +
                            (m.batched ? "" : " or " + dimsString(wantL)) +
                            " for " + what +
                            (m.batched ? " in a batched kernel" : "") +
                            ", got " + dimsString(p.dims));

  // Blocks of K in one box (k_chunks): a K-major B (its dims checked
  // above) whose box is one swizzle span wide, so that the blocks land as
  // separate boxes would, and spans the k-tile.
  if (p.kChunks > 0) {
    if (p.operand != "B" || m.operand("B").layout != Layout::KMajor)
      fail(key + ".k_chunks",
           "only a k_major B is loaded in blocks of K, got it on " + what);
    size_t innerBytes = p.box[0] * dtypeSize(p.dtype);
    if (p.swizzle == Swizzle::None ||
        innerBytes != swizzleBytes(p.swizzle) || (p.box[1] * innerBytes) % 1024)
      fail(key + ".k_chunks",
           "needs a swizzled box exactly one swizzle span wide (box[0] = " +
               std::to_string(p.box[0]) + ": " + std::to_string(innerBytes) +
               " bytes, swizzle " + swizzleName(p.swizzle) +
               ") of whole 1024-byte swizzle atoms (box[1] = " +
               std::to_string(p.box[1]) + " rows)");
    if (int64_t(p.kChunks) * p.box[0] != m.tile[2])
      fail(key + ".k_chunks",
           std::to_string(p.kChunks) + " blocks of box[0] = " +
               std::to_string(p.box[0]) + " must span the tile's K (tile[2] = " +
               std::to_string(m.tile[2]) + "): a stage holds one k-tile of " +
               p.operand);
  }
}

/// A block_scale pointer (docs/manifest.md, "Block scaling"): f32 scales of
/// fp8 A per row per 128 of K ([M, KB(, L)]) or of fp8 B per 128 x 128
/// block ([KB, NB(, L)]); L exactly when the kernel is batched.
void checkBlockScale(const Manifest &m, const Param &p,
                     const std::string &key) {
  if (p.dtype != DType::F32)
    fail(key + ".dtype", std::string("block scales are f32, got ") +
                             dtypeName(p.dtype));
  DType scaled = m.operand(p.blockScale).dtype;
  if (scaled != DType::F8E4M3 && scaled != DType::F8E5M2)
    fail(key + ".block_scale",
         "block scales apply to 8-bit operands, but " + p.blockScale +
             " is " + dtypeName(scaled));
  std::vector<Dim> want = p.blockScale == "A"
                              ? std::vector<Dim>{Dim::M, Dim::KB}
                              : std::vector<Dim>{Dim::KB, Dim::NB};
  if (m.batched)
    want.push_back(Dim::L);
  if (p.extent != want)
    fail(key + ".extent", "must be " + dimsString(want) + " for the block "
                              "scales of " + p.blockScale +
                              (m.batched ? " in a batched kernel" : "") +
                              ", got " + dimsString(p.extent));
}

/// A mixed-input A's scales or zero points (docs/mixed-input.md): in the
/// scale type, [M, KG(, L)] for groups of 32 or 64 (KG = K / group),
/// [M, KB(, L)] for groups of 128 or [M(, L)] for one per row (group 0),
/// of a kernel whose A is dequantized. Group 128 keeps its spelling KB
/// (what kernels have always named): KG there is refused, so each group
/// has one extent.
void checkDequant(const Manifest &m, const Param &p, const std::string &key) {
  const auto &dq = m.operand("A").dequant;
  if (!dq)
    fail(key + ".dequant", "operands.A has no dequant");
  if (p.name != "dequant_scale_a" && p.name != "dequant_zero_a")
    fail(key + ".name", "a dequant pointer is dequant_scale_a or "
                        "dequant_zero_a, got '" + p.name + "'");
  if (p.name == "dequant_zero_a" && dq->zero != "ui4")
    fail(key + ".name", "zero = " + dq->zero + " takes no zero points");
  if (p.dtype != dq->scale)
    fail(key + ".dtype", std::string("must be the scale type ") +
                             dtypeName(dq->scale) + ", got " +
                             dtypeName(p.dtype));
  std::vector<Dim> want{Dim::M};
  if (dq->group == 128)
    want.push_back(Dim::KB);
  else if (dq->group > 0)
    want.push_back(Dim::KG);
  if (m.batched)
    want.push_back(Dim::L);
  if (p.extent != want)
    fail(key + ".extent", "must be " + dimsString(want) +
                              " for group = " + std::to_string(dq->group) +
                              ", got " + dimsString(p.extent));
}

} // namespace

void validateManifest(const Manifest &m) {
  // Names are unique among params.
  for (size_t i = 0; i < m.params.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (m.params[i].name == m.params[k].name)
        fail(idx("params", i) + ".name", "duplicate parameter name '" +
                                             m.params[i].name + "' (also " +
                                             idx("params", k) + ")");

  // Index the EVT by name and check node-local rules.
  std::map<std::string, const EvtNode *> auxNodes, vecNodes, redNodes;
  int stores = 0;
  for (const EvtNode &n : m.nodes) {
    std::string key = idx("evt.nodes", static_cast<size_t>(n.id));
    auto claim = [&](std::map<std::string, const EvtNode *> &table,
                     const char *what) {
      auto [it, inserted] = table.emplace(n.name, &n);
      if (!inserted)
        fail(key + ".name", std::string("duplicate ") + what + " name '" +
                                n.name + "' (also evt.nodes[" +
                                std::to_string(it->second->id) + "])");
    };
    switch (n.op) {
    case EvtOp::Store:
      ++stores;
      if (n.dtype != m.operand("D").dtype)
        fail(key + ".dtype", std::string("store must convert to D's dtype (") +
                                 dtypeName(m.operand("D").dtype) + "), got " +
                                 dtypeName(n.dtype));
      break;
    case EvtOp::LoadSrc:
      if (!m.hasC())
        fail(key, "load_src reads C, but operands has no C");
      if (!n.skipIfZero.empty()) {
        const Param *p = m.findParam(n.skipIfZero);
        if (!p || (p->kind != ParamKind::Scalar &&
                   p->kind != ParamKind::ScalarPointer))
          fail(key + ".skip_if_zero", "'" + n.skipIfZero +
                                          "' is not a scalar or "
                                          "scalar_pointer parameter");
      }
      break;
    case EvtOp::Scalar:
      for (size_t i = 0; i < n.names.size(); ++i) {
        const Param *p = m.findParam(n.names[i]);
        ParamKind want = n.source == ScalarSource::Param
                             ? ParamKind::Scalar
                             : ParamKind::ScalarPointer;
        if (!p || p->kind != want)
          fail(idx(key + ".names", i), "'" + n.names[i] + "' is not a " +
                                           paramKindName(want) + " parameter");
      }
      break;
    case EvtOp::AuxLoad:
    case EvtOp::AuxStore:
      claim(auxNodes, "aux");
      break;
    case EvtOp::LoadVecM:
    case EvtOp::LoadVecN:
      claim(vecNodes, "vector");
      break;
    default:
      if (evtOpInfo(n.op).kind == EvtOpKind::Reduction)
        claim(redNodes, "reduction");
      break;
    }
  }
  if (stores != 1)
    fail("evt.nodes", "must contain exactly one store (the D output), got " +
                          std::to_string(stores));

  // D stored with a reduction: what PTX reduces into global memory
  // (cp.reduce.async.bulk.tensor, red.global).
  StoreReduce reduce = m.dReduce();
  DType d = m.operand("D").dtype;
  if (reduce != StoreReduce::None) {
    if (d != DType::F32 && d != DType::F16 && d != DType::BF16)
      fail("operands.D.reduce",
           std::string("PTX reduces only f32, f16 and bf16 into global "
                       "memory, D is ") +
               dtypeName(d));
    if (reduce != StoreReduce::Add && d == DType::F32)
      fail("operands.D.reduce",
           std::string(storeReduceName(reduce)) +
               " into f32: PTX has min and max for f16 and bf16 only");
    if (reduce != StoreReduce::Add && m.directStores())
      fail("operands.D.reduce",
           std::string(storeReduceName(reduce)) +
               " with D stored directly (a matrix parameter): red.global has "
               "no scalar 16-bit min or max");
  }

  // Params against operands and the EVT.
  std::set<std::string> mapped;
  for (const Param &p : m.params) {
    std::string key = paramKey(m, &p);
    switch (p.kind) {
    case ParamKind::TensorMap:
    case ParamKind::Matrix:
      checkTensorMap(m, p, auxNodes);
      if (!mapped.insert(p.operand).second)
        fail(key + ".operand", "operand " + p.operand +
                                   " already has a tensor_map or matrix");
      // A matrix is written with st.global (D or an aux store), or is A
      // or B read with cp.async (operands.X.load says so).
      if (p.kind == ParamKind::Matrix && (p.operand == "A" || p.operand == "B")) {
        const OperandInfo &op = m.operands.at(p.operand);
        if (op.load != OperandLoad::CpAsync)
          fail(key + ".operand",
               "a matrix parameter for " + p.operand + " needs operands." +
                   p.operand + ".load = \"cp_async\"");
        if (p.alignBytes == 0)
          fail(key + ".align_bytes",
               "is required for " + p.operand + " read with cp.async");
        if (p.alignBytes != op.alignBytes)
          fail(key + ".align_bytes",
               std::to_string(p.alignBytes) + " differs from operands." +
                   p.operand + ".align_bytes = " +
                   std::to_string(op.alignBytes));
      } else if (p.kind == ParamKind::Matrix &&
                 (p.operand == "C" ||
                  (auxNodes.count(p.operand) &&
                   auxNodes.at(p.operand)->op == EvtOp::AuxLoad))) {
        // C or an aux matrix copied by the epilogue-load warp (load_c =
        // cp_async, every sm_8x kernel).
        if (p.alignBytes == 0)
          fail(key + ".align_bytes",
               "is required for " + p.operand + " read with cp.async");
      } else if (p.kind == ParamKind::Matrix && p.operand != "D" &&
                 (!auxNodes.count(p.operand) ||
                  auxNodes.at(p.operand)->op != EvtOp::AuxStore)) {
        fail(key + ".operand",
             "a matrix parameter is an output stored without TMA (D or an "
             "aux_store) or an input read with cp.async (A, B, C or an "
             "aux_load), got '" +
                 p.operand + "'");
      }
      if (p.kind == ParamKind::TensorMap &&
          (p.operand == "A" || p.operand == "B") &&
          m.operands.at(p.operand).load == OperandLoad::CpAsync)
        fail(key + ".kind", "operands." + p.operand +
                                ".load is \"cp_async\": " + p.operand +
                                " takes a matrix parameter, not a tensor_map");
      break;
    case ParamKind::Pointer: {
      if (!p.blockScale.empty()) {
        checkBlockScale(m, p, key);
        break;
      }
      if (!p.dequant.empty()) {
        checkDequant(m, p, key);
        break;
      }
      auto it = vecNodes.find(p.name);
      if (it == vecNodes.end())
        fail(key + ".name",
             "pointer '" + p.name +
                 "' is not read by any evt load_vec_m/load_vec_n");
      const EvtNode &n = *it->second;
      Dim d = n.op == EvtOp::LoadVecM ? Dim::M : Dim::N;
      if (p.extent != std::vector<Dim>{d} &&
          p.extent != std::vector<Dim>{d, Dim::L})
        fail(key + ".extent", std::string("must be [") + dimName(d) + "] or [" +
                                  dimName(d) + ", L] for a vector read by " +
                                  evtOpName(n.op) + ", got " +
                                  dimsString(p.extent));
      if (p.dtype != n.dtype)
        fail(key + ".dtype", std::string("must equal the dtype of evt node ") +
                                 std::to_string(n.id) + " (" +
                                 dtypeName(n.dtype) + "), got " +
                                 dtypeName(p.dtype));
      break;
    }
    case ParamKind::Reduction: {
      auto it = redNodes.find(p.name);
      if (it == redNodes.end())
        fail(key + ".name", "reduction '" + p.name +
                                "' is not written by any evt reduce node");
      const EvtNode &n = *it->second;
      if (n.reduce != p.reduce)
        fail(key + ".reduce", std::string("must equal evt node ") +
                                  std::to_string(n.id) + "'s reduction (" +
                                  reduceName(n.reduce) + "), got " +
                                  reduceName(p.reduce));
      std::vector<std::vector<Dim>> ok;
      if (n.op == EvtOp::ReduceToVecM)
        ok = {{Dim::M}, {Dim::M, Dim::L}};
      else if (n.op == EvtOp::ReduceToVecN)
        ok = {{Dim::N}, {Dim::N, Dim::L}};
      else
        ok = {{}, {Dim::L}};
      if (std::find(ok.begin(), ok.end(), p.extent) == ok.end())
        fail(key + ".extent",
             "must be " + dimsString(ok[0]) + " or " + dimsString(ok[1]) +
                 " for " + evtOpName(n.op) + ", got " + dimsString(p.extent));
      break;
    }
    default:
      break;
    }
  }
  // The workspace and the stream-K tile count: exactly with their
  // scheduler.
  auto count = [&](ParamKind kind) {
    return std::count_if(m.params.begin(), m.params.end(),
                         [&](const Param &p) { return p.kind == kind; });
  };
  bool wantWorkspace = m.scheduler.kind != SchedulerKind::DataParallel;
  bool wantTiles = m.scheduler.kind == SchedulerKind::StreamK;
  // The scheduler's own parameters: exactly one when it takes it, else none.
  auto expectOne = [&](ParamKind kind, bool want, const char *what) {
    if (count(kind) != (want ? 1 : 0))
      fail("params", std::string("tile scheduler ") +
                         schedulerKindName(m.scheduler.kind) + " takes " +
                         (want ? "one" : "no") + " " + what +
                         " parameter, got " + std::to_string(count(kind)));
  };
  expectOne(ParamKind::Workspace, wantWorkspace, "workspace");
  expectOne(ParamKind::StreamKTiles, wantTiles, "stream_k_tiles");
  // The launch's tile order: exactly with grid.raster `runtime`.
  if (count(ParamKind::TileOrder) != (m.runtimeTileOrder() ? 1 : 0))
    fail("params", std::string("grid.raster ") + rasterName(m.grid.raster) +
                       " takes " + (m.runtimeTileOrder() ? "one" : "no") +
                       " tile_order parameter, got " +
                       std::to_string(count(ParamKind::TileOrder)));
  // Block scaling scales both operands or neither, once each.
  int64_t scalesA = 0, scalesB = 0;
  for (const Param &p : m.params)
    if (p.kind == ParamKind::Pointer) {
      scalesA += p.blockScale == "A";
      scalesB += p.blockScale == "B";
    }
  if (scalesA > 1 || scalesB > 1 || scalesA != scalesB)
    fail("params", "block scaling takes one block_scale pointer for A and "
                   "one for B, got " +
                       std::to_string(scalesA) + " and " +
                       std::to_string(scalesB));
  for (const char *op : {"A", "B", "D"})
    if (!mapped.count(op))
      fail("params", std::string("no tensor_map or matrix for operand ") + op);
  if (m.hasC() && !mapped.count("C"))
    fail("params", "operands declares C but no tensor_map reads it");
  // A column-major D is written by the direct stores (docs/manifest.md).
  if (const Param *d = m.findTensorMap("D");
      d && m.operand("D").layout == Layout::MMajor)
    fail(paramKey(m, d) + ".kind",
         "operands.D.layout = \"m_major\" (a column-major D) is stored "
         "without TMA: a matrix parameter, not a tensor_map");
  for (const auto &[name, node] : auxNodes)
    if (!mapped.count(name))
      fail(idx("evt.nodes", static_cast<size_t>(node->id)) + ".name",
           "aux matrix '" + name + "' has no tensor_map or matrix parameter");
  for (const auto &[name, node] : vecNodes) {
    const Param *p = m.findParam(name);
    if (!p || p->kind != ParamKind::Pointer)
      fail(idx("evt.nodes", static_cast<size_t>(node->id)) + ".name",
           "vector '" + name + "' has no pointer parameter");
  }
  for (const auto &[name, node] : redNodes) {
    const Param *p = m.findParam(name);
    if (!p || p->kind != ParamKind::Reduction)
      fail(idx("evt.nodes", static_cast<size_t>(node->id)) + ".name",
           "reduction '" + name + "' has no reduction parameter");
  }
}

} // namespace wsgemm::runtime::detail
