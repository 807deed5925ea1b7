//===- Payload.cpp - linalg payloads as epilogue math ---------------------===//
//
// The one list of scalar ops the front end copies from linalg payloads into
// an epilogue: exactly those the manifest's EVT graph names
// (runtime/include/ws-gemm-runtime/EvtOps.def), so the CPU reference can
// evaluate what the kernel computes.
//
//===----------------------------------------------------------------------===//

#include "Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::wsgemm::fromlinalg;

static bool isPayloadOp(Operation &op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::NegFOp, arith::SelectOp, arith::CmpFOp,
             arith::ConstantOp, arith::TruncFOp, arith::ExtFOp, math::AbsFOp,
             math::ExpOp, math::LogOp, math::SqrtOp, math::RsqrtOp,
             math::TanhOp, math::ErfOp, math::FmaOp>(op);
}

static bool isPayloadType(Type type) {
  return isa<Float16Type, BFloat16Type, Float32Type>(type) ||
         type.isInteger(1);
}

LogicalResult mlir::wsgemm::fromlinalg::checkPayload(Block &body,
                                                     std::string &why) {
  for (BlockArgument arg : body.getArguments()) {
    if (!arg.use_empty() && !isPayloadType(arg.getType())) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "its payload computes on " << arg.getType()
         << "; the epilogue computes on floats (f16, bf16, f32)";
      why = s;
      return failure();
    }
  }
  for (Operation &op : body) {
    std::string s;
    llvm::raw_string_ostream os(s);
    for (Value operand : op.getOperands()) {
      // Captured: constants, and float scalars (kernel parameters).
      if (operand.getParentBlock() == &body ||
          operand.getDefiningOp<arith::ConstantOp>() ||
          isa<Float16Type, BFloat16Type, Float32Type>(operand.getType()))
        continue;
      os << "its payload captures a " << operand.getType()
         << " from outside (constants and f16, bf16 or f32 scalars can be "
            "captured)";
      why = s;
      return failure();
    }
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (!isPayloadOp(op)) {
      os << "its payload has '" << op.getName()
         << "', which the epilogue has no node for (docs/manifest.md lists "
            "the arith and math ops it takes)";
      why = s;
      return failure();
    }
    for (Type type : llvm::concat<const Type>(op.getOperandTypes(),
                                              op.getResultTypes())) {
      if (!isPayloadType(type)) {
        os << "its payload's '" << op.getName() << "' computes on " << type
           << "; the epilogue computes on f16, bf16 or f32";
        why = s;
        return failure();
      }
    }
  }
  return success();
}

static Type promote(Type type) {
  return isa<FloatType>(type) ? Float32Type::get(type.getContext()) : type;
}

/// An f32 copy of a float constant, or the constant itself.
static Value promotedConstant(OpBuilder &b, arith::ConstantOp constant) {
  Attribute value = constant.getValue();
  if (auto f = dyn_cast<FloatAttr>(value))
    value = b.getF32FloatAttr(f.getValueAsDouble());
  return arith::ConstantOp::create(b, constant.getLoc(), cast<TypedAttr>(value));
}

Value mlir::wsgemm::fromlinalg::lookupPayloadValue(OpBuilder &b, Value value,
                                                   IRMapping &map) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  // A constant captured from outside the payload (captured scalars are
  // mapped to kernel parameters before the payload is copied).
  Value copy = promotedConstant(b, value.getDefiningOp<arith::ConstantOp>());
  map.map(value, copy);
  return copy;
}

void mlir::wsgemm::fromlinalg::clonePayloadOp(OpBuilder &b, Operation &op,
                                              IRMapping &map) {
  for (Value operand : op.getOperands())
    lookupPayloadValue(b, operand, map);
  if (isa<arith::TruncFOp, arith::ExtFOp>(op)) {
    map.map(op.getResult(0), map.lookup(op.getOperand(0)));
    return;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    map.map(constant.getResult(), promotedConstant(b, constant));
    return;
  }
  // Operands are mapped to f32 values already; the clone computes in f32.
  Operation *clone = b.clone(op, map);
  for (OpResult result : clone->getResults())
    result.setType(promote(result.getType()));
}

SmallVector<Value> mlir::wsgemm::fromlinalg::capturedScalars(Block &body) {
  SetVector<Value> captured;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      if (operand.getParentBlock() != &body &&
          !operand.getDefiningOp<arith::ConstantOp>())
        captured.insert(operand);
  return captured.takeVector();
}
