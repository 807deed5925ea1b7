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

} // namespace
