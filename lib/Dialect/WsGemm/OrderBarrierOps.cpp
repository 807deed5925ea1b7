//===- OrderBarrierOps.cpp - Ordered sequence barriers --------------------===//
//
// Verifiers of !wsgemm.order_barrier and its ops (WsGemmPipelineOps.td):
// the group count, the arrival count an mbarrier can hold, creation before
// the roles split, and waits and arrivals inside a role.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

using namespace mlir;
using namespace mlir::wsgemm;

namespace {
/// mbarrier arrival counts are 20-bit quantities.
constexpr int64_t kMaxMbarrierCount = (int64_t(1) << 20) - 1;
} // namespace

LogicalResult
OrderBarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t groups) {
  if (groups < 2)
    return emitError() << "an order barrier orders at least 2 groups, got "
                       << groups;
  return success();
}

LogicalResult OrderBarrierCreateOp::verify() {
  int64_t arrivals = getArrivalsAttr().getInt();
  if (arrivals < 1 || arrivals > kMaxMbarrierCount)
    return emitOpError() << "arrivals must be in [1, " << kMaxMbarrierCount
                         << "] because it is an mbarrier's expected arrival "
                            "count, got "
                         << arrivals;
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError() << "must not be nested in 'wsgemm.warp_specialize' "
                            "because the barriers are initialized before the "
                            "roles split";
  return success();
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
