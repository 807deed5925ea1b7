//===- Evt.h - The epilogue graph of a manifest -----------------*- C++ -*-===//
//
// In-memory form of the manifest's "evt" section (docs/manifest.md, "The EVT
// graph"): one EvtNode per node, in topological order, each naming its op,
// its arguments (ids of earlier nodes) and the fields its op carries.
// parseManifest() (Manifest.h) reads and checks it; Reference.h evaluates
// it. The ops, their names, arities and kinds come from one table,
// EvtOps.def; kEvtOps below is that table as data, and the runtime's code
// that must handle every op (parsing, the reference, tolerances, the
// standard-epilogue matcher) reads it rather than its own list.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_EVT_H
#define WSGEMM_RUNTIME_EVT_H

#include "ws-gemm-runtime/DType.h"

#include <cstddef>
#include <string>
#include <vector>

namespace wsgemm::runtime {

enum class ReduceKind { Sum, Max, Min, AbsMax };
const char *reduceName(ReduceKind r);

/// EVT node operations (docs/manifest.md, "The EVT graph"), one per entry
/// of EvtOps.def.
enum class EvtOp {
#define WSGEMM_EVT_OP(Enum, Name, Arity) Enum,
#include "ws-gemm-runtime/EvtOps.def"
};

/// The macro of EvtOps.def an op is listed with.
enum class EvtOpKind {
  Leaf,       // no arguments: an input or a field of the node
  Unary,      // arith/math op of one argument, convert
  Activation, // named activation of one argument
  Binary,
  Ternary,
  Output,   // store, aux_store: no value
  Reduction // reduce_to_*: no value
};

/// Whether the GPU lowering of an op is approximate (EvtOps.def, Accuracy).
enum class EvtAccuracy { Exact, Approx };

/// The cuBLASLt epilogue activation an op matches (EvtOps.def, Blas).
enum class BlasActivation { None, Identity, Relu, Gelu };

/// One row of EvtOps.def.
struct EvtOpInfo {
  EvtOp op;
  const char *name; // the manifest's spelling
  EvtOpKind kind;
  int arity; // entries of "args"
  EvtAccuracy accuracy = EvtAccuracy::Exact;
  BlasActivation blas = BlasActivation::None;
};

/// Every op of EvtOps.def, in EvtOp order.
inline constexpr EvtOpInfo kEvtOps[] = {
#define WSGEMM_EVT_LEAF(Enum, Name) {EvtOp::Enum, Name, EvtOpKind::Leaf, 0},
#define WSGEMM_EVT_UNARY(Enum, Name, Accuracy, Expr)                           \
  {EvtOp::Enum, Name, EvtOpKind::Unary, 1, EvtAccuracy::Accuracy},
#define WSGEMM_EVT_ACTIVATION(Enum, Name, Accuracy, Blas, Expr)                \
  {EvtOp::Enum,         Name, EvtOpKind::Activation, 1, EvtAccuracy::Accuracy, \
   BlasActivation::Blas},
#define WSGEMM_EVT_BINARY(Enum, Name, Expr)                                    \
  {EvtOp::Enum, Name, EvtOpKind::Binary, 2},
#define WSGEMM_EVT_TERNARY(Enum, Name, Expr)                                   \
  {EvtOp::Enum, Name, EvtOpKind::Ternary, 3},
#define WSGEMM_EVT_OUTPUT(Enum, Name) {EvtOp::Enum, Name, EvtOpKind::Output, 1},
#define WSGEMM_EVT_REDUCTION(Enum, Name)                                       \
  {EvtOp::Enum, Name, EvtOpKind::Reduction, 1},
#include "ws-gemm-runtime/EvtOps.def"
};

/// The row of `op`.
constexpr const EvtOpInfo &evtOpInfo(EvtOp op) {
  return kEvtOps[static_cast<size_t>(op)];
}
/// The op a manifest spells `name`, or nullptr.
const EvtOpInfo *findEvtOp(const std::string &name);
/// The manifest's spelling of `op`.
const char *evtOpName(EvtOp op);
/// Outputs and reductions produce no value (and cannot be arguments).
constexpr bool producesValue(EvtOp op) {
  EvtOpKind k = evtOpInfo(op).kind;
  return k != EvtOpKind::Output && k != EvtOpKind::Reduction;
}

enum class ScalarSource { Attr, Param, Ptr };

/// cmp predicates: arith.cmpf's (oeq, ogt, oge, olt, ole, one, ord, ueq,
/// ugt, uge, ult, ule, une, uno) plus eq/ne/lt/le/gt/ge as their ordered
/// forms (ne as une, as C's != does).
enum class CmpPredicate {
  OEQ,
  OGT,
  OGE,
  OLT,
  OLE,
  ONE,
  ORD,
  UEQ,
  UGT,
  UGE,
  ULT,
  ULE,
  UNE,
  UNO
};

/// The parameters of clamp, leaky_relu and threshold_relu: what the
/// activation formulas of EvtOps.def read (as `p.lower`, ...).
struct ActivationParams {
  double lower = 0, upper = 0; // clamp
  double alpha = 0;            // leaky_relu
  double threshold = 0;        // threshold_relu
  double upperBound = 0;       // threshold_relu (+inf when absent)
};

/// One of ActivationParams' fields.
enum class ActivationParam { Lower, Upper, Alpha, Threshold, UpperBound };

/// A launch-time activation parameter: the value of the node's argument
/// `arg` (>= 1; argument 0 is the activation's input), written in the
/// manifest as `"lower": {"arg": 1}`.
struct ActivationParamArg {
  ActivationParam param;
  int arg;
};

struct EvtNode {
  int id = 0;
  EvtOp op = EvtOp::Acc;
  std::vector<int> args;
  std::string name;         // vectors, aux, reductions
  DType dtype = DType::F32; // loads, convert, store, aux_store
  Rounding rounding = Rounding::RN;
  ScalarSource source = ScalarSource::Attr;
  std::vector<std::string> names; // scalar param / ptr names (product)
  double value = 0;               // const, scalar attr
  std::string skipIfZero;         // load_src
  CmpPredicate predicate = CmpPredicate::OEQ;
  double lower = 0, upper = 0; // clamp
  double alpha = 0;            // leaky_relu
  double threshold = 0;        // threshold_relu
  double upperBound = 0;       // threshold_relu (+inf when absent)
  /// The activation parameters given as arguments instead of constants.
  std::vector<ActivationParamArg> paramArgs;
  ReduceKind reduce = ReduceKind::Sum;
  bool approx = false; // fastmath<afn>: lowered with approximate instructions
};

/// The field `which` of `p`.
inline double &activationParam(ActivationParams &p, ActivationParam which) {
  switch (which) {
  case ActivationParam::Lower:
    return p.lower;
  case ActivationParam::Upper:
    return p.upper;
  case ActivationParam::Alpha:
    return p.alpha;
  case ActivationParam::Threshold:
    return p.threshold;
  case ActivationParam::UpperBound:
    break;
  }
  return p.upperBound;
}

/// The node's activation parameters: its constant fields, and for each
/// parameter given as an argument the value `values[args[arg]]` (the
/// values of the graph's nodes so far, indexed by node id).
inline ActivationParams bindActivationParams(const EvtNode &n,
                                             const double *values) {
  ActivationParams p{n.lower, n.upper, n.alpha, n.threshold, n.upperBound};
  for (const ActivationParamArg &a : n.paramArgs)
    activationParam(p, a.param) =
        values[n.args[static_cast<size_t>(a.arg)]];
  return p;
}

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_EVT_H
