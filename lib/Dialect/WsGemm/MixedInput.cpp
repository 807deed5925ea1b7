//===- MixedInput.cpp - Verification of #wsgemm.dequant and mixed input ---===//
//
// The structural rules of a mixed-input wsgemm.gemm (docs/mixed-input.md):
// the quantized operand is A, stored as i4, i8 or f8E4M3FN, `dequant_a`
// says how it becomes B's 16-bit type. What the lowering supports on top (group sizes,
// tile K, knobs) is the planner's (LegalityMixedInput.cpp).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

using namespace mlir;
using namespace mlir::wsgemm;

LogicalResult
DequantAttr::verify(function_ref<InFlightDiagnostic()> emitError, Type scale,
                    int64_t group, ZeroPoint zero) {
  if (!scale.isF16() && !scale.isBF16())
    return emitError() << "dequant scale must be f16 or bf16 (the MMA type "
                          "the weight is dequantized into), got "
                       << scale;
  if (group < 0)
    return emitError() << "dequant group must be >= 0 (0: one scale per "
                          "row), got "
                       << group;
  return success();
}

LogicalResult mlir::wsgemm::verifyMixedInput(GemmOp op) {
  Type a = op.getAType(), b = op.getBType();
  DequantAttr dequant = op.getDequantAAttr();
  auto isQuantized = [](Type t) {
    return t.isInteger(4) || t.isInteger(8) || isa<Float8E4M3FNType>(t);
  };
  if (isa<IntegerType>(b))
    return op.emitOpError()
           << "B element type must not be quantized, got " << b
           << ": only A is dequantized on load (wgmma takes only A from "
              "registers); swap the operands (D^T = B^T A^T)";
  if (!isQuantized(a))
    return op.emitOpError() << "dequant_a needs a quantized A element type "
                               "(i4, i8 or f8E4M3FN), got "
                            << a;
  if (!dequant)
    return op.emitOpError() << "A element type " << a
                            << " is quantized, so the gemm needs dequant_a "
                               "#wsgemm.dequant<...> (how it becomes B's "
                               "type)";
  if (!b.isF16() && !b.isBF16())
    return op.emitOpError() << "B element type must be f16 or bf16 when A is "
                               "quantized (the MMA runs in B's type), got "
                            << b;
  if (dequant.getScale() != b)
    return op.emitOpError() << "dequant_a scale must be B's element type "
                            << b << ", got " << dequant.getScale();
  if (a.isInteger(4) && dequant.getZero() == ZeroPoint::none)
    return op.emitOpError() << "i4 A holds unsigned 4-bit values: dequant_a "
                               "needs zero = ui4 or bias8, got none";
  if (a.isInteger(4) && dequant.getGroup() == 0)
    return op.emitOpError() << "i4 A needs dequant_a group > 0 (a scale per "
                               "group of K per row)";
  if (!a.isInteger(4) && dequant.getZero() != ZeroPoint::none)
    return op.emitOpError()
           << "zero = " << stringifyZeroPoint(dequant.getZero())
           << " is for an i4 A (unsigned 4-bit values); an " << a
           << " A is signed and takes zero = none";
  return success();
}
