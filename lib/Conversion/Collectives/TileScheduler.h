//===- TileScheduler.h - Which output tile a CTA works on next --*- C++ -*-===//
//
// The tile-scheduler collective: the one place that says which output tiles
// (m, n, l) a CTA walks and which k-range each covers. Today: one tile per
// CTA (a "tiles" grid) or persistent CTAs striding over the tiles in raster
// order (along M or N, or CUTLASS's heuristic) with a swizzle; each tile
// covers the whole K. A loop may take every `every`-th of the CTA's tiles
// from its `first`-th on: pingpong's two consumer warpgroups alternate.
// Stream-K belongs here. It knows nothing of the epilogue or the warp roles.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_TILESCHEDULER_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_TILESCHEDULER_H

#include "KernelContext.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::wsgemm::collectives {

/// One output tile: its first row and column, its batch index, and the
/// number of k-tiles it accumulates.
struct WorkTile {
  Value m0, n0, batch;
  Value kTiles;
};

class TileScheduler {
public:
  /// Emits the schedule's grid-wide values (tile counts, this CTA's first
  /// tile and stride) at the builder's insertion point.
  explicit TileScheduler(KernelContext &kc);

  /// Emits the loop over this CTA's tiles carrying `init`, sets the
  /// insertion point at the start of its body and returns the loop; `tile`
  /// receives the body's tile. With `first` (an i32) and `every`, the loop
  /// takes the CTA's tiles first, first + every, first + 2 * every, ...
  /// (counted in the CTA's own sequence of tiles).
  scf::ForOp createTileLoop(ValueRange init, WorkTile &tile,
                            Value first = Value(), int64_t every = 1);

  /// K-tiles per output tile.
  Value getKTiles() const { return kTiles; }

private:
  void decodeTile(Value linear, WorkTile &tile);

  KernelContext &kc;
  Value kTiles, tilesM, tilesN, tilesMN, numTiles, tileStart, tileStep;
  Value alongM; // i1: tiles numbered with m fastest.
};

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_TILESCHEDULER_H
