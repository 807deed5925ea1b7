//===- FamilyTest.cpp - Family manifests, tuning tables, selection --------===//
//
// The sample family (data/family: three variants of gemm_bias_relu.json
// with other tiles and grids, and a hand-written tuning table) parses;
// broken families and tables are refused with the key and the rule;
// selection takes the nearest tuned shape and otherwise the heuristic,
// whose costs below are worked by hand (docs/tuning.md).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Family.h"

#include <cmath>
#include <cstdio>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

const std::string kFamily = "family/family.json";

Family loadFamilyOrDie() {
  auto f = loadFamily(dataPath(kFamily));
  EXPECT_TRUE(f.ok()) << f.message();
  return f.ok() ? *f : Family();
}

TuningTable loadTableOrDie() {
  auto t = loadTuningTable(dataPath("family/tuning.json"));
  EXPECT_TRUE(t.ok()) << t.message();
  return t.ok() ? *t : TuningTable();
}

/// The error parseFamily gives for j, read as if it were data/family's
/// family.json (empty if it parses).
std::string familyError(const json &j) {
  auto f = parseFamily(j.dump(), dataPath(kFamily));
  return f.ok() ? std::string() : f.message();
}

std::string tableError(const json &j) {
  auto t = parseTuningTable(j.dump(), "t.json");
  return t.ok() ? std::string() : t.message();
}

Selection selectOrDie(const Family &f, const TuningTable *t, Shape s,
                      int sms = 132) {
  SelectOptions o;
  o.smCount = sms;
  auto sel = selectVariant(f, t, s, o);
  EXPECT_TRUE(sel.ok()) << sel.message();
  return sel.ok() ? *sel : Selection();
}

std::string chosen(const Family &f, const Selection &s) {
  return s.variant < 0 ? "(none)" : f.variants[s.variant].id;
}

TEST(Family, ParsesSample) {
  Family f = loadFamilyOrDie();
  EXPECT_EQ(f.name, "gemm_bias_relu");
  ASSERT_EQ(f.variants.size(), 3u);
  EXPECT_EQ(f.variants[1].id, "t128x256.cooperative");
  EXPECT_EQ(f.variants[1].manifestPath,
            dataPath("family/t128x256.cooperative/gemm_bias_relu.json"));
  EXPECT_EQ(f.variants[1].manifest.tile[1], 256);
  EXPECT_EQ(f.variants[2].manifest.grid.kind, GridKind::Tiles);
  EXPECT_EQ(f.find("t64x128.warp_specialized"), 2);
  EXPECT_EQ(f.find("nope"), -1);
  EXPECT_TRUE(isFamilyFile(dataPath(kFamily)));
  EXPECT_FALSE(isFamilyFile(dataPath("gemm_bias_relu.json")));
  EXPECT_FALSE(isFamilyFile(dataPath("does-not-exist.json")));
}

TEST(Family, RefusesBadFamilies) {
  json good = loadJson(kFamily);
  EXPECT_EQ(familyError(good), "");

  json j = good;
  j["format"] = "ws-gemm-manifest";
  EXPECT_NE(familyError(j).find(
                "format: expected \"ws-gemm-family\", got \"ws-gemm-manifest\""),
            std::string::npos);
  j = good;
  j["version"] = 2;
  EXPECT_NE(familyError(j).find("version: unsupported version 2"),
            std::string::npos);
  j = good;
  j.erase("name");
  EXPECT_NE(familyError(j).find("name: missing required field"),
            std::string::npos);
  j = good;
  j["variants"] = json::array();
  EXPECT_NE(familyError(j).find("variants: must list at least one variant"),
            std::string::npos);
  j = good;
  j["variants"][2]["id"] = j["variants"][0]["id"];
  EXPECT_NE(familyError(j).find(
                "variants[2].id: duplicate variant id 't128x128.cooperative'"),
            std::string::npos);
  j = good;
  j["variants"][0]["id"] = "a b";
  EXPECT_NE(familyError(j).find("variants[0].id: 'a b' must be"),
            std::string::npos);
  j = good;
  j["variants"][1].erase("manifest");
  EXPECT_NE(familyError(j).find("variants[1].manifest: missing required field"),
            std::string::npos);
  j = good;
  j["variants"][1]["manifest"] = "missing/k.json";
  EXPECT_NE(familyError(j).find("variants[1] (t128x256.cooperative): manifest " +
                                dataPath("family/missing/k.json") +
                                ": cannot open file"),
            std::string::npos)
      << familyError(j);
  EXPECT_NE(familyError(json::array()).find("must be a JSON object"),
            std::string::npos);
  EXPECT_NE(familyError(json("x")).find("must be a JSON object"),
            std::string::npos);
}

TEST(Family, RefusesVariantsWithOtherArguments) {
  json j = loadJson(kFamily);
  // A variant whose D is bf16: a caller's f16 buffer would be misread.
  json m = loadJson("family/t128x128.cooperative/gemm_bias_relu.json");
  m["operands"]["D"]["dtype"] = "bf16";
  m["params"][3]["dtype"] = "bf16";
  m["evt"]["nodes"][10]["dtype"] = "bf16";
  ASSERT_EQ(manifestError(m), "");
  j["variants"][2]["manifest"] = writeTemp("bf16d.json", m.dump());
  std::string e = familyError(j);
  EXPECT_NE(e.find("variants[2]: variant 't64x128.warp_specialized' takes "
                   "other arguments than 't128x128.cooperative'"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("'operand D f16 n_major' vs 'operand D bf16 n_major'"),
            std::string::npos)
      << e;

  // A variant whose bad manifest does not parse names itself and the rule.
  m["version"] = 7;
  j["variants"][2]["manifest"] = writeTemp("v7.json", m.dump());
  e = familyError(j);
  EXPECT_NE(e.find("variants[2] (t64x128.warp_specialized): manifest"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("version: unsupported version 7"), std::string::npos) << e;
}

TEST(TuningTable, ParsesAndRoundTrips) {
  TuningTable t = loadTableOrDie();
  EXPECT_EQ(t.family, "gemm_bias_relu");
  EXPECT_EQ(t.smCount, 132);
  ASSERT_EQ(t.entries.size(), 3u);
  EXPECT_EQ(t.entries[2].shape.L, 3);
  EXPECT_EQ(t.entries[0].variant, "t128x256.cooperative");
  EXPECT_TRUE(checkTuningTable(loadFamilyOrDie(), t).ok());

  auto again = parseTuningTable(writeTuningTable(t), "again.json");
  ASSERT_TRUE(again.ok()) << again.message();
  ASSERT_EQ(again->entries.size(), 3u);
  // Written sorted by (L, M, N, K).
  EXPECT_EQ(shapeString(again->entries[0].shape), "512x512x4096");
  EXPECT_EQ(shapeString(again->entries[2].shape), "1024x1024x1024x3");
  EXPECT_NEAR(again->entries[1].tflops, 687.2, 1e-9);
  // A finalist's ratio (ws-gemm-tune's final) round-trips; 0 is not written.
  t.entries[0].candidates = {{"t128x256.cooperative", 0.2, 687.2, 1.0},
                             {"t128x128.cooperative", 0.21, 654.5, 1.013},
                             {"t64x128.warp_specialized", 0.4, 343.6, 0}};
  std::string text = writeTuningTable(t);
  EXPECT_EQ(text.find("\"final_ratio\": 0"), std::string::npos) << text;
  auto withFinal = parseTuningTable(text, "final.json");
  ASSERT_TRUE(withFinal.ok()) << withFinal.message();
  const TuningEntry *e = withFinal->find(t.entries[0].shape);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->candidates.size(), 3u);
  EXPECT_NEAR(e->candidates[1].finalRatio, 1.013, 1e-12);
  EXPECT_EQ(e->candidates[2].finalRatio, 0);
  ASSERT_NE(again->find(Shape{4096, 4096, 4096, 1}), nullptr);
  EXPECT_EQ(again->find(Shape{4096, 4096, 4096, 2}), nullptr);
}

TEST(TuningTable, RefusesBadTables) {
  json good = loadJson("family/tuning.json");
  json j = good;
  j["format"] = "ws-gemm-family";
  EXPECT_NE(tableError(j).find("format: expected \"ws-gemm-tuning\""),
            std::string::npos);
  j = good;
  j["entries"][1]["m"] = 0;
  EXPECT_NE(tableError(j).find("entries[1].m"), std::string::npos);
  j = good;
  j["entries"][1]["m"] = 4096;
  j["entries"][1]["n"] = 4096;
  EXPECT_NE(tableError(j).find(
                "entries[1]: shape 4096x4096x4096 is listed twice"),
            std::string::npos)
      << tableError(j);
  j = good;
  j["entries"][0]["candidates"] = json::array(
      {{{"variant", "t128x256.cooperative"}, {"final_ratio", -1}}});
  EXPECT_NE(tableError(j).find("entries[0].candidates[0].final_ratio: must "
                               "be a finite number >= 0"),
            std::string::npos)
      << tableError(j);
  j = good;
  j["entries"][0]["ms"] = -1;
  EXPECT_NE(tableError(j).find("entries[0].ms: must be a finite number >= 0"),
            std::string::npos);

  Family f = loadFamilyOrDie();
  TuningTable t = loadTableOrDie();
  t.family = "other";
  EXPECT_NE(checkTuningTable(f, t).message().find(
                "family: tuned for 'other', the family is 'gemm_bias_relu'"),
            std::string::npos);
  t = loadTableOrDie();
  t.entries[1].variant = "t256x256.cooperative";
  EXPECT_NE(checkTuningTable(f, t).message().find(
                "entries[1].variant: the family has no variant "
                "'t256x256.cooperative'"),
            std::string::npos);
}

TEST(Select, Distance) {
  EXPECT_EQ(shapeDistance({4096, 4096, 4096, 1}, {4096, 4096, 4096, 1}), 0);
  EXPECT_NEAR(shapeDistance({2048, 4096, 8192, 1}, {4096, 4096, 4096, 1}),
              2 * std::log(2.0), 1e-12);
  // Symmetric.
  EXPECT_NEAR(shapeDistance({100, 7, 3, 1}, {9, 50, 33, 1}),
              shapeDistance({9, 50, 33, 1}, {100, 7, 3, 1}), 1e-12);
}

TEST(Select, NearestTunedShape) {
  Family f = loadFamilyOrDie();
  TuningTable t = loadTableOrDie();
  Selection s = selectOrDie(f, &t, {4096, 4096, 4096, 1});
  EXPECT_TRUE(s.tuned);
  EXPECT_EQ(chosen(f, s), "t128x256.cooperative");
  EXPECT_EQ(s.distance, 0);
  EXPECT_NE(s.reason.find("tuned: nearest table entry 4096x4096x4096 "
                          "(distance 0.00), measured 0.2000 ms 687.2 TFLOP/s"),
            std::string::npos)
      << s.reason;

  // 512x600x4096 is nearer 512x512x4096 (ln(600/512) = 0.16) than 4096^3
  // (ln 8 + ln(4096/600) = 4.0).
  s = selectOrDie(f, &t, {512, 600, 4096, 1});
  EXPECT_TRUE(s.tuned);
  EXPECT_EQ(chosen(f, s), "t64x128.warp_specialized");
  EXPECT_NEAR(s.distance, std::log(600.0 / 512.0), 1e-12);
  EXPECT_EQ(shapeString(s.tunedShape), "512x512x4096");

  // Batched entries only serve their own L.
  s = selectOrDie(f, &t, {1024, 1024, 1024, 3});
  EXPECT_TRUE(s.tuned);
  EXPECT_EQ(chosen(f, s), "t128x128.cooperative");
  s = selectOrDie(f, &t, {1024, 1024, 1024, 2});
  EXPECT_FALSE(s.tuned);
  EXPECT_NE(s.reason.find("untuned (no table entry with L = 2)"),
            std::string::npos)
      << s.reason;
}

TEST(Select, FarEntriesFallBackToTheHeuristic) {
  Family f = loadFamilyOrDie();
  TuningTable t = loadTableOrDie();
  // 1000^3 is ln(4.096) x 2 + ln(4.096) = 4.23 from 4096^3 and
  // 2 ln(1000/512) + ln(4.096) = 2.75 from 512x512x4096: both > ln 8.
  Selection s = selectOrDie(f, &t, {1000, 1000, 1000, 1});
  EXPECT_FALSE(s.tuned);
  EXPECT_NE(s.reason.find("untuned (nearest table entry 512x512x4096 is at "
                          "distance 2.75 > 2.08)"),
            std::string::npos)
      << s.reason;
  // With a looser bound the table decides.
  SelectOptions o;
  o.maxDistance = 3;
  auto loose = selectVariant(f, &t, {1000, 1000, 1000, 1}, o);
  ASSERT_TRUE(loose.ok());
  EXPECT_TRUE(loose->tuned);
  EXPECT_EQ(chosen(f, *loose), "t64x128.warp_specialized");
}

TEST(Select, HeuristicByWaves) {
  Family f = loadFamilyOrDie();
  // 4096^3 on 132 SMs:
  //   128x128 persistent: 1024 tiles, 8 waves, efficiency 64/85.3 = 0.75,
  //     cost 8 * 16384 / 0.75 = 174763;
  //   128x256 persistent: 512 tiles, 4 waves, efficiency 1, cost 131072;
  //   64x128 tiles grid, 100000 B SMEM, 256 threads: 2 CTAs per SM, 264
  //     slots, 2048 tiles, 8 waves, efficiency 42.7/85.3 = 0.5,
  //     cost 8 * 2 * 8192 / 0.5 = 262144.
  Shape big{4096, 4096, 4096, 1};
  HeuristicEstimate e0 = estimateVariant(f.variants[0].manifest, big, 132);
  EXPECT_EQ(e0.tiles, 1024);
  EXPECT_EQ(e0.waves, 8);
  EXPECT_NEAR(e0.efficiency, 0.75, 1e-12);
  EXPECT_NEAR(e0.cost, 8 * 16384 / 0.75, 1e-6);
  HeuristicEstimate e1 = estimateVariant(f.variants[1].manifest, big, 132);
  EXPECT_EQ(e1.waves, 4);
  EXPECT_NEAR(e1.cost, 131072, 1e-6);
  HeuristicEstimate e2 = estimateVariant(f.variants[2].manifest, big, 132);
  EXPECT_EQ(e2.slots, 264);
  EXPECT_EQ(e2.waves, 8);
  EXPECT_NEAR(e2.cost, 262144, 1e-6);
  Selection s = selectOrDie(f, nullptr, big);
  EXPECT_FALSE(s.tuned);
  EXPECT_EQ(chosen(f, s), "t128x256.cooperative");
  EXPECT_NE(s.reason.find("untuned (no tuning table): heuristic: tile "
                          "128x256, 512 tiles on 132 slots (132 SMs) = 4 "
                          "wave(s)"),
            std::string::npos)
      << s.reason;

  // 1000x1000: one wave for every variant (64, 32 and 128 tiles); the
  // smallest per-wave cost wins: 128x128 (21845) over 128x256 (32768) and
  // 64x128 (2 * 8192 / 0.5 = 32768).
  s = selectOrDie(f, nullptr, {1000, 1000, 1000, 1});
  EXPECT_EQ(chosen(f, s), "t128x128.cooperative");

  // On a 16-SM device 128x256 again: 32 tiles = 2 waves (65536) against
  // 64 tiles = 4 waves for 128x128 (87381).
  s = selectOrDie(f, nullptr, {1000, 1000, 1000, 1}, 16);
  EXPECT_EQ(chosen(f, s), "t128x256.cooperative");
}

TEST(Select, ClustersRoundSlotsToWholeClusters) {
  Manifest m = loadOrDie("family/t128x128.cooperative/gemm_bias_relu.json");
  m.cluster = {2, 1, 1};
  // 133 SMs hold 66 clusters of 2: 132 slots.
  HeuristicEstimate e = estimateVariant(m, {4096, 4096, 4096, 1}, 133);
  EXPECT_EQ(e.slots, 132);
  EXPECT_EQ(e.waves, 8);
}

TEST(Select, ActiveClustersBoundTheSlots) {
  // A cluster lives in one GPC: an H100 SXM runs 30 clusters of 4 CTAs
  // (measured: a persistent 2x2 kernel's grid is 120 CTAs), not 132 / 4.
  Manifest m = loadOrDie("family/t128x256.cooperative/gemm_bias_relu.json");
  m.cluster = {4, 1, 1};
  Shape big{4096, 4096, 4096, 1}; // 32 x 16 = 512 tiles of 128x256
  HeuristicEstimate dflt = estimateVariant(m, big, 132);
  EXPECT_EQ(dflt.slots, 132);
  EXPECT_EQ(dflt.waves, 4);
  HeuristicEstimate gpc = estimateVariant(m, big, 132, 30);
  EXPECT_EQ(gpc.slots, 120);
  EXPECT_EQ(gpc.waves, 5);
  // More active clusters than SMs allow changes nothing.
  EXPECT_EQ(estimateVariant(m, big, 132, 40).slots, 132);

  // In a family whose 4-CTA twin comes first, the untuned heuristic takes
  // the twin while it assumes 33 clusters (a tie keeps the earlier
  // variant) and the 1x1 kernel once it knows of 30.
  Family f = loadFamilyOrDie();
  int plain = f.find("t128x256.cooperative");
  ASSERT_GE(plain, 0);
  FamilyVariant twin = f.variants[plain];
  twin.id = "t128x256.cooperative.c4x1";
  twin.manifest.cluster = {4, 1, 1};
  f.variants.insert(f.variants.begin(), twin);
  SelectOptions opts;
  auto naive = selectVariant(f, nullptr, big, opts);
  ASSERT_TRUE(naive.ok()) << naive.message();
  EXPECT_EQ(f.variants[naive->variant].id, "t128x256.cooperative.c4x1");
  opts.activeClusters.assign(f.variants.size(), 0);
  opts.activeClusters[0] = 30;
  auto aware = selectVariant(f, nullptr, big, opts);
  ASSERT_TRUE(aware.ok()) << aware.message();
  EXPECT_EQ(f.variants[aware->variant].id, "t128x256.cooperative");
  // -1: the variant does not fit this device; the heuristic passes it over
  // even where it would be the cheapest.
  opts.activeClusters.assign(f.variants.size(), 0);
  opts.activeClusters[plain + 1] = -1; // the 1x1 kernel, after the twin
  auto skip = selectVariant(f, nullptr, big, opts);
  ASSERT_TRUE(skip.ok()) << skip.message();
  EXPECT_EQ(f.variants[skip->variant].id, "t128x256.cooperative.c4x1");
}

TEST(Select, TwoCtasPerSmPairUp) {
  // A persistent 128x128 kernel built for two CTAs per SM (ctas_per_sm =
  // 2) against its one-CTA twin, on 132 SMs (efficiency 0.75, a tile
  // 16384 / 0.75 = 21845): a wave of pairs costs kCoResidentPair (0.9) of
  // two tiles, and a last wave of at most one unit per SM one tile.
  Manifest one = loadOrDie("family/t128x128.cooperative/gemm_bias_relu.json");
  Manifest two = one;
  two.grid.ctasPerSm = 2;
  const double tile = 16384 / 0.75;
  // 64 tiles: one wave either way, alone on its SM: the same cost.
  Shape few{1024, 1024, 1024, 1};
  EXPECT_NEAR(estimateVariant(two, few, 132).cost,
              estimateVariant(one, few, 132).cost, 1e-6);
  EXPECT_NEAR(estimateVariant(two, few, 132).cost, tile, 1e-6);
  // 256 tiles: 2 waves of one (2 tiles) against one wave of pairs (1.8).
  Shape pair{2048, 2048, 1024, 1};
  EXPECT_EQ(estimateVariant(one, pair, 132).waves, 2);
  HeuristicEstimate e = estimateVariant(two, pair, 132);
  EXPECT_EQ(e.slots, 264);
  EXPECT_EQ(e.waves, 1);
  EXPECT_NEAR(e.cost, 2 * 0.9 * tile, 1e-6);
  // 384 tiles: a wave of pairs, then 120 alone.
  EXPECT_NEAR(estimateVariant(two, {2048, 3072, 1024, 1}, 132).cost,
              (2 * 0.9 + 1) * tile, 1e-6);
  // Where only one fits per SM (the kernel's resident CTAs: 132), it is
  // priced as the one-CTA kernel.
  HeuristicEstimate lone = estimateVariant(two, pair, 132, 132);
  EXPECT_EQ(lone.slots, 132);
  EXPECT_NEAR(lone.cost, estimateVariant(one, pair, 132).cost, 1e-6);
}

TEST(Select, PairedSplitKWavesArePaired) {
  // Split-K over two CTAs per SM: a wave beyond the first pairs up like
  // the first (Select.cpp), so 384 units on 264 CTAs cost two paired waves,
  // twice the 256-unit wave, not a paired wave and a lone one.
  Manifest two = loadOrDie("family/t128x128.cooperative/gemm_bias_relu.json");
  two.grid.ctasPerSm = 2;
  two.scheduler.kind = SchedulerKind::SplitK;
  two.scheduler.splitK = 2;
  const double tile = 16384 / 0.75;
  // 128 tiles (256 units) and 192 (384) of 128x128; K = 1024: 16 k-tiles
  // of 64, 8 a unit.
  HeuristicEstimate one = estimateVariant(two, {2048, 1024, 1024, 1}, 132);
  EXPECT_EQ(one.units, 256);
  EXPECT_EQ(one.waves, 1);
  EXPECT_NEAR(one.cost, 2 * 0.9 * tile * 0.5 * 1.1, 1e-6);
  HeuristicEstimate later = estimateVariant(two, {2048, 1536, 1024, 1}, 132);
  EXPECT_EQ(later.units, 384);
  EXPECT_EQ(later.waves, 2);
  EXPECT_NEAR(later.cost, 2 * one.cost, 1e-6);
}

TEST(Select, PairedStreamKFixupWithLongShares) {
  // Stream-K over two CTAs per SM, 224 tiles of 128x128 all in the region
  // of 264 CTAs (units per tile 1 + 264 / 224): where each CTA streams at
  // least 16 k-tiles of 128 (K = 4096: 224 x 64 x 64 / (128 x 264) = 27),
  // only the units beyond a tile's first pay the 0.15 fixup; at K = 1024
  // (7 a CTA) all of them do, as without pairs.
  Manifest two = loadOrDie("family/t128x128.cooperative/gemm_bias_relu.json");
  two.grid.ctasPerSm = 2;
  two.scheduler.kind = SchedulerKind::StreamK;
  const double pair = 2 * 0.9 * 16384 / 0.75;
  const double share = 224.0 / 264.0, perTile = 1 + 264.0 / 224.0;
  HeuristicEstimate longer = estimateVariant(two, {28672, 128, 4096, 1}, 132);
  ASSERT_EQ(longer.streamKTiles, 224);
  EXPECT_FALSE(longer.streamKOverL2);
  EXPECT_NEAR(longer.cost, share * (1 + 0.15 * (perTile - 1)) * pair, 1e-6);
  HeuristicEstimate shorter = estimateVariant(two, {28672, 128, 1024, 1}, 132);
  ASSERT_EQ(shorter.streamKTiles, 224);
  EXPECT_NEAR(shorter.cost, share * (1 + 0.15 * perTile) * pair, 1e-6);
}

TEST(Select, StaticShapesAreRespected) {
  Family f = loadFamilyOrDie();
  for (FamilyVariant &v : f.variants)
    v.manifest.staticShape = std::array<int64_t, 4>{64, 64, 64, 1};
  auto sel = selectVariant(f, nullptr, {128, 64, 64, 1}, SelectOptions());
  ASSERT_FALSE(sel.ok());
  EXPECT_NE(sel.message().find("no variant accepts problem 128x64x64"),
            std::string::npos)
      << sel.message();
  f.variants[2].manifest.staticShape.reset();
  auto ok = selectVariant(f, nullptr, {128, 64, 64, 1}, SelectOptions());
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->variant, 2);
}

TEST(Select, FamilyShapeSendsUnalignedOutputsToDirectStores) {
  // The sample family stores D by TMA; make its last variant a
  // store = direct one (D a plain matrix).
  Family f = loadFamilyOrDie();
  for (Param &p : f.variants[2].manifest.params)
    if (p.operand == "D")
      p.kind = ParamKind::Matrix;
  ASSERT_TRUE(f.variants[2].manifest.directStores());

  // Packed 16-bit D of N = 512: TMA can write it; every variant accepts.
  GemmArgs a = validBiasRelu(256, 512, 128);
  Shape s = familyShape(f, a);
  EXPECT_EQ(s.M, 256);
  EXPECT_EQ(s.N, 512);
  EXPECT_FALSE(s.directStores);
  EXPECT_EQ(s.alignA, 16);
  EXPECT_EQ(firstAcceptingVariant(f, s), 0);

  // D's row stride 515 elements (1030 bytes, A and B untouched): only the
  // direct variant accepts (what the C API's family launch validates by
  // and selects from).
  a.D.ld = 515;
  s = familyShape(f, a);
  EXPECT_TRUE(s.directStores);
  EXPECT_EQ(firstAcceptingVariant(f, s), 2);
  auto sel = selectVariant(f, nullptr, s, SelectOptions());
  ASSERT_TRUE(sel.ok()) << sel.message();
  EXPECT_EQ(sel->variant, 2);

  // Without a direct variant: none accepts, and the selection says why.
  f.variants.pop_back();
  EXPECT_EQ(firstAcceptingVariant(f, s), -1);
  sel = selectVariant(f, nullptr, s, SelectOptions());
  ASSERT_FALSE(sel.ok());
  EXPECT_NE(sel.message().find("store = direct"), std::string::npos)
      << sel.message();
}

} // namespace
