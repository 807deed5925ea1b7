//===- Reference.cpp - CPU reference of the GEMM and its EVT --------------===//
//
// create() resolves every name of the graph once (vectors, aux matrices,
// scalars) so evaluate() is a straight walk over the nodes in topological
// order: leaves and outputs are handled here, every other op evaluates its
// formula from EvtOps.def. Operands are repacked K-contiguous in float
// (exact: every input dtype is at most f32) and dot products accumulate in
// double.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Reference.h"

#include <algorithm>
#include <cmath>

namespace wsgemm::runtime {

static double evalCmp(CmpPredicate p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  bool r = false;
  switch (p) {
  case CmpPredicate::OEQ:
    r = !unordered && a == b;
    break;
  case CmpPredicate::OGT:
    r = !unordered && a > b;
    break;
  case CmpPredicate::OGE:
    r = !unordered && a >= b;
    break;
  case CmpPredicate::OLT:
    r = !unordered && a < b;
    break;
  case CmpPredicate::OLE:
    r = !unordered && a <= b;
    break;
  case CmpPredicate::ONE:
    r = !unordered && a != b;
    break;
  case CmpPredicate::ORD:
    r = !unordered;
    break;
  case CmpPredicate::UEQ:
    r = unordered || a == b;
    break;
  case CmpPredicate::UGT:
    r = unordered || a > b;
    break;
  case CmpPredicate::UGE:
    r = unordered || a >= b;
    break;
  case CmpPredicate::ULT:
    r = unordered || a < b;
    break;
  case CmpPredicate::ULE:
    r = unordered || a <= b;
    break;
  case CmpPredicate::UNE:
    r = unordered || a != b;
    break;
  case CmpPredicate::UNO:
    r = unordered;
    break;
  }
  return r ? 1.0 : 0.0;
}

double evalActivation(EvtOp op, double x, const EvtNode &node) {
  return evalActivation(
      op, x,
      ActivationParams{node.lower, node.upper, node.alpha, node.threshold,
                       node.upperBound});
}

double evalActivation(EvtOp op, double x, const ActivationParams &p) {
  switch (op) {
#define WSGEMM_EVT_ACTIVATION(Enum, Name, Accuracy, Blas, Expr)                \
  case EvtOp::Enum:                                                            \
    return Expr;
#include "ws-gemm-runtime/EvtOps.def"
  default:
    return NAN;
  }
}

double reduceCombine(ReduceKind k, double acc, double x) {
  // max, min and absmax propagate NaN, as the kernels' max.NaN / min.NaN
  // and CUTLASS's amax (maximum_absolute_value_reduction<T, true>) do;
  // std::max alone would drop a NaN that comes second.
  if (k != ReduceKind::Sum && (std::isnan(acc) || std::isnan(x)))
    return NAN;
  switch (k) {
  case ReduceKind::Sum:
    return acc + x;
  case ReduceKind::Max:
    return std::max(acc, x);
  case ReduceKind::Min:
    return std::min(acc, x);
  case ReduceKind::AbsMax:
    return std::max(acc, std::fabs(x));
  }
  return acc;
}

void ReductionAccumulator::init(ReduceKind k, int64_t size) {
  kind = k;
  double identity = k == ReduceKind::Max   ? -INFINITY
                    : k == ReduceKind::Min ? INFINITY
                                           : 0.0;
  value.assign(static_cast<size_t>(size), identity);
  absSum.assign(static_cast<size_t>(size), 0.0);
  sumSq.assign(static_cast<size_t>(size), 0.0);
  count.assign(static_cast<size_t>(size), 0);
}

void ReductionAccumulator::add(int64_t i, double x) {
  size_t u = static_cast<size_t>(i);
  value[u] = reduceCombine(kind, value[u], x);
  absSum[u] += std::fabs(x);
  if (std::isfinite(x))
    sumSq[u] += x * x;
  ++count[u];
}

void ReductionAccumulator::merge(const ReductionAccumulator &o) {
  for (size_t i = 0; i < value.size(); ++i) {
    if (kind == ReduceKind::Sum)
      value[i] += o.value[i];
    else
      value[i] =
          reduceCombine(kind == ReduceKind::AbsMax ? ReduceKind::Max : kind,
                        value[i], o.value[i]);
    absSum[i] += o.absSum[i];
    sumSq[i] += o.sumSq[i];
    count[i] += o.count[i];
  }
}

namespace {

/// The values of `extent`'s dims (innermost first) in kernel `m`.
std::vector<int64_t> extentSizes(const std::vector<Dim> &extent,
                                 const GemmArgs &a, const Manifest &m) {
  std::vector<int64_t> sizes;
  for (Dim d : extent)
    sizes.push_back(dimValue(d, a, m));
  return sizes;
}

/// Index into a buffer laid out by `extent` (innermost first), whose dims
/// have the values `sizes`.
int64_t extentIndex(const std::vector<Dim> &extent,
                    const std::vector<int64_t> &sizes, int64_t m, int64_t n,
                    int64_t l) {
  int64_t index = 0, stride = 1;
  for (size_t i = 0; i < extent.size(); ++i) {
    Dim d = extent[i];
    int64_t coord = d == Dim::M ? m : d == Dim::N ? n : d == Dim::L ? l : 0;
    index += coord * stride;
    stride *= sizes[i];
  }
  return index;
}

Status checkMatrixInput(const char *what, const std::string &name,
                        const HostMatrix &h, const MatrixGeometry &want) {
  const MatrixGeometry &g = h.geometry;
  if (g.rows != want.rows || g.cols != want.cols || g.batches < want.batches)
    return errorf(what, " ", name, ": host matrix is ", g.rows, " x ", g.cols,
                  " x ", g.batches, ", expected ", want.rows, " x ", want.cols,
                  " x ", want.batches);
  if (static_cast<int64_t>(h.data.size()) < g.spanElements())
    return errorf(what, " ", name, ": host data has ", h.data.size(),
                  " elements, its geometry spans ", g.spanElements());
  return Status::success();
}

} // namespace

Expected<Reference> Reference::create(const Manifest &m, const GemmArgs &args,
                                      HostInputs inputs) {
  Reference r;
  r.nodes_ = m.nodes;
  r.args_ = args;
  r.in_ = std::move(inputs);
  r.dType_ = m.operand("D").dtype;
  r.srcSkipped_ = sourceSkipped(m, args);
  r.dReduce_ = m.dReduce();
  const int64_t M = args.M, N = args.N, K = args.K, L = args.L;
  // A reducing store combines with D's old values.
  if (r.dReduce_ != StoreReduce::None)
    WSGEMM_TRY(checkMatrixInput("operand", "D (before the launch)", r.in_.D,
                                matrixGeometry(m, "D", args)));

  WSGEMM_TRY(
      checkMatrixInput("operand", "A", r.in_.A, matrixGeometry(m, "A", args)));
  WSGEMM_TRY(
      checkMatrixInput("operand", "B", r.in_.B, matrixGeometry(m, "B", args)));

  // Pack A as [l][m][k] and B as [l][n][k].
  bool aKMajor = m.operand("A").layout == Layout::KMajor;
  bool bKMajor = m.operand("B").layout == Layout::KMajor;
  r.aBatches_ = r.in_.A.geometry.batches;
  r.bBatches_ = r.in_.B.geometry.batches;
  r.aPacked_.resize(static_cast<size_t>(r.aBatches_ * M * K));
  r.bPacked_.resize(static_cast<size_t>(r.bBatches_ * N * K));
  for (int64_t l = 0; l < r.aBatches_; ++l)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k)
        r.aPacked_[static_cast<size_t>((l * M + i) * K + k)] =
            static_cast<float>(aKMajor ? r.in_.A.at(i, k, l)
                                       : r.in_.A.at(k, i, l));
  for (int64_t l = 0; l < r.bBatches_; ++l)
    for (int64_t j = 0; j < N; ++j)
      for (int64_t k = 0; k < K; ++k)
        r.bPacked_[static_cast<size_t>((l * N + j) * K + k)] =
            static_cast<float>(bKMajor ? r.in_.B.at(j, k, l)
                                       : r.in_.B.at(k, j, l));
  // Free the unpacked copies: only the packed ones are read from now on.
  r.in_.A.data.clear();
  r.in_.A.data.shrink_to_fit();
  r.in_.B.data.clear();
  r.in_.B.data.shrink_to_fit();

  r.scalarNodeValue_.assign(r.nodes_.size(), 0.0);
  r.auxIn_.assign(r.nodes_.size(), nullptr);
  r.vecIn_.assign(r.nodes_.size(), nullptr);
  r.vecExtent_.assign(r.nodes_.size(), {});
  r.vecSizes_.assign(r.nodes_.size(), {});
  auto scalar = [&](const std::string &name) -> Expected<double> {
    auto it = r.in_.scalars.find(name);
    if (it == r.in_.scalars.end())
      return errorf("scalar ", name, ": no host value");
    return it->second;
  };
  for (const EvtNode &n : r.nodes_) {
    size_t i = static_cast<size_t>(n.id);
    if (evtOpInfo(n.op).kind == EvtOpKind::Reduction) {
      const Param *p = m.findParam(n.name);
      r.reductions_.push_back(
          {n.name, n.reduce, n.op, p->extent, extentSizes(p->extent, args, m)});
      continue;
    }
    switch (n.op) {
    case EvtOp::LoadSrc:
      if (!r.srcSkipped_)
        WSGEMM_TRY(checkMatrixInput("operand", "C", r.in_.C,
                                    matrixGeometry(m, "C", args)));
      break;
    case EvtOp::Scalar: {
      double v = n.source == ScalarSource::Attr ? n.value : 1.0;
      for (const std::string &name : n.names) {
        auto s = scalar(name);
        if (!s)
          return s.status();
        v *= *s;
      }
      r.scalarNodeValue_[i] = v;
      break;
    }
    case EvtOp::LoadVecM:
    case EvtOp::LoadVecN: {
      auto it = r.in_.vectors.find(n.name);
      if (it == r.in_.vectors.end())
        return errorf("vector ", n.name, ": no host data");
      const Param *p = m.findParam(n.name);
      int64_t need = extentElements(p->extent, args, m);
      if (static_cast<int64_t>(it->second.size()) < need)
        return errorf("vector ", n.name, ": host data has ", it->second.size(),
                      " elements, its extent needs ", need);
      r.vecIn_[i] = &it->second;
      r.vecExtent_[i] = p->extent;
      r.vecSizes_[i] = extentSizes(p->extent, args, m);
      break;
    }
    case EvtOp::AuxLoad: {
      auto it = r.in_.aux.find(n.name);
      if (it == r.in_.aux.end())
        return errorf("aux ", n.name, ": no host data");
      WSGEMM_TRY(checkMatrixInput("aux", n.name, it->second,
                                  matrixGeometry(m, n.name, args)));
      r.auxIn_[i] = &it->second;
      break;
    }
    case EvtOp::AuxStore:
      r.auxOut_.push_back({n.name, n.dtype, n.rounding});
      break;
    default:
      break;
    }
  }
  // Block scales, with the sizes their extents need.
  if (m.blockScaled()) {
    for (const char *op : {"A", "B"}) {
      const Param *p = m.findBlockScale(op);
      auto it = r.in_.vectors.find(p->name);
      if (it == r.in_.vectors.end())
        return errorf("block scales ", p->name, ": no host data");
      int64_t need = extentElements(p->extent, args, m);
      if (static_cast<int64_t>(it->second.size()) < need)
        return errorf("block scales ", p->name, ": host data has ",
                      it->second.size(), " elements, its extent needs ", need);
      bool batched = std::find(p->extent.begin(), p->extent.end(), Dim::L) !=
                     p->extent.end();
      (op[0] == 'A' ? r.scaleA_ : r.scaleB_) = &it->second;
      (op[0] == 'A' ? r.scaleABatched_ : r.scaleBBatched_) = batched;
    }
  }
  // skip_if_zero scalars must have values too.
  for (const EvtNode &n : r.nodes_)
    if (n.op == EvtOp::LoadSrc && !n.skipIfZero.empty() &&
        !r.in_.scalars.count(n.skipIfZero))
      return errorf("scalar ", n.skipIfZero, ": no host value");
  (void)N;
  (void)L;
  return Expected<Reference>(std::move(r));
}

template <typename F>
double Reference::blockSum(int64_t m, int64_t n, int64_t l, int64_t k0,
                           int64_t k1, F f) const {
  const int64_t M = args_.M, N = args_.N, K = args_.K;
  const float *a = aPacked_.data() + ((aBatches_ > 1 ? l : 0) * M + m) * K;
  const float *b = bPacked_.data() + ((bBatches_ > 1 ? l : 0) * N + n) * K;
  double s = 0;
  for (int64_t k = k0; k < k1; ++k)
    s += f(double(a[k]) * double(b[k]));
  return s;
}

double Reference::blockScale(int64_t m, int64_t n, int64_t l,
                             int64_t kb) const {
  const int64_t M = args_.M, KB = (args_.K + 127) / 128,
                NB = (args_.N + 127) / 128;
  double sa = (*scaleA_)[static_cast<size_t>(
      ((scaleABatched_ ? l : 0) * KB + kb) * M + m)];
  double sb = (*scaleB_)[static_cast<size_t>(
      ((scaleBBatched_ ? l : 0) * NB + n / 128) * KB + kb)];
  return sa * sb;
}

double Reference::accumulatorTermRms(int64_t m, int64_t n, int64_t l) const {
  auto square = [](double x) { return x * x; };
  double sum = 0;
  for (int64_t k0 = 0, kb = 0; k0 < args_.K; k0 += 128, ++kb) {
    double s = blockScaled() ? blockScale(m, n, l, kb) : 1.0;
    sum += s * s * blockSum(m, n, l, k0, std::min(k0 + 128, args_.K), square);
  }
  return std::sqrt(sum);
}

double Reference::accumulator(int64_t m, int64_t n, int64_t l) const {
  if (blockScaled()) {
    // Each 128-wide K block's sum times its scales, in double (the
    // product of the two f32 scales is exact there).
    double acc = 0;
    for (int64_t k0 = 0, kb = 0; k0 < args_.K; k0 += 128, ++kb)
      acc += blockScale(m, n, l, kb) *
             blockSum(m, n, l, k0, std::min(k0 + 128, args_.K),
                      [](double x) { return x; });
    return acc;
  }
  const int64_t M = args_.M, N = args_.N, K = args_.K;
  const float *a = aPacked_.data() + ((aBatches_ > 1 ? l : 0) * M + m) * K;
  const float *b = bPacked_.data() + ((bBatches_ > 1 ? l : 0) * N + n) * K;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t k = 0;
  for (; k + 4 <= K; k += 4) {
    s0 += double(a[k]) * double(b[k]);
    s1 += double(a[k + 1]) * double(b[k + 1]);
    s2 += double(a[k + 2]) * double(b[k + 2]);
    s3 += double(a[k + 3]) * double(b[k + 3]);
  }
  for (; k < K; ++k)
    s0 += double(a[k]) * double(b[k]);
  return (s0 + s1) + (s2 + s3);
}

ElementResult Reference::evaluate(int64_t m, int64_t n, int64_t l) const {
  ElementResult out;
  evaluateWithAcc(accumulator(m, n, l), m, n, l, out);
  return out;
}

void Reference::evaluateWithAcc(double acc, int64_t m, int64_t n, int64_t l,
                                ElementResult &out) const {
  out.acc = acc;
  out.aux.assign(auxOut_.size(), 0.0);
  out.auxExact.assign(auxOut_.size(), 0.0);
  out.reduce.assign(reductions_.size(), 0.0);
  out.branches = 0;
  size_t auxI = 0, redI = 0;
  // Small graphs: a stack buffer avoids an allocation per element.
  double stackVals[64];
  std::vector<double> heapVals;
  double *v = stackVals;
  if (nodes_.size() > 64) {
    heapVals.resize(nodes_.size());
    v = heapVals.data();
  }
  for (const EvtNode &node : nodes_) {
    size_t i = static_cast<size_t>(node.id);
    auto arg = [&](int k) { return v[node.args[static_cast<size_t>(k)]]; };
    double r = 0;
    switch (node.op) {
    case EvtOp::Acc:
      r = acc;
      break;
    case EvtOp::LoadSrc:
      r = srcSkipped_ ? 0.0 : in_.C.atMN(m, n, l);
      if (!srcSkipped_ && !node.skipIfZero.empty() &&
          in_.scalars.at(node.skipIfZero) == 0.0)
        r = 0.0;
      break;
    case EvtOp::Scalar:
      r = scalarNodeValue_[i];
      break;
    case EvtOp::LoadVecM:
    case EvtOp::LoadVecN:
      r = (*vecIn_[i])[static_cast<size_t>(
          extentIndex(vecExtent_[i], vecSizes_[i], m, n, l))];
      break;
    case EvtOp::AuxLoad: {
      const HostMatrix &h = *auxIn_[i];
      r = h.atMN(m, n, h.geometry.batches > 1 ? l : 0);
      break;
    }
    case EvtOp::Const:
      r = node.value;
      break;
      // Every op that computes its value from its arguments: the formula
      // of EvtOps.def (x, or a, b, c, and the node's fields).
#define WSGEMM_EVT_UNARY(Enum, Name, Accuracy, Expr)                           \
  case EvtOp::Enum: {                                                          \
    const double x = arg(0);                                                   \
    r = Expr;                                                                  \
    break;                                                                     \
  }
      // Activations: with their parameters, launch-time ones read from
      // their arguments' values.
#define WSGEMM_EVT_ACTIVATION(Enum, Name, Accuracy, Blas, Expr)                \
  case EvtOp::Enum: {                                                          \
    const double x = arg(0);                                                   \
    const ActivationParams p = bindActivationParams(node, v);                  \
    r = Expr;                                                                  \
    break;                                                                     \
  }
#define WSGEMM_EVT_BINARY(Enum, Name, Expr)                                    \
  case EvtOp::Enum: {                                                          \
    const double a = arg(0), b = arg(1);                                       \
    r = Expr;                                                                  \
    break;                                                                     \
  }
#define WSGEMM_EVT_TERNARY(Enum, Name, Expr)                                   \
  case EvtOp::Enum: {                                                          \
    const double a = arg(0), b = arg(1), c = arg(2);                           \
    r = Expr;                                                                  \
    break;                                                                     \
  }
#include "ws-gemm-runtime/EvtOps.def"
    case EvtOp::Store:
      out.dExact = arg(0);
      out.d = roundTo(node.dtype, arg(0), node.rounding);
      // A reducing store: the converted value meets D's old one in D's
      // type (PTX's add rounds to nearest; min and max are exact and
      // return the number when one side is NaN).
      if (dReduce_ != StoreReduce::None) {
        const double old = in_.D.atMN(m, n, l);
        if (dReduce_ == StoreReduce::Add)
          out.d = roundTo(node.dtype, old + out.d, Rounding::RN);
        else
          out.d = dReduce_ == StoreReduce::Min ? std::fmin(old, out.d)
                                               : std::fmax(old, out.d);
      }
      break;
    case EvtOp::AuxStore:
      out.auxExact[auxI] = arg(0);
      out.aux[auxI] = roundTo(node.dtype, arg(0), node.rounding);
      ++auxI;
      break;
#define WSGEMM_EVT_REDUCTION(Enum, Name) case EvtOp::Enum:
#include "ws-gemm-runtime/EvtOps.def"
      out.reduce[redI++] = arg(0);
      break;
    }
    // The side of each jump the element took (Verify.cpp compares elements
    // whose accumulator rounding could take the other side with both).
    if (node.op == EvtOp::ThresholdRelu)
      out.branches =
          out.branches * 2 +
          (arg(0) <= bindActivationParams(node, v).threshold ? 1 : 0);
    else if (node.op == EvtOp::Cmp)
      out.branches = out.branches * 2 + (r != 0.0 ? 1 : 0);
    v[i] = r;
  }
}

int64_t Reference::reductionSize(size_t r) const {
  int64_t n = 1;
  for (int64_t s : reductions_[r].sizes)
    n *= s;
  return n;
}

int64_t Reference::reductionIndex(size_t r, int64_t m, int64_t n,
                                  int64_t l) const {
  const ReductionInfo &info = reductions_[r];
  return extentIndex(info.extent, info.sizes, m, n, l);
}

} // namespace wsgemm::runtime
