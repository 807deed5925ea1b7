//===- CublasCompare.cpp - ws-gemm-bench's cuBLASLt side ------------------===//
//
// Row-major D = A B is column-major D^T = B^T A^T, so cuBLASLt's A is our B
// and its B our A (m' = N, n' = M). The epilogue follows the matched
// activation's cuBLASLt counterpart (EvtOps.def); cuBLASLt's bias runs
// along its rows, which are our N.
//
//===----------------------------------------------------------------------===//

#include "CublasCompare.h"

#include "ws-gemm-runtime/Classify.h"

#include <algorithm>
#include <cstring>

namespace wsgemm::bench {

using namespace runtime;

namespace {

cudaDataType cudaType(DType t) {
  switch (t) {
  case DType::F16:
    return CUDA_R_16F;
  case DType::BF16:
    return CUDA_R_16BF;
  case DType::F32:
    return CUDA_R_32F;
  case DType::F8E4M3:
    return CUDA_R_8F_E4M3;
  case DType::F8E5M2:
    return CUDA_R_8F_E5M2;
  case DType::I4: // no cuBLASLt counterpart (ws-gemm-bench skips it)
    return CUDA_R_4I;
  case DType::I8:
    return CUDA_R_8I;
  }
  return CUDA_R_32F;
}

double scalarNodeValue(const Manifest &m, int node,
                       const std::map<std::string, double> &scalars) {
  if (node < 0)
    return 1.0;
  const EvtNode &n = m.nodes[static_cast<size_t>(node)];
  double v = n.source == ScalarSource::Attr ? n.value : 1.0;
  for (const std::string &name : n.names) {
    auto it = scalars.find(name);
    v *= it == scalars.end() ? 1.0 : it->second;
  }
  return v;
}

} // namespace

static bool isFp8(DType t) { return t == DType::F8E4M3 || t == DType::F8E5M2; }

/// The fused epilogue cuBLASLt has for the EVT (any input type).
static CublasPlan
chooseCublasEpilogue(const Manifest &m,
                     const std::map<std::string, double> &scalars);

/// fp8: the scale pointers and amax cuBLASLt takes, when the kernel has
/// them as scalar pointers (CUTLASS's names, as the scaled presets use).
static void addFp8Scales(CublasPlan &p, const Manifest &m,
                         const std::map<std::string, double> &scalars) {
  // A dequantized fp8 A (mixed input) is multiplied in B's 16-bit type.
  if (!isFp8(m.operand("A").dtype) || m.operand("A").dequant)
    return;
  p.fp8 = true;
  auto pointer = [&](const char *name) {
    const Param *par = m.findParam(name);
    return par && par->kind == ParamKind::ScalarPointer ? std::string(name)
                                                        : std::string();
  };
  p.scaleA = pointer("scale_a");
  p.scaleB = pointer("scale_b");
  if (p.useC)
    p.scaleC = pointer("scale_c");
  if (isFp8(m.operand("D").dtype))
    p.scaleD = pointer("scale_d");
  const Param *amax = m.findParam("amax_d");
  if (amax && amax->kind == ParamKind::Reduction && amax->reduce == ReduceKind::AbsMax &&
      isFp8(m.operand("D").dtype))
    p.amaxD = "amax_d";
  // Unmatched fp8 EVTs (scales multiplied in by hand) still take alpha.
  if (!p.fused && scalars.count("alpha"))
    p.alpha = static_cast<float>(scalars.at("alpha"));
  std::string what;
  for (const std::string *s : {&p.scaleA, &p.scaleB, &p.scaleC, &p.scaleD})
    if (!s->empty())
      what += (what.empty() ? "" : ", ") + *s;
  if (!p.fused && !what.empty()) {
    // A scaled EVT the classifier does not know: cuBLASLt's fp8 matmul
    // computes the same epilogue itself, so the comparison is fused.
    p.fused = true;
    p.note = "cuBLASLt's fp8 matmul applies alpha and the scale pointers" +
             std::string(p.amaxD.empty() ? "" : " and computes amax_d") +
             " itself (D = scale_d * alpha * scale_a * scale_b * acc)";
  }
  // Block scaling (docs/fp8.md): cuBLASLt 13 has the same recipe
  // (CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F / BLK128x128_32F), not wired
  // here yet: its bare fp8 matmul is timed, a bound that skips the scales.
  if (m.blockScaled())
    p.note += std::string(p.note.empty() ? "" : "; ") +
              "cuBLASLt timed without the block scales (its VEC128_32F / "
              "BLK128x128_32F scale modes are not used yet)";
  p.epilogueName = "fp8 " + p.epilogueName + "; fast accumulation" +
                    (what.empty() ? std::string() : ", scale pointers " + what) +
                    (p.amaxD.empty() ? "" : ", AMAX_D");
}

CublasPlan chooseCublasPlan(const Manifest &m,
                            const std::map<std::string, double> &scalars) {
  CublasPlan p = chooseCublasEpilogue(m, scalars);
  addFp8Scales(p, m, scalars);
  return p;
}

static CublasPlan
chooseCublasEpilogue(const Manifest &m,
                     const std::map<std::string, double> &scalars) {
  CublasPlan p;
  StandardEpilogue e = classifyEpilogue(m);
  if (!e.matched) {
    p.note = "no cuBLASLt match for this EVT (" + e.reason +
             "): timing cuBLASLt's bare GEMM (alpha = 1, beta = 0) as a lower "
             "bound";
    return p;
  }
  p.fused = true;
  p.alpha = static_cast<float>(scalarNodeValue(m, e.alphaNode, scalars));
  if (e.hasC) {
    p.useC = true;
    p.beta = static_cast<float>(scalarNodeValue(m, e.betaNode, scalars));
  }
  std::vector<std::string> notes;
  if (!e.biasName.empty()) {
    p.useBias = true;
    p.biasType = e.biasDType;
    const Param *bp = m.findParam(e.biasName);
    p.biasPerBatch = bp && std::find(bp->extent.begin(), bp->extent.end(),
                                     Dim::L) != bp->extent.end();
    if (e.biasOp == EvtOp::LoadVecM)
      notes.push_back("cuBLASLt's bias runs along N here (ours along M): "
                      "same cost, different vector");
  }
  switch (evtOpInfo(e.activation).blas) {
  case BlasActivation::Relu:
    p.epilogue =
        p.useBias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    p.epilogueName = p.useBias ? "RELU_BIAS" : "RELU";
    break;
  case BlasActivation::Gelu:
    p.epilogue =
        p.useBias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
    p.epilogueName = p.useBias ? "GELU_BIAS" : "GELU";
    notes.push_back(std::string("ours is ") + evtOpName(e.activation) +
                    "; cuBLASLt uses its own GELU formula");
    break;
  default:
    p.epilogue = p.useBias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
    p.epilogueName = p.useBias ? "BIAS" : "DEFAULT";
    break;
  }
  if (!e.extraOutputs.empty()) {
    std::string extra;
    for (const std::string &x : e.extraOutputs)
      extra += (extra.empty() ? "" : ", ") + x;
    notes.push_back("not in cuBLASLt's epilogue: " + extra);
  }
  p.epilogueName += p.useC ? " with alpha/beta and C" : " with alpha";
  for (const std::string &n : notes)
    p.note += (p.note.empty() ? "" : "; ") + n;
  return p;
}

CublasRunner::~CublasRunner() {
  if (!api_)
    return;
  for (auto l : layouts_)
    if (l)
      api_->layoutDestroy(l);
  if (desc_)
    api_->descDestroy(desc_);
  if (handle_)
    api_->destroy(handle_);
}

Status CublasRunner::setup(const CublasLtApi &api, const Manifest &m,
                           const Options &o, const CublasPlan &plan,
                           const std::vector<TestProblem> &sets) {
  api_ = &api;
  plan_ = plan;
  DType aT = m.operand("A").dtype, bT = m.operand("B").dtype,
        dT = m.operand("D").dtype;
  // A quantized A (mixed input): cuBLASLt multiplies it dequantized to B's
  // type, as a user without the kernel would (torch.mm on the weight).
  const bool mixed = m.operand("A").dequant.has_value();
  if (mixed)
    aT = bT;
  if (aT != bT && !(plan.fp8 && isFp8(bT)))
    return errorf("cuBLASLt comparison needs A and B of one dtype, got ",
                  dtypeName(aT), " and ", dtypeName(bT));
  // The mapping below writes a row-major D.
  if (m.operand("D").layout != Layout::NMajor)
    return errorf("cuBLASLt comparison needs a row-major D (n_major), got ",
                  layoutName(m.operand("D").layout),
                  ": time it without --compare cublaslt");
  // cuBLASLt's fp8 matmul is TN only: both operands K-major, which is
  // also the only layout our fp8 kernels take (Legality.cpp).
  if (plan.fp8 && (m.operand("A").layout != Layout::KMajor ||
                   m.operand("B").layout != Layout::KMajor))
    return errorf("cuBLASLt's fp8 matmul needs K-major A and B (TN)");
  auto check = [&](cublasStatus_t s, const char *what) {
    return s == CUBLAS_STATUS_SUCCESS ? Status::success()
                                      : errorf(what, ": ", api.status(s));
  };
  WSGEMM_TRY(check(api.create(&handle_), "cublasLtCreate"));
  WSGEMM_TRY(check(api.descCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                   "cublasLtMatmulDescCreate"));
  // Row-major D = A B is column-major D^T = B^T A^T: cuBLASLt's A is our
  // B and its B is our A, with m' = N, n' = M.
  const TestProblem &p0 = sets.front();
  const GemmArgs &a = p0.args();
  MatrixGeometry gA = matrixGeometry(m, "A", a), gB = matrixGeometry(m, "B", a),
                 gD = matrixGeometry(m, "D", a);
  bool bNMajor = m.operand("B").layout == Layout::NMajor;
  bool aKMajor = m.operand("A").layout == Layout::KMajor;
  cublasOperation_t opA = bNMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasOperation_t opB = aKMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  WSGEMM_TRY(
      check(api.descSet(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &opA, sizeof opA),
            "TRANSA"));
  WSGEMM_TRY(
      check(api.descSet(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &opB, sizeof opB),
            "TRANSB"));
  WSGEMM_TRY(check(api.descSet(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE,
                               &plan.epilogue, sizeof plan.epilogue),
                   "EPILOGUE"));
  if (plan.fp8) {
    int8_t fast = 1;
    WSGEMM_TRY(check(
        api.descSet(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast),
        "FAST_ACCUM"));
  }
  auto layout = [&](cublasLtMatrixLayout_t &l, DType t, const MatrixGeometry &g,
                    const char *what) -> Status {
    // Stored row-major rows x cols == column-major cols x rows.
    WSGEMM_TRY(check(api.layoutCreate(&l, cudaType(t), uint64_t(g.cols),
                                      uint64_t(g.rows), g.ld),
                     what));
    if (o.L > 1) {
      int32_t count = static_cast<int32_t>(o.L);
      int64_t stride = g.batchStride;
      WSGEMM_TRY(check(api.layoutSet(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                     &count, sizeof count),
                       "BATCH_COUNT"));
      WSGEMM_TRY(
          check(api.layoutSet(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                              &stride, sizeof stride),
                "STRIDED_BATCH_OFFSET"));
    }
    return Status::success();
  };
  layouts_.assign(4, nullptr);
  WSGEMM_TRY(layout(layouts_[0], bT, gB, "layout A' (our B)"));
  WSGEMM_TRY(layout(layouts_[1], aT, gA, "layout B' (our A)"));
  DType cT = plan.useC ? m.operand("C").dtype : dT;
  // An fp8 D takes a 16-bit C (cuBLASLt's fp8 type table): without C, a
  // bf16 one that beta = 0 never reads.
  bool dummyC = plan.fp8 && !plan.useC && isFp8(dT);
  if (dummyC) {
    cT = DType::BF16;
    auto c = DeviceBuffer::alloc(
        static_cast<size_t>(gD.spanElements()) * dtypeSize(cT), "cuBLASLt C");
    if (!c)
      return c.status();
    dummyC_ = std::move(*c);
  }
  MatrixGeometry gC = plan.useC ? matrixGeometry(m, "C", a) : gD;
  WSGEMM_TRY(layout(layouts_[2], cT, gC, "layout C"));
  WSGEMM_TRY(layout(layouts_[3], dT, gD, "layout D"));

  // Bias: a vector of N per set (cuBLASLt's bias follows D's rows = N).
  if (plan.useBias) {
    int32_t bt = static_cast<int32_t>(cudaType(plan.biasType));
    WSGEMM_TRY(check(
        api.descSet(desc_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof bt),
        "BIAS_DATA_TYPE"));
    int64_t n = o.N * (plan.biasPerBatch ? o.L : 1);
    std::vector<double> v;
    fillUniform(v, static_cast<size_t>(n), o.seed, "cublaslt-bias", -1, 1);
    std::vector<unsigned char> bytes(static_cast<size_t>(n) *
                                     dtypeSize(plan.biasType));
    for (size_t i = 0; i < v.size(); ++i)
      storeElement(plan.biasType, bytes.data(), i, v[i]);
    for (size_t s = 0; s < sets.size(); ++s) {
      auto b = DeviceBuffer::alloc(bytes.size(), "cuBLASLt bias");
      if (!b)
        return b.status();
      WSGEMM_TRY(b->upload(bytes.data(), bytes.size()));
      bias_.push_back(std::move(*b));
    }
    if (plan.biasPerBatch && o.L > 1) {
      int64_t stride = o.N;
      WSGEMM_TRY(
          check(api.descSet(desc_, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                            &stride, sizeof stride),
                "BIAS_BATCH_STRIDE"));
    }
  }

  // fp8: the scale and amax pointers of each set (cuBLASLt's A is our B:
  // its A scale is our scale_b), the first set's set before the heuristic,
  // which picks kernels that apply them.
  if (plan.fp8) {
    for (const TestProblem &p : sets) {
      const GemmArgs &ga = p.args();
      auto named = [&](const std::string &name) -> CUdeviceptr {
        auto it = ga.named.find(name);
        return name.empty() || it == ga.named.end() ? 0 : it->second.ptr;
      };
      scales_.push_back({named(plan.scaleB), named(plan.scaleA),
                         named(plan.scaleC), named(plan.scaleD),
                         named(plan.amaxD)});
    }
    WSGEMM_TRY(setScalePointers(0));
  }

  // Heuristic with a workspace.
  auto ws = DeviceBuffer::alloc(workspaceBytes_, "cuBLASLt workspace");
  if (!ws)
    return ws.status();
  workspace_ = std::move(*ws);
  cublasLtMatmulPreference_t pref = nullptr;
  WSGEMM_TRY(check(api.prefCreate(&pref), "cublasLtMatmulPreferenceCreate"));
  size_t wsBytes = workspaceBytes_;
  cublasStatus_t st = api.prefSet(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes, sizeof wsBytes);
  if (st == CUBLAS_STATUS_SUCCESS && plan.useBias) {
    // The heuristic checks the bias pointer's alignment.
    void *bp =
        reinterpret_cast<void *>(static_cast<uintptr_t>(bias_.front().ptr()));
    st = api.descSet(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp, sizeof bp);
  }
  int returned = 0;
  if (st == CUBLAS_STATUS_SUCCESS)
    st = api.heuristic(handle_, desc_, layouts_[0], layouts_[1], layouts_[2],
                       layouts_[3], pref, 1, &heuristic_, &returned);
  api.prefDestroy(pref);
  WSGEMM_TRY(check(st, "cublasLtMatmulAlgoGetHeuristic"));
  if (returned < 1)
    return errorf("cuBLASLt: no algorithm for this configuration");
  for (const TestProblem &p : sets) {
    const GemmArgs &ga = p.args();
    CUdeviceptr aPtr = ga.A.ptr;
    if (mixed) {
      // Seeded values in the weights' range, 2^20 of them repeated: the
      // time does not depend on them beyond that.
      size_t n = static_cast<size_t>(gA.rows * gA.cols * o.L);
      size_t distinct = std::min<size_t>(n, size_t(1) << 20);
      std::vector<double> v;
      fillUniform(v, distinct, o.seed, "cublaslt-dequant-a", -2, 2);
      const size_t es = dtypeSize(aT);
      std::vector<unsigned char> bytes(n * es);
      for (size_t i = 0; i < distinct; ++i)
        storeElement(aT, bytes.data(), i, v[i]);
      for (size_t i = distinct; i < n; i += distinct)
        std::memcpy(bytes.data() + i * es, bytes.data(),
                    std::min(distinct, n - i) * es);
      auto buf = DeviceBuffer::alloc(bytes.size(), "cuBLASLt dequantized A");
      if (!buf)
        return buf.status();
      WSGEMM_TRY(buf->upload(bytes.data(), bytes.size()));
      aPtr = buf->ptr();
      dequantA_.push_back(std::move(*buf));
    }
    ptrs_.push_back({ga.B.ptr, aPtr,
                     plan.useC ? ga.C.ptr : dummyC ? dummyC_.ptr() : ga.D.ptr,
                     ga.D.ptr});
  }
  return Status::success();
}

Status CublasRunner::setScalePointers(size_t set) {
  static const cublasLtMatmulDescAttributes_t attrs[5] = {
      CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
      CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER,
      CUBLASLT_MATMUL_DESC_AMAX_D_POINTER};
  for (size_t i = 0; i < 5; ++i) {
    CUdeviceptr ptr = scales_[set][i];
    if (!ptr)
      continue;
    void *p = reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
    cublasStatus_t st = api_->descSet(desc_, attrs[i], &p, sizeof p);
    if (st != CUBLAS_STATUS_SUCCESS)
      return errorf("cuBLASLt fp8 scale/amax pointer ", i, ": ",
                    api_->status(st));
  }
  return Status::success();
}

Status CublasRunner::launch(int i, CUstream stream) {
  size_t s = static_cast<size_t>(i) % ptrs_.size();
  if (plan_.useBias) {
    void *bp = reinterpret_cast<void *>(static_cast<uintptr_t>(bias_[s].ptr()));
    cublasStatus_t st =
        api_->descSet(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp, sizeof bp);
    if (st != CUBLAS_STATUS_SUCCESS)
      return errorf("BIAS_POINTER: ", api_->status(st));
  }
  if (plan_.fp8 && scales_.size() > 1)
    WSGEMM_TRY(setScalePointers(s));
  auto p = [](CUdeviceptr x) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(x));
  };
  const auto &q = ptrs_[s];
  cublasStatus_t st =
      api_->matmul(handle_, desc_, &plan_.alpha, p(q[0]), layouts_[0], p(q[1]),
                   layouts_[1], &plan_.beta, p(q[2]), layouts_[2], p(q[3]),
                   layouts_[3], &heuristic_.algo, p(workspace_.ptr()),
                   workspaceBytes_, reinterpret_cast<cudaStream_t>(stream));
  if (st != CUBLAS_STATUS_SUCCESS)
    return errorf("cublasLtMatmul: ", api_->status(st));
  return Status::success();
}

} // namespace wsgemm::bench
