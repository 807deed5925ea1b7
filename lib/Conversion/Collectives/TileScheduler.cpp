//===- TileScheduler.cpp - Which output tile a CTA works on next ----------===//
//
// Implements the tile scheduler of TileScheduler.h. Output tiles are
// numbered batch-major, then in raster order: along N (n fastest) or along
// M (m fastest); with swizzle S, bands of S tiles across the raster
// direction walk it together (CUTLASS's max_swizzle_size, for L2 reuse).
// Persistent CTAs take tiles blockIdx.x, blockIdx.x + gridDim.x, ...; a
// "tiles" grid (docs/manifest.md) gives each CTA the one tile named by its
// (x, y, z) position, and CTAs past the edge find no tile. A cluster of
// cluster M x cluster N CTAs walks groups of that many tiles the same way
// (the group count rounded up; a CTA whose tile of the group lies past the
// edge still loads its share of the multicast operand, and TMA clips its
// stores), each CTA taking the tile at its rank in the group. A persistent
// kernel whose config leaves raster and swizzle unset reads both from its
// tile_order parameter (swizzle * 2 + along M) and decodes with the band
// walk for any S (S = 1 is one band per row, of one row: tile `first` of
// row `second`, the plain raster order; every tile index maps to one tile
// for any S, the last band holding the remaining rows).
//
//===----------------------------------------------------------------------===//

#include "TileScheduler.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

TileScheduler::TileScheduler(KernelContext &kc) : kc(kc) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::GemmConfig &config = kc.desc.config;
  const pl::KernelLayout &layout = kc.layout;
  bool persistent = config.persistent.value_or(true);
  pl::Raster raster = config.raster.value_or(pl::Raster::Heuristic);

  kTiles = arith::CeilDivUIOp::create(b, kc.sizeK, kc.i32(layout.tileK));
  splitK = config.getSplitK();
  streamK = config.isStreamK();
  // In units of cluster groups (a group is one tile without a cluster).
  tilesN = arith::CeilDivUIOp::create(
      b, kc.sizeN, kc.i32(layout.tileN * kc.clusterN));
  tilesM = arith::CeilDivUIOp::create(
      b, kc.sizeM, kc.i32(layout.tileM * kc.clusterM));
  tilesMN = kc.mul(tilesM, tilesN);
  numTiles = kc.mul(tilesMN, kc.param("L"));
  Value bx = NVVM::BlockIdXOp::create(b, kc.i32Ty);
  if (config.hasRuntimeTileOrder()) {
    // tile_order = swizzle * 2 + along M; a swizzle of 0 counts as 1.
    Value order = kc.param("tile_order");
    alongM = arith::TruncIOp::create(b, b.getI1Type(), order);
    swizzle = arith::MaxUIOp::create(
        b, arith::ShRUIOp::create(b, order, kc.i32(1)), kc.i32(1));
  } else if (raster == pl::Raster::Heuristic && persistent) {
    // CUTLASS's heuristic: raster along M when there are more N tiles.
    alongM =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, tilesN, tilesM);
  } else {
    alongM = arith::ConstantIntOp::create(
        b, raster == pl::Raster::AlongM ? 1 : 0, 1);
  }
  loopEnd = numTiles;
  if (persistent) {
    // A cluster's CTAs are consecutive along x and walk the same groups.
    Value size = kc.i32(kc.clusterSize());
    tileStart = kc.clusterSize() > 1 ? kc.divu(bx, size) : bx;
    tileStep = NVVM::GridDimXOp::create(b, kc.i32Ty);
    if (kc.clusterSize() > 1)
      tileStep = kc.divu(tileStep, size);
    if (splitK > 1) {
      // Units (cluster group, split), dealt like tiles: a cluster's CTAs
      // take the same units, so the same K range of their group's tiles.
      // Every tile of every group has a workspace slot.
      loopEnd = kc.mul(numTiles, kc.i32(splitK));
    } else if (streamK) {
      emitStreamKBounds(bx, tileStep);
    }
    return;
  }
  Value by = NVVM::BlockIdYOp::create(b, kc.i32Ty);
  Value bz = NVVM::BlockIdZOp::create(b, kc.i32Ty);
  Value tilesX = kc.select(alongM, tilesM, tilesN);
  Value inRange = kc.ult(by, kc.select(alongM, tilesN, tilesM));
  inRange = kc.andi(inRange, kc.ult(bx, tilesX));
  Value linear = kc.add(kc.mul(bz, tilesMN), kc.add(kc.mul(by, tilesX), bx));
  tileStart = kc.select(inRange, linear, numTiles);
  tileStep = numTiles;
}

void TileScheduler::decodeTile(Value linear, WorkTile &tile) {
  // The swizzle: the launch's (a value) or the config's (a constant).
  int64_t constSwizzle = swizzle ? 0 : kc.desc.config.swizzle.value_or(1);
  tile.batch = kc.divu(linear, tilesMN);
  if (!tile.kTiles) {
    tile.kTiles = kTiles;
    tile.kBegin = kc.i32(0);
    tile.split = kc.i32(0);
    tile.last = kc.constTrue();
    tile.slot = kc.i32(0);
  }
  Value inBatch = kc.remu(linear, tilesMN);
  // `first` runs along the raster direction, `second` across it.
  Value fast = kc.select(alongM, tilesM, tilesN);
  Value first, second;
  if (constSwizzle == 1) {
    first = kc.remu(inBatch, fast);
    second = kc.divu(inBatch, fast);
  } else if (swizzle) {
    // The launch's S: band `band` holds rows band * S, ... of at most S
    // rows (the last one the remaining slow % S). Fewer values live
    // across the tile loop than the constant-S walk below (which keeps
    // its PTX): no tail bounds, the band's height from min.
    Value slow = kc.select(alongM, tilesN, tilesM);
    Value bandTiles = kc.mul(swizzle, fast);
    Value band = kc.divu(inBatch, bandTiles);
    Value inBand = kc.sub(inBatch, kc.mul(band, bandTiles));
    Value bandStart = kc.mul(band, swizzle);
    Value bandSize =
        arith::MinUIOp::create(kc.b, swizzle, kc.sub(slow, bandStart));
    first = kc.divu(inBand, bandSize);
    second = kc.add(bandStart, kc.remu(inBand, bandSize));
  } else {
    // Consecutive tiles alternate within a band of S rows; the last band
    // holds the remaining slow % S rows, so every tile index maps to a tile.
    Value slow = kc.select(alongM, tilesN, tilesM);
    Value s = kc.i32(constSwizzle);
    Value bandTiles = kc.mul(s, fast);
    Value fullBands = kc.divu(slow, s);
    Value tailStart = kc.mul(fullBands, bandTiles);
    Value inTail = arith::CmpIOp::create(kc.b, arith::CmpIPredicate::uge,
                                         inBatch, tailStart);
    Value bandSize = kc.select(inTail, kc.sub(slow, kc.mul(fullBands, s)), s);
    Value inBand = kc.select(inTail, kc.sub(inBatch, tailStart),
                             kc.remu(inBatch, bandTiles));
    Value band = kc.select(inTail, fullBands, kc.divu(inBatch, bandTiles));
    first = kc.divu(inBand, bandSize);
    // One op at a time: nested calls would order them by the host
    // compiler's argument evaluation (GCC and Clang differ).
    Value offset = kc.remu(inBand, bandSize);
    second = kc.add(kc.mul(band, s), offset);
  }
  Value m = kc.select(alongM, first, second);
  Value n = kc.select(alongM, second, first);
  // The CTA's tile of its cluster's clusterM x clusterN group.
  if (kc.clusterM > 1)
    m = kc.add(kc.mul(m, kc.i32(kc.clusterM)), kc.ctaM);
  if (kc.clusterN > 1)
    n = kc.add(kc.mul(n, kc.i32(kc.clusterN)), kc.ctaN);
  tile.m0 = kc.mul(m, kc.i32(kc.layout.tileM));
  tile.n0 = kc.mul(n, kc.i32(kc.layout.tileN));
}

scf::ForOp TileScheduler::createTileLoop(ValueRange init, WorkTile &tile,
                                         Value first, int64_t every) {
  assert((!hasSplits() || (!first && every == 1)) &&
         "split units are not dealt to alternating warpgroups");
  tile = WorkTile();
  if (streamK) {
    // This CTA's stream-K units, then its data-parallel tiles.
    auto loop = scf::ForOp::create(kc.b, kc.i32(0), loopEnd, kc.i32(1), init);
    kc.b.setInsertionPointToStart(loop.getBody());
    decodeStreamK(loop.getInductionVar(), tile);
    return loop;
  }
  Value start = first ? kc.add(tileStart, kc.mul(first, tileStep)) : tileStart;
  Value step = every == 1 ? tileStep : kc.mul(tileStep, kc.i32(every));
  auto loop = scf::ForOp::create(kc.b, start, loopEnd, step, init);
  kc.b.setInsertionPointToStart(loop.getBody());
  if (splitK > 1)
    decodeSplitK(loop.getInductionVar(), tile);
  else
    decodeTile(loop.getInductionVar(), tile);
  return loop;
}

//===----------------------------------------------------------------------===//
// Split-K and stream-K units
//===----------------------------------------------------------------------===//

void TileScheduler::decodeSplitK(Value unit, WorkTile &tile) {
  Value s = kc.i32(splitK);
  Value linear = kc.divu(unit, s);
  tile.split = kc.remu(unit, s);
  // Balanced: splits differ by at most one k-tile (some are empty when K
  // has fewer k-tiles than splits; they add zeros).
  tile.kBegin = kc.divu(kc.mul(tile.split, kTiles), s);
  Value kEnd = kc.divu(kc.mul(kc.add(tile.split, kc.i32(1)), kTiles), s);
  tile.kTiles = kc.sub(kEnd, tile.kBegin);
  tile.last = kc.eq(tile.split, kc.i32(splitK - 1));
  tile.slot = kc.clusterSize() > 1
                  ? kc.add(kc.mul(linear, kc.i32(kc.clusterSize())), kc.ctaRank)
                  : linear;
  decodeTile(linear, tile);
}

/// The CTA whose share of the stream-K iterations holds `iteration`.
Value TileScheduler::streamKOwner(Value iteration) {
  Value wide = kc.add(skBase, kc.i32(1));
  Value threshold = kc.mul(skExtra, wide);
  Value narrow = arith::MaxUIOp::create(kc.b, skBase, kc.i32(1));
  Value inWide = kc.ult(iteration, threshold);
  return kc.select(
      inWide, kc.divu(iteration, wide),
      kc.add(skExtra, kc.divu(kc.sub(iteration, threshold), narrow)));
}

void TileScheduler::emitStreamKBounds(Value cta, Value ctas) {
  Value requested = kc.param("stream_k_tiles");
  Value skTiles = arith::MinUIOp::create(kc.b, requested, numTiles);
  dpTiles = kc.sub(numTiles, skTiles);
  Value iterations = kc.mul(skTiles, kTiles);
  skBase = kc.divu(iterations, ctas);
  skExtra = kc.remu(iterations, ctas);
  skBegin = kc.add(kc.mul(cta, skBase),
                   arith::MinUIOp::create(kc.b, cta, skExtra));
  skEnd = kc.add(kc.add(skBegin, skBase),
                 arith::ExtUIOp::create(kc.b, kc.i32Ty, kc.ult(cta, skExtra)));
  // Tiles the range touches: from the tile of its first iteration to the
  // tile of its last one.
  Value nonEmpty = kc.ult(skBegin, skEnd);
  Value lastTile = kc.divu(kc.sub(skEnd, kc.i32(1)), kTiles);
  Value firstTile = kc.divu(skBegin, kTiles);
  skUnits = kc.select(nonEmpty,
                      kc.add(kc.sub(lastTile, firstTile), kc.i32(1)),
                      kc.i32(0));
  Value dpUnits = kc.select(
      kc.ult(cta, dpTiles),
      arith::CeilDivUIOp::create(kc.b, kc.sub(dpTiles, cta), ctas),
      kc.i32(0));
  tileStart = cta;
  loopEnd = kc.add(skUnits, dpUnits);
}

void TileScheduler::decodeStreamK(Value index, WorkTile &tile) {
  Value inSk = kc.ult(index, skUnits);
  // Stream-K unit `index`, counted back from the end of the CTA's range.
  Value skTile =
      kc.sub(kc.divu(kc.sub(skEnd, kc.i32(1)), kTiles), index);
  Value tileBegin = kc.mul(skTile, kTiles);
  Value tileEnd = kc.add(tileBegin, kTiles);
  Value segBegin = arith::MaxUIOp::create(kc.b, skBegin, tileBegin);
  Value segEnd = arith::MinUIOp::create(kc.b, skEnd, tileEnd);
  // Data-parallel tile: this CTA's (index - units)-th.
  Value dpTile =
      kc.add(tileStart, kc.mul(kc.sub(index, skUnits), tileStep));
  Value linear = kc.select(inSk, kc.add(dpTiles, skTile), dpTile);
  tile.kBegin = kc.select(inSk, kc.sub(segBegin, tileBegin), kc.i32(0));
  tile.kTiles = kc.select(inSk, kc.sub(segEnd, segBegin), kTiles);
  // Units of a tile sum in the order of their CTAs, which is k order.
  Value owner = streamKOwner(tileBegin);
  tile.split = kc.select(inSk, kc.sub(tileStart, owner), kc.i32(0));
  tile.last = kc.select(inSk, kc.eq(segEnd, tileEnd), kc.constTrue());
  tile.slot = kc.select(inSk, skTile, kc.i32(0));
  decodeTile(linear, tile);
}
