//===- Build.h - A fused chain as a wsgemm.gemm and its launch ---*- C++ -*-===//
//
// The rewriting half of the linalg front end: the kernel (a wsgemm.gemm
// whose epilogue is the chain's payloads) and, once the kernel is legal,
// the host side (a func.call to @<kernel>_launch replacing the chain).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_LINALGTOWSGEMM_BUILD_H
#define WSGEMM_LIB_CONVERSION_LINALGTOWSGEMM_BUILD_H

#include "Match.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::wsgemm::fromlinalg {

/// One op fused after the contraction.
struct FusedOp {
  linalg::LinalgOp op;
  /// Element-wise: how each operand is read (see matchElementwise).
  SmallVector<OperandRead> reads;
  /// Reduction: what it reduces into.
  std::optional<Reduction> reduction;
};

/// A contraction and the ops fused after it, in block order.
struct Chain {
  Contraction root;
  SmallVector<FusedOp> ops;
};

/// The launch: each kernel parameter the host binds, in call order.
struct LaunchArg {
  std::string name; // manifest parameter (A, B, C, D or an EVT name)
  Value value;      // host value (a tensor or a scalar)
  /// An output the kernel writes whole without reading it (D, aux stores),
  /// so its init's contents do not matter.
  bool overwritten = false;
};
struct Launch {
  SmallVector<LaunchArg> inputs;
  SmallVector<LaunchArg> inits;   // D first, then aux stores, reductions
  SmallVector<Value> replaced;    // the chain values the results replace
};

/// Builds the kernel `name` for `chain` in `module`, before the function
/// holding the chain, and fills
/// `launch`. The caller checks its legality and erases it on failure.
GemmOp buildGemm(ModuleOp module, StringRef name, Chain &chain,
                 Launch &launch);

/// Replaces the chain with a call to a new private `@<kernel>_launch` (its
/// arguments named by `wsgemm.param`, the kernel by `wsgemm.kernel`) placed
/// after the chain's last op, and erases the chain and the producers only
/// it used (transposes, broadcasts, fills, empties).
void replaceChain(RewriterBase &rewriter, GemmOp gemm, Chain &chain,
                  const Launch &launch);

} // namespace mlir::wsgemm::fromlinalg

#endif // WSGEMM_LIB_CONVERSION_LINALGTOWSGEMM_BUILD_H
