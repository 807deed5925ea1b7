//===- MathApproxToNVVM.h - fastmath<afn> math to PTX approx ----*- C++ -*-===//
//
// --convert-math-approx-to-nvvm: the math ops carrying fastmath<afn> for
// which upstream's --convert-gpu-to-nvvm still calls a precise libdevice
// function become PTX's approximate instructions.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_CONVERSION_MATHAPPROXTONVVM_H
#define WSGEMM_CONVERSION_MATHAPPROXTONVVM_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {

/// math.tanh f32 with `afn` -> llvm.intr.tanh with `afn` (tanh.approx.f32).
void populateMathApproxToNVVMConversionPatterns(RewritePatternSet &patterns);

} // namespace mlir

#endif // WSGEMM_CONVERSION_MATHAPPROXTONVVM_H
