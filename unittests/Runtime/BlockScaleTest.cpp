//===- BlockScaleTest.cpp - fp8 block scaling in the runtime --------------===//
//
// The block_scale pointers of a block-scaled fp8 kernel (data/
// fp8_block_scaled.json, written by ws-gemm-compile for the cooperative
// 128x128x128 kernel of test/Target/PTX/fp8-block-scaling.mlir): what the
// manifest reader accepts and refuses, the argument checks, the CPU
// reference's scaled accumulator against a direct per-k formula, and the
// per-element tolerance weights (Check.h).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/Check.h"
#include "ws-gemm-runtime/Reference.h"

#include <cmath>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

const char *kManifest = "fp8_block_scaled.json";

/// Index of the param called `name` in j["params"].
size_t paramAt(const json &j, const std::string &name) {
  for (size_t i = 0; i < j["params"].size(); ++i)
    if (j["params"][i]["name"] == name)
      return i;
  ADD_FAILURE() << "no param " << name;
  return 0;
}

TEST(BlockScale, ManifestDescribesBothScaleTensors) {
  Manifest m = loadOrDie(kManifest);
  ASSERT_TRUE(m.blockScaled());
  const Param *a = m.findBlockScale("A");
  const Param *b = m.findBlockScale("B");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->name, "block_scale_a");
  EXPECT_EQ(a->kind, ParamKind::Pointer);
  EXPECT_EQ(a->dtype, DType::F32);
  EXPECT_EQ(a->extent, (std::vector<Dim>{Dim::M, Dim::KB}));
  EXPECT_EQ(b->name, "block_scale_b");
  EXPECT_EQ(b->extent, (std::vector<Dim>{Dim::KB, Dim::NB}));
  // The bias stays an EVT vector.
  EXPECT_TRUE(m.findParam("bias")->blockScale.empty());
  EXPECT_FALSE(loadOrDie("gemm_bias_relu.json").blockScaled());
}

TEST(BlockScale, ExtentsCountBlocksOf128) {
  GemmArgs a;
  a.M = 1000;
  a.N = 257;
  a.K = 200;
  Manifest m = loadOrDie(kManifest);
  EXPECT_EQ(dimValue(Dim::KB, a, m), 2);
  EXPECT_EQ(dimValue(Dim::NB, a, m), 3);
  EXPECT_EQ(extentElements({Dim::M, Dim::KB}, a, m), 2000);
  EXPECT_EQ(extentElements({Dim::KB, Dim::NB}, a, m), 6);
  a.K = 96; // K < 128: one block
  EXPECT_EQ(dimValue(Dim::KB, a, m), 1);
}

TEST(BlockScale, ManifestRefusals) {
  json base = loadJson(kManifest);
  size_t ia = paramAt(base, "block_scale_a");
  size_t ib = paramAt(base, "block_scale_b");
  std::string pa = "params[" + std::to_string(ia) + "]";
  json j = base;
  j["params"][ia]["block_scale"] = "C";
  EXPECT_NE(manifestError(j).find(pa + ".block_scale: unknown block_scale "
                                       "'C' (expected one of A, B)"),
            std::string::npos)
      << manifestError(j);
  j = base;
  j["params"][ia]["extent"] = {"KB", "M"};
  EXPECT_NE(manifestError(j).find(
                "must be [M, KB] for the block scales of A, got [KB, M]"),
            std::string::npos)
      << manifestError(j);
  j = base;
  j["params"][ib]["dtype"] = "f16";
  EXPECT_NE(manifestError(j).find("block scales are f32, got f16"),
            std::string::npos)
      << manifestError(j);
  j = base;
  j["params"].erase(ib);
  EXPECT_NE(manifestError(j).find("block scaling takes one block_scale "
                                  "pointer for A and one for B, got 1 and 0"),
            std::string::npos)
      << manifestError(j);
  j = base;
  j["operands"]["A"]["dtype"] = "bf16";
  j["params"][0]["dtype"] = "bf16";
  j["params"][0]["box"][0] = 64; // 128 bytes of bf16
  EXPECT_NE(manifestError(j).find("block scales apply to 8-bit operands, "
                                  "but A is bf16"),
            std::string::npos)
      << manifestError(j);
  // KB / NB are extents of block scales only, never sizes.
  j = base;
  j["params"].back()["dim"] = "KB";
  EXPECT_NE(manifestError(j).find("must be M, N, K or L"), std::string::npos)
      << manifestError(j);
}

GemmArgs validArgs() {
  GemmArgs a;
  a.M = 1000;
  a.N = 1040;
  a.K = 4096;
  a.A.ptr = 0x10000000;
  a.B.ptr = 0x20000000;
  a.D.ptr = 0x30000000;
  a.named["block_scale_a"].ptr = 0x40000000;
  a.named["block_scale_b"].ptr = 0x50000000;
  a.named["bias"].ptr = 0x60000000;
  return a;
}

TEST(BlockScale, ArgumentChecks) {
  Manifest m = loadOrDie(kManifest);
  EXPECT_EQ(argsError(m, validArgs()), "");
  GemmArgs a = validArgs();
  a.named.erase("block_scale_b");
  EXPECT_EQ(argsError(m, a), "block_scale_b: null pointer");
  a = validArgs();
  a.named["block_scale_a"].ptr += 2;
  EXPECT_EQ(argsError(m, a), "block_scale_a: address 0x40000002 is not aligned "
                         "to its element size (4 bytes)");
  a = validArgs();
  a.named["block_scale_a"].dtype = DType::BF16;
  EXPECT_EQ(argsError(m, a),
            "block_scale_a: dtype bf16 does not match the kernel's f32");
  // DeepGEMM pads scale_a's M to 16 bytes; this kernel reads them packed.
  a = validArgs();
  a.named["block_scale_a"].ld = 1004;
  EXPECT_EQ(argsError(m, a),
            "block_scale_a: the block scales of A are read packed (element "
            "(l * KB + kb) * M + m, KB = ceil(K / 128), NB = ceil(N / 128)), "
            "but ld = 1004 and batch stride = 0 were given: repack them with "
            "ld = 0 and batch stride 0");
  a = validArgs();
  a.named["block_scale_b"].batchStride = 99;
  EXPECT_NE(argsError(m, a).find("block_scale_b: the block scales of B are read "
                             "packed (element (l * NB + nb) * KB + kb"),
            std::string::npos);
}

/// M = 3, N = 130 (two column blocks of B's scales), K = 200 (two K
/// blocks, the second ragged), with small integer A and B.
struct Case {
  GemmArgs args;
  HostInputs in;
  std::vector<double> sa, sb; // [M, KB] and [KB, NB]
};

Case makeCase() {
  Case c;
  c.args.M = 3;
  c.args.N = 130;
  c.args.K = 200;
  const int64_t M = 3, N = 130, K = 200;
  auto hostMatrix = [](int64_t rows, int64_t cols, auto f) {
    HostMatrix h;
    h.geometry.rows = rows;
    h.geometry.cols = cols;
    h.geometry.ld = cols;
    h.geometry.batchStride = rows * cols;
    h.geometry.dtype = DType::F8E4M3;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t k = 0; k < cols; ++k)
        h.data.push_back(f(r, k));
    return h;
  };
  // Values exact in e4m3: small integers and halves.
  c.in.A = hostMatrix(M, K, [](int64_t m, int64_t k) {
    return double((m + 2 * k) % 7) - 3.0;
  });
  c.in.B = hostMatrix(N, K, [](int64_t n, int64_t k) {
    return (double((3 * n + k) % 5) - 2.0) * 0.5;
  });
  c.sa = {0.25, 3.0, 0.5, // kb 0: rows 0..2
          8.0, 0.125, 1.5}; // kb 1
  c.sb = {2.0, 0.75,        // nb 0: kb 0, 1
          0.0078125, 256.0}; // nb 1
  c.in.vectors["block_scale_a"] = c.sa;
  c.in.vectors["block_scale_b"] = c.sb;
  c.in.vectors["bias"] = {0.5, -1.0, 2.0};
  return c;
}

TEST(BlockScale, ReferenceAppliesTheScalesPerKBlock) {
  Manifest m = loadOrDie(kManifest);
  Case c = makeCase();
  const HostMatrix A = c.in.A, B = c.in.B;
  auto r = Reference::create(m, c.args, std::move(c.in));
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(r->blockScaled());
  for (int64_t mi = 0; mi < 3; ++mi)
    for (int64_t n : {0, 1, 127, 128, 129}) {
      // Term by term: a * b * scale_a(m, k / 128) * scale_b(n / 128, k / 128).
      double want = 0, sq = 0;
      for (int64_t k = 0; k < 200; ++k) {
        int64_t kb = k / 128;
        double s = c.sa[size_t(kb * 3 + mi)] * c.sb[size_t((n / 128) * 2 + kb)];
        double t = A.at(mi, k, 0) * B.at(n, k, 0);
        want += t * s;
        sq += t * t * s * s;
      }
      EXPECT_DOUBLE_EQ(r->accumulator(mi, n, 0), want) << mi << ", " << n;
      EXPECT_DOUBLE_EQ(r->accumulatorTermRms(mi, n, 0), std::sqrt(sq));
      // The EVT sees the scaled accumulator: D = acc + bias, rounded to
      // bf16.
      ElementResult e = r->evaluate(mi, n, 0);
      EXPECT_DOUBLE_EQ(e.dExact, want + (mi == 0 ? 0.5 : mi == 1 ? -1.0 : 2.0));
    }
}

TEST(BlockScale, ReferenceNeedsTheScales) {
  Manifest m = loadOrDie(kManifest);
  Case c = makeCase();
  c.in.vectors.erase("block_scale_b");
  auto r = Reference::create(m, c.args, std::move(c.in));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "block scales block_scale_b: no host data");
  c = makeCase();
  c.in.vectors["block_scale_a"].resize(5);
  auto r2 = Reference::create(m, c.args, std::move(c.in));
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.message(), "block scales block_scale_a: host data has 5 "
                          "elements, its extent needs 6");
}

TEST(BlockScale, ToleranceWeightsFollowEachElementsTerms) {
  // Uniform term magnitudes: weight 1 everywhere (the unscaled rule).
  EXPECT_EQ(termWeights({2.0, 2.0, 2.0}), (std::vector<double>{1, 1, 1}));
  // rms(3, 4, 1) = sqrt(26 / 3) = 2.944: 3 and 4 get 1.019 and 1.359, the
  // one below rms keeps 1.
  std::vector<double> w = termWeights({3.0, 4.0, 1.0});
  EXPECT_NEAR(w[0], 3.0 / std::sqrt(26.0 / 3.0), 1e-15);
  EXPECT_NEAR(w[1], 4.0 / std::sqrt(26.0 / 3.0), 1e-15);
  EXPECT_EQ(w[2], 1.0);
  EXPECT_TRUE(termWeights({}).empty());
  // An element with 2^8 times the others' term magnitude among many gets
  // close to 2^8 times their atol.
  std::vector<double> t(1000, 1.0);
  t[7] = 256.0;
  EXPECT_NEAR(termWeights(t)[7], 256.0 / std::sqrt((999 + 65536) / 1000.0),
              1e-12);
  Tolerance tol;
  tol.rtol = 0.01;
  tol.atolPerRms = 0.001;
  tol.atolAbs = 1e-6;
  EXPECT_DOUBLE_EQ(elementTolerance(tol, -2.0, 10.0), 0.02 + 0.01 + 1e-6);
  EXPECT_DOUBLE_EQ(elementTolerance(tol, -2.0, 10.0, 3.0), 0.02 + 0.03 + 1e-6);
}

} // namespace
