//===- CublasCompare.h - ws-gemm-bench's cuBLASLt side ----------*- C++ -*-===//
//
// The cuBLASLt configuration closest to a manifest's EVT (the epilogue from
// the standard-epilogue matcher, Classify.h) and a runner that times
// cublasLtMatmul with it on the benchmark's own buffer sets.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMBENCH_CUBLASCOMPARE_H
#define WSGEMM_TOOLS_WSGEMMBENCH_CUBLASCOMPARE_H

#include "CublasLt.h"
#include "ws-gemm-bench.h"

#include "ws-gemm-runtime/Driver.h"
#include "ws-gemm-runtime/Problem.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace wsgemm::bench {

/// What cuBLASLt runs: a fused epilogue when the EVT matches one, else the
/// bare GEMM as a lower bound.
struct CublasPlan {
  std::string epilogueName = "DEFAULT";
  std::string note;
  bool fused = false; // false: bare GEMM as a lower bound
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  bool useC = false;
  bool useBias = false;
  runtime::DType biasType = runtime::DType::F16;
  bool biasPerBatch = false;
  float alpha = 1, beta = 0;
  /// fp8 A and B (cuBLASLt's fp8 matmul, TN only): the kernel's scalar
  /// pointers that cuBLASLt takes too, by our names (empty when absent):
  /// scale_a, scale_b, scale_c (with C), scale_d and amax_d (fp8 D); fast
  /// accumulation as in our kernels.
  bool fp8 = false;
  std::string scaleA, scaleB, scaleC, scaleD, amaxD;
};

/// The plan for manifest `m` with the scalar values `scalars` (alpha, beta).
CublasPlan chooseCublasPlan(const runtime::Manifest &m,
                            const std::map<std::string, double> &scalars);

/// One cublasLtMatmul configuration over several buffer sets.
class CublasRunner {
public:
  CublasRunner() = default;
  CublasRunner(const CublasRunner &) = delete;
  CublasRunner &operator=(const CublasRunner &) = delete;
  ~CublasRunner();

  /// Creates the handle, descriptors and layouts for `plan` and picks an
  /// algorithm; the buffers are those of `sets` (plus a bias per set).
  runtime::Status setup(const CublasLtApi &api, const runtime::Manifest &m,
                        const Options &o, const CublasPlan &plan,
                        const std::vector<runtime::TestProblem> &sets);
  /// Enqueues one matmul on buffer set i % sets.
  runtime::Status launch(int i, CUstream stream);

private:
  const CublasLtApi *api_ = nullptr;
  CublasPlan plan_;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  std::vector<cublasLtMatrixLayout_t> layouts_;
  std::vector<runtime::DeviceBuffer> bias_;
  runtime::DeviceBuffer workspace_;
  /// fp8 without C: cuBLASLt wants a 16-bit C layout (never read: beta 0).
  runtime::DeviceBuffer dummyC_;
  /// A mixed-input kernel's A dequantized to B's type, per set: what
  /// cuBLASLt (and torch.mm on the dequantized weight) multiplies.
  std::vector<runtime::DeviceBuffer> dequantA_;
  /// fp8: per set, cuBLASLt's A/B/C/D scale pointers and amax_d (0: none).
  std::vector<std::array<CUdeviceptr, 5>> scales_;
  runtime::Status setScalePointers(size_t set);
  size_t workspaceBytes_ = size_t(64) << 20;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  std::vector<std::array<CUdeviceptr, 4>> ptrs_;
};

} // namespace wsgemm::bench

#endif // WSGEMM_TOOLS_WSGEMMBENCH_CUBLASCOMPARE_H
