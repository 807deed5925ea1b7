//===- PlanningChip.cpp - Per-chip defaults and limits -------------------===//
//
// The planner's knowledge of the chips below sm_90 (Planning.h: Chip). An
// sm_80, sm_86 or sm_89 kernel is the classic warp-specialized Ampere/Ada
// GEMM: producer warps copy A and B with cp.async into the same 128B-
// swizzled stages the sm_90 kernels fill by TMA, consumer warps read them
// with ldmatrix and multiply with mma.sync.m16n8k16 (m16n8k32 for sm_89's
// fp8, e4m3 / e5m2; MainloopSm80.cpp),
// and the epilogue stores D with st.global (`store = direct`) and reads C
// and aux matrices through cp.async copies. What those
// chips lack is refused here, naming the chip: TMA (loads and stores),
// thread block clusters, wgmma (fp8 but on sm_89, and every other type
// but f16/bf16 with f32 accumulation), setmaxnreg; so are the parts of
// the sm_90 kernel the sm_8x lowering does not implement yet (pingpong,
// MN-major operands, C and aux loads in the multistage schedule). The
// multistage schedule (no producer warps; every warp copies and waits on
// cp.async groups, CUTLASS 2.x's MmaMultistage) is sm_8x's only: sm_90a
// refuses it.
//
// Shared memory per block (CUDA C Programming Guide, compute capabilities):
// sm_80 164 KB per SM of which 163 KiB (166912 bytes) for one block;
// sm_86 and sm_89 100 KB per SM, 99 KiB (101376 bytes) per block.
//
//===----------------------------------------------------------------------===//

#include "LegalityRules.h"

#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"
#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir::wsgemm::planning;
using namespace mlir::wsgemm::planning::legality;

const char *mlir::wsgemm::planning::toString(Chip chip) {
  switch (chip) {
  case Chip::Sm80:
    return "sm_80";
  case Chip::Sm86:
    return "sm_86";
  case Chip::Sm89:
    return "sm_89";
  case Chip::Sm90a:
    return "sm_90a";
  }
  return "?";
}

std::optional<Chip> mlir::wsgemm::planning::parseChip(const std::string &name) {
  for (Chip chip : {Chip::Sm80, Chip::Sm86, Chip::Sm89, Chip::Sm90a})
    if (name == toString(chip))
      return chip;
  // sm_90 and later targets (sm_90, sm_100a, ...) plan as sm_90a did
  // before chips were told apart.
  if (name.rfind("sm_9", 0) == 0 || name.rfind("sm_1", 0) == 0)
    return Chip::Sm90a;
  return std::nullopt;
}

int64_t mlir::wsgemm::planning::getSmemCapacity(Chip chip) {
  switch (chip) {
  case Chip::Sm80:
    return 166912;
  case Chip::Sm86:
  case Chip::Sm89:
    return 101376;
  case Chip::Sm90a:
    return kSm90SmemCapacity;
  }
  return kSm90SmemCapacity;
}

/// Registers of a consumer thread beside its accumulators: the ldmatrix
/// fragments of a k-step, addresses and indices; an estimate the ptxas
/// resource tests (test/Target/PTX/sm80-ptxas.test) hold to.
static constexpr int64_t kFragmentRegisters = 72;

/// f32 accumulators a consumer thread of `schedule` holds for a tile of
/// tileM x tileN (the tile's rows split between its warpgroups).
static int64_t accumulatorsPerThread(int64_t tileM, int64_t tileN,
                                     KernelSchedule schedule) {
  return tileM / getWarpgroupsPerTile(schedule) / 64 * tileN / 2;
}

/// Whether those accumulators and kFragmentRegisters fit the registers a
/// thread of the schedule's block gets.
static bool accumulatorsFit(int64_t tileM, int64_t tileN,
                            KernelSchedule schedule) {
  return accumulatorsPerThread(tileM, tileN, schedule) + kFragmentRegisters <=
         getLaunchRegisterShare(getBlockThreads(schedule), 1);
}

/// The longest static K whose default sm_8x one-warpgroup kernel hands the
/// copy-out to the load warps (the longest measured faster that way).
static constexpr int64_t kCopyOutMaxK = 1024;

void mlir::wsgemm::planning::fillChipDefaults(GemmDesc &desc) {
  if (!isSm8x(desc.chip))
    return;
  GemmConfig &c = desc.config;
  // Tile K is 128 bytes, as on sm_90: one swizzled row per operand row.
  if (!c.tile)
    c.tile = {128, 128, 128 * 8 / getBits(desc.a)};
  if (!c.cluster)
    c.cluster = {1, 1, 1};
  // One consumer warpgroup of four 32 x 128 warp tiles, as many warps as
  // CUTLASS's sm_80 GEMM has, persistent (below): on the H200 it ran
  // 1.01-1.10x the cooperative kernel's eight 32 x 64 warps, which read
  // 1.5x the fragments from shared memory per k-step (docs/perf-notes.md,
  // "The default sm_8x kernel"). Tiles whose accumulators one warpgroup
  // cannot hold (over 128 rows, or 128 x 192) split their rows between two.
  // A split tile's units (split-K, stream-K) sum through the workspace,
  // whose pointers the one-warpgroup kernel's 128 accumulators, carried
  // fragments and loop leave no room for at 128x128 (ptxas spilled 8-44
  // bytes at 255 registers): two warpgroups of 64 each take them.
  // Where the cooperative kernel's 168 registers a thread (384 threads)
  // cannot hold the accumulators either (128 x 256: 128 a thread), the
  // multistage kernel's 256 threads with 255 registers each do, as
  // CUTLASS's default sm_80 config (128x256x64, 3 stages) does; it runs
  // that tile at 1.03-1.04x CUTLASS's at 4096^3 and 8192 x 8192 x 1024
  // (docs/perf-notes.md, "The copy-out unrolled"), and 256x128 (two
  // 128-row warpgroups) the same way. It copies no C or aux matrix and has
  // no load warps.
  if (!c.schedule) {
    auto [tileM, tileN, tileK] = *c.tile;
    // An epilogue subtile of 128 rows spans two warpgroups' rows.
    bool tallSubtile = c.epiTile && (*c.epiTile)[0] > 64;
    if (c.getWarpColumns() == 4)
      c.schedule = KernelSchedule::Multistage; // its only schedule
    else if (tileM <= 128 && !tallSubtile && !c.hasWorkspace() &&
             accumulatorsFit(tileM, tileN, KernelSchedule::WarpSpecialized))
      c.schedule = KernelSchedule::WarpSpecialized;
    else if (!accumulatorsFit(tileM, tileN, KernelSchedule::Cooperative) &&
             accumulatorsFit(tileM, tileN, KernelSchedule::Multistage) &&
             !desc.readsEpilogueMatrices() && !c.copiesOutByLoad())
      c.schedule = KernelSchedule::Multistage;
    else
      c.schedule = KernelSchedule::Cooperative;
  }
  if (!c.loadA)
    c.loadA = OperandLoad::CpAsync;
  if (!c.loadB)
    c.loadB = OperandLoad::CpAsync;
  // 16-byte cp.async.cg: the runtime refuses a tensor that is not aligned
  // to it (a narrower align_a/align_b is written in the config).
  if (!c.alignA)
    c.alignA = 16;
  if (!c.alignB)
    c.alignB = 16;
  // C and aux loads too: the epilogue-load warp copies them, 16 bytes at a
  // time unless told less.
  if (desc.readsEpilogueMatrices()) {
    if (!c.loadC)
      c.loadC = OperandLoad::CpAsync;
    if (!c.alignC)
      c.alignC = 16;
  }
  if (!c.store)
    c.store = OutputStore::Direct;
  // The one-warpgroup kernel loops over tiles, so its producer fills the
  // next tile's stages while the consumers store the last one: 1.04-1.06x
  // the one-tile-per-CTA kernel at 4096^3 and 8192 x 8192 x 1024 (sm_90's
  // warp_specialized default stays one tile per CTA).
  if (!c.persistent && c.schedule == KernelSchedule::WarpSpecialized)
    c.persistent = true;
  if (!c.scheduler)
    c.scheduler = TileSchedulerKind::DataParallel;
  // sm_86/89's 99 KiB hold a 128x128x64 tile's two stages beside two C or
  // aux subtile stages, not the four sm_90 and sm_80 get.
  if (!c.stagesC && getSmemCapacity(desc.chip) < kSm90SmemCapacity / 2 &&
      desc.readsEpilogueMatrices())
    c.stagesC = 2;
}

void mlir::wsgemm::planning::finishChipDefaults(GemmDesc &desc,
                                                const GemmConfig &written,
                                                int64_t capacity) {
  if (!isSm8x(desc.chip))
    return;
  // The load warps copy the one-warpgroup kernel's output out while its
  // consumers run the next tile's mainloop (copy_out = load) for a static
  // K of at most kCopyOutMaxK, where a store ring of the whole tile costs
  // no mainloop stage: a 16-bit D on sm_80 (4 stages either way) and on
  // sm_86/89 (2), not an f32 D on sm_80 (3 against 4) nor most tiles
  // beside C or aux loads. On the H200 it ran 1.05-1.06x the consumers'
  // copy-out at 8192 x 8192 x 1024, 0.99-1.01x at 4096^3 and 0.94-0.99x
  // at 8192^3 (docs/perf-notes.md, "The load warps copy the tile out"), so
  // a K known only at launch keeps copy_out = mma. The stage and store
  // ring counts are then planned again from what `written` said.
  if (!written.copyOut && !desc.config.hasWorkspace() &&
      desc.config.schedule == KernelSchedule::WarpSpecialized &&
      desc.shape && (*desc.shape)[2] <= kCopyOutMaxK && !written.stages &&
      !written.stagesD) {
    GemmDesc probe = desc;
    probe.config = written;
    probe.config.copyOut = CopyOut::Load;
    fillChipDefaults(probe);
    fillDefaults(probe, capacity);
    if (probe.config.stages.value_or(0) >= desc.config.stages.value_or(0) &&
        computeSmemBudget(probe).total <= capacity)
      desc.config = probe.config;
  }
  if (!desc.config.copyOut)
    desc.config.copyOut = CopyOut::Mma;
  desc.config.producerRegs = written.producerRegs;
  desc.config.consumerRegs = written.consumerRegs;
  // Two consumer warpgroups' warps in two columns of two (32 x 64 warp
  // tiles instead of 16 x 128: 6 ldmatrix.x4 per 16 mma.sync, not 9):
  // cooperative 1.05-1.07x, multistage 1.21-1.24x at 4096^3 and 8192 x
  // 8192 x 1024 (docs/perf-notes.md, "Warp tiles on sm_8x"). The
  // one-warpgroup kernel measured the same either way (64 x 64 against 32
  // x 128) and keeps wgmma's layout; so do kernels with C or aux loads,
  // which the two columns' copies were not measured with (and, with an
  // f32 C and a residual, made the cooperative kernel spill 32 bytes).
  // A multistage 128 x 256 tile takes four columns of one (64 x 64 warp
  // tiles, CUTLASS's there, against 32 x 128): 8 ldmatrix.x4 per 32
  // mma.sync instead of 10, and with the whole-subtile copy-out 1.03-1.04x
  // the two columns' throughput at 4096^3 and 8192 x 8192 x 1024
  // (docs/perf-notes.md, "The copy-out unrolled"). Not beside a workspace:
  // stream-K's fixup then spilled 8 bytes at 255 registers.
  GemmConfig &c = desc.config;
  if (!written.warpColumns && c.tile && c.epiTile &&
      (c.schedule == KernelSchedule::Cooperative ||
       c.schedule == KernelSchedule::Multistage) &&
      !desc.readsEpilogueMatrices()) {
    auto [tileM, tileN, tileK] = *c.tile;
    int64_t epiN = (*c.epiTile)[1];
    auto fits = [&](int64_t cols) {
      int64_t part = tileN / cols;
      return part % 16 == 0 && epiN > 0 && part % epiN == 0;
    };
    if (c.schedule == KernelSchedule::Multistage && tileM == 128 &&
        tileN / 4 >= 64 && !c.hasWorkspace() && fits(4))
      c.warpColumns = 4;
    else if (fits(2))
      c.warpColumns = 2;
  }
}

std::vector<PlanError>
mlir::wsgemm::planning::checkChipLegality(const GemmDesc &desc) {
  ErrorList errors;
  const GemmConfig &c = desc.config;
  if (!isSm8x(desc.chip)) {
    if (c.schedule == KernelSchedule::Multistage)
      errors.error() << "schedule = multistage is an sm_8x schedule (cp.async "
                     << "groups and bar.sync, no producer warps); "
                     << toString(desc.chip) << " kernels are warp-"
                     << "specialized (warp_specialized, cooperative, "
                        "pingpong)";
    if (c.getWarpColumns() != 1)
      errors.error() << "warp_columns = " << c.getWarpColumns()
                     << " is an sm_8x knob (mma.sync warp tiles); "
                     << toString(desc.chip) << "'s wgmma gives each warp 16 "
                     << "rows of every 64 and all the tile's columns";
    if (c.copiesOutByLoad())
      errors.error() << "copy_out = load is an sm_8x knob (the cp.async "
                     << "load warps copy the staged output out); "
                     << toString(desc.chip) << " kernels store by TMA or "
                     << "from the consumer warpgroups (copy_out = mma)";
    return errors.take();
  }
  const char *chip = toString(desc.chip);
  auto is16 = [](DType t) { return t == DType::F16 || t == DType::BF16; };
  auto isFp8 = [](DType t) {
    return t == DType::F8E4M3 || t == DType::F8E5M2;
  };
  // sm_89 (Ada) adds mma.sync.m16n8k32 on e4m3 / e5m2, in any pairing.
  bool fp8 = isFp8(desc.a) && isFp8(desc.b);
  if (fp8 && desc.chip != Chip::Sm89)
    errors.error() << chip << " has no fp8 mma.sync (m16n8k32 on e4m3 or "
                   << "e5m2 is sm_89's): got a(" << toString(desc.a)
                   << ") and b(" << toString(desc.b) << "); " << chip
                   << " kernels multiply f16 or bf16";
  else if (!fp8 && (!is16(desc.a) || desc.a != desc.b))
    errors.error() << chip << " kernels multiply f16 or bf16 A and B of one "
                   << "type (mma.sync.m16n8k16 with f32 accumulation)"
                   << (desc.chip == Chip::Sm89 ? ", or fp8 (e4m3, e5m2) A and "
                                                 "B (m16n8k32)"
                                               : "")
                   << ", got a(" << toString(desc.a) << ") and b("
                   << toString(desc.b) << ")";
  if (desc.d != DType::F16 && desc.d != DType::BF16 && desc.d != DType::F32)
    errors.error() << chip << " kernels store an f16, bf16 or f32 D, got d("
                   << toString(desc.d) << ")";
  if (c.promotionInterval.value_or(0) > 0 || c.blockScaling.value_or(false))
    errors.error() << chip << " has no fp8 "
                   << (c.blockScaling.value_or(false) ? "block scaling" : "promotion")
                   << ": it is sm_90a's wgmma knob (mma.sync accumulates in "
                      "f32)";
  if (c.cluster && (*c.cluster)[0] * (*c.cluster)[1] * (*c.cluster)[2] != 1)
    errors.error() << chip << " has no thread block clusters (cluster = "
                   << listToString(*c.cluster) << "; sm_90a has)";
  for (auto [name, load] : {std::pair{"load_a", c.loadA},
                            std::pair{"load_b", c.loadB},
                            std::pair{"load_c", c.loadC}})
    if (load == OperandLoad::Tma)
      errors.error() << chip << " has no TMA: " << name
                     << " = tma; its operands are copied with cp.async ("
                     << name << " = cp_async, the default there)";
  for (auto [name, align] : {std::pair{"align_a", c.alignA},
                             std::pair{"align_b", c.alignB},
                             std::pair{"align_c", c.alignC}})
    if (align && *align < 4)
      errors.error() << name << " = " << *align << ": " << chip
                     << " kernels copy 16, 8 or 4 bytes per cp.async (the "
                        "2-byte copy is implemented for sm_90a only)";
  if (c.store == OutputStore::Tma)
    errors.error() << chip << " has no TMA store: store = tma; outputs are "
                   << "stored with st.global (store = direct, the default "
                      "there)";
  if (c.producerRegs || c.consumerRegs)
    errors.error() << chip << " has no setmaxnreg: producer_regs and "
                   << "consumer_regs are sm_90a knobs";
  if (c.getCtasPerSm() > 1)
    errors.error() << "ctas_per_sm = " << c.getCtasPerSm()
                   << " is implemented for sm_90a only (its register and "
                      "shared-memory shares are sm_90's), not "
                   << chip;
  if (c.schedule == KernelSchedule::Pingpong)
    errors.error() << "schedule = pingpong is not implemented on " << chip
                   << " (warp_specialized, cooperative and multistage are)";
  // Split-K and stream-K sum a tile's units through the workspace
  // (TileSchedulerFixup.cpp: st.global, ld.acquire / red.release.gpu);
  // only the last unit stores the tile, which the load warps' copy-out
  // does not know.
  if ((c.getSplitK() > 1 || c.isStreamK()) && c.copiesOutByLoad())
    errors.error() << splitKnob(c) << " needs copy_out = mma: the load warps copy every "
                      "tile out, where a split tile's last unit alone "
                      "stores it";
  if (desc.aMajor == OperandMajor::M || desc.bMajor == OperandMajor::N)
    errors.error() << "an " << (desc.aMajor == OperandMajor::M ? "M" : "N")
                   << "-major operand is not implemented on " << chip
                   << " (its fragments need ldmatrix.trans); A and B must "
                      "be K-major";
  // C and aux matrices are copied by the epilogue-load warp with cp.async
  // (EpilogueLoads.cpp), which the multistage schedule does not have.
  if (desc.readsEpilogueMatrices() && c.schedule == KernelSchedule::Multistage)
    errors.error() << "schedule = multistage does not read C or aux "
                   << "matrices (they are copied by the epilogue-load warp "
                   << "of the warp-specialized schedules: warp_specialized, "
                      "cooperative)";
  if (c.copiesOutByLoad() && c.schedule == KernelSchedule::Multistage)
    errors.error() << "copy_out = load needs load warps: schedule = "
                   << "multistage has none (its warps copy their own "
                      "outputs out, copy_out = mma)";
  else if (c.copiesOutByLoad() && c.schedule != KernelSchedule::WarpSpecialized)
    errors.error() << "copy_out = load is implemented for schedule = "
                   << "warp_specialized (one consumer warpgroup), not "
                   << toString(getSchedule(desc))
                   << ": its consumers copy their own outputs out "
                      "(copy_out = mma)";
  // Aux stores, reductions (row, column, scalar) and reduce-stores need no
  // TMA: the sm_90 epilogue writes them with st.global and red/atom.global
  // (store = direct), which sm_8x has.
  if (errors.size() || !c.tile)
    return errors.take();

  // mma.sync tile rules. A consumer warp holds 16 rows of each 64-row block
  // of its warpgroup's rows and every column of the tile, or with
  // warp_columns = 2 half the rows and half the columns.
  auto [tileM, tileN, tileK] = *c.tile;
  int64_t bits = getBits(desc.a);
  if (tileK * bits / 8 != 128)
    errors.error() << chip << " tile K must be " << 128 * 8 / bits
                   << " (128 bytes of a " << bits << "-bit operand: one "
                   << "swizzled row), got " << tileK;
  if (tileN % 16 != 0 || tileN > 256)
    errors.error() << chip << " tile N must be a multiple of 16 up to 256 "
                   << "(one ldmatrix.x4 of B covers 16 columns), got "
                   << tileN;
  // Two or four columns of warps: each loads B 16 columns per ldmatrix.x4
  // and stores (and has C and aux loads copied as) whole epilogue subtiles
  // of its own columns.
  if (c.getWarpColumns() > 1) {
    int64_t cols = c.getWarpColumns();
    int64_t epiN = c.epiTile ? (*c.epiTile)[1] : 0;
    if ((tileN / cols) % 16 != 0)
      errors.error() << "warp_columns = " << cols << " needs tile N / "
                     << cols << " to be a multiple of 16 (each column of "
                     << "warps loads B with ldmatrix.x4, 16 columns at a "
                        "time), got tile N "
                     << tileN;
    else if (epiN > 0 && (tileN / cols) % epiN != 0)
      errors.error() << "warp_columns = " << cols << " needs epi N to "
                     << "divide tile N / " << cols << " = " << tileN / cols
                     << " (a subtile's columns belong to one column of "
                     << "warps), got epi_tile = "
                     << listToString(*c.epiTile);
  }
  // Four columns were built and measured for the multistage kernel's
  // 128x256 tile (64 x 64 warp tiles, docs/perf-notes.md, "The multistage
  // loop pipelined"); the warp-specialized kernels' consumer loops and
  // epilogue-load warp have not run them.
  if (c.getWarpColumns() == 4 && c.schedule &&
      *c.schedule != KernelSchedule::Multistage)
    errors.error() << "warp_columns = 4 is implemented for schedule = "
                   << "multistage, not " << toString(*c.schedule)
                   << " (its warp-specialized kernels take 1 or 2)";
  KernelSchedule schedule = getSchedule(desc);
  int64_t wgs = getWarpgroupsPerTile(schedule);
  if (tileM % (64 * wgs) != 0)
    return errors.take(); // checkLegality names this rule
  int64_t threads = getBlockThreads(schedule);
  int64_t accumulators = accumulatorsPerThread(tileM, tileN, schedule);
  int64_t budget = getLaunchRegisterShare(threads, 1);
  if (!accumulatorsFit(tileM, tileN, schedule))
    errors.error() << "a " << chip << " consumer thread of tile "
                   << listToString(*c.tile) << " holds " << accumulators
                   << " f32 accumulators ("
                   << tileM / wgs / 4 * c.getWarpColumns() << " rows x "
                   << tileN / c.getWarpColumns()
                   << " columns per warp), which with "
                   << kFragmentRegisters << " for fragments and addresses "
                   << "exceed the " << budget << " registers a thread of a "
                   << threads << "-thread block has: a smaller tile N fits";
  return errors.take();
}
