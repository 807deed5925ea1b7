//===- EpiPasses.h - Epilogue dialect passes --------------------*- C++ -*-===//
//
// Pass declarations of the epi dialect and the transforms behind them, for
// pipelines that want to call them directly.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIPASSES_H
#define WSGEMM_DIALECT_EPI_EPIPASSES_H

#include "ws-gemm/Dialect/Epi/EpiOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::epi {

#define GEN_PASS_DECL
#include "ws-gemm/Dialect/Epi/EpiPasses.h.inc"

/// Rewrites one preset into its explicit EVT; the transform behind
/// --epi-expand-presets.
LogicalResult expandPreset(FusionOp op);

/// Lowers every named activation under `root` to arith/math (a partial
/// conversion); the transform behind --epi-lower-activations.
LogicalResult lowerActivations(Operation *root);

/// Adds the patterns lowering named activations to arith/math.
void populateLowerActivationsPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "ws-gemm/Dialect/Epi/EpiPasses.h.inc"

} // namespace mlir::epi

#endif // WSGEMM_DIALECT_EPI_EPIPASSES_H
