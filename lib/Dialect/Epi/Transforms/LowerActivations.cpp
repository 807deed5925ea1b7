//===- LowerActivations.cpp - Lower named activations to arith/math -------===//
//
// PLACEHOLDER (skeleton): implemented by the epi work item.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiPasses.h"

namespace mlir::epi {
#define GEN_PASS_DEF_EPILOWERACTIVATIONS
#include "ws-gemm/Dialect/Epi/EpiPasses.h.inc"
} // namespace mlir::epi

using namespace mlir;
using namespace mlir::epi;

void mlir::epi::populateLowerActivationsPatterns(RewritePatternSet &patterns) {}

namespace {
struct EpiLowerActivationsPass
    : public epi::impl::EpiLowerActivationsBase<EpiLowerActivationsPass> {
  void runOnOperation() override {}
};
} // namespace
