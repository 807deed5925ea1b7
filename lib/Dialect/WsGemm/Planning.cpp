//===- Planning.cpp - GEMM config defaults, SMEM budget, legality ---------===//
//
// Implements Planning.h's names and CUTLASS's SM90 builder defaults. The
// legality rules are in Legality.cpp, the SMEM layout and parameter list in
// KernelLayout.cpp. No IR here; GemmDesc.cpp translates between the op and a
// GemmDesc.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/Planning.h"
#include "RegisterBudget.h"
#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"
#include "ws-gemm-runtime/StreamKRule.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>

using namespace mlir::wsgemm::planning;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static int64_t bytesOf(DType type) { return (getBits(type) + 7) / 8; }

static int64_t ceilDiv(int64_t a, int64_t b) {
  return b > 0 ? (a + b - 1) / b : 0;
}

const char *mlir::wsgemm::planning::toString(OperandMajor major) {
  switch (major) {
  case OperandMajor::K:
    return "k_major";
  case OperandMajor::M:
    return "m_major";
  case OperandMajor::N:
    return "n_major";
  }
  return "?";
}

const char *mlir::wsgemm::planning::toString(KernelSchedule schedule) {
  switch (schedule) {
  case KernelSchedule::WarpSpecialized:
    return "warp_specialized";
  case KernelSchedule::Cooperative:
    return "cooperative";
  case KernelSchedule::Pingpong:
    return "pingpong";
  case KernelSchedule::Multistage:
    return "multistage";
  }
  return "?";
}

const char *mlir::wsgemm::planning::toString(Raster raster) {
  switch (raster) {
  case Raster::AlongM:
    return "along_m";
  case Raster::AlongN:
    return "along_n";
  case Raster::Heuristic:
    return "heuristic";
  }
  return "?";
}

unsigned mlir::wsgemm::planning::getBits(DType type) {
  switch (type) {
  case DType::F16:
  case DType::BF16:
    return 16;
  case DType::F32:
    return 32;
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::I8:
    return 8;
  case DType::I4:
    return 4;
  case DType::None:
  case DType::Other:
    return 0;
  }
  return 0;
}

const char *mlir::wsgemm::planning::toString(DType type) {
  switch (type) {
  case DType::None:
    return "";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F8E4M3:
    return "f8e4m3";
  case DType::F8E5M2:
    return "f8e5m2";
  case DType::I4:
    return "i4";
  case DType::I8:
    return "i8";
  case DType::Other:
    return "?";
  }
  return "?";
}

const char *mlir::wsgemm::planning::toString(ZeroPoint zero) {
  switch (zero) {
  case ZeroPoint::None:
    return "none";
  case ZeroPoint::Bias8:
    return "bias8";
  case ZeroPoint::Group:
    return "ui4";
  }
  return "?";
}

std::vector<EpilogueOperand>
GemmDesc::operandsOf(EpilogueOperand::Kind kind) const {
  std::vector<EpilogueOperand> result;
  for (const EpilogueOperand &operand : operands)
    if (operand.kind == kind)
      result.push_back(operand);
  return result;
}

bool GemmDesc::readsEpilogueMatrices() const {
  return loadsC || !operandsOf(EpilogueOperand::Kind::AuxLoad).empty();
}

int64_t GemmDesc::largestEpilogueLoadBytes() const {
  int64_t bytes = loadsC ? getBits(c) / 8 : 0;
  for (const EpilogueOperand &aux : operandsOf(EpilogueOperand::Kind::AuxLoad))
    bytes = std::max<int64_t>(bytes, getBits(aux.type) / 8);
  return bytes;
}

int64_t mlir::wsgemm::planning::getNumConsumerWarpgroups(KernelSchedule s) {
  return s == KernelSchedule::WarpSpecialized ? 1 : 2;
}

int64_t mlir::wsgemm::planning::getWarpgroupsPerTile(KernelSchedule s) {
  return s == KernelSchedule::Cooperative || s == KernelSchedule::Multistage
             ? 2
             : 1;
}

int64_t mlir::wsgemm::planning::getBlockThreads(KernelSchedule s) {
  return 128 * (int64_t(s != KernelSchedule::Multistage) +
                getNumConsumerWarpgroups(s));
}

int64_t mlir::wsgemm::planning::getNumEpilogueThreads(KernelSchedule s) {
  return 128 * getWarpgroupsPerTile(s);
}

int64_t mlir::wsgemm::planning::getStageBytes(const GemmDesc &desc) {
  std::array<int64_t, 3> tile =
      desc.config.tile.value_or(std::array<int64_t, 3>{0, 0, 0});
  return tile[0] * tile[2] * getBits(desc.a) / 8 +
         tile[1] * tile[2] * bytesOf(desc.b) + getDequantStageBytes(desc);
}

int64_t mlir::wsgemm::planning::getDequantStageBytes(const GemmDesc &desc) {
  // One scale per row (group 0) multiplies the accumulator after the
  // mainloop (MixedInput.cpp): nothing travels with the stages.
  if (!desc.dequantA || desc.dequantA->group == 0)
    return 0;
  int64_t tileM = desc.config.tile ? (*desc.config.tile)[0] : 0;
  int64_t rows = desc.dequantA->zero == ZeroPoint::Group ? 2 : 1;
  return rows * getDequantGroupsPerKTile(desc) * tileM *
         bytesOf(desc.dequantA->scale);
}

int64_t mlir::wsgemm::planning::getDequantGroupsPerKTile(const GemmDesc &desc) {
  int64_t tileK = desc.config.tile ? (*desc.config.tile)[2] : 0;
  int64_t group = desc.dequantA ? desc.dequantA->group : 0;
  return group > 0 && group < tileK ? tileK / group : 1;
}

bool mlir::wsgemm::planning::scalesDequantAccumulator(const GemmDesc &desc) {
  if (!desc.dequantA)
    return false;
  if (desc.dequantA->group == 0)
    return true;
  std::array<int64_t, 3> tile =
      desc.config.tile.value_or(std::array<int64_t, 3>{0, 0, 0});
  // One group per k-tile, or the two groups of 128 of a 256-deep k-tile:
  // each group accumulates into its own partial, and all of a k-tile's
  // partials are folded at once in the next k-tile, where its wgmma groups
  // have all retired. Folding one group's partial while the other's wgmmas
  // were in flight (groups of 64 in a k-tile of 128) made ptxas serialize
  // every wgmma of the kernel (C7514), though the wait_group had retired
  // the partial.
  int64_t groups = getDequantGroupsPerKTile(desc);
  bool twoOf128 = groups == 2 && desc.dequantA->group == 128;
  if ((groups != 1 && !twoOf128) || tile[1] / 2 >= tile[2] / 4)
    return false;
  KernelSchedule schedule =
      desc.config.schedule.value_or(KernelSchedule::Cooperative);
  int64_t wgRows = tile[0] / getWarpgroupsPerTile(schedule);
  int64_t budget = desc.config.consumerRegs.value_or(getLaunchRegisterShare(
      getBlockThreads(schedule), desc.config.getCtasPerSm()));
  // The total and a partial per group, the previous k-tile's scales (2
  // per 64 rows and group) and the 40 the loop and epilogue keep
  // (Legality.cpp's kEpilogueRegs).
  return (1 + groups) * (wgRows * tile[1] / 128) + groups * wgRows / 32 +
             40 <=
         budget;
}

int64_t mlir::wsgemm::planning::getAccumulatorSets(const GemmDesc &desc) {
  if (isPromoted(desc.config))
    return 2;
  if (desc.dequantA && desc.dequantA->group > 0 &&
      scalesDequantAccumulator(desc))
    return 1 + getDequantGroupsPerKTile(desc);
  return 1;
}

//===----------------------------------------------------------------------===//
// Defaults
//===----------------------------------------------------------------------===//

/// CUTLASS's StageCountAutoCarveout: (capacity - carveout) / (stage bytes +
/// 32), where the carveout is everything but the mainloop. Our barriers take
/// 16 bytes a stage, not 32, but alignment padding may take more, so the
/// count is lowered until the budget fits; it never goes below 2 (an
/// unfittable tile is reported by checkLegality).
static int64_t computeAutoStages(const GemmDesc &desc, int64_t capacity) {
  GemmDesc probe = desc;
  probe.config.stages = 0;
  int64_t carveout = computeSmemBudget(probe).total;
  int64_t perStage = getStageBytes(desc) + 32;
  int64_t stages = perStage > 32 ? (capacity - carveout) / perStage : 2;
  stages = std::max<int64_t>(stages, 2);
  for (; stages > 2; --stages) {
    probe.config.stages = stages;
    if (computeSmemBudget(probe).total <= capacity)
      break;
  }
  return stages;
}

const char *mlir::wsgemm::planning::toString(OutputStore store) {
  return store == OutputStore::Direct ? "direct" : "tma";
}

const char *mlir::wsgemm::planning::toString(OperandLoad load) {
  return load == OperandLoad::CpAsync ? "cp_async" : "tma";
}

const char *mlir::wsgemm::planning::toString(StoreReduce reduce) {
  switch (reduce) {
  case StoreReduce::Add:
    return "add";
  case StoreReduce::Min:
    return "min";
  case StoreReduce::Max:
    return "max";
  case StoreReduce::None:
    break;
  }
  return "none";
}

const char *mlir::wsgemm::planning::toString(TileSchedulerKind kind) {
  return kind == TileSchedulerKind::StreamK ? "stream_k" : "data_parallel";
}

TileSchedulerKind mlir::wsgemm::planning::pickTileScheduler(
    const GemmDesc &desc) {
  const GemmConfig &c = desc.config;
  auto cluster = c.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  bool lowered = c.schedule != KernelSchedule::Pingpong &&
                 c.persistent.value_or(true) && c.getSplitK() == 1 &&
                 cluster[0] * cluster[1] * cluster[2] == 1;
  if (!desc.shape || !c.tile || !lowered)
    return TileSchedulerKind::DataParallel;
  auto [m, n, k, l] = *desc.shape;
  auto [tileM, tileN, tileK] = *c.tile;
  int64_t tiles = ceilDiv(m, tileM) * ceilDiv(n, tileN) * l;
  return ::wsgemm::runtime::chooseStreamKTiles(tiles, ceilDiv(k, tileK),
                                               kPlannerSmCount) > 0
             ? TileSchedulerKind::StreamK
             : TileSchedulerKind::DataParallel;
}

void mlir::wsgemm::planning::fillDefaults(GemmDesc &desc, int64_t capacity) {
  GemmConfig &c = desc.config;
  // Two resident CTAs share the SM's shared memory.
  capacity = getSmemCapacityPerCta(capacity, c.getCtasPerSm());
  // Tile K spans the 128 bytes of one 128B-swizzled row: 64 of a 16-bit
  // type, 128 of an 8-bit one (the same bytes per stage, so the same stage
  // count for the same tile M x N).
  // A quantized A takes two packed 64-K units per k-tile: with k-tiles of
  // 128, 128x128 ran 1-9% faster than with 64 at 64 to 256 tokens
  // (docs/mixed-input.md, "The default family").
  if (!c.tile)
    c.tile = {128, 128,
              desc.isMixedInput()
                  ? 128
                  : 128 / std::max<int64_t>(1, bytesOf(desc.mmaA()))};
  if (!c.cluster)
    c.cluster = {1, 1, 1};
  // Block-wise scaling promotes every k-tile (Legality.cpp).
  if (isBlockScaled(c) && !c.promotionInterval && bytesOf(desc.a) == 1)
    c.promotionInterval = 1;
  auto [tileM, tileN, tileK] = *c.tile;
  // KernelScheduleAuto: pingpong for 64-row tiles, else cooperative.
  if (!c.schedule)
    c.schedule =
        tileM == 64 ? KernelSchedule::Pingpong : KernelSchedule::Cooperative;
  KernelSchedule schedule = *c.schedule;
  // Multistage splits the tile's rows as cooperative does.
  bool cooperative = getWarpgroupsPerTile(schedule) == 2;
  if (!c.persistent)
    c.persistent =
        schedule != KernelSchedule::WarpSpecialized || c.hasWorkspace();
  // A persistent kernel that names neither raster nor swizzle takes both at
  // launch (hasRuntimeTileOrder): they stay unset. A "tiles" grid's shape
  // depends on the raster, which is then fixed here.
  if (!c.raster && !c.hasRuntimeTileOrder()) {
    c.raster = Raster::Heuristic;
    if (desc.shape && tileM > 0 && tileN > 0) {
      int64_t tilesM = ceilDiv((*desc.shape)[0], tileM);
      int64_t tilesN = ceilDiv((*desc.shape)[1], tileN);
      c.raster = tilesN > tilesM ? Raster::AlongM : Raster::AlongN;
    }
  }
  if (!c.swizzle && c.raster)
    c.swizzle = 1;
  // Stream-K where the shape is known and leaves a partial wave; split_k
  // and a dynamic shape keep the data-parallel scheduler (docs/stream-k.md).
  if (!c.scheduler &&
      pickTileScheduler(desc) == TileSchedulerKind::StreamK)
    c.scheduler = TileSchedulerKind::StreamK;
  // A column-major D is written by the direct stores only (Legality.cpp).
  if (!c.store && desc.storesD && desc.dMajor == OperandMajor::M)
    c.store = OutputStore::Direct;
  // Direct stores where a static shape's output rows break TMA's 16-byte
  // rule (an f16 LM head with N = 50257); TMA stores everywhere else.
  if (!c.store && desc.shape) {
    int64_t n = (*desc.shape)[1];
    bool unaligned = desc.storesD && n * getBits(desc.d) / 8 % 16 != 0;
    for (const EpilogueOperand &op : desc.operands)
      unaligned |= op.kind == EpilogueOperand::Kind::AuxStore &&
                   n * getBits(op.type) / 8 % 16 != 0;
    // D reduced with min or max needs TMA (Legality.cpp): the row-stride
    // rule then says what is wrong.
    bool vectorReduce = desc.dReduce == StoreReduce::Min ||
                        desc.dReduce == StoreReduce::Max;
    if (unaligned && !vectorReduce)
      c.store = OutputStore::Direct;
  }

  // A cp.async operand copies at its element size unless told more.
  if (c.isCpAsyncA() && !c.alignA)
    c.alignA = std::max<int64_t>(1, getBits(desc.a) / 8);
  if (c.isCpAsyncB() && !c.alignB)
    c.alignB = std::max<int64_t>(1, getBits(desc.b) / 8);
  // Copied C and aux loads: at the widest of their elements.
  if (c.isCpAsyncC() && !c.alignC)
    c.alignC = std::max<int64_t>(2, desc.largestEpilogueLoadBytes());

  // LoadRegisterRequirement / MmaRegisterRequirement of the cooperative and
  // pingpong kernels; the warp_specialized kernel keeps the launch budget.
  // First: the epilogue tile's default depends on the consumer's budget.
  // A cp.async producer (every producer thread computes its copies'
  // addresses) spills at 40 (ptxas): 56 and 224 with one operand copied,
  // 72 and 208 with both. 2-byte copies (realigned pieces of 5 words, or
  // whole 16-byte rounds, CpAsyncProducer.cpp) spilled 20 bytes at 64
  // beside a C load (96 copying threads: more rounds): 72 and 216 with one
  // (128 x 72 + 256 x 216 = 64512, the whole pool), 80 and 208 with both
  // (both MN-major spilled 4 bytes at 72). Copied C and aux loads (the
  // epilogue-load warp's copies of two warpgroups' subtiles) spilled up
  // to 136 bytes at 56, 72 and 80 (128x256, 16-byte copies): 96 and 200
  // (63488; the CTA's pool is 384 x 168 = 64512 registers, and 208 beside
  // 96 would have left setmaxnreg.inc waiting forever).
  if (schedule != KernelSchedule::WarpSpecialized) {
    int64_t copied = int64_t(c.isCpAsyncA()) + int64_t(c.isCpAsyncB());
    bool stores = (c.isCpAsyncA() && c.alignA.value_or(2) < 4) ||
                  (c.isCpAsyncB() && c.alignB.value_or(2) < 4);
    bool copiesC = c.isCpAsyncC() && desc.readsEpilogueMatrices();
    // A mixed-input producer's lanes copy the k-tile's scale rows; with
    // more than one group per k-tile (groups of 32 or 64 in k-tiles of
    // 128, of 128 in k-tiles of 256) each copy also tests its group
    // against K (MixedInputLoads.cpp), which spilled at 40 (the 128x16
    // group-32 kernel): 48 and 224, or 96 each of two CTAs per SM.
    bool copiesGroups =
        desc.dequantA && getDequantGroupsPerKTile(desc) > 1;
    if (!c.producerRegs)
      c.producerRegs = copiesC       ? 96
                       : copied == 2 ? (stores ? 80 : 72)
                       : copied == 1 ? (stores ? 72 : 56)
                       : copiesGroups ? 48
                                      : 40;
    // Two CTAs per SM: the consumers split what the producer leaves of
    // the CTA's launch allocation (384 threads x 80 = 30720: 96 each
    // beside 40).
    int64_t threads = getBlockThreads(schedule);
    int64_t pool = threads * getLaunchRegisterShare(threads, c.getCtasPerSm());
    if (!c.consumerRegs)
      c.consumerRegs =
          c.getCtasPerSm() > 1
              ? (pool - *c.producerRegs * 128) / (threads - 128) / 8 * 8
          : copiesC       ? 200
          : copied == 2 ? 208
          : copied == 1 ? (stores ? 216 : 224)
          : copiesGroups ? 224
                        : 232;
  }

  // sm90_compute_tile_shape_or_override (EpilogueTileAuto), narrowed (N a
  // multiple of 16 that divides tile N) while the epilogue's registers
  // would not fit beside the accumulator (RegisterBudget.cpp). An 8-bit D
  // takes 64 columns (CUTLASS's N_perf) for every schedule, not only the
  // warp-specialized ones: fewer, larger subtiles (64-byte rows) measured
  // 2.7% faster for the cooperative fp8 kernel at 8192x8192x1024 and 5%
  // for pingpong (docs/perf-notes.md, "fp8 epilogue").
  if (!c.epiTile) {
    int64_t epiM = std::min<int64_t>(cooperative ? 128 : 64, tileM);
    int64_t perfN =
        desc.storesD && getBits(desc.d) == 8 && tileN % 64 == 0 ? 64 : 32;
    int64_t epiN = std::gcd(std::min<int64_t>(perfN, tileN), tileN);
    for (int64_t n = epiN - 16; n >= 16 && tileN > 0; n -= 16) {
      ConsumerRegisters regs = estimateConsumerRegisters(desc, {epiM, epiN});
      if (regs.total() <= regs.budget)
        break;
      if (tileN % n == 0)
        epiN = n;
    }
    c.epiTile = {epiM, epiN};
  }
  auto [epiM, epiN] = *c.epiTile;
  int64_t epiTiles = 1;
  if (epiM > 0 && epiN > 0)
    epiTiles = std::max<int64_t>(1, (tileM / epiM) * (tileN / epiN));

  // sm90_get_tma_dispatch_policy, ordered so that no default contradicts a
  // knob the user set or a rule of the lowering (Legality.cpp).
  if (!c.fragmentSize)
    c.fragmentSize =
        std::max<int64_t>(1, epiM * epiN / getNumEpilogueThreads(schedule));
  // Load warps that copy the output out (copy_out = load) take a whole
  // tile's subtiles at once: the consumers stage them all and go on.
  if (!c.stagesD)
    c.stagesD = c.copiesOutByLoad() ? epiTiles : std::min<int64_t>(epiTiles, 2);
  // CUTLASS delays the TMA store when C is not loaded; ours needs a second
  // D buffer for the delayed store to read while the next is written.
  // Direct stores (st.global by every thread) have no TMA store to delay
  // and no bulk-group wait that could hand a reused C buffer back.
  if (!c.delayTmaStore)
    c.delayTmaStore = !desc.loadsC && *c.stagesD >= 2 && !c.isDirectStore();
  // D staged in C's buffers: not beside a delayed store, and only where
  // C's ring can hold D's.
  if (!c.reuseSmemC)
    c.reuseSmemC = desc.loadsC && desc.storesD &&
                   getBits(desc.c) == getBits(desc.d) && getBits(desc.d) > 8 &&
                   !*c.delayTmaStore && !c.isDirectStore() &&
                   !desc.storesEpilogueLoads() &&
                   (!c.stagesC || *c.stagesD <= *c.stagesC);
  // Each warp stores its own rows where that measured faster: an 8-bit D
  // (perf-notes, "Per-warp stores"). Not over C's buffers, whose stage goes
  // back after the warpgroup's store, nor with direct stores.
  if (!c.warpStores)
    c.warpStores = getBits(desc.d) == 8 && !*c.reuseSmemC && !c.isDirectStore();
  if (!c.stagesC) {
    int64_t stagesC = std::min<int64_t>(epiTiles, 4);
    // Fewer where the epilogue-load warp would spill (RegisterBudget.cpp).
    if (!*c.reuseSmemC)
      stagesC = fitEpilogueLoadStages(desc, epiTiles, epiM, stagesC);
    c.stagesC =
        *c.reuseSmemC ? std::max<int64_t>(stagesC, *c.stagesD + 1) : stagesC;
  }

  // Last: the carveout depends on every epilogue knob above.
  if (!c.stages)
    c.stages = computeAutoStages(desc, capacity);
}
