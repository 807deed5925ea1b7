//===- PipelineStateOps.cpp - Folding of the pipeline-state ops -----------===//
//
// The pipeline-state ops of the wsgemm dialect beyond their syntax
// (WsGemmPipelineOps.cpp): verification of advances, folding of a start
// state advanced by constants (through PipelineState.h, CUTLASS's
// PipelineState arithmetic) and the canonicalizations of the accessors.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "ws-gemm/Dialect/WsGemm/PipelineState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::wsgemm;

/// The start state of an init op.
static PipelineState getStartState(PipelineStateInitOp op) {
  int64_t stages = op.getType().getStages();
  return op.getAgent() == PipelineAgent::producer
             ? PipelineState::producerStart(stages)
             : PipelineState::consumerStart(stages);
}

/// The compile-time value of `state` when it is a start state advanced by
/// static amounts; std::nullopt otherwise (or if the count would overflow).
static std::optional<PipelineState> getConstantState(Value state) {
  SmallVector<int64_t> amounts;
  Operation *def = state.getDefiningOp();
  while (auto advance = dyn_cast_or_null<PipelineStateAdvanceOp>(def)) {
    amounts.push_back(advance.getByAttr().getInt());
    def = advance.getState().getDefiningOp();
  }
  auto init = dyn_cast_or_null<PipelineStateInitOp>(def);
  if (!init)
    return std::nullopt;
  PipelineState value = getStartState(init);
  if (!value.isValid())
    return std::nullopt;
  for (int64_t n : llvm::reverse(amounts)) {
    if (n < 0 || value.count > std::numeric_limits<int64_t>::max() - n)
      return std::nullopt;
    value.advance(n);
  }
  return value;
}

LogicalResult PipelineStateAdvanceOp::verify() {
  int64_t by = getByAttr().getInt();
  if (by < 0)
    return emitOpError() << "advance amount must be non-negative because "
                            "pipeline states only move forward, got "
                         << by;
  return success();
}

OpFoldResult PipelineStateAdvanceOp::fold(FoldAdaptor) {
  int64_t by = getByAttr().getInt();
  if (by == 0)
    return getState();
  // advance(advance(s, a), b) -> advance(s, a + b), in place.
  auto inner = getState().getDefiningOp<PipelineStateAdvanceOp>();
  if (!inner)
    return {};
  int64_t innerBy = inner.getByAttr().getInt();
  if (by < 0 || innerBy < 0 ||
      innerBy > std::numeric_limits<int64_t>::max() - by)
    return {};
  getStateMutable().assign(inner.getState());
  setBy(static_cast<uint64_t>(by + innerBy));
  return getResult();
}

OpFoldResult PipelineStateAdvanceByOp::fold(FoldAdaptor adaptor) {
  if (auto amount = dyn_cast_or_null<IntegerAttr>(adaptor.getAmount()))
    if (amount.getValue().isZero())
      return getState();
  return {};
}

namespace {
/// advance_by(s, constant n) -> advance(s) by n, which folds and
/// canonicalizes further.
struct AdvanceByConstant : OpRewritePattern<PipelineStateAdvanceByOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PipelineStateAdvanceByOp op,
                                PatternRewriter &rewriter) const override {
    APInt amount;
    if (!matchPattern(op.getAmount(), m_ConstantInt(&amount)))
      return failure();
    rewriter.replaceOpWithNewOp<PipelineStateAdvanceOp>(
        op, op.getType(), op.getState(),
        rewriter.getI64IntegerAttr(
            static_cast<int64_t>(amount.getZExtValue())));
    return success();
  }
};
} // namespace

void PipelineStateAdvanceByOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<AdvanceByConstant>(context);
}

namespace {
/// Replaces an accessor of a compile-time-known state with a constant.
template <typename AccessorOp>
struct FoldConstantStateAccessor : OpRewritePattern<AccessorOp> {
  using OpRewritePattern<AccessorOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AccessorOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<PipelineState> state = getConstantState(op.getState());
    if (!state)
      return failure();
    Value constant;
    if constexpr (std::is_same_v<AccessorOp, PipelineStatePhaseOp>)
      constant = arith::ConstantIntOp::create(rewriter, op.getLoc(),
                                              state->phase, /*width=*/1);
    else if constexpr (std::is_same_v<AccessorOp, PipelineStateIndexOp>)
      constant =
          arith::ConstantIndexOp::create(rewriter, op.getLoc(), state->index);
    else
      constant =
          arith::ConstantIndexOp::create(rewriter, op.getLoc(), state->count);
    rewriter.replaceOp(op, constant);
    return success();
  }
};

/// index(advance(s, k * stages)) -> index(s), and
/// phase(advance(s, 2k * stages)) -> phase(s): such advances change neither.
template <typename AccessorOp>
struct AccessorThroughFullCycles : OpRewritePattern<AccessorOp> {
  using OpRewritePattern<AccessorOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AccessorOp op,
                                PatternRewriter &rewriter) const override {
    auto advance =
        op.getState().template getDefiningOp<PipelineStateAdvanceOp>();
    if (!advance)
      return failure();
    int64_t stages = advance.getType().getStages();
    int64_t period =
        std::is_same_v<AccessorOp, PipelineStatePhaseOp> ? 2 * stages : stages;
    int64_t by = advance.getByAttr().getInt();
    if (period <= 0 || by <= 0 || by % period != 0)
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getStateMutable().assign(advance.getState()); });
    return success();
  }
};
} // namespace

void PipelineStateIndexOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldConstantStateAccessor<PipelineStateIndexOp>,
              AccessorThroughFullCycles<PipelineStateIndexOp>>(context);
}

void PipelineStatePhaseOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldConstantStateAccessor<PipelineStatePhaseOp>,
              AccessorThroughFullCycles<PipelineStatePhaseOp>>(context);
}

void PipelineStateCountOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldConstantStateAccessor<PipelineStateCountOp>>(context);
}
