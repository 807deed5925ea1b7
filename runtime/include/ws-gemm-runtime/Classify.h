//===- Classify.h - Recognize standard epilogues in an EVT -------*- C++
//-*-===//
//
// Matches the EVT against CUTLASS's LinCombPer{Row,Col}BiasEltAct family,
//   D = act(alpha * acc + beta * C + bias)
// with each of alpha, beta * C, bias and act optional, so a tool can pick the
// nearest library epilogue (ws-gemm-bench: cuBLASLt's DEFAULT, BIAS,
// RELU(_BIAS), GELU(_BIAS)). Anything else is reported as unmatched with the
// reason.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_CLASSIFY_H
#define WSGEMM_RUNTIME_CLASSIFY_H

#include "ws-gemm-runtime/Manifest.h"

#include <string>
#include <vector>

namespace wsgemm::runtime {

struct StandardEpilogue {
  bool matched = false;
  std::string reason; // why not, when !matched
  int alphaNode = -1; // scalar node, -1: alpha = 1
  int betaNode = -1;  // scalar node, -1: beta = 1 (if hasC)
  bool hasC = false;
  std::string biasName;           // empty: no bias
  EvtOp biasOp = EvtOp::LoadVecN; // load_vec_m (per row m) or load_vec_n
  DType biasDType = DType::F16;
  /// An op with a cuBLASLt counterpart (EvtOps.def: identity, relu, gelu,
  /// gelu_taylor).
  EvtOp activation = EvtOp::Identity;
  /// Outputs besides D (aux stores, reductions) the pattern does not cover.
  std::vector<std::string> extraOutputs;
};

StandardEpilogue classifyEpilogue(const Manifest &m);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_CLASSIFY_H
