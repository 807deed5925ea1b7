//===- ws-gemm-launch-test.cpp - The launch path on the GPU ----------------===//
//
// Checks what a user of the C and C++ runtimes relies on, per kernel:
//   host   host microseconds per launch in the steady state, through the
//          C++ API (Kernel::launch) and the C API (wsgemmRtKernelLaunch),
//          next to the first (cold) launch;
//   threads  T threads launch one C API kernel handle from cold, each on
//          its own stream and output, N times; every D is bit-identical to
//          a single-threaded launch's;
//   graph  the launch captured with cuStreamBeginCapture (global mode) on
//          a fresh stream, with no launch of these arguments before (so the
//          plan, and a split-K / stream-K workspace, are made during the
//          capture); the graph replayed R times, each replay's D
//          bit-identical to the eager D and its reductions within the
//          reference's tolerance of the eager ones; then the replay time
//          per GEMM next to the eager launch's (CUDA events).
// Prints "PASS <what> <kernel>: ..." or "FAIL ..." lines and exits non-zero
// on any failure.
//
//   ws-gemm-launch-test [--threads T] [--launches N] [--replays R]
//       [--shape M,N,K] [--time-shape M,N,K] KERNEL.json...
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime-c/Runtime.h"
#include "ws-gemm-runtime/Kernel.h"
#include "ws-gemm-runtime/Problem.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace wsgemm::runtime;

namespace {

struct Options {
  int threads = 8, launches = 300, replays = 5, hostIters = 400;
  int64_t M = 776, N = 1032, K = 520;
  int64_t tM = 4096, tN = 4096, tK = 1024;
  std::vector<std::string> kernels;
};

int failures = 0;

void report(bool ok, const char *what, const std::string &kernel,
            const std::string &detail) {
  std::printf("%s %s %s: %s\n", ok ? "PASS" : "FAIL", what, kernel.c_str(),
              detail.c_str());
  std::fflush(stdout);
  if (!ok)
    ++failures;
}

bool fail(const std::string &what, const Status &s) {
  std::printf("FAIL %s: %s\n", what.c_str(), s.message().c_str());
  ++failures;
  return false;
}

/// A problem's D as raw bytes (bit-identity), and its reductions.
struct Outputs {
  std::vector<double> d;
  std::vector<std::vector<double>> reductions;
};

Expected<Outputs> download(const TestProblem &p) {
  Outputs o;
  auto d = p.downloadMatrix("D");
  if (!d)
    return d.status();
  o.d = d->data;
  for (const std::string &r : p.reductions()) {
    auto v = p.downloadReduction(r);
    if (!v)
      return v.status();
    o.reductions.push_back(*v);
  }
  return o;
}

/// Elements that differ bit for bit (NaN == NaN when both are NaN).
size_t differing(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size())
    return std::max(a.size(), b.size());
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0 &&
        !(std::isnan(a[i]) && std::isnan(b[i])))
      ++n;
  return n;
}

/// Reductions agree to a relative 1e-3 of their largest magnitude (sums
/// combine with atomics in any order).
bool reductionsClose(const Outputs &a, const Outputs &b) {
  for (size_t r = 0; r < a.reductions.size(); ++r) {
    double scale = 1e-30;
    for (double v : a.reductions[r])
      scale = std::max(scale, std::isfinite(v) ? std::fabs(v) : 0.0);
    for (size_t i = 0; i < a.reductions[r].size(); ++i) {
      double x = a.reductions[r][i], y = b.reductions[r][i];
      if (std::isfinite(x) != std::isfinite(y) ||
          (std::isfinite(x) && std::fabs(x - y) > 1e-3 * scale))
        return false;
    }
  }
  return true;
}

WsGemmRtArgs toCArgs(const Manifest &m, const GemmArgs &g) {
  WsGemmRtArgs a = wsgemmRtArgsCreate();
  wsgemmRtArgsSetProblem(a, g.M, g.N, g.K, g.L);
  auto tensor = [&](const char *name, const TensorArg &t) {
    if (t.ptr)
      wsgemmRtArgsSetTensor(a, name, t.ptr, nullptr, t.ld, t.batchStride);
  };
  tensor("A", g.A);
  tensor("B", g.B);
  tensor("C", g.C);
  tensor("D", g.D);
  for (const auto &[name, t] : g.named)
    tensor(name.c_str(), t);
  for (const auto &[name, v] : g.scalars)
    wsgemmRtArgsSetScalar(a, name.c_str(), v);
  (void)m;
  return a;
}

double microseconds(std::chrono::steady_clock::time_point a,
                    std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

/// Host cost per launch, C++ and C API, at a small problem (the GPU keeps
/// up with the host, so the launch queue never blocks).
void hostCost(const Options &o, const std::string &path, const Manifest &m,
              WsGemmRtKernel ck) {
  ProblemOptions po;
  po.M = 256, po.N = 256, po.K = 256, po.L = m.batched ? 2 : 1;
  po.keepHost = false;
  auto p = TestProblem::create(m, po);
  auto k = ModuleCache::global().get(path);
  if (!p || !k) {
    fail("host " + m.kernel, p ? k.status() : p.status());
    return;
  }
  auto s = Stream::create();
  auto t0 = std::chrono::steady_clock::now();
  Status first = (*k)->launch(p->args(), s->get());
  auto t1 = std::chrono::steady_clock::now();
  if (!first.ok()) {
    fail("host " + m.kernel, first);
    return;
  }
  (void)s->synchronize("warm-up");
  auto t2 = std::chrono::steady_clock::now();
  for (int i = 0; i < o.hostIters; ++i)
    (void)(*k)->launch(p->args(), s->get());
  auto t3 = std::chrono::steady_clock::now();
  (void)s->synchronize("C++ launches");
  // cuLaunchKernelEx alone, from a plan held here: the floor.
  auto plan = (*k)->plan(p->args(), s->get());
  auto t6 = std::chrono::steady_clock::now();
  for (int i = 0; plan && i < o.hostIters; ++i)
    (void)(*k)->launch(**plan, s->get());
  auto t7 = std::chrono::steady_clock::now();
  (void)s->synchronize("bare launches");
  WsGemmRtArgs ca = toCArgs(m, p->args());
  (void)wsgemmRtKernelLaunch(ck, ca, s->get());
  (void)s->synchronize("warm-up");
  auto t4 = std::chrono::steady_clock::now();
  int bad = 0;
  for (int i = 0; i < o.hostIters; ++i)
    bad += wsgemmRtKernelLaunch(ck, ca, s->get()) != WSGEMMRT_OK;
  auto t5 = std::chrono::steady_clock::now();
  (void)s->synchronize("C launches");
  wsgemmRtArgsDestroy(ca);
  char line[256];
  std::snprintf(line, sizeof line,
                "first launch %.1f us; steady state %.2f us (C++ API), %.2f "
                "us (C API) per launch, cuLaunchKernelEx alone %.2f us, "
                "256x256x256, %d launches",
                microseconds(t0, t1), microseconds(t2, t3) / o.hostIters,
                microseconds(t4, t5) / o.hostIters,
                microseconds(t6, t7) / o.hostIters, o.hostIters);
  report(bad == 0, "host", m.kernel, line);
}

/// T threads from cold on one C API handle, own streams and outputs.
void threads(const Options &o, const std::string &path, const Manifest &m,
             const Outputs &want) {
  WsGemmRtKernel k = nullptr;
  if (wsgemmRtKernelLoad(path.c_str(), &k) != WSGEMMRT_OK) {
    report(false, "threads", m.kernel, wsgemmRtGetLastError());
    return;
  }
  ProblemOptions po;
  po.M = o.M, po.N = o.N, po.K = o.K, po.L = m.batched ? 3 : 1;
  po.keepHost = false;
  std::vector<TestProblem> problems;
  for (int t = 0; t < o.threads; ++t) {
    auto p = TestProblem::create(m, po);
    if (!p) {
      fail("threads " + m.kernel, p.status());
      return;
    }
    problems.push_back(std::move(*p));
  }
  // Their fills and poison went through the legacy stream, which the
  // threads' non-blocking streams do not wait for.
  (void)cuStreamSynchronize(nullptr);
  std::vector<std::string> errors(o.threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < o.threads; ++t)
    pool.emplace_back([&, t] {
      CUstream s = nullptr;
      WsGemmRtArgs a = toCArgs(m, problems[t].args());
      for (int i = 0; i < o.launches && errors[t].empty(); ++i) {
        if (!s) {
          // The first launch makes the thread's context current.
          if (wsgemmRtKernelLaunch(k, a, nullptr) != WSGEMMRT_OK ||
              cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
            errors[t] = wsgemmRtGetLastError();
          continue;
        }
        if (wsgemmRtKernelLaunch(k, a, s) != WSGEMMRT_OK)
          errors[t] = wsgemmRtGetLastError();
      }
      if (s) {
        if (cuStreamSynchronize(s) != CUDA_SUCCESS && errors[t].empty())
          errors[t] = "cuStreamSynchronize failed";
        cuStreamDestroy(s);
      }
      (void)cuStreamSynchronize(nullptr);
      wsgemmRtArgsDestroy(a);
    });
  for (auto &th : pool)
    th.join();
  size_t bad = 0;
  std::string error;
  for (int t = 0; t < o.threads; ++t) {
    if (!errors[t].empty()) {
      error = errors[t];
      continue;
    }
    auto got = download(problems[t]);
    bad += got ? differing(got->d, want.d) : want.d.size();
  }
  wsgemmRtKernelDestroy(k);
  char line[256];
  std::snprintf(line, sizeof line,
                "%d threads x %d launches from cold, own streams: %zu "
                "elements differ from the single-threaded D%s%s",
                o.threads, o.launches, bad, error.empty() ? "" : "; ",
                error.c_str());
  report(bad == 0 && error.empty(), "threads", m.kernel, line);
}

/// Captures the C API launch into a graph, replays it, compares, times.
void graph(const Options &o, const std::string &path, const Manifest &m,
           TestProblem &p, const Outputs &want) {
  WsGemmRtKernel k = nullptr;
  if (wsgemmRtKernelLoad(path.c_str(), &k) != WSGEMMRT_OK) {
    report(false, "graph", m.kernel, wsgemmRtGetLastError());
    return;
  }
  CUstream s = nullptr;
  cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  WsGemmRtArgs a = toCArgs(m, p.args());
  std::string what;
  CUgraph g = nullptr;
  CUgraphExec exec = nullptr;
  if (cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL) != CUDA_SUCCESS)
    what = "cuStreamBeginCapture failed";
  else {
    // Reductions back to their identity inside the graph, then the GEMM.
    int r = 0;
    for (const Param &prm : m.params) {
      if (prm.kind != ParamKind::Reduction)
        continue;
      float id = reductionIdentity(prm.reduce);
      unsigned bits;
      std::memcpy(&bits, &id, 4);
      const TensorArg &t = p.args().named.at(p.reductions()[r++]);
      int64_t n = extentElements(prm.extent, p.args(), m);
      cuMemsetD32Async(t.ptr, bits, n, s);
    }
    if (wsgemmRtKernelLaunch(k, a, s) != WSGEMMRT_OK)
      what = std::string("launch under capture: ") + wsgemmRtGetLastError();
    if (cuStreamEndCapture(s, &g) != CUDA_SUCCESS && what.empty())
      what = "cuStreamEndCapture failed (the capture was invalidated)";
    if (what.empty() && cuGraphInstantiate(&exec, g, 0) != CUDA_SUCCESS)
      what = "cuGraphInstantiate failed";
  }
  size_t bad = 0;
  bool close = true;
  for (int r = 0; what.empty() && r < o.replays; ++r) {
    // The poison goes through the legacy stream, which a non-blocking
    // stream does not wait for: wait for it here, or a late memset lands
    // on the replay's D (seen under the parallel suite's load).
    (void)p.resetOutputs();
    (void)cuStreamSynchronize(nullptr);
    if (cuGraphLaunch(exec, s) != CUDA_SUCCESS ||
        cuStreamSynchronize(s) != CUDA_SUCCESS) {
      what = "replay failed";
      break;
    }
    auto got = download(p);
    if (!got) {
      what = got.message();
      break;
    }
    bad += differing(got->d, want.d);
    close = close && reductionsClose(want, *got);
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "captured from cold, %d replays: %zu D elements differ from "
                "the eager D, reductions %s%s%s",
                o.replays, bad, close ? "match" : "DIFFER",
                what.empty() ? "" : "; ", what.c_str());
  report(what.empty() && bad == 0 && close, "graph", m.kernel, line);
  if (exec)
    cuGraphExecDestroy(exec);
  if (g)
    cuGraphDestroy(g);
  wsgemmRtArgsDestroy(a);
  cuStreamDestroy(s);
  wsgemmRtKernelDestroy(k);
}

/// Replay time per GEMM of a graph of 20 launches against 20 eager
/// launches, at the timing shape (median of 5 alternating rounds).
void graphTime(const Options &o, const std::string &path, const Manifest &m) {
  ProblemOptions po;
  po.M = o.tM, po.N = o.tN, po.K = o.tK, po.L = 1;
  po.keepHost = false;
  auto p = TestProblem::create(m, po);
  auto k = ModuleCache::global().get(path);
  if (!p || !k) {
    fail("graph-time " + m.kernel, p ? k.status() : p.status());
    return;
  }
  CUstream s = nullptr;
  cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  const int n = 20;
  for (int i = 0; i < 3; ++i)
    (void)(*k)->launch(p->args(), s);
  CUgraph g = nullptr;
  CUgraphExec exec = nullptr;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  for (int i = 0; i < n; ++i)
    (void)(*k)->launch(p->args(), s);
  cuStreamEndCapture(s, &g);
  if (!g || cuGraphInstantiate(&exec, g, 0) != CUDA_SUCCESS) {
    report(false, "graph-time", m.kernel, "capture failed");
    return;
  }
  auto e0 = Event::create(), e1 = Event::create();
  std::vector<double> eager, replay;
  for (int r = 0; r < 5; ++r) {
    for (int which = 0; which < 2; ++which) {
      bool useGraph = (which + r) % 2 == 1;
      (void)e0->record(s);
      if (useGraph)
        cuGraphLaunch(exec, s);
      else
        for (int i = 0; i < n; ++i)
          (void)(*k)->launch(p->args(), s);
      (void)e1->record(s);
      (void)e1->synchronize();
      auto ms = e1->elapsedSince(*e0);
      (useGraph ? replay : eager).push_back(ms ? *ms / n : 0);
    }
  }
  std::sort(eager.begin(), eager.end());
  std::sort(replay.begin(), replay.end());
  char line[256];
  std::snprintf(line, sizeof line,
                "%lldx%lldx%lld: %.4f ms per GEMM replayed, %.4f ms launched "
                "(median of 5 rounds of %d), ratio %.3f",
                (long long)o.tM, (long long)o.tN, (long long)o.tK, replay[2],
                eager[2], n, replay[2] / eager[2]);
  report(true, "graph-time", m.kernel, line);
  cuGraphExecDestroy(exec);
  cuGraphDestroy(g);
  cuStreamDestroy(s);
}

bool parseShape(const char *v, int64_t &m, int64_t &n, int64_t &k) {
  long long a, b, c;
  if (!v || std::sscanf(v, "%lld,%lld,%lld", &a, &b, &c) != 3)
    return false;
  m = a, n = b, k = c;
  return m > 0 && n > 0 && k > 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string f = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (f == "--threads" && v)
      o.threads = std::atoi(argv[++i]);
    else if (f == "--launches" && v)
      o.launches = std::atoi(argv[++i]);
    else if (f == "--replays" && v)
      o.replays = std::atoi(argv[++i]);
    else if (f == "--shape" && parseShape(v, o.M, o.N, o.K))
      ++i;
    else if (f == "--time-shape" && parseShape(v, o.tM, o.tN, o.tK))
      ++i;
    else if (!f.empty() && f[0] != '-')
      o.kernels.push_back(f);
    else {
      std::fprintf(stderr,
                   "usage: %s [--threads T] [--launches N] [--replays R] "
                   "[--shape M,N,K] [--time-shape M,N,K] KERNEL.json...\n",
                   argv[0]);
      return 2;
    }
  }
  if (o.kernels.empty() || o.threads < 1 || o.launches < 1 || o.replays < 1) {
    std::fprintf(stderr, "error: no kernel, or a count below 1\n");
    return 2;
  }
  auto ctx = Context::create(0);
  if (!ctx)
    return fail("context", ctx.status()), 1;
  for (const std::string &path : o.kernels) {
    auto m = loadManifest(path);
    if (!m) {
      fail(path, m.status());
      continue;
    }
    // The eager reference: one C++ launch of a fresh problem.
    ProblemOptions po;
    po.M = o.M, po.N = o.N, po.K = o.K, po.L = m->batched ? 3 : 1;
    po.keepHost = false;
    auto p = TestProblem::create(*m, po);
    auto k = ModuleCache::global().get(path);
    if (!p || !k) {
      fail(m->kernel, p ? k.status() : p.status());
      continue;
    }
    Status s = p->resetOutputs();
    if (s.ok())
      s = (*k)->launch(p->args(), nullptr);
    if (s.ok())
      s = cuCheck(cuStreamSynchronize(nullptr), "eager launch");
    auto want = s.ok() ? download(*p) : Expected<Outputs>(s);
    if (!want) {
      fail(m->kernel, want.status());
      continue;
    }
    WsGemmRtKernel ck = nullptr;
    if (wsgemmRtKernelLoad(path.c_str(), &ck) != WSGEMMRT_OK) {
      report(false, "load", m->kernel, wsgemmRtGetLastError());
      continue;
    }
    hostCost(o, path, *m, ck);
    wsgemmRtKernelDestroy(ck);
    threads(o, path, *m, *want);
    graph(o, path, *m, *p, *want);
    if (!m->batched)
      graphTime(o, path, *m);
  }
  std::printf("launch-test: %s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
