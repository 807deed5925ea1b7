//===- Pipelines.cpp - ws-gemm pass pipelines -----------------------------===//
//
// Builders and registration of the named pipelines. Dialect and pass
// registration is in lib/RegisterAll*.cpp.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Pipelines/Pipelines.h"
#include "ws-gemm/Conversion/Passes.h"
#include "ws-gemm/Dialect/Epi/EpiPasses.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include <cstdlib>

using namespace mlir;

void wsgemm::buildPreparePipeline(OpPassManager &pm,
                                  const PipelineOptions &options) {
  pm.addPass(epi::createEpiExpandPresets());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  WsGemmPlanOptions plan;
  plan.chip = options.chip;
  pm.addPass(wsgemm::createWsGemmPlan(plan));
}

void wsgemm::buildToNVVMPipeline(OpPassManager &pm,
                                 const PipelineOptions &options) {
  buildPreparePipeline(pm, options);
  WsGemmEmitManifestOptions manifest;
  manifest.chip = options.chip;
  pm.addPass(createWsGemmEmitManifest(manifest));
  // After the manifest: the reference evaluates the EVT as written.
  pm.addPass(epi::createEpiRegroupUniformFactors());
  WsGemmSpecializeOptions specialize;
  specialize.chip = options.chip;
  specialize.features = options.features;
  specialize.optLevel = options.optLevel;
  pm.addPass(createWsGemmSpecialize(specialize));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createEpiVisitFragments());
  kernels.addPass(epi::createEpiLowerActivations());
  kernels.addPass(createWsGemmLowerPipelines());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  kernels.addPass(createSCFToControlFlowPass());
  // Before upstream's math lowering: f32 tanh with afn -> tanh.approx.
  kernels.addPass(createConvertMathApproxToNVVM());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
}

std::string wsgemm::PipelineOptions::defaultCudaPath() {
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    return home;
  return WSGEMM_CUDA_ROOT;
}

void wsgemm::buildToBinaryPipeline(OpPassManager &pm,
                                   const PipelineOptions &options,
                                   StringRef format) {
  buildToNVVMPipeline(pm, options);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  // Without the toolkit path, libdevice is not linked and math functions
  // stay unresolved externs in the PTX.
  binary.toolkitPath = options.cudaPath;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void wsgemm::registerPipelines() {
  // Idempotent: the C API and embedders may register more than once, and a
  // pipeline name registered twice is an error in MLIR's registry.
  static const bool registered = [] {
    PassPipelineRegistration<PipelineOptions>(
        "wsgemm-to-nvvm",
        "Lower wsgemm.gemm kernels to NVVM/LLVM inside a gpu.module",
        buildToNVVMPipeline);
    PassPipelineRegistration<PipelineOptions>(
        "wsgemm-to-ptx", "Lower wsgemm.gemm kernels to PTX (gpu.binary)",
        [](OpPassManager &pm, const PipelineOptions &options) {
          buildToBinaryPipeline(pm, options, "isa");
        });
    PassPipelineRegistration<PipelineOptions>(
        "wsgemm-to-cubin",
        "Lower wsgemm.gemm kernels to cubins (gpu.binary; ptxas from PATH)",
        [](OpPassManager &pm, const PipelineOptions &options) {
          buildToBinaryPipeline(pm, options, "bin");
        });
    PassPipelineRegistration<PipelineOptions>(
        "wsgemm-prepare",
        "Expand epilogue presets, lower activations, and plan GEMM configs",
        buildPreparePipeline);
    return true;
  }();
  (void)registered;
}
