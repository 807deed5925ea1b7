//===- Shape.cpp - Tune one shape: verify, then alternating timed rounds --===//
//
// The same method as ws-gemm-bench: rotating buffer sets that together
// exceed 2.5x the L2, --warmup untimed launches then --iters launches each
// between a pair of driver events (timeLaunches), the median of a block,
// the SM clock sampled through NVML during the block. Candidates take turns
// in rounds (round 1: every candidate once, round 2: again in the reverse
// order, ...), so clock drift hits all of them; a candidate's time is the
// median over its rounds. The fastest few then meet in a final, scored by
// their time over the leader's in the same round (Final.h).
// Before any timing each candidate runs once on poisoned outputs and is
// compared with the CPU reference (ws-gemm-run's check); a wrong one is
// reported loudly and never timed.
//
//===----------------------------------------------------------------------===//

#include "Final.h"
#include "Tune.h"

#include "../ws-gemm-bench/SmClock.h"
#include "../ws-gemm-bench/ws-gemm-bench.h"
#include "../ws-gemm-run/ws-gemm-run.h"

#include "ws-gemm-runtime/Kernel.h"
#include "ws-gemm-runtime/Problem.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

namespace wsgemm::tune {

using namespace runtime;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

namespace {

struct Candidate {
  int variant = -1;
  std::shared_ptr<const Kernel> kernel;
  std::vector<LaunchPlan> plans;
  std::vector<double> ms, tflops, mhz;
};

/// Launches once on set 0 (poisoned outputs) and compares with `ref`.
Expected<bool> verify(const Options &o, const Shape &s, Candidate &c,
                      TestProblem &set, const Reference &ref,
                      CUstream stream) {
  WSGEMM_TRY(set.resetOutputs());
  WSGEMM_TRY(c.kernel->launch(c.plans[0], stream));
  WSGEMM_TRY(cuCheck(cuStreamSynchronize(stream), "verification launch"));
  std::map<std::string, HostMatrix> outs;
  for (const std::string &name : set.outputMatrices()) {
    auto h = set.downloadMatrix(name);
    if (!h)
      return h.status();
    outs[name] = std::move(*h);
  }
  std::map<std::string, std::vector<double>> reds;
  for (const std::string &name : set.reductions()) {
    auto r = set.downloadReduction(name);
    if (!r)
      return r.status();
    reds[name] = std::move(*r);
  }
  bool pass = true;
  if (Status g = set.checkGuards(); !g.ok()) {
    std::printf("  guards: %s\n", g.message().c_str());
    pass = false;
  }
  runtool::Options ro;
  ro.M = s.M;
  ro.N = s.N;
  ro.K = s.K;
  ro.L = s.L;
  ro.seed = o.seed;
  pass &= runtool::verifyOutputs(c.kernel->manifest(), ro, ref, outs, reds);
  return pass;
}

} // namespace

Expected<ShapeResult> tuneShape(const Options &o, const Family &f,
                                const std::vector<int> &candidates,
                                const Shape &s, Clock::time_point start,
                                Clock::time_point deadline, size_t shapesLeft,
                                std::vector<int> &checked) {
  ShapeResult result;
  result.entry.shape = s;
  const std::string label = shapeString(s);
  auto stream = Stream::create();
  if (!stream)
    return stream.status();
  const auto setup0 = Clock::now();

  // Buffer sets (any variant's manifest: they take the same arguments).
  const Manifest &m0 = f.variants[candidates[0]].manifest;
  ProblemOptions po;
  po.M = s.M;
  po.N = s.N;
  po.K = s.K;
  po.L = s.L;
  po.seed = o.seed;
  po.scalars = o.scalars;
  std::vector<TestProblem> sets;
  auto first = TestProblem::create(m0, po);
  if (!first)
    return first.status();
  const size_t setBytes = first->deviceBytes();
  sets.push_back(std::move(*first));
  auto dev = queryCurrentDevice();
  if (!dev)
    return dev.status();
  size_t freeBytes = 0, totalBytes = 0;
  WSGEMM_TRY(cuCheck(cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo"));
  const size_t l2 = static_cast<size_t>(dev->l2Bytes);
  size_t want = std::max<size_t>(1, (5 * l2 / 2 + setBytes - 1) / setBytes);
  size_t fit =
      std::max<size_t>(1, (freeBytes / 2) / std::max<size_t>(1, setBytes));
  size_t nsets = std::min<size_t>({want, fit, 256});
  po.keepHost = false;
  for (size_t i = 1; i < nsets; ++i) {
    auto p = TestProblem::create(m0, po);
    if (!p)
      return p.status();
    sets.push_back(std::move(*p));
  }
  // The CPU reference only when some candidate is checked on this shape.
  bool checkHere = o.verifyAll;
  for (int c : candidates)
    checkHere |= checked[static_cast<size_t>(c)] == 0;
  std::optional<Reference> ref;
  if (checkHere) {
    GemmArgs args0 = sets[0].args();
    auto r = Reference::create(m0, args0, sets[0].takeHost());
    if (!r)
      return Status(r.status()).prepend("reference");
    ref = std::move(*r);
  }
  std::printf("shape %s: %zu buffer set(s) of %.1f MiB rotated (%.1fx L2), "
              "%zu candidate(s)\n",
              label.c_str(), sets.size(), double(setBytes) / (1 << 20),
              double(setBytes * sets.size()) / double(std::max<size_t>(l2, 1)),
              candidates.size());

  // Load, prepare and verify each candidate.
  std::vector<Candidate> live;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const FamilyVariant &v = f.variants[candidates[i]];
    Candidate c;
    c.variant = candidates[i];
    auto t0 = Clock::now();
    auto k = ModuleCache::global().get(v.manifestPath);
    Status st = k ? Status::success() : k.status();
    if (st.ok()) {
      c.kernel = *k;
      for (TestProblem &p : sets) {
        auto plan = c.kernel->prepare(p.args());
        if (!plan) {
          st = plan.status();
          break;
        }
        c.plans.push_back(std::move(*plan));
      }
    }
    if (!st.ok()) {
      ++result.skipped;
      std::printf("[verify %zu/%zu] %s: SKIPPED: %s\n", i + 1,
                  candidates.size(), v.id.c_str(), st.message().c_str());
      continue;
    }
    int &seen = checked[static_cast<size_t>(candidates[i])];
    if (seen == -1) {
      ++result.skipped;
      std::printf("[verify %zu/%zu] %s: SKIPPED: wrong on an earlier shape\n",
                  i + 1, candidates.size(), v.id.c_str());
      continue;
    }
    if (seen == 1 && !o.verifyAll) {
      live.push_back(std::move(c));
      continue;
    }
    std::printf("[verify %zu/%zu] %s:\n", i + 1, candidates.size(),
                v.id.c_str());
    std::fflush(stdout);
    auto ok = verify(o, s, c, sets[0], *ref, stream->get());
    if (!ok)
      return Status(ok.status()).prepend(v.id);
    seen = *ok ? 1 : -1;
    if (!*ok) {
      ++result.wrong;
      std::printf("[verify %zu/%zu] %s: WRONG RESULTS: not timed (a compiler "
                  "bug: run ws-gemm-run on %s)\n",
                  i + 1, candidates.size(), v.id.c_str(),
                  v.manifestPath.c_str());
      std::fprintf(stderr, "ws-gemm-tune: WRONG: variant %s gives wrong "
                           "results on %s\n",
                   v.id.c_str(), label.c_str());
      continue;
    }
    std::printf("[verify %zu/%zu] %s: correct (%.1f s)\n", i + 1,
                candidates.size(), v.id.c_str(), secondsSince(t0));
    live.push_back(std::move(c));
  }
  if (live.empty())
    return result;
  // The timed rounds' share of what is left, now the set-up is done.
  deadline = Clock::now() + (deadline - Clock::now()) /
                                static_cast<long>(std::max<size_t>(1, shapesLeft));
  if (!o.verifyAll)
    std::printf("shape %s: %zu candidate(s) to time (verified on this or an "
                "earlier shape); set-up took %.1f s\n",
                label.c_str(), live.size(), secondsSince(setup0));

  // Alternating timed rounds, then the leaders' final (Final.h).
  bench::SmClock clock;
  bool haveClock = clock.open(o.device);
  bench::Options bo;
  bo.M = s.M;
  bo.N = s.N;
  bo.K = s.K;
  bo.L = s.L;
  double blockS = 0; // the longest timed block so far
  const size_t finalists =
      o.finalRounds > 0 && o.finalists > 1
          ? std::min<size_t>(static_cast<size_t>(o.finalists), live.size())
          : 0;
  const size_t finalBlocks =
      finalists > 1 ? finalists * static_cast<size_t>(o.finalRounds) : 0;
  const size_t blocks = live.size() * static_cast<size_t>(o.rounds);
  size_t done = 0;
  double lastMhz = 0; // the clock of the last block (0: not read)
  // Times one block of `c`; false when the deadline (less `reserve` blocks
  // kept for the final) leaves no room for it.
  auto timeBlock = [&](Candidate &c, size_t reserve,
                       double &ms) -> Expected<bool> {
    double left =
        std::chrono::duration<double>(deadline - Clock::now()).count();
    if (left < blockS * static_cast<double>(1 + reserve))
      return false;
    auto b0 = Clock::now();
    bench::ClockWindow window(clock);
    auto t = bench::timeLaunches(
        [&](int i) {
          return c.kernel->launch(
              c.plans[static_cast<size_t>(i) % c.plans.size()],
              stream->get());
        },
        stream->get(), o.warmup, o.iters);
    lastMhz = window.stop();
    if (!t)
      return Status(t.status()).prepend(f.variants[c.variant].id);
    blockS = std::max(blockS, secondsSince(b0));
    ms = t->median;
    if (lastMhz > 0)
      c.mhz.push_back(lastMhz);
    return true;
  };
  auto mhzText = [&] {
    return lastMhz > 0 ? " @ " + std::to_string(int(lastMhz)) + " MHz"
                       : std::string();
  };
  int bestIdx = -1;
  double bestMs = 0;
  bool outOfTime = false;
  for (int r = 0; r < o.rounds && !outOfTime; ++r) {
    for (size_t ci : mainRoundOrder(live.size(), r)) {
      Candidate &c = live[ci];
      double ms = 0;
      auto fit = timeBlock(c, r == 0 ? 0 : finalBlocks, ms);
      if (!fit)
        return fit.status();
      if (!*fit) {
        outOfTime = true;
        std::printf("time budget: a timed block takes %.1f s%s: stopping %s "
                    "after %d complete round(s)\n",
                    blockS, finalBlocks ? " (final kept)" : "", label.c_str(),
                    r);
        break;
      }
      c.ms.push_back(ms);
      c.tflops.push_back(bench::tflops(bo, ms));
      // The leader over everyone's medians so far.
      bestIdx = -1;
      for (size_t j = 0; j < live.size(); ++j) {
        if (live[j].ms.empty())
          continue;
        double mj = bench::median(live[j].ms);
        if (bestIdx < 0 || mj < bestMs) {
          bestIdx = static_cast<int>(j);
          bestMs = mj;
        }
      }
      std::printf("[%s round %d/%d, %zu/%zu] %-40s %.4f ms %7.1f TFLOP/s%s | "
                  "best so far %s %.4f ms | %.1f s\n",
                  label.c_str(), r + 1, o.rounds, ++done, blocks,
                  f.variants[c.variant].id.c_str(), ms, c.tflops.back(),
                  mhzText().c_str(),
                  f.variants[live[bestIdx].variant].id.c_str(), bestMs,
                  secondsSince(start));
      std::fflush(stdout);
    }
    if (!outOfTime)
      result.rounds = r + 1;
  }

  // The main rounds' ranking: fastest median first.
  std::vector<size_t> ranked;
  for (size_t i = 0; i < live.size(); ++i)
    if (!live[i].ms.empty())
      ranked.push_back(i);
  std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
    return bench::median(live[a].ms) < bench::median(live[b].ms);
  });
  result.skipped += static_cast<int>(live.size() - ranked.size());
  if (ranked.empty())
    return result;

  // The final between the leaders.
  size_t winner = ranked[0];
  std::vector<double> finalRatio(live.size(), 0);
  const size_t nf = std::min(finalists, ranked.size());
  if (nf > 1) {
    std::vector<std::vector<double>> fms;
    size_t fdone = 0;
    for (int r = 0; r < o.finalRounds; ++r) {
      std::vector<double> round(nf, 0);
      bool stop = false;
      for (size_t fi : finalRoundOrder(nf, r)) {
        Candidate &c = live[ranked[fi]];
        auto fit = timeBlock(c, 0, round[fi]);
        if (!fit)
          return fit.status();
        if (!*fit) {
          stop = true;
          break;
        }
        std::printf("[%s final %d/%d, %zu/%zu] %-40s %.4f ms %7.1f "
                    "TFLOP/s%s | %.1f s\n",
                    label.c_str(), r + 1, o.finalRounds, ++fdone, finalBlocks,
                    f.variants[c.variant].id.c_str(), round[fi],
                    bench::tflops(bo, round[fi]), mhzText().c_str(),
                    secondsSince(start));
        std::fflush(stdout);
      }
      fms.push_back(std::move(round));
      if (stop) {
        std::printf("time budget: stopping the final of %s after %d "
                    "complete round(s)\n",
                    label.c_str(), r);
        break;
      }
    }
    FinalRanking fr = rankFinal(fms, nf);
    if (fr.rounds > 0) {
      std::printf("shape %s: final over %d round(s), time / %s's in the same "
                  "round, median [min, max]:\n",
                  label.c_str(), fr.rounds,
                  f.variants[live[ranked[0]].variant].id.c_str());
      for (size_t fi = 0; fi < nf; ++fi) {
        const FinalScore &sc = fr.scores[fi];
        finalRatio[ranked[fi]] = sc.ratio;
        std::printf("  %-40s %.3f [%.3f, %.3f]%s\n",
                    f.variants[live[ranked[fi]].variant].id.c_str(), sc.ratio,
                    sc.ratioMin, sc.ratioMax,
                    fi == fr.winner ? "  <- winner" : "");
      }
      winner = ranked[fr.winner];
    }
  }

  if (!haveClock)
    std::printf("sm clock: unavailable (%s)\n", clock.why().c_str());
  for (size_t i : ranked) {
    const Candidate &c = live[i];
    result.entry.candidates.push_back({f.variants[c.variant].id,
                                       bench::median(c.ms),
                                       bench::median(c.tflops), finalRatio[i]});
  }
  const Candidate &w = live[winner];
  result.entry.variant = f.variants[w.variant].id;
  result.entry.ms = bench::median(w.ms);
  result.entry.tflops = bench::median(w.tflops);
  result.entry.mhz = bench::median(w.mhz);
  return result;
}

} // namespace wsgemm::tune
