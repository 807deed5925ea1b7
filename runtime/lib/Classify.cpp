//===- Classify.cpp - Recognize D = act(alpha*acc + beta*C + bias) --------===//
//
// Walks back from the store: an optional activation, then either CUTLASS's
// preset tree (fma(beta, C, fma(alpha, acc, bias)), fma(beta, C, alpha*acc),
// fma(alpha, acc, bias)) or an optional add of a broadcast vector over the
// linear combination (acc, alpha*acc, fma(alpha, acc, beta*C), alpha*acc +
// beta*C, ...). Every node must be consumed by the
// pattern except side outputs, which are listed. The activations it accepts
// are those EvtOps.def gives a cuBLASLt counterpart (Blas).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Classify.h"

#include <set>

namespace wsgemm::runtime {
namespace {

struct Matcher {
  const std::vector<EvtNode> &nodes;
  std::set<int> used;

  const EvtNode &at(int i) const { return nodes[static_cast<size_t>(i)]; }
  bool is(int i, EvtOp op) const { return at(i).op == op; }

  /// acc, or scalar * acc / acc * scalar. Sets alpha (-1 for 1).
  bool accTerm(int i, int &alpha) {
    if (is(i, EvtOp::Acc)) {
      used.insert(i);
      alpha = -1;
      return true;
    }
    if (is(i, EvtOp::Mul)) {
      int a = at(i).args[0], b = at(i).args[1];
      if (is(b, EvtOp::Scalar))
        std::swap(a, b);
      if (is(a, EvtOp::Scalar) && is(b, EvtOp::Acc)) {
        used.insert({i, a, b});
        alpha = a;
        return true;
      }
    }
    return false;
  }

  /// load_src, or scalar * load_src.
  bool srcTerm(int i, int &beta) {
    if (is(i, EvtOp::LoadSrc)) {
      used.insert(i);
      beta = -1;
      return true;
    }
    if (is(i, EvtOp::Mul)) {
      int a = at(i).args[0], b = at(i).args[1];
      if (is(b, EvtOp::Scalar))
        std::swap(a, b);
      if (is(a, EvtOp::Scalar) && is(b, EvtOp::LoadSrc)) {
        used.insert({i, a, b});
        beta = a;
        return true;
      }
    }
    return false;
  }

  /// A broadcast vector: the bias. Records it.
  bool biasTerm(int i, StandardEpilogue &e) {
    if (!is(i, EvtOp::LoadVecM) && !is(i, EvtOp::LoadVecN))
      return false;
    e.biasName = at(i).name;
    e.biasOp = at(i).op;
    e.biasDType = at(i).dtype;
    used.insert(i);
    return true;
  }

  /// alpha*acc + bias as CUTLASS's presets build it: fma(alpha, acc, bias).
  bool accPlusBias(int i, StandardEpilogue &e) {
    if (!is(i, EvtOp::Fma))
      return false;
    int a = at(i).args[0], b = at(i).args[1], c = at(i).args[2];
    if (is(b, EvtOp::Scalar))
      std::swap(a, b);
    if (!is(a, EvtOp::Scalar) || !is(b, EvtOp::Acc) || !biasTerm(c, e))
      return false;
    used.insert({i, a, b});
    e.alphaNode = a;
    return true;
  }

  /// The presets' Z = fma(beta, C, alpha*acc [+ bias]) (Sm90LinearCombination
  /// and the Per*Bias presets: homogeneous_multiply_add over Sm90SrcFetch).
  bool srcFma(int i, StandardEpilogue &e, bool allowBias = true) {
    if (!is(i, EvtOp::Fma))
      return false;
    int a = at(i).args[0], b = at(i).args[1], c = at(i).args[2];
    if (is(b, EvtOp::Scalar))
      std::swap(a, b);
    if (!is(a, EvtOp::Scalar) || !is(b, EvtOp::LoadSrc))
      return false;
    std::set<int> saved = used;
    if (!(allowBias && accPlusBias(c, e)) && !accTerm(c, e.alphaNode)) {
      used = saved;
      return false;
    }
    used.insert({i, a, b});
    e.betaNode = a;
    e.hasC = true;
    return true;
  }

  /// The linear combination alpha*acc [+ beta*C].
  bool linComb(int i, StandardEpilogue &e) {
    if (accTerm(i, e.alphaNode))
      return true;
    if (is(i, EvtOp::Add)) {
      int a = at(i).args[0], b = at(i).args[1];
      for (int pass = 0; pass < 2; ++pass, std::swap(a, b)) {
        std::set<int> saved = used;
        if (accTerm(a, e.alphaNode) && srcTerm(b, e.betaNode)) {
          used.insert(i);
          e.hasC = true;
          return true;
        }
        used = saved;
      }
    }
    if (is(i, EvtOp::Fma)) {
      int a = at(i).args[0], b = at(i).args[1], c = at(i).args[2];
      if (is(b, EvtOp::Scalar))
        std::swap(a, b);
      if (is(a, EvtOp::Scalar) && is(b, EvtOp::Acc) && srcTerm(c, e.betaNode)) {
        used.insert({i, a, b});
        e.alphaNode = a;
        e.hasC = true;
        return true;
      }
    }
    return false;
  }
};

/// The activations cuBLASLt has a counterpart of, in table order.
std::string blasActivationNames() {
  std::string s;
  for (const EvtOpInfo &i : kEvtOps)
    if (i.blas != BlasActivation::None)
      s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

} // namespace

StandardEpilogue classifyEpilogue(const Manifest &m) {
  StandardEpilogue e;
  Matcher mt{m.nodes, {}};
  const EvtNode &store = m.storeNode();
  mt.used.insert(store.id);
  int cur = store.args[0];

  if (evtOpInfo(mt.at(cur).op).blas != BlasActivation::None) {
    e.activation = mt.at(cur).op;
    mt.used.insert(cur);
    cur = mt.at(cur).args[0];
  }
  bool matched = mt.srcFma(cur, e) || mt.accPlusBias(cur, e);
  if (!matched && mt.is(cur, EvtOp::Add)) {
    int a = mt.at(cur).args[0], b = mt.at(cur).args[1];
    if (mt.is(a, EvtOp::LoadVecM) || mt.is(a, EvtOp::LoadVecN))
      std::swap(a, b);
    if (mt.biasTerm(b, e)) {
      mt.used.insert(cur);
      cur = a;
    }
  }
  if (!matched && !mt.linComb(cur, e) &&
      !mt.srcFma(cur, e, /*allowBias=*/false)) {
    e.reason = std::string("node ") + std::to_string(cur) + " (" +
               evtOpName(mt.at(cur).op) +
               ") is not alpha*acc [+ beta*C] [+ bias] under an activation "
               "among " +
               blasActivationNames();
    return e;
  }
  // Side outputs are allowed (listed); any other unused node means the
  // graph computes something the pattern does not.
  for (const EvtNode &n : m.nodes) {
    if (mt.used.count(n.id))
      continue;
    if (!producesValue(n.op)) { // aux stores and reductions
      e.extraOutputs.push_back(std::string(evtOpName(n.op)) + " '" + n.name +
                               "'");
      continue;
    }
    // Nodes feeding only side outputs are fine too; anything on the D path
    // was consumed above, so an unused node here cannot change D.
  }
  e.matched = true;
  return e;
}

} // namespace wsgemm::runtime
