//===- LaunchCacheTest.cpp - Launch keys and the plan cache ---------------===//
//
// A plan may be reused only for exactly the arguments it was made for:
// every field of GemmArgs must change the launch key, and two argument
// sets may never run together into one key.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/LaunchCache.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <thread>

using namespace wsgemm::runtime;

namespace {

std::string keyOf(const GemmArgs &a, CUstream s = nullptr) {
  std::string k;
  appendLaunchKey(k, a, s);
  return k;
}

GemmArgs base() {
  GemmArgs a;
  a.M = 512, a.N = 256, a.K = 128, a.L = 1;
  a.A.ptr = 0x10000, a.B.ptr = 0x20000, a.D.ptr = 0x30000;
  a.named["bias"].ptr = 0x40000;
  a.scalars["alpha"] = 1.0f;
  return a;
}

TEST(LaunchCache, EqualArgumentsGiveEqualKeys) {
  EXPECT_EQ(keyOf(base()), keyOf(base()));
}

TEST(LaunchCache, EveryFieldChangesTheKey) {
  const std::string k0 = keyOf(base());
  std::vector<std::pair<const char *, std::function<void(GemmArgs &)>>>
      changes = {
          {"M", [](GemmArgs &a) { a.M = 513; }},
          {"N", [](GemmArgs &a) { a.N = 264; }},
          {"K", [](GemmArgs &a) { a.K = 136; }},
          {"L", [](GemmArgs &a) { a.L = 2; }},
          {"A.ptr", [](GemmArgs &a) { a.A.ptr += 16; }},
          {"A.dtype", [](GemmArgs &a) { a.A.dtype = DType::F16; }},
          {"A.ld", [](GemmArgs &a) { a.A.ld = 136; }},
          {"B.batchStride", [](GemmArgs &a) { a.B.batchStride = 1 << 20; }},
          {"C.ptr", [](GemmArgs &a) { a.C.ptr = 0x50000; }},
          {"D.ld", [](GemmArgs &a) { a.D.ld = 264; }},
          {"bias.ptr", [](GemmArgs &a) { a.named["bias"].ptr += 16; }},
          {"named name", [](GemmArgs &a) {
             a.named["bias2"] = a.named["bias"];
             a.named.erase("bias");
           }},
          {"named added", [](GemmArgs &a) { a.named["res"].ptr = 0x60000; }},
          {"alpha", [](GemmArgs &a) { a.scalars["alpha"] = 2.0f; }},
          {"alpha -0", [](GemmArgs &a) { a.scalars["alpha"] = -0.0f; }},
          {"scalar added", [](GemmArgs &a) { a.scalars["beta"] = 0.0f; }},
          {"workspace", [](GemmArgs &a) { a.workspace = 0x70000; }},
          {"workspaceBytes", [](GemmArgs &a) { a.workspaceBytes = 64; }},
          {"streamKTiles", [](GemmArgs &a) { a.streamKTiles = 0; }},
          {"tileOrder", [](GemmArgs &a) { a.tileOrder = TileOrder{true, 8}; }},
      };
  for (auto &[what, change] : changes) {
    GemmArgs a = base();
    change(a);
    EXPECT_NE(keyOf(a), k0) << what;
  }
  EXPECT_NE(keyOf(base(), reinterpret_cast<CUstream>(0x1234)), k0)
      << "stream";
}

TEST(LaunchCache, NamesDoNotRunTogether) {
  // "ab" + "c" must differ from "a" + "bc" (names end with a NUL).
  GemmArgs x = base(), y = base();
  x.scalars = {{"ab", 1.0f}, {"c", 1.0f}};
  y.scalars = {{"a", 1.0f}, {"bc", 1.0f}};
  EXPECT_NE(keyOf(x), keyOf(y));
}

TEST(LaunchCache, PlanCacheFindsWhatWasInserted) {
  PlanCache cache;
  auto plan = std::make_shared<LaunchPlan>();
  plan->geometry.grid = {7, 1, 1};
  EXPECT_EQ(cache.find("k"), nullptr);
  cache.insert("k", plan);
  ASSERT_NE(cache.find("k"), nullptr);
  EXPECT_EQ(cache.find("k")->geometry.grid[0], 7u);
  EXPECT_EQ(cache.find("other"), nullptr);
}

TEST(LaunchCache, PlanCacheIsBoundedAndKeepsPlansInUse) {
  PlanCache cache;
  auto first = std::make_shared<LaunchPlan>();
  cache.insert("first", first);
  std::shared_ptr<const LaunchPlan> held = cache.find("first");
  for (size_t i = 0; i < PlanCache::kCapacity; ++i)
    cache.insert("k" + std::to_string(i), std::make_shared<LaunchPlan>());
  EXPECT_LE(cache.size(), PlanCache::kCapacity);
  EXPECT_EQ(cache.find("first"), nullptr);
  EXPECT_EQ(held.get(), first.get()); // still alive for its user
}

TEST(LaunchCache, ConcurrentReadersAndWriters) {
  PlanCache cache;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 500; ++i) {
        std::string k = std::to_string((t * 7 + i) % 64);
        if (!cache.find(k))
          cache.insert(k, std::make_shared<LaunchPlan>());
      }
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(cache.size(), 64u);
}

} // namespace
