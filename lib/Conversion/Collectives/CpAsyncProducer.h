//===- CpAsyncProducer.h - cp.async producers of operand tiles -*- C++ -*-===//
//
// The producer collective for operands TMA cannot describe (CUTLASS's
// KernelCpAsyncWarpSpecialized on sm_90, MainloopSm80CpAsync on sm_8x):
// the producer warps copy a global tile into a shared-memory stage with
// cp.async, predicated with zero fill at the matrix's edges, into the
// 128B-swizzled layout the consumers read (the layout TMA writes: row r's
// 16-byte chunk c at chunk c ^ (r % 8) of a 128-byte row, columns in
// blocks of 128 bytes). `emitCopyTile` is the reusable piece (it knows no
// pipeline); `emitCpAsyncMainloopLoads` is the sm_90 mainloop producer
// built on it.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_CPASYNCPRODUCER_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_CPASYNCPRODUCER_H

#include "TileScheduler.h"

namespace mlir::wsgemm::collectives {

/// A tile of a row-major global matrix (rows strided by `ld`, columns
/// contiguous; "rows" are M or N for a K-major operand, K for an MN-major
/// one).
struct GlobalTile {
  Value base;        // !llvm.ptr<1>: element (0, 0) of batch 0
  Value ld;          // i64: elements between rows
  Value batchStride; // i64: elements between batches
  Value batch;       // i32
  Value row0, col0;  // i32: the tile's origin; col0 a multiple of 16 bytes
  Value rows, cols;  // i32: the matrix's extents (copies past them read 0)
  /// Whether (row0, col0) is inside the matrix (operand tiles): a copy past
  /// the edges then reads at the tile's origin, else at element 0 (an
  /// epilogue subtile may start past M or N).
  bool originInside = true;
};

/// A shared-memory stage in TMA's swizzle of `swizzleBytes` (128, 64 or
/// 32: the chunk bits 4.. of a byte offset XOR its bits 7..; 0: none):
/// `tileRows` rows of `tileCols` elements, every `swizzleBytes` of columns
/// (all of them without a swizzle) a block of `tileRows` rows, `blockBytes`
/// apart. Operand stages are 128B-swizzled rows of 128 bytes; an epilogue
/// subtile is one block of rows of any of the four kinds.
struct SwizzledStage {
  Value dst; // !llvm.ptr<3>, 1024-byte aligned
  int64_t tileRows = 0, tileCols = 0, blockBytes = 0;
  int64_t swizzleBytes = 128;
};

/// How a tile is copied: elements of `elementBytes`, `widthBytes` at a
/// time (16: cp.async.cg; 8, 4: cp.async.ca; 2: 16-byte pieces of 4-byte
/// ld.global realigned in registers + st.shared.v4, or, where the matrix
/// turns out 16-byte aligned at run time, ld.global.v4 + st.shared.v4),
/// by `threads` threads of which this one is `thread` (i32).
struct CopyPlan {
  int64_t elementBytes = 2, widthBytes = 16, threads = 128;
  Value thread;
  /// Whether the copies store with st.shared (2-byte width).
  bool usesStores() const { return widthBytes < 4; }
};

/// Issues this thread's copies of `src` into `dst`: consecutive threads
/// take consecutive pieces of a row (coalesced), pieces past `rows` or
/// `cols` are zero-filled (cp.async's src-size; a piece that straddles
/// `cols` copies its bytes inside). Completion is the caller's: a
/// cp.async.mbarrier.arrive or a commit_group/wait_group.
void emitCopyTile(KernelContext &kc, const GlobalTile &src,
                  const SwizzledStage &dst, const CopyPlan &plan);

/// This thread's copies of the k-tile at element `kCoord` of every
/// cp.async operand (A into `aDst`, B into `bDst`), by `threads` threads of
/// which this one is `thread`, at the config's alignment. Completion is the
/// caller's.
void emitCpAsyncOperandCopies(KernelContext &kc, const WorkTile &tile,
                              Value kCoord, Value aDst, Value bDst,
                              Value thread, int64_t threads);

/// The multistage mainloop's copies of a K-major operand (A or B),
/// branch-free so that they can be spread over a k-tile's k-steps
/// (CUTLASS's MmaMultistage issues them between its warp-level MMAs):
/// thread t's piece of round u is row t / P + u * (T / P) at column piece
/// t % P (P 16-byte pieces per 128-byte row, T threads), one source
/// pointer per k-tile stepped by T / P rows a round. A piece past M or N
/// (rows the tile's edge leaves out) or past K (the last k-tile's tail, a
/// k-tile past the tile's) copies 0 bytes (cp.async's src-size: zero
/// fill, nothing read); past K it points at its row's first element.
/// Completion is the caller's (commit_group).
class KTileCopier {
public:
  /// Whether A (`isA`) or B is copied this way by `threads` threads: 16
  /// bytes at a time, K-major, whole rounds of whole rows.
  static bool applies(KernelContext &kc, bool isA, int64_t threads);
  /// This thread's rows of `tile`.
  KTileCopier(KernelContext &kc, bool isA, const WorkTile &tile, Value thread,
              int64_t threads);
  int64_t rounds() const { return nRounds; }
  /// Sets the k-tile at element `kCoord` and its stage `stageDst`.
  void setKTile(Value kCoord, Value stageDst);
  /// Issues round `u` (0 .. rounds() - 1) of the k-tile.
  void issue(int64_t u);

private:
  KernelContext &kc;
  int64_t nRounds = 0, rowsPerRound = 0, elementBytes = 2;
  Value rowStart;   // !llvm.ptr<1>: this thread's first row, element 0
  Value column;     // i32: this thread's first element in a k-tile row
  Value sharedOff;  // i32: this thread's first piece in a stage
  Value step;       // i64: bytes between rounds
  Value rowsInside; // i32: this thread's rounds inside M or N
  Value from, roundsToCopy, stage;
};

/// Threads of the load role when an operand is loaded with cp.async: the
/// producer warpgroup's warps beside the epilogue-load warp.
int64_t getCpAsyncProducerThreads(const planning::KernelLayout &layout);

/// The sm_90 mainloop producer when A or B is loaded with cp.async, run
/// by every thread of the load role over one work tile from `state`:
/// per k-tile, every thread waits for the empty stage, thread 0 announces
/// and issues the TMA operand's box (if one operand stays TMA), every
/// thread copies its pieces of the cp.async operands and arrives on the
/// full barrier as they land. Returns the state after the tile.
Value emitCpAsyncMainloopLoads(KernelContext &kc, const WorkTile &tile,
                               Value state);

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_CPASYNCPRODUCER_H
