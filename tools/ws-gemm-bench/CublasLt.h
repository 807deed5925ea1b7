//===- CublasLt.h - cuBLASLt loaded at run time ----------------*- C++ -*-===//
//
// ws-gemm-bench compares against cuBLASLt in the same process without
// linking it: the library is dlopen'ed (libcublasLt.so.13, .so.12, .so, also
// under $CUDA_HOME/lib64 and /usr/local/cuda/lib64, or an explicit path) and
// the few entry points are resolved with dlsym. The declarations come from
// CUDA's cublasLt.h (header only).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMBENCH_CUBLASLT_H
#define WSGEMM_TOOLS_WSGEMMBENCH_CUBLASLT_H

#include "ws-gemm-runtime/Status.h"

#include <cublasLt.h>

#include <string>

namespace wsgemm::bench {

struct CublasLtApi {
  void *handle = nullptr;
  std::string path;
  decltype(&::cublasLtCreate) create = nullptr;
  decltype(&::cublasLtDestroy) destroy = nullptr;
  decltype(&::cublasLtGetVersion) getVersion = nullptr;
  decltype(&::cublasLtGetStatusString) statusString = nullptr;
  decltype(&::cublasLtMatmulDescCreate) descCreate = nullptr;
  decltype(&::cublasLtMatmulDescDestroy) descDestroy = nullptr;
  decltype(&::cublasLtMatmulDescSetAttribute) descSet = nullptr;
  decltype(&::cublasLtMatrixLayoutCreate) layoutCreate = nullptr;
  decltype(&::cublasLtMatrixLayoutDestroy) layoutDestroy = nullptr;
  decltype(&::cublasLtMatrixLayoutSetAttribute) layoutSet = nullptr;
  decltype(&::cublasLtMatmulPreferenceCreate) prefCreate = nullptr;
  decltype(&::cublasLtMatmulPreferenceDestroy) prefDestroy = nullptr;
  decltype(&::cublasLtMatmulPreferenceSetAttribute) prefSet = nullptr;
  decltype(&::cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&::cublasLtMatmul) matmul = nullptr;

  /// dlopen + dlsym; `explicitPath` (if not empty) is tried first.
  runtime::Status load(const std::string &explicitPath);
  /// "CUBLAS_STATUS_X" for a status.
  std::string status(cublasStatus_t s) const;
};

} // namespace wsgemm::bench

#endif // WSGEMM_TOOLS_WSGEMMBENCH_CUBLASLT_H
