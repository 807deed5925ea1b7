//===- TileScheduler.h - Which output tile a CTA works on next --*- C++ -*-===//
//
// The tile-scheduler collective: the one place that says which output tiles
// (m, n, l) a CTA walks and which k-range each covers. Today: one tile per
// CTA (a "tiles" grid) or persistent CTAs striding over the tiles in raster
// order (along M or N, CUTLASS's heuristic, or the launch's tile_order
// parameter) with a swizzle (the config's or the launch's); each tile
// covers the whole K. A loop may take every `every`-th of the CTA's tiles
// from its `first`-th on: pingpong's two consumer warpgroups alternate.
// Split-K and stream-K deal out work units, each a k-range of a tile; the
// units of a split tile are summed through a global workspace in a fixed
// order (TileSchedulerFixup.cpp), and the unit holding the tile's last
// k-tile runs its epilogue. It knows nothing of the epilogue or the warp
// roles.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_TILESCHEDULER_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_TILESCHEDULER_H

#include "KernelContext.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::wsgemm::collectives {

/// One unit of work: an output tile (its first row and column, its batch
/// index) and the k-tiles kBegin, ..., kBegin + kTiles - 1 of it. With
/// split-K or stream-K a tile's K range may be split into units that
/// different CTAs accumulate; then `split` is the unit's place in the
/// tile's summation order (0 takes the lowest k-tiles), `last` (i1) whether
/// it holds the tile's last k-tile (it adds the others' partial sums and
/// runs the epilogue) and `slot` the tile's index in the workspace. Without
/// splits, kBegin is 0, split 0 and last true.
struct WorkTile {
  Value m0, n0, batch;
  Value kTiles;
  Value kBegin;
  Value split, last, slot;
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

  /// Whether tiles' K ranges may be split over CTAs (split-K, stream-K).
  bool hasSplits() const { return splitK > 1 || streamK; }

  /// Consumer warpgroup `consumerWg` (its threads meet at named barrier
  /// `barrierId`) after the mainloop of `tile`: folds the unit's
  /// accumulators `acc` into the tile's sum through the workspace, in split
  /// order, and returns the accumulators the epilogue takes when tile.last
  /// (the whole tile's sum). Without splits, returns `acc`.
  SmallVector<Value> emitFixup(const WorkTile &tile, Value consumerWg,
                               Value barrierId, ArrayRef<Value> acc);

private:
  void decodeTile(Value linear, WorkTile &tile);
  void decodeSplitK(Value unit, WorkTile &tile);
  void decodeStreamK(Value index, WorkTile &tile);
  void emitStreamKBounds(Value cta, Value ctas);
  Value streamKOwner(Value iteration);

  KernelContext &kc;
  Value kTiles, tilesM, tilesN, tilesMN, numTiles, tileStart, tileStep;
  Value alongM; // i1: tiles numbered with m fastest.
  /// i32: the launch's swizzle (tile_order); null when the config fixes it.
  Value swizzle;
  int64_t splitK = 1;
  bool streamK = false;
  /// Loop bounds over this CTA's work: units start, start + step, ... < end.
  Value loopEnd;
  /// Stream-K: data-parallel tiles, this CTA's [skBegin, skEnd) of the
  /// stream-K MAC iterations, its stream-K units, the shares' base and
  /// the count of CTAs with one more iteration.
  Value dpTiles, skBegin, skEnd, skUnits, skBase, skExtra;
};

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_TILESCHEDULER_H
