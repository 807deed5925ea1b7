//===- BlockScales.h - The mainloop's fp8 block scales ----------*- C++ -*-===//
//
// Block-wise scaling along K (DeepSeek-V3's recipe, `block_scaling = true`):
// A carries one f32 scale per row per 128 of K (block_scale_a, stored
// ceil(K/128) x M with M contiguous), B one per 128 x 128 block
// (block_scale_b, ceil(N/128) x ceil(K/128), K blocks contiguous). Every
// k-tile (tile K = 128: one K block) is promoted as
//   total = fma(partial, scale_a[kb][row] * scale_b[col / 128][kb], total).
// The consumer threads load the scales they need straight from global
// memory (a few L2-resident floats per k-tile), one k-tile ahead of the
// promotion that uses them, so the loads' latency hides behind a whole
// k-tile's wait and wgmma (docs/fp8.md).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_BLOCKSCALES_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_BLOCKSCALES_H

#include "TileScheduler.h"

namespace mlir::wsgemm::collectives {

/// The block scales one consumer thread applies to its accumulator
/// fragments of `tile` (warpgroup `consumerWg`'s rows).
class BlockScales {
public:
  BlockScales(KernelContext &kc, const WorkTile &tile, Value consumerWg);

  /// Loads the scales of K block `kBlock` (i32, clamped to the last block):
  /// per 64-row block mb the A scales of the thread's two rows (mb * 2 + h,
  /// rows r and r + 8), then the B scale of each 128-column block of the
  /// tile. Out-of-range rows and column blocks read the last one (their
  /// outputs are clipped by the TMA store).
  SmallVector<Value> load(Value kBlock);
  /// How many values load() returns.
  int64_t count() const { return 2 * mBlocks + nBlocks; }

  /// `total` + `partial` * scale, element by element, for 64-row block
  /// `mb`, with `scales` from load().
  Value promote(Value total, Value partial, int64_t mb, ValueRange scales);

private:
  KernelContext &kc;
  int64_t mBlocks, nBlocks;
  Value kBlocks;                 // ceil(K / 128), i32
  SmallVector<Value> aRowBase;   // per (mb, h): batch * KB * M + row, i64
  SmallVector<Value> bBlockBase; // per column block: (batch * NB + nb) * KB
};

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_BLOCKSCALES_H
