//===- Plan.cpp - Fill GEMM config defaults and check legality ------------===//
//
// SKELETON: the gemm work item implements --wsgemm-plan.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"

namespace mlir::wsgemm {
#define GEN_PASS_DEF_WSGEMMPLAN
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h.inc"
} // namespace mlir::wsgemm

using namespace mlir;
using namespace mlir::wsgemm;

namespace {
struct WsGemmPlanPass : public wsgemm::impl::WsGemmPlanBase<WsGemmPlanPass> {
  void runOnOperation() override {}
};
} // namespace
