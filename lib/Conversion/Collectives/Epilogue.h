//===- Epilogue.h - The epilogue collective ---------------------*- C++ -*-===//
//
// CUTLASS's SM90 TMA warp-specialized CollectiveEpilogue, in IR. The
// epilogue-load warp streams, per 64 x epi N subtile of a tile, the C and
// aux subtiles of every consumer warpgroup by TMA through the StagesC
// pipeline. Each consumer warpgroup, per subtile: waits for the C/aux stage,
// reads its accumulator fragment's C and aux elements (S2R) and broadcast
// vector elements, evaluates the EVT on the fragment as an `epi.visit` op
// (turned into per-element code by --epi-visit-fragments), converts, writes
// D and aux outputs to a StagesD ring (stmatrix for 16-bit D, st.shared
// otherwise; over C with ReuseSmemC), fences, meets the warpgroup at a
// named barrier, and one thread issues the TMA stores as one bulk group
// (DelayTmaStore holds each back by one subtile). Reductions combine the
// visit's per-element contributions across the tile's subtiles, then across
// lanes, then into global memory with atomics.
//
// The epilogue works per consumer warpgroup on the warpgroup's own rows; it
// reads the count of warpgroups that share a tile from the layout and never
// decides it. The EVT itself is not interpreted here: leaves become the
// visit op's sources, outputs its results.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_EPILOGUE_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_EPILOGUE_H

#include "TileScheduler.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::wsgemm::collectives {

/// Bytes of one element of a (whole-byte) epilogue matrix type.
inline int64_t byteWidth(planning::DType type) {
  return planning::getBits(type) / 8;
}

class Epilogue {
public:
  /// Reads the epilogue's run-time state once at the role's entry: scalar
  /// parameters and device scalars, and C's beta == 0 gate.
  explicit Epilogue(KernelContext &kc);

  /// Subtiles of one tile per consumer warpgroup (uses of the epilogue-load
  /// pipeline per tile).
  int64_t getSubtilesPerTile() const;

  /// Epilogue-load warp: the loads of `tile` continuing the epilogue-load
  /// pipeline at `state`; returns the state after the tile. One thread
  /// (TMA), or the warp's 32 with copied loads (sm_8x).
  Value emitLoads(const WorkTile &tile, Value state);
  /// i1: whether the epilogue loads anything at run time (beta == 0 with no
  /// aux loads gates every load off).
  Value getLoadsActive() const { return loadsActive; }

  /// Consumer warpgroup `consumerWg` of those sharing the tile (its rows
  /// and its epilogue buffers): the epilogue of `tile` from the
  /// accumulators of emitMainloopMma; the tile's subtiles are the
  /// epilogue-load pipeline's uses subBase, subBase + 1, ... The
  /// warpgroup's threads meet at named barrier `barrierId` (an i32, unique
  /// per warpgroup of the CTA).
  void emitTile(const WorkTile &tile, Value consumerWg, Value barrierId,
                ArrayRef<Value> acc, Value subBase);

  /// Consumer warpgroup `consumerWg`, before `tile`'s mainloop (sm_90):
  /// loads the thread's elements of the broadcast vectors (epi.load_vec_m,
  /// epi.load_vec_n) of the tile while they take at most
  /// kPrefetchedVectorElements registers, so that their global loads' latency
  /// passes under the mainloop instead of after it; emitTile of the same
  /// tile uses them. A vector past the budget is loaded where the visit
  /// reads it, as without the prefetch.
  void prefetchVectors(const WorkTile &tile, Value consumerWg);
  static constexpr int64_t kPrefetchedVectorElements = 8;

  /// copy_out = load (KernelLayout::copyOutByLoad), run by the load warps:
  /// copies every output subtile the consumer warpgroups staged for `tile`
  /// (copy-out pipeline uses subBase, subBase + 1, ...) to global memory,
  /// each once all of them have arrived on its slot's full barrier, and
  /// frees the slot on its empty barrier.
  void emitCopyOut(const WorkTile &tile, Value subBase);

  /// The warpgroup's TMA stores have read their shared memory, so another
  /// warpgroup may write its buffers (pingpong's epilogue hand-off).
  void emitStoresRead();

  /// Before the consumer exits: its TMA stores have completed.
  void emitTail();

private:
  /// The cp.async loads of subtile (mb, j) at `state` (emitLoads).
  void emitCopiedLoads(const WorkTile &tile, Value state, Value mb, Value j);
  /// The thread that issues, tracks and waits for TMA stores: lane 0 of
  /// each warp (per-warp stores, KernelLayout::storeBoxRows), else the
  /// warpgroup's first thread.
  Value storesIssuer();

  /// One output reduction's per-thread partials over a tile.
  struct Reduction {
    planning::EpilogueOperand operand;
    /// vec_m and scalar: keyed by the row (mb, h); vec_n: by the column
    /// (8-column chunk, e). An element is masked only by the bound that its
    /// key does not fix (its column for a row key, its row for a column
    /// key); the key's own bound is applied once: when the tile flushes, or
    /// for a scalar when its 64-row block ends (foldScalarRows). A scalar
    /// is keyed by row only where scalarKeyedByRow(), else its one partial
    /// is key -1.
    llvm::MapVector<int64_t, Value> partials;
    Value total; // scalar: the rows already folded
    /// The reduce op in the GEMM's EVT, and the value of that EVT the
    /// elements contribute: its operand, or the rest of it when `factor`.
    Operation *reduceOp = nullptr;
    Value reduced;
    /// A `reassoc` uniform factor of a sum's or absmax's operand (|factor|
    /// for absmax), applied once per flushed partial instead of once per
    /// element (planReductions); null when none.
    Value factor;
    /// Elements outside the problem contribute the reduction's identity
    /// without a select (planReductions says when).
    bool unmasked = false;
  };
  /// One accumulator element of a thread within the current subtile.
  struct Element {
    int64_t mb, h, chunk, e; // 64-row block, row half, column chunk, column
    Value gm, gn, offset;    // global row/col; offset in the subtile
  };
  /// The subtile buffers of one subtile.
  struct SubtileBuffers {
    Value c, d;
    llvm::StringMap<Value> auxLoads, auxStores;
    /// The thread's elements of a 16-bit source ("C" or an aux load) read
    /// by ldmatrix before the visit: an i32 of columns e = 0, 1 per
    /// (8-column chunk of the subtile, row half), at chunk * 2 + h.
    llvm::StringMap<SmallVector<Value>> pairs;
  };

  Value ringBuffer(int64_t offset, planning::DType type, int64_t slots,
                   Value consumerWg, Value slot);
  Value swizzleOffset(Value byteOffset, planning::DType type);
  Value loadWidened(Value ptr, planning::DType type);
  Value narrowForMemory(Value v, planning::DType type);
  Value loadShared(Value buf, planning::DType type, Value elemOffset);
  /// Whether a subtile buffer of `type` is read by loadPairs.
  bool readsPairs(planning::DType type) const;
  /// The thread's elements of a 16-bit subtile buffer, by ldmatrix.x4 (the
  /// mirror of emitR2S's stmatrix): SubtileBuffers::pairs' layout.
  SmallVector<Value> loadPairs(Value buf, planning::DType type);
  /// Element `e` of an i32 pair of 16-bit `type`, widened to f32.
  Value widenFromPair(Value pair, planning::DType type, int64_t e);
  void storeShared(Value buf, planning::DType type, Value elemOffset, Value v);
  Value loadVector(StringRef name, planning::DType type, int64_t key,
                   Value index);
  /// How many elements of vector `operand` (VecM or VecN) this thread
  /// reads per tile: loadVector's keys 0, 1, ...
  int64_t vectorKeys(const planning::EpilogueOperand &operand) const;
  /// The global index of `operand`'s element `key` for this thread in
  /// `tile` (rows and columns clamped into the problem, as the visit reads).
  Value vectorIndex(const planning::EpilogueOperand &operand, int64_t key,
                    const WorkTile &tile, Value consumerWg);
  /// rowInSub, colInChunk, rowInBlock and warpCol of this thread.
  void setThreadGeometry();
  /// Builds the visit op of `elements` and returns its outputs by name, one
  /// value per element.
  llvm::StringMap<SmallVector<Value>> visit(ArrayRef<Element> elements,
                                            ArrayRef<Value> acc,
                                            const SubtileBuffers &bufs,
                                            const WorkTile &tile,
                                            Value consumerWg);
  void emitR2S(Value dBuf, ArrayRef<Value> dVals);
  /// `store = direct` (EpilogueDirectStore.cpp): the warpgroup copies the
  /// staged 64 x epi N subtile `buf` of `type` to `operand` with
  /// bounds-checked st.global, or with `reduce` (D only) red.global adding
  /// into the old elements. The subtile is warp_columns rectangles of
  /// blockRows() rows side by side in shared memory: rectangle q goes to
  /// rows from `subRow` and columns from `subCol` + q * warpN().
  void storeDirect(Value buf, planning::DType type, StringRef operand,
                   Value subRow, Value subCol, Value batch,
                   planning::StoreReduce reduce = planning::StoreReduce::None);
  /// storeDirect's copies of the `rows` rows of `buf` from row `bufRow`:
  /// one element per st.global (any alignment, or red.global with
  /// `reduce`), or 16 bytes of a row per st.global.v4 with the piece that N
  /// cuts stored element by element.
  void storeDirectElements(Value buf, Value bufRow, int64_t rows,
                           planning::DType type, StringRef operand,
                           Value subRow, Value subCol, Value batch,
                           planning::StoreReduce reduce);
  void storeDirectVectors(Value buf, Value bufRow, int64_t rows,
                          planning::DType type, StringRef operand,
                          Value subRow, Value subCol, Value batch);
  /// The 16-byte piece `piece` of row `row` of the staged subtile `buf` of
  /// `type` (ld.shared.v4 under the subtile's swizzle).
  Value loadPiece(Value buf, planning::DType type, Value row, Value piece);
  /// storeDirect's copies of a subtile inside M x N to an aligned
  /// `operand`: each thread loads its 64 * P / copyThreads 16-byte pieces
  /// (P a row) of the buffer, then stores them, unpredicated and unrolled.
  void storeDirectWhole(Value buf, planning::DType type, StringRef operand,
                        Value subRow, Value subCol, Value batch);
  /// i1: the subtile whose first rectangle starts at (`subRow`, `subCol`)
  /// lies within M x N (every rectangle's rows and columns).
  Value subtileInside(Value subRow, Value subCol);
  /// i1: `operand`'s base, leading dimension and batch stride put every row
  /// on 16 bytes.
  Value vectorStoresAligned(StringRef operand, planning::DType type);
  /// Finds each reduction's op, its uniform factor and whether its
  /// elements need bounds (Reduction::factor, Reduction::unmasked); emits
  /// the factors where the scalars are read.
  void planReductions();
  /// `v`, uniform in the GEMM's EVT, computed from the epilogue's scalars.
  Value evalUniform(Value v, IRMapping &done);
  /// Folds element `el`'s contribution `v` into its partial, outside M x N
  /// as the reduction's identity when `bounded`.
  void accumulate(Reduction &r, const Element &el, Value v, bool bounded);
  /// The partial (Reduction::partials) element `el` folds into.
  int64_t keyOf(const Reduction &r, const Element &el) const;
  /// The contributions of a fragment's elements (the visit's outputs by
  /// name): without bounds where `inside` (i1: the fragment's subtile lies
  /// within M x N) or the reduction needs none, else bounded.
  void accumulateFragment(ArrayRef<Element> frag,
                          llvm::StringMap<SmallVector<Value>> &out,
                          Value inside);
  /// Whether a scalar reduction's partials are keyed by row (else one
  /// partial, key -1, whose elements check row and column).
  bool scalarKeyedByRow() const;
  /// The global row of a (mb, h) partial key of this thread.
  Value rowOfKey(const WorkTile &tile, Value consumerWg, int64_t key);
  /// Scalar reductions: row block mb's row partials, masked by their rows,
  /// into the total.
  void foldScalarRows(const WorkTile &tile, Value consumerWg, int64_t mb);
  void flushReductions(const WorkTile &tile, Value consumerWg);

  KernelContext &kc;
  Value useC;        // i1: C is read (false when beta == 0 gates it)
  Value loadsActive; // i1
  llvm::StringMap<Value> scalars; // uniform sources by name
  /// Broadcast-vector elements of the current tile, by (name, key).
  std::map<std::pair<std::string, int64_t>, Value> vectors;
  /// `vectors` holds the next emitTile's prefetched elements.
  bool vectorsPrefetched = false;
  std::vector<Reduction> reductions;
  // This thread's row in a subtile's buffer and column base in a chunk;
  // its row in a block of blockRows() rows and its warp's first column in
  // the tile (KernelLayout::warpColumns; 16 w + lane / 4 and 0 with one
  // column of warps).
  Value rowInSub, colInChunk, rowInBlock, warpCol;
  // The threads that copy staged subtiles out (storeDirect): this one's
  // index among them and their count (a consumer warpgroup's 128, or a
  // power of two of the load warps' threads).
  Value copyThread;
  int64_t copyThreads = 128;
};

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_EPILOGUE_H
