//===- TileOrderTest.cpp - Raster order and swizzle chosen at launch ------===//
//
// The runtime's side of the tile_order parameter without a GPU: the
// choice (chooseTileOrder) on shapes from real models, the manifest's
// grid.raster `runtime` and its parameter, the geometry's choice, the
// packed value, GemmArgs::tileOrder and its refusals, and a family mixing
// fixed and launch-time orders.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Family.h"
#include "ws-gemm-runtime/Launch.h"
#include "ws-gemm-runtime/TileOrder.h"

#include <cstring>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

/// gemm_bias_relu.json (tile 128 x 256, f16) as a persistent kernel that
/// takes its tile order at launch, as ws-gemm-compile writes one whose
/// config names neither raster nor swizzle: tile_order before the sizes.
json runtimeOrderManifest() {
  json j = loadJson("gemm_bias_relu.json");
  j["grid"] = {
      {"kind", "persistent"}, {"raster", "runtime"}, {"swizzle", "runtime"}};
  json params = json::array();
  for (const json &p : j["params"]) {
    if (p["kind"] == "size" && p["dim"] == "M")
      params.push_back({{"name", "tile_order"}, {"kind", "tile_order"}});
    params.push_back(p);
  }
  j["params"] = params;
  return j;
}

TileOrderProblem problem(int64_t M, int64_t N, int64_t K, int64_t tileM,
                         int64_t tileN, int64_t wave = 132) {
  TileOrderProblem p;
  p.tilesM = (M + tileM - 1) / tileM;
  p.tilesN = (N + tileN - 1) / tileN;
  p.tileM = tileM;
  p.tileN = tileN;
  p.K = K;
  p.wave = wave;
  return p;
}

TEST(TileOrder, Encoding) {
  EXPECT_EQ((TileOrder{false, 1}).encode(), 2);
  EXPECT_EQ((TileOrder{true, 1}).encode(), 3);
  EXPECT_EQ((TileOrder{true, 8}).encode(), 17);
  EXPECT_EQ(tileOrderName({true, 4}), "along_m, swizzle 4");
  EXPECT_TRUE(checkTileOrder({false, 8}).ok());
  EXPECT_EQ(checkTileOrder({false, 3}).message(),
            "tileOrder: swizzle 3 must be 1, 2, 4 or 8 (the tile "
            "scheduler's max_swizzle_size)");
}

TEST(TileOrder, Choice) {
  // Llama-3 8B MLP up-projection (issue 27): along N with swizzle 1 reads
  // all 56 B panels of a row of tiles per wave; a 17 x 8 block of tiles
  // along M reads 17 A and 8 B panels.
  EXPECT_EQ(chooseTileOrder(problem(8192, 14336, 4096, 128, 256)),
            (TileOrder{true, 8}));
  EXPECT_EQ(chooseTileOrder(problem(8192, 14336, 4096, 128, 128)),
            (TileOrder{true, 8}));
  // Tall: N has fewer tiles, CUTLASS's raster (along N) with a band of 8.
  EXPECT_EQ(chooseTileOrder(problem(16384, 4096, 4096, 128, 128)),
            (TileOrder{false, 8}));
  // A and B fit in half of L2: every panel is read once in any order.
  EXPECT_EQ(chooseTileOrder(problem(2048, 2048, 2048, 128, 128)),
            (TileOrder{false, 1}));
  // One wave (4 x 32 tiles on 132 CTAs): CUTLASS's raster, swizzle 1.
  EXPECT_EQ(chooseTileOrder(problem(512, 4096, 14336, 128, 128)),
            (TileOrder{true, 1}));
  // An LM head at M = 512: 4 rows of tiles; every order streams B once
  // (no swizzle gains 2%), so CUTLASS's raster stays.
  EXPECT_EQ(chooseTileOrder(problem(512, 128256, 4096, 128, 128)),
            (TileOrder{true, 1}));
}

TEST(TileOrder, CostIsTheWaveFootprint) {
  // 64 x 56 tiles of 128 x 256, 132 at once, K = 1: along N with swizzle
  // 1 covers 56 columns x 3 rows (56 B panels of 512 bytes, 3 A panels
  // of 256); along M with swizzle 8, 17 rows x 8 columns.
  TileOrderProblem p = problem(8192, 14336, 1, 128, 256);
  EXPECT_DOUBLE_EQ(tileOrderCost(p, {false, 1}),
                   (56 * 512.0 + 3 * 256.0) / (56 * 3));
  EXPECT_DOUBLE_EQ(tileOrderCost(p, {true, 8}),
                   (17 * 256.0 + 8 * 512.0) / (17 * 8));
}

TEST(TileOrder, ManifestRules) {
  Manifest m = parseOrDie(runtimeOrderManifest());
  EXPECT_TRUE(m.runtimeTileOrder());
  EXPECT_EQ(m.grid.swizzle, 0);
  ASSERT_NE(m.findParam("tile_order"), nullptr);
  EXPECT_EQ(m.findParam("tile_order")->kind, ParamKind::TileOrder);

  json noParam = runtimeOrderManifest();
  json kept = json::array();
  for (const json &p : noParam["params"])
    if (p["kind"] != "tile_order")
      kept.push_back(p);
  noParam["params"] = kept;
  EXPECT_EQ(manifestError(noParam),
            "manifest t.json: params: grid.raster runtime takes one "
            "tile_order parameter, got 0");
  json fixed = runtimeOrderManifest();
  fixed["grid"]["raster"] = "along_m";
  fixed["grid"]["swizzle"] = 1;
  EXPECT_EQ(manifestError(fixed),
            "manifest t.json: params: grid.raster along_m takes no "
            "tile_order parameter, got 1");
  json swizzle = runtimeOrderManifest();
  swizzle["grid"]["swizzle"] = 4;
  EXPECT_EQ(manifestError(swizzle),
            "manifest t.json: grid.swizzle: must be \"runtime\" with raster "
            "'runtime' (the tile_order parameter carries both)");
  json tiles = loadJson("gemm_bias_relu.json");
  tiles["grid"]["raster"] = "heuristic";
  EXPECT_EQ(manifestError(tiles),
            "manifest t.json: grid.raster: must be along_m or along_n for "
            "grid kind 'tiles' (the grid's shape follows it), got heuristic");
  json heuristic = loadJson("gemm_bias_relu.json");
  heuristic["grid"] = {
      {"kind", "persistent"}, {"raster", "heuristic"}, {"swizzle", 1}};
  EXPECT_EQ(parseOrDie(heuristic).grid.raster, Raster::Heuristic);
}

TEST(TileOrder, GeometryAndPacking) {
  Manifest m = parseOrDie(runtimeOrderManifest());
  GemmArgs args = validBiasRelu(8192, 14336, 4096);
  auto g = computeLaunchGeometry(m, args, 132);
  ASSERT_TRUE(g.ok()) << g.message();
  ASSERT_TRUE(g->tileOrder.has_value());
  EXPECT_EQ(*g->tileOrder, (TileOrder{true, 8}));

  // The choice is packed as swizzle * 2 + along M, before the sizes.
  std::vector<CUtensorMap> maps(4);
  size_t index = 0;
  while (m.params[index].kind != ParamKind::TileOrder)
    ++index;
  auto packedOrder = [&](const Expected<KernelParams> &p) {
    int32_t v = -1;
    if (p.ok())
      std::memcpy(&v, p->slot(index), sizeof v);
    return v;
  };
  EXPECT_EQ(packedOrder(packParams(m, args, maps, *g)), 17);
  // An override wins over the geometry's choice, in both geometries.
  GemmArgs forced = args;
  forced.tileOrder = TileOrder{false, 2};
  EXPECT_EQ(packedOrder(packParams(m, forced, maps, *g)), 4);
  auto fg = computeLaunchGeometry(m, forced, 132);
  ASSERT_TRUE(fg.ok());
  EXPECT_EQ(*fg->tileOrder, (TileOrder{false, 2}));
  // Without a geometry: CUTLASS's raster (64 M tiles, 56 N: along N).
  EXPECT_EQ(packedOrder(packParams(m, args, maps)), 2);

  // A fixed-order kernel has no choice to make.
  Manifest fixed = loadOrDie("gemm_bias_relu.json");
  auto fixedGeometry = computeLaunchGeometry(fixed, args, 132);
  ASSERT_TRUE(fixedGeometry.ok());
  EXPECT_FALSE(fixedGeometry->tileOrder.has_value());
}

TEST(TileOrder, Refusals) {
  Manifest m = parseOrDie(runtimeOrderManifest());
  GemmArgs args = validBiasRelu();
  args.tileOrder = TileOrder{true, 4};
  EXPECT_EQ(argsError(m, args), "");
  args.tileOrder = TileOrder{true, 16};
  EXPECT_EQ(argsError(m, args),
            "tileOrder: swizzle 16 must be 1, 2, 4 or 8 (the tile "
            "scheduler's max_swizzle_size)");
  Manifest fixed = loadOrDie("gemm_bias_relu.json");
  args.tileOrder = TileOrder{true, 4};
  EXPECT_EQ(argsError(fixed, args),
            "tileOrder: the kernel takes no tile_order parameter (its "
            "config fixes raster along_n and swizzle 1; only a persistent "
            "kernel whose config sets neither takes them at launch)");
  // A family's variant with a fixed order drops an order meant for
  // whichever variant is chosen.
  EXPECT_FALSE(argsForVariant(fixed, args).tileOrder.has_value());
  EXPECT_TRUE(argsForVariant(m, args).tileOrder.has_value());
}

/// tile_order belongs to the tile scheduler, not the GEMM: a family may mix
/// variants with a fixed order and with one taken at launch.
TEST(TileOrder, FamilyMixesFixedAndLaunchOrders) {
  json fam = {{"format", "ws-gemm-family"},
              {"version", 1},
              {"name", "gemm_bias_relu"},
              {"variants", json::array()}};
  fam["variants"].push_back(
      {{"id", "fixed"}, {"manifest", dataPath("gemm_bias_relu.json")}});
  fam["variants"].push_back(
      {{"id", "launch"},
       {"manifest",
        writeTemp("launch_order.json", runtimeOrderManifest().dump())}});
  auto f = parseFamily(fam.dump(), ::testing::TempDir() + "/family.json");
  ASSERT_TRUE(f.ok()) << f.message();
  ASSERT_EQ(f->variants.size(), 2u);
  EXPECT_FALSE(f->variants[0].manifest.runtimeTileOrder());
  EXPECT_TRUE(f->variants[1].manifest.runtimeTileOrder());
}

} // namespace
