//===- WorkspacePool.cpp - Split-K / stream-K workspaces per stream -------===//
//
// Implements WorkspacePool (LaunchCache.h): the driver half of the launch
// cache, apart so that the key and the plan cache stay GPU-free.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/LaunchCache.h"

namespace wsgemm::runtime {

namespace {
/// Relaxed stream-capture mode on this thread for the guard's lifetime:
/// cuMemAlloc is refused while a capture in global mode is under way.
class RelaxedCapture {
public:
  RelaxedCapture() { ok_ = cuThreadExchangeStreamCaptureMode(&mode_) == 0; }
  ~RelaxedCapture() {
    if (ok_)
      (void)cuThreadExchangeStreamCaptureMode(&mode_);
  }

private:
  CUstreamCaptureMode mode_ = CU_STREAM_CAPTURE_MODE_RELAXED;
  bool ok_ = false;
};
} // namespace

Expected<CUdeviceptr> WorkspacePool::get(CUstream stream, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<DeviceBuffer> &list = buffers_[stream];
  for (const DeviceBuffer &b : list)
    if (b.size() >= bytes)
      return b.ptr();
  RelaxedCapture relaxed;
  auto buffer = DeviceBuffer::alloc(bytes, "workspace");
  if (!buffer)
    return buffer.status();
  // Zeroed on a stream of its own, made for this and destroyed here: no
  // stream handle outlives the call (the pool may be destroyed at exit,
  // after the context that a kept stream would belong to).
  CUstream zero = nullptr;
  WSGEMM_TRY(cuCheck(cuStreamCreate(&zero, CU_STREAM_NON_BLOCKING),
                     "cuStreamCreate(workspace zeroing)"));
  Status s = cuCheck(cuMemsetD8Async(buffer->ptr(), 0, bytes, zero),
                     "cuMemsetD8Async(workspace)");
  if (s.ok())
    s = cuCheck(cuStreamSynchronize(zero),
                "cuStreamSynchronize(workspace zeroing)");
  (void)cuStreamDestroy(zero);
  WSGEMM_TRY(s);
  list.push_back(std::move(*buffer));
  return list.back().ptr();
}

size_t WorkspacePool::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto &[stream, list] : buffers_)
    n += list.size();
  return n;
}

} // namespace wsgemm::runtime
