//===- TileOrder.h - Raster order and swizzle chosen at launch --*- C++ -*-===//
//
// A persistent kernel compiled without a raster or swizzle in its config
// takes both at launch, in its i32 `tile_order` parameter
// (docs/manifest.md): swizzle * 2 + (along M ? 1 : 0). CUTLASS makes the
// same two choices launch arguments (RasterOrderOptions, max_swizzle_size),
// so that one cubin serves every shape. chooseTileOrder() is the runtime's
// pick, a pure function of the problem's tiles and the grid, so that unit
// tests and a GPU sweep (integration_test/tile-order-sweep.sh) can check it.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_TILEORDER_H
#define WSGEMM_RUNTIME_TILEORDER_H

#include "ws-gemm-runtime/Status.h"

#include <cstdint>
#include <string>

namespace wsgemm::runtime {

/// The order persistent CTAs walk output tiles in: m fastest (along M) or
/// n fastest, in bands of `swizzle` (1, 2, 4 or 8) rows across the raster
/// direction (TileScheduler.cpp).
struct TileOrder {
  bool alongM = false;
  int swizzle = 1;

  /// The kernel parameter's value.
  int32_t encode() const { return swizzle * 2 + (alongM ? 1 : 0); }
  bool operator==(const TileOrder &o) const {
    return alongM == o.alongM && swizzle == o.swizzle;
  }
  bool operator!=(const TileOrder &o) const { return !(*this == o); }
};

/// "along_m, swizzle 8".
std::string tileOrderName(const TileOrder &order);

/// Refuses a swizzle the kernel does not decode:
/// "tileOrder: swizzle 3 must be 1, 2, 4 or 8".
Status checkTileOrder(const TileOrder &order);

/// L2 bytes of an H100 (SXM5: 50 MiB).
constexpr int64_t kH100L2Bytes = 50ll << 20;

/// What the choice looks at. Tiles count units of the kernel's tile
/// scheduler (one tile, or a cluster's group of tiles) of one batch.
struct TileOrderProblem {
  int64_t tilesM = 1, tilesN = 1;
  /// Tiles in flight at once: the persistent grid's CTAs (over the split
  /// count for split-K, whose consecutive units share a tile).
  int64_t wave = 1;
  int64_t tileM = 128, tileN = 128;
  int64_t K = 1;
  int64_t bytesA = 2, bytesB = 2; // element bytes
  int64_t l2Bytes = kH100L2Bytes;
};

/// The runtime's tile order for `p`. Concurrent CTAs walk K together, so
/// the operand panels one wave of tiles reads are fetched from DRAM about
/// once per wave and shared through L2: a wave costs the A panels of the
/// rows it touches plus the B panels of its columns. The choice makes that
/// footprint near-square in bytes (the rows-to-columns ratio of B's panel
/// bytes to A's), from the candidates along M or N with swizzle 1, 2, 4, 8,
/// by the DRAM bytes per tile of a wave:
///   rows along the raster = min(fast tiles, ceil(wave / S)),
///   columns across it     = ceil(wave / rows),
///   bytes per tile        = (rows x fast panel + columns x slow panel) /
///                           (rows x columns),
/// a panel being tile x K x element bytes of its operand. Ties (within 2%)
/// keep the earlier candidate: CUTLASS's raster (along M when N has more
/// tiles), then the smaller swizzle (a cheaper decode). A problem whose A
/// and B fit in half of L2 together, or that is one wave, reads every
/// panel once in any order: CUTLASS's raster, swizzle 1.
TileOrder chooseTileOrder(const TileOrderProblem &p);

/// The modelled DRAM bytes per tile of one wave of `p` in `order`
/// (chooseTileOrder's cost; for tests and the sweep's notes).
double tileOrderCost(const TileOrderProblem &p, const TileOrder &order);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_TILEORDER_H
