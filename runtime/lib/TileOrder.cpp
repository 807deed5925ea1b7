//===- TileOrder.cpp - Raster order and swizzle chosen at launch ----------===//
//
// Implements chooseTileOrder (TileOrder.h): a footprint model of one wave
// of concurrent tiles, not yet checked against measurements beyond issue
// 27's (integration_test/tile-order-sweep.sh times every order on an H100
// to calibrate it). At 8192 x 14336 x 4096 with 128 x 256
// bf16 tiles (132 CTAs) it prefers along M, swizzle 8: a wave of 17 x 8
// tiles reads 17 A and 8 B panels, where along N with swizzle 1 reads all
// 56 B panels of a row of tiles per wave (issue 27 measured 0.715x of
// cuBLASLt for that order and 0.97-0.99x with swizzle 8).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/TileOrder.h"

#include <algorithm>

namespace wsgemm::runtime {

std::string tileOrderName(const TileOrder &order) {
  return std::string(order.alongM ? "along_m" : "along_n") + ", swizzle " +
         std::to_string(order.swizzle);
}

Status checkTileOrder(const TileOrder &order) {
  int s = order.swizzle;
  if (s != 1 && s != 2 && s != 4 && s != 8)
    return errorf("tileOrder: swizzle ", s,
                  " must be 1, 2, 4 or 8 (the tile scheduler's "
                  "max_swizzle_size)");
  return Status::success();
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

double tileOrderCost(const TileOrderProblem &p, const TileOrder &order) {
  // Along M, rows of the footprint are m-tiles (A panels) and columns
  // n-tiles (B panels); along N the other way round.
  int64_t fast = std::max<int64_t>(1, order.alongM ? p.tilesM : p.tilesN);
  double panelA = double(p.tileM) * p.K * p.bytesA;
  double panelB = double(p.tileN) * p.K * p.bytesB;
  double fastPanel = order.alongM ? panelA : panelB;
  double slowPanel = order.alongM ? panelB : panelA;
  int64_t wave = std::max<int64_t>(1, p.wave);
  int64_t rows = std::min(fast, ceilDiv(wave, std::max(order.swizzle, 1)));
  int64_t columns = ceilDiv(wave, rows);
  return (rows * fastPanel + columns * slowPanel) / double(rows * columns);
}

TileOrder chooseTileOrder(const TileOrderProblem &p) {
  // CUTLASS's Heuristic raster: along M when there are more N tiles.
  TileOrder cutlass{p.tilesN > p.tilesM, 1};
  int64_t tiles = p.tilesM * p.tilesN;
  double bytesA = double(p.tilesM) * p.tileM * p.K * p.bytesA;
  double bytesB = double(p.tilesN) * p.tileN * p.K * p.bytesB;
  if (tiles <= p.wave || 2 * (bytesA + bytesB) <= double(p.l2Bytes))
    return cutlass;
  TileOrder best = cutlass;
  double bestCost = tileOrderCost(p, best);
  for (int swizzle : {1, 2, 4, 8}) {
    // A band wider than the tiles across the raster is a wider tail.
    for (bool alongM : {cutlass.alongM, !cutlass.alongM}) {
      int64_t across = alongM ? p.tilesN : p.tilesM;
      if (swizzle > 1 && swizzle / 2 >= across)
        continue;
      TileOrder order{alongM, swizzle};
      double cost = tileOrderCost(p, order);
      if (cost < 0.98 * bestCost) {
        best = order;
        bestCost = cost;
      }
    }
  }
  return best;
}

} // namespace wsgemm::runtime
