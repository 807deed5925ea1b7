/*===- consumer.c - ws-gemm from C ----------------------------------------===*\
|*                                                                            *|
|* consumer-c FILE.mlir: compiles FILE's wsgemm.gemm kernels through          *|
|* libWsGemmCAPI.so (installed package, target wsgemm::capi) to PTX and       *|
|* manifests in memory, and shows what a malformed input returns.             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "ws-gemm-c/Compile.h"
#include "ws-gemm-c/Dialects.h"

#include <stdio.h>
#include <stdlib.h>

static int compile(const char *name, const char *text) {
  WsGemmCompileOptions options = wsgemmCompileOptionsGetDefault();
  options.emit = WSGEMM_EMIT_PTX; /* no ptxas needed */
  WsGemmCompileResult result =
      wsgemmCompile(mlirStringRefCreateFromCString(text),
                    mlirStringRefCreateFromCString(name), &options);
  for (intptr_t i = 0; i < wsgemmCompileResultGetNumKernels(result); ++i) {
    MlirStringRef kernel = wsgemmCompileResultGetKernelName(result, i);
    printf("kernel %.*s: %zu bytes of PTX\n", (int)kernel.length, kernel.data,
           wsgemmCompileResultGetKernelPTX(result, i).length);
  }
  fputs(wsgemmCompileResultGetDiagnosticsText(result).data, stdout);
  int ok = wsgemmCompileResultSucceeded(result);
  wsgemmCompileResultDestroy(result);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: consumer-c FILE.mlir\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f)
    return 2;
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  text[n] = '\0';
  MlirStringRef dialect =
      mlirDialectHandleGetNamespace(mlirGetDialectHandle__wsgemm__());
  printf("dialect %.*s\n", (int)dialect.length, dialect.data);
  if (!compile(argv[1], text))
    return 1;
  /* A malformed kernel fails with a located diagnostic. */
  return compile("bad.mlir", "wsgemm.gemm @x a(f16) {") ? 1 : 0;
}
