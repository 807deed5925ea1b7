//===- Reference.h - CPU reference of a manifest's GEMM + EVT ----*- C++
//-*-===//
//
// Evaluates the manifest's epilogue graph in double for one output element
// (m, n, l): the accumulator is the exact dot product of the (decoded) A and
// B values, computed in double; every EVT op follows its formula in
// docs/manifest.md (activations as CUTLASS defines them); `convert`, `store`
// and `aux_store` round to their dtype with their rounding mode. Reductions
// are returned as per-element contributions; ReductionAccumulator combines
// them the way the kernel must. Reference methods are const and may be
// called from several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_REFERENCE_H
#define WSGEMM_RUNTIME_REFERENCE_H

#include "ws-gemm-runtime/Args.h"

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace wsgemm::runtime {

/// A host matrix, decoded to double; geometry as in MatrixGeometry (element
/// (r, c, l) at data[geometry.offset(r, c, l)]).
struct HostMatrix {
  MatrixGeometry geometry;
  std::vector<double> data;
  double at(int64_t r, int64_t c, int64_t l) const {
    return data[static_cast<size_t>(geometry.offset(r, c, l))];
  }
  /// Element (m, n) of an M x N matrix (C, D, aux) in either storage order.
  double atMN(int64_t m, int64_t n, int64_t l) const {
    return data[static_cast<size_t>(geometry.offsetMN(m, n, l))];
  }
};

struct HostInputs {
  HostMatrix A, B, C;
  /// D before the launch, for a kernel that reduces into D
  /// (Manifest::dReduce): the reference combines its values with D's.
  HostMatrix D;
  /// aux_load matrices by name.
  std::map<std::string, HostMatrix> aux;
  /// Vectors of `pointer` parameters by name, laid out per their extent
  /// (innermost first: [M, L] means index l * M + m).
  std::map<std::string, std::vector<double>> vectors;
  /// Values of `scalar` parameters and of what `scalar_pointer` parameters
  /// point to, by name.
  std::map<std::string, double> scalars;
};

struct AuxOutputInfo {
  std::string name;
  DType dtype = DType::F16;
  Rounding rounding = Rounding::RN;
};

struct ReductionInfo {
  std::string name;
  ReduceKind kind = ReduceKind::Sum;
  EvtOp op = EvtOp::ReduceToScalar;
  std::vector<Dim> extent;
  /// The value of each dim of `extent` (dimValue), fixed by create().
  std::vector<int64_t> sizes;
};

/// Everything one output element produces.
struct ElementResult {
  double acc = 0;
  double dExact = 0;                 // the value reaching the store, unrounded
  double d = 0;                      // rounded to D's dtype; with a reducing
                                     // store, D's old value combined with it
  std::vector<double> auxExact, aux; // per Reference::auxOutputs()
  std::vector<double> reduce;        // contribution per Reference::reductions()
  uint64_t branches = 0; // which side of each threshold_relu / cmp jump
};

class Reference {
public:
  /// Checks that `inputs` holds everything the EVT reads, with sizes that
  /// match args (M, N, K, L, leading dimensions), and prepares the packed
  /// operands for fast dot products.
  static Expected<Reference> create(const Manifest &m, const GemmArgs &args,
                                    HostInputs inputs);

  /// sum_k A(m, k, l) * B(k, n, l), in double. With block scaling
  /// (Manifest::blockScaled), sum over the 128-wide K blocks kb of
  /// scale_a(m, kb) * scale_b(n / 128, kb) * (the block's sum).
  double accumulator(int64_t m, int64_t n, int64_t l) const;
  /// The magnitude of the terms summed into the accumulator, as the rms a
  /// sum of them with random signs would have: sqrt(sum_k s_k^2 (A B)^2),
  /// s_k the block scales of k's block (1 without block scaling). Block
  /// scales make it differ between elements by up to 2^32 (Check.h).
  double accumulatorTermRms(int64_t m, int64_t n, int64_t l) const;
  /// Whether the accumulator applies block scales.
  bool blockScaled() const { return scaleA_ != nullptr; }
  ElementResult evaluate(int64_t m, int64_t n, int64_t l) const;
  /// The EVT for a given accumulator value (used by tests and by callers that
  /// computed the accumulator themselves).
  void evaluateWithAcc(double acc, int64_t m, int64_t n, int64_t l,
                       ElementResult &out) const;

  const std::vector<AuxOutputInfo> &auxOutputs() const { return auxOut_; }
  const std::vector<ReductionInfo> &reductions() const { return reductions_; }
  /// Number of outputs of reduction r and where (m, n, l) contributes.
  int64_t reductionSize(size_t r) const;
  int64_t reductionIndex(size_t r, int64_t m, int64_t n, int64_t l) const;
  DType dType() const { return dType_; }
  const GemmArgs &args() const { return args_; }

  Reference(Reference &&) = default;
  Reference &operator=(Reference &&) = default;
  // Holds pointers into its own inputs: moving is fine, copying is not.
  Reference(const Reference &) = delete;
  Reference &operator=(const Reference &) = delete;

private:
  Reference() = default;
  std::vector<EvtNode> nodes_;
  GemmArgs args_;
  HostInputs in_;
  DType dType_ = DType::F16;
  StoreReduce dReduce_ = StoreReduce::None;
  std::vector<float> aPacked_, bPacked_; // [l][m][k] and [l][n][k]
  int64_t aBatches_ = 1, bBatches_ = 1;
  // Block scaling: scale_a [M, KB(, L)], scale_b [KB, NB(, L)] (null
  // without); whether they have L.
  const std::vector<double> *scaleA_ = nullptr, *scaleB_ = nullptr;
  bool scaleABatched_ = false, scaleBBatched_ = false;
  /// Sum over one K block's k of f(a_k * b_k), for element (m, n, l).
  template <typename F>
  double blockSum(int64_t m, int64_t n, int64_t l, int64_t k0, int64_t k1,
                  F f) const;
  /// scale_a * scale_b of K block kb for element (m, n, l).
  double blockScale(int64_t m, int64_t n, int64_t l, int64_t kb) const;
  std::vector<AuxOutputInfo> auxOut_;
  std::vector<ReductionInfo> reductions_;
  std::vector<double> scalarNodeValue_;            // per node (scalar nodes)
  std::vector<const HostMatrix *> auxIn_;          // per node (aux_load)
  std::vector<const std::vector<double> *> vecIn_; // per node (load_vec_*)
  // Per node (load_vec_*): its extent and the values of its dims.
  std::vector<std::vector<Dim>> vecExtent_;
  std::vector<std::vector<int64_t>> vecSizes_;
  bool srcSkipped_ = false;
};

/// Folds x into acc per the reduction kind (absmax folds |x|).
double reduceCombine(ReduceKind k, double acc, double x);

/// Aggregates reduction contributions per output index, also tracking
/// sum |x|, sum x^2 (finite x) and the count (they feed the tolerance).
struct ReductionAccumulator {
  ReduceKind kind = ReduceKind::Sum;
  std::vector<double> value, absSum, sumSq;
  std::vector<int64_t> count;
  void init(ReduceKind k, int64_t size);
  void add(int64_t index, double x);
  /// rms of the values folded into output `i`.
  double rms(size_t i) const {
    return count[i] > 0 ? std::sqrt(sumSq[i] / double(count[i])) : 0.0;
  }
  /// Combines another accumulator of the same shape (for threading).
  void merge(const ReductionAccumulator &other);
};

/// The formula of an activation op (EvtOps.def) at x, with the node's
/// fields; NaN for an op that is not an activation. Exposed for tests.
double evalActivation(EvtOp op, double x, const EvtNode &node);
/// The activation `op` of `x` with the parameters `p` (launch-time ones
/// bound: bindActivationParams, Evt.h).
double evalActivation(EvtOp op, double x, const ActivationParams &p);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_REFERENCE_H
