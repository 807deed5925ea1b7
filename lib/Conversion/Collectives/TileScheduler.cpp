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
// stores), each CTA taking the tile at its rank in the group.
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
  // In units of cluster groups (a group is one tile without a cluster).
  tilesN = arith::CeilDivUIOp::create(
      b, kc.sizeN, kc.i32(layout.tileN * kc.clusterN));
  tilesM = arith::CeilDivUIOp::create(
      b, kc.sizeM, kc.i32(layout.tileM * kc.clusterM));
  tilesMN = kc.mul(tilesM, tilesN);
  numTiles = kc.mul(tilesMN, kc.param("L"));
  Value bx = NVVM::BlockIdXOp::create(b, kc.i32Ty);
  if (raster == pl::Raster::Heuristic && persistent) {
    // CUTLASS's heuristic: raster along M when there are more N tiles.
    alongM =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, tilesN, tilesM);
  } else {
    alongM = arith::ConstantIntOp::create(
        b, raster == pl::Raster::AlongM ? 1 : 0, 1);
  }
  if (persistent) {
    // A cluster's CTAs are consecutive along x and walk the same groups.
    Value size = kc.i32(kc.clusterSize());
    tileStart = kc.clusterSize() > 1 ? kc.divu(bx, size) : bx;
    tileStep = NVVM::GridDimXOp::create(b, kc.i32Ty);
    if (kc.clusterSize() > 1)
      tileStep = kc.divu(tileStep, size);
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
  int64_t swizzle = kc.desc.config.swizzle.value_or(1);
  tile.batch = kc.divu(linear, tilesMN);
  tile.kTiles = kTiles;
  Value inBatch = kc.remu(linear, tilesMN);
  // `first` runs along the raster direction, `second` across it.
  Value fast = kc.select(alongM, tilesM, tilesN);
  Value first, second;
  if (swizzle == 1) {
    first = kc.remu(inBatch, fast);
    second = kc.divu(inBatch, fast);
  } else {
    // Consecutive tiles alternate within a band of S rows; the last band
    // holds the remaining slow % S rows, so every tile index maps to a tile.
    Value slow = kc.select(alongM, tilesN, tilesM);
    Value s = kc.i32(swizzle);
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
    second = kc.add(kc.mul(band, s), kc.remu(inBand, bandSize));
  }
  Value m = kc.select(alongM, first, second);
  Value n = kc.select(alongM, second, first);
  // The CTA's tile of its cluster's group: ranks run along the cluster's
  // one dimension of size 2.
  if (kc.clusterM > 1)
    m = kc.add(kc.mul(m, kc.i32(kc.clusterM)), kc.ctaRank);
  if (kc.clusterN > 1)
    n = kc.add(kc.mul(n, kc.i32(kc.clusterN)), kc.ctaRank);
  tile.m0 = kc.mul(m, kc.i32(kc.layout.tileM));
  tile.n0 = kc.mul(n, kc.i32(kc.layout.tileN));
}

scf::ForOp TileScheduler::createTileLoop(ValueRange init, WorkTile &tile,
                                         Value first, int64_t every) {
  Value start = first ? kc.add(tileStart, kc.mul(first, tileStep)) : tileStart;
  Value step = every == 1 ? tileStep : kc.mul(tileStep, kc.i32(every));
  auto loop = scf::ForOp::create(kc.b, start, numTiles, step, init);
  kc.b.setInsertionPointToStart(loop.getBody());
  decodeTile(loop.getInductionVar(), tile);
  return loop;
}
