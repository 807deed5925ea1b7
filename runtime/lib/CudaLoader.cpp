//===- CudaLoader.cpp - libcuda, loaded on first use ----------------------===//
//
// Each driver function the runtime and its tools call is defined here under
// the symbol cuda.h maps its name to (cuMemAlloc -> cuMemAlloc_v2, ...), so
// callers keep writing plain driver calls. The definitions look the real
// entry point up in libcuda.so.1 by that same symbol name. This file is
// compiled with hidden visibility (runtime/CMakeLists.txt): the forwarders
// bind the runtime's own calls and are never exported from a shared
// library that embeds the runtime.
//
// A call this file lacks is a link error ("undefined reference to cuX"),
// never a silent dependency on libcuda: add it to the list below.
//
//===----------------------------------------------------------------------===//

#include "CudaLoader.h"

#include <cuda.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

namespace wsgemm::runtime {
namespace {
struct Driver {
  void *handle = nullptr;
  std::string error;
};

const Driver &driver() {
  static Driver d;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char *name : {"libcuda.so.1", "libcuda.so"}) {
      if ((d.handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
        return;
      const char *e = dlerror();
      if (d.error.empty())
        d.error = e ? e : name;
    }
  });
  return d;
}

} // namespace

/// libcuda's `symbol`, or null without a driver.
void *lookup(const char *symbol);
void *lookup(const char *symbol) {
  const Driver &d = driver();
  return d.handle ? dlsym(d.handle, symbol) : nullptr;
}

Status loadCudaDriver() {
  const Driver &d = driver();
  if (d.handle)
    return Status::success();
  return Status::error(
      "no CUDA driver: cannot load libcuda.so.1 (" + d.error +
      "); running a kernel needs an NVIDIA GPU and its driver (--help and "
      "--dry-run work without)");
}

} // namespace wsgemm::runtime

#define WSGEMM_STR2(x) #x
#define WSGEMM_STR(x) WSGEMM_STR2(x)

// Defines `name` (after cuda.h's renaming) to forward to libcuda's symbol of
// the same name. `params` is the parameter list, `args` the argument list.
#define WSGEMM_CU_FORWARD(name, params, args)                                  \
  extern "C" CUresult CUDAAPI name params {                                    \
    using Fn = CUresult(CUDAAPI *) params;                                     \
    static Fn fn =                                                             \
        reinterpret_cast<Fn>(wsgemm::runtime::lookup(WSGEMM_STR(name)));        \
    if (!fn)                                                                   \
      return CUDA_ERROR_NOT_INITIALIZED;                                       \
    return fn args;                                                            \
  }

// clang-format off
WSGEMM_CU_FORWARD(cuGetErrorName, (CUresult error, const char **str), (error, str))
WSGEMM_CU_FORWARD(cuGetErrorString, (CUresult error, const char **str), (error, str))
WSGEMM_CU_FORWARD(cuInit, (unsigned int flags), (flags))
WSGEMM_CU_FORWARD(cuDeviceGet, (CUdevice *device, int ordinal), (device, ordinal))
WSGEMM_CU_FORWARD(cuDeviceGetCount, (int *count), (count))
WSGEMM_CU_FORWARD(cuDeviceGetName, (char *name, int len, CUdevice dev), (name, len, dev))
WSGEMM_CU_FORWARD(cuDeviceGetAttribute, (int *pi, CUdevice_attribute attrib, CUdevice dev), (pi, attrib, dev))
WSGEMM_CU_FORWARD(cuDevicePrimaryCtxRetain, (CUcontext *ctx, CUdevice dev), (ctx, dev))
WSGEMM_CU_FORWARD(cuDevicePrimaryCtxRelease, (CUdevice dev), (dev))
WSGEMM_CU_FORWARD(cuCtxGetCurrent, (CUcontext *ctx), (ctx))
WSGEMM_CU_FORWARD(cuCtxSetCurrent, (CUcontext ctx), (ctx))
WSGEMM_CU_FORWARD(cuCtxGetDevice, (CUdevice *device), (device))
WSGEMM_CU_FORWARD(cuMemGetInfo, (size_t *free, size_t *total), (free, total))
WSGEMM_CU_FORWARD(cuMemAlloc, (CUdeviceptr *ptr, size_t bytes), (ptr, bytes))
WSGEMM_CU_FORWARD(cuMemFree, (CUdeviceptr ptr), (ptr))
WSGEMM_CU_FORWARD(cuMemcpyHtoD, (CUdeviceptr dst, const void *src, size_t bytes), (dst, src, bytes))
WSGEMM_CU_FORWARD(cuMemcpyDtoH, (void *dst, CUdeviceptr src, size_t bytes), (dst, src, bytes))
WSGEMM_CU_FORWARD(cuMemsetD8, (CUdeviceptr dst, unsigned char value, size_t n), (dst, value, n))
WSGEMM_CU_FORWARD(cuMemsetD8Async, (CUdeviceptr dst, unsigned char value, size_t n, CUstream stream), (dst, value, n, stream))
WSGEMM_CU_FORWARD(cuMemsetD32Async, (CUdeviceptr dst, unsigned int value, size_t n, CUstream stream), (dst, value, n, stream))
WSGEMM_CU_FORWARD(cuThreadExchangeStreamCaptureMode, (CUstreamCaptureMode *mode), (mode))
WSGEMM_CU_FORWARD(cuStreamBeginCapture, (CUstream stream, CUstreamCaptureMode mode), (stream, mode))
WSGEMM_CU_FORWARD(cuStreamEndCapture, (CUstream stream, CUgraph *graph), (stream, graph))
WSGEMM_CU_FORWARD(cuGraphInstantiate, (CUgraphExec *exec, CUgraph graph, unsigned long long flags), (exec, graph, flags))
WSGEMM_CU_FORWARD(cuGraphLaunch, (CUgraphExec exec, CUstream stream), (exec, stream))
WSGEMM_CU_FORWARD(cuGraphExecDestroy, (CUgraphExec exec), (exec))
WSGEMM_CU_FORWARD(cuGraphDestroy, (CUgraph graph), (graph))
WSGEMM_CU_FORWARD(cuStreamCreate, (CUstream *stream, unsigned int flags), (stream, flags))
WSGEMM_CU_FORWARD(cuStreamDestroy, (CUstream stream), (stream))
WSGEMM_CU_FORWARD(cuStreamSynchronize, (CUstream stream), (stream))
WSGEMM_CU_FORWARD(cuStreamQuery, (CUstream stream), (stream))
WSGEMM_CU_FORWARD(cuEventCreate, (CUevent *event, unsigned int flags), (event, flags))
WSGEMM_CU_FORWARD(cuEventDestroy, (CUevent event), (event))
WSGEMM_CU_FORWARD(cuEventRecord, (CUevent event, CUstream stream), (event, stream))
WSGEMM_CU_FORWARD(cuEventSynchronize, (CUevent event), (event))
WSGEMM_CU_FORWARD(cuEventElapsedTime, (float *ms, CUevent start, CUevent end), (ms, start, end))
WSGEMM_CU_FORWARD(cuModuleLoadData, (CUmodule *module, const void *image), (module, image))
WSGEMM_CU_FORWARD(cuModuleUnload, (CUmodule module), (module))
WSGEMM_CU_FORWARD(cuModuleGetFunction, (CUfunction *f, CUmodule module, const char *name), (f, module, name))
WSGEMM_CU_FORWARD(cuFuncGetAttribute, (int *pi, CUfunction_attribute attrib, CUfunction f), (pi, attrib, f))
WSGEMM_CU_FORWARD(cuFuncSetAttribute, (CUfunction f, CUfunction_attribute attrib, int value), (f, attrib, value))
WSGEMM_CU_FORWARD(cuOccupancyMaxActiveBlocksPerMultiprocessor, (int *blocks, CUfunction f, int blockSize, size_t smem), (blocks, f, blockSize, smem))
WSGEMM_CU_FORWARD(cuOccupancyMaxActiveClusters, (int *clusters, CUfunction f, const CUlaunchConfig *config), (clusters, f, config))
WSGEMM_CU_FORWARD(cuLaunchKernelEx, (const CUlaunchConfig *config, CUfunction f, void **params, void **extra), (config, f, params, extra))
WSGEMM_CU_FORWARD(cuTensorMapEncodeTiled, (CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address, const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box, const cuuint32_t *elementStrides, CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill fill), (map, type, rank, address, dims, strides, box, elementStrides, interleave, swizzle, l2, fill))
// clang-format on
