//===- Timing.cpp - ws-gemm-bench's timed launches ------------------------===//
//
// CUDA driver events around each launch, after untimed warm-up launches;
// the median, minimum and 90th percentile of the timed ones.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-bench.h"

#include <algorithm>
#include <vector>

namespace wsgemm::bench {

using namespace runtime;

Expected<Timing> timeLaunches(const std::function<Status(int)> &launch,
                              CUstream stream, int warmup, int iters) {
  for (int i = 0; i < warmup; ++i)
    WSGEMM_TRY(launch(i));
  std::vector<Event> starts, ends;
  for (int i = 0; i < iters; ++i) {
    auto s = Event::create();
    auto e = Event::create();
    if (!s)
      return s.status();
    if (!e)
      return e.status();
    starts.push_back(std::move(*s));
    ends.push_back(std::move(*e));
  }
  WSGEMM_TRY(cuCheck(cuStreamSynchronize(stream), "warm-up"));
  for (int i = 0; i < iters; ++i) {
    WSGEMM_TRY(starts[i].record(stream));
    WSGEMM_TRY(launch(warmup + i));
    WSGEMM_TRY(ends[i].record(stream));
  }
  WSGEMM_TRY(cuCheck(cuStreamSynchronize(stream), "timed launches"));
  std::vector<double> ms;
  for (int i = 0; i < iters; ++i) {
    auto t = ends[i].elapsedSince(starts[i]);
    if (!t)
      return t.status();
    ms.push_back(*t);
  }
  std::sort(ms.begin(), ms.end());
  Timing t;
  t.samples = iters;
  t.min = ms.front();
  t.median = ms.size() % 2 ? ms[ms.size() / 2]
                           : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
  t.p90 = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
  return t;
}

double tflops(const Options &o, double ms) {
  return 2.0 * double(o.M) * double(o.N) * double(o.K) * double(o.L) /
         (ms * 1e-3) / 1e12;
}

} // namespace wsgemm::bench
