//===- Passes.cpp - C API: passes and pipelines ---------------------------===//
//
// The per-pass functions are generated from the Passes.td files
// (-gen-pass-capi-impl); the generated code names the C++ create/register
// functions unqualified, hence the using directives.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-c/Passes.h"
#include "ws-gemm/Conversion/Passes.h"
#include "ws-gemm/Dialect/Epi/EpiPasses.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"
#include "ws-gemm/InitAllPasses.h"
#include "ws-gemm/Pipelines/Pipelines.h"

#include "mlir/CAPI/Pass.h"

using namespace mlir;
using namespace mlir::epi;
using namespace mlir::wsgemm;

#include "ws-gemm/Conversion/Passes.capi.cpp.inc"
#include "ws-gemm/Dialect/Epi/EpiPasses.capi.cpp.inc"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.capi.cpp.inc"

void mlirRegisterWsGemmPipelines(void) { wsgemm::registerPipelines(); }

void mlirRegisterAllWsGemmPasses(void) { wsgemm::registerAllPasses(); }
