//===- CudaLoader.h - libcuda, loaded on first use -------------*- C++ -*-===//
//
// The runtime does not link libcuda: CudaLoader.cpp defines the driver
// functions the runtime and its tools call (hidden, so they never interpose
// on a program's own libcuda) as forwarders to libcuda.so.1, dlopen'ed on
// first use. A tool therefore starts, prints --help and runs --dry-run on a
// machine without an NVIDIA driver, and fails only when it needs a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_LIB_CUDALOADER_H
#define WSGEMM_RUNTIME_LIB_CUDALOADER_H

#include "ws-gemm-runtime/Status.h"

namespace wsgemm::runtime {

/// Loads libcuda.so.1 (once); an error that says the driver is missing and
/// what the loader said. Until it succeeds every forwarded driver call
/// returns CUDA_ERROR_NOT_INITIALIZED.
Status loadCudaDriver();

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_LIB_CUDALOADER_H
