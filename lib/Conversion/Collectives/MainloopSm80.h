//===- MainloopSm80.h - The sm_8x mainloop consumer: ldmatrix, mma.sync -*-===//
//
// CUTLASS's MainloopSm80CpAsync consumer side, in IR, for sm_80/86/89
// kernels: per k-tile, every consumer thread waits for the full stage
// (which the cp.async producer warps filled, CpAsyncProducer.cpp), loads
// its fragments of A and B from the 128B-swizzled stage with ldmatrix.x4
// and multiplies with mma.sync.aligned.m16n8k16 (f16 or bf16, f32
// accumulators), then arrives on the stage's empty barrier. The
// accumulators come back in wgmma's layout (Mainloop.h), which is
// mma.sync's m16n8 C fragment repeated over the tile's columns: warp w of a
// consumer warpgroup holds rows 16 w to 16 w + 15 of each 64-row block of
// the warpgroup's rows, so the epilogue collective reads them unchanged.
// With warp_columns = 2 warp w holds rows 16 (w % 2) .. of each 32-row
// block and half the columns (KernelLayout::warpColumns), which the
// epilogue places by the same layout fields.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_MAINLOOPSM80_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_MAINLOOPSM80_H

#include "TileScheduler.h"

namespace mlir::wsgemm::collectives {

/// Consumer: the ldmatrix + mma.sync loop of `tile` for consumer warpgroup
/// `consumerWg`, whose k-tiles are the mainloop pipeline's uses kBase,
/// kBase + 1, ... Every thread of the warpgroup releases each stage.
/// Returns one !llvm.struct of tile N / 2 f32 per 64-row block of the
/// warpgroup's rows (getAccumulatorType), in wgmma's accumulator layout;
/// with warp_columns = 2, one of tile N / 4 f32 per 32-row block.
SmallVector<Value> emitMainloopMmaSm80(KernelContext &kc, const WorkTile &tile,
                                       Value consumerWg, Value kBase);

/// The multistage mainloop of `tile` (schedule = multistage, CUTLASS 2.x's
/// MmaMultistage): no producer; all 128 x consumer-warpgroups threads copy
/// k-tile kt + stages - 1 with cp.async, one commit_group per k-tile, wait
/// with cp.async.wait_group stages - 2 and bar.sync 0, and multiply stage
/// kt % stages as emitMainloopMmaSm80 does. With 16-byte K-major copies
/// the loop is pipelined (copies between the k-steps' mma.sync, the wait
/// and barrier before the next stage's first fragments); 8- and 4-byte
/// copies keep it in order (wait, copies, multiply). The ring restarts at
/// stage 0 every tile (the last barrier of the tile frees it). Returns the
/// accumulators as emitMainloopMmaSm80.
SmallVector<Value> emitMainloopMultistageSm80(KernelContext &kc,
                                              const WorkTile &tile,
                                              Value consumerWg);

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_MAINLOOPSM80_H
