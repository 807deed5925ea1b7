//===- OrderBarrierOps.cpp - Ordered sequence barriers --------------------===//
//
// Verifiers of !wsgemm.order_barrier and its ops (WsGemmPipelineOps.td):
// the group count, the arrival count an mbarrier can hold, creation before
// the roles split, and waits and arrivals inside a role.
//
//===----------------------------------------------------------------------===//

#include "BarrierVerify.h"

using namespace mlir;
using namespace mlir::wsgemm;

LogicalResult
OrderBarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t groups) {
  if (groups < 2)
    return emitError() << "an order barrier orders at least 2 groups, got "
                       << groups;
  return success();
}

LogicalResult OrderBarrierCreateOp::verify() {
  if (failed(wsgemm::detail::verifyArrivalCount(*this, "arrivals",
                                                getArrivalsAttr().getInt())))
    return failure();
  return wsgemm::detail::verifyBeforeRoles(*this);
}

/// Waits and arrivals are made by the threads of a role.
static LogicalResult verifyInRole(Operation *op) {
  if (!WarpSpecializeOp::getEnclosingRole(op))
    return op->emitOpError()
           << "must be nested in a role region of 'wsgemm.warp_specialize' "
              "because the groups it orders are threads of a role";
  return success();
}

LogicalResult OrderWaitOp::verify() { return verifyInRole(*this); }
LogicalResult OrderArriveOp::verify() { return verifyInRole(*this); }
