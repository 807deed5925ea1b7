//===- Check.cpp - Tolerances and error statistics ------------------------===//
//
// See Check.h for the tolerance rule and why each term is there.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wsgemm::runtime {

std::string Tolerance::describe() const {
  char buf[192];
  std::snprintf(buf, sizeof buf,
                "|out-ref| <= %.3g*|ref| + %.3g*rms(ref) + %.3g (e_acc %.2g, "
                "e_epi %.2g)",
                rtol, atolPerRms, atolAbs, eAcc, eEpi);
  return buf;
}

bool usesApproxTranscendentals(const Manifest &m) {
  for (const EvtNode &n : m.nodes)
    if (n.approx || evtOpInfo(n.op).accuracy == EvtAccuracy::Approx)
      return true;
  return false;
}

double intermediateRoundingError(const Manifest &m) {
  // A value rounded to a narrower type inside the EVT may land one ulp of
  // that type away from the reference's rounding of a slightly different
  // accumulator (directed modes even for tiny differences): allow 2 units
  // of roundoff of each such type.
  double e = 0;
  for (const EvtNode &n : m.nodes)
    if (n.op == EvtOp::Convert && n.dtype != DType::F32)
      e += 2 * dtypeUnitRoundoff(n.dtype);
  return e;
}

Tolerance outputTolerance(DType out, DType in, int64_t K, bool approx,
                          double eConvert) {
  Tolerance t;
  double u = dtypeUnitRoundoff(out);
  bool fp8 = in == DType::F8E4M3 || in == DType::F8E5M2;
  t.eAcc = std::ldexp(1.0, fp8 ? -12 : -22) * std::sqrt(double(K));
  t.eEpi = std::ldexp(1.0, approx ? -9 : -19) + eConvert;
  t.rtol = 2 * u + t.eAcc + t.eEpi;
  t.atolPerRms = u + t.eAcc + t.eEpi;
  t.atolAbs = dtypeMinSubnormal(out);
  return t;
}

double reductionTolerance(const Tolerance &t, ReduceKind kind, double absSum,
                          double absMax, double rms, int64_t count) {
  double e = t.eAcc + t.eEpi;
  if (kind == ReduceKind::Sum)
    return e * (absSum + double(count) * rms) +
           std::ldexp(1.0, -22) * std::sqrt(double(count)) * absSum;
  return e * (absMax + rms) + std::ldexp(1.0, -22) * absMax;
}

std::vector<double> termWeights(const std::vector<double> &termRms) {
  double sq = 0;
  int64_t count = 0;
  for (double t : termRms)
    if (std::isfinite(t)) {
      sq += t * t;
      ++count;
    }
  double rms = count ? std::sqrt(sq / double(count)) : 0.0;
  std::vector<double> w(termRms.size(), 1.0);
  for (size_t i = 0; i < w.size(); ++i)
    if (rms > 0 && std::isfinite(termRms[i]))
      w[i] = std::max(1.0, termRms[i] / rms);
  return w;
}

void ErrorStats::addRef(double ref) {
  if (std::isfinite(ref)) {
    refSq_ += ref * ref;
    refCount_ += 1;
  }
}

double ErrorStats::rms() const {
  return refCount_ > 0 ? std::sqrt(refSq_ / refCount_) : 0.0;
}

double ErrorStats::relativeError() const {
  if (normRefSq_ == 0)
    return diffSq_ == 0 ? 0.0 : INFINITY;
  return std::sqrt(diffSq_ / normRefSq_);
}

std::string Where::str() const {
  char buf[96];
  if (n < 0)
    std::snprintf(buf, sizeof buf, "[%lld]", static_cast<long long>(m));
  else
    std::snprintf(buf, sizeof buf, "(m, n, l) = (%lld, %lld, %lld)",
                  static_cast<long long>(m), static_cast<long long>(n),
                  static_cast<long long>(l));
  return buf;
}

bool ErrorStats::record(double out, double ref, double tol, Where where) {
  ++checked_;
  lastTol_ = tol;
  bool ok;
  char buf[256];
  if (std::isnan(out) || std::isnan(ref)) {
    ok = std::isnan(out) && std::isnan(ref);
    if (std::isnan(out) && !std::isnan(ref))
      ++nans_;
  } else if (std::isinf(out) || std::isinf(ref)) {
    ok = out == ref;
  } else {
    double diff = std::fabs(out - ref);
    diffSq_ += diff * diff;
    normRefSq_ += ref * ref;
    maxAbs_ = std::max(maxAbs_, diff);
    ok = diff <= tol;
  }
  if (!ok) {
    if (mismatches_ == 0) {
      std::snprintf(buf, sizeof buf,
                    "%s: out %.9g, ref %.9g, |diff| %.3g > "
                    "tol %.3g",
                    where.str().c_str(), out, ref, std::fabs(out - ref), tol);
      first_ = buf;
    }
    ++mismatches_;
  }
  return ok;
}

bool ErrorStats::compare(double out, double ref, const Tolerance &t,
                         Where where) {
  double tol = elementTolerance(t, ref, rms());
  return record(out, ref, tol, where);
}

bool ErrorStats::compareAbs(double out, double ref, double tol, Where where) {
  return record(out, ref, tol, where);
}

} // namespace wsgemm::runtime
