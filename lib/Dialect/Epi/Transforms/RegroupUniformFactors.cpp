//===- RegroupUniformFactors.cpp - (x * u1) * u2 -> x * (u1 * u2) ---------===//
//
// --epi-regroup-uniform-factors: where reassociation is allowed, an element
// multiplied by two uniform factors in turn is multiplied once by their
// product, computed once for the epilogue (EpiPasses.td).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::epi {
#define GEN_PASS_DEF_EPIREGROUPUNIFORMFACTORS
#include "ws-gemm/Dialect/Epi/EpiPasses.h.inc"
} // namespace mlir::epi

using namespace mlir;
using namespace mlir::epi;

namespace {
/// (x * u1) * u2 -> x * (u1 * u2), both products `reassoc`.
struct RegroupUniformFactors : OpRewritePattern<arith::MulFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::MulFOp outer,
                                PatternRewriter &rewriter) const override {
    std::optional<UniformFactor> top = splitUniformFactor(outer);
    if (!top)
      return rewriter.notifyMatchFailure(outer, "not reassoc x * uniform");
    std::optional<UniformFactor> inner = splitUniformFactor(top->rest);
    if (!inner)
      return rewriter.notifyMatchFailure(outer, "x is not reassoc y * uniform");
    auto innerMul = top->rest.getDefiningOp<arith::MulFOp>();
    arith::FastMathFlags flags = outer.getFastmath() & innerMul.getFastmath();
    Value product = arith::MulFOp::create(rewriter, outer.getLoc(),
                                          inner->factor, top->factor, flags);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(outer, inner->rest, product,
                                               flags);
    return success();
  }
};

struct EpiRegroupUniformFactorsPass
    : public epi::impl::EpiRegroupUniformFactorsBase<
          EpiRegroupUniformFactorsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RegroupUniformFactors>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
