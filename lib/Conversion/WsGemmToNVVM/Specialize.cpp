//===- Specialize.cpp - wsgemm.gemm to warp-specialized kernels -----------===//
//
// --wsgemm-specialize: each planned wsgemm.gemm becomes a gpu.module
// targeting sm_90a holding its kernel, which the kernel schedule composes
// from the collectives (lib/Conversion/Collectives) at the explicit level
// (warp roles, pipelines, epi.visit). The plan is read back with
// getPlannedGemm; this pass decides nothing of its own.
//
//===----------------------------------------------------------------------===//

#include "../Collectives/KernelSchedule.h"

#include "ws-gemm/Conversion/Passes.h"
#include "ws-gemm/Dialect/Epi/EpiOps.h"
#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
#define GEN_PASS_DEF_WSGEMMSPECIALIZE
#include "ws-gemm/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::wsgemm;

namespace {
struct WsGemmSpecializePass
    : public impl::WsGemmSpecializeBase<WsGemmSpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<GemmOp> gemms(module.getOps<GemmOp>());
    if (gemms.empty())
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder builder(ctx);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    auto target = NVVM::NVVMTargetAttr::get(
        ctx, optLevel, "nvptx64-nvidia-cuda", chip, features);
    for (GemmOp gemm : gemms) {
      FailureOr<PlannedGemm> plan = getPlannedGemm(gemm);
      if (failed(plan))
        return signalPassFailure();
      // One gpu.module (one cubin) per kernel, named after it.
      builder.setInsertionPoint(gemm);
      auto gpuModule = gpu::GPUModuleOp::create(
          builder, gemm.getLoc(), (gemm.getSymName() + "_module").str(),
          builder.getArrayAttr({target}));
      builder.setInsertionPointToStart(gpuModule.getBody());
      LLVM::GlobalOp::create(builder, gemm.getLoc(),
                             LLVM::LLVMArrayType::get(builder.getI8Type(), 0),
                             /*isConstant=*/false, LLVM::Linkage::External,
                             collectives::kSmemGlobalName, Attribute(),
                             /*alignment=*/1024, /*addrSpace=*/3);
      LLVM::LLVMFuncOp func = collectives::buildKernel(builder, gemm, *plan);
      if (Attribute manifest = gemm->getAttr(GemmOp::getManifestAttrName()))
        func->setAttr(GemmOp::getManifestAttrName(), manifest);
      gemm.erase();
    }
  }
};
} // namespace
