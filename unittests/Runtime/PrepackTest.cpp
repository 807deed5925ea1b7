//===- PrepackTest.cpp - Weight pre-packing and the dequant reference -----===//
//
// prepackI4 then unpackI4, and prepackB8 then unpackB8, are the identity;
// the packed bytes follow the documented maps (a thread's fragment nibbles
// or bytes, Prepack.h) at known elements; shapes and values the packings
// cannot hold are refused by name; dequantizeReference rounds (v - z) * s
// once, nearest even, for i4, i8 and f8e4m3 values.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Prepack.h"

#include <gtest/gtest.h>

#include <algorithm>
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
  auto i4 = [](DType mma, int q, int z, double s) {
    return dequantizeReference(mma, DType::I4, uint8_t(q), z, s);
  };
  EXPECT_EQ(i4(DType::BF16, 15, 8, 0.25), 1.75);
  EXPECT_EQ(i4(DType::BF16, 0, 15, -0.5), 7.5);
  // 3 * (1 + 2^-7) = 3 + 3 * 2^-7: bf16 keeps 7 bits, ties to even.
  double s = 1.0 + std::ldexp(1.0, -7);
  EXPECT_EQ(i4(DType::BF16, 11, 8, s), roundTo(DType::BF16, 3 * s));
  EXPECT_NE(i4(DType::BF16, 11, 8, s), 3 * s);
  EXPECT_EQ(i4(DType::F16, 11, 8, s), 3 * s);
}

TEST(Prepack, DequantizeReference8Bit) {
  // i8: the byte is two's complement; zero = none is 0.
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::I8, 0x80, 0, 0.25), -32.0);
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::I8, 0x7F, 0, 1.0 / 64),
            127.0 / 64);
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::I8, 0xFF, 0, 0.5), -0.5);
  // 127 * (1 + 2^-7) = 127.9921875 needs 14 bits: bf16 (8) rounds it once,
  // to 128. 3 * (1 + 2^-7) needs 9: exact in f16, not in bf16.
  double s = 1.0 + std::ldexp(1.0, -7);
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::I8, 127, 0, s), 128.0);
  EXPECT_EQ(dequantizeReference(DType::F16, DType::I8, 3, 0, s), 3 * s);
  EXPECT_NE(dequantizeReference(DType::BF16, DType::I8, 3, 0, s), 3 * s);
  // f8e4m3: the e4m3fn value of the byte. 0x01 is the smallest subnormal
  // 2^-9; 0xB8 is -1.0 (sign, exponent 7 = bias, mantissa 0); 0x7E is 448.
  // 0x81 is -2^-9.
  EXPECT_EQ(dequantizeReference(DType::F16, DType::F8E4M3, 0x01, 0, 0.25),
            std::ldexp(1.0, -11));
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::F8E4M3, 0x81, 0, 0.5),
            -std::ldexp(1.0, -10));
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::F8E4M3, 0xB8, 0, 0.125),
            -0.125);
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::F8E4M3, 0x7E, 0, 0.25),
            112.0);
  // 1.125 (0x39) * (1 + 2^-7): 1.125 + 1.125 * 2^-7 needs 11 bits, bf16
  // has 8: rounded once.
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::F8E4M3, 0x39, 0, s),
            roundTo(DType::BF16, 1.125 * s));
  EXPECT_EQ(dequantizeReference(DType::F16, DType::F8E4M3, 0x39, 0, s),
            1.125 * s);
  // Scales the kernel applies to its f32 accumulator (one per row after
  // the K loop, or a group's partial sum: scale_applied accumulator): the
  // weight is v * s unrounded.
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::I8, 127, 0, s,
                                ScaleApplied::Accumulator),
            127 * s);
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::F8E4M3, 0x39, 0, s,
                                ScaleApplied::Accumulator),
            1.125 * s);
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::I4, 15, 3, s,
                                ScaleApplied::Accumulator),
            12 * s);
  // Scaled on the weight: rounded.
  EXPECT_EQ(dequantizeReference(DType::BF16, DType::I8, 127, 0, s,
                                ScaleApplied::Weight),
            128.0);
}

TEST(Prepack, I4DType) {
  EXPECT_EQ(parseDType("i4"), DType::I4);
  EXPECT_STREQ(dtypeName(DType::I4), "i4");
  EXPECT_EQ(decode(DType::I4, encode(DType::I4, 13)), 13.0);
  EXPECT_EQ(encode(DType::I4, 20), 15u);
}

TEST(Prepack, I8DType) {
  EXPECT_EQ(parseDType("i8"), DType::I8);
  EXPECT_STREQ(dtypeName(DType::I8), "i8");
  EXPECT_EQ(dtypeSize(DType::I8), 1u);
  EXPECT_EQ(encode(DType::I8, -1), 0xFFu);
  EXPECT_EQ(decode(DType::I8, 0x80), -128.0);
  EXPECT_EQ(decode(DType::I8, encode(DType::I8, 100)), 100.0);
  EXPECT_EQ(encode(DType::I8, 300), 0x7Fu);
  EXPECT_EQ(encode(DType::I8, -300), 0x80u);
  int8_t bytes[2] = {0, 0};
  storeElement(DType::I8, bytes, 1, -7);
  EXPECT_EQ(bytes[1], -7);
  EXPECT_EQ(loadElement(DType::I8, bytes, 1), -7.0);
}

TEST(Prepack, B8RoundTrip) {
  const int64_t M = 128, K = 192, L = 2;
  std::vector<uint8_t> q(M * K * L), back(M * K * L, 0x5A);
  std::mt19937 rng(11);
  for (uint8_t &v : q)
    v = uint8_t(rng());
  std::vector<uint8_t> packed(packedB8Bytes(M, K, L));
  EXPECT_EQ(packed.size(), size_t(M * K * L));
  ASSERT_TRUE(prepackB8(q.data(), M, K, L, packed.data()).ok());
  ASSERT_TRUE(unpackB8(packed.data(), M, K, L, back.data()).ok());
  EXPECT_EQ(q, back);
  // Every byte of the buffer is some element's: the map is a bijection.
  std::vector<uint8_t> ones(M * K * L, 1);
  ASSERT_TRUE(prepackB8(ones.data(), M, K, L, packed.data()).ok());
  EXPECT_EQ(std::count(packed.begin(), packed.end(), 1), M * K * L);
}

TEST(Prepack, B8FragmentMap) {
  // Two batches of 128 x 128: 4 units of 4096 bytes each per batch.
  const int64_t M = 128, K = 128, L = 2;
  auto byteOf = [&](int64_t l, int64_t m, int64_t k) {
    std::vector<uint8_t> q(M * K * L, 0), packed(packedB8Bytes(M, K, L));
    q[(l * M + m) * K + k] = 0xA5;
    EXPECT_TRUE(prepackB8(q.data(), M, K, L, packed.data()).ok());
    for (size_t i = 0; i < packed.size(); ++i)
      if (packed[i])
        return int64_t(i);
    return int64_t(-1);
  };
  EXPECT_EQ(byteOf(0, 0, 0), 0);         // thread 0, step 0, register 0, half 0
  EXPECT_EQ(byteOf(0, 0, 1), 1);         // half 1
  EXPECT_EQ(byteOf(0, 8, 0), 2);         // row + 8: register 1
  EXPECT_EQ(byteOf(0, 0, 8), 4);         // column + 8: register 2
  EXPECT_EQ(byteOf(0, 0, 2), 16);        // column 2: thread 1
  EXPECT_EQ(byteOf(0, 1, 0), 64);        // row 1: thread 4
  EXPECT_EQ(byteOf(0, 16, 0), 512);      // row 16: warp 1, thread 32
  EXPECT_EQ(byteOf(0, 0, 16), 8);        // step 1: the second 8 bytes
  EXPECT_EQ(byteOf(0, 0, 32), 2048);     // step 2: the unit's second half
  EXPECT_EQ(byteOf(0, 0, 48), 2056);     // step 3
  EXPECT_EQ(byteOf(0, 0, 64), 4096);     // K block 1: the next unit
  EXPECT_EQ(byteOf(0, 64, 0), 2 * 4096); // row block 1
  EXPECT_EQ(byteOf(1, 0, 0), 4 * 4096);  // batch 1
  // (63, 63): thread 32 * 3 + 4 * 7 + 3 = 127, step 3, register 3, half 1.
  EXPECT_EQ(byteOf(0, 63, 63), 2048 + 127 * 16 + 8 + 3 * 2 + 1);
}

TEST(Prepack, B8Refusals) {
  std::vector<uint8_t> q(64 * 64, 0xFF), packed(64 * 64);
  Status s = prepackB8(q.data(), 100, 64, 1, packed.data());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("M = 100"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(kPackingB8), std::string::npos) << s.message();
  s = unpackB8(packed.data(), 64, 96, 1, q.data());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("K = 96"), std::string::npos) << s.message();
  s = prepackB8(q.data(), 64, 64, 0, packed.data());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("L = 0"), std::string::npos) << s.message();
}

} // namespace
