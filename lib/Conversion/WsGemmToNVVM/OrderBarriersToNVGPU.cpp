//===- OrderBarriersToNVGPU.cpp - Order barriers to mbarriers -------------===//
//
// Part of --wsgemm-lower-pipelines: !wsgemm.order_barrier<G> becomes an
// !nvgpu.mbarrier.group of G barriers (group g's "your turn" at g);
// order_barrier_create initializes them by one thread, order_wait waits on
// the group's barrier for the parity of its turn, order_arrive arrives on
// the next group's barrier.
//
//===----------------------------------------------------------------------===//

#include "MBarriers.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::detail;

namespace {

struct LowerOrderBarrierCreate : OpConversionPattern<OrderBarrierCreateOp> {
  LowerOrderBarrierCreate(const TypeConverter &converter, MLIRContext *ctx,
                          const LLVMTypeConverter &llvmConverter)
      : OpConversionPattern(converter, ctx), llvmConverter(llvmConverter) {}

  LogicalResult
  matchAndRewrite(OrderBarrierCreateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t groups = op.getType().getGroups();
    Value placed = op.getBarriers() ? adaptor.getBarriers().front() : Value();
    Value group =
        createBarrierGroup(rewriter, loc, llvmConverter, groups, placed);
    int64_t arrivals = op.getArrivalsAttr().getInt();
    SmallVector<std::pair<int64_t, int64_t>> slotCounts;
    for (int64_t g = 0; g < groups; ++g)
      slotCounts.push_back({g, arrivals});
    initBarriersOnce(rewriter, loc, group, slotCounts);
    rewriter.replaceOp(op, group);
    return success();
  }
  const LLVMTypeConverter &llvmConverter;
};

struct LowerOrderWait : OpConversionPattern<OrderWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OrderWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value group = adaptor.getGroup().front();
    Value turn = adaptor.getTurn().front();
    // Group 0's turn t follows phase t - 1 of its barrier (parity
    // (t + 1) & 1; the phase before the first counts as complete), group
    // g > 0's follows phase t (parity t & 1).
    Value isFirst =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, group,
                              constI32(rewriter, loc, 0));
    Value parity = arith::AndIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, turn,
                              arith::ExtUIOp::create(rewriter, loc,
                                                     rewriter.getI32Type(),
                                                     isFirst)),
        constI32(rewriter, loc, 1));
    waitParity(rewriter, loc, adaptor.getBarrier().front(),
               toIndex(rewriter, loc, group), parity);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerOrderArrive : OpConversionPattern<OrderArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OrderArriveOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t groups = op.getBarrier().getType().getGroups();
    Value next = arith::RemUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, adaptor.getGroup().front(),
                              constI32(rewriter, loc, 1)),
        constI32(rewriter, loc, groups));
    nvgpu::MBarrierArriveOp::create(
        rewriter, loc, nvgpu::MBarrierTokenType::get(rewriter.getContext()),
        adaptor.getBarrier().front(), toIndex(rewriter, loc, next));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::wsgemm::detail::populateOrderBarrierPatterns(
    const TypeConverter &converter, const LLVMTypeConverter &llvmConverter,
    RewritePatternSet &patterns, ConversionTarget &target) {
  MLIRContext *ctx = patterns.getContext();
  target.addIllegalOp<OrderBarrierCreateOp, OrderWaitOp, OrderArriveOp>();
  patterns.add<LowerOrderBarrierCreate>(converter, ctx, llvmConverter);
  patterns.add<LowerOrderWait, LowerOrderArrive>(converter, ctx);
}
