//===- Driver.cpp - RAII over the CUDA driver API -------------------------===//
//
// Destructors ignore errors (a context torn down first makes frees fail
// harmlessly); everything else returns a Status that names the call.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Driver.h"

#include "CudaLoader.h"

#include <utility>

namespace wsgemm::runtime {

/// Names of the codes most likely on a first run, for when the driver
/// cannot name them itself (the build machine's stub library cannot).
static const char *fallbackErrorName(CUresult r) {
  switch (r) {
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_INVALID_IMAGE:
    return "CUDA_ERROR_INVALID_IMAGE";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case CUDA_ERROR_NOT_FOUND:
    return "CUDA_ERROR_NOT_FOUND";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case CUDA_ERROR_LAUNCH_FAILED:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case CUDA_ERROR_MISALIGNED_ADDRESS:
    return "CUDA_ERROR_MISALIGNED_ADDRESS";
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
  default:
    return "CUDA_ERROR_UNKNOWN_CODE";
  }
}

std::string cuErrorMessage(CUresult r) {
  const char *name = nullptr;
  const char *desc = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = fallbackErrorName(r);
  if (cuGetErrorString(r, &desc) != CUDA_SUCCESS || !desc)
    desc = "no description from the driver";
  return std::string(name) + " (" + desc + ", code " +
         std::to_string(static_cast<int>(r)) + ")";
}

Status cuCheck(CUresult r, const std::string &what) {
  if (r == CUDA_SUCCESS)
    return Status::success();
  return Status::error(what + ": " + cuErrorMessage(r));
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Expected<Context> Context::create(int ordinal) {
  WSGEMM_TRY(loadCudaDriver());
  WSGEMM_TRY(cuCheck(cuInit(0), "cuInit (is an NVIDIA driver installed?)"));
  int count = 0;
  WSGEMM_TRY(cuCheck(cuDeviceGetCount(&count), "cuDeviceGetCount"));
  if (ordinal < 0 || ordinal >= count)
    return errorf("device ", ordinal, ": no such device (", count,
                  " CUDA device(s) present)");
  Context c;
  WSGEMM_TRY(cuCheck(cuDeviceGet(&c.dev_, ordinal), "cuDeviceGet"));
  WSGEMM_TRY(cuCheck(cuDevicePrimaryCtxRetain(&c.ctx_, c.dev_),
                     "cuDevicePrimaryCtxRetain"));
  c.retained_ = true;
  WSGEMM_TRY(c.makeCurrent());
  return Expected<Context>(std::move(c));
}

Context::Context(Context &&o) noexcept
    : ctx_(std::exchange(o.ctx_, nullptr)), dev_(o.dev_),
      retained_(std::exchange(o.retained_, false)) {}

Context &Context::operator=(Context &&o) noexcept {
  if (this != &o) {
    if (retained_)
      (void)cuDevicePrimaryCtxRelease(dev_);
    ctx_ = std::exchange(o.ctx_, nullptr);
    dev_ = o.dev_;
    retained_ = std::exchange(o.retained_, false);
  }
  return *this;
}

Context::~Context() {
  if (retained_)
    (void)cuDevicePrimaryCtxRelease(dev_);
}

Status Context::makeCurrent() const {
  return cuCheck(cuCtxSetCurrent(ctx_), "cuCtxSetCurrent");
}

//===----------------------------------------------------------------------===//
// Device attributes
//===----------------------------------------------------------------------===//

Expected<DeviceInfo> queryDevice(CUdevice dev) {
  DeviceInfo d;
  d.ordinal = static_cast<int>(dev);
  char name[256] = {0};
  WSGEMM_TRY(
      cuCheck(cuDeviceGetName(name, sizeof name - 1, dev), "cuDeviceGetName"));
  d.name = name;
  struct {
    CUdevice_attribute attr;
    int *out;
    const char *what;
  } attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d.ccMajor,
       "COMPUTE_CAPABILITY_MAJOR"},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d.ccMinor,
       "COMPUTE_CAPABILITY_MINOR"},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &d.smCount,
       "MULTIPROCESSOR_COUNT"},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &d.maxSmemOptin,
       "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &d.l2Bytes, "L2_CACHE_SIZE"},
  };
  for (auto &a : attrs)
    WSGEMM_TRY(cuCheck(cuDeviceGetAttribute(a.out, a.attr, dev),
                       std::string("cuDeviceGetAttribute(") + a.what + ")"));
  return d;
}

Expected<DeviceInfo> queryCurrentDevice() {
  CUcontext ctx = nullptr;
  WSGEMM_TRY(cuCheck(cuCtxGetCurrent(&ctx), "cuCtxGetCurrent"));
  if (!ctx)
    return Status::error("no current CUDA context on this thread (create one "
                         "with wsgemm::runtime::Context::create(), or call "
                         "Context::makeCurrent() on this thread)");
  CUdevice dev;
  WSGEMM_TRY(cuCheck(cuCtxGetDevice(&dev), "cuCtxGetDevice"));
  return queryDevice(dev);
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

Expected<DeviceBuffer> DeviceBuffer::alloc(size_t bytes,
                                           const std::string &label) {
  if (bytes == 0)
    return errorf("cuMemAlloc(", label, "): zero-byte allocation");
  DeviceBuffer b;
  b.label_ = label;
  WSGEMM_TRY(cuCheck(cuMemAlloc(&b.ptr_, bytes), "cuMemAlloc(" + label + ", " +
                                                     std::to_string(bytes) +
                                                     " bytes)"));
  b.size_ = bytes;
  return Expected<DeviceBuffer>(std::move(b));
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : ptr_(std::exchange(o.ptr_, 0)), size_(std::exchange(o.size_, 0)),
      label_(std::move(o.label_)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    if (ptr_)
      (void)cuMemFree(ptr_);
    ptr_ = std::exchange(o.ptr_, 0);
    size_ = std::exchange(o.size_, 0);
    label_ = std::move(o.label_);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_)
    (void)cuMemFree(ptr_);
}

Status DeviceBuffer::upload(const void *host, size_t bytes, size_t offset) {
  if (offset + bytes > size_)
    return errorf("upload to ", label_, ": ", bytes, " bytes at offset ",
                  offset, " exceed its ", size_, " bytes");
  return cuCheck(cuMemcpyHtoD(ptr_ + offset, host, bytes),
                 "cuMemcpyHtoD(" + label_ + ")");
}

Status DeviceBuffer::download(void *host, size_t bytes, size_t offset) const {
  if (offset + bytes > size_)
    return errorf("download from ", label_, ": ", bytes, " bytes at offset ",
                  offset, " exceed its ", size_, " bytes");
  return cuCheck(cuMemcpyDtoH(host, ptr_ + offset, bytes),
                 "cuMemcpyDtoH(" + label_ + ")");
}

Status DeviceBuffer::fill(unsigned char byte) {
  return cuCheck(cuMemsetD8(ptr_, byte, size_), "cuMemsetD8(" + label_ + ")");
}

//===----------------------------------------------------------------------===//
// Stream and Event
//===----------------------------------------------------------------------===//

Expected<Stream> Stream::create() {
  Stream s;
  // A blocking stream: work on it waits for earlier legacy-stream work.
  // DeviceBuffer's cuMemsetD8 and pageable cuMemcpyHtoD may still be in
  // flight when they return; a non-blocking stream let a kernel run before
  // its inputs and the output poison had landed (seen on the H100 as whole
  // outputs "unwritten" when 16 processes shared the GPU).
  WSGEMM_TRY(cuCheck(cuStreamCreate(&s.s_, CU_STREAM_DEFAULT), "cuStreamCreate"));
  return Expected<Stream>(std::move(s));
}
Stream::Stream(Stream &&o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
Stream &Stream::operator=(Stream &&o) noexcept {
  if (this != &o) {
    if (s_)
      (void)cuStreamDestroy(s_);
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}
Stream::~Stream() {
  if (s_)
    (void)cuStreamDestroy(s_);
}
Status Stream::synchronize(const std::string &what) const {
  return cuCheck(cuStreamSynchronize(s_), what);
}

Expected<Event> Event::create() {
  Event e;
  WSGEMM_TRY(cuCheck(cuEventCreate(&e.e_, CU_EVENT_DEFAULT), "cuEventCreate"));
  return Expected<Event>(std::move(e));
}
Event::Event(Event &&o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
Event &Event::operator=(Event &&o) noexcept {
  if (this != &o) {
    if (e_)
      (void)cuEventDestroy(e_);
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}
Event::~Event() {
  if (e_)
    (void)cuEventDestroy(e_);
}
Status Event::record(CUstream s) const {
  return cuCheck(cuEventRecord(e_, s), "cuEventRecord");
}
Status Event::synchronize() const {
  return cuCheck(cuEventSynchronize(e_), "cuEventSynchronize");
}
Expected<float> Event::elapsedSince(const Event &start) const {
  float ms = 0;
  WSGEMM_TRY(
      cuCheck(cuEventElapsedTime(&ms, start.e_, e_), "cuEventElapsedTime"));
  return ms;
}

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

Status encodeTensorMap(const TensorMapSpec &s, CUtensorMap *out) {
  CUresult r = cuTensorMapEncodeTiled(
      out, s.dataType, s.rank,
      reinterpret_cast<void *>(static_cast<uintptr_t>(s.address)),
      s.globalDim.data(), s.globalStrides.data(), s.boxDim.data(),
      s.elementStrides.data(), s.interleave, s.swizzle, s.l2Promotion,
      s.oobFill);
  return cuCheck(r, "cuTensorMapEncodeTiled for " + s.operand + " (" +
                        describeTensorMapSpec(s) + ")");
}

} // namespace wsgemm::runtime
