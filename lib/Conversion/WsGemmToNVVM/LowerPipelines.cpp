//===- LowerPipelines.cpp - Warp roles and pipelines to nvgpu/NVVM --------===//
//
// --wsgemm-lower-pipelines: the explicit level of the wsgemm dialect becomes
// nvgpu and NVVM ops plus scf/arith, in two steps (WsGemmToNVVM.h):
//  1. wsgemm.warp_specialize -> a warp dispatch (WarpSpecializeToNVVM.cpp);
//  2. a dialect conversion with a 1:N type conversion lowers the pipelines,
//     their states and ops (PipelinesToNVGPU.cpp); scf ops that carry
//     states are converted structurally.
// This file is the pass: the checks that need the whole function, and the
// driver of both steps.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/Passes.h"
#include "ws-gemm/Conversion/WsGemmToNVVM.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
#define GEN_PASS_DEF_WSGEMMLOWERPIPELINES
#include "ws-gemm/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::wsgemm;

namespace {

struct WsGemmLowerPipelinesPass
    : public impl::WsGemmLowerPipelinesBase<WsGemmLowerPipelinesPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();

    // What each user of a pipeline needs from its creator, read while the
    // roles still capture the pipelines (PipelineCreateOp::lookup sees
    // through their arguments).
    PipelineInfoMap infos;
    if (failed(collectPipelineInfo(root, infos)))
      return signalPassFailure();
    // States and pipelines live within one function: its arguments cannot
    // be split into the lowered values.
    WalkResult checked =
        root->walk([&](FunctionOpInterface fn) -> WalkResult {
          if (fn.isExternal())
            return WalkResult::advance();
          for (BlockArgument arg : fn.getArguments()) {
            if (isa<PipelineType, PipelineStateType>(arg.getType()) &&
                !arg.use_empty()) {
              fn.emitOpError()
                  << "argument #" << arg.getArgNumber() << " of type "
                  << arg.getType()
                  << " is used, but pipelines and pipeline states are lowered "
                     "within one function; create them in it";
              return WalkResult::interrupt();
            }
          }
          return WalkResult::advance();
        });
    if (checked.wasInterrupted())
      return signalPassFailure();

    SmallVector<WarpSpecializeOp> wsOps;
    root->walk([&](WarpSpecializeOp ws) { wsOps.push_back(ws); });
    for (WarpSpecializeOp ws : wsOps)
      lowerWarpSpecialize(ws);

    TypeConverter converter;
    converter.addConversion([](Type t) { return t; });
    populateWsGemmPipelineTypeConversions(converter);

    ConversionTarget target(*ctx);
    target.addIllegalOp<WarpSpecializeOp, RoleEndOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    RewritePatternSet patterns(ctx);
    // Memref descriptors of shared-memory buffers, with gpu address spaces
    // numbered as NVVM does.
    LLVMTypeConverter llvmConverter(ctx);
    populateGpuMemorySpaceAttributeConversions(
        llvmConverter, [](gpu::AddressSpace space) -> unsigned {
          switch (space) {
          case gpu::AddressSpace::Global:
            return static_cast<unsigned>(NVVM::NVVMMemorySpace::Global);
          case gpu::AddressSpace::Workgroup:
            return static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
          case gpu::AddressSpace::Private:
            return 0;
          }
          llvm_unreachable("unknown gpu address space");
        });
    populateWsGemmPipelinesToNVGPUConversionPatterns(converter, llvmConverter,
                                                     infos, patterns, target);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
