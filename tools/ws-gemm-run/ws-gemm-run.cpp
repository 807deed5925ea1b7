//===- ws-gemm-run.cpp - Run a ws-gemm kernel once and verify it ----------===//
//
// Loads a manifest + cubin, fills seeded random inputs (uniform in [-1, 1],
// never zeros), poisons every output (0xFF bytes: NaN in every dtype),
// launches once, and compares D, aux stores and reductions with the CPU
// reference of the same EVT in double:
//   - every element when M*N*L <= 2^20 (or --full), otherwise a few thousand
//     random (m, n, l) plus full rows and columns at both ends and at the
//     last (ragged) tile boundary, and a scan of every element for NaN
//     (unwritten or poisoned);
//   - row/column reductions element by element (on the full rows/columns
//     when sampling), scalar reductions when the full reference fits;
//   - guard bytes after each output and the padding between rows untouched.
// Tolerances follow runtime/include/ws-gemm-runtime/Check.h. Exit status: 0
// pass, 1 mismatch (or a bad argument that was not refused), 2 setup error.
//
// --bad-arg misaligned|stride|dtype|null breaks one argument on purpose and
// expects the runtime to refuse it before launch (with --dry-run: without a
// GPU, on fake device addresses).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Check.h"
#include "ws-gemm-runtime/Kernel.h"
#include "ws-gemm-runtime/Problem.h"
#include "ws-gemm-runtime/Reference.h"

#include "../common/Flags.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace wsgemm::runtime;

namespace {

struct Options {
  std::string manifest;
  int64_t M = 0, N = 0, K = 0, L = 1;
  uint64_t seed = 1;
  int64_t pad = 0;
  int device = 0;
  int samples = 4096;
  bool full = false;
  bool dryRun = false;
  std::string badArg;
  std::map<std::string, float> scalars;
  double rtol = -1, atolRms = -1; // overrides
};

void usage() {
  std::fprintf(
      stderr,
      "usage: ws-gemm-run MANIFEST --m M --n N --k K [--l L] [--seed S]\n"
      "         [--pad E] [--scalar NAME=VALUE]... [--device D]\n"
      "         [--full] [--samples N] [--rtol X] [--atol-rms X]\n"
      "         [--bad-arg misaligned|stride|dtype|null] [--dry-run]\n"
      "  --pad E      E extra elements per row of every matrix (ld = cols+E)\n"
      "  --scalar     value of a scalar or scalar_pointer parameter (default:\n"
      "               seeded uniform in [0.5, 1.5]); beta=0 skips C\n"
      "  --full       check every element even when M*N*L > 2^20\n"
      "  --rtol, --atol-rms  override the tolerance (see Check.h)\n"
      "  --bad-arg    break one argument; the runtime must refuse it\n"
      "  --dry-run    no GPU: validate fake device addresses only\n");
}

bool parseOptions(int argc, char **argv, Options &o) {
  wsgemm::tools::FlagCursor args(argc, argv);
  while (!args.done()) {
    args.advance();
    const std::string &a = args.flag();
    bool ok = true;
    if (a == "--m") {
      ok = args.integer(o.M);
    } else if (a == "--n") {
      ok = args.integer(o.N);
    } else if (a == "--k") {
      ok = args.integer(o.K);
    } else if (a == "--l") {
      ok = args.integer(o.L);
    } else if (a == "--seed") {
      ok = args.integer(o.seed);
    } else if (a == "--pad") {
      ok = args.integer(o.pad);
    } else if (a == "--device") {
      ok = args.integer(o.device);
    } else if (a == "--samples") {
      ok = args.integer(o.samples);
    } else if (a == "--scalar") {
      ok = args.scalar(o.scalars);
    } else if (a == "--rtol" || a == "--atol-rms") {
      const char *v = args.value();
      if (!v)
        return false;
      (a == "--rtol" ? o.rtol : o.atolRms) = std::strtod(v, nullptr);
    } else if (a == "--full") {
      o.full = true;
    } else if (a == "--dry-run") {
      o.dryRun = true;
    } else if (a == "--bad-arg") {
      const char *v = args.value();
      if (!v)
        return false;
      o.badArg = v;
      if (o.badArg != "misaligned" && o.badArg != "stride" &&
          o.badArg != "dtype" && o.badArg != "null") {
        std::fprintf(stderr,
                     "error: --bad-arg: unknown mode '%s' (expected "
                     "misaligned, stride, dtype or null)\n",
                     v);
        return false;
      }
    } else if (a == "-h" || a == "--help") {
      usage();
      std::exit(0);
    } else {
      ok = args.positional(o.manifest);
    }
    if (!ok)
      return false;
  }
  if (o.manifest.empty() || o.M == 0 || o.N == 0 || o.K == 0) {
    std::fprintf(stderr, "error: MANIFEST, --m, --n and --k are required\n");
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// --bad-arg
//===----------------------------------------------------------------------===//

/// Breaks one argument; returns the words the refusal must contain.
std::string breakArgument(const Manifest &m, const std::string &mode,
                          GemmArgs &a) {
  DType d = m.operand("D").dtype;
  if (mode == "misaligned") {
    a.D.ptr += dtypeSize(d);
    return "not 16-byte aligned";
  }
  if (mode == "stride") {
    int64_t ld = a.N + 1;
    while ((ld * static_cast<int64_t>(dtypeSize(d))) % 16 == 0)
      ++ld;
    a.D.ld = ld;
    return "is not a multiple of 16";
  }
  if (mode == "dtype") {
    DType A = m.operand("A").dtype;
    a.A.dtype = A == DType::F16 ? DType::BF16 : DType::F16;
    return "does not match the kernel's";
  }
  a.D.ptr = 0;
  return "null pointer";
}

int reportRefusal(const std::string &mode, const Status &s,
                  const std::string &expect) {
  if (s.ok()) {
    std::printf("bad-arg %s: NOT refused: the runtime accepted a broken "
                "argument\n",
                mode.c_str());
    return 1;
  }
  std::printf("bad-arg %s: refused: %s\n", mode.c_str(), s.message().c_str());
  if (s.message().find(expect) == std::string::npos) {
    std::printf("bad-arg %s: FAIL: expected the refusal to say '%s'\n",
                mode.c_str(), expect.c_str());
    return 1;
  }
  return 0;
}

/// Fake, aligned device addresses for every buffer (no GPU needed).
GemmArgs fakeArgs(const Manifest &m, const Options &o) {
  GemmArgs a;
  a.M = o.M;
  a.N = o.N;
  a.K = o.K;
  a.L = o.L;
  CUdeviceptr next = 0x100000000ull;
  for (const Param &p : m.params) {
    switch (p.kind) {
    case ParamKind::TensorMap: {
      TensorArg *t = p.operand == "A"   ? &a.A
                     : p.operand == "B" ? &a.B
                     : p.operand == "C" ? &a.C
                     : p.operand == "D" ? &a.D
                                        : &a.named[p.operand];
      t->ptr = next;
      if (o.pad > 0)
        t->ld = matrixGeometry(m, p.operand, a).cols + o.pad;
      break;
    }
    case ParamKind::Pointer:
    case ParamKind::Reduction:
    case ParamKind::ScalarPointer:
      a.named[p.name].ptr = next;
      break;
    case ParamKind::Scalar: {
      auto it = o.scalars.find(p.name);
      a.scalars[p.name] = it == o.scalars.end() ? 1.0f : it->second;
      break;
    }
    case ParamKind::Size:
      break;
    }
    next += 0x100000000ull;
  }
  return a;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

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

int run(const Options &o) {
  auto manifest = loadManifest(o.manifest);
  if (!manifest) {
    std::fprintf(stderr, "error: %s\n", manifest.message().c_str());
    return 2;
  }
  const Manifest &m = *manifest;

  if (o.dryRun) {
    GemmArgs a = fakeArgs(m, o);
    if (o.badArg.empty()) {
      Status s = validate(m, a);
      std::printf("dry run: arguments %s%s\n", s.ok() ? "valid" : "refused: ",
                  s.ok() ? "" : s.message().c_str());
      return s.ok() ? 0 : 1;
    }
    Status before = validate(m, a);
    if (!before.ok()) {
      std::fprintf(stderr,
                   "error: the unbroken arguments are already "
                   "invalid: %s\n",
                   before.message().c_str());
      return 2;
    }
    std::string expect = breakArgument(m, o.badArg, a);
    return reportRefusal(o.badArg, validate(m, a), expect);
  }

  auto ctx = Context::create(o.device);
  if (!ctx) {
    std::fprintf(stderr, "error: %s\n", ctx.message().c_str());
    return 2;
  }
  // Unload cached modules while the context is still alive (locals are
  // destroyed in reverse order: this runs before ctx releases it).
  struct CacheClear {
    ~CacheClear() { ModuleCache::global().clear(); }
  } cacheClear;
  auto kernel = ModuleCache::global().get(o.manifest);
  if (!kernel) {
    std::fprintf(stderr, "error: %s\n", kernel.message().c_str());
    return 2;
  }
  const Kernel &k = **kernel;
  const DeviceInfo &dev = k.device();
  std::printf("device: %s (sm_%d%d, %d SMs, L2 %d MiB, smem opt-in %d)\n",
              dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
              dev.l2Bytes >> 20, dev.maxSmemOptin);
  std::printf("kernel: %s (%s): %d regs/thread, static smem %d, dynamic smem "
              "%u, block %ux%ux%u, cluster %ux%ux%u\n",
              m.kernel.c_str(), m.cubinPath().c_str(), k.numRegs(),
              k.staticSmemBytes(), m.smemBytes, m.block[0], m.block[1],
              m.block[2], m.cluster[0], m.cluster[1], m.cluster[2]);

  ProblemOptions po;
  po.M = o.M;
  po.N = o.N;
  po.K = o.K;
  po.L = o.L;
  po.seed = o.seed;
  po.pad = o.pad;
  po.scalars = o.scalars;
  auto problem = TestProblem::create(m, po);
  if (!problem) {
    std::fprintf(stderr, "error: %s\n", problem.message().c_str());
    return 2;
  }
  auto stream = Stream::create();
  if (!stream) {
    std::fprintf(stderr, "error: %s\n", stream.message().c_str());
    return 2;
  }

  if (!o.badArg.empty()) {
    GemmArgs a = problem->args();
    std::string expect = breakArgument(m, o.badArg, a);
    Status s = k.launch(a, stream->get());
    if (s.ok())
      (void)stream->synchronize();
    return reportRefusal(o.badArg, s, expect);
  }

  std::printf("problem: M=%lld N=%lld K=%lld L=%lld seed=%llu pad=%lld",
              static_cast<long long>(o.M), static_cast<long long>(o.N),
              static_cast<long long>(o.K), static_cast<long long>(o.L),
              static_cast<unsigned long long>(o.seed),
              static_cast<long long>(o.pad));
  for (const auto &[name, v] : problem->host().scalars)
    std::printf(" %s=%g", name.c_str(), v);
  std::printf("\n");

  // Launch once.
  auto plan = k.prepare(problem->args());
  if (!plan) {
    std::fprintf(stderr, "error: %s\n", plan.message().c_str());
    return 2;
  }
  const LaunchGeometry &g = plan->geometry;
  std::printf("launch: grid %ux%ux%u (%lld tiles of %lldx%lld)\n", g.grid[0],
              g.grid[1], g.grid[2], static_cast<long long>(g.tiles),
              static_cast<long long>(m.tile[0]),
              static_cast<long long>(m.tile[1]));
  for (const TensorMapSpec &s : plan->tensorMaps)
    std::printf("  tensor map %-6s %s\n", s.operand.c_str(),
                describeTensorMapSpec(s).c_str());
  auto e0 = Event::create();
  auto e1 = Event::create();
  if (!e0 || !e1) {
    std::fprintf(stderr, "error: %s\n",
                 (!e0 ? e0.message() : e1.message()).c_str());
    return 2;
  }
  Status s = e0->record(stream->get());
  if (s.ok())
    s = k.launch(*plan, stream->get());
  if (s.ok())
    s = e1->record(stream->get());
  if (s.ok())
    s = stream->synchronize("kernel execution (cuStreamSynchronize)");
  if (!s.ok()) {
    std::fprintf(stderr, "error: %s\n", s.message().c_str());
    std::printf("RESULT: FAIL (launch)\n");
    return 1;
  }
  auto ms = e1->elapsedSince(*e0);
  std::printf("ran in %.3f ms (single cold launch, not a benchmark)\n",
              ms ? *ms : -1.0f);

  // Download everything before building the reference (which takes the
  // host copies).
  Outcome outcome;
  std::map<std::string, HostMatrix> outs;
  for (const std::string &name : problem->outputMatrices()) {
    auto h = problem->downloadMatrix(name);
    if (!h) {
      std::fprintf(stderr, "error: %s\n", h.message().c_str());
      return 2;
    }
    outs[name] = std::move(*h);
  }
  std::map<std::string, std::vector<double>> reds;
  for (const std::string &name : problem->reductions()) {
    auto r = problem->downloadReduction(name);
    if (!r) {
      std::fprintf(stderr, "error: %s\n", r.message().c_str());
      return 2;
    }
    reds[name] = std::move(*r);
  }
  Status guards = problem->checkGuards();
  std::printf("guards: %s\n", guards.ok() ? "untouched (no out-of-bounds or "
                                            "padding writes)"
                                          : guards.message().c_str());
  if (!guards.ok())
    outcome.fail();

  GemmArgs args = problem->args();
  auto ref = Reference::create(m, args, problem->takeHost());
  if (!ref) {
    std::fprintf(stderr, "error: reference: %s\n", ref.message().c_str());
    return 2;
  }
  const Reference &R = *ref;
  CheckPlan cp = planChecks(m, o);
  std::printf("check: %s, %zu elements compared%s\n",
              cp.full ? "full" : "sampled", cp.coords.size(),
              cp.full ? ""
                      : " (random samples + full rows/columns at both ends "
                        "and the last tile boundary) + a NaN scan of every "
                        "element");

  // Reference values of the checked elements.
  const size_t nAux = R.auxOutputs().size();
  std::vector<double> refD(cp.coords.size());
  std::vector<std::vector<double>> refAux(
      nAux, std::vector<double>(cp.coords.size()));
  parallelFor(cp.coords.size(), [&](size_t, size_t b, size_t e) {
    ElementResult r;
    for (size_t i = b; i < e; ++i) {
      const Coord &c = cp.coords[i];
      R.evaluateWithAcc(R.accumulator(c.m, c.n, c.l), c.m, c.n, c.l, r);
      refD[i] = r.d;
      for (size_t a = 0; a < nAux; ++a)
        refAux[a][i] = r.aux[a];
    }
  });

  bool approx = usesApproxTranscendentals(m);
  DType inType = m.operand("A").dtype;
  auto tolFor = [&](DType t) {
    Tolerance tol = outputTolerance(t, inType, o.K, approx,
                                    intermediateRoundingError(m));
    if (o.rtol >= 0)
      tol.rtol = o.rtol;
    if (o.atolRms >= 0)
      tol.atolPerRms = o.atolRms;
    return tol;
  };
  // auxIndex < 0: D.
  auto compareMatrix = [&](const std::string &name, const HostMatrix &out,
                           const std::vector<double> &refs, DType t,
                           int auxIndex) {
    const char *kind = auxIndex < 0 ? "out" : "aux";
    Tolerance tol = tolFor(t);
    ErrorStats st(name);
    for (double r : refs)
      st.addRef(r);
    for (size_t i = 0; i < cp.coords.size(); ++i) {
      const Coord &c = cp.coords[i];
      st.compare(out.at(c.m, c.n, c.l), refs[i], tol, Where{c.m, c.n, c.l});
    }
    char rms[64];
    std::snprintf(rms, sizeof rms, " = %.3g*|ref| + %.3g", tol.rtol,
                  tol.atolPerRms * st.rms());
    printStats(kind, name, t, st, tol.describe() + rms, outcome);
    if (!cp.full) {
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
            ElementResult e = R.evaluate(r, col, l);
            double want =
                auxIndex < 0 ? e.d : e.aux[static_cast<size_t>(auxIndex)];
            if (std::isnan(want))
              continue;
            if (bad++ == 0)
              first = Where{r, col, l}.str();
          }
      if (bad) {
        std::printf("       NaN scan: %lld%s unwritten/NaN elements, first "
                    "at %s  FAIL\n",
                    static_cast<long long>(bad), bad >= 1000 ? "+" : "",
                    first.c_str());
        outcome.fail();
      } else {
        std::printf("       NaN scan: all %lld elements written\n",
                    static_cast<long long>(g.rows * g.cols * g.batches));
      }
    }
  };
  compareMatrix("D", outs.at("D"), refD, m.operand("D").dtype, -1);
  for (size_t a = 0; a < nAux; ++a)
    compareMatrix(R.auxOutputs()[a].name, outs.at(R.auxOutputs()[a].name),
                  refAux[a], R.auxOutputs()[a].dtype, static_cast<int>(a));

  // Reductions.
  const auto &rinfo = R.reductions();
  for (size_t r = 0; r < rinfo.size(); ++r) {
    const ReductionInfo &info = rinfo[r];
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
    } else if (info.op == EvtOp::ReduceToVecM ||
               info.op == EvtOp::ReduceToVecN) {
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
        continue;
      }
      accumulate(coords);
      scope = "outputs of the full rows/columns";
    } else {
      if (o.M * o.N * o.L * o.K > (int64_t(1) << 37)) {
        std::printf("red  %-10s %-6s not checked (needs the full reference, "
                    "M*N*L*K > 2^37; use --full)\n",
                    info.name.c_str(), reduceName(info.kind));
        continue;
      }
      std::vector<Coord> all;
      for (int64_t l = 0; l < o.L; ++l)
        for (int64_t i = 0; i < o.M; ++i)
          for (int64_t j = 0; j < o.N; ++j)
            all.push_back({i, j, l});
      accumulate(all);
    }
    Tolerance tol = tolFor(DType::F32);
    ErrorStats st(info.name);
    const std::vector<double> &got = reds.at(info.name);
    double worstTol = 0;
    for (size_t i = 0; i < checked.size(); ++i) {
      if (!checked[i])
        continue;
      double absMax = info.kind == ReduceKind::AbsMax ? acc.value[i]
                                                      : std::fabs(acc.value[i]);
      double t = reductionTolerance(tol, info.kind, acc.absSum[i], absMax,
                                    acc.count[i]);
      worstTol = std::max(worstTol, t);
      st.addRef(acc.value[i]);
      st.compareAbs(got[i], acc.value[i], t, Where{static_cast<int64_t>(i)});
    }
    char desc[128];
    std::snprintf(desc, sizeof desc, "%s, largest per-output tolerance %.3g",
                  scope.c_str(), worstTol);
    printStats("red", info.name + "(" + reduceName(info.kind) + ")", DType::F32,
               st, desc, outcome);
  }

  std::printf("RESULT: %s\n", outcome.pass ? "PASS" : "FAIL");
  return outcome.pass ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    usage();
    return 2;
  }
  return run(o);
}
