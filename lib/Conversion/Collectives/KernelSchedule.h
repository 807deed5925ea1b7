//===- KernelSchedule.h - Compose the collectives into a kernel -*- C++ -*-===//
//
// The kernel schedule (CUTLASS's KernelTmaWarpSpecialized and
// KernelTmaWarpSpecializedCooperative): which warp roles a kernel has, how
// many consumer warpgroups share one output tile, their register budgets,
// and the pipelines between the roles. It composes the tile scheduler, the
// mainloop and the epilogue collectives and is the only place that decides
// the warpgroup count per tile (the planner's layout records it).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_KERNELSCHEDULE_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_KERNELSCHEDULE_H

#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::wsgemm::collectives {

/// The name of the dynamic shared memory global every kernel carves.
constexpr StringLiteral kSmemGlobalName = "wsgemm_smem";

/// Emits the kernel of the planned `op` as an llvm.func named after it at
/// the builder's insertion point (a gpu.module body that holds the
/// kSmemGlobalName global), at the explicit level of the wsgemm dialect:
/// its parameters in plan.layout.params order, the shared-memory carve,
/// the pipelines, and a wsgemm.warp_specialize with one region per role.
LLVM::LLVMFuncOp buildKernel(OpBuilder &builder, GemmOp op,
                             const PlannedGemm &plan);

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_KERNELSCHEDULE_H
