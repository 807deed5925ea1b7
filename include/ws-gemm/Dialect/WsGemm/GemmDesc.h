//===- GemmDesc.h - wsgemm.gemm <-> the planning description -*- C++ -*-===//
//
// The one translation between a wsgemm.gemm op and the IR-free planning
// description (Planning.h, KernelLayout.h): element types, layouts, the
// config, and what the epilogue reads and writes, found by one walk of the
// EVT. --wsgemm-plan uses it to complete and check a config; every later
// pass uses getPlannedGemm to read the plan back, deciding nothing again.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_GEMMDESC_H
#define WSGEMM_DIALECT_WSGEMM_GEMMDESC_H

#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"
#include "ws-gemm/Dialect/WsGemm/Planning.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

namespace mlir::wsgemm {

/// The planner's name for an element type (Other when it has none).
planning::DType toDType(Type type);
/// The MLIR type of a planner element type (null for None and Other).
Type toMlirType(MLIRContext *ctx, planning::DType type);

planning::GemmConfig toPlanningConfig(ConfigAttr attr);
ConfigAttr fromPlanningConfig(MLIRContext *ctx,
                              const planning::GemmConfig &config);

/// Describes `op`: operand types and layouts, the static shape, the config
/// as written, and the epilogue's operands in the order the EVT first names
/// them. Refuses, at the offending epilogue op, what the EVT lowering cannot
/// do (an unexpanded preset, a rounding mode PTX has no conversion for).
FailureOr<planning::GemmDesc> describeGemm(GemmOp op);

/// The discardable attribute in which --wsgemm-plan records a chip other
/// than sm_90a ("sm_80", ...); describeGemm reads it into GemmDesc::chip.
constexpr llvm::StringLiteral kGemmChipAttrName = "wsgemm.chip";
/// Records `chip` on `op` (sm_90a: removes the attribute).
void setGemmChip(GemmOp op, planning::Chip chip);

/// A planned gemm as every pass after --wsgemm-plan sees it.
struct PlannedGemm {
  planning::GemmDesc desc;
  planning::KernelLayout layout;
};

/// Reads back the plan of `op`: fails (with a diagnostic) when the op was not
/// planned, when its config is incomplete or illegal, or when its layout no
/// longer matches the SMEM size --wsgemm-plan recorded.
FailureOr<PlannedGemm> getPlannedGemm(GemmOp op);

} // namespace mlir::wsgemm

#endif // WSGEMM_DIALECT_WSGEMM_GEMMDESC_H
