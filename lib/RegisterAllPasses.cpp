//===- RegisterAllPasses.cpp - Register the ws-gemm passes ----------------===//
//
// Every ws-gemm pass (the dialects' transforms, the conversions) and the
// named pipelines, registered with the global pass registry.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/InitAllPasses.h"
#include "ws-gemm/Conversion/LinalgToWsGemm.h"
#include "ws-gemm/Conversion/Passes.h"
#include "ws-gemm/Dialect/Epi/EpiPasses.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"
#include "ws-gemm/Pipelines/Pipelines.h"

using namespace mlir;

void wsgemm::registerAllPasses() {
  epi::registerEpiPasses();
  wsgemm::registerWsGemmPasses();
  registerWsGemmConversionPasses();
  registerWsGemmLinalgPasses(); // the linalg front end
  registerPipelines();
}
