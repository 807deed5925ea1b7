//===- TensorMapTest.cpp - Tensor map dims, strides and box ---------------===//
//
// What cuTensorMapEncodeTiled will receive, computed without a GPU.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/TensorMap.h"

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;

namespace {

TensorMapSpec spec(const Manifest &m, const std::string &op,
                   const GemmArgs &a) {
  auto s = computeTensorMapSpec(m, *m.findTensorMap(op), a);
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() ? *s : TensorMapSpec();
}

TEST(TensorMap, KMajorA) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  TensorMapSpec s = spec(m, "A", validBiasRelu(1000, 512, 264));
  EXPECT_EQ(s.rank, 2u);
  EXPECT_EQ(s.address, 0x10000000u);
  EXPECT_EQ(s.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(s.globalDim[0], 264u); // K innermost
  EXPECT_EQ(s.globalDim[1], 1000u);
  EXPECT_EQ(s.globalStrides[0], 264u * 2);
  EXPECT_EQ(s.boxDim[0], 64u);
  EXPECT_EQ(s.boxDim[1], 128u);
  EXPECT_EQ(s.elementStrides[0], 1u);
  EXPECT_EQ(s.elementStrides[1], 1u);
  EXPECT_EQ(s.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(s.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  EXPECT_EQ(s.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE); // zeros
  EXPECT_EQ(s.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
}

TEST(TensorMap, NMajorBAndLeadingDimension) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu(128, 1000, 64);
  a.B.ld = 1024;
  TensorMapSpec s = spec(m, "B", a);
  EXPECT_EQ(s.globalDim[0], 1000u); // N innermost
  EXPECT_EQ(s.globalDim[1], 64u);   // K
  EXPECT_EQ(s.globalStrides[0], 1024u * 2);
  TensorMapSpec d = spec(m, "D", a);
  EXPECT_EQ(d.globalDim[0], 1000u);
  EXPECT_EQ(d.globalDim[1], 128u);
  EXPECT_EQ(d.globalStrides[0], 2000u);
  EXPECT_EQ(d.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(describeTensorMapSpec(d),
            "f16 at 0x40000000, dims [1000, 128], strides [2000] bytes, box "
            "[64, 32], swizzle 128B");
}

TEST(TensorMap, BatchedWithStrides) {
  Manifest m = loadOrDie("evt_full.json");
  GemmArgs a = validBiasRelu(200, 136, 72, 3);
  a.C.ptr = 0;
  a.named["res"].ptr = 0x60000000;
  a.named["pre"].ptr = 0x70000000;
  TensorMapSpec s = spec(m, "A", a); // m_major: [M, K, L]
  EXPECT_EQ(s.rank, 3u);
  EXPECT_EQ(s.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(s.globalDim[0], 200u);
  EXPECT_EQ(s.globalDim[1], 72u);
  EXPECT_EQ(s.globalDim[2], 3u);
  EXPECT_EQ(s.globalStrides[0], 400u);
  EXPECT_EQ(s.globalStrides[1], 400u * 72);
  EXPECT_EQ(s.boxDim[2], 1u);
  a.A.batchStride = 200 * 80;
  s = spec(m, "A", a);
  EXPECT_EQ(s.globalStrides[1], 200u * 80 * 2);
  TensorMapSpec pre = spec(m, "pre", a); // f32 aux store
  EXPECT_EQ(pre.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(pre.address, 0x70000000u);
  EXPECT_EQ(pre.globalDim[0], 136u);
  EXPECT_EQ(pre.globalStrides[0], 136u * 4);
  EXPECT_EQ(pre.globalStrides[1], 136u * 4 * 200);
  EXPECT_EQ(pre.swizzle, CU_TENSOR_MAP_SWIZZLE_64B);
}

TEST(TensorMap, SkippedSourceUsesDAddress) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu(128, 128, 64);
  a.C.ptr = 0;
  a.scalars["beta"] = 0;
  TensorMapSpec s = spec(m, "C", a);
  EXPECT_EQ(s.address, 0x40000000u);
  // A D stored directly may sit off 16 bytes and have odd rows: the
  // never-read C map is still encodable (address and strides rounded).
  a.D.ptr = 0x40000002;
  a.N = 1001;
  s = spec(m, "C", a);
  EXPECT_EQ(s.address, 0x40000000u);
  EXPECT_EQ(s.globalStrides[0], 2016u); // 1001 x 2 = 2002, rounded to 16
  a.scalars["beta"] = 1;
  auto bad = computeTensorMapSpec(m, *m.findTensorMap("C"), a);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "C: null pointer");
}

TEST(TensorMap, DataTypes) {
  EXPECT_EQ(tensorMapDataType(DType::F8E4M3), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  EXPECT_EQ(tensorMapDataType(DType::F8E5M2), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  EXPECT_EQ(tensorMapDataType(DType::F32), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
}

/// data/mixed_input_w8.json as an `a` A (i8 or f8e4m3) in groups of
/// `group` (scales [M], [M, KB] for 128, [M, KG] for 32 and 64), batched
/// or not: the JSON, and (mixedInput8) the manifest.
nlohmann::json mixedInput8Json(const char *a, int64_t group, bool batched) {
  nlohmann::json j = loadJson("mixed_input_w8.json");
  j["operands"]["A"]["dtype"] = a;
  j["params"][0]["dtype"] = a;
  j["operands"]["A"]["dequant"]["group"] = group;
  j["params"][3]["extent"] = group == 0     ? nlohmann::json{"M"}
                             : group == 128 ? nlohmann::json{"M", "KB"}
                                            : nlohmann::json{"M", "KG"};
  if (batched) {
    j["batched"] = true;
    for (int i = 0; i < 4; ++i)
      (i < 3 ? j["params"][i]["dims"] : j["params"][i]["extent"])
          .push_back("L");
    j["params"][0]["box"].push_back(1); // A's and B's tensor maps
    j["params"][1]["box"].push_back(1);
  }
  return j;
}

Manifest mixedInput8(const char *a, int64_t group, bool batched) {
  return parseOrDie(mixedInput8Json(a, group, batched));
}

TEST(TensorMap, PackedI4A) {
  // 2048-byte units of 256 u64: K / 64 per 64-row block.
  Manifest m = loadOrDie("mixed_input_w4.json");
  TensorMapSpec s = spec(m, "A", validMixedInput(256, 7, 384, 1, true));
  EXPECT_EQ(s.dataType, CU_TENSOR_MAP_DATA_TYPE_UINT64);
  EXPECT_EQ(s.rank, 3u);
  EXPECT_EQ(s.globalDim[0], 256u);
  EXPECT_EQ(s.globalDim[1], 6u);
  EXPECT_EQ(s.globalDim[2], 4u);
  EXPECT_EQ(s.globalStrides[0], 2048u);
  EXPECT_EQ(s.globalStrides[1], 2048u * 6);
  EXPECT_EQ(s.boxDim[0], 256u);
  EXPECT_EQ(s.boxDim[1], 1u); // tile K 64
  EXPECT_EQ(s.boxDim[2], 2u); // tile M 128
}

TEST(TensorMap, PackedB8A) {
  // 4096-byte units seen as two 2048-byte halves: 2 K / 64 rows of 256 u64
  // per 64-row block; an fp8 A packed moves as u64 too, not as bytes.
  for (const char *a : {"i8", "f8e4m3"}) {
    Manifest m = mixedInput8(a, 0, false);
    TensorMapSpec s = spec(m, "A", validMixedInput(256, 7, 384));
    EXPECT_EQ(s.dataType, CU_TENSOR_MAP_DATA_TYPE_UINT64) << a;
    EXPECT_EQ(s.rank, 3u);
    EXPECT_EQ(s.globalDim[0], 256u);
    EXPECT_EQ(s.globalDim[1], 12u);
    EXPECT_EQ(s.globalDim[2], 4u);
    EXPECT_EQ(s.globalStrides[0], 2048u);
    EXPECT_EQ(s.globalStrides[1], 2048u * 12);
    EXPECT_EQ(s.boxDim[0], 256u);
    EXPECT_EQ(s.boxDim[1], 2u); // tile K 64: both halves of one unit
    EXPECT_EQ(s.boxDim[2], 2u);
  }
  Manifest m = mixedInput8("i8", 128, true);
  TensorMapSpec s = spec(m, "A", validMixedInput(192, 7, 256, 3));
  EXPECT_EQ(s.rank, 4u);
  EXPECT_EQ(s.globalDim[1], 8u);
  EXPECT_EQ(s.globalDim[2], 3u);
  EXPECT_EQ(s.globalDim[3], 3u);
  EXPECT_EQ(s.globalStrides[1], 2048u * 8);
  EXPECT_EQ(s.globalStrides[2], 2048u * 8 * 3);
  EXPECT_EQ(s.boxDim[3], 1u);
}

TEST(TensorMap, KChunksB) {
  // k-tiles of 256: B's four 64-K blocks in one box, K seen as [64, K /
  // 64] outside the rows; the blocks land one after another, 2 KiB each.
  nlohmann::json j = loadJson("mixed_input_w4.json");
  j["tile"] = {128, 16, 256};
  j["params"][0]["box"] = {256, 128};
  j["params"][1]["k_chunks"] = 4;
  Manifest m = parseOrDie(j);
  ASSERT_EQ(m.findTensorMap("B")->kChunks, 4u);
  TensorMapSpec s = spec(m, "B", validMixedInput(256, 7, 384, 1, true));
  EXPECT_EQ(s.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(s.rank, 3u);
  EXPECT_EQ(s.globalDim[0], 64u);
  EXPECT_EQ(s.globalDim[1], 7u);
  EXPECT_EQ(s.globalDim[2], 6u);
  EXPECT_EQ(s.globalStrides[0], 384u * 2); // a row of B
  EXPECT_EQ(s.globalStrides[1], 128u);     // a block of 64 K
  EXPECT_EQ(s.boxDim[0], 64u);
  EXPECT_EQ(s.boxDim[1], 16u);
  EXPECT_EQ(s.boxDim[2], 4u);
  EXPECT_EQ(s.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  // Batched: L outermost, at the batch stride (packed: N x K).
  nlohmann::json b = mixedInput8Json("i8", 0, true);
  b["tile"] = {128, 16, 128};
  b["params"][0]["box"] = {128, 128, 1};
  b["params"][1]["k_chunks"] = 2;
  TensorMapSpec t =
      spec(parseOrDie(b), "B", validMixedInput(256, 7, 384, 3));
  EXPECT_EQ(t.rank, 4u);
  EXPECT_EQ(t.globalDim[2], 6u);
  EXPECT_EQ(t.globalDim[3], 3u);
  EXPECT_EQ(t.globalStrides[1], 128u);
  EXPECT_EQ(t.globalStrides[2], 7u * 384 * 2);
  EXPECT_EQ(t.boxDim[2], 2u);
  EXPECT_EQ(t.boxDim[3], 1u);
}

TEST(TensorMap, KChunksNeedWholeBlocks) {
  // Any K-major B may come in blocks of K (here an fp8 B, 128 of K per
  // block); a K that ends mid-block is refused before launch: the partial
  // last block would lie past the view's K / 128 blocks and read as zeros.
  nlohmann::json j = loadJson("fp8_block_scaled.json");
  j["tile"][2] = 256;
  for (auto &p : j["params"])
    if (p["name"] == "B")
      p["k_chunks"] = 2;
  Manifest m = parseOrDie(j);
  GemmArgs a = fakeArgs(1000, 1040, 4096, 1);
  a.named["block_scale_a"].ptr = 0x50000000;
  a.named["block_scale_b"].ptr = 0x60000000;
  a.named["bias"].ptr = 0x70000000;
  EXPECT_EQ(argsError(m, a), "");
  a.K = 4160;
  EXPECT_EQ(argsError(m, a), "B: K = 4160 is not a multiple of 128: the "
                             "kernel loads B in blocks of 128 of K, 2 to a "
                             "TMA box (k_chunks)");
}

TEST(TensorMap, PackedArgumentRules) {
  // Group 0: K need only be a multiple of 64; the dtype is the manifest's.
  Manifest m = mixedInput8("f8e4m3", 0, false);
  GemmArgs a = validMixedInput(256, 7, 320);
  a.A.dtype = DType::F8E4M3;
  EXPECT_EQ(argsError(m, a), "");
  a.K = 352;
  EXPECT_EQ(argsError(m, a), "K = 352: the pre-packed A needs K a multiple "
                             "of 64 (wsgemm.b8.m64k64.v1)");
  a.K = 320;
  a.A.ld = 320;
  EXPECT_EQ(argsError(m, a), "A: a pre-packed weight (wsgemm.b8.m64k64.v1) "
                             "is dense: pass ld = 0 and batch stride 0, got "
                             "320 and 0");
  // Groups of 128: K a multiple of the group.
  Manifest g = mixedInput8("i8", 128, false);
  EXPECT_EQ(argsError(g, validMixedInput(256, 7, 384)), "");
  EXPECT_EQ(argsError(g, validMixedInput(256, 7, 320)),
            "K = 320: the pre-packed A needs K a multiple of its scale group "
            "128 (wsgemm.b8.m64k64.v1)");
  EXPECT_EQ(argsError(g, validMixedInput(200, 7, 384)),
            "M = 200: the pre-packed A needs M a multiple of 64 "
            "(wsgemm.b8.m64k64.v1)");
  // Groups of 32 and 64: K a multiple of 64 (the packing) covers them.
  for (int64_t group : {32, 64}) {
    Manifest f = mixedInput8("i8", group, false);
    EXPECT_EQ(argsError(f, validMixedInput(256, 7, 320)), "") << group;
    EXPECT_EQ(argsError(f, validMixedInput(256, 7, 96)),
              "K = 96: the pre-packed A needs K a multiple of 64 "
              "(wsgemm.b8.m64k64.v1)")
        << group;
  }
}

} // namespace
