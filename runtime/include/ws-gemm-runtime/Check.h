//===- Check.h - Tolerances and error statistics for verification -*- C++
//-*-===//
//
// The rule ws-gemm-run checks outputs with (also in runtime/README.md):
//
//   |out - ref| <= rtol * |ref| + atol        for every checked element
//   rtol = 2 u_out + e_acc + e_epi            (2 u_out = one ulp of out)
//   atol = (u_out + e_acc + e_epi) * rms(ref) (cancellation near zero)
//          + q_out                            (one subnormal step of out)
//   u_out = unit roundoff of the output dtype (f16 2^-11, bf16 2^-8,
//           f32 2^-24, f8e4m3 2^-4, f8e5m2 2^-3)
//   q_out = its smallest subnormal (f8e4m3 2^-9, f8e5m2 2^-16, f16 2^-24)
//   e_acc = 2^-22 sqrt(K) for 16-bit inputs, 2^-12 sqrt(K) for fp8 inputs
//           (f32 accumulation over K terms; Hopper's fp8 wgmma accumulates
//           with fewer bits)
//
// Why one ulp of out, derived for any output format (the fp8 ones
// included): the kernel and the reference each round once, the kernel
// from x (its f32 epilogue value), the reference from y (the exact
// double value), with |x - y| <= d = (e_acc + e_epi)(|y| + rms). Rounding
// to nearest is monotone, so round(x) and round(y) are at most one step of
// the format apart beyond d: |round(x) - round(y)| <= d + ulp(y), and a
// format with m mantissa bits has ulp(y) <= 2^-m |y| = 2 u_out |y| for
// normal y and ulp(y) = q_out below the smallest normal. satfinite (fp8)
// clamps to +-max finite, which is monotone and 1-Lipschitz too, so
// saturated values obey the same bound; NaN must meet NaN.
// e_acc for fp8: Hopper's fp8 wgmma keeps about 14 bits of its running
// sum (DeepSeek-V3 report, section 3.3.2, measured on H800), an error of
// 2^-14 of the partial sum per k32 step that grows like a random walk
// over K / 32 steps; 2^-12 sqrt(K) bounds it with a factor 4 * sqrt(32)
// to spare (the promoted mode, accum_promotion, only adds less).
//   e_epi = 2^-9 when the EVT uses tanh, gelu_taylor or a node marked
//           `approx` (fastmath<afn>), else 2^-19 (a few f32 roundings).
//           tanh.approx.f32 has a 2^-11 relative error, which becomes
//           absolute where a formula adds it to 1 (1 + tanh(u) near
//           u << 0: up to 2^-12 |x| in gelu's and silu's tanh forms), and
//           gelu with afn is the tanh form, within 4.7e-4 of erf's: 2^-9
//           covers both through the rms term for |x| up to ~4 rms.
//
// Block scaling (fp8, docs/fp8.md): acc = sum_kb s_kb P_kb, P_kb the
// wgmma partial of K block kb and s_kb = scale_a(m, kb) scale_b(n/128, kb),
// which ws-gemm-run draws from [2^-8, 2^8] each, so s_kb spans 2^32
// between elements and blocks. The error of each partial is relative to
// the magnitude of the terms it sums (the e_acc random walk above), so an
// element's accumulation error scales with its own term magnitude
//   t(m, n) = sqrt(sum_kb s_kb^2 sum_{k in kb} (a_k b_k)^2)
// (the rms that a sum of those terms with random signs has), not with the
// matrix's rms(ref): an element whose scales are 2^8 times the typical
// carries 2^8 times the typical error. The rms term of atol is therefore
// scaled per element by w = max(1, t / rms(t)), rms(t) over the checked
// elements (w = 1 where the scales are uniform: the rule above). What the
// kernel adds besides: s_kb rounded to f32 once (2^-24) and one fma
// rounding (2^-24 of the running total) per K block, K/128 of them: below
// the 2^-22 sqrt(K) part of e_acc.
//
// Reductions (f32 outputs) over values x_i (the EVT's f32 values, each
// within d_i = (e_acc + e_epi)(|y_i| + rms) of its exact y_i as above, rms
// here the rms of the y_i reduced):
//   sum:            |out - ref| <= sum d_i + 2^-22 sqrt(count) sum |x_i|
//                   (f32 atomics and partial sums in any order)
//   max/min/absmax: |out - ref| <= max d_i + 2^-22 max |x_i|
//                   (max and min are 1-Lipschitz in the largest error)
// So a reduction is held to the bound of the elements it reduces, not to a
// tighter one: the max of a column at K = 65536 may be off by as much as
// that column's largest element may (issue 12's split-K test). Any NaN in
// an output fails unless the reference is NaN there too; infinities must
// match exactly.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_CHECK_H
#define WSGEMM_RUNTIME_CHECK_H

#include "ws-gemm-runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wsgemm::runtime {

struct Tolerance {
  double rtol = 0;
  double atolPerRms = 0; // atol = atolPerRms * rms(ref) + atolAbs
  double atolAbs = 0;    // q_out: one subnormal step of the output
  double eAcc = 0, eEpi = 0;
  std::string describe() const;
};

/// True when the EVT contains ops whose GPU lowering is approximate at
/// ~2^-11: Accuracy Approx in EvtOps.def (tanh, gelu_taylor) or a node
/// marked `approx` (an op with fastmath<afn>).
bool usesApproxTranscendentals(const Manifest &m);

/// Tolerance for a matrix output of dtype `out` (D or an aux store).
Tolerance outputTolerance(DType out, DType in, int64_t K, bool approx,
                          double eConvert = 0);

/// Extra relative error from rounding to narrower types inside the EVT
/// (epi.convert nodes): 2 units of roundoff per such node.
double intermediateRoundingError(const Manifest &m);

/// Per-element weights of the atol rms term under block scaling:
/// max(1, t_i / rms(t)) for the term magnitudes t_i of the checked elements
/// (Reference::accumulatorTermRms); empty in, empty out.
std::vector<double> termWeights(const std::vector<double> &termRms);

/// The tolerance of one element: rtol |ref| + atolPerRms rms weight +
/// atolAbs (weight 1 without block scaling).
inline double elementTolerance(const Tolerance &t, double ref, double rms,
                               double weight = 1.0) {
  return t.rtol * (ref < 0 ? -ref : ref) + t.atolPerRms * rms * weight +
         t.atolAbs;
}

/// Tolerance for one reduction output over `count` values x_i with sum
/// |x_i| = absSum, max |x_i| = absMax and rms(x_i) = rms.
double reductionTolerance(const Tolerance &t, ReduceKind kind, double absSum,
                          double absMax, double rms, int64_t count);

/// Where an element is, formatted only when it mismatches: "(m, n, l) =
/// (3, 4, 0)" or "[17]" (n < 0).
struct Where {
  int64_t m = 0, n = -1, l = 0;
  std::string str() const;
};

/// Accumulates ||out - ref||, ||ref||, max |out - ref| and mismatches for
/// one output. Two passes: addRef() over all references (for rms), then
/// compare().
class ErrorStats {
public:
  explicit ErrorStats(std::string name = "") : name_(std::move(name)) {}
  void addRef(double ref);
  /// Compares one element; returns false on a mismatch (recorded).
  bool compare(double out, double ref, const Tolerance &t, Where where);
  /// Compares with an explicit absolute tolerance (reductions).
  bool compareAbs(double out, double ref, double tol, Where where);
  double rms() const;
  double relativeError() const; // ||out - ref|| / ||ref||
  double maxAbsError() const { return maxAbs_; }
  int64_t checked() const { return checked_; }
  int64_t mismatches() const { return mismatches_; }
  int64_t nans() const { return nans_; }
  const std::string &firstMismatch() const { return first_; }
  const std::string &name() const { return name_; }
  double lastTolerance() const { return lastTol_; }

private:
  bool record(double out, double ref, double tol, Where where);
  std::string name_;
  double refSq_ = 0, refCount_ = 0, diffSq_ = 0, normRefSq_ = 0, maxAbs_ = 0;
  double lastTol_ = 0;
  int64_t checked_ = 0, mismatches_ = 0, nans_ = 0;
  std::string first_;
};

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_CHECK_H
