//===- Manifest.h - The kernel manifest, parsed and validated ---*- C++ -*-===//
//
// In-memory form of docs/manifest.md. parseManifest() checks every rule of
// that contract and reports the first violation with the JSON key path and
// the rule, e.g.
//   manifest k.json: params[2].kind: unknown kind 'tensormap' (expected one
//   of tensor_map, pointer, scalar, scalar_pointer, reduction, size,
//   workspace, stream_k_tiles, tile_order, matrix)
// Keys the contract does not define are ignored (newer compilers may add
// information); unknown values of enumerated keys are errors. The epilogue
// graph's types live in Evt.h, included here.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_MANIFEST_H
#define WSGEMM_RUNTIME_MANIFEST_H

#include "ws-gemm-runtime/DType.h"
#include "ws-gemm-runtime/Evt.h"
#include "ws-gemm-runtime/Status.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wsgemm::runtime {

/// Problem dimensions a manifest can name. KB = ceil(K / 128) and NB =
/// ceil(N / 128) count the 128-wide blocks of block scaling (extents of the
/// block_scale pointers, and of a mixed-input A's scales in groups of 128).
/// KG = K / operands.A.dequant.group counts a mixed-input A's scale groups
/// of 32 or 64 along K (extents of the dequant pointers only); its value
/// needs the manifest (dimValue in Args.h).
enum class Dim { M, N, K, L, KB, NB, KG };
const char *dimName(Dim d);

/// Operand storage orders (docs/manifest.md, "Matrix layouts").
enum class Layout { KMajor, MMajor, NMajor };
const char *layoutName(Layout l);

enum class Swizzle { None, B32, B64, B128 };
/// Bytes of the swizzle span (0 for none).
unsigned swizzleBytes(Swizzle s);
const char *swizzleName(Swizzle s);

enum class L2Promotion { None, B64, B128, B256 };

enum class GridKind { Tiles, Persistent };
/// Persistent grids may also say `heuristic` (CUTLASS's rule, decided in
/// the kernel) or `runtime` (the launch's tile_order parameter).
enum class Raster { AlongM, AlongN, Heuristic, Runtime };
const char *rasterName(Raster r);

struct GridRule {
  GridKind kind = GridKind::Tiles;
  Raster raster = Raster::AlongM;
  /// Persistent only: tile-group width (1, 2, 4 or 8); 0 with raster
  /// `runtime` (the launch's).
  int swizzle = 1;
  int ctasPerSm = 1; // persistent only
};

/// How output tiles and their K ranges are dealt to CTAs
/// (docs/manifest.md, "Tile scheduler"; docs/stream-k.md).
enum class SchedulerKind { DataParallel, SplitK, StreamK };
const char *schedulerKindName(SchedulerKind k);

struct TileScheduler {
  SchedulerKind kind = SchedulerKind::DataParallel;
  int splitK = 1; // split_k only
  /// split_k in a cluster: the tiles of a cluster group along M and N
  /// (their product is the cluster's CTA count).
  int clusterTilesM = 1, clusterTilesN = 1;
};

/// The split-K / stream-K workspace: per split tile, `tileBytes` of f32
/// partial sums and `flagBytes` of flags; all partials, then all flags.
/// Split tiles: every tile (split_k) or the stream-K tiles (stream_k).
struct WorkspaceRule {
  uint64_t tileBytes = 0, flagBytes = 0;
};

/// How the kernel's D store combines with D's old value (operands.D.reduce,
/// `epi.store ... reduce`): D is then an input and an output.
enum class StoreReduce { None, Add, Min, Max };
const char *storeReduceName(StoreReduce r);

/// How the mainloop loads A or B (`operands.X.load`).
enum class OperandLoad { Tma, CpAsync };

struct OperandInfo {
  DType dtype = DType::F16;
  Layout layout = Layout::KMajor;
  StoreReduce reduce = StoreReduce::None; // D only
  /// A and B: TMA boxes, or cp.async copies of a `matrix` param.
  OperandLoad load = OperandLoad::Tma;
  /// A and B: bytes of alignment of base, ld and batch stride (16 for TMA).
  uint32_t alignBytes = 16;
  /// A of a mixed-input kernel (`operands.A.dequant`, docs/mixed-input.md):
  /// w = round((q - z) * s) in `scale`'s type; `group` 32, 64 or 128 (a
  /// scale per that many of K and row) or 0 (one per row, 8-bit A only);
  /// zero "ui4" (a zero point per group and row), "bias8" (8) or "none"
  /// (0, the signed i8 and f8e4m3); the packing's name (Prepack.h).
  struct Dequant {
    DType scale = DType::BF16;
    int64_t group = 128;
    /// Scale groups along K: K / group, 1 for group 0.
    int64_t groups(int64_t K) const { return group > 0 ? K / group : 1; }
    std::string zero, packing;
    /// Where the scales multiply (scale_applied): each dequantized weight,
    /// rounded to the MMA type, or f32 accumulators (always with group 0).
    bool onAccumulator = false;
  };
  std::optional<Dequant> dequant;
};

enum class ParamKind {
  TensorMap,
  Pointer,
  Scalar,
  ScalarPointer,
  Reduction,
  Size,
  Workspace,    // split-K / stream-K workspace (a device pointer)
  StreamKTiles, // stream-K: tiles of the stream-K region (an i32)
  TileOrder,    // the launch's raster and swizzle (an i32, TileOrder.h)
  Matrix,       // an output stored without TMA: {address, ld, batch stride}
};
const char *paramKindName(ParamKind k);

/// One kernel parameter, in kernel order. Fields not used by `kind` keep
/// their defaults.
struct Param {
  std::string name;
  ParamKind kind = ParamKind::Size;
  DType dtype = DType::F32;
  // tensor_map, matrix
  std::string operand;       // A, B, C, D or an aux name
  std::vector<Dim> dims;     // innermost first
  std::vector<uint32_t> box; // innermost first
  // matrix of A or B (read with cp.async): the alignment in bytes its
  // base, ld and batch stride need (`align_bytes`); 0 for outputs.
  // pointer: the alignment its base needs (a mixed-input A's scales and
  // zero points: 16); 0 for its element size.
  uint32_t alignBytes = 0;
  Swizzle swizzle = Swizzle::None;
  L2Promotion l2Promotion = L2Promotion::B128;
  // pointer, reduction
  std::vector<Dim> extent;
  // pointer: "A" or "B" for the mainloop's block scales of that operand
  // (docs/manifest.md, "Block scaling"); empty for the EVT's vectors.
  std::string blockScale;
  // pointer: "A" for a mixed-input A's scales or zero points
  // (dequant_scale_a, dequant_zero_a; docs/mixed-input.md).
  std::string dequant;
  // tensor_map: a pre-packed operand's packing (Prepack.h); dims and box
  // stay the logical matrix's, the runtime derives the packed geometry.
  std::string packing;
  // tensor_map of a K-major B (`k_chunks`, 2 to 256; 0: absent): one box
  // loads kChunks consecutive blocks of box[0] along K, landed one after
  // another in shared memory as kChunks boxes of [box[1]][box[0]] would
  // be (runtime/lib/TensorMap.cpp views K as [box[0], K / box[0]]).
  uint32_t kChunks = 0;
  ReduceKind reduce = ReduceKind::Sum;
  // size
  Dim dim = Dim::M;
};

struct Manifest {
  std::string path;      // the file it was read from ("" for strings)
  std::string directory; // its directory, for resolving `cubin`
  std::string kernel;
  std::string cubin;
  std::string arch; // "sm_90a"
  int archMajor = 9, archMinor = 0;
  bool archSpecific = true; // the trailing 'a'
  std::array<uint32_t, 3> block{1, 1, 1};
  std::array<uint32_t, 3> cluster{1, 1, 1};
  uint32_t smemBytes = 0;
  // The kernel waits (griddepcontrol.wait) before its first global access,
  // so it may be launched with programmatic stream serialization: its
  // prologue overlaps the previous kernel's tail. sm_90 and later.
  bool pdl = false;
  std::array<int64_t, 3> tile{1, 1, 1};
  GridRule grid;
  TileScheduler scheduler;
  std::optional<WorkspaceRule> workspace; // with split_k or stream_k
  bool batched = false;
  std::optional<std::array<int64_t, 4>> staticShape;
  std::map<std::string, OperandInfo> operands; // A, B, D and optionally C
  std::vector<Param> params;
  std::vector<EvtNode> nodes;

  bool hasC() const { return operands.count("C") != 0; }
  /// How D's store combines with D (None: D is only written).
  StoreReduce dReduce() const { return operand("D").reduce; }
  const OperandInfo &operand(const std::string &name) const {
    return operands.at(name);
  }
  /// A's dequantization group (operands.A.dequant.group), 0 without one.
  int64_t dequantGroupA() const {
    auto a = operands.find("A");
    return a != operands.end() && a->second.dequant ? a->second.dequant->group
                                                    : 0;
  }
  /// The param called `name`, or nullptr.
  const Param *findParam(const std::string &name) const;
  /// The tensor_map param for `operand`, or nullptr.
  const Param *findTensorMap(const std::string &operand) const;
  /// The tensor_map or matrix param of the M x N (or A, B) matrix
  /// `operand`, or nullptr.
  const Param *findMatrix(const std::string &operand) const;
  /// Whether the kernel stores its outputs without TMA (`store = direct`:
  /// matrix params), so that any output row stride works.
  bool directStores() const;
  /// Whether `operand` is one the kernel stores: D or an aux store.
  bool isOutput(const std::string &operand) const;
  /// The matrices the epilogue-load warp reads: C and the aux loads.
  std::vector<std::string> epilogueLoads() const;
  /// Bytes of alignment the kernel needs of an input matrix's ("A", "B",
  /// "C", an aux load) base, ld and batch stride: 16 for a tensor map, a
  /// cp.async matrix's align_bytes.
  uint32_t requiredAlignment(const std::string &operand) const;
  /// The block-scale pointer of operand "A" or "B", or nullptr.
  const Param *findBlockScale(const std::string &operand) const;
  /// Whether the kernel takes its raster order and swizzle at launch (a
  /// tile_order parameter; grid.raster `runtime`).
  bool runtimeTileOrder() const { return grid.raster == Raster::Runtime; }
  /// Whether the kernel scales A and B block-wise along K.
  bool blockScaled() const { return findBlockScale("A") != nullptr; }
  /// The single `store` node.
  const EvtNode &storeNode() const;
  /// The cubin's path (directory + cubin).
  std::string cubinPath() const;
};

/// Parses and validates manifest JSON text. `path` is used for messages and
/// for resolving the cubin; it is not read. JSON comments are allowed.
Expected<Manifest> parseManifest(const std::string &jsonText,
                                 const std::string &path = "");
/// Reads and parses a manifest file.
Expected<Manifest> loadManifest(const std::string &path);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_MANIFEST_H
