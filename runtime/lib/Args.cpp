//===- Args.cpp - Validate GEMM arguments against a manifest --------------===//
//
// The checks run in a fixed order (sizes, then parameters in kernel order,
// then names the kernel does not know) and the first failure is returned, so
// a test can expect one exact message per broken rule.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/Prepack.h"

#include "Saturate.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <set>

namespace wsgemm::runtime {

namespace {

std::string hex(CUdeviceptr p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, static_cast<uint64_t>(p));
  return buf;
}

Status checkSize(const char *name, int64_t v) {
  if (v < 1)
    return errorf(name, ": must be >= 1, got ", v);
  if (v > std::numeric_limits<int32_t>::max())
    return errorf(name, ": ", v,
                  " exceeds the int32 range of the kernel's size parameters");
  return Status::success();
}

Status checkDType(const std::string &name, const TensorArg &t, DType want) {
  if (t.dtype && *t.dtype != want)
    return errorf(name, ": dtype ", dtypeName(*t.dtype),
                  " does not match the kernel's ", dtypeName(want));
  return Status::success();
}

/// The fix for an input that TMA cannot read: a kernel that copies it (A
/// and B of 16 bits; C and aux loads of 16 or 32 bits, at their size).
std::string cpAsyncFix(const Manifest &m, const std::string &name, size_t es) {
  std::string k = name == "A" ? "a" : name == "B" ? "b" : "c";
  if (m.isOutput(name) || es == 1 || (k != "c" && es != 2))
    return "";
  return "; or use a kernel compiled with load_" + k + " = cp_async, align_" +
         k + " = " + std::to_string(std::max<size_t>(es, 2)) +
         " (cp.async copies, any alignment of the element)";
}

/// The largest of 16, 8, 4, 2, 1 bytes that divides `v`.
int64_t alignmentOf(int64_t v) {
  for (int64_t a = 16; a > 1; a /= 2)
    if (v % a == 0)
      return a;
  return 1;
}

Status checkCopiedAlignment(const Manifest &m, const Param &p,
                            const TensorArg &t, const MatrixGeometry &g) {
  const std::string &name = p.operand;
  const int64_t es = static_cast<int64_t>(dtypeSize(p.dtype));
  const int64_t align = p.alignBytes;
  const int64_t have = operandAlignment(m, name, t, g);
  if (have >= align)
    return Status::success();
  const std::string n = std::to_string(align), h = std::to_string(have);
  // C and aux loads: the epilogue's copies (load_c = cp_async, sm_8x).
  const char *knob =
      name == "A" ? "align_a" : name == "B" ? "align_b" : "align_c";
  std::string fix = ": the kernel copies " + name + " " + n +
                    " bytes at a time (" + knob + " = " + n +
                    "); use a kernel compiled with " + knob + " = " + h +
                    " (or a family holding one), or pass " + name + " at a " +
                    n + "-byte aligned address with ld a multiple of " +
                    std::to_string(std::max<int64_t>(1, align / es)) +
                    " elements";
  if (int64_t(t.ptr) % align != 0)
    return errorf(name, ": base address ", hex(t.ptr), " is not ", align,
                  "-byte aligned", fix);
  if ((g.ld * es) % align != 0)
    return errorf(name, ": row stride ld * ", es, " = ", g.ld * es,
                  " bytes (ld = ", g.ld, ") is not a multiple of ", align, fix);
  return errorf(name, ": batch stride ", g.batchStride, " * ", es, " = ",
                g.batchStride * es, " bytes is not a multiple of ", align, fix);
}

Status checkMatrix(const Manifest &m, const Param &p, const GemmArgs &args) {
  const std::string &name = p.operand;
  const TensorArg *t = tensorArgFor(name, args);
  MatrixGeometry g = matrixGeometry(m, name, args);
  const size_t es = dtypeSize(p.dtype);
  bool cSkipped = name == "C" && sourceSkipped(m, args);
  if (!t || t->ptr == 0) {
    if (cSkipped)
      return Status::success(); // never read: encoded over D's address
    std::string hint;
    if (name == "C")
      for (const EvtNode &n : m.nodes)
        if (n.op == EvtOp::LoadSrc && !n.skipIfZero.empty())
          hint = " (C may be null only when " + n.skipIfZero + " == 0)";
    return errorf(name, ": null pointer", hint);
  }
  WSGEMM_TRY(checkDType(name, *t, p.dtype));
  // A pre-packed weight has its own rules (Prepack.cpp).
  if (!p.packing.empty())
    return checkPackedArgument(m, p, *t, args);
  // Blocks of K in one box (k_chunks, TensorMap.cpp): whole blocks only
  // (a partial last block is past the view and would read as zeros).
  if (p.kChunks > 0 && args.K % p.box[0] != 0)
    return errorf(name, ": K = ", args.K, " is not a multiple of ", p.box[0],
                  ": the kernel loads ", name, " in blocks of ", p.box[0],
                  " of K, ", p.kChunks, " to a TMA box (k_chunks)");
  // A matrix (store = direct) is written element by element with st.global:
  // none of TMA's 16-byte rules apply to it.
  const bool tma = p.kind == ParamKind::TensorMap;
  // An input read with cp.async (A, B; C and aux loads, load_c): base, ld
  // and batch stride aligned to the copy width (align_bytes).
  if (p.kind == ParamKind::Matrix && p.alignBytes > 0)
    WSGEMM_TRY(checkCopiedAlignment(m, p, *t, g));
  if (tma && t->ptr % 16 != 0)
    return errorf(name, ": base address ", hex(t->ptr),
                  " is not 16-byte aligned (TMA requirement)",
                  cpAsyncFix(m, name, es));
  if (!tma && t->ptr % es != 0)
    return errorf(name, ": base address ", hex(t->ptr),
                  " is not aligned to its element size (", es, " bytes)");
  if (t->ld < 0)
    return errorf(name,
                  ": leading dimension must be >= 0 (0 means packed), "
                  "got ",
                  t->ld);
  if (t->ld > 0 && t->ld < g.cols)
    return errorf(name, ": leading dimension ld = ", t->ld,
                  " is smaller than the row length ", dimName(g.colDim), " = ",
                  g.cols);
  // Strides of 2^40 bytes or more are refused below; checking the element
  // count first keeps every product here within 64 bits.
  if (g.ld >= (int64_t(1) << 40))
    return errorf(name, ": leading dimension ", g.ld,
                  " elements exceeds the TMA limit of 2^40 bytes per row");
  if (tma && p.dims.size() > 1) {
    // An output's rows must end on 16 bytes too: on the H100 a TMA store
    // of the last box of a row wrote past the row's end up to the next 16
    // bytes (lm-head.test, N = 50257 f16 with rows padded to 50264: the
    // bytes after the last row were written), which would clobber whatever
    // the caller keeps beside the matrix in a padded or sliced buffer.
    bool output = m.isOutput(name);
    const int64_t per = 16 / static_cast<int64_t>(es);
    const std::string roundUp =
        ": compute " + std::string(dimName(g.colDim)) + " = " +
        std::to_string((g.cols + per - 1) / per * per) + " (a multiple of " +
        std::to_string(per) +
        ") and ignore the extra columns, or use a kernel compiled with "
        "store = direct (any row stride)";
    int64_t bytes = g.ld * static_cast<int64_t>(es);
    if (bytes % 16 != 0) {
      // The fix for an input: rows padded to 16 bytes (TMA loads clip at
      // the row length, so the padding is never read); for an output,
      // whole 16-byte rows.
      int64_t padded = (g.ld + per - 1) / per * per;
      std::string fix = output && t->ld == 0
                            ? roundUp
                            : ": store its rows padded to ld = " +
                                  std::to_string(padded) +
                                  " elements (a multiple of " +
                                  std::to_string(per) +
                                  "; TensorArg::ld, ws-gemm-run --align-ld 16)";
      if (t->ld > 0)
        return errorf(name, ": row stride ld * ", es, " = ", bytes,
                      " bytes (ld = ", t->ld,
                      ") is not a multiple of 16 (TMA requirement)", fix,
                      cpAsyncFix(m, name, es));
      return errorf(name, ": row stride ", dimName(g.colDim), " * ", es, " = ",
                    bytes, " bytes is not a multiple of 16 (TMA requirement)",
                    fix, cpAsyncFix(m, name, es));
    }
    if (bytes >= (int64_t(1) << 40))
      return errorf(name, ": row stride ", bytes,
                    " bytes exceeds the TMA limit of 2^40");
    const int64_t rowBytes = g.cols * static_cast<int64_t>(es);
    if (output && rowBytes % 16 != 0)
      return errorf(name, ": an output row of ", dimName(g.colDim), " = ",
                    g.cols, " elements is ", rowBytes,
                    " bytes, not a multiple of 16: TMA stores write whole "
                    "16-byte pieces at the end of a row, past it",
                    roundUp);
  }
  bool hasL = false;
  for (Dim d : p.dims)
    hasL |= d == Dim::L;
  if (hasL) {
    if (t->batchStride < 0)
      return errorf(name, ": batch stride must be >= 0 (0 means packed), got ",
                    t->batchStride);
    const int64_t matrix = detail::saturate(__int128(g.rows) * g.ld);
    if (t->batchStride > 0 && t->batchStride < matrix)
      return errorf(name, ": batch stride ", t->batchStride,
                    " elements is smaller than one matrix (", dimName(g.rowDim),
                    " * ld = ", matrix, ")");
    if (g.batchStride >= (int64_t(1) << 40))
      return errorf(name, ": batch stride ", g.batchStride,
                    " elements exceeds the TMA limit of 2^40 bytes");
    if (!tma)
      return Status::success();
    int64_t bytes = g.batchStride * static_cast<int64_t>(es);
    if (bytes % 16 != 0)
      return errorf(name, ": batch stride ", g.batchStride, " * ", es, " = ",
                    bytes, " bytes is not a multiple of 16 (TMA requirement)",
                    cpAsyncFix(m, name, es));
    if (bytes >= (int64_t(1) << 40))
      return errorf(name, ": batch stride ", bytes,
                    " bytes exceeds the TMA limit of 2^40");
  }
  return Status::success();
}

Status checkPointer(const Param &p, const GemmArgs &args) {
  auto it = args.named.find(p.name);
  if (it == args.named.end() || it->second.ptr == 0)
    return errorf(p.name, ": null pointer");
  const TensorArg &t = it->second;
  WSGEMM_TRY(checkDType(p.name, t, p.dtype));
  size_t es = dtypeSize(p.dtype);
  if (t.ptr % es != 0)
    return errorf(p.name, ": address ", hex(t.ptr),
                  " is not aligned to its element size (", es, " bytes)");
  if (p.alignBytes > es && t.ptr % p.alignBytes != 0)
    return errorf(p.name, ": address ", hex(t.ptr), " is not aligned to ",
                  p.alignBytes,
                  " bytes (the kernel copies it 16 bytes at a time; "
                  "align_bytes in the manifest)");
  // Block scales are read packed by their extent: a padded layout (such as
  // DeepGEMM's scale_a with M rounded up to 16 bytes) would be misread.
  if (!p.blockScale.empty() && (t.ld != 0 || t.batchStride != 0))
    return errorf(p.name, ": the block scales of ", p.blockScale,
                  " are read packed (element ",
                  p.blockScale == "A" ? "(l * KB + kb) * M + m"
                                      : "(l * NB + nb) * KB + kb",
                  ", KB = ceil(K / 128), NB = ceil(N / 128)), but ld = ",
                  t.ld, " and batch stride = ", t.batchStride,
                  " were given: repack them with ld = 0 and batch stride 0");
  return Status::success();
}

} // namespace

void padLeadingDimensions(const Manifest &m, GemmArgs &args, int64_t pad,
                          int64_t alignBytes) {
  if (pad <= 0 && alignBytes <= 0)
    return;
  for (const Param &p : m.params) {
    if (p.kind != ParamKind::TensorMap && p.kind != ParamKind::Matrix)
      continue;
    int64_t ld = matrixGeometry(m, p.operand, args).cols + std::max<int64_t>(0, pad);
    if (alignBytes > 0) {
      int64_t per = std::max<int64_t>(
          1, alignBytes / static_cast<int64_t>(dtypeSize(p.dtype)));
      ld = (ld + per - 1) / per * per;
    }
    tensorArgFor(p.operand, args).ld = ld;
  }
}

int64_t operandAlignment(const Manifest &m, const std::string &operand,
                         const TensorArg &t, const MatrixGeometry &g) {
  (void)m;
  const int64_t es = static_cast<int64_t>(dtypeSize(g.dtype));
  int64_t a = std::min(alignmentOf(static_cast<int64_t>(t.ptr)),
                       alignmentOf(g.ld * es));
  if (g.batches > 1)
    a = std::min(a, alignmentOf(g.batchStride * es));
  (void)operand;
  return a;
}

int64_t operandAlignment(const Manifest &m, const std::string &operand,
                         const GemmArgs &args) {
  const TensorArg *t = tensorArgFor(operand, args);
  if (!t || !m.findMatrix(operand))
    return 16;
  return operandAlignment(m, operand, *t, matrixGeometry(m, operand, args));
}

bool outputsNeedDirectStore(const Manifest &m, const GemmArgs &args) {
  for (const Param &p : m.params) {
    if (p.kind != ParamKind::TensorMap && p.kind != ParamKind::Matrix)
      continue;
    bool output = p.operand == "D";
    for (const EvtNode &n : m.nodes)
      output |= n.op == EvtOp::AuxStore && n.name == p.operand;
    const TensorArg *t = tensorArgFor(p.operand, args);
    if (!output || !t)
      continue;
    MatrixGeometry g = matrixGeometry(m, p.operand, args);
    const __int128 es = dtypeSize(p.dtype);
    if (t->ptr % 16 != 0 || (g.ld * es) % 16 != 0 || (g.cols * es) % 16 != 0 ||
        (g.batches > 1 && (g.batchStride * es) % 16 != 0))
      return true;
  }
  return false;
}

/// A kernel that reduces into D (operands.D.reduce) updates D in place while
/// its tiles, and split-K's or stream-K's partial tiles, still load C and
/// aux matrices with TMA: those loads and the reductions into D are not
/// ordered, and `D += f(D)` is not what a reduce-store means. So no matrix
/// the kernel reads (A, B, C, aux loads) may overlap D's bytes. (Vectors
/// and scalars are read once per tile or launch; they are not checked.)
static Status checkReduceAliasing(const Manifest &m, const GemmArgs &args) {
  if (m.dReduce() == StoreReduce::None || args.D.ptr == 0)
    return Status::success();
  auto range = [&](const std::string &operand, const TensorArg &t) {
    MatrixGeometry g = matrixGeometry(m, operand, args);
    uint64_t bytes =
        static_cast<uint64_t>(g.spanElements()) * dtypeSize(g.dtype);
    return std::pair<uint64_t, uint64_t>(t.ptr, t.ptr + bytes);
  };
  auto [d0, d1] = range("D", args.D);
  std::vector<std::string> reads = {"A", "B"};
  if (m.hasC())
    reads.push_back("C");
  for (const EvtNode &n : m.nodes)
    if (n.op == EvtOp::AuxLoad)
      reads.push_back(n.name);
  for (const std::string &name : reads) {
    const TensorArg *t = tensorArgFor(name, args);
    if (!t || t->ptr == 0)
      continue;
    auto [r0, r1] = range(name, *t);
    if (r0 < d1 && d0 < r1)
      return errorf(name,
                    ": overlaps D, which this kernel reduces into (operands.D."
                    "reduce = ",
                    storeReduceName(m.dReduce()),
                    "): the kernel's TMA loads of ", name,
                    " and its reductions into D are not ordered; the "
                    "reduction already adds to D's old values, so give ",
                    name, " its own buffer");
  }
  return Status::success();
}

Status validate(const Manifest &m, const GemmArgs &args) {
  // Problem sizes.
  WSGEMM_TRY(checkSize("M", args.M));
  WSGEMM_TRY(checkSize("N", args.N));
  WSGEMM_TRY(checkSize("K", args.K));
  WSGEMM_TRY(checkSize("L", args.L));
  if (!m.batched && args.L != 1)
    return errorf("L: the kernel is not batched (manifest batched = false), "
                  "got L = ",
                  args.L);
  if (m.staticShape) {
    const auto &s = *m.staticShape;
    const int64_t got[4] = {args.M, args.N, args.K, args.L};
    const char *names[4] = {"M", "N", "K", "L"};
    for (int i = 0; i < 4; ++i)
      if (got[i] != s[i])
        return errorf(names[i],
                      ": the kernel was compiled for the static shape M x N x "
                      "K x L = ",
                      s[0], " x ", s[1], " x ", s[2], " x ", s[3], ", got ",
                      names[i], " = ", got[i]);
  }
  if (!m.hasC() && args.C.ptr != 0)
    return errorf("C: the kernel reads no C (the manifest has no operand C), "
                  "but a pointer was given");
  if (args.tileOrder && !m.runtimeTileOrder())
    return errorf("tileOrder: the kernel takes no tile_order parameter (its "
                  "config fixes raster ",
                  rasterName(m.grid.raster), " and swizzle ", m.grid.swizzle,
                  "; only a persistent kernel whose config sets neither "
                  "takes them at launch)");
  if (args.tileOrder)
    WSGEMM_TRY(checkTileOrder(*args.tileOrder));

  // Parameters, in kernel order.
  std::set<std::string> known;
  for (const Param &p : m.params) {
    switch (p.kind) {
    case ParamKind::TensorMap:
    case ParamKind::Matrix:
      known.insert(p.operand);
      WSGEMM_TRY(checkMatrix(m, p, args));
      break;
    case ParamKind::Pointer:
    case ParamKind::Reduction:
    case ParamKind::ScalarPointer:
      known.insert(p.name);
      WSGEMM_TRY(checkPointer(p, args));
      break;
    case ParamKind::Scalar:
      known.insert(p.name);
      if (!args.scalars.count(p.name))
        return errorf(p.name,
                      ": missing value for scalar parameter (set "
                      "GemmArgs::scalars[\"",
                      p.name, "\"])");
      break;
    case ParamKind::Size:
    case ParamKind::Workspace:    // checkWorkspace, with the grid
    case ParamKind::StreamKTiles: // the runtime's choice
    case ParamKind::TileOrder:    // the runtime's (checkTileOrderArg)
      break;
    }
  }

  WSGEMM_TRY(checkReduceAliasing(m, args));

  // Names the kernel does not take.
  auto listKnown = [&](bool wantScalars) {
    std::string s;
    for (const Param &p : m.params) {
      bool scalar = p.kind == ParamKind::Scalar;
      if (p.kind == ParamKind::Size || p.kind == ParamKind::Workspace ||
          p.kind == ParamKind::StreamKTiles || p.kind == ParamKind::TileOrder ||
          scalar != wantScalars)
        continue;
      std::string n =
          p.kind == ParamKind::TensorMap || p.kind == ParamKind::Matrix
              ? p.operand
              : p.name;
      if (n == "A" || n == "B" || n == "C" || n == "D")
        continue;
      s += (s.empty() ? "" : ", ") + n;
    }
    return s.empty() ? std::string("none") : s;
  };
  for (const auto &[name, t] : args.named) {
    (void)t;
    const Param *p = m.findParam(name);
    if (p && p->kind == ParamKind::Scalar)
      return errorf(name, ": is a scalar parameter; pass its value in "
                          "GemmArgs::scalars");
    if (!known.count(name) || name == "A" || name == "B" || name == "C" ||
        name == "D")
      return errorf(name,
                    ": unknown parameter (the kernel's named buffers "
                    "are: ",
                    listKnown(false), ")");
  }
  for (const auto &[name, v] : args.scalars) {
    (void)v;
    const Param *p = m.findParam(name);
    if (!p || p->kind != ParamKind::Scalar)
      return errorf(name,
                    ": unknown scalar parameter (the kernel's scalars "
                    "are: ",
                    listKnown(true), ")");
  }
  return Status::success();
}

GemmArgs argsForVariant(const Manifest &m, const GemmArgs &args) {
  // A caller of a family that mixes tile schedulers may hand over a
  // workspace and a stream-K tile count for whichever variant is chosen;
  // a data-parallel variant takes neither.
  GemmArgs out = args;
  if (!m.workspace) {
    out.workspace = 0;
    out.workspaceBytes = 0;
  }
  if (m.scheduler.kind != SchedulerKind::StreamK)
    out.streamKTiles.reset();
  if (!m.runtimeTileOrder())
    out.tileOrder.reset();
  return out;
}

} // namespace wsgemm::runtime
