//===- MLIRCAPI.cpp - MLIR's C API as a shared library --------------------===//
//
// libWsGemmMLIRCAPI.so carries MLIR's own C API (mlirContextCreate,
// mlirModuleCreateParse, mlirPassManager*, mlirRegisterAllDialects, ...)
// from Debian's static archives, linked whole (lib/CAPI/CMakeLists.txt says
// why apart from libWsGemmCAPI.so). This file only anchors the library.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"

/// The MLIR version the C API was taken from.
extern "C" MLIR_CAPI_EXPORTED const char *wsgemmMlirCapiVersion(void) {
  return "22";
}
