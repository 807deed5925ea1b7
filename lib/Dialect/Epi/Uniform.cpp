//===- Uniform.cpp - Values uniform over an epilogue's elements -----------===//
//
// epi::isUniform and epi::splitUniformFactor (EpiOps.h): what
// --epi-regroup-uniform-factors and the epilogue collective's reductions
// may compute once instead of per element.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::epi;

bool mlir::epi::isUniform(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false; // the accumulator, or a block argument of another region
  if (isa<ScalarOp>(def) || def->hasTrait<OpTrait::ConstantLike>())
    return true;
  if (def->getDialect() && def->getDialect()->getNamespace() == "epi")
    return false; // leaves read per element; outputs have no results
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), isUniform);
}

std::optional<UniformFactor> mlir::epi::splitUniformFactor(Value v) {
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul ||
      !bitEnumContainsAll(mul.getFastmath(), arith::FastMathFlags::reassoc))
    return std::nullopt;
  Value lhs = mul.getLhs(), rhs = mul.getRhs();
  bool lhsUniform = isUniform(lhs), rhsUniform = isUniform(rhs);
  if (lhsUniform == rhsUniform)
    return std::nullopt;
  return lhsUniform ? UniformFactor{lhs, rhs} : UniformFactor{rhs, lhs};
}
