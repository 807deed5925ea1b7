//===- LinalgToWsGemm.h - linalg front end ----------------------*- C++ -*-===//
//
// --wsgemm-from-linalg and its entry point for compilers that drive the
// fusion themselves.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_CONVERSION_LINALGTOWSGEMM_H
#define WSGEMM_CONVERSION_LINALGTOWSGEMM_H

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {

#define GEN_PASS_DECL
#include "ws-gemm/Conversion/LinalgToWsGemm.h.inc"

#define GEN_PASS_REGISTRATION
#include "ws-gemm/Conversion/LinalgToWsGemm.h.inc"

namespace wsgemm {

/// Fuses `contraction` and the linalg ops after it that an epilogue can
/// compute into a new wsgemm.gemm named `kernelName` (in the enclosing
/// module, before the function) and replaces them with a call to
/// `@<kernelName>_launch`, as --wsgemm-from-linalg does. Fails, changing
/// nothing, when the contraction itself cannot be a ws-gemm kernel or
/// `kernelName` cannot name one (checkKernelName, KernelName.h: map text
/// you did not write with legalKernelName first). With
/// `remarks`, every refusal (the contraction's, or a consumer's that stays
/// in linalg) is a remark at the refused op.
FailureOr<GemmOp> fuseLinalgIntoGemm(RewriterBase &rewriter,
                                     linalg::LinalgOp contraction,
                                     StringRef kernelName, bool remarks);

} // namespace wsgemm
} // namespace mlir

#endif // WSGEMM_CONVERSION_LINALGTOWSGEMM_H
