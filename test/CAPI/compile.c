/*===- compile.c - The ws-gemm C API, from C ------------------------------===*\
|*                                                                            *|
|* Built as C (ws-gemm-capi-test) against libWsGemmCAPI.so only:              *|
|*   dialects  registers epi + wsgemm through their dialect handles, parses   *|
|*             FILE and runs the wsgemm-prepare pipeline and the              *|
|*             --wsgemm-plan pass by name and through its C constructor       *|
|*   compile   wsgemmCompile on FILE's text (PTX only, or with cubins),       *|
|*             printing each kernel and its diagnostics                       *|
|*   malformed wsgemmCompile on broken text: diagnostics with a location      *|
|*   family    wsgemmCompile with WSGEMM_FAMILY_DEFAULT (PTX only): each      *|
|*             family, its variants and its family.json                       *|
|* The README's C snippet is the part between the snippet markers.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: ws-gemm-capi-test dialects %examples/gemm_relu.mlir | FileCheck %s --check-prefix=DIALECTS
 * RUN: ws-gemm-capi-test compile-ptx %examples/gemm_relu.mlir | FileCheck %s --check-prefix=PTX
 * RUN: ws-gemm-capi-test malformed | FileCheck %s --check-prefix=BAD
 * RUN: ws-gemm-capi-test family %examples/gemm_relu.mlir | FileCheck %s --check-prefix=FAMILY
 * The cubin run needs ptxas: test/CAPI/cubin.mlir.
 *
 * DIALECTS: handles: epi wsgemm
 * DIALECTS: parsed: wsgemm.gemm
 * DIALECTS: prepare: success
 * DIALECTS: wsgemm.gemm @gemm_bias_relu {{.*}}config #wsgemm.config<tile = [128, 128, 64], {{.*}}wsgemm.smem_bytes = 230560
 * DIALECTS: plan pass: success
 *
 * PTX: succeeded: 1
 * PTX-NEXT: kernel gemm_bias_relu: manifest {{[0-9]+}} bytes, names it; ptx {{[0-9]+}} bytes, wgmma yes; cubin 0 bytes
 * PTX-NEXT: diagnostics: 0
 *
 * BAD: succeeded: 0
 * BAD-NEXT: kernels: 0
 * BAD-NEXT: diagnostics: 1
 * BAD-NEXT: syntax.mlir:2:12: error: expected SSA operand
 * BAD-NEXT: structured: error at syntax.mlir:2:12: expected SSA operand
 * BAD-NEXT: succeeded: 0
 * BAD-NEXT: kernels: 0
 * BAD-NEXT: diagnostics: {{[1-9][0-9]*}}
 * BAD-NEXT: smem.mlir:1:1: error: needs 377968 bytes of shared memory, 232448 available: over by 145520
 * BAD-NEXT: smem.mlir:1:1: note: {{.+}}
 * BAD: structured: error at smem.mlir:1:1: needs 377968 bytes
 * BAD-NEXT: structured: other at smem.mlir:1:1: {{.+}}
 * BAD: succeeded: 0
 * BAD-NEXT: kernels: 0
 * BAD-NEXT: diagnostics: 1
 * BAD-NEXT: linalg.mlir:2:92: error: expected '[' in linalg's 'permutation = [...]' list
 * BAD-NEXT: structured: error at linalg.mlir:2:92: expected '['
 * BAD: succeeded: 0
 * BAD-NEXT: kernels: 0
 * BAD-NEXT: error: invalid WsGemmCompileOptions: emit 7
 *
 * FAMILY: succeeded: 1, kernels: 1, families: 1
 * FAMILY-NEXT: family gemm_bias_relu: 7 variant(s), manifest is a family: yes
 * FAMILY-NEXT: v0.128x128x64.cooperative: #wsgemm.config<tile = [128, 128, 64], {{.*}}>, same manifest as the kernel: yes
 * FAMILY-NEXT: v1.128x256x64.cooperative: #wsgemm.config<tile = [128, 256, 64], {{.*}}>, same manifest as the kernel: no
 * FAMILY-NEXT: v2.128x256x64.cooperative.stream_k: {{.*}}scheduler = stream_k{{.*}}
 * FAMILY-NEXT: v3.128x224x64.cooperative: #wsgemm.config<tile = [128, 224, 64], {{.*}}>, same manifest as the kernel: no
 * FAMILY-NEXT: v4.128x256x64.cooperative: {{.*}}store = direct{{.*}}, same manifest as the kernel: no
 * FAMILY-NEXT: v5.128x128x64.cooperative: {{.*}}load_a = cp_async, load_b = cp_async{{.*}}, same manifest as the kernel: no
 * FAMILY-NEXT: v6.128x256x64.cooperative: {{.*}}load_c = cp_async{{.*}}, same manifest as the kernel: no
 * FAMILY-NEXT: explicit config: families: 0
 */

#include "ws-gemm-c/Compile.h"
#include "ws-gemm-c/Dialects.h"
#include "ws-gemm-c/Passes.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(f);
  return text;
}

static void printRef(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

static int contains(MlirStringRef haystack, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= haystack.length; ++i)
    if (memcmp(haystack.data + i, needle, n) == 0)
      return 1;
  return 0;
}

/* The epi and wsgemm dialects in a context of the caller's, a pipeline by
 * name and a pass by its C constructor. */
static int dialects(const char *path, const char *text) {
  MlirDialectHandle epi = mlirGetDialectHandle__epi__();
  MlirDialectHandle wsgemm = mlirGetDialectHandle__wsgemm__();
  MlirStringRef epiName = mlirDialectHandleGetNamespace(epi);
  MlirStringRef wsgemmName = mlirDialectHandleGetNamespace(wsgemm);
  printf("handles: %.*s %.*s\n", (int)epiName.length, epiName.data,
         (int)wsgemmName.length, wsgemmName.data);

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  wsgemmRegisterCompilerDialects(registry); /* func, arith, math, gpu, ... */
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleRegisterDialect(epi, ctx);
  mlirDialectHandleRegisterDialect(wsgemm, ctx);

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "%s: parse failed\n", path);
    return 1;
  }
  MlirOperation first =
      mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirStringRef opName =
      mlirIdentifierStr(mlirOperationGetName(first));
  printf("parsed: %.*s\n", (int)opName.length, opName.data);

  mlirRegisterAllWsGemmPasses();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult added = mlirOpPassManagerAddPipeline(
      opm, mlirStringRefCreateFromCString("wsgemm-prepare"), printRef,
      stderr);
  MlirLogicalResult ran = mlirLogicalResultFailure();
  if (mlirLogicalResultIsSuccess(added))
    ran = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("prepare: %s\n", mlirLogicalResultIsSuccess(ran) ? "success"
                                                          : "failure");
  mlirOperationPrint(mlirModuleGetOperation(module), printRef, stdout);
  printf("\n");
  mlirPassManagerDestroy(pm);

  /* The plan pass again (idempotent on a planned module), built by its
   * generated C constructor. */
  MlirPassManager plan = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(plan, mlirCreateWsGemmWsGemmPlan());
  ran = mlirPassManagerRunOnOp(plan, mlirModuleGetOperation(module));
  printf("plan pass: %s\n", mlirLogicalResultIsSuccess(ran) ? "success"
                                                            : "failure");
  mlirPassManagerDestroy(plan);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}

/* [snippet:c] */
/* Compiles MLIR text with wsgemm.gemm kernels; prints each kernel's
 * manifest and sizes, or the diagnostics. */
static int compileText(const char *name, const char *text, WsGemmEmit emit) {
  WsGemmCompileOptions options = wsgemmCompileOptionsGetDefault();
  options.emit = emit;
  WsGemmCompileResult result =
      wsgemmCompile(mlirStringRefCreateFromCString(text),
                    mlirStringRefCreateFromCString(name), &options);
  printf("succeeded: %d\n", wsgemmCompileResultSucceeded(result));
  intptr_t kernels = wsgemmCompileResultGetNumKernels(result);
  if (kernels == 0)
    printf("kernels: 0\n");
  for (intptr_t i = 0; i < kernels; ++i) {
    MlirStringRef kernel = wsgemmCompileResultGetKernelName(result, i);
    MlirStringRef manifest = wsgemmCompileResultGetKernelManifest(result, i);
    MlirStringRef ptx = wsgemmCompileResultGetKernelPTX(result, i);
    MlirStringRef cubin = wsgemmCompileResultGetKernelCubin(result, i);
    printf("kernel %.*s: manifest %zu bytes, %s; ptx %zu bytes, wgmma %s; "
           "cubin %zu bytes%s\n",
           (int)kernel.length, kernel.data, manifest.length,
           contains(manifest, "\"kernel\": \"") ? "names it" : "unnamed",
           ptx.length,
           contains(ptx, "wgmma.mma_async") ? "yes" : "no", cubin.length,
           cubin.length >= 4 && memcmp(cubin.data, "\177ELF", 4) == 0
               ? " (ELF)" : "");
  }
  intptr_t count = wsgemmCompileResultGetNumDiagnostics(result);
  printf("diagnostics: %d\n", (int)count);
  /* Every diagnostic, as text ("file:line:col: error: message") ... */
  fputs(wsgemmCompileResultGetDiagnosticsText(result).data, stdout);
  /* ... and one by one, with its location. */
  for (intptr_t i = 0; i < count; ++i) {
    MlirStringRef file = wsgemmCompileResultGetDiagnosticFile(result, i);
    MlirStringRef message = wsgemmCompileResultGetDiagnosticMessage(result, i);
    printf("structured: %s at %.*s:%d:%d: %.*s\n",
           wsgemmCompileResultGetDiagnosticSeverity(result, i) ==
                   WSGEMM_SEVERITY_ERROR ? "error" : "other",
           (int)file.length, file.data,
           wsgemmCompileResultGetDiagnosticLine(result, i),
           wsgemmCompileResultGetDiagnosticColumn(result, i),
           (int)message.length, message.data);
  }
  int ok = wsgemmCompileResultSucceeded(result);
  wsgemmCompileResultDestroy(result);
  return ok ? 0 : 1;
}
/* [/snippet:c] */

static int malformed(void) {
  compileText("syntax.mlir",
              "wsgemm.gemm @broken a(f16) b(f16) d(f16) {\n"
              "  epi.store : f32\n"
              "}\n",
              WSGEMM_EMIT_PTX);
  compileText("smem.mlir",
              "wsgemm.gemm @too_big a(f16) b(f16) d(f32) config "
              "#wsgemm.config<tile = [128, 256, 64], stages = 7> {\n"
              "^bb0(%acc: f32):\n"
              "  epi.store %acc : f32\n"
              "  epi.yield\n"
              "}\n",
              WSGEMM_EMIT_PTX);
  /* What MLIR 22's own parser would crash on is refused first. */
  compileText("linalg.mlir",
              "func.func @f(%b: tensor<8x4xf16>, %e: tensor<4x8xf16>) {\n"
              "  %t = linalg.transpose ins(%b : tensor<8x4xf16>) outs(%e : "
              "tensor<4x8xf16>) permutation = 1\n"
              "  return\n"
              "}\n",
              WSGEMM_EMIT_PTX);
  /* An enumerator out of range is refused, not guessed. */
  WsGemmCompileOptions options = wsgemmCompileOptionsGetDefault();
  options.emit = 7;
  WsGemmCompileResult result = wsgemmCompile(
      mlirStringRefCreateFromCString(""),
      mlirStringRefCreateFromCString("empty.mlir"), &options);
  printf("succeeded: %d\nkernels: %d\n", wsgemmCompileResultSucceeded(result),
         (int)wsgemmCompileResultGetNumKernels(result));
  fputs(wsgemmCompileResultGetDiagnosticsText(result).data, stdout);
  wsgemmCompileResultDestroy(result);
  return 0;
}

/* The default family of FILE's gemm (PTX only), then none for a gemm
 * with an explicit config. */
static int family(const char *name, const char *text) {
  WsGemmCompileOptions options = wsgemmCompileOptionsGetDefault();
  options.emit = WSGEMM_EMIT_PTX;
  options.family = WSGEMM_FAMILY_DEFAULT;
  WsGemmCompileResult result =
      wsgemmCompile(mlirStringRefCreateFromCString(text),
                    mlirStringRefCreateFromCString(name), &options);
  intptr_t families = wsgemmCompileResultGetNumFamilies(result);
  printf("succeeded: %d, kernels: %d, families: %d\n",
         wsgemmCompileResultSucceeded(result),
         (int)wsgemmCompileResultGetNumKernels(result), (int)families);
  fputs(wsgemmCompileResultGetDiagnosticsText(result).data, stdout);
  for (intptr_t f = 0; f < families; ++f) {
    MlirStringRef fname = wsgemmCompileResultGetFamilyName(result, f);
    MlirStringRef json = wsgemmCompileResultGetFamilyManifest(result, f);
    intptr_t n = wsgemmCompileResultGetFamilyNumVariants(result, f);
    printf("family %.*s: %d variant(s), manifest is a family: %s\n",
           (int)fname.length, fname.data, (int)n,
           contains(json, "\"format\": \"ws-gemm-family\"") ? "yes" : "no");
    MlirStringRef kernel = wsgemmCompileResultGetKernelManifest(result, 0);
    for (intptr_t v = 0; v < n; ++v) {
      MlirStringRef id = wsgemmCompileResultGetFamilyVariantId(result, f, v);
      MlirStringRef config =
          wsgemmCompileResultGetFamilyVariantConfig(result, f, v);
      MlirStringRef manifest =
          wsgemmCompileResultGetFamilyVariantManifest(result, f, v);
      printf("%.*s: %.*s, same manifest as the kernel: %s\n", (int)id.length,
             id.data, (int)config.length, config.data,
             manifest.length == kernel.length &&
                     memcmp(manifest.data, kernel.data, kernel.length) == 0
                 ? "yes" : "no");
    }
  }
  wsgemmCompileResultDestroy(result);
  result = wsgemmCompile(
      mlirStringRefCreateFromCString(
          "wsgemm.gemm @explicit a(f16) b(f16) d(f16) config "
          "#wsgemm.config<tile = [128, 256, 64]> {\n"
          "^bb0(%acc: f32):\n  epi.store %acc : f32\n  epi.yield\n}\n"),
      mlirStringRefCreateFromCString("explicit.mlir"), &options);
  printf("explicit config: families: %d\n",
         (int)wsgemmCompileResultGetNumFamilies(result));
  wsgemmCompileResultDestroy(result);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "malformed") == 0)
    return malformed();
  if (argc != 3) {
    fprintf(stderr, "usage: %s dialects|compile-ptx|compile-all|family FILE\n"
                    "       %s malformed\n", argv[0], argv[0]);
    return 2;
  }
  char *text = readFile(argv[2]);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  int rc = 2;
  if (strcmp(argv[1], "dialects") == 0)
    rc = dialects(argv[2], text);
  else if (strcmp(argv[1], "compile-ptx") == 0)
    rc = compileText(argv[2], text, WSGEMM_EMIT_PTX);
  else if (strcmp(argv[1], "compile-all") == 0)
    rc = compileText(argv[2], text, WSGEMM_EMIT_ALL);
  else if (strcmp(argv[1], "family") == 0)
    rc = family(argv[2], text);
  free(text);
  return rc;
}
