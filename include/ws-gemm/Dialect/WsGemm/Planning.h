//===- Planning.h - GEMM config defaults, SMEM budget, legality -*- C++ -*-===//
//
// The planning library behind --wsgemm-plan, free of IR so that unit tests,
// the driver and the pass share one implementation. A GemmDesc says what a
// kernel computes (element widths, layouts, what its epilogue reads and
// writes) and how it is configured (GemmConfig, every knob optional).
// fillDefaults completes the config with CUTLASS's SM90 builder defaults
// and checkLegality lists everything that cannot work, with numbers: every
// rule the lowering depends on lives here, so that a config the planner
// accepts is never refused later.
//
// Defaults (CUTLASS 3.x/4.x, NVIDIA/cutlass):
//   include/cutlass/gemm/collective/builders/sm90_gmma_builder.inl
//     schedule:  KernelScheduleAuto picks pingpong for tile M == 64, else
//                cooperative. Ours too.
//     stages:    StageCountAutoCarveout: (232448 - epilogue carveout) /
//                (A tile + B tile + 32 bytes of barriers) per stage.
//   include/cutlass/epilogue/collective/builders/sm90_builder.inl
//     epi_tile:  sm90_compute_tile_shape_or_override: cooperative
//                (min(128, M), gcd(min(32, N), N)); warp_specialized and
//                pingpong (min(64, M), gcd(min(32, N), N)).
//     sm90_get_tma_dispatch_policy, with EpiTiles = CTA tile / epi_tile:
//                fragment_size = epi_M * epi_N / (cooperative ? 256 : 128);
//                reuse_smem_c = C is loaded and bits(C) == bits(D) > 8
//                  (ours also: not with delay_tma_store, and stages_d <=
//                  a user's stages_c);
//                delay_tma_store = C is not loaded (ours also: stages_d
//                  >= 2, the delayed store's second buffer);
//                stages_d = min(EpiTiles, 2);
//                stages_c = reuse_smem_c ? max(min(EpiTiles, 4), stages_d + 1)
//                                        : min(EpiTiles, 4).
//   include/cutlass/gemm/kernel/sm90_gemm_tma_warpspecialized_{cooperative,
//   pingpong}.hpp: LoadRegisterRequirement = 40, MmaRegisterRequirement =
//                232 (warp_specialized does not rebalance registers: unset).
//   include/cutlass/gemm/kernel/sm90_tile_scheduler.hpp: raster heuristic
//                (along_m when tiles_n > tiles_m, else along_n), swizzle 1;
//                cooperative and pingpong are persistent, warp_specialized
//                is not. Ours: a persistent kernel whose config names
//                neither raster nor swizzle leaves both unset and takes
//                them at launch (the tile_order parameter; CUTLASS's
//                raster and max_swizzle_size are launch arguments too),
//                chosen per shape by the runtime (runtime/lib/TileOrder.cpp).
// Ours (CUTLASS has no default): store = direct for a static shape whose
// D or aux-store rows are not multiples of 16 bytes (else unset: TMA
// stores); tile [128, 128, 64] (16-bit A) or
// [128, 128, 128] (8-bit A: tile K is 128 bytes either way), cluster
// [1, 1, 1].
//
// The shared-memory layout and the kernel's parameter list are computed by
// KernelLayout.h from the same completed GemmDesc; the lowering reads them
// from there and decides nothing of its own.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_PLANNING_H
#define WSGEMM_DIALECT_WSGEMM_PLANNING_H

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::wsgemm::planning {

/// Shared memory per CTA available to a kernel on sm_90 (227 KiB:
/// cutlass::gemm::collective::detail::sm90_smem_capacity_bytes).
constexpr int64_t kSm90SmemCapacity = 232448;
/// Registers per SM (64K 32-bit registers).
constexpr int64_t kSm90RegistersPerSm = 65536;
/// What every resident CTA takes of an SM's shared memory for the system.
constexpr int64_t kSmemReservedPerCta = 1024;

/// The shared memory a CTA may take when `ctasPerSm` of them share an SM
/// that gives one CTA `capacity` (kSm90SmemCapacity: its 228 KiB less the
/// 1 KiB reserved): 113 KiB each for two on sm_90.
inline int64_t getSmemCapacityPerCta(int64_t capacity, int64_t ctasPerSm) {
  if (ctasPerSm <= 1)
    return capacity;
  return (capacity + kSmemReservedPerCta) / ctasPerSm - kSmemReservedPerCta;
}

/// Registers per thread a block of `threads` threads is launched with when
/// `ctasPerSm` of them share an SM's 65536 (at most 255, in steps of 8).
inline int64_t getLaunchRegisterShare(int64_t threads, int64_t ctasPerSm) {
  return std::min<int64_t>(255, kSm90RegistersPerSm /
                                    std::max<int64_t>(ctasPerSm, 1) /
                                    std::max<int64_t>(threads, 1) / 8 * 8);
}

enum class OperandMajor { K, M, N };
/// Multistage (sm_8x only): no producer role; the 2 warpgroups of the
/// tile copy and multiply (KernelSchedule.cpp).
enum class KernelSchedule {
  WarpSpecialized,
  Cooperative,
  Pingpong,
  Multistage
};
enum class Raster { AlongM, AlongN, Heuristic };
/// How output tiles and their K ranges are dealt to CTAs (TileScheduler.cpp,
/// docs/stream-k.md). Split-K is data-parallel over (tile, split) units.
enum class TileSchedulerKind { DataParallel, StreamK };
/// How D and aux matrices reach global memory: TMA bulk stores of staged
/// subtiles, or every epilogue thread's bounds-checked st.global (any row
/// stride; Epilogue.cpp).
enum class OutputStore { Tma, Direct };
/// How the mainloop's producer loads A or B: TMA boxes, or cp.async copies
/// by the producer warps (CpAsyncProducer.cpp; any alignment the copies
/// allow).
enum class OperandLoad { Tma, CpAsync };
/// Which warps copy the epilogue's staged subtiles out with st.global
/// (direct stores): the consumer warpgroups, or (sm_8x warp_specialized)
/// the load warps once they have issued the next tile's k-tiles
/// (Epilogue.cpp, KernelSchedule.cpp).
enum class CopyOut { Mma, Load };
/// How D's store combines with D's old value (`epi.store ... reduce`): not
/// at all, or by a TMA / red.global reduction (D is then read and written).
enum class StoreReduce { None, Add, Min, Max };

const char *toString(OperandMajor major);
const char *toString(KernelSchedule schedule);
const char *toString(Raster raster);
const char *toString(TileSchedulerKind kind);
const char *toString(OutputStore store);
/// "tma", "cp_async" (the manifest's operands.A.load).
const char *toString(OperandLoad load);
/// "none", "add", "min", "max" (the manifest's operands.D.reduce).
const char *toString(StoreReduce reduce);

/// The GPU a kernel is compiled for (the pipelines' `chip`): sm_90a
/// kernels use TMA and wgmma; sm_80, sm_86 and sm_89 ones cp.async
/// producers and ldmatrix + mma.sync consumers (PlanningChip.cpp).
enum class Chip { Sm80, Sm86, Sm89, Sm90a };
/// "sm_80", "sm_86", "sm_89", "sm_90a".
const char *toString(Chip chip);
/// The chip named `name`: one of toString's, or Sm90a for another sm_9x
/// or sm_1xx name; none for anything else.
std::optional<Chip> parseChip(const std::string &name);
inline bool isSm8x(Chip chip) { return chip != Chip::Sm90a; }
/// Dynamic shared memory one block may opt in to on `chip`: sm_80 163 KiB,
/// sm_86 and sm_89 99 KiB, sm_90 227 KiB.
int64_t getSmemCapacity(Chip chip);

/// The builder knobs of DESIGN.md section 3; unset means "use the default".
struct GemmConfig {
  std::optional<std::array<int64_t, 3>> tile;    // M, N, K
  std::optional<std::array<int64_t, 3>> cluster; // M, N, K
  std::optional<int64_t> stages;
  std::optional<KernelSchedule> schedule;
  std::optional<bool> persistent;
  std::optional<Raster> raster;
  std::optional<int64_t> swizzle;
  std::optional<std::array<int64_t, 2>> epiTile; // M, N
  std::optional<int64_t> stagesC;
  std::optional<int64_t> stagesD;
  std::optional<int64_t> fragmentSize;
  std::optional<bool> reuseSmemC;
  std::optional<bool> delayTmaStore;
  std::optional<int64_t> producerRegs;
  std::optional<int64_t> consumerRegs;
  /// fp8: add the wgmma partial accumulator into a second f32 one every
  /// this many k-tiles; unset or 0: fast accumulation (never filled in).
  std::optional<int64_t> promotionInterval;
  /// K splits per output tile (unset: 1).
  std::optional<int64_t> splitK;
  /// Unset: data-parallel (fillDefaults may pick stream-K for a static
  /// shape: pickTileScheduler).
  std::optional<TileSchedulerKind> scheduler;
  /// fp8 block-wise scaling along K (DeepSeek-V3): per-row-per-128-K scales
  /// of A and per-128x128 scales of B applied at each promotion; unset:
  /// false (never filled in).
  std::optional<bool> blockScaling;
  /// Unset: direct when a static shape's output rows are not whole 16-byte
  /// pieces, else left unset (tma).
  std::optional<OutputStore> store;
  /// Each warp TMA-stores the 16 rows of a subtile it holds (no warpgroup
  /// barrier); unset: true for an 8-bit D stored by TMA without
  /// reuse_smem_c, else false.
  std::optional<bool> warpStores;
  /// Unset: TMA.
  std::optional<OperandLoad> loadA, loadB;
  /// Bytes of alignment a cp.async operand's base, ld and batch stride
  /// have (the copy width); unset: the element size (fillDefaults).
  std::optional<int64_t> alignA, alignB;
  /// How the epilogue-load warp brings C and the aux loads: unset, TMA
  /// (sm_90a); cp.async on sm_8x (fillChipDefaults).
  std::optional<OperandLoad> loadC;
  /// Bytes of alignment of every copied C or aux load (the copy width);
  /// unset: their largest element size (fillDefaults), 16 on sm_8x.
  std::optional<int64_t> alignC;
  /// CTAs kept resident per SM (1 or 2): each gets that share of the SM's
  /// shared memory and registers; unset: 1 (never filled in).
  std::optional<int64_t> ctasPerSm;
  /// sm_8x: a consumer warpgroup's warps along N (1: wgmma's layout, 2: two
  /// columns of two warps); unset: 1 until fillChipDefaults picks.
  std::optional<int64_t> warpColumns;
  /// sm_8x direct stores: which warps copy the staged subtiles out; unset
  /// until finishChipDefaults picks (mma on sm_90a, never filled in).
  std::optional<CopyOut> copyOut;

  bool isCpAsyncA() const { return loadA == OperandLoad::CpAsync; }
  bool isCpAsyncB() const { return loadB == OperandLoad::CpAsync; }
  bool hasCpAsync() const { return isCpAsyncA() || isCpAsyncB(); }
  bool isCpAsyncC() const { return loadC == OperandLoad::CpAsync; }
  int64_t getSplitK() const { return splitK.value_or(1); }
  bool isStreamK() const { return scheduler == TileSchedulerKind::StreamK; }
  bool isDirectStore() const { return store == OutputStore::Direct; }
  int64_t getCtasPerSm() const { return ctasPerSm.value_or(1); }
  int64_t getWarpColumns() const { return warpColumns.value_or(1); }
  bool copiesOutByLoad() const { return copyOut == CopyOut::Load; }
  /// Output tiles' partial accumulators meet in a global workspace.
  bool hasWorkspace() const { return getSplitK() > 1 || isStreamK(); }
  /// Raster order and swizzle are launch-time values (the i32 tile_order
  /// parameter): a persistent kernel whose config names neither. Asked of
  /// a config fillDefaults completed (persistent is set then).
  bool hasRuntimeTileOrder() const {
    return persistent.value_or(true) && !raster && !swizzle;
  }
};

/// Whether `config` asks for promoted accumulation (two accumulators).
inline bool isPromoted(const GemmConfig &config) {
  return config.promotionInterval.value_or(0) > 0;
}

/// Whether `config` asks for block-wise scaling (two scale tensors).
inline bool isBlockScaled(const GemmConfig &config) {
  return config.blockScaling.value_or(false);
}

/// Element types the planner tells apart. `Other` is any type it does not
/// know (legality refuses it); `None` is an absent operand (no C). I4 and
/// I8 are a mixed-input GEMM's quantized A (GemmDesc::dequantA).
enum class DType { None, F16, BF16, F32, F8E4M3, F8E5M2, I4, I8, Other };

/// A mixed-input GEMM's dequantization of A (`dequant_a`,
/// docs/mixed-input.md): w = round((q - z) * s) in the MMA type (B's).
enum class ZeroPoint { None, Bias8, Group };
struct Dequant {
  DType scale = DType::BF16;
  int64_t group = 0; // K elements per scale; 0: one per row
  ZeroPoint zero = ZeroPoint::None;
};
/// "none", "bias8", "ui4" (the manifest's operands.A.dequant.zero).
const char *toString(ZeroPoint zero);

/// Bits of one element (0 for None and Other).
unsigned getBits(DType type);
/// The manifest's name of `type` ("f16", "bf16", "f32", "f8e4m3",
/// "f8e5m2"; "" for None, "?" for Other).
const char *toString(DType type);

/// One operand the epilogue reads or writes, by name: kernel parameters in
/// the order the EVT first mentions them (the manifest's order).
struct EpilogueOperand {
  enum class Kind {
    AuxLoad,       // epi.aux_load: an M x N matrix, TMA-loaded with C
    AuxStore,      // epi.aux_store: an M x N matrix, TMA-stored with D
    VecM,          // epi.load_vec_m: M (x L) elements, indexed by the row
    VecN,          // epi.load_vec_n: N (x L) elements, indexed by the column
    Scalar,        // epi.scalar param: an f32 kernel parameter
    ScalarPointer, // epi.scalar pointer: an f32 read once from device memory
    ReduceVecM,    // epi.reduce_to_vec_m: f32 M (x L) output
    ReduceVecN,    // epi.reduce_to_vec_n: f32 N (x L) output
    ReduceScalar,  // epi.reduce_to_scalar: one f32 output
  };
  Kind kind;
  std::string name;
  DType type = DType::F32; // element type in memory
  std::string reduce;      // reductions: sum, max, min, absmax
};

/// What a kernel computes and how it is configured.
struct GemmDesc {
  DType a = DType::F16, b = DType::F16;
  DType c = DType::None; // None when the kernel declares no C.
  DType d = DType::F16;
  OperandMajor aMajor = OperandMajor::K; // K or M
  OperandMajor bMajor = OperandMajor::K; // K or N
  OperandMajor dMajor = OperandMajor::N; // N, or M (column-major D)
  bool batched = false;
  /// Static problem shape M, N, K, L (L = 1 when not batched), if any.
  std::optional<std::array<int64_t, 4>> shape;
  /// Mixed input: A is quantized (I4) and dequantized into B's type.
  std::optional<Dequant> dequantA;
  bool isMixedInput() const { return dequantA.has_value(); }
  /// The MMA's element type of A: B's for a mixed-input GEMM, else A's.
  DType mmaA() const { return dequantA ? b : a; }

  // Epilogue needs.
  bool loadsC = false;      // epi.load_src
  bool gatedC = false;      // ... with skip_if_zero: beta == 0 skips C
  bool storesD = true;      // epi.store
  StoreReduce dReduce = StoreReduce::None; // epi.store ... reduce
  std::vector<EpilogueOperand> operands; // one per distinct name
  /// The EVT's long-latency ops (exp, log, erf, tanh, sqrt, rsqrt, divf,
  /// and the activations built on them): their scratch registers count in
  /// the epilogue's register estimate (RegisterBudget.cpp).
  int64_t longLatencyOps = 0;

  GemmConfig config;
  /// What the kernel is compiled for (`wsgemm.chip` on the op; unset:
  /// sm_90a).
  Chip chip = Chip::Sm90a;

  /// The operands of one kind, in order.
  std::vector<EpilogueOperand> operandsOf(EpilogueOperand::Kind kind) const;
  /// Whether the epilogue reads C or an aux matrix (the epilogue-load
  /// warp's TMA loads or copies).
  bool readsEpilogueMatrices() const;
  /// The largest element, in bytes, of C and the aux loads (0: none).
  int64_t largestEpilogueLoadBytes() const;
  /// C and aux matrices reach shared memory by the epilogue-load warp's 32
  /// lanes' copies (`load_c = cp_async`: always on sm_8x, which has no
  /// TMA) rather than TMA. They are then matrix parameters aligned to
  /// epilogueCopyBytes().
  bool copiesEpilogueLoads() const {
    return isSm8x(chip) || config.isCpAsyncC();
  }
  /// The copies' width and the copied matrices' alignment in bytes.
  int64_t epilogueCopyBytes() const { return config.alignC.value_or(16); }
  /// The loader writes C and the aux loads with st.shared (2-byte copies):
  /// every consumer thread then releases the stage it read on its own
  /// (compute-sanitizer's racecheck does not follow a named barrier and
  /// one thread's release back to such writes), and D is not staged over
  /// C (reuse_smem_c).
  bool storesEpilogueLoads() const {
    return copiesEpilogueLoads() && epilogueCopyBytes() < 4;
  }
};

/// Consumer warpgroups of a schedule's CTA: 1 for warp_specialized, else 2.
int64_t getNumConsumerWarpgroups(KernelSchedule schedule);
/// Consumer warpgroups that share one output tile: 2 for cooperative (each
/// owns half its rows); 1 otherwise (pingpong's 2 take alternate tiles).
int64_t getWarpgroupsPerTile(KernelSchedule schedule);
/// Threads of the schedule's block: the producer warpgroup (none for
/// multistage) and the consumer warpgroups.
int64_t getBlockThreads(KernelSchedule schedule);
/// Threads that run the epilogue of one tile: 256 for cooperative (both
/// warpgroups share the tile), 128 otherwise.
int64_t getNumEpilogueThreads(KernelSchedule schedule);
/// Bytes of one mainloop stage (A tile + B tile + a mixed-input A's
/// dequantization rows), without barriers.
int64_t getStageBytes(const GemmDesc &desc);
/// Bytes of one stage's dequantization rows of a mixed-input A: tile M
/// scales per group the k-tile spans, and as many zero points with `zero =
/// ui4`; 0 otherwise.
int64_t getDequantStageBytes(const GemmDesc &desc);
/// Scale groups of a mixed-input A one k-tile spans: tile K / group for a
/// group smaller than the k-tile, else 1 (a group of one or more k-tiles,
/// or one scale per row).
int64_t getDequantGroupsPerKTile(const GemmDesc &desc);
/// Whether a mixed-input kernel's scales multiply f32 accumulators instead
/// of each dequantized register (docs/mixed-input.md, "Scales on the
/// accumulator"): always with one scale per row (group 0, after the
/// mainloop); with groups, where the k-tile spans one group and a partial
/// accumulator, folded once per k-tile with one fma per element, costs
/// fewer instructions than one mul.rn per fragment register of every k16
/// step (tile N / 2 < tile K / 4: tile N 16 at tile K 64, 16 or 32 at 128)
/// and fits the consumer's registers. Then the weight the MMA multiplies
/// is (v - z), exact, and nothing is rounded to the MMA type (the
/// manifest's operands.A.dequant.scale_applied).
bool scalesDequantAccumulator(const GemmDesc &desc);
/// f32 accumulator sets each consumer thread holds: 2 with promoted fp8
/// accumulation or group scales on the accumulator (a partial and a
/// total), else 1.
int64_t getAccumulatorSets(const GemmDesc &desc);

/// SMs the planner assumes when it picks a tile scheduler for a static
/// shape (an H100 SXM; the runtime uses the device's own count).
constexpr int64_t kPlannerSmCount = 132;

/// The planner's pick for a kernel with a static shape and no `scheduler`:
/// stream-K when the runtime's rule (ws-gemm-runtime/StreamKRule.h) would
/// give it stream-K tiles on kPlannerSmCount SMs and the schedule lowers
/// it, else data-parallel. Without a static shape: data-parallel.
TileSchedulerKind pickTileScheduler(const GemmDesc &desc);

/// Fills every unset knob of `desc.config` (see the file comment). The
/// mainloop stage count uses `smemCapacity`. Never fails; an impossible
/// config is for checkLegality to report.
void fillDefaults(GemmDesc &desc, int64_t smemCapacity = kSm90SmemCapacity);

/// What a consumer thread keeps in registers while its epilogue runs,
/// estimated from the config and the EVT (RegisterBudget.cpp says how it
/// was measured with ptxas). ptxas spills when total() exceeds budget.
struct ConsumerRegisters {
  int64_t accumulator = 0; // the thread's f32 share of its warpgroup's tile
  int64_t fixed = 0;       // addresses, indices, pipeline states (40)
  int64_t partials = 0;    // row/column/scalar reduction partials, per tile
  int64_t elements = 0;    // accumulator elements per thread per subtile
  int64_t perElement4 = 0; // the EVT's registers per element, x 4
  int64_t budget = 0;      // consumer_regs, else the launch share
  int64_t total() const {
    return accumulator + fixed + partials + (elements * perElement4 + 3) / 4;
  }
};
/// The estimate for a completed tile and schedule and the epilogue tile
/// `epiTile` (M, N).
ConsumerRegisters estimateConsumerRegisters(const GemmDesc &desc,
                                            std::array<int64_t, 2> epiTile);

/// One legality error: a message naming the rule and the numbers, and notes
/// (for an SMEM overflow, the itemised budget).
struct PlanError {
  std::string message;
  std::vector<std::string> notes;
};

/// Everything about a completed `desc` that cannot work on sm_90 with our
/// lowering. Checks run in four groups (types and tile shape; epilogue and
/// pipeline knobs, registers and TMA alignment; the SMEM budget; what the
/// lowering does not implement yet); a group runs only when the earlier ones
/// passed, so one mistake gives one error.
std::vector<PlanError> checkLegality(const GemmDesc &desc,
                                     int64_t smemCapacity = kSm90SmemCapacity);

/// sm_8x (PlanningChip.cpp): the knobs whose sm_90 defaults do not apply
/// there, set before fillDefaults (cp.async operands aligned to 16 bytes,
/// direct stores, no cluster, the schedule); after it, the load warps take
/// the one-warpgroup kernel's copy-out (copy_out = load) for a static K up
/// to 1024 where its store ring fits `capacity` with as many stages, the
/// register budgets (setmaxnreg, sm_90 only) go back to what the config
/// `written` said and a cooperative or multistage kernel's warps take two
/// columns (warp_columns = 2) where that is legal and `written` did not
/// say. No-ops on sm_90a.
void fillChipDefaults(GemmDesc &desc);
void finishChipDefaults(GemmDesc &desc, const GemmConfig &written,
                        int64_t capacity);
/// What `desc.chip` cannot run or our sm_8x lowering does not implement,
/// each refusal naming the chip and its limit; empty on sm_90a. Run before
/// checkLegality (whose SMEM budget is then getSmemCapacity(desc.chip)).
std::vector<PlanError> checkChipLegality(const GemmDesc &desc);

} // namespace mlir::wsgemm::planning

#endif // WSGEMM_DIALECT_WSGEMM_PLANNING_H
