//===- MBarriers.h - Helpers of the mbarrier lowerings ----------*- C++ -*-===//
//
// What the lowerings of pipelines (PipelinesToNVGPU.cpp) and order barriers
// (OrderBarriersToNVGPU.cpp) share: constants, mbarrier groups in shared
// memory and the try_wait.parity loop. Internal to WsGemmToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_WSGEMMTONVVM_MBARRIERS_H
#define WSGEMM_LIB_CONVERSION_WSGEMMTONVVM_MBARRIERS_H

#include "ws-gemm/Conversion/WsGemmToNVVM.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::wsgemm::detail {

inline Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}
inline Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
inline Value toIndex(OpBuilder &b, Location loc, Value i32) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), i32);
}

/// A group of `count` mbarriers in the CTA's shared memory.
inline nvgpu::MBarrierGroupType barrierGroupType(MLIRContext *ctx,
                                                 int64_t count) {
  return nvgpu::MBarrierGroupType::get(
      ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
      count);
}

/// Shared memory at `ptr` (an !llvm.ptr<3>) seen as a value of the statically
/// shaped memref `type`: the LLVM memref descriptor of that buffer, cast to
/// the memref type. nvgpu's and the memref lowering's type conversions turn
/// the cast back into the descriptor, and reconcile-unrealized-casts removes
/// the pair.
inline Value sharedBufferAs(OpBuilder &b, Location loc,
                            const LLVMTypeConverter &llvmConverter,
                            MemRefType type, Value ptr) {
  Value desc =
      MemRefDescriptor::fromStaticShape(b, loc, llvmConverter, type, ptr, ptr);
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}

/// The mbarrier group of `count` barriers for a create op: placed at
/// `placed` (an !llvm.ptr<3>) when the kernel planned their memory, else a
/// static shared-memory allocation.
inline Value createBarrierGroup(OpBuilder &b, Location loc,
                                const LLVMTypeConverter &llvmConverter,
                                int64_t count, Value placed) {
  auto groupTy = barrierGroupType(b.getContext(), count);
  if (!placed)
    return nvgpu::MBarrierCreateOp::create(b, loc, groupTy);
  auto slotsTy =
      MemRefType::get({count}, b.getI64Type(), MemRefLayoutAttrInterface(),
                      groupTy.getMemorySpace());
  Value slots = sharedBufferAs(b, loc, llvmConverter, slotsTy, placed);
  return UnrealizedConversionCastOp::create(b, loc, groupTy, slots)
      .getResult(0);
}

/// Whether `op` is in a gpu.module whose NVVM target is sm_80, sm_86 or
/// sm_89 (a kernel planned for such a chip).
inline bool targetsSm8x(Operation *op) {
  auto module = op->getParentOfType<gpu::GPUModuleOp>();
  if (!module || !module.getTargets())
    return false;
  for (Attribute target : *module.getTargets())
    if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
      return nvvm.getChip().starts_with("sm_8");
  return false;
}

/// One thread (tid.x 0) initializes barrier `slot` of `group` for `count`
/// arrivals, for each (slot, count) in order, then fences the
/// initializations (fence.mbarrier_init.release.cluster); the
/// warp_specialize lowering synchronizes the CTA before any role uses them.
inline void initBarriersOnce(OpBuilder &b, Location loc, Value group,
                             ArrayRef<std::pair<int64_t, int64_t>> slotCounts) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                      constI32(b, loc, 0));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
  for (auto [slot, count] : slotCounts)
    nvgpu::MBarrierInitOp::create(b, loc, group, constIndex(b, loc, count),
                                  constIndex(b, loc, slot), Value());
  // fence.mbarrier_init is sm_90's; below it the CTA barrier after the
  // inits orders them.
  if (!targetsSm8x(ifFirst))
    NVVM::FenceMbarrierInitOp::create(b, loc);
}

/// try_wait.parity in a loop until phase `parity` (an i32 0 or 1) of the
/// barrier at `slot` of `group` completed; each try suspends the thread for
/// up to 10^7 ns (the hint CUTLASS uses). sm_80 has no try_wait: with
/// `sm8x` the loop spins on mbarrier.test_wait.parity (in inline PTX, whose
/// predicate stays in the asm block; its labels are local to the braces),
/// with `backoffNs` > 0 a nanosleep of that many ns before each retry.
inline void waitParity(OpBuilder &b, Location loc, Value group, Value slot,
                       Value parity, bool sm8x = false,
                       int64_t backoffNs = 0) {
  if (sm8x) {
    Value addr =
        nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), group, slot);
    std::string test = "mbarrier.test_wait.parity.shared.b64 p, [$0], $1;";
    std::string text =
        backoffNs > 0
            ? "{\n\t.reg .pred p;\n\t" + test +
                  "\n\t@p bra WSGEMM_DONE;\n\tWSGEMM_WAIT:\n\t"
                  "nanosleep.u32 " + std::to_string(backoffNs) + ";\n\t" +
                  test + "\n\t@!p bra WSGEMM_WAIT;\n\tWSGEMM_DONE:\n\t}"
            : "{\n\t.reg .pred p;\n\tWSGEMM_WAIT:\n\t" + test +
                  "\n\t@!p bra WSGEMM_WAIT;\n\t}";
    LLVM::InlineAsmOp::create(
        b, loc, TypeRange{}, ValueRange{addr, parity}, text,
        "r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
        /*operand_attrs=*/ArrayAttr());
    return;
  }
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, group, arith::TruncIOp::create(b, loc, b.getI1Type(), parity),
      constIndex(b, loc, 10000000), slot);
}

/// Adds the patterns lowering order barriers (OrderBarriersToNVGPU.cpp).
void populateOrderBarrierPatterns(const TypeConverter &converter,
                                  const LLVMTypeConverter &llvmConverter,
                                  RewritePatternSet &patterns,
                                  ConversionTarget &target);

} // namespace mlir::wsgemm::detail

#endif // WSGEMM_LIB_CONVERSION_WSGEMMTONVVM_MBARRIERS_H
