/*===-- ws-gemm-c/Compile.h - C API: compile kernels in memory ----*- C -*-===*\
|*                                                                            *|
|* One call compiles MLIR text holding wsgemm.gemm kernels to, per kernel,    *|
|* its manifest (JSON, docs/manifest.md), PTX and cubin, in memory; every     *|
|* diagnostic comes back in the result (severity, location, message), none   *|
|* is printed. The same driver as ws-gemm-compile (ws-gemm/Driver/Compile.h); *|
|* with options.family = WSGEMM_FAMILY_DEFAULT a gemm without a config also  *|
|* comes back as its default family (ws-gemm/Driver/Family.h).               *|
|*                                                                            *|
|*   WsGemmCompileOptions options = wsgemmCompileOptionsGetDefault();         *|
|*   WsGemmCompileResult r = wsgemmCompile(                                   *|
|*       mlirStringRefCreateFromCString(text),                                *|
|*       mlirStringRefCreateFromCString("gemm.mlir"), &options);              *|
|*   if (wsgemmCompileResultSucceeded(r))                                     *|
|*     for (intptr_t i = 0; i < wsgemmCompileResultGetNumKernels(r); ++i)     *|
|*       use(wsgemmCompileResultGetKernelCubin(r, i));                        *|
|*   else                                                                     *|
|*     fputs(wsgemmCompileResultGetDiagnosticsText(r).data, stderr);          *|
|*   wsgemmCompileResultDestroy(r);                                           *|
|*                                                                            *|
|* Every function here takes and returns plain C values (a handle is a        *|
|* struct of one pointer; strings are MlirStringRef, data + length, owned by  *|
|* the result and valid until it is destroyed), so ctypes can bind it.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef WSGEMM_C_COMPILE_H
#define WSGEMM_C_COMPILE_H

#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What to produce besides the manifest. */
typedef enum WsGemmEmit {
  WSGEMM_EMIT_ALL = 0,   /**< PTX and cubin */
  WSGEMM_EMIT_PTX = 1,   /**< PTX only: no ptxas needed */
  WSGEMM_EMIT_CUBIN = 2, /**< cubin (PTX is still returned) */
} WsGemmEmit;

/** What a kernel that spills registers to local memory is. */
typedef enum WsGemmSpills {
  WSGEMM_SPILLS_WARN = 0,  /**< a warning diagnostic; the kernel is kept */
  WSGEMM_SPILLS_ERROR = 1, /**< an error: the compilation fails */
  WSGEMM_SPILLS_ALLOW = 2, /**< accepted silently */
} WsGemmSpills;

/** What a wsgemm.gemm without a config compiles into besides its kernel. */
typedef enum WsGemmFamily {
  WSGEMM_FAMILY_NONE = 0,    /**< the kernel alone (ws-gemm-compile's default) */
  WSGEMM_FAMILY_DEFAULT = 1, /**< also its default family (docs/tuning.md) */
} WsGemmFamily;

/** The driver's options (ws-gemm-compile's flags). A NULL string means the
 *  default; strings are NUL-terminated and only read during wsgemmCompile. */
typedef struct WsGemmCompileOptions {
  const char *chip;     /**< target SM, default "sm_90a" */
  const char *features; /**< PTX features, default "+ptx80" */
  const char *cudaPath; /**< CUDA root (ptxas, libdevice); default $CUDA_HOME
                             or the toolkit found at configure time */
  int32_t optLevel;     /**< NVPTX and ptxas -O level, 0 to 3; default 3 */
  int32_t emit;         /**< a WsGemmEmit */
  int32_t spills;       /**< a WsGemmSpills */
  int32_t family;       /**< a WsGemmFamily */
  int32_t jobs;         /**< family variants compiled at once; 0: the cores */
} WsGemmCompileOptions;

/** The defaults: NULL strings, opt level 3, WSGEMM_EMIT_ALL,
 *  WSGEMM_SPILLS_WARN, WSGEMM_FAMILY_NONE, jobs 0. */
MLIR_CAPI_EXPORTED WsGemmCompileOptions wsgemmCompileOptionsGetDefault(void);

/** Diagnostic severities, as MLIR's MlirDiagnosticSeverity. */
typedef enum WsGemmSeverity {
  WSGEMM_SEVERITY_ERROR = 0,
  WSGEMM_SEVERITY_WARNING = 1,
  WSGEMM_SEVERITY_NOTE = 2,
  WSGEMM_SEVERITY_REMARK = 3,
} WsGemmSeverity;

/** The outcome of one wsgemmCompile: kernels and diagnostics. */
typedef struct WsGemmCompileResult {
  void *ptr;
} WsGemmCompileResult;

/** Parses `source` (MLIR text; `sourceName` names it in locations) in a
 *  context of its own and compiles every wsgemm.gemm in it. `options` may be
 *  NULL for the defaults. Never returns a null result; check
 *  wsgemmCompileResultSucceeded. Thread-safe: calls share nothing but a
 *  read-only dialect registry. A family's variants compile on threads of
 *  the call's own (options.jobs). */
MLIR_CAPI_EXPORTED WsGemmCompileResult wsgemmCompile(
    MlirStringRef source, MlirStringRef sourceName,
    const WsGemmCompileOptions *options);

/** Frees the result and every string it returned. */
MLIR_CAPI_EXPORTED void wsgemmCompileResultDestroy(WsGemmCompileResult result);

/** True when every kernel compiled (warnings may still be present). */
MLIR_CAPI_EXPORTED bool wsgemmCompileResultSucceeded(
    WsGemmCompileResult result);

/** Kernels, sorted by name; none when the compilation failed. */
MLIR_CAPI_EXPORTED intptr_t wsgemmCompileResultGetNumKernels(
    WsGemmCompileResult result);
/** The kernel's symbol (its wsgemm.gemm's name). */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetKernelName(
    WsGemmCompileResult result, intptr_t kernel);
/** The manifest, JSON (docs/manifest.md). */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetKernelManifest(
    WsGemmCompileResult result, intptr_t kernel);
/** The PTX text. */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetKernelPTX(
    WsGemmCompileResult result, intptr_t kernel);
/** The cubin's bytes (length 0 with WSGEMM_EMIT_PTX). Binary: not
 *  NUL-terminated text. */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetKernelCubin(
    WsGemmCompileResult result, intptr_t kernel);
/** ptxas -v's report: registers, spill bytes (empty with WSGEMM_EMIT_PTX). */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetKernelPtxasLog(
    WsGemmCompileResult result, intptr_t kernel);

/** With WSGEMM_FAMILY_DEFAULT: one family per wsgemm.gemm without a config
 *  (sorted as the kernels), none otherwise. Its first variant is the
 *  kernel of the same name above. To load it, write the family manifest as
 *  DIR/family.json and each variant's manifest, PTX and cubin as
 *  DIR/<variant id>/<name>.json, .ptx and .cubin (ws-gemm-compile
 *  --family=default's layout), then the runtime's KernelFamily::load. */
MLIR_CAPI_EXPORTED intptr_t wsgemmCompileResultGetNumFamilies(
    WsGemmCompileResult result);
/** The family's name: its kernel's symbol. */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyName(
    WsGemmCompileResult result, intptr_t family);
/** The family manifest, family.json's text (docs/tuning.md). */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyManifest(
    WsGemmCompileResult result, intptr_t family);
MLIR_CAPI_EXPORTED intptr_t wsgemmCompileResultGetFamilyNumVariants(
    WsGemmCompileResult result, intptr_t family);
/** The variant's id (its directory name in the family). */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyVariantId(
    WsGemmCompileResult result, intptr_t family, intptr_t variant);
/** The variant's planned config, as #wsgemm.config text. */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyVariantConfig(
    WsGemmCompileResult result, intptr_t family, intptr_t variant);
/** The variant's manifest, PTX, cubin and ptxas report, as the kernel
 *  getters above. */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyVariantManifest(
    WsGemmCompileResult result, intptr_t family, intptr_t variant);
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyVariantPTX(
    WsGemmCompileResult result, intptr_t family, intptr_t variant);
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyVariantCubin(
    WsGemmCompileResult result, intptr_t family, intptr_t variant);
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetFamilyVariantPtxasLog(
    WsGemmCompileResult result, intptr_t family, intptr_t variant);

/** Diagnostics in the order they were emitted; a note attached to a
 *  diagnostic follows it as a diagnostic of its own. */
MLIR_CAPI_EXPORTED intptr_t wsgemmCompileResultGetNumDiagnostics(
    WsGemmCompileResult result);
/** A WsGemmSeverity. */
MLIR_CAPI_EXPORTED int32_t wsgemmCompileResultGetDiagnosticSeverity(
    WsGemmCompileResult result, intptr_t diagnostic);
/** The message, without location or severity. */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetDiagnosticMessage(
    WsGemmCompileResult result, intptr_t diagnostic);
/** The file of the diagnostic's location (empty when it has none); line and
 *  column are 1-based, 0 when unknown. */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetDiagnosticFile(
    WsGemmCompileResult result, intptr_t diagnostic);
MLIR_CAPI_EXPORTED int32_t wsgemmCompileResultGetDiagnosticLine(
    WsGemmCompileResult result, intptr_t diagnostic);
MLIR_CAPI_EXPORTED int32_t wsgemmCompileResultGetDiagnosticColumn(
    WsGemmCompileResult result, intptr_t diagnostic);
/** All diagnostics as a compiler prints them, one per line:
 *  "file:line:col: error: message" (NUL-terminated). */
MLIR_CAPI_EXPORTED MlirStringRef wsgemmCompileResultGetDiagnosticsText(
    WsGemmCompileResult result);

#ifdef __cplusplus
}
#endif

#endif /* WSGEMM_C_COMPILE_H */
