//===- TileOrders.cpp - One cubin timed at several tile orders ------------===//
//
// ws-gemm-bench's --tile-orders: a kernel that takes its raster order and
// swizzle at launch (TileOrder.h) is timed at each order asked for, from
// the same buffer sets, the orders interleaved within each round so that
// clock drift spreads over all of them. integration_test/
// tile-order-sweep.sh reads the `tile-order` lines to calibrate the
// runtime's choice.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-bench.h"

#include <algorithm>
#include <cstdio>

using namespace wsgemm::runtime;

namespace wsgemm::bench {

Status preparePlans(const Kernel &k, const Options &o,
                    const std::vector<TestProblem> &sets,
                    const tools::TileOrderChoice &order,
                    std::vector<LaunchPlan> &plans,
                    std::optional<TileOrder> *packed) {
  plans.clear();
  std::optional<TileOrder> pinned;
  for (const TestProblem &p : sets) {
    GemmArgs args = p.args();
    if (o.streamKTiles >= 0)
      args.streamKTiles = o.streamKTiles;
    args.tileOrder = pinned;
    auto plan = k.prepare(args);
    if (plan && !pinned &&
        tools::pinTileOrder(k.manifest(), plan->geometry, order, args)) {
      pinned = args.tileOrder;
      plan = k.prepare(args);
    }
    if (!plan)
      return plan.status();
    plans.push_back(std::move(*plan));
  }
  if (packed)
    *packed = pinned;
  return Status::success();
}

static const char *source(const tools::TileOrderChoice &c) {
  if (!c.forced())
    return "runtime";
  return c.alongM && c.swizzle ? "forced" : "partly_forced";
}

int timeTileOrders(const Kernel &k, const Options &o,
                   const std::vector<TestProblem> &sets, CUstream stream) {
  const Manifest &m = k.manifest();
  if (!m.runtimeTileOrder()) {
    std::fprintf(stderr,
                 "error: --tile-orders: kernel %s takes no tile_order "
                 "parameter (its config fixes raster %s and swizzle %d)\n",
                 m.kernel.c_str(), rasterName(m.grid.raster), m.grid.swizzle);
    return 2;
  }
  size_t n = o.tileOrders.size();
  std::vector<std::vector<LaunchPlan>> plans(n);
  std::vector<std::optional<TileOrder>> orders(n);
  for (size_t i = 0; i < n; ++i) {
    Status s = preparePlans(k, o, sets, o.tileOrders[i], plans[i], &orders[i]);
    if (!s.ok()) {
      std::fprintf(stderr, "error: %s\n", s.message().c_str());
      return 2;
    }
  }
  std::vector<std::vector<double>> ms(n);
  for (int r = 0; r < o.rounds; ++r)
    for (size_t i = 0; i < n; ++i) {
      const std::vector<LaunchPlan> &p = plans[i];
      auto t = timeLaunches(
          [&](int j) {
            return k.launch(p[static_cast<size_t>(j) % p.size()], stream);
          },
          stream, o.warmup, o.iters);
      if (!t) {
        std::fprintf(stderr, "error: %s\n", t.message().c_str());
        return 2;
      }
      ms[i].push_back(t->median);
    }
  for (size_t i = 0; i < n; ++i) {
    std::sort(ms[i].begin(), ms[i].end());
    double med = ms[i][ms[i].size() / 2];
    std::printf("tile-order raster=%s swizzle=%d source=%s ms=%.4f "
                "tflops=%.1f\n",
                orders[i]->alongM ? "along_m" : "along_n", orders[i]->swizzle,
                source(o.tileOrders[i]), med, tflops(o, med));
  }
  return 0;
}

} // namespace wsgemm::bench
