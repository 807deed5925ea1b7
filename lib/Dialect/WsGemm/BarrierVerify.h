//===- BarrierVerify.h - Rules of ops that create mbarriers -----*- C++ -*-===//
//
// What the verifiers of wsgemm.pipeline_create and
// wsgemm.order_barrier_create share. Internal to the WsGemm dialect.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_DIALECT_WSGEMM_BARRIERVERIFY_H
#define WSGEMM_LIB_DIALECT_WSGEMM_BARRIERVERIFY_H

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

namespace mlir::wsgemm::detail {

/// mbarrier arrival counts and transaction counts are 20-bit quantities.
constexpr int64_t kMaxMbarrierCount = (int64_t(1) << 20) - 1;

/// `count`, the expected arrival count attribute `name` of `op`, fits an
/// mbarrier.
inline LogicalResult verifyArrivalCount(Operation *op, StringRef name,
                                        int64_t count) {
  if (count < 1 || count > kMaxMbarrierCount)
    return op->emitOpError()
           << name << " must be in [1, " << kMaxMbarrierCount
           << "] because it is an mbarrier's expected arrival count, got "
           << count;
  return success();
}

/// `op` initializes barriers before the roles split: it is not inside a
/// wsgemm.warp_specialize. `also` completes the reason.
inline LogicalResult verifyBeforeRoles(Operation *op, StringRef also = "") {
  if (op->getParentOfType<WarpSpecializeOp>())
    return op->emitOpError()
           << "must not be nested in 'wsgemm.warp_specialize' because the "
              "barriers are initialized before the roles split"
           << also;
  return success();
}

} // namespace mlir::wsgemm::detail

#endif // WSGEMM_LIB_DIALECT_WSGEMM_BARRIERVERIFY_H
