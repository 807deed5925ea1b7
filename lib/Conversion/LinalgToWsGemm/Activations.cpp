//===- Activations.cpp - Named activations from copied payloads -----------===//
//
// Payloads spell activations as formulas; the epilogue has them as ops
// (epi.relu, epi.gelu, ...), which --epi-lower-activations expands to
// CUTLASS's formula and which a benchmark can match to cuBLASLt's
// epilogues. Each rewrite here replaces a formula by the op whose lowering
// is that same formula (docs/epi.md), so nothing changes numerically:
//
//   maximumf(x, 0)                             -> epi.relu x
//   1 / (exp(-x) + 1)                          -> epi.sigmoid x
//   x * epi.sigmoid(x)                         -> epi.silu x
//   (x * 0.5) * (erf(x * 0.70710678) + 1)      -> epi.gelu x
//     (also erf(x / 1.41421356))
//
// with commuted operands of commutative ops.
//
//===----------------------------------------------------------------------===//

#include "Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::wsgemm::fromlinalg;

/// `v` is a float constant within a relative 1e-6 of `want`.
static bool isConstant(Value v, double want) {
  FloatAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return false;
  return std::abs(attr.getValueAsDouble() - want) <=
         1e-6 * std::max(1.0, std::abs(want));
}

/// The operand of two-operand `op` other than the constant `c`, or null.
static Value otherThan(Operation *op, double c) {
  if (!op || op->getNumOperands() != 2)
    return {};
  if (isConstant(op->getOperand(1), c))
    return op->getOperand(0);
  if (isConstant(op->getOperand(0), c))
    return op->getOperand(1);
  return {};
}

/// x of `x * 0.70710678` or `x / 1.41421356`, else null.
static Value overSqrt2(Value v) {
  Operation *op = v.getDefiningOp();
  if (isa_and_nonnull<arith::MulFOp>(op))
    return otherThan(op, M_SQRT1_2);
  if (isa_and_nonnull<arith::DivFOp>(op) && isConstant(op->getOperand(1), M_SQRT2))
    return op->getOperand(0);
  return {};
}

/// x when `p * q` is GELU's (x * 0.5) * (erf(x / sqrt 2) + 1).
static Value geluInput(Value p, Value q) {
  Value x = otherThan(p.getDefiningOp<arith::MulFOp>(), 0.5);
  Value erf = otherThan(q.getDefiningOp<arith::AddFOp>(), 1.0);
  auto e = erf ? erf.getDefiningOp<math::ErfOp>() : math::ErfOp();
  if (!x || !e || overSqrt2(e.getOperand()) != x)
    return {};
  return x;
}

static Value raise(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  if (isa<arith::MaximumFOp>(op))
    if (Value x = otherThan(op, 0.0))
      return epi::ReluOp::create(b, loc, x);
  if (auto div = dyn_cast<arith::DivFOp>(op)) {
    Value e = isConstant(div.getLhs(), 1.0)
                  ? otherThan(div.getRhs().getDefiningOp<arith::AddFOp>(), 1.0)
                  : Value();
    auto exp = e ? e.getDefiningOp<math::ExpOp>() : math::ExpOp();
    if (auto neg = exp ? exp.getOperand().getDefiningOp<arith::NegFOp>()
                       : arith::NegFOp())
      return epi::SigmoidOp::create(b, loc, neg.getOperand());
  }
  if (auto mul = dyn_cast<arith::MulFOp>(op)) {
    Value lhs = mul.getLhs(), rhs = mul.getRhs();
    for (auto [x, s] : {std::make_pair(lhs, rhs), std::make_pair(rhs, lhs)}) {
      auto sigmoid = s.getDefiningOp<epi::SigmoidOp>();
      if (sigmoid && sigmoid.getInput() == x)
        return epi::SiluOp::create(b, loc, x);
      if (Value g = geluInput(x, s))
        return epi::GeluOp::create(b, loc, g);
    }
  }
  return {};
}

void mlir::wsgemm::fromlinalg::raiseActivations(RewriterBase &rewriter,
                                                Region &epilogue) {
  SmallVector<Operation *> ops;
  epilogue.walk([&](Operation *op) {
    if (op->getNumResults() == 1 && isa<FloatType>(op->getResult(0).getType()))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    if (Value named = raise(rewriter, op))
      rewriter.replaceOp(op, named);
  }
  (void)runRegionDCE(rewriter, epilogue);
}
