//===- PlanningTest.cpp - Tests of the GEMM planning library --------------===//
//
// CUTLASS defaults, the itemised SMEM budget and the legality rules of
// Planning.h, on descriptions built directly (no IR). Every expected number
// is derived in a comment; Planning.h documents the rules and the layout.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include "gtest/gtest.h"

using namespace mlir::wsgemm::planning;

namespace {

/// An f16 GEMM whose epilogue only stores D.
GemmDesc makeDesc() {
  GemmDesc desc;
  desc.aBits = desc.bBits = desc.dBits = 16;
  return desc;
}

/// Adds an epilogue reading a 16-bit C.
GemmDesc withC(GemmDesc desc, unsigned bits = 16) {
  desc.cBits = bits;
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
  EXPECT_EQ(*c.raster, Raster::Heuristic);
  EXPECT_EQ(*c.swizzle, 1);
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

TEST(PlanningDefaults, PingpongForTileM64) {
  GemmDesc desc = makeDesc();
  desc.config.tile = {64, 128, 64};
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.schedule, KernelSchedule::Pingpong);
  EXPECT_TRUE(*desc.config.persistent);
  // Warp-specialized epilogue: (min(64, 64), gcd(min(32, 128), 128)).
  EXPECT_EQ(*desc.config.epiTile, (std::array<int64_t, 2>{64, 32}));
  // 64 * 32 / 128 threads.
  EXPECT_EQ(*desc.config.fragmentSize, 16);
  EXPECT_EQ(*desc.config.producerRegs, 40);
  EXPECT_EQ(*desc.config.consumerRegs, 232);
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
  GemmDesc desc = withC(makeDesc(), 32); // f32 C, f16 D
  fillDefaults(desc);
  EXPECT_FALSE(*desc.config.reuseSmemC);
  EXPECT_FALSE(*desc.config.delayTmaStore);
  EXPECT_EQ(*desc.config.stagesC, 4);
}

TEST(PlanningDefaults, DeclaredButUnreadCIsNotLoaded) {
  GemmDesc desc = makeDesc();
  desc.cBits = 16; // c(f16) declared, never read by the epilogue
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
  // CUTLASS: along_m when tiles_n > tiles_m, else along_n.
  GemmDesc tall = makeDesc();
  tall.shape = {4096, 1024, 512, 1}; // 32 x 8 tiles of 128x128
  fillDefaults(tall);
  EXPECT_EQ(*tall.config.raster, Raster::AlongN);
  GemmDesc wide = makeDesc();
  wide.shape = {512, 8192, 512, 1}; // 4 x 64 tiles
  fillDefaults(wide);
  EXPECT_EQ(*wide.config.raster, Raster::AlongM);
  GemmDesc square = makeDesc();
  square.shape = {1000, 1000, 64, 1}; // 8 x 8 tiles: not more along N
  fillDefaults(square);
  EXPECT_EQ(*square.config.raster, Raster::AlongN);
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
  EXPECT_EQ(budget.get(SmemKind::AlignmentPadding), 0);
  EXPECT_EQ(budget.total, 213088);
  ASSERT_EQ(budget.items.size(), 11u);
  EXPECT_STREQ(budget.items[0].name, "A stages");
  EXPECT_EQ(budget.items[0].formula, "6 x 128x64 x 2 B");
  EXPECT_EQ(budget.items[3].formula, "2 x 128x32 x 2 B");
}

TEST(PlanningSmem, CooperativeBf16WithC) {
  // 128x256x64 bf16 with bf16 C: D reuses C's 4 x 128x32 x 2 B = 32768.
  GemmDesc desc = withC(makeDesc());
  desc.config.tile = {128, 256, 64};
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.stages, 4); // (232448 - 32832) / 49184
  SmemBudget budget = computeSmemBudget(desc);
  EXPECT_EQ(budget.get(SmemKind::AStages), 65536);  // 4 x 128x64 x 2 B
  EXPECT_EQ(budget.get(SmemKind::BStages), 131072); // 4 x 256x64 x 2 B
  EXPECT_EQ(budget.get(SmemKind::CBuffers), 32768);
  EXPECT_EQ(budget.get(SmemKind::DBuffers), 0);
  EXPECT_EQ(budget.get(SmemKind::MainloopBarriers), 64);
  EXPECT_EQ(budget.get(SmemKind::EpilogueBarriers), 64);
  EXPECT_EQ(budget.total, 229504);
}

TEST(PlanningSmem, AuxVectorsAndReductions) {
  GemmDesc desc = withC(makeDesc());
  desc.auxLoads = {{"res", 16}};
  desc.auxStores = {{"pre", 16}};
  desc.vecM = {{"bias", 16}};
  desc.vecN = {{"colbias", 16}};
  desc.numReduceVecM = 1;
  desc.numReduceVecN = 1;
  desc.numReduceScalar = 1;
  fillDefaults(desc);
  EXPECT_EQ(*desc.config.stages, 4); // (232448 - 83296) / 32800
  SmemBudget budget = computeSmemBudget(desc);
  EXPECT_EQ(budget.get(SmemKind::CBuffers), 32768);        // 4 x 128x32 x 2 B
  EXPECT_EQ(budget.get(SmemKind::AuxLoadBuffers), 32768);  // 4 x 128x32 x 2 B
  EXPECT_EQ(budget.get(SmemKind::AuxStoreBuffers), 16384); // 2 x 128x32 x 2 B
  EXPECT_EQ(budget.get(SmemKind::VecNBuffers), 256);       // 128 x 2 B
  // reduce_to_vec_n: 8 warps x 32 x 4 B; reduce_to_scalar: 8 warps x 4 B.
  EXPECT_EQ(budget.get(SmemKind::ReductionScratch), 1024 + 32);
  EXPECT_EQ(budget.get(SmemKind::EpilogueBarriers), 64);
  EXPECT_EQ(budget.total, 214432);
  EXPECT_EQ(budget.items[4].formula, "res: 4 x 128x32 x 2 B");
  EXPECT_EQ(budget.items[7].formula,
            "1 reduce_to_vec_n x 8 warps x 32 x 4 B + 1 reduce_to_scalar x 8 "
            "warps x 4 B");
}

TEST(PlanningSmem, PingpongReductionScratchCountsBothWarpgroups) {
  GemmDesc desc = makeDesc();
  desc.config.schedule = KernelSchedule::Pingpong;
  desc.numReduceVecN = 1;
  fillDefaults(desc);
  // 2 warpgroups x 4 warps x 32 (epi N) x 4 B.
  EXPECT_EQ(computeSmemBudget(desc).get(SmemKind::ReductionScratch), 1024);
  GemmDesc ws = makeDesc();
  ws.config.schedule = KernelSchedule::WarpSpecialized;
  ws.numReduceVecN = 1;
  fillDefaults(ws);
  EXPECT_EQ(computeSmemBudget(ws).get(SmemKind::ReductionScratch), 512);
}

TEST(PlanningSmem, AlignmentPadding) {
  // Two vec_n buffers over a 24-wide tile: 24 x 1 B, then 24 x 2 B starting
  // at the next 16-byte boundary (24 -> 32): 8 bytes of padding. Then the
  // mainloop barriers at 8-byte alignment: 80 is aligned.
  GemmDesc desc = makeDesc();
  desc.storesD = false;
  desc.vecN = {{"a", 8}, {"b", 16}};
  desc.config.tile = {128, 24, 64};
  desc.config.epiTile = {128, 8};
  desc.config.stages = 2;
  desc.config.stagesC = 1;
  desc.config.stagesD = 1;
  SmemBudget budget = computeSmemBudget(desc);
  // A 2 x 128x64 x 2 = 32768, B 2 x 24x64 x 2 = 6144, both 1024-aligned.
  EXPECT_EQ(budget.get(SmemKind::AStages), 32768);
  EXPECT_EQ(budget.get(SmemKind::BStages), 6144);
  EXPECT_EQ(budget.get(SmemKind::VecNBuffers), 24 + 48);
  EXPECT_EQ(budget.get(SmemKind::AlignmentPadding), 8);
  // 38912 + 24 + 8 + 48 = 38992, + 32 barriers = 39024.
  EXPECT_EQ(budget.total, 39024);
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
       {KernelSchedule::WarpSpecialized, KernelSchedule::Cooperative,
        KernelSchedule::Pingpong}) {
    GemmDesc desc = withC(makeDesc());
    desc.config.schedule = schedule;
    fillDefaults(desc);
    EXPECT_TRUE(checkLegality(desc).empty()) << toString(schedule);
  }
}

TEST(PlanningLegality, ElementTypes) {
  GemmDesc fp8 = makeDesc();
  fp8.aBits = fp8.bBits = 8;
  EXPECT_EQ(singleError(fp8),
            "A and B must be 16-bit (f16 or bf16) because the mainloop "
            "issues f16/bf16 wgmma with f32 accumulation, got 8-bit A and "
            "8-bit B");
  GemmDesc d8 = makeDesc();
  d8.dBits = 8;
  EXPECT_EQ(singleError(d8),
            "D must be 16-bit (f16, bf16) or 32-bit (f32), got 8-bit");
  GemmDesc c64 = withC(makeDesc(), 64);
  EXPECT_EQ(singleError(c64),
            "C must be 16-bit (f16, bf16) or 32-bit (f32), got 64-bit");
  GemmDesc aux = makeDesc();
  aux.auxLoads = {{"x", 4}};
  EXPECT_EQ(singleError(aux), "epilogue operand 'x' must have 8-, 16- or "
                              "32-bit elements, got 4-bit");
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
  // 128x256x64 cooperative f16 with 5 stages: 5 x 49152 + 16384 + 80 =
  // 262224 = 232448 + 29776; 4 stages need 213056.
  GemmDesc desc = makeDesc();
  desc.config.tile = {128, 256, 64};
  desc.config.stages = 5;
  fillDefaults(desc);
  std::vector<PlanError> errors = checkLegality(desc);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "needs 262224 bytes of shared memory, 232448 available: over by "
            "29776; try stages = 4 or a smaller tile");
  ASSERT_EQ(errors[0].notes.size(), 4u);
  EXPECT_EQ(errors[0].notes[0], "A stages: 81920 bytes (5 x 128x64 x 2 B)");
  EXPECT_EQ(errors[0].notes[3],
            "mainloop barriers: 80 bytes (5 stages x 2 x 8 B)");
  // The same kernel fits a larger (hypothetical) capacity.
  EXPECT_TRUE(checkLegality(desc, 262224).empty());
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
