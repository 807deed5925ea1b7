// cutlass_sm80_bench: times CUTLASS 2.x's own sm_80 tensor-core GEMM
// (cutlass::gemm::device::Gemm with OpClassTensorOp / Sm80, cp.async multistage
// mainloop, mma.sync 16x8x16) as a reference point for our --chip=sm_80 kernels.
//
// Layouts: A is M x K row-major, B is K x N column-major (stored N x K, K
// contiguous), C/D are M x N row-major. Accumulation is f32, alpha = 1,
// beta = 0, output in the input type.
//
// What it measures: after `warmup` untimed launches, `iters` launches are issued
// back to back, each bracketed by its own cudaEvent pair (one gemm_op() call
// per pair). It reports the median and minimum of those per-launch times,
// TFLOP/s = 2*M*N*K / median, and the SM clock read through NVML right after
// the timed loop (0 if libnvidia-ml.so.1 cannot be loaded).
//
// Usage: cutlass_sm80_bench NAME M N K [--iters N (30)] [--warmup N (10)]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <dlfcn.h>

#include "cutlass/cutlass.h"
#include "cutlass/gemm/device/gemm.h"
#include "cutlass/epilogue/thread/linear_combination.h"

#define CUDA_CHECK(expr)                                                      \
  do {                                                                        \
    cudaError_t err_ = (expr);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n",                    \
                   cudaGetErrorName(err_), __FILE__, __LINE__,                \
                   cudaGetErrorString(err_));                                 \
      std::exit(2);                                                           \
    }                                                                         \
  } while (0)

// --- SM clock through NVML, loaded at run time (no nvml.h / -lnvidia-ml). ---
static unsigned read_sm_clock_mhz() {
  using InitFn = int (*)();
  using HandleFn = int (*)(unsigned, void **);
  using ClockFn = int (*)(void *, int, unsigned *);
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return 0;
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
  auto handle = reinterpret_cast<HandleFn>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
  auto clock = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
  unsigned mhz = 0;
  void *dev = nullptr;
  const int kNvmlClockSm = 1;  // NVML_CLOCK_SM
  bool ok = init && handle && clock && init() == 0 && handle(0, &dev) == 0 &&
            clock(dev, kNvmlClockSm, &mhz) == 0;
  return ok ? mhz : 0;  // library left loaded; the process exits soon after
}

// --- Deterministic pseudo-random fill in [-1, 1] (integer hash per index). ---
template <typename T>
__global__ void fill_uniform(T *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(i) * 0x9E3779B9u ^ unsigned(i >> 32) ^ seed;
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    p[i] = T(float(x) * (2.0f / 4294967295.0f) - 1.0f);
  }
}

template <typename T>
static void fill(T *p, size_t n, unsigned seed) {
  fill_uniform<T><<<1024, 256>>>(p, n, seed);
  CUDA_CHECK(cudaGetLastError());
}

template <typename T, int TM, int TN, int TK, int WM, int WN, int WK, int Stages>
static int run_config(const char *name, int M, int N, int K, int iters, int warmup) {
  using ThreadblockShape = cutlass::gemm::GemmShape<TM, TN, TK>;
  using WarpShape = cutlass::gemm::GemmShape<WM, WN, WK>;
  using Epilogue = cutlass::epilogue::thread::LinearCombination<
      T, 128 / cutlass::sizeof_bits<T>::value, float, float>;
  using Gemm = cutlass::gemm::device::Gemm<
      T, cutlass::layout::RowMajor, T, cutlass::layout::ColumnMajor,
      T, cutlass::layout::RowMajor, float, cutlass::arch::OpClassTensorOp,
      cutlass::arch::Sm80, ThreadblockShape, WarpShape,
      cutlass::gemm::GemmShape<16, 8, 16>, Epilogue,
      cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, Stages>;

  const size_t sizeA = size_t(M) * K, sizeB = size_t(K) * N, sizeD = size_t(M) * N;
  T *A = nullptr, *B = nullptr, *D = nullptr;
  CUDA_CHECK(cudaMalloc(&A, sizeA * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&B, sizeB * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&D, sizeD * sizeof(T)));
  fill(A, sizeA, 0x1234u);
  fill(B, sizeB, 0xBEEFu);
  CUDA_CHECK(cudaMemset(D, 0, sizeD * sizeof(T)));

  // lda = K (row-major A), ldb = K (column-major B), ldc = ldd = N. C aliases D.
  typename Gemm::Arguments args({M, N, K}, {A, K}, {B, K}, {D, N}, {D, N},
                                {1.0f, 0.0f});
  Gemm gemm_op;
  cutlass::Status st = Gemm::can_implement(args);
  if (st != cutlass::Status::kSuccess) {
    std::fprintf(stderr, "%s: can_implement failed: %s\n", name,
                 cutlassGetStatusString(st));
    return 1;
  }
  size_t ws_bytes = Gemm::get_workspace_size(args);
  void *ws = nullptr;
  if (ws_bytes) CUDA_CHECK(cudaMalloc(&ws, ws_bytes));
  st = gemm_op.initialize(args, ws);
  if (st != cutlass::Status::kSuccess) {
    std::fprintf(stderr, "%s: initialize failed: %s\n", name,
                 cutlassGetStatusString(st));
    return 1;
  }

  for (int i = 0; i < warmup; ++i) {
    st = gemm_op();
    if (st != cutlass::Status::kSuccess) {
      std::fprintf(stderr, "%s: launch failed: %s (%s)\n", name,
                   cutlassGetStatusString(st), cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  // Timed loop: one event pair per launch, no host sync between launches.
  std::vector<cudaEvent_t> ev(2 * size_t(iters));
  for (auto &e : ev) CUDA_CHECK(cudaEventCreate(&e));
  for (int i = 0; i < iters; ++i) {
    CUDA_CHECK(cudaEventRecord(ev[2 * i]));
    st = gemm_op();
    CUDA_CHECK(cudaEventRecord(ev[2 * i + 1]));
    if (st != cutlass::Status::kSuccess) {
      std::fprintf(stderr, "%s: launch failed: %s\n", name, cutlassGetStatusString(st));
      return 1;
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned mhz = read_sm_clock_mhz();
  std::vector<float> ms(iters);
  for (int i = 0; i < iters; ++i)
    CUDA_CHECK(cudaEventElapsedTime(&ms[i], ev[2 * i], ev[2 * i + 1]));
  for (auto &e : ev) CUDA_CHECK(cudaEventDestroy(e));
  std::vector<float> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double median = (iters % 2) ? sorted[iters / 2]
                              : 0.5 * (sorted[iters / 2 - 1] + sorted[iters / 2]);
  double tflops = 2.0 * M * double(N) * K / (median * 1e-3) / 1e12;
  std::printf("%s %dx%dx%d cutlass tile %dx%dx%d warp %dx%dx%d stages %d: "
              "median %.4f ms (min %.4f) %.1f TFLOP/s %u MHz\n",
              name, M, N, K, TM, TN, TK, WM, WN, WK, Stages, median, sorted[0],
              tflops, mhz);

  // Spot check: 64 random elements of D against a double-precision dot product
  // of the same (already rounded) A row and B column copied back to the host.
  std::mt19937 rng(42);
  std::vector<T> a_row(K), b_col(K);
  double max_rel = 0.0, max_abs = 0.0;
  int counted = 0;
  bool bad = false;
  for (int s = 0; s < 64; ++s) {
    int r = int(rng() % unsigned(M)), c = int(rng() % unsigned(N));
    T d;
    CUDA_CHECK(cudaMemcpy(a_row.data(), A + size_t(r) * K, K * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b_col.data(), B + size_t(c) * K, K * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&d, D + size_t(r) * N + c, sizeof(T), cudaMemcpyDeviceToHost));
    double ref = 0.0;
    for (int k = 0; k < K; ++k) ref += double(float(a_row[k])) * double(float(b_col[k]));
    double got = double(float(d)), abs_err = std::fabs(got - ref);
    if (!std::isfinite(got)) bad = true;
    max_abs = std::max(max_abs, abs_err);
    if (std::fabs(ref) > 1e-1) {
      double rel = abs_err / std::fabs(ref);
      max_rel = std::max(max_rel, rel);
      ++counted;
      if (rel > 2e-2) bad = true;
    }
  }
  std::printf("check %s: 64 samples, max rel err %.3e (%d with |ref|>0.1), max abs err %.3e: %s\n",
              name, max_rel, counted, max_abs, bad ? "FAIL" : "ok");

  cudaFree(A); cudaFree(B); cudaFree(D);
  if (ws) cudaFree(ws);
  return bad ? 3 : 0;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: %s NAME M N K [--iters N] [--warmup N]\n"
                 "  NAME: cb_f16_128x128x64_s4 cb_f16_128x256x64_s3 "
                 "cb_bf16_128x128x64_s4 cb_bf16_128x256x64_s3\n", argv[0]);
    return 1;
  }
  std::string name = argv[1];
  int M = std::atoi(argv[2]), N = std::atoi(argv[3]), K = std::atoi(argv[4]);
  int iters = 30, warmup = 10;
  for (int i = 5; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iters") && i + 1 < argc) iters = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = std::atoi(argv[++i]);
    else { std::fprintf(stderr, "unknown argument: %s\n", argv[i]); return 1; }
  }
  if (M <= 0 || N <= 0 || K <= 0 || iters <= 0 || warmup < 0) {
    std::fprintf(stderr, "M, N, K and --iters must be positive, --warmup >= 0\n");
    return 1;
  }

  using half = cutlass::half_t;
  using bf16 = cutlass::bfloat16_t;
  const char *n = name.c_str();
  if (name == "cb_f16_128x128x64_s4") return run_config<half, 128, 128, 64, 64, 64, 64, 4>(n, M, N, K, iters, warmup);
  if (name == "cb_f16_128x256x64_s3") return run_config<half, 128, 256, 64, 64, 64, 64, 3>(n, M, N, K, iters, warmup);
  if (name == "cb_bf16_128x128x64_s4") return run_config<bf16, 128, 128, 64, 64, 64, 64, 4>(n, M, N, K, iters, warmup);
  if (name == "cb_bf16_128x256x64_s3") return run_config<bf16, 128, 256, 64, 64, 64, 64, 3>(n, M, N, K, iters, warmup);
  std::fprintf(stderr, "unknown config name: %s\n", n);
  return 1;
}
