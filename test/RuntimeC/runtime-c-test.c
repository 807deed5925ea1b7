/*===- runtime-c-test.c - The runtime's C API, from C ---------------------===*\
|*                                                                            *|
|* Built as C (ws-gemm-runtime-c-test) against libWsGemmRuntimeC.so only.     *|
|* Modes (the lit tests beside this file run them):                           *|
|*   query MANIFEST            load (manifest + cubin) and print every query *|
|*   memory MANIFEST [CUBIN]   load from memory (no CUBIN: validate only)    *|
|*   validate MANIFEST ARG...  build args, validate, then launch: prints     *|
|*   launch   MANIFEST ARG...  each step's status and message               *|
|*   family FAMILY TABLE|- SMS ARG...  load a family, select, launch        *|
|*   bad-calls                 null handles, bad indices and dtypes         *|
|* ARG: M=, N=, K=, L= (sizes), NAME=PTR[:DTYPE[:LD[:BATCHSTRIDE]]] (a      *|
|* tensor; PTR in hex or decimal; DTYPE '-' for none), NAME:=VALUE (a       *|
|* scalar).                                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "ws-gemm-runtime-c/Runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *statusName(WsGemmRtStatus s) {
  switch (s) {
  case WSGEMMRT_OK:
    return "OK";
  case WSGEMMRT_ERROR_INVALID_CALL:
    return "INVALID_CALL";
  case WSGEMMRT_ERROR_MANIFEST:
    return "MANIFEST";
  case WSGEMMRT_ERROR_REFUSED:
    return "REFUSED";
  case WSGEMMRT_ERROR_NO_DRIVER:
    return "NO_DRIVER";
  case WSGEMMRT_ERROR_CUDA:
    return "CUDA";
  }
  return "?";
}

/* Prints "what: STATUS[: message]" and returns s. */
static WsGemmRtStatus report(const char *what, WsGemmRtStatus s) {
  if (s == WSGEMMRT_OK)
    printf("%s: OK\n", what);
  else
    printf("%s: %s: %s\n", what, statusName(s), wsgemmRtGetLastError());
  return s;
}

static void printKernel(WsGemmRtKernel k) {
  int64_t tile[3], block[3], shape[4];
  int64_t smem = wsgemmRtKernelGetConfig(k, tile, block);
  printf("kernel %s arch %s batched %d cubin %d\n", wsgemmRtKernelGetName(k),
         wsgemmRtKernelGetArch(k), wsgemmRtKernelIsBatched(k),
         wsgemmRtKernelHasCubin(k));
  printf("tile %lldx%lldx%lld block %lld smem %lld\n", (long long)tile[0],
         (long long)tile[1], (long long)tile[2], (long long)block[0],
         (long long)smem);
  if (wsgemmRtKernelGetStaticShape(k, shape))
    printf("static shape %lldx%lldx%lldx%lld\n", (long long)shape[0],
           (long long)shape[1], (long long)shape[2], (long long)shape[3]);
  const char *names[] = {"A", "B", "C", "D"};
  for (int i = 0; i < 4; ++i) {
    const char *dtype = NULL, *layout = NULL;
    if (wsgemmRtKernelGetOperand(k, names[i], &dtype, &layout))
      printf("operand %s %s %s\n", names[i], dtype, layout);
    else
      printf("operand %s none\n", names[i]);
  }
  printf("source gate '%s'\n", wsgemmRtKernelGetSourceGate(k));
  intptr_t n = wsgemmRtKernelGetNumParams(k);
  for (intptr_t i = 0; i < n; ++i) {
    const char *name, *kind, *dtype, *operand, *dims, *reduce;
    wsgemmRtKernelGetParam(k, i, &name, &kind, &dtype, &operand, &dims,
                           &reduce);
    printf("param %d %s %s %s operand '%s' dims '%s' reduce '%s'\n", (int)i,
           name, kind, dtype, operand, dims, reduce);
  }
  printf("manifest %s\n",
         strstr(wsgemmRtKernelGetManifestJson(k), "\"format\"") ? "json"
                                                                : "missing");
  fputs(wsgemmRtKernelDescribe(k), stdout);
}

/* Fills args from ARG strings; 1 on a malformed one. */
static int parseArgs(WsGemmRtArgs a, int argc, char **argv) {
  int64_t size[4] = {0, 0, 0, 1};
  const char *dims = "MNKL";
  for (int i = 0; i < argc; ++i) {
    char *arg = argv[i];
    if (arg[0] && strchr(dims, arg[0]) && arg[1] == '=') {
      size[strchr(dims, arg[0]) - dims] = strtoll(arg + 2, NULL, 0);
      continue;
    }
    char *scalar = strstr(arg, ":=");
    if (scalar) {
      *scalar = '\0';
      report(arg, wsgemmRtArgsSetScalar(a, arg, strtof(scalar + 2, NULL)));
      continue;
    }
    char *eq = strchr(arg, '=');
    if (!eq) {
      fprintf(stderr, "bad argument '%s'\n", arg);
      return 1;
    }
    *eq = '\0';
    char *fields[4] = {eq + 1, NULL, NULL, NULL};
    for (int f = 1; f < 4; ++f) {
      char *colon = fields[f - 1] ? strchr(fields[f - 1], ':') : NULL;
      if (!colon)
        break;
      *colon = '\0';
      fields[f] = colon + 1;
    }
    const char *dtype = fields[1] && strcmp(fields[1], "-") ? fields[1] : NULL;
    WsGemmRtStatus s = wsgemmRtArgsSetTensor(
        a, arg, strtoull(fields[0], NULL, 0), dtype,
        fields[2] ? strtoll(fields[2], NULL, 0) : 0,
        fields[3] ? strtoll(fields[3], NULL, 0) : 0);
    if (s != WSGEMMRT_OK)
      report(arg, s);
  }
  wsgemmRtArgsSetProblem(a, size[0], size[1], size[2], size[3]);
  return 0;
}

static char *readAll(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc((size_t)n + 1);
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  if (data)
    data[n] = '\0';
  *size = (size_t)n;
  return data;
}

static int runKernel(WsGemmRtKernel k, int launch, int argc, char **argv) {
  WsGemmRtArgs a = wsgemmRtArgsCreate();
  int rc = parseArgs(a, argc, argv);
  if (rc == 0) {
    int ok = report("validate", wsgemmRtKernelValidate(k, a)) == WSGEMMRT_OK;
    if (launch)
      ok = report("launch", wsgemmRtKernelLaunch(k, a, NULL)) == WSGEMMRT_OK;
    rc = ok ? 0 : 1;
  }
  wsgemmRtArgsDestroy(a);
  return rc;
}

static int badCalls(void) {
  WsGemmRtKernel k = NULL;
  report("load null", wsgemmRtKernelLoad(NULL, &k));
  report("load missing", wsgemmRtKernelLoad("/nonexistent/k.json", &k));
  printf("kernel after failed load: %s\n", k ? "set" : "null");
  report("memory bad json", wsgemmRtKernelLoadFromMemory("{", 1, NULL, 0,
                                                         "bad.json", &k));
  report("memory null cubin",
         wsgemmRtKernelLoadFromMemory("{}", 2, NULL, 4, "x.json", &k));
  report("validate null", wsgemmRtKernelValidate(NULL, NULL));
  report("launch null", wsgemmRtKernelLaunch(NULL, NULL, NULL));
  report("param null kernel",
         wsgemmRtKernelGetParam(NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL));
  printf("getters on null: '%s' '%s' %d %d\n", wsgemmRtKernelGetName(NULL),
         wsgemmRtKernelDescribe(NULL), (int)wsgemmRtKernelGetNumParams(NULL),
         wsgemmRtKernelGetOperand(NULL, "A", NULL, NULL));
  WsGemmRtArgs a = wsgemmRtArgsCreate();
  report("dtype", wsgemmRtArgsSetTensor(a, "A", 256, "f64", 0, 0));
  report("empty name", wsgemmRtArgsSetTensor(a, "", 256, NULL, 0, 0));
  report("scalar null", wsgemmRtArgsSetScalar(a, NULL, 1.0f));
  report("problem null", wsgemmRtArgsSetProblem(NULL, 1, 1, 1, 1));
  wsgemmRtArgsReset(a);
  wsgemmRtArgsDestroy(a);
  WsGemmRtFamily f = NULL;
  report("family missing", wsgemmRtFamilyLoad("/nonexistent/f.json", NULL, 132,
                                              &f));
  report("family select null",
         wsgemmRtFamilySelect(NULL, 1, 1, 1, 1, NULL, NULL, NULL));
  printf("family getters on null: '%s' %d '%s' %s\n", wsgemmRtFamilyGetName(NULL),
         (int)wsgemmRtFamilyGetNumVariants(NULL),
         wsgemmRtFamilyGetVariantId(NULL, 0),
         wsgemmRtFamilyGetVariantKernel(NULL, 0) ? "kernel" : "null");
  printf("version %s\n", wsgemmRtGetVersion());
  return 0;
}

static int family(int argc, char **argv) {
  WsGemmRtFamily f = NULL;
  const char *table = strcmp(argv[1], "-") ? argv[1] : NULL;
  if (report("family load",
             wsgemmRtFamilyLoad(argv[0], table, atoi(argv[2]), &f)) !=
      WSGEMMRT_OK)
    return 1;
  intptr_t n = wsgemmRtFamilyGetNumVariants(f);
  printf("family %s: %d variants\n", wsgemmRtFamilyGetName(f), (int)n);
  for (intptr_t i = 0; i < n; ++i) {
    int64_t tile[3];
    wsgemmRtKernelGetConfig(wsgemmRtFamilyGetVariantKernel(f, i), tile, NULL);
    printf("variant %d %s tile %lldx%lld\n", (int)i,
           wsgemmRtFamilyGetVariantId(f, i), (long long)tile[0],
           (long long)tile[1]);
  }
  /* The problem's shape (read before parseArgs splits the strings). */
  int64_t size[4] = {0, 0, 0, 1};
  for (int i = 3; i < argc; ++i)
    if (argv[i][0] && strchr("MNKL", argv[i][0]) && argv[i][1] == '=')
      size[strchr("MNKL", argv[i][0]) - "MNKL"] = strtoll(argv[i] + 2, NULL, 0);
  WsGemmRtArgs a = wsgemmRtArgsCreate();
  int rc = parseArgs(a, argc - 3, argv + 3);
  if (rc == 0) {
    intptr_t variant = -1;
    int tuned = 0;
    const char *reason = "";
    if (report("select", wsgemmRtFamilySelect(f, size[0], size[1], size[2],
                                              size[3], &variant, &tuned,
                                              &reason)) == WSGEMMRT_OK)
      printf("selected %d tuned %d: %s\n", (int)variant, tuned, reason);
    variant = -1;
    if (report("launch", wsgemmRtFamilyLaunch(f, a, NULL, &variant)) !=
        WSGEMMRT_OK)
      rc = 1;
    printf("launch variant %d\n", (int)variant);
  }
  wsgemmRtArgsDestroy(a);
  wsgemmRtFamilyDestroy(f);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s query|memory|validate|launch|family|bad-calls "
                    "...\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  if (!strcmp(mode, "bad-calls"))
    return badCalls();
  if (argc < 3)
    return 2;
  if (!strcmp(mode, "family"))
    return argc < 5 ? 2 : family(argc - 2, argv + 2);
  WsGemmRtKernel k = NULL;
  int rc = 0;
  if (!strcmp(mode, "memory")) {
    size_t jsonSize = 0, cubinSize = 0;
    char *json = readAll(argv[2], &jsonSize);
    char *cubin = argc > 3 ? readAll(argv[3], &cubinSize) : NULL;
    if (!json)
      return 2;
    WsGemmRtStatus s = wsgemmRtKernelLoadFromMemory(json, jsonSize, cubin,
                                                    cubinSize, argv[2], &k);
    free(json);
    free(cubin);
    if (report("load", s) != WSGEMMRT_OK)
      return 1;
    printKernel(k);
    rc = runKernel(k, 1, argc - 4 > 0 ? argc - 4 : 0, argv + 4);
  } else {
    if (report("load", wsgemmRtKernelLoad(argv[2], &k)) != WSGEMMRT_OK)
      return 1;
    if (!strcmp(mode, "query"))
      printKernel(k);
    else
      rc = runKernel(k, !strcmp(mode, "launch"), argc - 3, argv + 3);
  }
  wsgemmRtKernelDestroy(k);
  return rc;
}
