//===- EvtVisit.h - The EVT on accumulator fragments ------------*- C++ -*-===//
//
// --epi-visit-fragments and the pieces other lowerings reuse: expanding one
// epi.visit into per-element code, and PTX's f32 -> f16/bf16 conversions
// (the epilogue collective packs D pairs with them too).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_CONVERSION_EVTVISIT_H
#define WSGEMM_CONVERSION_EVTVISIT_H

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::epi {

/// Two f32 values as a packed pair of 16-bit floats (`elem` f16 or bf16),
/// PTX's cvt.{rn,rz}.{f16x2,bf16x2}.f32 (`hi` lands in the upper half); a
/// vector<2 x elem>.
Value convertF32Pair(OpBuilder &b, Location loc, Value lo, Value hi, Type elem,
                     RoundingMode rounding);

/// Two f32 values as a packed pair of 8-bit floats (`elem` f8E4M3FN or
/// f8E5M2), PTX's cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32: round to nearest
/// even, a finite value beyond the largest finite (and +-inf) becomes
/// +-max finite, NaN stays NaN. An i16 whose low byte is `lo` (little-endian
/// memory: `lo` at the lower address).
Value convertF32PairToF8(OpBuilder &b, Location loc, Value lo, Value hi,
                         Type elem);

/// The bits of an 8-bit float (`bits` an i8, `elem` f8E4M3FN or f8E5M2)
/// widened exactly to f32: PTX's cvt.rn.f16x2.{e4m3x2,e5m2x2} (every value
/// of both formats is an f16), then f16 -> f32.
Value extendF8ToF32(OpBuilder &b, Location loc, Value bits, Type elem);

/// `v` converted to `to`: widening is exact; narrowing f32 to f16/bf16
/// rounds as asked (rn or rz; the planner refuses the modes PTX lacks).
Value convertFloat(OpBuilder &b, Location loc, Value v, Type to,
                   RoundingMode rounding);

/// Replaces `op` by per-element code (see --epi-visit-fragments); fails
/// with a diagnostic on a leaf whose source the op does not carry.
LogicalResult expandVisit(RewriterBase &rewriter, VisitOp op);

/// The pattern form of expandVisit.
void populateEpiVisitFragmentsPatterns(RewritePatternSet &patterns);

} // namespace mlir::epi

#endif // WSGEMM_CONVERSION_EVTVISIT_H
