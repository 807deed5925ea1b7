//===- PlanningTest.cpp - Tests of the GEMM planning library --------------===//
//
// CUTLASS defaults, the itemised SMEM budget and the legality rules of
// Planning.h, on descriptions built directly (no IR). Every expected number
// is derived in a comment; Planning.h documents the rules and the layout.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/Planning.h"
#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"

#include "gtest/gtest.h"

using namespace mlir::wsgemm::planning;

namespace {

/// An f16 GEMM whose epilogue only stores D.
GemmDesc makeDesc() {
  GemmDesc desc;
  desc.a = desc.b = desc.d = DType::F16;
  return desc;
}

/// Adds an epilogue reading C (f16 unless given).
GemmDesc withC(GemmDesc desc, DType type = DType::F16) {
  desc.c = type;
  desc.loadsC = true;
  return desc;
}

//===----------------------------------------------------------------------===//
// Defaults
//===----------------------------------------------------------------------===//

TEST(PlanningDefaults, BasicCooperative) {
  GemmDesc desc = makeDesc();
  fillDefaults(desc);
  const GemmConfig &c = desc.config;
  EXPECT_EQ(*c.tile, (std::array<int64_t, 3>{128, 128, 64}));
  EXPECT_EQ(*c.cluster, (std::array<int64_t, 3>{1, 1, 1}));
  // KernelScheduleAuto: tile M != 64 -> cooperative, persistent.
  EXPECT_EQ(*c.schedule, KernelSchedule::Cooperative);
  EXPECT_TRUE(*c.persistent);
  // Neither raster nor swizzle named: both are the launch's (tile_order).
  EXPECT_FALSE(c.raster.has_value());
  EXPECT_FALSE(c.swizzle.has_value());
  EXPECT_TRUE(c.hasRuntimeTileOrder());
  // Cooperative: (min(128, 128), gcd(min(32, 128), 128)) = (128, 32).
  EXPECT_EQ(*c.epiTile, (std::array<int64_t, 2>{128, 32}));
  // 128 * 32 / 256 threads.
  EXPECT_EQ(*c.fragmentSize, 16);
  // No C: no reuse, delayed TMA stores.
  EXPECT_FALSE(*c.reuseSmemC);
  EXPECT_TRUE(*c.delayTmaStore);
  // EpiTiles = (128 / 128) * (128 / 32) = 4: stages_d = 2, stages_c = 4.
  EXPECT_EQ(*c.stagesD, 2);
  EXPECT_EQ(*c.stagesC, 4);
  EXPECT_EQ(*c.producerRegs, 40);
  EXPECT_EQ(*c.consumerRegs, 232);
  // (232448 - 16384 D) / (32768 + 32) = 6.
  EXPECT_EQ(*c.stages, 6);
}

TEST(PlanningDefaults, WarpSpecializedKeepsLaunchRegisters) {
  GemmDesc desc = makeDesc();
  desc.config.schedule = KernelSchedule::WarpSpecialized;
  fillDefaults(desc);
  EXPECT_FALSE(*desc.config.persistent);
  EXPECT_FALSE(desc.config.producerRegs.has_value());
  EXPECT_FALSE(desc.config.consumerRegs.has_value());
  EXPECT_EQ(*desc.config.epiTile, (std::array<int64_t, 2>{64, 32}));
  // EpiTiles = 2 * 4 = 8.
  EXPECT_EQ(*desc.config.stagesD, 2);
  EXPECT_EQ(*desc.config.stagesC, 4);
}

TEST(PlanningDefaults, EpilogueTileNUsesGcd) {
  // gcd(min(32, 48), 48) = 16: a 32-wide subtile would not divide 48.
  GemmDesc desc = makeDesc();
  desc.config.tile = {128, 48, 64};
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.epiTile, (std::array<int64_t, 2>{128, 16}));
  // EpiTiles = 1 * 3 = 3: stages_d = min(3, 2) = 2, stages_c = min(3, 4) = 3.
  EXPECT_EQ(*desc.config.stagesD, 2);
  EXPECT_EQ(*desc.config.stagesC, 3);
}

TEST(PlanningDefaults, ReuseSmemCRaisesStagesC) {
  // 128x64 cooperative: epi_tile [128, 32], EpiTiles = 2. C and D 16-bit:
  // reuse, stages_d = min(2, 2) = 2, stages_c = max(min(2, 4), 2 + 1) = 3.
  GemmDesc desc = withC(makeDesc());
  desc.config.tile = {128, 64, 64};
  fillDefaults(desc);
  EXPECT_TRUE(*desc.config.reuseSmemC);
  EXPECT_FALSE(*desc.config.delayTmaStore);
  EXPECT_EQ(*desc.config.stagesD, 2);
  EXPECT_EQ(*desc.config.stagesC, 3);
}

TEST(PlanningDefaults, NoReuseForDifferentWidths) {
  GemmDesc desc = withC(makeDesc(), DType::F32); // f32 C, f16 D
  fillDefaults(desc);
  EXPECT_FALSE(*desc.config.reuseSmemC);
  EXPECT_FALSE(*desc.config.delayTmaStore);
  EXPECT_EQ(*desc.config.stagesC, 4);
}

TEST(PlanningDefaults, DeclaredButUnreadCIsNotLoaded) {
  GemmDesc desc = makeDesc();
  desc.c = DType::F16; // c(f16) declared, never read by the epilogue
  fillDefaults(desc);
  EXPECT_FALSE(*desc.config.reuseSmemC);
  EXPECT_TRUE(*desc.config.delayTmaStore);
}

TEST(PlanningDefaults, UserKnobsAreKept) {
  GemmDesc desc = withC(makeDesc());
  desc.config.stages = 3;
  desc.config.reuseSmemC = false;
  desc.config.epiTile = {128, 64};
  desc.config.consumerRegs = 224;
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.stages, 3);
  EXPECT_FALSE(*desc.config.reuseSmemC);
  EXPECT_EQ(*desc.config.epiTile, (std::array<int64_t, 2>{128, 64}));
  EXPECT_EQ(*desc.config.consumerRegs, 224);
  EXPECT_EQ(*desc.config.producerRegs, 40);
  // From the user's epi tile: 128 * 64 / 256 = 32; EpiTiles = 2.
  EXPECT_EQ(*desc.config.fragmentSize, 32);
  EXPECT_EQ(*desc.config.stagesC, 2);
}

TEST(PlanningDefaults, RasterFromStaticShape) {
  // A "tiles" grid fixes its raster at compile time; CUTLASS: along_m when
  // tiles_n > tiles_m, else along_n.
  auto tilesGrid = [] {
    GemmDesc desc = makeDesc();
    desc.config.schedule = KernelSchedule::WarpSpecialized;
    return desc;
  };
  GemmDesc tall = tilesGrid();
  tall.shape = {4096, 1024, 512, 1}; // 32 x 8 tiles of 128x128
  fillDefaults(tall);
  EXPECT_EQ(*tall.config.raster, Raster::AlongN);
  EXPECT_EQ(*tall.config.swizzle, 1);
  GemmDesc wide = tilesGrid();
  wide.shape = {512, 8192, 512, 1}; // 4 x 64 tiles
  fillDefaults(wide);
  EXPECT_EQ(*wide.config.raster, Raster::AlongM);
  GemmDesc square = tilesGrid();
  square.shape = {1000, 1000, 64, 1}; // 8 x 8 tiles: not more along N
  fillDefaults(square);
  EXPECT_EQ(*square.config.raster, Raster::AlongN);
  // A persistent kernel leaves them to the launch, static shape or not.
  GemmDesc persistent = makeDesc();
  persistent.shape = {4096, 1024, 512, 1};
  fillDefaults(persistent);
  EXPECT_TRUE(persistent.config.hasRuntimeTileOrder());
}

TEST(PlanningDefaults, OneOrderKnobFixesBoth) {
  GemmDesc swizzled = makeDesc();
  swizzled.config.swizzle = 8;
  fillDefaults(swizzled);
  EXPECT_EQ(*swizzled.config.raster, Raster::Heuristic);
  EXPECT_FALSE(swizzled.config.hasRuntimeTileOrder());
  GemmDesc rastered = makeDesc();
  rastered.config.raster = Raster::AlongM;
  fillDefaults(rastered);
  EXPECT_EQ(*rastered.config.swizzle, 1);
  EXPECT_FALSE(rastered.config.hasRuntimeTileOrder());
}

TEST(PlanningDefaults, StagesFollowCapacity) {
  // (101376 - 16384) / 32800 = 2; (65536 - 16384) / 32800 = 1, raised to 2.
  GemmDesc desc = makeDesc();
  fillDefaults(desc, 101376);
  EXPECT_EQ(*desc.config.stages, 2);
  GemmDesc tiny = makeDesc();
  fillDefaults(tiny, 65536);
  EXPECT_EQ(*tiny.config.stages, 2);
}

TEST(PlanningDefaults, NeverCrashesOnZeros) {
  GemmDesc desc = makeDesc();
  desc.config.tile = {0, 0, 0};
  fillDefaults(desc);
  std::vector<PlanError> errors = checkLegality(desc);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "tile = [0, 0, 0] must have positive M, N and K");
}

//===----------------------------------------------------------------------===//
// SMEM budget
//===----------------------------------------------------------------------===//

TEST(PlanningSmem, BasicItems) {
  GemmDesc desc = makeDesc();
  fillDefaults(desc);
  SmemBudget budget = computeSmemBudget(desc);
  EXPECT_EQ(budget.get(SmemKind::AStages), 98304); // 6 x 128x64 x 2 B
  EXPECT_EQ(budget.get(SmemKind::BStages), 98304); // 6 x 128x64 x 2 B
  EXPECT_EQ(budget.get(SmemKind::CBuffers), 0);
  EXPECT_EQ(budget.get(SmemKind::DBuffers), 16384);      // 2 x 128x32 x 2 B
  EXPECT_EQ(budget.get(SmemKind::MainloopBarriers), 96); // 6 x 16
  EXPECT_EQ(budget.get(SmemKind::EpilogueBarriers), 0);  // nothing loaded
  EXPECT_EQ(budget.get(SmemKind::OrderBarriers), 0);     // not pingpong
  EXPECT_EQ(budget.get(SmemKind::CopyOutBarriers), 0);   // copy_out = mma
  EXPECT_EQ(budget.get(SmemKind::AlignmentPadding), 0);
  EXPECT_EQ(budget.get(SmemKind::BaseAlignment), 1024);
  EXPECT_EQ(budget.total, 214112);
  ASSERT_EQ(budget.items.size(), 13u);
  EXPECT_STREQ(budget.items[0].name, "A stages");
  EXPECT_EQ(budget.items[0].formula, "6 x 128x64 x 2 B");
  EXPECT_EQ(budget.get(SmemKind::DequantStages), 0); // no mixed input
  EXPECT_EQ(budget.items[2].formula, "");
  EXPECT_EQ(budget.items[4].formula, "2 x 128x32 x 2 B");
}

TEST(PlanningSmem, CopyOutByLoadWholeTileRing) {
  // copy_out = load: a store ring of every subtile of the tile (128x128
  // cooperative, epi 128x32: 4 subtiles of 128x32 x 2 B) and a full and an
  // empty barrier per slot.
  GemmDesc desc = makeDesc();
  desc.config.copyOut = CopyOut::Load;
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.stagesD, 4);
  SmemBudget budget = computeSmemBudget(desc);
  EXPECT_EQ(budget.get(SmemKind::DBuffers), 32768); // 4 x 128x32 x 2 B
  EXPECT_EQ(budget.get(SmemKind::CopyOutBarriers), 64); // 4 x 16
}

TEST(PlanningSmem, CooperativeBf16WithC) {
  // 128x256x64 bf16 with bf16 C: D reuses C's 4 x 128x32 x 2 B = 32768.
  GemmDesc desc = withC(makeDesc());
  desc.config.tile = {128, 256, 64};
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.stages, 4); // (232448 - 33856) / 49184
  SmemBudget budget = computeSmemBudget(desc);
  EXPECT_EQ(budget.get(SmemKind::AStages), 65536);  // 4 x 128x64 x 2 B
  EXPECT_EQ(budget.get(SmemKind::BStages), 131072); // 4 x 256x64 x 2 B
  EXPECT_EQ(budget.get(SmemKind::CBuffers), 32768);
  EXPECT_EQ(budget.get(SmemKind::DBuffers), 0);
  EXPECT_EQ(budget.get(SmemKind::MainloopBarriers), 64);
  EXPECT_EQ(budget.get(SmemKind::EpilogueBarriers), 64);
  EXPECT_EQ(budget.total, 230528); // + 1024 base alignment
}

TEST(PlanningSmem, AuxBuffersVectorsAndReductions) {
  using Kind = EpilogueOperand::Kind;
  GemmDesc desc = withC(makeDesc());
  desc.operands = {{Kind::AuxLoad, "res", DType::F16, ""},
                   {Kind::AuxStore, "pre", DType::F16, ""},
                   {Kind::VecM, "bias", DType::F16, ""},
                   {Kind::VecN, "colbias", DType::F16, ""},
                   {Kind::ReduceVecM, "rmax", DType::F32, "max"},
                   {Kind::ReduceVecN, "csum", DType::F32, "sum"},
                   {Kind::ReduceScalar, "amax", DType::F32, "absmax"}};
  fillDefaults(desc);
  // C is read and C and D are both f16: reuse_smem_c, so D and the aux
  // stores use C's ring (stages_c = 4 slots), not stages_d's 2.
  KernelLayout layout = computeKernelLayout(desc);
  EXPECT_TRUE(layout.reuseSmemC);
  EXPECT_EQ(layout.storeRing, 4);
  EXPECT_EQ(layout.budget.get(SmemKind::CBuffers), 32768); // 4 x 128x32 x 2 B
  EXPECT_EQ(layout.budget.get(SmemKind::DBuffers), 0);     // in C's
  EXPECT_EQ(layout.budget.get(SmemKind::AuxLoadBuffers), 32768);
  // The aux store ring has the store ring's 4 slots: 4 x 128x32 x 2 B.
  EXPECT_EQ(layout.budget.get(SmemKind::AuxStoreBuffers), 32768);
  EXPECT_EQ(layout.budget.get(SmemKind::EpilogueBarriers), 64);
  EXPECT_EQ(layout.budget.get(SmemKind::BaseAlignment), 1024);
  // Vectors are read from global memory and reductions use shuffles and
  // atomics: neither appears in the layout.
  int64_t items = 0;
  for (const SmemItem &item : layout.budget.items)
    items += item.bytes;
  EXPECT_EQ(items, layout.smemBytes);
  // A/B stages of 32 KiB (128x64 + 128x64, f16) + 32 B of barriers each:
  // (232448 - 99328 - 64 - 1024) / 32800 = 4.
  EXPECT_EQ(*desc.config.stages, 4);
  EXPECT_EQ(layout.offA, 0);
  EXPECT_EQ(layout.offB, 65536);
  EXPECT_EQ(layout.offC, 131072);
  EXPECT_EQ(layout.offD, layout.offC);
  ASSERT_EQ(layout.auxLoads.size(), 1u);
  EXPECT_EQ(layout.auxLoads[0].offset, 131072 + 32768);
  ASSERT_EQ(layout.auxStores.size(), 1u);
  EXPECT_EQ(layout.auxStores[0].offset, 131072 + 2 * 32768);
  EXPECT_EQ(layout.offMainBarriers, 131072 + 3 * 32768);
  EXPECT_EQ(layout.offEpiBarriers, layout.offMainBarriers + 4 * 16);
  EXPECT_EQ(layout.smemBytes, layout.offEpiBarriers + 64 + 1024);
  EXPECT_EQ(layout.budget.items[5].formula, "res: 4 x 128x32 x 2 B");
}

TEST(PlanningSmem, ParametersInLaunchOrder) {
  using Kind = EpilogueOperand::Kind;
  GemmDesc desc = withC(makeDesc());
  desc.bMajor = OperandMajor::N;
  desc.batched = true;
  desc.operands = {{Kind::Scalar, "alpha", DType::F32, ""},
                   {Kind::AuxStore, "pre", DType::F32, ""},
                   {Kind::VecM, "bias", DType::BF16, ""},
                   {Kind::ReduceScalar, "amax", DType::F32, "absmax"}};
  fillDefaults(desc);
  KernelLayout layout = computeKernelLayout(desc);
  std::vector<std::string> names;
  for (const KernelParam &p : layout.params)
    names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "C", "D", "pre", "alpha",
                                             "bias", "amax", "tile_order", "M",
                                             "N", "K", "L"}));
  EXPECT_EQ(layout.params[8].kind, KernelParam::Kind::TileOrder);
  // An explicit raster or swizzle: no tile_order parameter.
  desc.config.swizzle = 4;
  EXPECT_EQ(computeKernelLayout(desc).params.size(), names.size() - 1);
  // N-major B moves in 64-column boxes; batched maps get a unit L box.
  EXPECT_EQ(layout.params[1].dims, (std::vector<std::string>{"N", "K", "L"}));
  EXPECT_EQ(layout.params[1].box, (std::vector<int64_t>{64, 64, 1}));
  // An f32 subtile row of 32 columns is 128 bytes: the 128B swizzle; an
  // f16 row of 32 columns is 64 bytes: the 64B swizzle.
  EXPECT_EQ(layout.params[4].swizzleBytes, 128);
  EXPECT_EQ(layout.params[3].swizzleBytes, 64);
  EXPECT_EQ(layout.params[6].extent, (std::vector<std::string>{"M", "L"}));
  EXPECT_EQ(layout.params[6].type, DType::BF16);
  EXPECT_EQ(layout.params[7].reduce, "absmax");
}

TEST(PlanningSmem, MixedInputDequantRows) {
  // i4 A with group-128 bf16 scales and ui4 zero points, tile 128x16x64:
  // a stage holds 128 x 64 / 2 = 4096 bytes of A, 16 x 64 x 2 = 2048 of
  // B and 2 x 128 x 2 = 512 of scales and zero points (128-aligned,
  // after the B stages).
  GemmDesc desc = makeDesc();
  desc.a = DType::I4;
  desc.b = desc.d = DType::BF16;
  desc.dequantA = Dequant{DType::BF16, 128, ZeroPoint::Group};
  desc.config.tile = {128, 16, 64};
  desc.config.stages = 4;
  EXPECT_EQ(getDequantStageBytes(desc), 512);
  EXPECT_EQ(getStageBytes(desc), 4096 + 2048 + 512);
  KernelLayout layout = computeKernelLayout(desc);
  EXPECT_EQ(layout.stageBytesDequant, 512);
  EXPECT_EQ(layout.offDequant, layout.offB + 4 * 2048);
  EXPECT_EQ(layout.budget.get(SmemKind::DequantStages), 4 * 512);
  EXPECT_EQ(layout.budget.items[2].formula, "4 x 256 x 2 B");
  // Scales only (bias8): half the rows.
  desc.dequantA->zero = ZeroPoint::Bias8;
  EXPECT_EQ(getDequantStageBytes(desc), 256);
  // Without dequantization there are none.
  EXPECT_EQ(getDequantStageBytes(makeDesc()), 0);
  EXPECT_EQ(computeKernelLayout(makeDesc()).offDequant, -1);
}

TEST(PlanningDefaults, MixedInputScalesOnTheAccumulator) {
  // Per k-tile and 64 rows, a thread's registers take tile K / 16 x 4
  // mul.rn (32 at tile K 128) with the scales on the weight, groups per
  // k-tile x tile N / 2 fma on the accumulator: the accumulator wins where
  // that is fewer (and fits the registers).
  GemmDesc desc = makeDesc();
  desc.a = DType::I4;
  desc.b = desc.d = DType::BF16;
  desc.dequantA = Dequant{DType::BF16, 128, ZeroPoint::Group};
  desc.config.schedule = KernelSchedule::Cooperative;
  auto at = [&](int64_t n, int64_t k, int64_t group) {
    desc.config.tile = {128, n, k};
    desc.dequantA->group = group;
    return scalesDequantAccumulator(desc);
  };
  EXPECT_TRUE(at(16, 128, 128));  // 8 fma < 32 mul
  EXPECT_TRUE(at(32, 128, 128));  // 16 < 32
  EXPECT_FALSE(at(64, 128, 128)); // 32, not fewer
  EXPECT_TRUE(at(16, 64, 128));   // a group spanning two k-tiles: 8 < 16
  EXPECT_TRUE(at(16, 64, 64));    // one group per k-tile
  EXPECT_FALSE(at(32, 64, 128));  // 16, not fewer
  EXPECT_FALSE(at(256, 64, 128));
  // Two or more groups per k-tile stay on the weight (ptxas serialized
  // the wgmma of a kernel folding one partial beside another in flight).
  EXPECT_FALSE(at(16, 128, 64));
  EXPECT_FALSE(at(16, 128, 32));
  // A partial beside the total; register budgets that cannot hold both
  // keep the scales on the weight.
  at(16, 128, 128);
  EXPECT_EQ(getAccumulatorSets(desc), 2);
  desc.config.consumerRegs = 48;
  EXPECT_FALSE(scalesDequantAccumulator(desc)); // 2 x 8 + 2 + 40 > 48
  desc.config.consumerRegs = 64;
  EXPECT_TRUE(scalesDequantAccumulator(desc));
  desc.config.consumerRegs.reset();
  at(64, 128, 128);
  EXPECT_EQ(getAccumulatorSets(desc), 1);
  // One scale per row always multiplies the accumulator, after the loop:
  // no partial.
  desc.dequantA->zero = ZeroPoint::None;
  desc.a = DType::I8;
  EXPECT_TRUE(at(256, 64, 0));
  EXPECT_EQ(getAccumulatorSets(desc), 1);
  // Not a mixed-input GEMM: neither.
  EXPECT_FALSE(scalesDequantAccumulator(makeDesc()));
  EXPECT_EQ(getAccumulatorSets(makeDesc()), 1);
}

TEST(PlanningSmem, AlignmentPadding) {
  // Tile N = 20: a B stage is 20 x 64 x 2 = 2560 bytes, so C's buffers
  // (1024-aligned) start 512 bytes later.
  GemmDesc desc = withC(makeDesc());
  desc.config.tile = {128, 20, 64};
  desc.config.epiTile = {128, 16};
  desc.config.stages = 1;
  desc.config.stagesC = 1;
  desc.config.stagesD = 1;
  desc.config.reuseSmemC = false;
  KernelLayout layout = computeKernelLayout(desc);
  EXPECT_EQ(layout.offB, 16384);
  EXPECT_EQ(layout.offC, 16384 + 2560 + 512);
  EXPECT_EQ(layout.budget.get(SmemKind::AlignmentPadding), 512);
  // C 1 x 128x16 x 2 = 4096, D likewise; barriers 16 + 16; base 1024.
  EXPECT_EQ(layout.smemBytes, 16384 + 2560 + 512 + 4096 + 4096 + 32 + 1024);
}

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// The single error of `desc` after filling its defaults.
std::string singleError(GemmDesc desc) {
  fillDefaults(desc);
  std::vector<PlanError> errors = checkLegality(desc);
  if (errors.size() != 1)
    return "expected one error, got " + std::to_string(errors.size());
  return errors[0].message;
}

TEST(PlanningLegality, DefaultsAreLegal) {
  for (KernelSchedule schedule :
       {KernelSchedule::WarpSpecialized, KernelSchedule::Cooperative}) {
    GemmDesc desc = withC(makeDesc());
    desc.config.schedule = schedule;
    fillDefaults(desc);
    EXPECT_TRUE(checkLegality(desc).empty()) << toString(schedule);
  }
}

TEST(PlanningLegality, ElementTypes) {
  GemmDesc half8 = makeDesc();
  half8.b = DType::F8E4M3;
  EXPECT_EQ(singleError(half8),
            "A and B must be both 16-bit (f16, bf16) or both 8-bit "
            "(f8E4M3FN, f8E5M2) because the mainloop issues wgmma with f32 "
            "accumulation on those, got f16 A and f8e4m3 B");
  GemmDesc aux = makeDesc();
  aux.operands = {{EpilogueOperand::Kind::AuxLoad, "x", DType::Other, ""}};
  EXPECT_EQ(singleError(aux), "epilogue operand 'x' must have 8-, 16- or "
                              "32-bit elements, got 0-bit");
  GemmDesc mixed = makeDesc();
  mixed.b = DType::BF16;
  EXPECT_EQ(singleError(mixed),
            "A and B must have the same element type because wgmma "
            "multiplies f16 x f16 or bf16 x bf16, got f16 A and bf16 B");
}

TEST(PlanningLegality, WarpStoresForAnEightBitD) {
  // Each warp stores its own rows where that measured faster: an 8-bit D.
  GemmDesc f16 = makeDesc();
  fillDefaults(f16);
  EXPECT_FALSE(*f16.config.warpStores);
  GemmDesc f8 = makeDesc();
  f8.a = f8.b = f8.d = DType::F8E4M3;
  fillDefaults(f8);
  EXPECT_TRUE(*f8.config.warpStores);
  // Not over C's buffers (a user's reuse_smem_c with 8-bit C and D), nor
  // with direct stores.
  GemmDesc reuse = withC(makeDesc(), DType::F8E5M2);
  reuse.a = reuse.b = reuse.d = DType::F8E4M3;
  reuse.config.reuseSmemC = true;
  fillDefaults(reuse);
  EXPECT_FALSE(*reuse.config.warpStores);
  GemmDesc direct = f8;
  direct.config = {};
  direct.config.store = OutputStore::Direct;
  fillDefaults(direct);
  EXPECT_FALSE(*direct.config.warpStores);
  // A user's choice stands, and legality refuses the pairs not lowered.
  GemmDesc both = withC(makeDesc());
  both.config.reuseSmemC = true;
  both.config.warpStores = true;
  fillDefaults(both);
  EXPECT_TRUE(*both.config.warpStores);
  EXPECT_EQ(singleError(both),
            "reuse_smem_c = true and warp_stores = true are not lowered "
            "together: a C stage goes back to the loader once the "
            "warpgroup's store of the D staged in it has read it");
}

TEST(PlanningLegality, Fp8) {
  // Every pair of 8-bit types, with 8-bit C, D and aux: tile K defaults
  // to 128 (128 bytes), and the stage bytes equal the 16-bit tile's.
  for (DType a : {DType::F8E4M3, DType::F8E5M2})
    for (DType b : {DType::F8E4M3, DType::F8E5M2}) {
      GemmDesc desc = withC(makeDesc(), DType::F8E5M2);
      desc.a = a;
      desc.b = b;
      desc.d = DType::F8E4M3;
      desc.operands = {
          {EpilogueOperand::Kind::AuxStore, "x", DType::F8E5M2, ""},
          {EpilogueOperand::Kind::VecM, "s", DType::F8E4M3, ""}};
      fillDefaults(desc);
      EXPECT_EQ((*desc.config.tile)[2], 128);
      EXPECT_EQ(getStageBytes(desc), 2 * 128 * 128);
      EXPECT_TRUE(checkLegality(desc).empty())
          << toString(a) << " x " << toString(b);
    }
  GemmDesc nMajor = makeDesc();
  nMajor.a = nMajor.b = DType::F8E5M2;
  nMajor.bMajor = OperandMajor::N;
  EXPECT_EQ(singleError(nMajor),
            "B of type f8e5m2 must be k_major: wgmma reads 8-bit operands "
            "only K-major (it transposes f16/bf16 only); store B as N x K "
            "with K contiguous (the TN layout cuBLASLt's fp8 GEMM also "
            "needs)");
  GemmDesc tileK = makeDesc();
  tileK.a = tileK.b = DType::F8E4M3;
  tileK.config.tile = {128, 128, 64};
  EXPECT_EQ(singleError(tileK),
            "tile K = 64 spans 64 bytes of 8-bit A; it must span exactly 128 "
            "bytes (one row of the 128B swizzle, the only one "
            "warpgroup.generate.descriptor supports), so tile K must be 128");
}

TEST(PlanningLegality, NotLoweredYet) {
  GemmDesc regs = makeDesc();
  regs.config.schedule = KernelSchedule::WarpSpecialized;
  regs.config.producerRegs = 40;
  EXPECT_EQ(singleError(regs),
            "producer_regs and consumer_regs must be set together: "
            "setmaxnreg moves registers from the producer warpgroup to the "
            "consumer warpgroups");
}

TEST(PlanningDefaults, TileM64PicksPingpong) {
  // CUTLASS's auto schedule: pingpong for 64-row tiles, persistent, with
  // the registers rebalanced; its layout adds the 4 order barriers.
  GemmDesc desc = makeDesc();
  desc.config.tile = {64, 128, 64};
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.schedule, KernelSchedule::Pingpong);
  EXPECT_TRUE(*desc.config.persistent);
  EXPECT_EQ(*desc.config.producerRegs, 40);
  EXPECT_EQ(*desc.config.consumerRegs, 232);
  EXPECT_TRUE(checkLegality(desc).empty());
  KernelLayout layout = computeKernelLayout(desc);
  EXPECT_EQ(layout.consumerWarpgroups, 1); // one warpgroup owns a tile
  EXPECT_EQ(layout.mmaWarpgroups, 2);
  EXPECT_EQ(layout.wgRows, 64);
  EXPECT_EQ(layout.budget.get(SmemKind::OrderBarriers), 32);
  EXPECT_GE(layout.offOrderBarriers, layout.offMainBarriers);
}

TEST(PlanningLegality, Layouts) {
  GemmDesc a = makeDesc();
  a.aMajor = OperandMajor::N;
  EXPECT_EQ(singleError(a),
            "A must be k_major or m_major because it is M x K, got n_major");
  GemmDesc b = makeDesc();
  b.bMajor = OperandMajor::M;
  EXPECT_EQ(singleError(b),
            "B must be k_major or n_major because it is K x N, got m_major");
}

TEST(PlanningLegality, CountsAtLeastOne) {
  GemmDesc desc = makeDesc();
  desc.config.stagesC = 0;
  EXPECT_EQ(singleError(desc), "stages_c = 0 must be at least 1");
}

TEST(PlanningLegality, SmemOverBudget) {
  // 128x256x64 cooperative f16 with 5 stages: 5 x 49152 + 16384 + 80 +
  // 1024 = 263248 = 232448 + 30800; 4 stages need 214080.
  GemmDesc desc = makeDesc();
  desc.config.tile = {128, 256, 64};
  desc.config.stages = 5;
  fillDefaults(desc);
  std::vector<PlanError> errors = checkLegality(desc);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "needs 263248 bytes of shared memory, 232448 available: over by "
            "30800; try stages = 4 or a smaller tile");
  ASSERT_EQ(errors[0].notes.size(), 5u);
  EXPECT_EQ(errors[0].notes[0], "A stages: 81920 bytes (5 x 128x64 x 2 B)");
  EXPECT_EQ(errors[0].notes[3],
            "mainloop barriers: 80 bytes (5 stages x 2 x 8 B)");
  // The same kernel fits a larger (hypothetical) capacity.
  EXPECT_TRUE(checkLegality(desc, 263248).empty());
}

TEST(PlanningLegality, OneGroupAtATime) {
  // A bad tile M for cooperative would also break the epilogue tile and the
  // budget; only the tile error is reported.
  GemmDesc desc = makeDesc();
  desc.config.tile = {192, 256, 64};
  desc.config.schedule = KernelSchedule::Cooperative;
  desc.config.stages = 9;
  fillDefaults(desc);
  std::vector<PlanError> errors = checkLegality(desc);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("tile M must be 128 or 256, got 192"),
            std::string::npos);
}

} // namespace
