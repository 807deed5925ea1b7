//===- StreamKTest.cpp - Split-K / stream-K grid, workspace, manifest -----===//
//
// The runtime's side of docs/stream-k.md without a GPU: the manifest's
// tile_scheduler and workspace, the grid of split units, the stream-K
// heuristic, the workspace size and its refusal, the two parameters, and
// a kernel family mixing data-parallel, split-K and stream-K variants.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/KernelFamily.h"
#include "ws-gemm-runtime/Launch.h"

#include <cstring>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

/// gemm_bias_relu.json (tile 128 x 256, cooperative: 2 flags per tile) as
/// a persistent split-K (4 ways) or stream-K kernel: one partial per tile,
/// as ws-gemm-compile writes them.
json splitManifest(const std::string &kind) {
  json j = loadJson("gemm_bias_relu.json");
  j["grid"]["kind"] = "persistent";
  j["tile_scheduler"] = {{"kind", kind}};
  if (kind == "split_k")
    j["tile_scheduler"]["split_k"] = 4;
  j["workspace"] = {{"tile_bytes", 128 * 256 * 4},
                    {"flag_bytes", 8},
                    {"tiles", kind == "stream_k" ? "stream_k" : "all"}};
  j["params"].push_back({{"name", "workspace"}, {"kind", "workspace"}});
  if (kind == "stream_k")
    j["params"].push_back(
        {{"name", "stream_k_tiles"}, {"kind", "stream_k_tiles"}});
  return j;
}

TEST(StreamK, Heuristic) {
  // Whole waves or one k-tile: data-parallel.
  EXPECT_EQ(chooseStreamKTiles(264, 64, 132), 0);
  EXPECT_EQ(chooseStreamKTiles(200, 1, 132), 0);
  // A wave 97% full (2048^2 in 128 x 256 tiles): under 10% to gain.
  EXPECT_EQ(chooseStreamKTiles(128, 512, 132), 0);
  // 2 waves but for 4 tiles: also not worth it.
  EXPECT_EQ(chooseStreamKTiles(260, 64, 132), 0);
  // Fewer tiles than CTAs: all of them.
  EXPECT_EQ(chooseStreamKTiles(32, 256, 132), 32);
  // The partial wave plus one full wave: 4224^2 in 128 x 256 tiles is
  // 33 x 17 = 561 = 4 x 132 + 33 tiles.
  EXPECT_EQ(chooseStreamKTiles(561, 64, 132), 33 + 132);
}

TEST(StreamK, SplitKGridAndWorkspace) {
  Manifest m = parseOrDie(splitManifest("split_k"));
  EXPECT_EQ(m.scheduler.kind, SchedulerKind::SplitK);
  EXPECT_EQ(m.scheduler.splitK, 4);
  // 1024 x 1024: 8 x 4 = 32 tiles, 128 units on 132 SMs.
  auto g = computeLaunchGeometry(m, 1024, 1024, 1, 132, 0, 16384);
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(g->units, 128);
  EXPECT_EQ(g->grid, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(g->splitTiles, 32);
  EXPECT_EQ(g->workspaceBytes, 32u * (131072 + 8));
  // More units than SMs: one full grid.
  g = computeLaunchGeometry(m, 4096, 4096, 1, 132, 0, 4096);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->grid[0], 132u);

  GemmArgs args;
  EXPECT_TRUE(checkWorkspace(m, *g, args).ok()); // the plan allocates one
  args.workspace = 0x10000;
  args.workspaceBytes = 4096;
  Status s = checkWorkspace(m, *g, args);
  EXPECT_EQ(s.message(), "workspace: 4096 bytes given, the kernel needs " +
                             std::to_string(g->workspaceBytes) + " (" +
                             std::to_string(g->splitTiles) +
                             " split tiles x (131072 + 8) bytes)");
  args.workspaceBytes = g->workspaceBytes;
  EXPECT_TRUE(checkWorkspace(m, *g, args).ok());
  args.workspace = 0x10008;
  EXPECT_EQ(checkWorkspace(m, *g, args).message(),
            "workspace: address is not 16-byte aligned");
}

// Split-K in 1x2 clusters: units are (cluster group, split), and every tile
// of a group, past the problem's edge too, has a workspace slot.
TEST(StreamK, SplitKInClusters) {
  json j = splitManifest("split_k");
  j["cluster"] = {2, 1, 1};
  j["tile_scheduler"]["cluster_tiles"] = {1, 2};
  Manifest m = parseOrDie(j);
  EXPECT_EQ(m.scheduler.clusterTilesM, 1);
  EXPECT_EQ(m.scheduler.clusterTilesN, 2);
  // 1000 x 1100: 8 x 5 tiles of 128 x 256; groups 8 x 3 = 24, 96 units.
  auto g = computeLaunchGeometry(m, 1000, 1100, 1, 132, 0, 16384);
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(g->units, 96);
  EXPECT_EQ(g->splitTiles, 48);
  EXPECT_EQ(g->workspaceBytes, 48u * (131072 + 8));
  // One unit per cluster: 66 clusters fit 132 SMs; 96 units need them all.
  EXPECT_EQ(g->grid, (std::array<uint32_t, 3>{132, 1, 1}));

  // The tiles of a group must be the cluster's CTAs.
  j["tile_scheduler"]["cluster_tiles"] = {2, 2};
  EXPECT_EQ(manifestError(j),
            "manifest t.json: tile_scheduler.cluster_tiles: [2, 2] holds 4 "
            "tile(s), but a cluster has 2 CTA(s)");
  j["tile_scheduler"].erase("cluster_tiles");
  EXPECT_EQ(manifestError(j),
            "manifest t.json: tile_scheduler.cluster_tiles: [1, 1] holds 1 "
            "tile(s), but a cluster has 2 CTA(s) (the key is missing)");
  j = splitManifest("stream_k");
  j["cluster"] = {2, 1, 1};
  EXPECT_EQ(manifestError(j),
            "manifest t.json: cluster: must be [1, 1, 1] for tile scheduler "
            "stream_k (its CTAs take different K ranges)");
}

TEST(StreamK, StreamKGridAndParams) {
  Manifest m = parseOrDie(splitManifest("stream_k"));
  // 4224 x 4224 x 4096: 165 stream-K tiles, the whole grid.
  auto g = computeLaunchGeometry(m, 4224, 4224, 1, 132, 0, 4096);
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(g->tiles, 561);
  EXPECT_EQ(g->streamKTiles, 165);
  EXPECT_EQ(g->grid[0], 132u);
  EXPECT_EQ(g->workspaceBytes, 165u * (131072 + 8));
  // Forced to data-parallel: no workspace, a grid of min(tiles, SMs).
  g = computeLaunchGeometry(m, 256, 512, 1, 132, 0, 4096, 0);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->streamKTiles, 0);
  EXPECT_EQ(g->grid[0], 4u);
  EXPECT_EQ(g->workspaceBytes, 0u);
  // Forced on a small problem: all 4 tiles over the 132 CTAs.
  g = computeLaunchGeometry(m, 256, 512, 1, 132, 0, 4096, 7);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->streamKTiles, 4);
  EXPECT_EQ(g->grid[0], 132u);

  // The two parameters are packed after the manifest's others.
  GemmArgs args;
  args.M = args.N = args.K = 256;
  args.named["bias"].ptr = 0x1000;
  args.scalars["alpha"] = 1;
  args.scalars["beta"] = 1;
  std::vector<CUtensorMap> maps(4);
  auto packed = packParams(m, args, maps, 0x2000, 165);
  ASSERT_TRUE(packed.ok()) << packed.message();
  size_t n = packed->size();
  CUdeviceptr ws = 0;
  int32_t tiles = 0;
  std::memcpy(&ws, packed->slot(n - 2), sizeof ws);
  std::memcpy(&tiles, packed->slot(n - 1), sizeof tiles);
  EXPECT_EQ(ws, 0x2000u);
  EXPECT_EQ(tiles, 165);
  EXPECT_EQ(packParams(m, args, maps, 0, 0).message(),
            "workspace: null pointer");
}

TEST(StreamK, ManifestRules) {
  json j = splitManifest("split_k");
  j.erase("workspace");
  EXPECT_EQ(manifestError(j),
            "manifest t.json: workspace: missing: tile scheduler split_k "
            "sums split tiles through a workspace");
  j = splitManifest("stream_k");
  j["workspace"]["tiles"] = "all";
  EXPECT_EQ(manifestError(j),
            "manifest t.json: workspace.tiles: must be \"stream_k\" for tile "
            "scheduler stream_k, got \"all\"");
  j = splitManifest("split_k");
  j["grid"]["kind"] = "tiles";
  EXPECT_EQ(manifestError(j),
            "manifest t.json: grid.kind: must be persistent for tile "
            "scheduler split_k (a split tile's units wait for each other)");
  j = splitManifest("stream_k");
  j["params"].erase(j["params"].size() - 1);
  EXPECT_EQ(manifestError(j),
            "manifest t.json: params: tile scheduler stream_k takes one "
            "stream_k_tiles parameter, got 0");
  j = splitManifest("split_k");
  j["tile_scheduler"]["split_k"] = 1;
  EXPECT_EQ(manifestError(j),
            "manifest t.json: tile_scheduler.split_k: must be in [2, 64] for "
            "kind split_k, got 1");
}

/// A family of gemm_bias_relu.json as data-parallel, split-K and stream-K
/// variants: the workspace and stream_k_tiles parameters belong to the
/// tile scheduler, not the GEMM, so the variants take the same arguments.
TEST(StreamK, FamilyMixesTileSchedulers) {
  json fam = {{"format", "ws-gemm-family"},
              {"version", 1},
              {"name", "gemm_bias_relu"},
              {"variants", json::array()}};
  const char *kinds[] = {"data_parallel", "split_k", "stream_k"};
  for (const char *kind : kinds) {
    std::string path = dataPath("gemm_bias_relu.json");
    if (std::string(kind) != "data_parallel")
      path = writeTemp(std::string("mixed_") + kind + ".json",
                       splitManifest(kind).dump());
    fam["variants"].push_back({{"id", kind}, {"manifest", path}});
  }
  auto f = parseFamily(fam.dump(), ::testing::TempDir() + "/family.json");
  ASSERT_TRUE(f.ok()) << f.message();
  ASSERT_EQ(f->variants.size(), 3u);

  // The caller's workspace and stream-K tile count reach only the variants
  // whose tile scheduler takes them.
  GemmArgs args = validBiasRelu();
  args.workspace = 0x10000;
  args.workspaceBytes = 1 << 20;
  args.streamKTiles = 7;
  GemmArgs dp = argsForVariant(f->variants[0].manifest, args);
  EXPECT_EQ(dp.workspace, 0u);
  EXPECT_EQ(dp.workspaceBytes, 0u);
  EXPECT_FALSE(dp.streamKTiles.has_value());
  EXPECT_EQ(argsError(f->variants[0].manifest, dp), "");
  GemmArgs split = argsForVariant(f->variants[1].manifest, args);
  EXPECT_EQ(split.workspace, 0x10000u);
  EXPECT_FALSE(split.streamKTiles.has_value());
  GemmArgs sk = argsForVariant(f->variants[2].manifest, args);
  EXPECT_EQ(sk.workspace, 0x10000u);
  EXPECT_EQ(sk.workspaceBytes, uint64_t(1) << 20);
  EXPECT_EQ(sk.streamKTiles, 7);

  // Untuned, the heuristic prices each scheduler (docs/tuning.md,
  // "Selection"; all three are 128x256, cost in 128x256 tile-steps):
  SelectOptions o;
  o.smCount = 132;
  auto pick = [&](Shape shape) {
    auto sel = selectVariant(*f, nullptr, shape, o);
    EXPECT_TRUE(sel.ok()) << sel.message();
    return sel.ok() ? f->variants[sel->variant].id : std::string();
  };
  // 1024 x 1024 x 16384: 32 tiles. Data-parallel 1 wave: 32768; split-K 4:
  // 128 units in 1 wave of a quarter tile plus 30% fixup: 10649.6;
  // stream-K, all 32 tiles on 132 CTAs: 32/132 x (1 + 0.15 x (1 +
  // 132/32)) x 32768 = 14053. Its panels (64 MiB) exceed L2, but with
  // fewer stream-K tiles than CTAs every tile's units start together and
  // keep the reuse: no penalty.
  const Manifest &sk4 = f->variants[1].manifest;
  Shape fewTiles{1024, 1024, 16384, 1};
  EXPECT_NEAR(estimateVariant(sk4, fewTiles, 132).cost, 10649.6, 1e-6);
  HeuristicEstimate allShared =
      estimateVariant(f->variants[2].manifest, fewTiles, 132);
  EXPECT_GT(allShared.streamKBytes, int64_t(50) << 20);
  EXPECT_FALSE(allShared.streamKOverL2);
  EXPECT_NEAR(allShared.cost,
              32.0 / 132 * (1 + 0.15 * (1 + 132.0 / 32)) * 32768, 1e-6);
  EXPECT_EQ(pick(fewTiles), "split_k");
  // 3456 x 5120 x 4096: 540 tiles, 4.09 waves. Data-parallel 5 waves:
  // 163840; stream-K 3 waves + 144 stream-K tiles: 144329; split-K 4: 17
  // waves of 2160 units: 181043.
  Shape partialWave{3456, 5120, 4096, 1};
  HeuristicEstimate hybrid =
      estimateVariant(f->variants[2].manifest, partialWave, 132);
  EXPECT_EQ(hybrid.streamKTiles, 144);
  EXPECT_NEAR(hybrid.cost,
              (3 + 144.0 / 132 * (1 + 0.15 * (1 + 132.0 / 144))) * 32768, 1e-6);
  EXPECT_EQ(estimateVariant(sk4, partialWave, 132).waves, 17);
  EXPECT_EQ(pick(partialWave), "stream_k");
  // Its 144 shared tiles' panels (27 A rows, 6 B columns at K = 4096) fit
  // in the H100's 50 MiB of L2.
  EXPECT_FALSE(hybrid.streamKOverL2);
  EXPECT_EQ(hybrid.streamKBytes, (27 * 128 + 6 * 256) * 4096 * 2);
  // 512 x 28672 x 8192: 448 tiles, 3.39 waves; the rule shares the last
  // 184 (more than the 132 CTAs), whose panels (4 A rows, 46 B columns at
  // K = 8192: 192 MiB) do not fit, so stream-K is priced at the
  // data-parallel cost times 1.15 and
  // data-parallel wins (on the H100 it ran 1.16x faster; perf-notes, "The
  // default family at M = 512"). With a 1 GiB L2 the old estimate holds.
  Shape fewRows{512, 28672, 8192, 1};
  HeuristicEstimate starved =
      estimateVariant(f->variants[2].manifest, fewRows, 132);
  EXPECT_EQ(starved.streamKTiles, 184);
  EXPECT_TRUE(starved.streamKOverL2);
  EXPECT_EQ(starved.streamKBytes, int64_t(4 * 128 + 46 * 256) * 8192 * 2);
  EXPECT_NEAR(starved.cost, 4 * 32768 * 1.15, 1e-6);
  EXPECT_EQ(pick(fewRows), "data_parallel");
  HeuristicEstimate bigL2 =
      estimateVariant(f->variants[2].manifest, fewRows, 132, 0, 1ll << 30);
  EXPECT_FALSE(bigL2.streamKOverL2);
  EXPECT_NEAR(bigL2.cost,
              (2 + 184.0 / 132 * (1 + 0.15 * (1 + 132.0 / 184))) * 32768,
              1e-6);
  // 45056 x 256 x 8192: 352 tiles in one column (a decode GEMM's shape:
  // few tokens, a tall weight). Each A panel (2 MiB) is read by one tile
  // only, so only B's (4 MiB) is shared: no reuse to lose, however many
  // A panels the stream-K tiles read (the old count, every panel, was 100+
  // MiB and priced stream-K at the data-parallel cost times 1.15; on
  // mixed-input decode GEMMs of this form, 28672 rows at 32-64 tokens,
  // stream-K ran 1.13-1.47x faster: docs/mixed-input.md).
  Shape oneColumn{45056, 256, 8192, 1};
  HeuristicEstimate tall =
      estimateVariant(f->variants[2].manifest, oneColumn, 132);
  EXPECT_GT(tall.streamKTiles, 132);
  EXPECT_FALSE(tall.streamKOverL2);
  EXPECT_EQ(tall.streamKBytes, int64_t(256) * 8192 * 2);
  EXPECT_NEAR(tall.cost,
              (double((352 - tall.streamKTiles) / 132) +
               double(tall.streamKTiles) / 132 *
                   (1 + 0.15 * (1 + 132.0 / double(tall.streamKTiles)))) *
                  32768,
              1e-6);
  // 4096^3: 512 tiles fill 97% of 4 waves, so the rule keeps stream-K
  // data-parallel (the same cost: the earlier variant wins) and split-K's
  // 16 waves lose.
  EXPECT_EQ(pick({4096, 4096, 4096, 1}), "data_parallel");

  // Anything else that differs still splits a family.
  json other = splitManifest("stream_k");
  other["operands"]["D"]["dtype"] = "bf16"; // as FamilyTest's bf16 D
  other["params"][3]["dtype"] = "bf16";
  other["evt"]["nodes"][10]["dtype"] = "bf16";
  ASSERT_EQ(manifestError(other), "");
  fam["variants"][2]["manifest"] = writeTemp("mixed_bf16.json", other.dump());
  auto bad = parseFamily(fam.dump(), ::testing::TempDir() + "/family.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("variant 'stream_k' takes other arguments "
                               "than 'data_parallel'"),
            std::string::npos)
      << bad.message();
}

} // namespace
