//===- Evt.h - The epilogue graph of a manifest -----------------*- C++ -*-===//
//
// In-memory form of the manifest's "evt" section (docs/manifest.md, "The EVT
// graph"): one EvtNode per node, in topological order, each naming its op,
// its arguments (ids of earlier nodes) and the fields its op carries.
// parseManifest() (Manifest.h) reads and checks it; Reference.h evaluates
// it.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_EVT_H
#define WSGEMM_RUNTIME_EVT_H

#include "ws-gemm-runtime/DType.h"

#include <string>
#include <vector>

namespace wsgemm::runtime {

enum class ReduceKind { Sum, Max, Min, AbsMax };
const char *reduceName(ReduceKind r);

/// EVT node operations (docs/manifest.md, "The EVT graph").
enum class EvtOp {
  Acc,
  LoadSrc,
  Scalar,
  LoadVecM,
  LoadVecN,
  AuxLoad,
  Const,
  Add,
  Sub,
  Mul,
  Div,
  Max,
  Min,
  Neg,
  Abs,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Erf,
  Fma,
  Select,
  Cmp,
  Identity,
  Relu,
  Clamp,
  LeakyRelu,
  ThresholdRelu,
  Gelu,
  GeluTaylor,
  Silu,
  Sigmoid,
  Hardswish,
  Convert,
  Store,
  AuxStore,
  ReduceToVecM,
  ReduceToVecN,
  ReduceToScalar
};
const char *evtOpName(EvtOp op);

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
  ReduceKind reduce = ReduceKind::Sum;
};

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_EVT_H
