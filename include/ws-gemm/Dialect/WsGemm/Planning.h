//===- Planning.h - GEMM config defaults, SMEM budget, legality -*- C++ -*-===//
//
// The planning library behind --wsgemm-plan, free of IR so that unit tests,
// the driver and the pass share one implementation. A GemmDesc says what a
// kernel computes (element widths, layouts, what its epilogue reads and
// writes) and how it is configured (GemmConfig, every knob optional).
// fillDefaults completes the config with CUTLASS's SM90 builder defaults,
// computeSmemBudget itemises the dynamic shared memory the kernel will use,
// and checkLegality lists everything that cannot work, with numbers.
//
// Defaults (CUTLASS 3.x/4.x, NVIDIA/cutlass):
//   include/cutlass/gemm/collective/builders/sm90_gmma_builder.inl
//     schedule:  KernelScheduleAuto picks pingpong for tile M == 64, else
//                cooperative.
//     stages:    StageCountAutoCarveout: (232448 - epilogue carveout) /
//                (A tile + B tile + 32 bytes of barriers) per stage.
//   include/cutlass/epilogue/collective/builders/sm90_builder.inl
//     epi_tile:  sm90_compute_tile_shape_or_override: cooperative
//                (min(128, M), gcd(min(32, N), N)); warp_specialized and
//                pingpong (min(64, M), gcd(min(32, N), N)).
//     sm90_get_tma_dispatch_policy, with EpiTiles = CTA tile / epi_tile:
//                fragment_size = epi_M * epi_N / (cooperative ? 256 : 128);
//                reuse_smem_c = C is loaded and bits(C) == bits(D) > 8;
//                delay_tma_store = C is not loaded;
//                stages_d = min(EpiTiles, 2);
//                stages_c = reuse_smem_c ? max(min(EpiTiles, 4), stages_d + 1)
//                                        : min(EpiTiles, 4).
//   include/cutlass/gemm/kernel/sm90_gemm_tma_warpspecialized_{cooperative,
//   pingpong}.hpp: LoadRegisterRequirement = 40, MmaRegisterRequirement =
//                232 (warp_specialized does not rebalance registers: unset).
//   include/cutlass/gemm/kernel/sm90_tile_scheduler.hpp: raster heuristic
//                (along_m when tiles_n > tiles_m, else along_n), swizzle 1;
//                cooperative and pingpong are persistent, warp_specialized
//                is not.
// Ours (CUTLASS has no default): tile [128, 128, 64], cluster [1, 1, 1].
//
// SMEM layout (ours; the lowering allocates in this order):
//   A stages, B stages                  stages x tile x bytes, 1024-aligned
//   C buffers                           stages_c x epi_tile x bytes(C), when
//                                       the epilogue loads C
//   D buffers                           stages_d x epi_tile x bytes(D), when
//                                       it stores D and does not reuse C's
//   aux load / aux store buffers        stages_c (stages_d) x epi_tile x bytes
//                                       per distinct aux name, 1024-aligned
//   vec_n broadcast buffers             tile N x bytes per distinct vector
//                                       (Sm90RowBroadcast); vec_m vectors are
//                                       read straight into registers
//   reduction scratch                   reduce_to_vec_n: consumer warps x
//                                       epi N x 4; reduce_to_scalar: consumer
//                                       warps x 4; reduce_to_vec_m: none (quad
//                                       shuffles and global atomics)
//   mainloop barriers                   stages x (full + empty) x 8
//   epilogue barriers                   stages_c x (full + empty) x 8, when
//                                       the epilogue loads C or aux matrices
// Small regions are 16-aligned, barriers 8-aligned; the alignment padding is
// its own item. Unlike CUTLASS we neither union the mainloop and epilogue
// storage of non-persistent kernels nor reuse D's buffer as reduction scratch.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_PLANNING_H
#define WSGEMM_DIALECT_WSGEMM_PLANNING_H

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

enum class OperandMajor { K, M, N };
enum class KernelSchedule { WarpSpecialized, Cooperative, Pingpong };
enum class Raster { AlongM, AlongN, Heuristic };

const char *toString(OperandMajor major);
const char *toString(KernelSchedule schedule);
const char *toString(Raster raster);

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
};

/// A named epilogue operand with its element width (aux matrix or vector).
struct EpilogueOperand {
  std::string name;
  unsigned bits = 16;
};

/// What a kernel computes and how it is configured.
struct GemmDesc {
  // Element widths in bits; cBits is 0 when the kernel declares no C.
  unsigned aBits = 16, bBits = 16, cBits = 0, dBits = 16;
  OperandMajor aMajor = OperandMajor::K; // K or M
  OperandMajor bMajor = OperandMajor::K; // K or N
  bool batched = false;
  /// Static problem shape M, N, K, L (L = 1 when not batched), if any.
  std::optional<std::array<int64_t, 4>> shape;

  // Epilogue needs, one entry per distinct name.
  bool loadsC = false; // epi.load_src
  bool storesD = true; // epi.store
  std::vector<EpilogueOperand> auxLoads, auxStores, vecM, vecN;
  unsigned numReduceVecM = 0, numReduceVecN = 0, numReduceScalar = 0;

  GemmConfig config;
};

/// Consumer warpgroups of a schedule: 1 for warp_specialized, else 2.
int64_t getNumConsumerWarpgroups(KernelSchedule schedule);
/// Threads that run the epilogue of one tile: 256 for cooperative (both
/// warpgroups share the tile), 128 otherwise.
int64_t getNumEpilogueThreads(KernelSchedule schedule);
/// Bytes of one mainloop stage (A tile + B tile), without barriers.
int64_t getStageBytes(const GemmDesc &desc);

/// Fills every unset knob of `desc.config` (see the file comment). The
/// mainloop stage count uses `smemCapacity`. Never fails; an impossible
/// config is for checkLegality to report.
void fillDefaults(GemmDesc &desc, int64_t smemCapacity = kSm90SmemCapacity);

enum class SmemKind {
  AStages,
  BStages,
  CBuffers,
  DBuffers,
  AuxLoadBuffers,
  AuxStoreBuffers,
  VecNBuffers,
  ReductionScratch,
  MainloopBarriers,
  EpilogueBarriers,
  AlignmentPadding,
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

/// Itemises the shared memory of `desc`. Expects a config completed by
/// fillDefaults; unset knobs count as zero.
SmemBudget computeSmemBudget(const GemmDesc &desc);

/// One legality error: a message naming the rule and the numbers, and notes
/// (for an SMEM overflow, the itemised budget).
struct PlanError {
  std::string message;
  std::vector<std::string> notes;
};

/// Everything about a completed `desc` that cannot work on sm_90 with our
/// lowering. Checks run in three groups (types and tile shape; epilogue and
/// pipeline knobs, registers and TMA alignment; the SMEM budget); a group
/// runs only when the earlier ones passed, so one mistake gives one error.
std::vector<PlanError> checkLegality(const GemmDesc &desc,
                                     int64_t smemCapacity = kSm90SmemCapacity);

} // namespace mlir::wsgemm::planning

#endif // WSGEMM_DIALECT_WSGEMM_PLANNING_H
