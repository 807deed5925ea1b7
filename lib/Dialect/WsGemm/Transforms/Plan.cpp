//===- Plan.cpp - Fill GEMM config defaults and check legality ------------===//
//
// --wsgemm-plan: a thin pass over the planning library (Planning.h). For each
// wsgemm.gemm it reads what the epilogue needs into a GemmDesc, fills the
// unset config knobs, checks legality, and writes back the complete config
// and the kernel's dynamic SMEM (`wsgemm.smem_bytes`) from its KernelLayout.
// The translation between the op and the IR-free description is
// GemmDesc.h's.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"
#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"

namespace mlir::wsgemm {
#define GEN_PASS_DEF_WSGEMMPLAN
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h.inc"
} // namespace mlir::wsgemm

using namespace mlir;
using namespace mlir::wsgemm;
namespace pl = mlir::wsgemm::planning;

//===----------------------------------------------------------------------===//
// The transform
//===----------------------------------------------------------------------===//

/// Completes and checks the config of `op`; on success writes back the
/// config and `wsgemm.smem_bytes`, on failure leaves the op unchanged.
static LogicalResult planGemm(GemmOp op, int64_t smemCapacity,
                              pl::Chip chip) {
  FailureOr<pl::GemmDesc> desc = describeGemm(op);
  if (failed(desc))
    return failure();
  // Below sm_90 the chip's own shared memory per block is the budget.
  desc->chip = chip;
  if (pl::isSm8x(chip))
    smemCapacity = std::min(smemCapacity, pl::getSmemCapacity(chip));
  pl::GemmConfig written = desc->config;
  pl::fillChipDefaults(*desc);
  pl::fillDefaults(*desc, smemCapacity);
  pl::finishChipDefaults(*desc, written, smemCapacity);

  std::vector<pl::PlanError> errors = pl::checkChipLegality(*desc);
  if (errors.empty())
    errors = pl::checkLegality(*desc, smemCapacity);
  for (const pl::PlanError &error : errors) {
    InFlightDiagnostic diag = op.emitError() << error.message;
    for (const std::string &note : error.notes)
      diag.attachNote() << note;
  }
  if (!errors.empty())
    return failure();

  op.setConfigAttr(fromPlanningConfig(op.getContext(), desc->config));
  setGemmChip(op, chip);
  op.setPlannedSmemBytes(pl::computeKernelLayout(*desc).smemBytes);
  return success();
}

namespace {
struct WsGemmPlanPass : public wsgemm::impl::WsGemmPlanBase<WsGemmPlanPass> {
  using WsGemmPlanBase::WsGemmPlanBase;

  void runOnOperation() override {
    if (smemCapacity <= 0) {
      getOperation()->emitError()
          << "--wsgemm-plan smem-capacity must be positive, got "
          << smemCapacity;
      return signalPassFailure();
    }
    std::optional<pl::Chip> target = pl::parseChip(chip);
    if (!target) {
      getOperation()->emitError()
          << "--wsgemm-plan chip must be sm_80, sm_86, sm_89 or sm_90a, got '"
          << chip << "'";
      return signalPassFailure();
    }
    bool failedAny = false;
    getOperation()->walk([&](GemmOp op) {
      failedAny |= failed(planGemm(op, smemCapacity, *target));
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
