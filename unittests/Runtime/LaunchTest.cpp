//===- LaunchTest.cpp - Grid rule, parameter packing, device checks -------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Launch.h"

#include <cmath>
#include <cstring>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

LaunchGeometry geometry(const Manifest &m, int64_t M, int64_t N, int64_t L,
                        int sms, int maxClusters = 0) {
  auto g = computeLaunchGeometry(m, M, N, L, sms, maxClusters);
  EXPECT_TRUE(g.ok()) << g.message();
  return g.ok() ? *g : LaunchGeometry();
}

TEST(Grid, TilesRaster) {
  json j = loadJson("gemm_bias_relu.json"); // tile 128 x 256, along_n
  Manifest m = parseOrDie(j);
  LaunchGeometry g = geometry(m, 1000, 1000, 1, 132);
  EXPECT_EQ(g.tilesM, 8);
  EXPECT_EQ(g.tilesN, 4);
  EXPECT_EQ(g.tiles, 32);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{4, 8, 1})); // x walks N
  EXPECT_EQ(g.block, (std::array<uint32_t, 3>{384, 1, 1}));
  EXPECT_EQ(g.smemBytes, 197632u);
  EXPECT_FALSE(g.clustered());
  j["grid"]["raster"] = "along_m";
  m = parseOrDie(j);
  g = geometry(m, 1000, 1000, 1, 132);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{8, 4, 1})); // x walks M
  // Exact multiples and a single partial tile.
  g = geometry(m, 128, 256, 1, 132);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{1, 1, 1}));
  g = geometry(m, 129, 257, 1, 132);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{2, 2, 1}));
}

TEST(Grid, TilesClusterAndBatch) {
  json j = loadJson("gemm_bias_relu.json");
  j["grid"]["raster"] = "along_m";
  j["cluster"] = {2, 1, 1};
  j["batched"] = true;
  j["params"][0]["dims"] = {"K", "M", "L"};
  j["params"][0]["box"] = {64, 128, 1};
  j["params"][1]["dims"] = {"N", "K", "L"};
  j["params"][1]["box"] = {64, 64, 1};
  j["params"][2]["dims"] = {"N", "M", "L"};
  j["params"][2]["box"] = {64, 32, 1};
  j["params"][3]["dims"] = {"N", "M", "L"};
  j["params"][3]["box"] = {64, 32, 1};
  Manifest m = parseOrDie(j);
  LaunchGeometry g = geometry(m, 3 * 128, 2 * 256, 5, 132);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{4, 2, 5})); // 3 rounded to 4
  EXPECT_TRUE(g.clustered());
  EXPECT_EQ(g.tiles, 30);
}

TEST(Grid, Persistent) {
  Manifest m = loadOrDie("evt_full.json"); // tile 128x128, cluster 2x1x1
  // 64 x 64 tiles x 2 batches = 8192 tiles, 132 SMs -> 66 clusters.
  LaunchGeometry g = geometry(m, 8192, 8192, 2, 132);
  EXPECT_EQ(g.tiles, 8192);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{132, 1, 1}));
  // Occupancy caps it further.
  g = geometry(m, 8192, 8192, 2, 132, 60);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{120, 1, 1}));
  // Fewer tiles than SMs: one cluster per 2 tiles, rounded up.
  g = geometry(m, 300, 128, 1, 132); // 3 tiles -> 2 clusters
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{4, 1, 1}));
  json j = loadJson("evt_full.json");
  j["cluster"] = {1, 1, 1};
  j["grid"]["ctas_per_sm"] = 2;
  m = parseOrDie(j);
  g = geometry(m, 8192, 8192, 1, 132);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{264, 1, 1}));
  // ... capped by the CTAs that are resident (Kernel::maxActiveClusters:
  // one per SM where the device keeps one): no CTA of the grid waits for
  // a slot while a split-K unit spins on its partial.
  g = geometry(m, 8192, 8192, 1, 132, 132);
  EXPECT_EQ(g.grid, (std::array<uint32_t, 3>{132, 1, 1}));
  auto bad = computeLaunchGeometry(m, 128, 128, 1, 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "grid: a persistent kernel needs the SM count, "
                           "got 0");
}

TEST(Grid, Limits) {
  Manifest m = loadOrDie("gemm_bias_relu.json"); // along_n: M tiles on y
  auto g = computeLaunchGeometry(m, 128LL * 70000, 256, 1, 132);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.message(), "grid: 70000 tiles along M exceed the grid y limit "
                         "of 65535 (raster along_n puts M tiles on y)");
  g = computeLaunchGeometry(m, 0, 256, 1, 132);
  ASSERT_FALSE(g.ok());
}

TEST(Params, PackedInManifestOrder) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a;
  a.M = 300;
  a.N = 400;
  a.K = 500;
  a.named["bias"].ptr = 0xABCDEF00;
  a.scalars["alpha"] = 1.5f;
  a.scalars["beta"] = -2.0f;
  std::vector<CUtensorMap> maps(4);
  for (size_t i = 0; i < maps.size(); ++i)
    std::memset(&maps[i], static_cast<int>(0x10 + i), sizeof(CUtensorMap));
  auto p = packParams(m, a, maps);
  ASSERT_TRUE(p.ok()) << p.message();
  ASSERT_EQ(p->size(), 10u);
  for (size_t i = 0; i < p->size(); ++i)
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p->data()[i]) % 64, 0u) << i;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(p->slotSize(i), 128u);
    EXPECT_EQ(std::memcmp(p->slot(i), &maps[i], 128), 0);
  }
  CUdeviceptr bias;
  std::memcpy(&bias, p->slot(4), sizeof bias);
  EXPECT_EQ(bias, 0xABCDEF00u);
  float alpha, beta;
  std::memcpy(&alpha, p->slot(5), 4);
  std::memcpy(&beta, p->slot(6), 4);
  EXPECT_EQ(alpha, 1.5f);
  EXPECT_EQ(beta, -2.0f);
  int32_t sizes[3];
  for (int i = 0; i < 3; ++i)
    std::memcpy(&sizes[i], p->slot(7 + i), 4);
  EXPECT_EQ(sizes[0], 300);
  EXPECT_EQ(sizes[1], 400);
  EXPECT_EQ(sizes[2], 500);
  EXPECT_EQ(p->slotSize(9), 4u);
  // Moving keeps the pointers valid.
  KernelParams moved = std::move(*p);
  EXPECT_EQ(std::memcmp(moved.slot(0), &maps[0], 128), 0);

  maps.pop_back();
  auto short_ = packParams(m, a, maps);
  ASSERT_FALSE(short_.ok());
  EXPECT_EQ(short_.message(), "tma_d: no encoded tensor map (3 given)");
}

TEST(Device, ArchAndSharedMemory) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  DeviceInfo h100{0, "NVIDIA H100 80GB HBM3", 9, 0, 132, 232448, 52428800};
  EXPECT_TRUE(checkDevice(m, h100).ok());
  DeviceInfo a100{0, "NVIDIA A100", 8, 0, 108, 166912, 41943040};
  EXPECT_EQ(checkDevice(m, a100).message(),
            "cubin built for sm_90a, device is sm_80 (NVIDIA A100)");
  DeviceInfo future{0, "", 9, 1, 132, 232448, 0};
  EXPECT_EQ(checkDevice(m, future).message(),
            "cubin built for sm_90a, device is sm_91");
  json j = loadJson("gemm_bias_relu.json");
  j["arch"] = "sm_90";
  EXPECT_TRUE(checkDevice(parseOrDie(j), future).ok()); // not arch-specific
  j["smem_bytes"] = 240000;
  EXPECT_EQ(checkDevice(parseOrDie(j), h100).message(),
            "smem_bytes: the kernel needs 240000 bytes of dynamic shared "
            "memory per CTA, the device allows at most 232448 (opt-in)");
}

TEST(Device, ChipToCompileFor) {
  auto chip = [](int major, int minor) {
    return chipFor(DeviceInfo{0, "", major, minor, 0, 0, 0}).value_or("none");
  };
  EXPECT_EQ(chip(9, 0), "sm_90a");
  EXPECT_EQ(chip(8, 0), "sm_80");
  EXPECT_EQ(chip(8, 7), "sm_80");
  EXPECT_EQ(chip(8, 6), "sm_86");
  EXPECT_EQ(chip(8, 9), "sm_89");
  // No kernels for these: an sm_90a cubin runs on 9.0 alone.
  EXPECT_EQ(chip(7, 5), "none");
  EXPECT_EQ(chip(9, 1), "none");
  EXPECT_EQ(chip(10, 0), "none");
  EXPECT_EQ(chip(12, 0), "none");
  // Each chip's kernels load on the devices chipFor names it for.
  json j = loadJson("gemm_bias_relu.json");
  for (auto [major, minor] :
       {std::pair{9, 0}, {8, 0}, {8, 7}, {8, 6}, {8, 9}}) {
    DeviceInfo d{0, "", major, minor, 132, 232448, 0};
    j["arch"] = *chipFor(d);
    EXPECT_TRUE(checkDevice(parseOrDie(j), d).ok()) << major << "." << minor;
  }
}

TEST(Reduction, Identity) {
  EXPECT_EQ(reductionIdentity(ReduceKind::Sum), 0.0f);
  EXPECT_EQ(reductionIdentity(ReduceKind::AbsMax), 0.0f);
  EXPECT_EQ(reductionIdentity(ReduceKind::Max), -INFINITY);
  EXPECT_EQ(reductionIdentity(ReduceKind::Min), INFINITY);
}

} // namespace
