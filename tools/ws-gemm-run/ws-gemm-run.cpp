//===- ws-gemm-run.cpp - Run a ws-gemm kernel once and verify it ----------===//
//
// Loads a manifest + cubin, fills seeded random inputs (uniform in [-1, 1],
// never zeros), poisons every output (0xFF bytes: NaN in every dtype;
// a D the kernel reduces into, `epi.store ... reduce`, is seeded like an
// input instead and checked as D_after = D_before op value), launches once, and compares D, aux stores and reductions with the CPU
// reference of the same EVT in double:
//   - every element when M*N*L <= 2^20 (or --full), otherwise a few thousand
//     random (m, n, l) plus full rows and columns at both ends and at the
//     last (ragged) tile boundary, and a scan of every element for NaN
//     (unwritten or poisoned);
//   - row/column reductions element by element (on the full rows/columns
//     when sampling), scalar reductions when the full reference fits;
//   - guard bytes after each output and the padding between rows untouched.
// Tolerances follow runtime/include/ws-gemm-runtime/Check.h. Exit status: 0
// pass, 1 mismatch (or a bad argument that was not refused), 2 setup error
// (bad flags, a problem too large for the device or the host, a cubin the
// driver refuses), 3 the kernel did not finish within --timeout seconds
// (the watchdog: the process leaves without waiting for it).
//
// Before anything is allocated: sizes >= 1, every --scalar a scalar of the
// kernel with a finite value, the problem's device and host bytes against
// what is free (Footprint.h), and with --full the CPU reference's work.
//
// --bad-arg misaligned|stride|dtype|null|scale-ld|c-is-d breaks one argument on purpose and
// expects the runtime to refuse it before launch (with --dry-run: without a
// GPU, on fake device addresses).
//
// This file holds the flags and the run; BadArg.cpp the broken and fake
// arguments, Verify.cpp the comparison with the reference.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-run.h"

#include "ws-gemm-runtime/Cubin.h"
#include "ws-gemm-runtime/Footprint.h"
#include "ws-gemm-runtime/Kernel.h"
#include "ws-gemm-runtime/Problem.h"
#include "ws-gemm-runtime/Watchdog.h"

#include "../common/FamilyChoice.h"
#include "../common/Flags.h"
#include "../common/ScalarFlags.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <map>
#include <string>
#include <vector>

using namespace wsgemm::runtime;
using namespace wsgemm::runtool;

namespace {

void usage() {
  std::fprintf(
      stderr,
      "usage: ws-gemm-run MANIFEST --m M --n N --k K [--l L] [--seed S]\n"
      "         [--pad E] [--scalar NAME=VALUE]... [--nan INPUT]... [--device D]\n"
      "         [--full] [--samples N] [--rtol X] [--atol-rms X]\n"
      "         [--bad-arg misaligned|stride|dtype|null|scale-ld|c-is-d] [--dry-run]\n"
      "         [--tuning TABLE] [--variant ID] [--timeout S]\n"
      "         [--stream-k-tiles N] [--align-ld BYTES]\n"
      "         [--pad-a E] [--pad-b E] [--offset-a E] [--offset-b E]\n"
      "         [--pad-c E] [--offset-c E]\n"
      "         [--raster along_m|along_n] [--swizzle 1|2|4|8]\n"
      "  MANIFEST     a kernel manifest, or a family manifest (ws-gemm-sweep):\n"
      "               the variant is chosen for the shape (docs/tuning.md)\n"
      "  --tuning     tuning table of the family (ws-gemm-tune)\n"
      "  --variant    run this variant of the family\n"
      "  --pad E      E extra elements per row of every matrix (ld = cols+E)\n"
      "  --scalar     value of a scalar or scalar_pointer parameter (default:\n"
      "               seeded uniform in [0.5, 1.5]; scale_d / scale_aux of an\n"
      "               8-bit output: a power of two fitting it, Problem.h);\n"
      "               beta=0 skips C\n"
      "  --nan INPUT  a NaN at two elements of input matrix INPUT (A, B, C,\n"
      "               an aux load): NaN must reach the outputs it feeds\n"
      "  --full       check every element even when M*N*L > 2^20\n"
      "  --rtol, --atol-rms  override the tolerance (see Check.h)\n"
      "  --bad-arg    break one argument; the runtime must refuse it\n"
      "  --dry-run    no GPU: validate fake device addresses, the cubin's\n"
      "               structure and the problem's memory footprint only\n"
      "  --align-ld B every matrix's ld (after --pad) rounded up to B bytes\n"
      "               (16: odd row lengths stored as TMA needs them)\n"
      "  --pad-a E, --pad-b E  E more elements in A's (B's) ld only (an odd\n"
      "               leading dimension, for cp.async kernels)\n"
      "  --offset-a E, --offset-b E  A (B) starts E elements into its\n"
      "               buffer (a sliced base address off 16 bytes)\n"
      "  --pad-c E, --offset-c E  the same for C and every aux load (for\n"
      "               kernels with load_c = cp_async)\n"
      "  --stream-k-tiles N  stream-K kernels: N tiles in the stream-K\n"
      "               region (0: data-parallel; default: the runtime's\n"
      "               heuristic, docs/stream-k.md)\n"
      "  --raster, --swizzle  a kernel that takes its tile order at launch:\n"
      "               force the raster order or swizzle (default: the\n"
      "               runtime's choice, TileOrder.h)\n"
      "  --timeout S  give up on a kernel still running after S seconds\n"
      "               (default 120; 0: wait forever); exit status 3\n");
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
    if (handled) {
      continue;
    } else if (a == "--m") {
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
    } else if (a == "--align-ld") {
      ok = args.integer(o.alignLd);
    } else if (a == "--pad-a") {
      ok = args.integer(o.padA);
    } else if (a == "--pad-b") {
      ok = args.integer(o.padB);
    } else if (a == "--offset-a") {
      ok = args.integer(o.offsetA);
    } else if (a == "--offset-b") {
      ok = args.integer(o.offsetB);
    } else if (a == "--pad-c") {
      ok = args.integer(o.padC);
    } else if (a == "--offset-c") {
      ok = args.integer(o.offsetC);
    } else if (a == "--stream-k-tiles") {
      ok = args.integer(o.streamKTiles);
    } else if (a == "--device") {
      ok = args.integer(o.device);
    } else if (a == "--samples") {
      ok = args.integer(o.samples);
    } else if (a == "--scalar") {
      ok = args.scalar(o.scalars);
    } else if (a == "--nan") {
      const char *v = args.value();
      if (!v)
        return false;
      o.nanInputs.insert(v);
    } else if (a == "--timeout") {
      const char *v = args.value();
      if (!v)
        return false;
      char *end = nullptr;
      o.timeout = std::strtod(v, &end);
      if (end == v || *end || !(o.timeout >= 0)) {
        std::fprintf(stderr, "error: --timeout: '%s' is not a number of "
                             "seconds >= 0\n", v);
        return false;
      }
    } else if (a == "--rtol" || a == "--atol-rms") {
      const char *v = args.value();
      if (!v)
        return false;
      (a == "--rtol" ? o.rtol : o.atolRms) = std::strtod(v, nullptr);
    } else if (a == "--tuning" || a == "--variant") {
      const char *v = args.value();
      if (!v)
        return false;
      (a == "--tuning" ? o.tuning : o.variant) = v;
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
          o.badArg != "dtype" && o.badArg != "null" &&
          o.badArg != "scale-ld" &&
          o.badArg != "c-is-d") {
        std::fprintf(stderr,
                     "error: --bad-arg: unknown mode '%s' (expected "
                     "misaligned, stride, dtype, null, scale-ld or c-is-d)\n",
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
  if (o.manifest.empty() || !given.count("--m") || !given.count("--n") ||
      !given.count("--k")) {
    std::fprintf(stderr, "error: MANIFEST, --m, --n and --k are required\n");
    return false;
  }
  // An empty problem is refused, not run as a no-op: a test asking for
  // M = 0 has a bug the runner should not hide.
  const std::pair<const char *, int64_t> sizes[] = {
      {"--m", o.M}, {"--n", o.N}, {"--k", o.K}, {"--l", o.L}};
  for (const auto &[flag, v] : sizes)
    if (v < 1) {
      std::fprintf(stderr,
                   "error: %s %lld: %c must be >= 1 (an empty problem is "
                   "not run)\n",
                   flag, static_cast<long long>(v), flag[2] - 'a' + 'A');
      return false;
    }
  return true;
}

int run(const Options &o) {
  auto manifest = loadManifest(o.manifest);
  if (!manifest) {
    std::fprintf(stderr, "error: %s\n", manifest.message().c_str());
    return 2;
  }
  const Manifest &m = *manifest;
  if (!wsgemm::tools::checkScalarFlags(m, o.scalars))
    return 2;
  // --nan names an input matrix: refused here, before a dry run too.
  for (const std::string &name : o.nanInputs) {
    const Param *par = m.findParam(name);
    bool output = name == "D";
    for (const EvtNode &n : m.nodes)
      output |= n.op == EvtOp::AuxStore && n.name == name;
    if (!par || par->kind != ParamKind::TensorMap || output) {
      std::fprintf(stderr, "error: --nan %s: not an input matrix of this "
                           "kernel (A, B, C or an aux load)\n",
                   name.c_str());
      return 2;
    }
  }
  // The CPU reference of --full does M * N * L * K multiply-adds in
  // double; past ~2^38 (minutes on 16 cores) it would look like a hang.
  const double work = double(o.M) * double(o.N) * double(o.L) * double(o.K);
  if (o.full && work > 0x1p38) {
    std::fprintf(stderr,
                 "error: --full: the CPU reference would do %.3g "
                 "multiply-adds (M * N * L * K), more than 2^38 = %.3g: "
                 "drop --full (sampled check) or use a smaller problem\n",
                 work, 0x1p38);
    return 2;
  }

  if (o.dryRun) {
    // The cubin's structure (what Kernel::load checks before the driver),
    // when there is one: a dry run also serves manifests without a cubin.
    std::ifstream exists(m.cubinPath());
    auto cubin = exists ? readFile(m.cubinPath())
                        : Expected<std::vector<char>>(std::vector<char>{0});
    Status image = cubin ? checkCubinImage(cubin->data(), cubin->size())
                         : cubin.status();
    if (!exists)
      std::printf("dry run: no cubin at %s (not checked)\n",
                  m.cubinPath().c_str());
    if (!image.ok()) {
      std::printf("dry run: cubin %s refused: %s\n", m.cubinPath().c_str(),
                  image.message().c_str());
      return 2;
    }
    GemmArgs a = fakeArgs(m, o);
    if (o.badArg.empty()) {
      // The tile order a launch on an H100 (132 SMs) would pack.
      auto g = computeLaunchGeometry(m, a, 132);
      if (g && wsgemm::tools::pinTileOrder(m, *g, o.tileOrder, a) &&
          m.runtimeTileOrder())
        std::printf("dry run: tile order %s on 132 SMs\n",
                    o.tileOrder.describe(*a.tileOrder).c_str());
      Status s = validate(m, a);
      std::printf("dry run: arguments %s%s\n", s.ok() ? "valid" : "refused: ",
                  s.ok() ? "" : s.message().c_str());
      if (!s.ok())
        return 1;
      // What TestProblem would allocate (its check against free memory
      // needs the device).
      auto f = problemFootprint(m, a);
      if (!f) {
        std::printf("dry run: problem refused: %s\n", f.message().c_str());
        return 1;
      }
      std::printf("dry run: the problem needs %llu bytes of device memory "
                  "(%s) and %llu of host memory\n",
                  static_cast<unsigned long long>(f->deviceBytes),
                  f->describe().c_str(),
                  static_cast<unsigned long long>(f->hostBytes));
      return 0;
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
  po.ldAlignBytes = o.alignLd;
  po.padA = o.padA;
  po.padB = o.padB;
  po.offsetA = o.offsetA;
  po.offsetB = o.offsetB;
  po.padC = o.padC;
  po.offsetC = o.offsetC;
  po.scalars = o.scalars;
  po.nanInputs = o.nanInputs;
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
  if (o.streamKTiles >= 0)
    problem->args().streamKTiles = o.streamKTiles;
  auto plan = k.prepare(problem->args());
  if (plan && wsgemm::tools::pinTileOrder(m, plan->geometry, o.tileOrder,
                                          problem->args()))
    plan = k.prepare(problem->args());
  if (!plan) {
    std::fprintf(stderr, "error: %s\n", plan.message().c_str());
    return 2;
  }
  const LaunchGeometry &g = plan->geometry;
  std::printf("launch: grid %ux%ux%u (%lld tiles of %lldx%lld)", g.grid[0],
              g.grid[1], g.grid[2], static_cast<long long>(g.tiles),
              static_cast<long long>(m.tile[0]),
              static_cast<long long>(m.tile[1]));
  if (m.runtimeTileOrder())
    std::printf(", tile order %s",
                o.tileOrder.describe(*problem->args().tileOrder).c_str());
  std::printf("\n");
  if (m.scheduler.kind != SchedulerKind::DataParallel)
    std::printf("tile scheduler: %s, %lld units, %lld split tiles, "
                "stream-K tiles %lld, workspace %llu bytes\n",
                schedulerKindName(m.scheduler.kind),
                static_cast<long long>(g.units),
                static_cast<long long>(g.splitTiles),
                static_cast<long long>(g.streamKTiles),
                static_cast<unsigned long long>(g.workspaceBytes));
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
  if (s.ok()) {
    WaitResult w = waitForStream(stream->get(), o.timeout, "kernel execution");
    if (w.timedOut) {
      std::fprintf(stderr, "error: %s\n", w.status.message().c_str());
      std::printf("RESULT: FAIL (timeout)\n");
      std::fflush(nullptr);
      // The kernel still runs: freeing its buffers or unloading its module
      // would wait for it. Leave; the driver tears the context down.
      std::_Exit(3);
    }
    s = w.status;
  }
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
  bool pass = true;
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
    pass = false;

  GemmArgs args = problem->args();
  auto ref = Reference::create(m, args, problem->takeHost());
  if (!ref) {
    std::fprintf(stderr, "error: reference: %s\n", ref.message().c_str());
    return 2;
  }
  if (!verifyOutputs(m, o, *ref, outs, reds))
    pass = false;

  std::printf("RESULT: %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    usage();
    return 2;
  }
  auto ctx = wsgemm::tools::contextForChoice(o.manifest, o.device, o.dryRun);
  if (!wsgemm::tools::chooseFromFamily(
          o.manifest,
          {o.tuning, o.variant, o.pad, o.alignLd, o.padA, o.padB, o.offsetA,
           o.offsetB, o.padC, o.offsetC},
          {o.M, o.N, o.K, o.L}, o.device, o.dryRun, nullptr, ctx.has_value()))
    return 2;
  return run(o);
}
