/*===-- ws-gemm-runtime-c/Runtime.h - The runtime's C API ---------*- C -*-===*\
|*                                                                            *|
|* libWsGemmRuntimeC.so: the ws-gemm runtime (C++, runtime/) behind plain C  *|
|* functions and opaque handles, for C programs and ctypes (the Python       *|
|* package, python/ws_gemm). No MLIR; libcuda is dlopen'ed when a launch      *|
|* first needs it, so everything before the launch works without a GPU:      *|
|*                                                                            *|
|*   WsGemmRtKernel k;                                                        *|
|*   if (wsgemmRtKernelLoad("out/gemm.json", &k) != WSGEMMRT_OK)              *|
|*     return fputs(wsgemmRtGetLastError(), stderr), 1;                       *|
|*   WsGemmRtArgs a = wsgemmRtArgsCreate();                                   *|
|*   wsgemmRtArgsSetProblem(a, M, N, K, 1);                                   *|
|*   wsgemmRtArgsSetTensor(a, "A", dA, NULL, 0, 0);   ... B, C, D, "bias"     *|
|*   wsgemmRtArgsSetScalar(a, "alpha", 1.0f);                                 *|
|*   if (wsgemmRtKernelLaunch(k, a, stream) != WSGEMMRT_OK)  // validates     *|
|*     fputs(wsgemmRtGetLastError(), stderr);                                 *|
|*   wsgemmRtArgsDestroy(a); wsgemmRtKernelDestroy(k);                        *|
|*                                                                            *|
|* Errors: every fallible call returns a WsGemmRtStatus; the message of the  *|
|* calling thread's last failure is wsgemmRtGetLastError() (the runtime's    *|
|* messages, which name the argument or manifest key and the rule). Nothing  *|
|* aborts or throws. Strings returned by a handle's getters are owned by the *|
|* handle and valid until it is destroyed. Handles are thread-safe for       *|
|* concurrent launches; an Args handle belongs to one thread at a time.      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef WSGEMM_RUNTIME_C_RUNTIME_H
#define WSGEMM_RUNTIME_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(WSGEMM_RT_C_BUILDING)
#define WSGEMM_RT_C_EXPORTED __attribute__((visibility("default")))
#else
#define WSGEMM_RT_C_EXPORTED
#endif

/** What went wrong; the message is wsgemmRtGetLastError(). */
typedef enum WsGemmRtStatus {
  WSGEMMRT_OK = 0,
  /** A bad call: null handle or string, an index out of range. */
  WSGEMMRT_ERROR_INVALID_CALL = 1,
  /** A manifest, cubin, family or tuning table cannot be read or is
   *  malformed. */
  WSGEMMRT_ERROR_MANIFEST = 2,
  /** The problem or an argument breaks a rule of the kernel (validate()):
   *  nothing was launched. */
  WSGEMMRT_ERROR_REFUSED = 3,
  /** libcuda.so.1 cannot be loaded: no NVIDIA driver on this machine. */
  WSGEMMRT_ERROR_NO_DRIVER = 4,
  /** The driver failed or refused the device (message names the call). */
  WSGEMMRT_ERROR_CUDA = 5,
} WsGemmRtStatus;

/** The calling thread's last error message ("" after none). */
WSGEMM_RT_C_EXPORTED const char *wsgemmRtGetLastError(void);
/** "0.1". */
WSGEMM_RT_C_EXPORTED const char *wsgemmRtGetVersion(void);

/*===----------------------------------------------------------------------===*
 * Arguments of one launch
 *===----------------------------------------------------------------------===*/

typedef struct WsGemmRtArgs_ *WsGemmRtArgs;

WSGEMM_RT_C_EXPORTED WsGemmRtArgs wsgemmRtArgsCreate(void);
WSGEMM_RT_C_EXPORTED void wsgemmRtArgsDestroy(WsGemmRtArgs args);
/** Forgets every tensor and scalar; the problem becomes 0 x 0 x 0 x 1. */
WSGEMM_RT_C_EXPORTED void wsgemmRtArgsReset(WsGemmRtArgs args);
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtArgsSetProblem(WsGemmRtArgs args,
                                                           int64_t M, int64_t N,
                                                           int64_t K,
                                                           int64_t L);
/** A device buffer: `name` is A, B, C, D or a parameter's name (aux
 *  matrix, vector, reduction, scalar pointer). `dtype` ("f16", "bf16",
 *  "f32", "f8e4m3", "f8e5m2") may be NULL; when given it must be the
 *  kernel's. `ld` and `batchStride` are in elements, 0 = packed. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus
wsgemmRtArgsSetTensor(WsGemmRtArgs args, const char *name, uint64_t devicePtr,
                      const char *dtype, int64_t ld, int64_t batchStride);
/** The value of a `scalar` parameter. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtArgsSetScalar(WsGemmRtArgs args,
                                                          const char *name,
                                                          float value);

/** A split-K / stream-K kernel's workspace (wsgemmRtKernelGetWorkspaceSize
 *  bytes at least, 16-byte aligned, zeroed before its first launch; every
 *  launch leaves it zeroed), for a caller that owns its memory. 0: the
 *  kernel's own, one per stream, allocated and zeroed at the first launch
 *  on that stream and kept until the kernel is destroyed. Launches that
 *  may overlap (other streams) need distinct workspaces. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtArgsSetWorkspace(WsGemmRtArgs args,
                                                             uint64_t devicePtr,
                                                             uint64_t bytes);

/*===----------------------------------------------------------------------===*
 * Kernels
 *===----------------------------------------------------------------------===*/

typedef struct WsGemmRtKernel_ *WsGemmRtKernel;

/** Parses and checks the manifest, reads and checks its cubin (structure
 *  only: the driver is not touched). */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtKernelLoad(const char *manifestPath,
                                                       WsGemmRtKernel *out);
/** The same from memory (e.g. wsgemmCompile's results): `name` names it in
 *  messages. `cubin` may be NULL with size 0: the kernel can then be
 *  queried and validated against, and its launch is refused. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtKernelLoadFromMemory(
    const char *manifestJson, size_t manifestSize, const void *cubin,
    size_t cubinSize, const char *name, WsGemmRtKernel *out);
WSGEMM_RT_C_EXPORTED void wsgemmRtKernelDestroy(WsGemmRtKernel kernel);

/** The manifest's fields (docs/manifest.md). */
WSGEMM_RT_C_EXPORTED const char *wsgemmRtKernelGetName(WsGemmRtKernel kernel);
WSGEMM_RT_C_EXPORTED const char *wsgemmRtKernelGetArch(WsGemmRtKernel kernel);
/** The manifest text it was loaded from. */
WSGEMM_RT_C_EXPORTED const char *
wsgemmRtKernelGetManifestJson(WsGemmRtKernel kernel);
/** Its interface, one fact a line ("operand A f16 k_major", "param
 *  pointer bias f16 [M]", "evt 3 load_vec_m bias", ...): what a caller
 *  depends on (variants of a family describe equal). */
WSGEMM_RT_C_EXPORTED const char *
wsgemmRtKernelDescribe(WsGemmRtKernel kernel);
WSGEMM_RT_C_EXPORTED int wsgemmRtKernelIsBatched(WsGemmRtKernel kernel);
/** 1 and the shape in shape[4] (M, N, K, L) when the kernel has a static
 *  shape, else 0. */
WSGEMM_RT_C_EXPORTED int wsgemmRtKernelGetStaticShape(WsGemmRtKernel kernel,
                                                      int64_t shape[4]);
/** tile[3] = CTA tile M, N, K; block[3] = threads; returns smem_bytes. */
WSGEMM_RT_C_EXPORTED int64_t wsgemmRtKernelGetConfig(WsGemmRtKernel kernel,
                                                     int64_t tile[3],
                                                     int64_t block[3]);
/** 1 when the kernel has a cubin to launch. */
WSGEMM_RT_C_EXPORTED int wsgemmRtKernelHasCubin(WsGemmRtKernel kernel);
/** Operand A, B, C or D: 1 and its dtype and layout ("k_major", "m_major",
 *  "n_major"), or 0 when the kernel has no such operand (C). */
WSGEMM_RT_C_EXPORTED int wsgemmRtKernelGetOperand(WsGemmRtKernel kernel,
                                                  const char *operand,
                                                  const char **dtype,
                                                  const char **layout);
/** The C operand may be null when this scalar is 0 ("" when C is always
 *  read, or the kernel has none). */
WSGEMM_RT_C_EXPORTED const char *
wsgemmRtKernelGetSourceGate(WsGemmRtKernel kernel);

/** Parameters in kernel order (the `size` ones included). */
WSGEMM_RT_C_EXPORTED intptr_t wsgemmRtKernelGetNumParams(WsGemmRtKernel kernel);
/** Parameter `index`: name, kind ("tensor_map", "pointer", "scalar",
 *  "scalar_pointer", "reduction", "size"), dtype, operand (tensor maps:
 *  A, B, C, D or the aux name; else ""), extent or dims (innermost first,
 *  comma-separated: "M,L"; the size parameter's dim), reduce ("sum", "max",
 *  "min", "absmax" for reductions; else ""). Any out pointer may be NULL. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtKernelGetParam(
    WsGemmRtKernel kernel, intptr_t index, const char **name,
    const char **kind, const char **dtype, const char **operand,
    const char **dims, const char **reduce);

/** Checks the problem and every argument against the manifest, as the
 *  launch does first (WSGEMMRT_ERROR_REFUSED with the rule broken). */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtKernelValidate(WsGemmRtKernel kernel,
                                                           WsGemmRtArgs args);
/** Validates, then loads the module into the calling thread's current
 *  context on first use (the primary context of device 0 is retained and
 *  made current when the thread has none), encodes the tensor maps and
 *  launches on `stream` (a CUstream; NULL: the legacy default stream).
 *  What it prepared is kept, keyed by every argument: launching the same
 *  arguments again (in the same context) goes straight to cuLaunchKernelEx,
 *  with no validation or allocation (the only other driver call is
 *  cuCtxGetCurrent), so it can be captured into a CUDA graph
 *  (cuStreamBeginCapture) and costs a few microseconds. The launch only reads `args`: several threads may launch
 *  with one Args handle. Asynchronous: errors of the running kernel show up
 *  at the next synchronization. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtKernelLaunch(WsGemmRtKernel kernel,
                                                         WsGemmRtArgs args,
                                                         void *stream);

/** The workspace bytes a split-K / stream-K kernel needs for args' problem
 *  on the current device (0 for other kernels); needs a driver. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtKernelGetWorkspaceSize(
    WsGemmRtKernel kernel, WsGemmRtArgs args, uint64_t *bytes);

/*===----------------------------------------------------------------------===*
 * Kernel families (docs/tuning.md): one GEMM under several configs
 *===----------------------------------------------------------------------===*/

typedef struct WsGemmRtFamily_ *WsGemmRtFamily;

/** Loads a family manifest (ws-gemm-sweep's family.json) with every
 *  variant's manifest and cubin and, when `tuningPath` is neither NULL nor
 *  "", its tuning table (ws-gemm-tune). `smCount` > 0 is the SM count the
 *  heuristic assumes; 0 means the current device's, asked at the first
 *  selection. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtFamilyLoad(const char *familyPath,
                                                       const char *tuningPath,
                                                       int smCount,
                                                       WsGemmRtFamily *out);
WSGEMM_RT_C_EXPORTED void wsgemmRtFamilyDestroy(WsGemmRtFamily family);
WSGEMM_RT_C_EXPORTED const char *wsgemmRtFamilyGetName(WsGemmRtFamily family);
WSGEMM_RT_C_EXPORTED intptr_t
wsgemmRtFamilyGetNumVariants(WsGemmRtFamily family);
WSGEMM_RT_C_EXPORTED const char *
wsgemmRtFamilyGetVariantId(WsGemmRtFamily family, intptr_t index);
/** The variant's kernel, owned by the family (do not destroy it). */
WSGEMM_RT_C_EXPORTED WsGemmRtKernel
wsgemmRtFamilyGetVariantKernel(WsGemmRtFamily family, intptr_t index);
/** The variant for an M x N x K x L problem: its index, whether a tuning
 *  table chose it, and why (one line; valid until the thread's next call
 *  of this function). Any out pointer may be NULL. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus
wsgemmRtFamilySelect(WsGemmRtFamily family, int64_t M, int64_t N, int64_t K,
                     int64_t L, intptr_t *variant, int *tuned,
                     const char **reason);
/** Checks args as wsgemmRtFamilyLaunch does before it launches, by the
 *  rules of the first variant that takes arrays with their strides and
 *  alignment (else the first variant's): no driver or device needed. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus
wsgemmRtFamilyValidate(WsGemmRtFamily family, WsGemmRtArgs args);
/** Selects for args' problem, then launches that variant as
 *  wsgemmRtKernelLaunch; `variant` (may be NULL) receives its index. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus
wsgemmRtFamilyLaunch(WsGemmRtFamily family, WsGemmRtArgs args, void *stream,
                     intptr_t *variant);

/*===----------------------------------------------------------------------===*
 * Quantized weights (docs/mixed-input.md): host-side pre-packing
 *===----------------------------------------------------------------------===*/

/** Bytes of an L x M x K i4 weight packed for a mixed-input kernel. */
WSGEMM_RT_C_EXPORTED int64_t wsgemmRtPackedI4Bytes(int64_t M, int64_t K,
                                                   int64_t L);
/** Packs `q` (L x M x K values in [0, 15], one per byte, K contiguous) into
 *  `packed` (wsgemmRtPackedI4Bytes bytes) in the layout the kernels' A
 *  tensor map reads (wsgemm.i4.m64k64.v1). WSGEMMRT_ERROR_REFUSED for M
 *  or K not a multiple of 64 or a value above 15, naming it. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtPrepackI4(const uint8_t *q,
                                                      int64_t M, int64_t K,
                                                      int64_t L,
                                                      uint8_t *packed);
/** The inverse of wsgemmRtPrepackI4. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtUnpackI4(const uint8_t *packed,
                                                     int64_t M, int64_t K,
                                                     int64_t L, uint8_t *q);
/** Bytes of an L x M x K 8-bit (i8 or f8e4m3) weight packed for a
 *  mixed-input kernel (M * K * L). */
WSGEMM_RT_C_EXPORTED int64_t wsgemmRtPackedB8Bytes(int64_t M, int64_t K,
                                                   int64_t L);
/** Packs `q` (L x M x K bytes, K contiguous: int8 values or f8e4m3 bit
 *  patterns) into `packed` (wsgemmRtPackedB8Bytes bytes) in the layout the
 *  kernels' A tensor map reads (wsgemm.b8.m64k64.v1).
 *  WSGEMMRT_ERROR_REFUSED for M or K not a multiple of 64, naming it. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtPrepackB8(const uint8_t *q,
                                                      int64_t M, int64_t K,
                                                      int64_t L,
                                                      uint8_t *packed);
/** The inverse of wsgemmRtPrepackB8. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtUnpackB8(const uint8_t *packed,
                                                     int64_t M, int64_t K,
                                                     int64_t L, uint8_t *q);

/*===----------------------------------------------------------------------===*
 * Driver
 *===----------------------------------------------------------------------===*/

/** Loads libcuda.so.1 and retains device `ordinal`'s primary context,
 *  current on the calling thread (what torch and the CUDA runtime use).
 *  WSGEMMRT_ERROR_NO_DRIVER without a driver. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtInitDevice(int ordinal);
/** The chip to compile for (the compiler's `chip` option) to run on device
 *  `ordinal` (< 0: the calling thread's current context's device, else
 *  device 0), NUL-terminated into `chip` (`size` >= 8): sm_90a, sm_80,
 *  sm_86 or sm_89. WSGEMMRT_ERROR_NO_DRIVER without a driver,
 *  WSGEMMRT_ERROR_CUDA without the device, WSGEMMRT_ERROR_REFUSED for a
 *  device ws-gemm has no kernels for, naming its compute capability. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtDeviceGetChip(int ordinal,
                                                          char *chip,
                                                          size_t size);
/** cuStreamSynchronize(stream): errors of kernels launched on it. */
WSGEMM_RT_C_EXPORTED WsGemmRtStatus wsgemmRtStreamSynchronize(void *stream);

#ifdef __cplusplus
}
#endif

#endif /* WSGEMM_RUNTIME_C_RUNTIME_H */
