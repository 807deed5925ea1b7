//===- Match.h - What --wsgemm-from-linalg recognises ------------*- C++ -*-===//
//
// The analysis half of the linalg front end, no rewriting: the contraction
// (operand layouts, element types, what its init means), how an epilogue
// reads each operand of an element-wise consumer, whether a payload is
// epilogue math, and which reductions are epilogue outputs. Every refusal
// is a sentence in `why`, which the pass turns into a remark.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_LINALGTOWSGEMM_MATCH_H
#define WSGEMM_LIB_CONVERSION_LINALGTOWSGEMM_MATCH_H

#include "ws-gemm/Dialect/Epi/EpiOps.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace mlir::wsgemm::fromlinalg {

/// How the epilogue reads one operand of a fused op (in the output's
/// coordinates: (m, n), or (l, m, n) when batched).
struct OperandRead {
  enum class Kind {
    Fused,     // a value the epilogue already computes (identity map)
    Aux,       // an M x N (x L) matrix: epi.aux_load
    VecM,      // a vector along m (per batch): epi.load_vec_m
    VecN,      // a vector along n (per batch): epi.load_vec_n
    Scalar,    // a host scalar: epi.scalar param
    ScalarPtr, // a 0-d f32 tensor: epi.scalar ptr
    Const,     // a compile-time constant
    Zero,      // nothing to read (a zero fill, or an undefined tensor.empty)
  };
  Kind kind = Kind::Zero;
  /// The host value the kernel reads (a tensor or a scalar), or the fused
  /// tensor for Fused; null for Const and Zero.
  Value value;
  double constant = 0.0;
};

/// The GEMM at the root of a chain.
struct Contraction {
  linalg::LinalgOp op;
  bool batched = false;
  Value a, b;          // host tensors (looked through linalg.transpose)
  Type elemType;       // A's and B's element type
  Major aMajor = Major::k_major, bMajor = Major::k_major;
  /// What the init adds to the product: Aux means C (epi.load_src); any
  /// other read (a fill, a broadcast vector) is added as it is.
  OperandRead init;
  /// M, N, K[, L] when every size is static, else empty.
  SmallVector<int64_t> shape;
};

FailureOr<Contraction> matchContraction(linalg::LinalgOp op, std::string &why);

/// Values the epilogue computes (readable by a fused op) and values that
/// depend on the kernel's outputs (never readable: the launch defines them).
struct ChainValues {
  llvm::DenseSet<Value> fused;
  llvm::DenseSet<Value> afterKernel;
};

/// An op computed per output element: all loops parallel, one result with
/// the identity map of the chain's rank. Classifies every operand the
/// payload reads (the init only when the payload reads it) into `reads`
/// (parallel to getOpOperands(); unread inits are Zero).
LogicalResult matchElementwise(linalg::LinalgOp op, unsigned rank,
                               const ChainValues &chain,
                               SmallVectorImpl<OperandRead> &reads,
                               std::string &why);

/// A reduction of a fused value into a vector along m, along n, or a
/// scalar: an epilogue output.
struct Reduction {
  enum class Target { VecM, VecN, Scalar };
  Target target;
  epi::ReduceKind kind;
  Value input;
};

FailureOr<Reduction> matchReduction(linalg::LinalgOp op, bool batched,
                                    const ChainValues &chain,
                                    std::string &why);

/// Whether every op of a linalg payload is epilogue math: the arith and
/// math ops the manifest's EVT graph has nodes for, on f16, bf16, f32 (and
/// i1 for comparisons). Payload.cpp.
LogicalResult checkPayload(Block &body, std::string &why);

/// The non-constant values a payload reads from outside it (checkPayload
/// allows float scalars): kernel parameters (epi.scalar param).
SmallVector<Value> capturedScalars(Block &body);

/// Clones payload op `op` (checked by checkPayload) into the epilogue at
/// `b`, computing in f32: float operands and results become f32, float
/// constants f32 constants, and truncf/extf between float types vanish
/// (the epilogue keeps f32 between fused ops and rounds once, at D). Maps
/// the op's results in `map`.
void clonePayloadOp(OpBuilder &b, Operation &op, IRMapping &map);

/// The epilogue value of payload value `value`: its mapping, or an f32
/// copy of a constant captured from outside the payload.
Value lookupPayloadValue(OpBuilder &b, Value value, IRMapping &map);

/// Replaces activation formulas in `epilogue` (copied payloads) by the
/// epi ops whose lowering is that formula: relu, sigmoid, silu, gelu.
/// Activations.cpp.
void raiseActivations(RewriterBase &rewriter, Region &epilogue);

/// True for the float types an epilogue leaf or output converts from/to.
bool isEpilogueMemType(Type type);

} // namespace mlir::wsgemm::fromlinalg

#endif // WSGEMM_LIB_CONVERSION_LINALGTOWSGEMM_MATCH_H
