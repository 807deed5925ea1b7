//===- ExpandPresets.cpp - Expand epi.fusion presets ----------------------===//
//
// PLACEHOLDER (skeleton): implemented by the presets work item.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiPasses.h"

namespace mlir::epi {
#define GEN_PASS_DEF_EPIEXPANDPRESETS
#include "ws-gemm/Dialect/Epi/EpiPasses.h.inc"
} // namespace mlir::epi

using namespace mlir;
using namespace mlir::epi;

LogicalResult mlir::epi::expandPreset(FusionOp op) {
  return op.emitOpError() << "preset expansion is not implemented yet";
}

namespace {
struct EpiExpandPresetsPass
    : public epi::impl::EpiExpandPresetsBase<EpiExpandPresetsPass> {
  void runOnOperation() override {
    SmallVector<FusionOp> presets;
    getOperation()->walk([&](FusionOp op) { presets.push_back(op); });
    for (FusionOp op : presets)
      if (failed(expandPreset(op)))
        return signalPassFailure();
  }
};
} // namespace
