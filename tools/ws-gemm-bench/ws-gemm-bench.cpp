//===- ws-gemm-bench.cpp - Time a kernel, side by side with cuBLASLt ------===//
//
// Times the kernel with CUDA driver events around each launch, after a
// warm-up, over rotating buffer sets whose total exceeds twice the L2 (read
// from the device) so no run finds its inputs in cache, and reports the
// median: TFLOP/s = 2*M*N*K*L / t. With --compare cublaslt it loads cuBLASLt
// at run time (dlopen, never linked) and times cublasLtMatmul on the same
// buffers with the nearest epilogue (DEFAULT, BIAS, RELU(_BIAS),
// GELU(_BIAS); alpha/beta with C), or, when the EVT has no cuBLASLt
// counterpart, the bare GEMM as a lower bound, and says which.
//
// It measures in --rounds R alternating rounds (ours and cuBLASLt, the
// order flipping every round), so clock drift hits both sides, and reports
// per side the median over rounds and the ratio as the median of the
// per-round ratios with its min and max.
// During each timed block it samples the SM clock (NVML, SmClock.h) and puts
// each throughput against the peak at the median clock (RoundStats.h).
//
// --dry-run checks the manifest and the arguments on fake device addresses
// and names the cuBLASLt epilogue it would compare with, without a GPU.
// --plot FILE.png|svg draws the --csv table (every row so far) after the
// run; with --csv and --plot alone it only draws (no GPU needed).
//
// This file holds the flags and the run; Timing.cpp the timed launches,
// CublasCompare.cpp the cuBLASLt side, Report.cpp the CSV table, Plot.cpp
// the plot.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-bench.h"
#include "CublasCompare.h"
#include "SmClock.h"

#include "ws-gemm-runtime/Kernel.h"
#include "ws-gemm-runtime/Problem.h"
#include "ws-gemm-runtime/Watchdog.h"

#include "../common/FamilyChoice.h"
#include "../common/Flags.h"
#include "../common/ScalarFlags.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace wsgemm::runtime;
using namespace wsgemm::bench;

namespace {

void usage() {
  std::fprintf(
      stderr,
      "usage: ws-gemm-bench MANIFEST --m M --n N --k K [--l L]\n"
      "         [--iters N] [--warmup N] [--rounds R] [--compare cublaslt]\n"
      "         [--cublaslt PATH] [--csv FILE] [--plot FILE.png|FILE.svg]\n"
      "         [--seed S] [--scalar NAME=VALUE]... [--device D] [--dry-run]\n"
      "         [--tuning TABLE] [--variant ID] [--stream-k-tiles N]\n"
      "         [--align-ld BYTES] [--raster along_m|along_n] [--swizzle N]\n"
      "         [--tile-orders LIST] [--pad-a E] [--pad-b E]\n"
      "         [--offset-a E] [--offset-b E] [--pad-c E] [--offset-c E]\n"
      "       ws-gemm-bench --csv FILE --plot FILE.png|FILE.svg\n"
      "  MANIFEST     a kernel manifest, or a family manifest (ws-gemm-sweep):\n"
      "               the variant is chosen for the shape (docs/tuning.md)\n"
      "  --csv FILE   append one row per run (kernel, shape, TFLOP/s, ratio)\n"
      "  --plot FILE  draw every row of --csv, ours beside cuBLASLt (gnuplot)\n"
      "  --stream-k-tiles N  stream-K kernels: N stream-K tiles (0: data-\n"
      "               parallel; default: the runtime's choice)\n"
      "  --raster, --swizzle  a kernel that takes its tile order at launch:\n"
      "               force the raster order (along_m, along_n) or swizzle\n"
      "               (1, 2, 4, 8); default: the runtime's choice\n"
      "  --tile-orders LIST  time the kernel at each order of LIST\n"
      "               (along_m:S, along_n:S, runtime, or all), one\n"
      "               'tile-order' line each, instead of the comparison\n"
      "  --align-ld B every matrix's ld rounded up to B bytes (16: odd row\n"
      "               lengths such as N = 50257 padded for TMA; a kernel\n"
      "               with store = direct takes them packed)\n"
      "  --pad-a E, --pad-b E  E more elements in A's (B's) ld only\n"
      "  --offset-a E, --offset-b E  A (B) starts E elements into its buffer\n"
      "  --pad-c E, --offset-c E  the same for C and every aux load\n"
      "  --c-is-d     C is read from D's buffer, D = f(acc, D) in place (the\n"
      "               beta = 1 update a reducing store, epi.store ... reduce,\n"
      "               does without reading D)\n"
      "  --dry-run    no GPU: check the manifest and arguments, name the\n"
      "               cuBLASLt epilogue compared with, time nothing\n");
}

bool parseOptions(int argc, char **argv, Options &o) {
  wsgemm::tools::FlagCursor args(argc, argv);
  std::set<std::string> given;
  while (!args.done()) {
    args.advance();
    const std::string &a = args.flag();
    given.insert(a);
    bool ok = true, handled = false;
    if (!wsgemm::tools::parseTileOrderFlag(args, o.tileOrder, handled))
      return false;
    if (handled)
      continue;
    if (a == "--tile-orders") {
      const char *v = args.value();
      ok = v && wsgemm::tools::parseTileOrderList(v, o.tileOrders);
    } else if (a == "--m")
      ok = args.integer(o.M);
    else if (a == "--n")
      ok = args.integer(o.N);
    else if (a == "--k")
      ok = args.integer(o.K);
    else if (a == "--l")
      ok = args.integer(o.L);
    else if (a == "--iters")
      ok = args.integer(o.iters);
    else if (a == "--warmup")
      ok = args.integer(o.warmup);
    else if (a == "--rounds")
      ok = args.integer(o.rounds);
    else if (a == "--stream-k-tiles")
      ok = args.integer(o.streamKTiles);
    else if (a == "--align-ld")
      ok = args.integer(o.alignLd);
    else if (a == "--pad-a")
      ok = args.integer(o.padA);
    else if (a == "--pad-b")
      ok = args.integer(o.padB);
    else if (a == "--offset-a")
      ok = args.integer(o.offsetA);
    else if (a == "--offset-b")
      ok = args.integer(o.offsetB);
    else if (a == "--pad-c")
      ok = args.integer(o.padC);
    else if (a == "--offset-c")
      ok = args.integer(o.offsetC);
    else if (a == "--device")
      ok = args.integer(o.device);
    else if (a == "--seed")
      ok = args.integer(o.seed);
    else if (a == "--c-is-d")
      o.cIsD = true;
    else if (a == "--compare") {
      const char *v = args.value();
      if (!v || std::string(v) != "cublaslt") {
        std::fprintf(stderr, "error: --compare takes 'cublaslt'\n");
        return false;
      }
      o.compare = true;
    } else if (a == "--tuning" || a == "--variant") {
      const char *v = args.value();
      if (!v)
        return false;
      (a == "--tuning" ? o.tuning : o.variant) = v;
    } else if (a == "--csv" || a == "--cublaslt" || a == "--plot") {
      const char *v = args.value();
      if (!v)
        return false;
      (a == "--csv" ? o.csv : a == "--plot" ? o.plot : o.cublasLtPath) = v;
    } else if (a == "--dry-run") {
      o.dryRun = true;
    } else if (a == "--scalar") {
      ok = args.scalar(o.scalars);
    } else if (a == "-h" || a == "--help") {
      usage();
      std::exit(0);
    } else {
      ok = args.positional(o.manifest);
    }
    if (!ok)
      return false;
  }
  if (!o.plot.empty() && o.csv.empty()) {
    std::fprintf(stderr, "error: --plot draws the --csv table: give --csv\n");
    return false;
  }
  if (o.manifest.empty() && !o.plot.empty())
    return true; // only draw
  if (o.manifest.empty() || !given.count("--m") || !given.count("--n") ||
      !given.count("--k")) {
    std::fprintf(stderr, "error: MANIFEST, --m, --n and --k are required\n");
    return false;
  }
  const std::pair<const char *, int64_t> sizes[] = {
      {"--m", o.M}, {"--n", o.N}, {"--k", o.K}, {"--l", o.L},
      {"--iters", o.iters}, {"--rounds", o.rounds}};
  for (const auto &[flag, v] : sizes)
    if (v < 1) {
      std::fprintf(stderr, "error: %s %lld: must be >= 1\n", flag,
                   static_cast<long long>(v));
      return false;
    }
  if (o.warmup < 0) {
    std::fprintf(stderr, "error: --warmup %d: must be >= 0\n", o.warmup);
    return false;
  }
  return true;
}

int fail(const Status &s) {
  std::fprintf(stderr, "error: %s\n", s.message().c_str());
  return 2;
}

/// --dry-run: what a run would do, checked without a GPU.
int dryRun(const Options &o) {
  auto m = loadManifest(o.manifest);
  if (!m)
    return fail(m.status());
  GemmArgs a;
  a.M = o.M;
  a.N = o.N;
  a.K = o.K;
  a.L = o.L;
  // Fake, distinct, 4 GiB-aligned device addresses.
  CUdeviceptr next = 0x100000000ull;
  for (const Param &p : m->params) {
    if (p.kind == ParamKind::TensorMap || p.kind == ParamKind::Matrix) {
      TensorArg &t = p.operand == "A"   ? a.A
                     : p.operand == "B" ? a.B
                     : p.operand == "C" ? a.C
                     : p.operand == "D" ? a.D
                                        : a.named[p.operand];
      t.ptr = next;
    } else if (p.kind == ParamKind::Scalar) {
      auto it = o.scalars.find(p.name);
      a.scalars[p.name] = it == o.scalars.end() ? 1.0f : it->second;
    } else if (p.kind != ParamKind::Size && p.kind != ParamKind::Workspace &&
               p.kind != ParamKind::StreamKTiles &&
               p.kind != ParamKind::TileOrder) {
      // (the workspace is the launch plan's; stream-K's count and the tile
      // order the runtime's)
      a.named[p.name].ptr = next;
    }
    next += 0x100000000ull;
  }
  padLeadingDimensions(*m, a, 0, o.alignLd);
  wsgemm::tools::applyInputPadding(*m, a, o.padA, o.padB, o.padC, o.offsetA,
                                   o.offsetB, o.offsetC);
  if (o.cIsD && m->hasC()) // as the timed run's readCFromD: C is D's buffer
    a.C = a.D;
  // The tile order a launch on an H100 (132 SMs) would pack.
  auto g = computeLaunchGeometry(*m, a, 132);
  if (g && wsgemm::tools::pinTileOrder(*m, *g, o.tileOrder, a) &&
      m->runtimeTileOrder())
    std::printf("dry run: tile order %s on 132 SMs\n",
                o.tileOrder.describe(*a.tileOrder).c_str());
  if (!o.tileOrders.empty() && !m->runtimeTileOrder())
    a.tileOrder = TileOrder{}; // refused below: no tile_order parameter
  if (Status s = validate(*m, a); !s.ok()) {
    std::printf("dry run: arguments refused: %s\n", s.message().c_str());
    return 1;
  }
  std::printf("dry run: %s M=%lld N=%lld K=%lld L=%lld: arguments valid; "
              "would time %d launches after %d warm-up, %d round(s)\n",
              m->kernel.c_str(), static_cast<long long>(o.M),
              static_cast<long long>(o.N), static_cast<long long>(o.K),
              static_cast<long long>(o.L), o.iters, o.warmup, o.rounds);
  if (o.compare) {
    std::map<std::string, double> scalars;
    for (const auto &[name, value] : a.scalars)
      scalars[name] = value;
    CublasPlan plan = chooseCublasPlan(*m, scalars);
    std::printf("dry run: cuBLASLt side: %s%s%s\n",
                plan.fused ? plan.epilogueName.c_str()
                           : "bare GEMM (lower bound)",
                plan.note.empty() ? "" : "; ", plan.note.c_str());
  }
  return 0;
}

int run(const Options &o) {
  auto ctx = Context::create(o.device);
  if (!ctx)
    return fail(ctx.status());
  // Unload cached modules while the context is still alive (locals are
  // destroyed in reverse order: this runs before ctx releases it).
  struct CacheClear {
    ~CacheClear() { ModuleCache::global().clear(); }
  } cacheClear;
  auto kernel = ModuleCache::global().get(o.manifest);
  if (!kernel)
    return fail(kernel.status());
  const Kernel &k = **kernel;
  const Manifest &m = k.manifest();
  if (!wsgemm::tools::checkScalarFlags(m, o.scalars))
    return 2;
  const DeviceInfo &dev = k.device();
  auto stream = Stream::create();
  if (!stream)
    return fail(stream.status());

  // Buffer sets: together more than 2x the L2.
  ProblemOptions po;
  po.M = o.M;
  po.N = o.N;
  po.K = o.K;
  po.L = o.L;
  po.seed = o.seed;
  po.scalars = o.scalars;
  po.ldAlignBytes = o.alignLd;
  po.padA = o.padA;
  po.padB = o.padB;
  po.offsetA = o.offsetA;
  po.offsetB = o.offsetB;
  po.padC = o.padC;
  po.offsetC = o.offsetC;
  po.keepHost = false;
  std::vector<TestProblem> sets;
  auto first = TestProblem::create(m, po);
  if (!first)
    return fail(first.status());
  const size_t setBytes = first->deviceBytes();
  sets.push_back(std::move(*first));
  size_t freeBytes = 0, totalBytes = 0;
  if (Status s = cuCheck(cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo");
      !s.ok())
    return fail(s);
  const size_t l2 = static_cast<size_t>(dev.l2Bytes);
  size_t want = std::max<size_t>(1, (5 * l2 / 2 + setBytes - 1) / setBytes);
  size_t fit =
      std::max<size_t>(1, (freeBytes / 2) / std::max<size_t>(1, setBytes));
  size_t nsets = std::min<size_t>({want, fit, 256});
  for (size_t i = 1; i < nsets; ++i) {
    auto p = TestProblem::create(m, po);
    if (!p)
      return fail(p.status());
    sets.push_back(std::move(*p));
  }
  if (o.cIsD)
    for (TestProblem &p : sets)
      if (Status s = p.readCFromD(); !s.ok())
        return fail(s);
  std::vector<LaunchPlan> plans;
  std::optional<TileOrder> order;
  if (Status s = preparePlans(k, o, sets, o.tileOrder, plans, &order); !s.ok())
    return fail(s);
  const LaunchGeometry &g = plans.front().geometry;
  std::printf("device: %s, %d SMs, L2 %.1f MiB\n", dev.name.c_str(),
              dev.smCount, double(l2) / (1 << 20));
  std::printf("kernel: %s, grid %ux%ux%u, block %u, cluster %ux%ux%u, smem "
              "%u, %d regs\n",
              m.kernel.c_str(), g.grid[0], g.grid[1], g.grid[2], g.block[0],
              g.cluster[0], g.cluster[1], g.cluster[2], g.smemBytes,
              k.numRegs());
  if (order)
    std::printf("tile order: %s\n", o.tileOrder.describe(*order).c_str());
  if (m.scheduler.kind != SchedulerKind::DataParallel)
    std::printf("tile scheduler: %s, %lld stream-K tiles, workspace %llu "
                "bytes per buffer set\n",
                schedulerKindName(m.scheduler.kind),
                static_cast<long long>(g.streamKTiles),
                static_cast<unsigned long long>(g.workspaceBytes));
  std::printf("problem: M=%lld N=%lld K=%lld L=%lld; %zu buffer set(s) of "
              "%.1f MiB rotated (%.1fx L2)%s\n",
              static_cast<long long>(o.M), static_cast<long long>(o.N),
              static_cast<long long>(o.K), static_cast<long long>(o.L),
              sets.size(), double(setBytes) / (1 << 20),
              double(setBytes * sets.size()) / double(std::max<size_t>(l2, 1)),
              sets.size() < want ? " (capped by free memory)" : "");

  // One checked launch: a kernel that leaves NaN/poison behind is broken,
  // and its timing means nothing.
  int exitCode = 0;
  {
    Status s = k.launch(plans[0], stream->get());
    if (s.ok()) {
      // The watchdog: a kernel that never ends must not hang the bench.
      WaitResult w = waitForStream(stream->get(), 120, "first launch");
      if (w.timedOut) {
        std::fprintf(stderr, "error: %s\n", w.status.message().c_str());
        std::fflush(nullptr);
        std::_Exit(3);
      }
      s = w.status;
    }
    if (!s.ok())
      return fail(s);
    auto d = sets[0].downloadMatrix("D");
    if (!d)
      return fail(d.status());
    const MatrixGeometry &dg = d->geometry;
    int64_t nan = 0;
    for (int64_t l = 0; l < dg.batches; ++l)
      for (int64_t r = 0; r < dg.rows; ++r)
        for (int64_t c = 0; c < dg.cols; ++c)
          nan += std::isnan(d->at(r, c, l)) ? 1 : 0;
    if (nan) {
      std::printf("WARNING: %lld elements of D are NaN/unwritten after one "
                  "launch: run ws-gemm-run first; timings below are of a "
                  "broken kernel\n",
                  static_cast<long long>(nan));
      exitCode = 1;
    }
  }

  if (!o.tileOrders.empty()) {
    int code = timeTileOrders(k, o, sets, stream->get());
    return code ? code : exitCode;
  }

  SmClock clock;
  if (clock.open(o.device))
    std::printf(
        "sm clock: NVML, sampled every ms during each timed block%s%s\n",
        clock.note().empty() ? "" : "; ", clock.note().c_str());
  else
    std::printf("sm clock: unavailable (%s)\n", clock.why().c_str());

  // cuBLASLt is set up before the rounds so that they alternate.
  BenchResult result;
  // A mixed-input kernel's 8-bit A is multiplied in B's 16-bit type.
  if (dtypeSize(m.operand("A").dtype) == 1 && !m.operand("A").dequant)
    result.peakTflops = kPeakTflops8Bit;
  CublasLtApi api;
  CublasPlan plan;
  CublasRunner runner;
  bool libReady = false;
  if (o.compare) {
    Status s = api.load(o.cublasLtPath);
    if (s.ok()) {
      plan = chooseCublasPlan(m, sets[0].host().scalars);
      s = runner.setup(api, m, o, plan, sets);
    }
    if (!s.ok()) {
      std::printf("cuBLASLt: not timed: %s\n", s.message().c_str());
      result.libNote = s.message();
    } else {
      libReady = true;
      result.libName =
          plan.fused ? plan.epilogueName : "bare GEMM (lower bound)";
      result.libNote = plan.note;
    }
  }

  // Alternating rounds: ours, then cuBLASLt, each a full timeLaunches.
  struct Side {
    std::vector<double> ms, tflops, mhz, mins, p90s;
    int samples = 0;
    /// Times one block of launches while sampling the SM clock.
    Status time(const std::function<Status(int)> &launch, CUstream stream,
                const Options &o, const SmClock &clock) {
      ClockWindow window(clock);
      Expected<Timing> t = timeLaunches(launch, stream, o.warmup, o.iters);
      double f = window.stop();
      if (!t)
        return t.status();
      if (f > 0)
        mhz.push_back(f);
      ms.push_back(t->median);
      tflops.push_back(wsgemm::bench::tflops(o, t->median));
      mins.push_back(t->min);
      p90s.push_back(t->p90);
      samples = t->samples;
      return Status::success();
    }
  } ours, lib;
  // Within a round the side that runs second can find the card hotter (its
  // clock lower under the power cap): odd rounds run ours first, even rounds
  // cuBLASLt first, so neither side always takes the second slot.
  for (int r = 0; r < o.rounds; ++r) {
    auto timeOurs = [&] {
      return ours.time(
          [&](int i) {
            return k.launch(plans[static_cast<size_t>(i) % plans.size()],
                            stream->get());
          },
          stream->get(), o, clock);
    };
    auto timeLib = [&] {
      return lib.time([&](int i) { return runner.launch(i, stream->get()); },
                      stream->get(), o, clock);
    };
    bool libFirst = libReady && r % 2 == 1;
    Status s = libFirst ? timeLib() : timeOurs();
    if (s.ok() && libFirst)
      s = timeOurs();
    else if (s.ok() && libReady)
      s = timeLib();
    if (!s.ok())
      return fail(s);
    std::printf("round %d: ours %.4f ms %.1f TFLOP/s", r + 1, ours.ms.back(),
                ours.tflops.back());
    if (libReady)
      std::printf(" | cuBLASLt %.4f ms %.1f TFLOP/s | ratio %.3f%s",
                  lib.ms.back(), lib.tflops.back(),
                  ours.tflops.back() / lib.tflops.back(),
                  libFirst ? " (cuBLASLt ran first)" : "");
    std::printf("\n");
  }

  result.rounds = summarizeRounds(ours.tflops, lib.tflops);
  auto summarize = [&](const Side &side, SideResult &out, const char *label,
                       const char *extra) {
    out.ms = median(side.ms);
    out.tflops = median(side.tflops);
    out.mhz = median(side.mhz);
    std::printf("%s median %.4f ms (min %.4f, p90 %.4f, %d runs x %d "
                "rounds)  %.1f TFLOP/s",
                label, out.ms,
                *std::min_element(side.mins.begin(), side.mins.end()),
                median(side.p90s), side.samples, o.rounds, out.tflops);
    if (out.mhz > 0)
      std::printf("  @ %.0f MHz: %.3f of peak at clock (%.0f TFLOP/s)", out.mhz,
                  fractionOfPeakAtClock(out.tflops, out.mhz, result.peakTflops),
                  peakTflopsAtClock(out.mhz, result.peakTflops));
    std::printf("%s\n", extra);
  };
  summarize(ours, result.ours, "ours:    ", "");
  if (libReady) {
    std::string extra = "  [" + api.path + ", " + result.libName + "]";
    summarize(lib, result.lib, "cuBLASLt:", extra.c_str());
    if (!plan.note.empty())
      std::printf("          note: %s\n", plan.note.c_str());
    std::printf("ratio ours/cuBLASLt (throughput): %.3f (min %.3f, max %.3f "
                "over %d rounds)\n",
                result.rounds.ratio, result.rounds.ratioMin,
                result.rounds.ratioMax, result.rounds.rounds);
  }

  if (!o.csv.empty()) {
    // A family's variant is named in the kernel column: kernel@variant.
    Status s = appendCsv(
        o, o.chosen.empty() ? m.kernel : m.kernel + "@" + o.chosen, result);
    if (!s.ok())
      return fail(s);
  }
  if (!o.plot.empty()) {
    Status s = plotCsv(o.csv, o.plot);
    if (!s.ok())
      return fail(s);
  }
  return exitCode;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    usage();
    return 2;
  }
  if (o.manifest.empty()) {
    Status s = plotCsv(o.csv, o.plot);
    return s.ok() ? 0 : fail(s);
  }
  auto ctx = wsgemm::tools::contextForChoice(o.manifest, o.device, o.dryRun);
  if (!wsgemm::tools::chooseFromFamily(
          o.manifest,
          {o.tuning, o.variant, 0, o.alignLd, o.padA, o.padB, o.offsetA,
           o.offsetB, o.padC, o.offsetC},
          {o.M, o.N, o.K, o.L},
          o.device, o.dryRun, &o.chosen, ctx.has_value()))
    return 2;
  if (o.dryRun)
    return dryRun(o);
  return run(o);
}
