//===- ws-gemm-bench.cpp - Time a ws-gemm kernel, side by side with cuBLASLt
//===//
//
// Times the kernel with CUDA driver events around each launch, after a
// warm-up, over rotating buffer sets whose total exceeds twice the L2 (read
// from the device) so no run finds its inputs in cache, and reports the
// median: TFLOP/s = 2*M*N*K*L / t. With --compare cublaslt it loads cuBLASLt
// at run time (dlopen, never linked) and times cublasLtMatmul on the same
// buffers with the nearest epilogue (DEFAULT, BIAS, RELU(_BIAS),
// GELU(_BIAS); alpha/beta with C), or, when the EVT has no cuBLASLt
// counterpart, the bare GEMM as a lower bound, and says which.
//
//===----------------------------------------------------------------------===//

#include "CublasLt.h"

#include "ws-gemm-runtime/Classify.h"
#include "ws-gemm-runtime/Kernel.h"
#include "ws-gemm-runtime/Problem.h"

#include "../common/Flags.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace wsgemm::runtime;
using wsgemm::bench::CublasLtApi;

namespace {

struct Options {
  std::string manifest;
  int64_t M = 0, N = 0, K = 0, L = 1;
  int iters = 100;
  int warmup = 20;
  int device = 0;
  uint64_t seed = 1;
  bool compare = false;
  std::string csv;
  std::string cublasLtPath;
  std::map<std::string, float> scalars;
};

void usage() {
  std::fprintf(stderr,
               "usage: ws-gemm-bench MANIFEST --m M --n N --k K [--l L]\n"
               "         [--iters N] [--warmup N] [--compare cublaslt]\n"
               "         [--cublaslt PATH] [--csv FILE] [--seed S]\n"
               "         [--scalar NAME=VALUE]... [--device D]\n");
}

bool parseOptions(int argc, char **argv, Options &o) {
  wsgemm::tools::FlagCursor args(argc, argv);
  while (!args.done()) {
    args.advance();
    const std::string &a = args.flag();
    bool ok = true;
    if (a == "--m")
      ok = args.integer(o.M);
    else if (a == "--n")
      ok = args.integer(o.N);
    else if (a == "--k")
      ok = args.integer(o.K);
    else if (a == "--l")
      ok = args.integer(o.L);
    else if (a == "--iters")
      ok = args.integer(o.iters);
    else if (a == "--warmup")
      ok = args.integer(o.warmup);
    else if (a == "--device")
      ok = args.integer(o.device);
    else if (a == "--seed")
      ok = args.integer(o.seed);
    else if (a == "--compare") {
      const char *v = args.value();
      if (!v || std::string(v) != "cublaslt") {
        std::fprintf(stderr, "error: --compare takes 'cublaslt'\n");
        return false;
      }
      o.compare = true;
    } else if (a == "--csv" || a == "--cublaslt") {
      const char *v = args.value();
      if (!v)
        return false;
      (a == "--csv" ? o.csv : o.cublasLtPath) = v;
    } else if (a == "--scalar") {
      ok = args.scalar(o.scalars);
    } else if (a == "-h" || a == "--help") {
      usage();
      std::exit(0);
    } else {
      ok = args.positional(o.manifest);
    }
    if (!ok)
      return false;
  }
  if (o.manifest.empty() || o.M < 1 || o.N < 1 || o.K < 1 || o.L < 1 ||
      o.iters < 1 || o.warmup < 0) {
    std::fprintf(stderr, "error: MANIFEST, --m, --n and --k (>= 1) are "
                         "required; --iters >= 1\n");
    return false;
  }
  return true;
}

struct Timing {
  double median = 0, min = 0, p90 = 0;
  int samples = 0;
};

/// Times `launch(i)` (i selects the buffer set) with an event pair around
/// each call, after `warmup` untimed calls.
Expected<Timing> timeLaunches(const std::function<Status(int)> &launch,
                              CUstream stream, int warmup, int iters) {
  for (int i = 0; i < warmup; ++i)
    WSGEMM_TRY(launch(i));
  std::vector<Event> starts, ends;
  for (int i = 0; i < iters; ++i) {
    auto s = Event::create();
    auto e = Event::create();
    if (!s)
      return s.status();
    if (!e)
      return e.status();
    starts.push_back(std::move(*s));
    ends.push_back(std::move(*e));
  }
  WSGEMM_TRY(cuCheck(cuStreamSynchronize(stream), "warm-up"));
  for (int i = 0; i < iters; ++i) {
    WSGEMM_TRY(starts[i].record(stream));
    WSGEMM_TRY(launch(warmup + i));
    WSGEMM_TRY(ends[i].record(stream));
  }
  WSGEMM_TRY(cuCheck(cuStreamSynchronize(stream), "timed launches"));
  std::vector<double> ms;
  for (int i = 0; i < iters; ++i) {
    auto t = ends[i].elapsedSince(starts[i]);
    if (!t)
      return t.status();
    ms.push_back(*t);
  }
  std::sort(ms.begin(), ms.end());
  Timing t;
  t.samples = iters;
  t.min = ms.front();
  t.median = ms.size() % 2 ? ms[ms.size() / 2]
                           : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
  t.p90 = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
  return t;
}

double tflops(const Options &o, double ms) {
  return 2.0 * double(o.M) * double(o.N) * double(o.K) * double(o.L) /
         (ms * 1e-3) / 1e12;
}

//===----------------------------------------------------------------------===//
// cuBLASLt side
//===----------------------------------------------------------------------===//

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
  }
  return CUDA_R_32F;
}

struct CublasPlan {
  std::string epilogueName = "DEFAULT";
  std::string note;
  bool fused = false; // false: bare GEMM as a lower bound
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  bool useC = false;
  bool useBias = false;
  DType biasType = DType::F16;
  bool biasPerBatch = false;
  float alpha = 1, beta = 0;
};

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

CublasPlan chooseCublasPlan(const Manifest &m,
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

/// One cublasLtMatmul configuration over several buffer sets.
class CublasRunner {
public:
  ~CublasRunner() {
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

  Status setup(const CublasLtApi &api, const Manifest &m, const Options &o,
               const CublasPlan &plan, const std::vector<TestProblem> &sets) {
    api_ = &api;
    plan_ = plan;
    DType aT = m.operand("A").dtype, bT = m.operand("B").dtype,
          dT = m.operand("D").dtype;
    if (aT != bT)
      return errorf("cuBLASLt comparison needs A and B of one dtype, got ",
                    dtypeName(aT), " and ", dtypeName(bT));
    if (aT == DType::F8E4M3 || aT == DType::F8E5M2)
      return errorf("cuBLASLt comparison is not implemented for fp8 inputs "
                    "(scale pointers, TN only)");
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
    MatrixGeometry gA = matrixGeometry(m, "A", a),
                   gB = matrixGeometry(m, "B", a),
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
    auto layout = [&](cublasLtMatrixLayout_t &l, DType t,
                      const MatrixGeometry &g, const char *what) -> Status {
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
    MatrixGeometry gC = plan.useC ? matrixGeometry(m, "C", a) : gD;
    WSGEMM_TRY(layout(layouts_[2], cT, gC, "layout C"));
    WSGEMM_TRY(layout(layouts_[3], dT, gD, "layout D"));

    // Bias: a vector of N per set (cuBLASLt's bias follows D's rows = N).
    if (plan.useBias) {
      int32_t bt = static_cast<int32_t>(cudaType(plan.biasType));
      WSGEMM_TRY(check(api.descSet(desc_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                   &bt, sizeof bt),
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

    // Heuristic with a workspace.
    auto ws = DeviceBuffer::alloc(workspaceBytes_, "cuBLASLt workspace");
    if (!ws)
      return ws.status();
    workspace_ = std::move(*ws);
    cublasLtMatmulPreference_t pref = nullptr;
    WSGEMM_TRY(check(api.prefCreate(&pref), "cublasLtMatmulPreferenceCreate"));
    size_t wsBytes = workspaceBytes_;
    cublasStatus_t st =
        api.prefSet(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
                    sizeof wsBytes);
    if (st == CUBLAS_STATUS_SUCCESS && plan.useBias) {
      // The heuristic checks the bias pointer's alignment.
      void *bp =
          reinterpret_cast<void *>(static_cast<uintptr_t>(bias_.front().ptr()));
      st =
          api.descSet(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp, sizeof bp);
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
      ptrs_.push_back(
          {ga.B.ptr, ga.A.ptr, plan.useC ? ga.C.ptr : ga.D.ptr, ga.D.ptr});
    }
    return Status::success();
  }

  Status launch(int i, CUstream stream) {
    size_t s = static_cast<size_t>(i) % ptrs_.size();
    if (plan_.useBias) {
      void *bp =
          reinterpret_cast<void *>(static_cast<uintptr_t>(bias_[s].ptr()));
      cublasStatus_t st = api_->descSet(
          desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp, sizeof bp);
      if (st != CUBLAS_STATUS_SUCCESS)
        return errorf("BIAS_POINTER: ", api_->status(st));
    }
    auto p = [](CUdeviceptr x) {
      return reinterpret_cast<void *>(static_cast<uintptr_t>(x));
    };
    const auto &q = ptrs_[s];
    cublasStatus_t st = api_->matmul(
        handle_, desc_, &plan_.alpha, p(q[0]), layouts_[0], p(q[1]),
        layouts_[1], &plan_.beta, p(q[2]), layouts_[2], p(q[3]), layouts_[3],
        &heuristic_.algo, p(workspace_.ptr()), workspaceBytes_,
        reinterpret_cast<cudaStream_t>(stream));
    if (st != CUBLAS_STATUS_SUCCESS)
      return errorf("cublasLtMatmul: ", api_->status(st));
    return Status::success();
  }

private:
  const CublasLtApi *api_ = nullptr;
  CublasPlan plan_;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  std::vector<cublasLtMatrixLayout_t> layouts_;
  std::vector<DeviceBuffer> bias_;
  DeviceBuffer workspace_;
  size_t workspaceBytes_ = size_t(64) << 20;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  std::vector<std::array<CUdeviceptr, 4>> ptrs_;
};

int fail(const Status &s) {
  std::fprintf(stderr, "error: %s\n", s.message().c_str());
  return 2;
}

int run(const Options &o) {
  auto ctx = Context::create(o.device);
  if (!ctx)
    return fail(ctx.status());
  // Unload cached modules while the context is still alive (locals are
  // destroyed in reverse order: this runs before ctx releases it).
  struct CacheClear {
    ~CacheClear() { ModuleCache::global().clear(); }
  } cacheClear;
  auto kernel = ModuleCache::global().get(o.manifest);
  if (!kernel)
    return fail(kernel.status());
  const Kernel &k = **kernel;
  const Manifest &m = k.manifest();
  const DeviceInfo &dev = k.device();
  auto stream = Stream::create();
  if (!stream)
    return fail(stream.status());

  // Buffer sets: together more than 2x the L2.
  ProblemOptions po;
  po.M = o.M;
  po.N = o.N;
  po.K = o.K;
  po.L = o.L;
  po.seed = o.seed;
  po.scalars = o.scalars;
  po.keepHost = false;
  std::vector<TestProblem> sets;
  auto first = TestProblem::create(m, po);
  if (!first)
    return fail(first.status());
  const size_t setBytes = first->deviceBytes();
  sets.push_back(std::move(*first));
  size_t freeBytes = 0, totalBytes = 0;
  if (Status s = cuCheck(cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo");
      !s.ok())
    return fail(s);
  const size_t l2 = static_cast<size_t>(dev.l2Bytes);
  size_t want = std::max<size_t>(1, (5 * l2 / 2 + setBytes - 1) / setBytes);
  size_t fit =
      std::max<size_t>(1, (freeBytes / 2) / std::max<size_t>(1, setBytes));
  size_t nsets = std::min<size_t>({want, fit, 256});
  for (size_t i = 1; i < nsets; ++i) {
    auto p = TestProblem::create(m, po);
    if (!p)
      return fail(p.status());
    sets.push_back(std::move(*p));
  }
  std::vector<LaunchPlan> plans;
  for (const TestProblem &p : sets) {
    auto plan = k.prepare(p.args());
    if (!plan)
      return fail(plan.status());
    plans.push_back(std::move(*plan));
  }
  const LaunchGeometry &g = plans.front().geometry;
  std::printf("device: %s, %d SMs, L2 %.1f MiB\n", dev.name.c_str(),
              dev.smCount, double(l2) / (1 << 20));
  std::printf("kernel: %s, grid %ux%ux%u, block %u, cluster %ux%ux%u, smem "
              "%u, %d regs\n",
              m.kernel.c_str(), g.grid[0], g.grid[1], g.grid[2], g.block[0],
              g.cluster[0], g.cluster[1], g.cluster[2], g.smemBytes,
              k.numRegs());
  std::printf("problem: M=%lld N=%lld K=%lld L=%lld; %zu buffer set(s) of "
              "%.1f MiB rotated (%.1fx L2)%s\n",
              static_cast<long long>(o.M), static_cast<long long>(o.N),
              static_cast<long long>(o.K), static_cast<long long>(o.L),
              sets.size(), double(setBytes) / (1 << 20),
              double(setBytes * sets.size()) / double(std::max<size_t>(l2, 1)),
              sets.size() < want ? " (capped by free memory)" : "");

  // One checked launch: a kernel that leaves NaN/poison behind is broken,
  // and its timing means nothing.
  int exitCode = 0;
  {
    Status s = k.launch(plans[0], stream->get());
    if (s.ok())
      s = stream->synchronize("first launch");
    if (!s.ok())
      return fail(s);
    auto d = sets[0].downloadMatrix("D");
    if (!d)
      return fail(d.status());
    const MatrixGeometry &dg = d->geometry;
    int64_t nan = 0;
    for (int64_t l = 0; l < dg.batches; ++l)
      for (int64_t r = 0; r < dg.rows; ++r)
        for (int64_t c = 0; c < dg.cols; ++c)
          nan += std::isnan(d->at(r, c, l)) ? 1 : 0;
    if (nan) {
      std::printf("WARNING: %lld elements of D are NaN/unwritten after one "
                  "launch: run ws-gemm-run first; timings below are of a "
                  "broken kernel\n",
                  static_cast<long long>(nan));
      exitCode = 1;
    }
  }

  auto ours = timeLaunches(
      [&](int i) {
        return k.launch(plans[static_cast<size_t>(i) % plans.size()],
                        stream->get());
      },
      stream->get(), o.warmup, o.iters);
  if (!ours)
    return fail(ours.status());
  std::printf("ours:     median %.4f ms (min %.4f, p90 %.4f, %d runs)  "
              "%.1f TFLOP/s\n",
              ours->median, ours->min, ours->p90, ours->samples,
              tflops(o, ours->median));

  double libMs = 0;
  std::string libName, libNote;
  if (o.compare) {
    CublasLtApi api;
    Status s = api.load(o.cublasLtPath);
    CublasPlan plan;
    CublasRunner runner;
    if (s.ok()) {
      plan = chooseCublasPlan(m, sets[0].host().scalars);
      s = runner.setup(api, m, o, plan, sets);
    }
    if (!s.ok()) {
      std::printf("cuBLASLt: not timed: %s\n", s.message().c_str());
      libNote = s.message();
    } else {
      auto lib =
          timeLaunches([&](int i) { return runner.launch(i, stream->get()); },
                       stream->get(), o.warmup, o.iters);
      if (!lib)
        return fail(lib.status());
      libMs = lib->median;
      libName = plan.fused ? plan.epilogueName : "bare GEMM (lower bound)";
      libNote = plan.note;
      std::printf("cuBLASLt: median %.4f ms (min %.4f, p90 %.4f, %d runs)  "
                  "%.1f TFLOP/s  [%s, %s]\n",
                  lib->median, lib->min, lib->p90, lib->samples,
                  tflops(o, lib->median), api.path.c_str(), libName.c_str());
      if (!plan.note.empty())
        std::printf("          note: %s\n", plan.note.c_str());
      std::printf("ratio ours/cuBLASLt (throughput): %.3f\n",
                  libMs / ours->median);
    }
  }

  if (!o.csv.empty()) {
    bool fresh;
    {
      std::ifstream probe(o.csv);
      fresh =
          !probe.good() || probe.peek() == std::ifstream::traits_type::eof();
    }
    std::ofstream csv(o.csv, std::ios::app);
    if (!csv)
      return fail(errorf(o.csv, ": cannot open for appending"));
    if (fresh)
      csv << "kernel,M,N,K,L,ours_ms,ours_tflops,cublaslt_ms,cublaslt_tflops,"
             "ratio,cublaslt_epilogue,note\n";
    auto quote = [](std::string s) {
      std::replace(s.begin(), s.end(), '"', '\'');
      return "\"" + s + "\"";
    };
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s,%lld,%lld,%lld,%lld,%.5f,%.2f,",
                  m.kernel.c_str(), static_cast<long long>(o.M),
                  static_cast<long long>(o.N), static_cast<long long>(o.K),
                  static_cast<long long>(o.L), ours->median,
                  tflops(o, ours->median));
    csv << buf;
    if (libMs > 0) {
      std::snprintf(buf, sizeof buf, "%.5f,%.2f,%.4f,", libMs, tflops(o, libMs),
                    libMs / ours->median);
      csv << buf;
    } else {
      csv << ",,,";
    }
    csv << quote(libName) << "," << quote(libNote) << "\n";
  }
  return exitCode;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    usage();
    return 2;
  }
  return run(o);
}
