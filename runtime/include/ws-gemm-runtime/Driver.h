//===- Driver.h - Thin RAII layer over the CUDA driver API -------*- C++
//-*-===//
//
// Every CUresult is checked and turned into a Status whose message names the
// call and what it was doing:
//   cuMemAlloc(D, 33554432 bytes): CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// Context retains a device's primary context (the one cuBLASLt and the CUDA
// runtime use too) and makes it current; DeviceBuffer, Stream and Event own
// their handles. All are move-only. Only the driver API is used (libcuda).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_DRIVER_H
#define WSGEMM_RUNTIME_DRIVER_H

#include "ws-gemm-runtime/Launch.h"
#include "ws-gemm-runtime/TensorMap.h"

#include <cuda.h>

#include <string>

namespace wsgemm::runtime {

/// "CUDA_ERROR_X (description)".
std::string cuErrorMessage(CUresult r);
/// Success, or "<what>: CUDA_ERROR_X (description)".
Status cuCheck(CUresult r, const std::string &what);

class Context {
public:
  /// cuInit, then retains device `ordinal`'s primary context and makes it
  /// current on the calling thread.
  static Expected<Context> create(int ordinal = 0);
  Context(Context &&o) noexcept;
  Context &operator=(Context &&o) noexcept;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context();
  CUcontext get() const { return ctx_; }
  CUdevice device() const { return dev_; }
  /// Makes the context current on the calling thread (other threads must
  /// call this before using the runtime).
  Status makeCurrent() const;

private:
  Context() = default;
  CUcontext ctx_ = nullptr;
  CUdevice dev_ = 0;
  bool retained_ = false;
};

/// Attributes of a device the runtime uses.
Expected<DeviceInfo> queryDevice(CUdevice dev);
/// The device of the calling thread's current context.
Expected<DeviceInfo> queryCurrentDevice();

class DeviceBuffer {
public:
  /// cuMemAlloc of `bytes` (> 0); `label` names it in error messages.
  static Expected<DeviceBuffer> alloc(size_t bytes,
                                      const std::string &label = "buffer");
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&o) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();
  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return size_; }
  /// Synchronous copies and fill, bounds-checked against size().
  Status upload(const void *host, size_t bytes, size_t offset = 0);
  Status download(void *host, size_t bytes, size_t offset = 0) const;
  Status fill(unsigned char byte);

private:
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
  std::string label_;
};

class Stream {
public:
  static Expected<Stream> create();
  Stream(Stream &&o) noexcept;
  Stream &operator=(Stream &&o) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();
  CUstream get() const { return s_; }
  Status synchronize(const std::string &what = "cuStreamSynchronize") const;

private:
  Stream() = default;
  CUstream s_ = nullptr;
};

class Event {
public:
  static Expected<Event> create();
  Event(Event &&o) noexcept;
  Event &operator=(Event &&o) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();
  CUevent get() const { return e_; }
  Status record(CUstream s) const;
  Status synchronize() const;
  /// Milliseconds from `start` to this event (both recorded and complete).
  Expected<float> elapsedSince(const Event &start) const;

private:
  Event() = default;
  CUevent e_ = nullptr;
};

/// cuTensorMapEncodeTiled over a spec; the error lists the spec.
Status encodeTensorMap(const TensorMapSpec &spec, CUtensorMap *out);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_DRIVER_H
