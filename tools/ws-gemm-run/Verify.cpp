//===- Verify.cpp - ws-gemm-run's comparison with the CPU reference -------===//
//
// Which elements are compared (all of them up to 2^20, otherwise random
// samples plus full rows and columns at both ends and at the last tile
// boundary, and a NaN scan of everything), the reference values of those
// elements (computed on all cores), and one report per output: D, each aux
// store and each reduction, with the tolerance of Check.h.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-run.h"

#include "ws-gemm-runtime/Check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <thread>
#include <tuple>

namespace wsgemm::runtool {

using namespace runtime;

namespace {

struct Coord {
  int64_t m, n, l;
};

template <typename F> void parallelFor(size_t n, F body) {
  size_t threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<size_t>(threads, std::max<size_t>(1, n / 64));
  std::vector<std::thread> pool;
  size_t chunk = (n + threads - 1) / threads;
  for (size_t t = 0; t < threads; ++t) {
    size_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e)
      pool.emplace_back(body, t, b, e);
  }
  for (std::thread &t : pool)
    t.join();
}

struct CheckPlan {
  bool full = false;
  std::vector<Coord> coords;                     // elements compared
  std::vector<std::pair<int64_t, int64_t>> rows; // (m, l) evaluated fully
  std::vector<std::pair<int64_t, int64_t>> cols; // (n, l) evaluated fully
};

CheckPlan planChecks(const Manifest &m, const Options &o) {
  CheckPlan p;
  const int64_t M = o.M, N = o.N, L = o.L;
  p.full = o.full || M * N * L <= (int64_t(1) << 20);
  if (p.full) {
    p.coords.reserve(static_cast<size_t>(M * N * L));
    for (int64_t l = 0; l < L; ++l)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j)
          p.coords.push_back({i, j, l});
    return p;
  }
  std::mt19937_64 rng(o.seed * 7919 + 17);
  std::set<int64_t> rowSet, colSet;
  // Both ends, and both sides of the last tile boundary (the ragged tile).
  int64_t lastTileM = (M - 1) / m.tile[0] * m.tile[0];
  int64_t lastTileN = (N - 1) / m.tile[1] * m.tile[1];
  for (int64_t r : {int64_t(0), lastTileM - 1, lastTileM, M - 1})
    if (r >= 0 && r < M)
      rowSet.insert(r);
  for (int64_t c : {int64_t(0), lastTileN - 1, lastTileN, N - 1})
    if (c >= 0 && c < N)
      colSet.insert(c);
  for (int i = 0; i < 4; ++i) {
    rowSet.insert(static_cast<int64_t>(rng() % uint64_t(M)));
    colSet.insert(static_cast<int64_t>(rng() % uint64_t(N)));
  }
  std::set<int64_t> batches = {0, L - 1};
  for (int64_t l : batches) {
    for (int64_t r : rowSet)
      p.rows.push_back({r, l});
    for (int64_t c : colSet)
      p.cols.push_back({c, l});
  }
  std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
  auto add = [&](int64_t i, int64_t j, int64_t l) {
    if (seen.insert({i, j, l}).second)
      p.coords.push_back({i, j, l});
  };
  for (auto [r, l] : p.rows)
    for (int64_t j = 0; j < N; ++j)
      add(r, j, l);
  for (auto [c, l] : p.cols)
    for (int64_t i = 0; i < M; ++i)
      add(i, c, l);
  for (int s = 0; s < o.samples; ++s)
    add(static_cast<int64_t>(rng() % uint64_t(M)),
        static_cast<int64_t>(rng() % uint64_t(N)),
        static_cast<int64_t>(rng() % uint64_t(L)));
  return p;
}

struct Outcome {
  bool pass = true;
  void fail() { pass = false; }
};

void printStats(const char *kind, const std::string &name, DType t,
                const ErrorStats &s, const std::string &tol, Outcome &out) {
  bool ok = s.mismatches() == 0 && s.nans() == 0;
  std::printf("%-4s %-10s %-6s rel %.3e  max abs %.3e  mismatches %lld/%lld"
              "  %s\n       tolerance: %s\n",
              kind, name.c_str(), dtypeName(t), s.relativeError(),
              s.maxAbsError(), static_cast<long long>(s.mismatches()),
              static_cast<long long>(s.checked()), ok ? "PASS" : "FAIL",
              tol.c_str());
  if (!ok) {
    std::printf("       first mismatch: %s\n", s.firstMismatch().c_str());
    if (s.nans())
      std::printf("       %lld NaN where the reference is finite (unwritten: "
                  "the 0xFF poison decodes as NaN)\n",
                  static_cast<long long>(s.nans()));
    out.fail();
  }
}

/// The comparisons of one run: each method reports one output.
class Verifier {
public:
  Verifier(const Manifest &m, const Options &o, const Reference &ref)
      : m_(m), o_(o), ref_(ref), plan_(planChecks(m, o)),
        approx_(usesApproxTranscendentals(m)),
        eConvert_(intermediateRoundingError(m)) {}

  const CheckPlan &plan() const { return plan_; }
  /// Block scaling: per checked element, the weight of the atol rms term
  /// (termWeights in Check.h).
  void setWeights(std::vector<double> w) { weights_ = std::move(w); }
  bool pass() const { return outcome_.pass; }

  /// The tolerance for an output of dtype t, with the --rtol/--atol-rms
  /// overrides.
  Tolerance tolerance(DType t) const {
    // A dequantized A (an fp8 weight included) is multiplied in B's type.
    const OperandInfo &a = m_.operand("A");
    Tolerance tol =
        outputTolerance(t, a.dequant ? m_.operand("B").dtype : a.dtype, o_.K,
                        approx_, eConvert_);
    if (o_.rtol >= 0)
      tol.rtol = o_.rtol;
    if (o_.atolRms >= 0)
      tol.atolPerRms = o_.atolRms;
    return tol;
  }

  /// D (auxIndex < 0) or aux store auxIndex: the planned elements against
  /// `refs`, then, when sampling, a NaN scan of every element.
  ///
  /// `alt` (EVTs with a jump: threshold_relu, cmp): per element the
  /// references for the accumulator moved by its rounding error either way,
  /// and `jump`: whether those took different sides of a jump. There the
  /// kernel may land on either side: it passes if it matches one of the
  /// three (counted and reported).
  ///
  /// `stored` (D reduced into, Manifest::dReduce): per element |y|, the
  /// value the kernel combined with D's old one. Its error (the rtol part
  /// of the bound, relative to y) and its rounding to D's type come on top
  /// of the combined result's: rtol * (|ref| + |y|) + atol.
  void matrix(const std::string &name, const HostMatrix &out,
              const std::vector<double> &refs, DType t, int auxIndex,
              const std::array<const std::vector<double> *, 2> &alt = {},
              const std::vector<char> *jump = nullptr,
              const std::vector<double> *stored = nullptr) {
    const char *kind = auxIndex < 0 ? "out" : "aux";
    Tolerance tol = tolerance(t);
    ErrorStats st(name);
    for (double r : refs)
      st.addRef(r);
    int64_t atJump = 0;
    double maxWeight = 1;
    for (size_t i = 0; i < plan_.coords.size(); ++i) {
      const Coord &c = plan_.coords[i];
      double got = out.atMN(c.m, c.n, c.l), want = refs[i];
      // Block scaling: the atol term follows the element's own term
      // magnitude (Check.h).
      double weight = weights_.empty() ? 1.0 : weights_[i];
      maxWeight = std::max(maxWeight, weight);
      if (alt[0] && alt[1] && jump) {
        auto bound = [&](double r) {
          return tol.rtol * std::fabs(r) + tol.atolPerRms * st.rms() * weight;
        };
        auto within = [&](double r) { return std::fabs(got - r) <= bound(r); };
        double lo = (*alt[0])[i], hi = (*alt[1])[i];
        if ((*jump)[i] && !within(want) && (within(lo) || within(hi))) {
          want = within(lo) ? lo : hi;
          ++atJump;
        }
      }
      double bound = elementTolerance(tol, want, st.rms(), weight);
      if (stored)
        bound += tol.rtol * (*stored)[i];
      st.compareAbs(got, want, bound, Where{c.m, c.n, c.l});
    }
    char rms[160];
    std::snprintf(rms, sizeof rms, " = %.3g*|ref|%s + %.3g", tol.rtol,
                  stored ? " (+ the same of |stored value|)" : "",
                  tol.atolPerRms * st.rms() + tol.atolAbs);
    if (!weights_.empty())
      std::snprintf(rms + std::strlen(rms), sizeof rms - std::strlen(rms),
                    " (block scaling: rms term x max(1, t/rms(t)), up to "
                    "x%.3g)",
                    maxWeight);
    printStats(kind, name, t, st, tol.describe() + rms, outcome_);
    if (atJump)
      std::printf("       %lld element(s) at a jump of the EVT (threshold or "
                  "comparison within the accumulator's rounding error) "
                  "matched the reference for acc -/+ that error\n",
                  static_cast<long long>(atJump));
    if (!plan_.full)
      nanScan(out, auxIndex);
  }

  /// Reduction r of the reference against the kernel's outputs (`reds`,
  /// by name).
  void reduction(size_t r,
                 const std::map<std::string, std::vector<double>> &reds);

private:
  void nanScan(const HostMatrix &out, int auxIndex);

  const Manifest &m_;
  const Options &o_;
  const Reference &ref_;
  CheckPlan plan_;
  bool approx_;
  double eConvert_;
  std::vector<double> weights_;
  Outcome outcome_;
};

void Verifier::nanScan(const HostMatrix &out, int auxIndex) {
  // Every element must have been written: scan for NaN, and let the
  // reference decide whether a NaN is legitimate.
  const MatrixGeometry &g = out.geometry;
  int64_t bad = 0;
  std::string first;
  for (int64_t l = 0; l < g.batches && bad < 1000; ++l)
    for (int64_t r = 0; r < g.rows && bad < 1000; ++r)
      for (int64_t col = 0; col < g.cols; ++col) {
        if (!std::isnan(out.at(r, col, l)))
          continue;
        // The element's (m, n): a column-major D stores M along a row.
        bool columnMajor = g.colDim == Dim::M;
        int64_t em = columnMajor ? col : r, en = columnMajor ? r : col;
        ElementResult e = ref_.evaluate(em, en, l);
        double want = auxIndex < 0 ? e.d : e.aux[static_cast<size_t>(auxIndex)];
        if (std::isnan(want))
          continue;
        if (bad++ == 0)
          first = Where{em, en, l}.str();
      }
  if (bad) {
    std::printf("       NaN scan: %lld%s unwritten/NaN elements, first "
                "at %s  FAIL\n",
                static_cast<long long>(bad), bad >= 1000 ? "+" : "",
                first.c_str());
    outcome_.fail();
  } else {
    std::printf("       NaN scan: all %lld elements written\n",
                static_cast<long long>(g.rows * g.cols * g.batches));
  }
}

void Verifier::reduction(
    size_t r, const std::map<std::string, std::vector<double>> &reds) {
  const Reference &R = ref_;
  const Options &o = o_;
  const CheckPlan &cp = plan_;
  const ReductionInfo &info = R.reductions()[r];
  ReductionAccumulator acc;
  acc.init(info.kind, R.reductionSize(r));
  std::vector<char> checked(static_cast<size_t>(R.reductionSize(r)), 0);
  auto accumulate = [&](const std::vector<Coord> &coords) {
    size_t threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<ReductionAccumulator> parts(threads);
    for (auto &p : parts)
      p.init(info.kind, R.reductionSize(r));
    parallelFor(coords.size(), [&](size_t t, size_t b, size_t e) {
      ElementResult x;
      for (size_t i = b; i < e; ++i) {
        const Coord &c = coords[i];
        R.evaluateWithAcc(R.accumulator(c.m, c.n, c.l), c.m, c.n, c.l, x);
        parts[t].add(R.reductionIndex(r, c.m, c.n, c.l), x.reduce[r]);
      }
    });
    for (auto &p : parts)
      acc.merge(p);
    for (const Coord &c : coords)
      checked[static_cast<size_t>(R.reductionIndex(r, c.m, c.n, c.l))] = 1;
  };
  std::string scope = "all outputs";
  if (cp.full) {
    accumulate(cp.coords);
  } else if (info.op == EvtOp::ReduceToVecM || info.op == EvtOp::ReduceToVecN) {
    bool rows = info.op == EvtOp::ReduceToVecM;
    std::vector<Coord> coords;
    for (auto [x, l] : rows ? cp.rows : cp.cols)
      for (int64_t y = 0; y < (rows ? o.N : o.M); ++y)
        coords.push_back(rows ? Coord{x, y, l} : Coord{y, x, l});
    // Without L in the extent, an output sums over all batches: only
    // the single-batch case can be checked from a subset.
    bool hasL = std::find(info.extent.begin(), info.extent.end(), Dim::L) !=
                info.extent.end();
    if (!hasL && o.L > 1) {
      std::printf("red  %-10s %-6s not checked (sampled mode, extent "
                  "without L and L > 1; use --full)\n",
                  info.name.c_str(), reduceName(info.kind));
      return;
    }
    accumulate(coords);
    scope = "outputs of the full rows/columns";
  } else {
    if (o.M * o.N * o.L * o.K > (int64_t(1) << 37)) {
      std::printf("red  %-10s %-6s not checked (needs the full reference, "
                  "M*N*L*K > 2^37; use --full)\n",
                  info.name.c_str(), reduceName(info.kind));
      return;
    }
    std::vector<Coord> all;
    for (int64_t l = 0; l < o.L; ++l)
      for (int64_t i = 0; i < o.M; ++i)
        for (int64_t j = 0; j < o.N; ++j)
          all.push_back({i, j, l});
    accumulate(all);
  }
  Tolerance tol = tolerance(DType::F32);
  ErrorStats st(info.name);
  const std::vector<double> &got = reds.at(info.name);
  double worstTol = 0;
  for (size_t i = 0; i < checked.size(); ++i) {
    if (!checked[i])
      continue;
    double absMax = info.kind == ReduceKind::AbsMax ? acc.value[i]
                                                    : std::fabs(acc.value[i]);
    double t = reductionTolerance(tol, info.kind, acc.absSum[i], absMax,
                                  acc.rms(i), acc.count[i]);
    worstTol = std::max(worstTol, t);
    st.addRef(acc.value[i]);
    st.compareAbs(got[i], acc.value[i], t, Where{static_cast<int64_t>(i)});
  }
  char desc[128];
  std::snprintf(desc, sizeof desc, "%s, largest per-output tolerance %.3g",
                scope.c_str(), worstTol);
  printStats("red", info.name + "(" + reduceName(info.kind) + ")", DType::F32,
             st, desc, outcome_);
}

} // namespace

bool verifyOutputs(const Manifest &m, const Options &o, const Reference &R,
                   const std::map<std::string, HostMatrix> &outs,
                   const std::map<std::string, std::vector<double>> &reds) {
  Verifier v(m, o, R);
  const CheckPlan &cp = v.plan();
  std::printf("check: %s, %zu elements compared%s\n",
              cp.full ? "full" : "sampled", cp.coords.size(),
              cp.full ? ""
                      : " (random samples + full rows/columns at both ends "
                        "and the last tile boundary) + a NaN scan of every "
                        "element");

  // Reference values of the checked elements.
  const size_t nAux = R.auxOutputs().size();
  std::vector<double> refD(cp.coords.size());
  // D reduced into: |y| per element (Verifier::matrix's `stored`).
  const bool reduceD = m.dReduce() != StoreReduce::None;
  std::vector<double> storedD(reduceD ? cp.coords.size() : 0);
  std::vector<std::vector<double>> refAux(
      nAux, std::vector<double>(cp.coords.size()));
  parallelFor(cp.coords.size(), [&](size_t, size_t b, size_t e) {
    ElementResult r;
    for (size_t i = b; i < e; ++i) {
      const Coord &c = cp.coords[i];
      R.evaluateWithAcc(R.accumulator(c.m, c.n, c.l), c.m, c.n, c.l, r);
      refD[i] = r.d;
      if (reduceD)
        storedD[i] = std::fabs(r.dExact);
      for (size_t a = 0; a < nAux; ++a)
        refAux[a][i] = r.aux[a];
    }
  });

  // Block scaling: each element's term magnitude weights its atol.
  std::vector<double> weights;
  if (R.blockScaled()) {
    std::vector<double> terms(cp.coords.size());
    parallelFor(cp.coords.size(), [&](size_t, size_t b, size_t e) {
      for (size_t i = b; i < e; ++i)
        terms[i] = R.accumulatorTermRms(cp.coords[i].m, cp.coords[i].n,
                                        cp.coords[i].l);
    });
    weights = termWeights(terms);
    v.setWeights(weights);
  }

  // An EVT with a jump (threshold_relu, cmp) gets references for the
  // accumulator moved by its rounding error, e_acc * (|acc| + rms(acc)).
  bool jumps = false;
  for (const EvtNode &n : m.nodes)
    jumps |= n.op == EvtOp::ThresholdRelu || n.op == EvtOp::Cmp;
  std::array<std::vector<double>, 2> altD;
  std::array<std::vector<std::vector<double>>, 2> altAux;
  std::array<std::vector<uint64_t>, 2> sides;
  std::vector<char> atJump;
  if (jumps) {
    std::vector<double> acc(cp.coords.size());
    parallelFor(cp.coords.size(), [&](size_t, size_t b, size_t e) {
      for (size_t i = b; i < e; ++i)
        acc[i] = R.accumulator(cp.coords[i].m, cp.coords[i].n, cp.coords[i].l);
    });
    double sq = 0;
    for (double a : acc)
      sq += a * a;
    const double accRms = std::sqrt(sq / double(std::max<size_t>(1, acc.size())));
    const double eAcc = v.tolerance(m.operand("D").dtype).eAcc;
    for (int side = 0; side < 2; ++side) {
      altD[side].resize(cp.coords.size());
      sides[side].resize(cp.coords.size());
      altAux[side].assign(nAux, std::vector<double>(cp.coords.size()));
      parallelFor(cp.coords.size(), [&](size_t, size_t b, size_t e) {
        ElementResult r;
        for (size_t i = b; i < e; ++i) {
          const Coord &c = cp.coords[i];
          double d = eAcc * (std::fabs(acc[i]) +
                             accRms * (weights.empty() ? 1.0 : weights[i]));
          R.evaluateWithAcc(acc[i] + (side ? d : -d), c.m, c.n, c.l, r);
          altD[side][i] = r.d;
          sides[side][i] = r.branches;
          for (size_t a = 0; a < nAux; ++a)
            altAux[side][a][i] = r.aux[a];
        }
      });
    }
    atJump.resize(cp.coords.size());
    for (size_t i = 0; i < atJump.size(); ++i)
      atJump[i] = sides[0][i] != sides[1][i];
  }
  auto altOf = [&](int a) -> std::array<const std::vector<double> *, 2> {
    if (!jumps)
      return {};
    if (a < 0)
      return {&altD[0], &altD[1]};
    return {&altAux[0][size_t(a)], &altAux[1][size_t(a)]};
  };

  const std::vector<char> *jumpOf = jumps ? &atJump : nullptr;
  if (reduceD)
    std::printf("D is reduced into (%s): checked against D before the "
                "launch combined with the EVT's value\n",
                storeReduceName(m.dReduce()));
  v.matrix("D", outs.at("D"), refD, m.operand("D").dtype, -1, altOf(-1),
           jumpOf, reduceD ? &storedD : nullptr);
  for (size_t a = 0; a < nAux; ++a)
    v.matrix(R.auxOutputs()[a].name, outs.at(R.auxOutputs()[a].name), refAux[a],
             R.auxOutputs()[a].dtype, static_cast<int>(a),
             altOf(static_cast<int>(a)), jumpOf);
  for (size_t r = 0; r < R.reductions().size(); ++r)
    v.reduction(r, reds);
  return v.pass();
}

} // namespace wsgemm::runtool
