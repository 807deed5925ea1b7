//===- KernelLayout.h - Shared memory and parameters of a kernel -*- C++
//-*-===//
//
// The one description of a planned kernel that every later step reads: the
// offsets of its shared-memory buffers, the total dynamic SMEM, and its
// parameter list in launch order. Free of IR, computed from a GemmDesc whose
// config fillDefaults completed, so that --wsgemm-plan (the budget it checks
// and records), --wsgemm-specialize (the buffers it addresses),
// --wsgemm-emit-manifest (the runtime's contract) and the unit tests agree
// byte for byte.
//
// Layout (offsets from the dynamic SMEM base, which the kernel aligns up to
// 1024 bytes at run time; the budget reserves those 1024 bytes):
//   A stages, B stages            stages x tile x bytes, 1024-aligned
//   C buffers                     stages_c x epi_tile x bytes(C), when the
//                                 epilogue loads C; with reuse_smem_c D's
//                                 subtiles live here too
//   D buffers                     stages_d x epi_tile x bytes(D), when D
//                                 does not reuse C's buffers
//   aux load buffers              stages_c x epi_tile x bytes per distinct
//                                 aux_load name
//   aux store buffers             one store-ring x epi_tile x bytes per
//                                 aux_store name (the store ring is C's with
//                                 reuse_smem_c, else D's)
//   mainloop barriers             stages x (full + empty) x 8
//   epilogue barriers             stages_c x (full + empty) x 8, when the
//                                 epilogue loads C or aux matrices
//   order barriers                pingpong: 2 sequences (mainloop turns,
//                                 epilogue turns) x 2 warpgroups x 8
//   base alignment                1024 (the run-time round-up of the base)
// Each epilogue buffer holds one 64-row subtile per consumer warpgroup that
// shares a tile: a ring of `slots` subtiles per warpgroup, warpgroup-major
// (pingpong's two warpgroups take turns with one set of buffers). Broadcast
// vectors are read from global memory and reductions combine with shuffles and
// global atomics: neither takes shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_KERNELLAYOUT_H
#define WSGEMM_DIALECT_WSGEMM_KERNELLAYOUT_H

#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::wsgemm::planning {

enum class SmemKind {
  AStages,
  BStages,
  DequantStages,
  CBuffers,
  DBuffers,
  AuxLoadBuffers,
  AuxStoreBuffers,
  MainloopBarriers,
  EpilogueBarriers,
  OrderBarriers,
  CopyOutBarriers,
  AlignmentPadding,
  BaseAlignment,
};

struct SmemItem {
  SmemKind kind;
  const char *name; // "A stages", "C buffers", ...
  int64_t bytes;
  std::string formula; // e.g. "4 x 128x64 x 2 B"; empty when bytes is 0
};

/// The itemised dynamic shared memory of a kernel, in layout order.
struct SmemBudget {
  std::vector<SmemItem> items; // one per SmemKind, in enum order
  int64_t total = 0;

  int64_t get(SmemKind kind) const;
};

/// One kernel parameter, in launch order (docs/manifest.md).
struct KernelParam {
  enum class Kind {
    TensorMap,
    Pointer,
    Scalar,
    ScalarPointer,
    Reduction,
    Size,
    /// Split-K / stream-K: the global f32 workspace (partial tiles, flags).
    Workspace,
    /// Stream-K: the count of stream-K tiles the runtime chose (i32).
    StreamKTiles,
    /// The launch's tile order (i32): swizzle * 2 + (along M ? 1 : 0), when
    /// the config leaves raster and swizzle to the launch
    /// (GemmConfig::hasRuntimeTileOrder).
    TileOrder,
    /// `store = direct`: an output matrix stored with st.global, or
    /// `load_a`/`load_b = cp_async`: A or B read with cp.async; passed by
    /// value as {address, ld, batch stride} (3 x i64, strides in
    /// elements); dims as a tensor map's, no box.
    Matrix
  };
  Kind kind;
  std::string name;
  /// Tensor maps and matrices: the operand ("A", "B", "C", "D", or the aux
  /// name).
  /// Sizes: "M", "N", "K", "L". Block-scale pointers: "A" or "B" (the
  /// operand they scale); empty for the EVT's pointers.
  std::string operand;
  /// Element type in memory (pointers, tensor maps, matrices); f32 for
  /// scalars and
  /// reductions; None for sizes (i32).
  DType type = DType::F32;
  /// Tensor maps: dims and box, innermost first; swizzle in bytes (0: none).
  /// Matrices: dims only.
  std::vector<std::string> dims;
  std::vector<int64_t> box;
  int64_t swizzleBytes = 0;
  /// Pointers and reductions: the extent, e.g. {"M", "L"}.
  std::vector<std::string> extent;
  /// Reductions: sum, max, min, absmax.
  std::string reduce;
  /// Matrices read with cp.async (A, B): the bytes of alignment their
  /// base, ld and batch stride must have (the copy width); pointers: their
  /// base's (a mixed-input A's scales and zero points: 16); 0 otherwise.
  int64_t alignBytes = 0;
  /// A mixed-input GEMM's pre-packed A tensor map: the packing's name
  /// (kPackingI4); its box is in packed units, not in dims' (manifest.md).
  std::string packing;
  /// A K-major B tensor map whose one box loads `kChunks` consecutive
  /// blocks of box[0] along K (manifest `k_chunks`; 0: one block).
  int64_t kChunks = 0;
  /// Pointers: the scales and zero points of the operand that `operand`
  /// names (a mixed-input A) rather than fp8 block scales.
  bool dequant = false;
};

/// An aux matrix's subtile ring in shared memory.
struct AuxBuffer {
  std::string name;
  DType type;
  int64_t offset = 0;
};

/// Everything the lowering needs about a planned kernel.
struct KernelLayout {
  // Geometry decided by the config.
  int64_t tileM = 0, tileN = 0, tileK = 0;
  int64_t consumerWarpgroups = 1; // warpgroups that share one tile
  int64_t mmaWarpgroups = 1;      // consumer warpgroups of the CTA
  int64_t wgRows = 0;             // rows of the tile per consumer warpgroup
  int64_t epiN = 0;               // epilogue subtile columns (64 rows each)
  /// sm_8x: a consumer warpgroup's warps along N (warp_columns). Warp w
  /// holds columns warpN() * (w / warpsM()) .. of the warpgroup's columns
  /// and rows 16 (w % warpsM()) + blockRows() * b .. + 15 of each block b of
  /// blockRows() rows. 1: wgmma's layout (blocks of 64 rows, all columns).
  /// An epilogue subtile is then warpColumns rectangles of blockRows() x
  /// epi N side by side, one per column of warps (Epilogue.cpp).
  int64_t warpColumns = 1;
  int64_t warpsM() const { return 4 / warpColumns; }
  int64_t warpN() const { return tileN / warpColumns; }
  int64_t blockRows() const { return 16 * warpsM(); }
  int64_t rowBlocks() const { return wgRows / blockRows(); }
  int64_t stages = 0, stagesC = 0, stagesD = 0;
  bool reuseSmemC = false; // D staged in C's buffers
  int64_t storeRing = 0;   // slots of the D / aux-store ring

  // Byte offsets from the 1024-aligned base; -1 when absent.
  int64_t offA = 0, offB = 0, offC = -1, offD = -1;
  /// A mixed-input A's scales (then zero points) of each stage: tile M
  /// values of B's type each, copied by the load warp beside A's box
  /// (docs/mixed-input.md); -1 without dequantization.
  int64_t offDequant = -1;
  int64_t offMainBarriers = 0, offEpiBarriers = -1;
  /// Pingpong's order barriers: the mainloop's 2, then the epilogue's 2.
  int64_t offOrderBarriers = -1;
  /// copy_out = load (sm_8x): the load warps copy the staged subtiles out;
  /// a full and an empty barrier per store-ring slot (-1 without).
  bool copyOutByLoad = false;
  int64_t offCopyOutBarriers = -1;
  std::vector<AuxBuffer> auxLoads, auxStores;
  /// Dynamic SMEM to launch with (what --wsgemm-plan records).
  int64_t smemBytes = 0;
  SmemBudget budget;

  std::vector<KernelParam> params;

  /// Split-K whose last unit gathers the other units' partials (each its
  /// own slot, no chain: TileSchedulerFixup.cpp): split_k > 1 with at most
  /// 64 accumulators per thread. With more (128x256 split 4) the gather
  /// loop ran out of registers and spilled, and such tiles' k-loops are
  /// long enough that the chain's hand-offs hardly show: they keep it.
  bool gatherSplits = false;
  /// Split-K / stream-K workspace, per output tile whose K range is split,
  /// one slot: its f32 partial accumulators (tile M x tile N x 4 bytes
  /// each; S - 1 of them with gatherSplits, else one), then its flags (one
  /// i32 per consumer warpgroup, 16 bytes) (docs/stream-k.md); 0 without a
  /// workspace.
  int64_t workspaceTileBytes = 0, workspaceFlagBytes = 0;

  /// Bytes of one A or B stage, and of one 64 x epiN subtile of `type`.
  int64_t stageBytesA = 0, stageBytesB = 0;
  /// Bytes of one stage's dequantization rows (scales, then zero points;
  /// 0 without a mixed-input A).
  int64_t stageBytesDequant = 0;
  int64_t subtileBytes(DType type) const;
  /// The TMA swizzle (bytes; 0 = none) of a 64 x epiN subtile of `type`:
  /// the row's bytes when they are 32, 64 or 128, so that the eight rows
  /// one stmatrix or one warp-wide load touches fall in distinct banks.
  int64_t subtileSwizzle(DType type) const;
  /// Rows of one TMA store of an output subtile (D, aux stores): 16 with
  /// warp_stores (each warp stores the rows it holds, with no warpgroup
  /// barrier around the store), else 64 (the warpgroup's subtile at once).
  bool warpStores = false;
  int64_t storeBoxRows() const { return warpStores ? 16 : 64; }
  bool hasEpilogueLoads() const { return offEpiBarriers >= 0; }
};

/// The pre-packed quantized weights (docs/mixed-input.md): per batch, per
/// 64-row block, per 64 of K one unit of 2048-byte halves in which
/// consumer thread t's 16 bytes start at t * 16. i4: one half (4 k16
/// steps x 8 nibbles of its wgmma A fragment); 8-bit (i8, f8e4m3): two
/// halves of 2 k16 steps x 8 bytes. The packing's version is part of its
/// name.
constexpr const char *kPackingI4 = "wsgemm.i4.m64k64.v1";
constexpr const char *kPackingB8 = "wsgemm.b8.m64k64.v1";
/// The packing of a quantized A of type `a` (I4, I8 or F8E4M3).
inline const char *packingOf(DType a) {
  return a == DType::I4 ? kPackingI4 : kPackingB8;
}
/// 2048-byte halves per packed unit (64 rows x 64 K) of an A of type `a`.
inline int64_t packedHalvesPerUnit(DType a) { return a == DType::I4 ? 1 : 2; }

/// Lays out `desc` (a config completed by fillDefaults; unset knobs count
/// as zero, so the budget of a partial config is still itemised).
KernelLayout computeKernelLayout(const GemmDesc &desc);

/// The itemised budget alone (computeKernelLayout(desc).budget).
SmemBudget computeSmemBudget(const GemmDesc &desc);

} // namespace mlir::wsgemm::planning

#endif // WSGEMM_DIALECT_WSGEMM_KERNELLAYOUT_H
