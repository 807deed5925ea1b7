//===- Handles.h - What the C API's opaque handles hold ---------*- C++ -*-===//
//
// The structs behind WsGemmRtArgs, WsGemmRtKernel and WsGemmRtFamily
// (ws-gemm-runtime-c/Runtime.h), and the helpers the two source files
// share: the thread's last error, and the kernel launch path (validate,
// driver, context, module per context, launch) that a family reuses.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_CAPI_HANDLES_H
#define WSGEMM_RUNTIME_CAPI_HANDLES_H

#include "ws-gemm-runtime-c/Runtime.h"

#include "ws-gemm-runtime/Family.h"
#include "ws-gemm-runtime/Kernel.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

struct WsGemmRtArgs_ {
  wsgemm::runtime::GemmArgs args;
};

struct WsGemmRtKernel_ {
  wsgemm::runtime::Manifest manifest;
  std::string manifestJson;
  std::string description; // describeInterface()
  std::string sourceGate;  // load_src's skip_if_zero, or ""
  std::vector<std::string> paramDims; // per param: "M,L", "K", ...
  std::vector<char> cubin;            // empty: validate only
  // The module loaded per CUDA context, on first launch there.
  std::mutex mutex;
  std::map<CUcontext, std::shared_ptr<const wsgemm::runtime::Kernel>> loaded;
};

struct WsGemmRtFamily_ {
  wsgemm::runtime::Family family;
  std::optional<wsgemm::runtime::TuningTable> table;
  std::vector<std::unique_ptr<WsGemmRtKernel_>> kernels; // per variant
  std::mutex mutex;
  int smCount = 0; // 0: the current device's, asked on first use
  // Selections made so far, by familyShape's fields (M, N, K, L, whether
  // the outputs need direct stores, A's, B's and C's alignment): a launch of a
  // problem seen before selects nothing.
  std::shared_mutex chosenMutex;
  std::map<std::array<int64_t, 8>, intptr_t> chosen;
};

namespace wsgemm::runtime::capi {

/// Records `message` as the thread's last error and returns `status`.
WsGemmRtStatus fail(WsGemmRtStatus status, const std::string &message);
/// Clears the last error; returns WSGEMMRT_OK.
WsGemmRtStatus ok();

/// A kernel handle over a parsed manifest, its text and its cubin (may be
/// empty).
std::unique_ptr<WsGemmRtKernel_> makeKernel(Manifest manifest,
                                            std::string manifestJson,
                                            std::vector<char> cubin);

/// libcuda loaded, cuInit done and a context current on this thread (the
/// primary context of device 0 when it had none).
WsGemmRtStatus ensureContext();

/// validate, then the module for the current context, then the launch.
WsGemmRtStatus launchKernel(WsGemmRtKernel_ &kernel, const GemmArgs &args,
                            CUstream stream);

} // namespace wsgemm::runtime::capi

#endif // WSGEMM_RUNTIME_CAPI_HANDLES_H
