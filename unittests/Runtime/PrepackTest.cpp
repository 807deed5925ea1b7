//===- PrepackTest.cpp - The i4 pre-packing and the dequant reference -----===//
//
// prepackI4 then unpackI4 is the identity; the packed bytes follow the
// documented map (a thread's fragment nibbles, Prepack.h) at known
// elements; shapes and values the packing cannot hold are refused by
// name; dequantizeReference rounds (q - z) * s once, nearest even.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Prepack.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace wsgemm::runtime;

namespace {

TEST(Prepack, RoundTrip) {
  const int64_t M = 128, K = 256, L = 2;
  std::vector<uint8_t> q(M * K * L), back(M * K * L, 0xFF);
  std::mt19937 rng(7);
  for (uint8_t &v : q)
    v = rng() % 16;
  std::vector<uint8_t> packed(packedI4Bytes(M, K, L));
  ASSERT_TRUE(prepackI4(q.data(), M, K, L, packed.data()).ok());
  ASSERT_TRUE(unpackI4(packed.data(), M, K, L, back.data()).ok());
  EXPECT_EQ(q, back);
}

TEST(Prepack, FragmentMap) {
  // One 64 x 64 unit with a single nonzero element at a time.
  const int64_t M = 64, K = 64;
  auto packedOf = [&](int64_t m, int64_t k) {
    std::vector<uint8_t> q(M * K, 0), packed(packedI4Bytes(M, K));
    q[m * K + k] = 0xA;
    EXPECT_TRUE(prepackI4(q.data(), M, K, 1, packed.data()).ok());
    for (size_t i = 0; i < packed.size(); ++i)
      if (packed[i])
        return std::pair<size_t, int>(i, packed[i]);
    return std::pair<size_t, int>(0, 0);
  };
  // (0, 0): thread 0, step 0, register 0, low half: bits 0-3 of word 0.
  EXPECT_EQ(packedOf(0, 0), (std::pair<size_t, int>(0, 0xA)));
  // (0, 1): the high half of register 0: bits 16-19, byte 2.
  EXPECT_EQ(packedOf(0, 1), (std::pair<size_t, int>(2, 0xA)));
  // (8, 0): row + 8 is register 1: bits 4-7 of byte 0.
  EXPECT_EQ(packedOf(8, 0), (std::pair<size_t, int>(0, 0xA0)));
  // (0, 8): column + 8 is register 2: bits 8-11, byte 1.
  EXPECT_EQ(packedOf(0, 8), (std::pair<size_t, int>(1, 0xA)));
  // (1, 2): row 1 -> lane 4, column 2 -> lane + 1: thread 5, byte 80.
  EXPECT_EQ(packedOf(1, 2), (std::pair<size_t, int>(80, 0xA)));
  // (16, 16): warp 1 (thread 32), k16 step 1: byte 32 * 16 + 4.
  EXPECT_EQ(packedOf(16, 16), (std::pair<size_t, int>(516, 0xA)));
}

TEST(Prepack, Refusals) {
  std::vector<uint8_t> q(64 * 64, 0), packed(64 * 64);
  Status s = prepackI4(q.data(), 100, 64, 1, packed.data());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("M = 100"), std::string::npos);
  s = prepackI4(q.data(), 64, 96, 1, packed.data());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("K = 96"), std::string::npos);
  q[5] = 16;
  s = prepackI4(q.data(), 64, 64, 1, packed.data());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("q[0][0][5] = 16"), std::string::npos);
}

TEST(Prepack, DequantizeReference) {
  // (q - z) * s is exact in double; one rounding to the MMA type.
  EXPECT_EQ(dequantizeReference(DType::BF16, 15, 8, 0.25), 1.75);
  EXPECT_EQ(dequantizeReference(DType::BF16, 0, 15, -0.5), 7.5);
  // 3 * (1 + 2^-7) = 3 + 3 * 2^-7: bf16 keeps 7 bits, ties to even.
  double s = 1.0 + std::ldexp(1.0, -7);
  EXPECT_EQ(dequantizeReference(DType::BF16, 11, 8, s),
            roundTo(DType::BF16, 3 * s));
  EXPECT_NE(dequantizeReference(DType::BF16, 11, 8, s), 3 * s);
  EXPECT_EQ(dequantizeReference(DType::F16, 11, 8, s), 3 * s);
}

TEST(Prepack, I4DType) {
  EXPECT_EQ(parseDType("i4"), DType::I4);
  EXPECT_STREQ(dtypeName(DType::I4), "i4");
  EXPECT_EQ(decode(DType::I4, encode(DType::I4, 13)), 13.0);
  EXPECT_EQ(encode(DType::I4, 20), 15u);
}

} // namespace
