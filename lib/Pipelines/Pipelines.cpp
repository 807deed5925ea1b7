//===- Pipelines.cpp - ws-gemm pass pipelines -----------------------------===//
//
// Builders and registration of the named pipelines, plus the InitAll entry
// points that tools and embedders call.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Pipelines/Pipelines.h"
#include "ws-gemm/Dialect/Epi/EpiPasses.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"
#include "ws-gemm/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void wsgemm::buildPreparePipeline(OpPassManager &pm,
                                  const PipelineOptions &options) {
  pm.addPass(epi::createEpiExpandPresets());
  pm.addPass(epi::createEpiLowerActivations());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(wsgemm::createWsGemmPlan());
}

void wsgemm::registerPipelines() {
  PassPipelineRegistration<PipelineOptions>(
      "wsgemm-prepare",
      "Expand epilogue presets, lower activations, and plan GEMM configs",
      buildPreparePipeline);
}

void wsgemm::registerAllDialects(DialectRegistry &registry) {
  registry.insert<epi::EpiDialect, wsgemm::WsGemmDialect>();
}

void wsgemm::registerAllPasses() {
  epi::registerEpiPasses();
  wsgemm::registerWsGemmPasses();
  registerPipelines();
}
