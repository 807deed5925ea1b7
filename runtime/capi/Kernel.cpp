//===- Kernel.cpp - C API: errors, arguments, kernels, the driver ---------===//
//
// Each function checks its handles and strings, calls the C++ runtime and
// turns a failed Status into a WsGemmRtStatus plus the thread's last error.
// Nothing here throws: the runtime's API does not, and the few standard
// library calls that could (allocation) are inside try blocks.
//
//===----------------------------------------------------------------------===//

#include "Handles.h"

#include "../lib/CudaLoader.h"

#include "ws-gemm-runtime/Cubin.h"

#include <cstdio>
#include <exception>
#include <new>

using namespace wsgemm::runtime;

namespace wsgemm::runtime::capi {

static thread_local std::string lastError;

WsGemmRtStatus fail(WsGemmRtStatus status, const std::string &message) {
  lastError = message;
  return status;
}

WsGemmRtStatus ok() {
  lastError.clear();
  return WSGEMMRT_OK;
}

static std::string joinDims(const std::vector<Dim> &dims) {
  std::string s;
  for (Dim d : dims)
    s += (s.empty() ? "" : ",") + std::string(dimName(d));
  return s;
}

std::unique_ptr<WsGemmRtKernel_> makeKernel(Manifest manifest,
                                            std::string manifestJson,
                                            std::vector<char> cubin) {
  auto k = std::make_unique<WsGemmRtKernel_>();
  k->manifest = std::move(manifest);
  k->manifestJson = std::move(manifestJson);
  k->cubin = std::move(cubin);
  k->description = describeInterface(k->manifest);
  for (const EvtNode &n : k->manifest.nodes)
    if (n.op == EvtOp::LoadSrc)
      k->sourceGate = n.skipIfZero;
  for (const Param &p : k->manifest.params) {
    switch (p.kind) {
    case ParamKind::TensorMap:
    case ParamKind::Matrix:
      k->paramDims.push_back(joinDims(p.dims));
      break;
    case ParamKind::Pointer:
    case ParamKind::Reduction:
      k->paramDims.push_back(joinDims(p.extent));
      break;
    case ParamKind::Size:
      k->paramDims.push_back(dimName(p.dim));
      break;
    default:
      k->paramDims.emplace_back();
    }
  }
  return k;
}

WsGemmRtStatus ensureContext() {
  if (Status s = loadCudaDriver(); !s.ok())
    return fail(WSGEMMRT_ERROR_NO_DRIVER, s.message());
  if (Status s = cuCheck(cuInit(0), "cuInit (is an NVIDIA driver installed?)");
      !s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  CUcontext current = nullptr;
  if (Status s = cuCheck(cuCtxGetCurrent(&current), "cuCtxGetCurrent");
      !s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  if (current)
    return ok();
  // No context on this thread: device 0's primary context, retained for
  // the life of the process (the one torch and the CUDA runtime use).
  static std::mutex mutex;
  static std::optional<Context> primary;
  std::lock_guard<std::mutex> lock(mutex);
  if (!primary) {
    auto c = Context::create(0);
    if (!c)
      return fail(WSGEMMRT_ERROR_CUDA, c.message());
    primary.emplace(std::move(*c));
    return ok();
  }
  if (Status s = primary->makeCurrent(); !s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  return ok();
}

/// Set on a thread once ensureContext() succeeded there: the driver is
/// loaded and initialised, so a launch may look its plan up first.
static thread_local bool driverReady = false;

/// The kernel's module in context `ctx`, or null before its first launch.
static std::shared_ptr<const Kernel> loadedIn(WsGemmRtKernel_ &k,
                                              CUcontext ctx) {
  std::lock_guard<std::mutex> lock(k.mutex);
  auto it = k.loaded.find(ctx);
  return it == k.loaded.end() ? nullptr : it->second;
}

WsGemmRtStatus launchKernel(WsGemmRtKernel_ &k, const GemmArgs &args,
                            CUstream stream) {
  // Steady state: arguments launched before in this context have a plan,
  // validated when it was made; launch it and nothing else.
  CUcontext ctx = nullptr;
  if (driverReady && cuCtxGetCurrent(&ctx) == CUDA_SUCCESS && ctx) {
    if (auto loaded = loadedIn(k, ctx)) {
      if (auto plan = loaded->cachedPlan(args, stream)) {
        if (Status s = loaded->launch(*plan, stream); !s.ok())
          return fail(WSGEMMRT_ERROR_CUDA, s.message());
        return ok();
      }
    }
  }
  // First launch of these arguments: refuse bad ones before the driver is
  // needed, then load the module and prepare the plan.
  if (Status s = validate(k.manifest, args); !s.ok())
    return fail(WSGEMMRT_ERROR_REFUSED, s.message());
  if (k.cubin.empty())
    return fail(WSGEMMRT_ERROR_REFUSED,
                "kernel '" + k.manifest.kernel +
                    "' has no cubin (compiled without ptxas, emit=ptx): it "
                    "can be queried and validated against, not launched");
  if (WsGemmRtStatus s = ensureContext(); s != WSGEMMRT_OK)
    return s;
  driverReady = true;
  if (Status s = cuCheck(cuCtxGetCurrent(&ctx), "cuCtxGetCurrent"); !s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  std::shared_ptr<const Kernel> loaded;
  {
    std::lock_guard<std::mutex> lock(k.mutex);
    auto it = k.loaded.find(ctx);
    if (it != k.loaded.end()) {
      loaded = it->second;
    } else {
      auto l = Kernel::load(k.manifest, k.cubin);
      if (!l)
        return fail(WSGEMMRT_ERROR_CUDA, l.message());
      loaded = *l;
      k.loaded[ctx] = loaded;
    }
  }
  if (Status s = loaded->launch(args, stream); !s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  return ok();
}

static WsGemmRtStatus workspaceSize(WsGemmRtKernel_ &k, const GemmArgs &args,
                             uint64_t *bytes) {
  if (Status s = validate(k.manifest, args); !s.ok())
    return fail(WSGEMMRT_ERROR_REFUSED, s.message());
  *bytes = 0;
  if (!k.manifest.workspace)
    return ok();
  // The grid (hence the split tiles) depends on the device's SM count.
  if (WsGemmRtStatus s = ensureContext(); s != WSGEMMRT_OK)
    return s;
  auto dev = queryCurrentDevice();
  if (!dev)
    return fail(WSGEMMRT_ERROR_CUDA, dev.message());
  auto geom = computeLaunchGeometry(k.manifest, args, dev->smCount);
  if (!geom)
    return fail(WSGEMMRT_ERROR_REFUSED, geom.message());
  *bytes = geom->workspaceBytes;
  return ok();
}

} // namespace wsgemm::runtime::capi

using namespace wsgemm::runtime::capi;

#define WSGEMM_RT_REQUIRE(cond, what)                                          \
  do {                                                                         \
    if (!(cond))                                                               \
      return fail(WSGEMMRT_ERROR_INVALID_CALL,                                 \
                  std::string(__func__) + ": " + (what));                      \
  } while (false)

extern "C" {

const char *wsgemmRtGetLastError(void) { return lastError.c_str(); }

const char *wsgemmRtGetVersion(void) { return "0.1"; }

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

WsGemmRtArgs wsgemmRtArgsCreate(void) {
  return new (std::nothrow) WsGemmRtArgs_();
}

void wsgemmRtArgsDestroy(WsGemmRtArgs args) { delete args; }

void wsgemmRtArgsReset(WsGemmRtArgs args) {
  if (args)
    args->args = GemmArgs();
}

WsGemmRtStatus wsgemmRtArgsSetProblem(WsGemmRtArgs args, int64_t M, int64_t N,
                                      int64_t K, int64_t L) {
  WSGEMM_RT_REQUIRE(args, "null args");
  args->args.M = M;
  args->args.N = N;
  args->args.K = K;
  args->args.L = L;
  return ok();
}

WsGemmRtStatus wsgemmRtArgsSetTensor(WsGemmRtArgs args, const char *name,
                                     uint64_t devicePtr, const char *dtype,
                                     int64_t ld, int64_t batchStride) {
  WSGEMM_RT_REQUIRE(args, "null args");
  WSGEMM_RT_REQUIRE(name && *name, "null or empty name");
  TensorArg t;
  t.ptr = static_cast<CUdeviceptr>(devicePtr);
  t.ld = ld;
  t.batchStride = batchStride;
  if (dtype) {
    t.dtype = parseDType(dtype);
    if (!t.dtype)
      return fail(WSGEMMRT_ERROR_INVALID_CALL,
                  std::string(name) + ": unknown dtype '" + dtype +
                      "' (expected f16, bf16, f32, f8e4m3 or f8e5m2)");
  }
  try {
    std::string n = name;
    if (n == "A")
      args->args.A = t;
    else if (n == "B")
      args->args.B = t;
    else if (n == "C")
      args->args.C = t;
    else if (n == "D")
      args->args.D = t;
    else
      args->args.named[n] = t;
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_INVALID_CALL, e.what());
  }
  return ok();
}

WsGemmRtStatus wsgemmRtArgsSetScalar(WsGemmRtArgs args, const char *name,
                                     float value) {
  WSGEMM_RT_REQUIRE(args, "null args");
  WSGEMM_RT_REQUIRE(name && *name, "null or empty name");
  try {
    args->args.scalars[name] = value;
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_INVALID_CALL, e.what());
  }
  return ok();
}

WsGemmRtStatus wsgemmRtArgsSetWorkspace(WsGemmRtArgs args, uint64_t devicePtr,
                                       uint64_t bytes) {
  WSGEMM_RT_REQUIRE(args, "null args");
  args->args.workspace = devicePtr;
  args->args.workspaceBytes = devicePtr ? bytes : 0;
  return ok();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

static WsGemmRtStatus loadKernel(std::string json, const std::string &path,
                                 const char *cubin, size_t cubinSize,
                                 bool cubinFromFile, WsGemmRtKernel *out) {
  auto m = parseManifest(json, path);
  if (!m)
    return fail(WSGEMMRT_ERROR_MANIFEST, m.message());
  std::vector<char> bytes;
  if (cubinFromFile) {
    auto file = readFile(m->cubinPath());
    if (!file)
      return fail(WSGEMMRT_ERROR_MANIFEST,
                  Status(file.status()).prepend("cubin").message());
    bytes = std::move(*file);
  } else if (cubinSize) {
    bytes.assign(cubin, cubin + cubinSize);
  }
  if (!bytes.empty())
    if (Status s = checkCubinImage(bytes.data(), bytes.size()); !s.ok())
      return fail(WSGEMMRT_ERROR_MANIFEST,
                  s.prepend("cubin " + m->cubinPath()).message());
  *out = makeKernel(std::move(*m), std::move(json), std::move(bytes)).release();
  return ok();
}

WsGemmRtStatus wsgemmRtKernelLoad(const char *manifestPath,
                                  WsGemmRtKernel *out) {
  WSGEMM_RT_REQUIRE(manifestPath && out, "null path or out");
  *out = nullptr;
  try {
    auto text = readFile(manifestPath);
    if (!text)
      return fail(WSGEMMRT_ERROR_MANIFEST,
                  Status(text.status()).prepend("manifest").message());
    return loadKernel(std::string(text->begin(), text->end()), manifestPath,
                      nullptr, 0, /*cubinFromFile=*/true, out);
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_MANIFEST, e.what());
  }
}

WsGemmRtStatus wsgemmRtKernelLoadFromMemory(const char *manifestJson,
                                            size_t manifestSize,
                                            const void *cubin,
                                            size_t cubinSize, const char *name,
                                            WsGemmRtKernel *out) {
  WSGEMM_RT_REQUIRE(manifestJson && out, "null manifest or out");
  WSGEMM_RT_REQUIRE(cubin || cubinSize == 0, "null cubin of non-zero size");
  *out = nullptr;
  try {
    // The name is only for messages: a path that is never read.
    return loadKernel(std::string(manifestJson, manifestSize),
                      name ? name : "", static_cast<const char *>(cubin),
                      cubinSize, /*cubinFromFile=*/false, out);
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_MANIFEST, e.what());
  }
}

void wsgemmRtKernelDestroy(WsGemmRtKernel kernel) { delete kernel; }

const char *wsgemmRtKernelGetName(WsGemmRtKernel k) {
  return k ? k->manifest.kernel.c_str() : "";
}
const char *wsgemmRtKernelGetArch(WsGemmRtKernel k) {
  return k ? k->manifest.arch.c_str() : "";
}
const char *wsgemmRtKernelGetManifestJson(WsGemmRtKernel k) {
  return k ? k->manifestJson.c_str() : "";
}
const char *wsgemmRtKernelDescribe(WsGemmRtKernel k) {
  return k ? k->description.c_str() : "";
}
int wsgemmRtKernelIsBatched(WsGemmRtKernel k) {
  return k && k->manifest.batched;
}
int wsgemmRtKernelHasCubin(WsGemmRtKernel k) { return k && !k->cubin.empty(); }

int wsgemmRtKernelGetStaticShape(WsGemmRtKernel k, int64_t shape[4]) {
  if (!k || !k->manifest.staticShape)
    return 0;
  for (int i = 0; i < 4; ++i)
    shape[i] = (*k->manifest.staticShape)[i];
  return 1;
}

int64_t wsgemmRtKernelGetConfig(WsGemmRtKernel k, int64_t tile[3],
                                int64_t block[3]) {
  if (!k)
    return 0;
  for (int i = 0; i < 3; ++i) {
    if (tile)
      tile[i] = k->manifest.tile[i];
    if (block)
      block[i] = k->manifest.block[i];
  }
  return k->manifest.smemBytes;
}

int wsgemmRtKernelGetOperand(WsGemmRtKernel k, const char *operand,
                             const char **dtype, const char **layout) {
  if (!k || !operand)
    return 0;
  auto it = k->manifest.operands.find(operand);
  if (it == k->manifest.operands.end())
    return 0;
  if (dtype)
    *dtype = dtypeName(it->second.dtype);
  if (layout)
    *layout = layoutName(it->second.layout);
  return 1;
}

const char *wsgemmRtKernelGetSourceGate(WsGemmRtKernel k) {
  return k ? k->sourceGate.c_str() : "";
}

intptr_t wsgemmRtKernelGetNumParams(WsGemmRtKernel k) {
  return k ? static_cast<intptr_t>(k->manifest.params.size()) : 0;
}

WsGemmRtStatus wsgemmRtKernelGetParam(WsGemmRtKernel k, intptr_t index,
                                      const char **name, const char **kind,
                                      const char **dtype, const char **operand,
                                      const char **dims, const char **reduce) {
  WSGEMM_RT_REQUIRE(k, "null kernel");
  WSGEMM_RT_REQUIRE(index >= 0 && index < static_cast<intptr_t>(
                                              k->manifest.params.size()),
                    "parameter index " + std::to_string(index) +
                        " out of range");
  const Param &p = k->manifest.params[index];
  if (name)
    *name = p.name.c_str();
  if (kind)
    *kind = paramKindName(p.kind);
  if (dtype) // size parameters are i32 (the manifest gives them no dtype)
    *dtype = p.kind == ParamKind::Size ? "i32" : dtypeName(p.dtype);
  if (operand)
    *operand = p.kind == ParamKind::TensorMap || p.kind == ParamKind::Matrix
                   ? p.operand.c_str()
                   : "";
  if (dims)
    *dims = k->paramDims[index].c_str();
  if (reduce)
    *reduce = p.kind == ParamKind::Reduction ? reduceName(p.reduce) : "";
  return ok();
}

WsGemmRtStatus wsgemmRtKernelValidate(WsGemmRtKernel k, WsGemmRtArgs args) {
  WSGEMM_RT_REQUIRE(k && args, "null kernel or args");
  if (Status s = validate(k->manifest, args->args); !s.ok())
    return fail(WSGEMMRT_ERROR_REFUSED, s.message());
  return ok();
}

WsGemmRtStatus wsgemmRtKernelLaunch(WsGemmRtKernel k, WsGemmRtArgs args,
                                    void *stream) {
  WSGEMM_RT_REQUIRE(k && args, "null kernel or args");
  try {
    return launchKernel(*k, args->args, static_cast<CUstream>(stream));
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_CUDA, e.what());
  }
}

WsGemmRtStatus wsgemmRtKernelGetWorkspaceSize(WsGemmRtKernel k,
                                              WsGemmRtArgs args,
                                              uint64_t *bytes) {
  WSGEMM_RT_REQUIRE(k && args && bytes, "null kernel, args or bytes");
  try {
    return workspaceSize(*k, args->args, bytes);
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_CUDA, e.what());
  }
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

WsGemmRtStatus wsgemmRtInitDevice(int ordinal) {
  if (Status s = loadCudaDriver(); !s.ok())
    return fail(WSGEMMRT_ERROR_NO_DRIVER, s.message());
  auto c = Context::create(ordinal);
  if (!c)
    return fail(WSGEMMRT_ERROR_CUDA, c.message());
  // Retained (once per device) until the process ends: kernels loaded in
  // it stay valid.
  static std::mutex mutex;
  static std::map<int, Context> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  contexts.emplace(ordinal, std::move(*c));
  return ok();
}

WsGemmRtStatus wsgemmRtDeviceGetChip(int ordinal, char *chip, size_t size) {
  WSGEMM_RT_REQUIRE(chip && size >= 8, "chip: a buffer of at least 8 bytes");
  if (Status s = loadCudaDriver(); !s.ok())
    return fail(WSGEMMRT_ERROR_NO_DRIVER, s.message());
  if (Status s = cuCheck(cuInit(0), "cuInit"); !s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  // The current context's device (torch's current device), else `ordinal`
  // (device 0 for a negative one).
  CUcontext ctx = nullptr;
  if (ordinal < 0)
    if (Status s = cuCheck(cuCtxGetCurrent(&ctx), "cuCtxGetCurrent"); !s.ok())
      return fail(WSGEMMRT_ERROR_CUDA, s.message());
  CUdevice dev = 0;
  Status s = ctx ? cuCheck(cuCtxGetDevice(&dev), "cuCtxGetDevice")
                 : cuCheck(cuDeviceGet(&dev, ordinal < 0 ? 0 : ordinal),
                           "cuDeviceGet");
  if (!s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  Expected<DeviceInfo> d = queryDevice(dev);
  if (!d)
    return fail(WSGEMMRT_ERROR_CUDA, d.message());
  std::optional<std::string> c = chipFor(*d);
  if (!c)
    return fail(WSGEMMRT_ERROR_REFUSED,
                "device " + std::to_string(d->ordinal) + " (" + d->name +
                    ") has compute capability " + std::to_string(d->ccMajor) +
                    "." + std::to_string(d->ccMinor) +
                    "; ws-gemm compiles for 9.0 (sm_90a), 8.0 and 8.7 "
                    "(sm_80), 8.6 (sm_86) and 8.9 (sm_89)");
  std::snprintf(chip, size, "%s", c->c_str());
  return ok();
}

WsGemmRtStatus wsgemmRtStreamSynchronize(void *stream) {
  if (Status s = loadCudaDriver(); !s.ok())
    return fail(WSGEMMRT_ERROR_NO_DRIVER, s.message());
  if (Status s = cuCheck(cuStreamSynchronize(static_cast<CUstream>(stream)),
                         "cuStreamSynchronize");
      !s.ok())
    return fail(WSGEMMRT_ERROR_CUDA, s.message());
  return ok();
}

} // extern "C"
