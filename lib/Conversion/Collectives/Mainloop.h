//===- Mainloop.h - The mainloop collective: TMA A/B, wgmma -----*- C++ -*-===//
//
// CUTLASS's CollectiveMma for SM90 TMA warp-specialized kernels, in IR:
// the producer side streams the k-tiles of A and B through the StagesAB
// pipeline (acquire an empty stage, expect its bytes, TMA loads, commit);
// the consumer side waits for each full stage, issues wgmma (both operands
// from shared memory, f32 accumulators in registers), keeps one wgmma group
// in flight and releases the stage whose group retired. Parameterized by the
// plan: element types, B's major, tile, stages. It knows nothing of the
// epilogue, and only the count of consumer warpgroups that share a tile
// (a given of the layout, decided by the schedule).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_MAINLOOP_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_MAINLOOP_H

#include "TileScheduler.h"

namespace mlir::wsgemm::collectives {

/// Producer: issues the TMA loads of every k-tile of `tile`, continuing the
/// mainloop pipeline at `state` (a producer pipeline state); returns the
/// state after the tile. One thread calls it.
Value emitMainloopLoads(KernelContext &kc, const WorkTile &tile, Value state);

/// The producer's loop over `tile`'s k-tiles from pipeline state `start`
/// (every producer collective's): `body(kt, state)` issues k-tile kt's
/// copies into the stage of `state`; returns the state after the tile.
Value emitProducerKTiles(KernelContext &kc, const WorkTile &tile, Value start,
                         function_ref<void(Value kt, Value state)> body);

/// One TMA load of A's (`isA`) or B's tile of a stage at k origin `kCoord`
/// into `dst`, for this CTA alone (no multicast), counted on the mainloop
/// pipeline at `state`: the operand a cp.async producer leaves to TMA.
void emitTmaOperandLoad(KernelContext &kc, bool isA, const WorkTile &tile,
                        Value kCoord, Value dst, Value state);

/// Consumer: the wgmma loop of `tile` for consumer warpgroup `consumerWg`,
/// whose k-tiles are the mainloop pipeline's uses kBase, kBase + 1, ...
/// Returns the accumulators: one !llvm.struct of tile N / 2 f32 per 64-row
/// block of the warpgroup's rows, in wgmma's accumulator layout.
/// `afterIssue`, when given, is emitted once the last wgmma is issued,
/// before waiting for it (CUTLASS's mma / mma_tail split: pingpong hands
/// the tensor cores to the other warpgroup there).
SmallVector<Value> emitMainloopMma(KernelContext &kc, const WorkTile &tile,
                                   Value consumerWg, Value kBase,
                                   function_ref<void()> afterIssue = {});

/// The accumulator type of one 64-row block.
Type getAccumulatorType(KernelContext &kc);

/// Start of stage `stage` (i32) of the A or B ring at SMEM `offset`, whose
/// stages are `bytes` apart.
Value stageBase(KernelContext &kc, int64_t offset, int64_t bytes, Value stage);

/// The wgmma shared-memory descriptor of a 128B-swizzled operand at
/// `sharedPtr` (Mainloop.cpp says how it is packed); `mnBlockBytes` is the
/// leading byte offset of an MN-major operand's 64-element blocks.
Value makeDescriptor(ImplicitLocOpBuilder &b, Value sharedPtr,
                     int64_t mnBlockBytes = 16);

// Mixed input (MixedInput.cpp): a pre-packed i4 A dequantized in registers.

/// Producer of a mixed-input GEMM, run by every lane of the load warp over
/// one work tile from `state`: per k-tile, lane 0 announces and issues the
/// TMA boxes of the pre-packed A units and of B, and the lanes copy the
/// k-tile's group of scales (and zero points) of the tile's rows into the
/// stage with 16-byte cp.async, each arriving on the full barrier as its
/// copies land. Returns the state after the tile.
Value emitMixedInputLoads(KernelContext &kc, const WorkTile &tile, Value state);

/// Threads of a mixed-input GEMM's load role (one warp).
constexpr int64_t kMixedInputProducerThreads = 32;

/// Consumer: emitMainloopMma for a mixed-input GEMM: the same pipeline
/// and accumulators, A read from the stage into registers, dequantized
/// with the scales and zero points of dequant_a, multiplied by wgmma's
/// register-A form.
SmallVector<Value> emitMixedInputMma(KernelContext &kc, const WorkTile &tile,
                                     Value consumerWg, Value kBase,
                                     function_ref<void()> afterIssue);

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_MAINLOOP_H
