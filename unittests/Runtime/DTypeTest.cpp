//===- DTypeTest.cpp - Host conversions and rounding modes ----------------===//
//
// Known bit patterns for each format, round-to-nearest-even ties, the
// directed modes, subnormals, overflow (inf for IEEE types, saturation for
// fp8) and NaN.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/DType.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace wsgemm::runtime;

namespace {

TEST(DType, NamesAndSizes) {
  EXPECT_EQ(parseDType("f16"), DType::F16);
  EXPECT_EQ(parseDType("BF16"), DType::BF16);
  EXPECT_EQ(parseDType("f8E4M3FN"), DType::F8E4M3);
  EXPECT_EQ(parseDType("f8e5m2"), DType::F8E5M2);
  EXPECT_FALSE(parseDType("f64").has_value());
  EXPECT_EQ(dtypeSize(DType::F16), 2u);
  EXPECT_EQ(dtypeSize(DType::F32), 4u);
  EXPECT_EQ(dtypeSize(DType::F8E4M3), 1u);
  EXPECT_EQ(dtypeUnitRoundoff(DType::F16), std::ldexp(1.0, -11));
  EXPECT_EQ(dtypeUnitRoundoff(DType::BF16), std::ldexp(1.0, -8));
  EXPECT_STREQ(dtypeName(DType::F8E4M3), "f8e4m3");
  EXPECT_EQ(parseRounding("rz"), Rounding::RZ);
  EXPECT_FALSE(parseRounding("rna").has_value());
}

TEST(DType, F16KnownValues) {
  EXPECT_EQ(encodeF16(1.0), 0x3C00);
  EXPECT_EQ(encodeF16(-2.0), 0xC000);
  EXPECT_EQ(encodeF16(0.5), 0x3800);
  EXPECT_EQ(encodeF16(65504.0), 0x7BFF);
  EXPECT_EQ(encodeF16(0.0), 0x0000);
  EXPECT_EQ(encodeF16(-0.0), 0x8000);
  EXPECT_EQ(encodeF16(std::ldexp(1.0, -24)), 0x0001); // min subnormal
  EXPECT_EQ(encodeF16(std::ldexp(1.0, -14)), 0x0400); // min normal
  EXPECT_EQ(encodeF16(INFINITY), 0x7C00);
  EXPECT_EQ(encodeF16(NAN) & 0x7C00, 0x7C00);
  EXPECT_NE(encodeF16(NAN) & 0x03FF, 0);
  EXPECT_EQ(decodeF16(0x3555), 0.333251953125);
  EXPECT_EQ(decodeF16(0x0001), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isinf(decodeF16(0xFC00)));
  EXPECT_TRUE(std::isnan(decodeF16(0xFFFF))); // the poison pattern
}

TEST(DType, F16RoundToNearestEven) {
  const double ulp = std::ldexp(1.0, -10); // at 1.0
  // Exactly halfway between 1 and 1 + ulp: ties to even (1.0).
  EXPECT_EQ(encodeF16(1.0 + ulp / 2), 0x3C00);
  // Halfway between 1 + ulp (odd) and 1 + 2ulp: ties to even (1 + 2ulp).
  EXPECT_EQ(encodeF16(1.0 + 1.5 * ulp), 0x3C02);
  // Just above halfway rounds up.
  EXPECT_EQ(encodeF16(1.0 + ulp / 2 + 1e-12), 0x3C01);
  // Overflow: 65520 is halfway to 2^16, ties to even -> inf.
  EXPECT_EQ(encodeF16(65519.0), 0x7BFF);
  EXPECT_EQ(encodeF16(65520.0), 0x7C00);
  // Subnormal halfway: 1.5 * 2^-24 ties to 2 * 2^-24.
  EXPECT_EQ(encodeF16(1.5 * std::ldexp(1.0, -24)), 0x0002);
  EXPECT_EQ(encodeF16(0.5 * std::ldexp(1.0, -24)), 0x0000);
  // No double rounding through f32: this value rounds differently if it is
  // first rounded to f32 (to 1 + ulp/2 exactly) and then to f16.
  double x = 1.0 + ulp / 2 + std::ldexp(1.0, -30);
  EXPECT_EQ(encodeF16(x), 0x3C01);
}

TEST(DType, F16DirectedRounding) {
  const double ulp = std::ldexp(1.0, -10);
  double x = 1.0 + ulp / 4;
  EXPECT_EQ(encodeF16(x, Rounding::RN), 0x3C00);
  EXPECT_EQ(encodeF16(x, Rounding::RZ), 0x3C00);
  EXPECT_EQ(encodeF16(x, Rounding::RM), 0x3C00);
  EXPECT_EQ(encodeF16(x, Rounding::RP), 0x3C01);
  EXPECT_EQ(encodeF16(-x, Rounding::RZ), 0xBC00);
  EXPECT_EQ(encodeF16(-x, Rounding::RM), 0xBC01);
  EXPECT_EQ(encodeF16(-x, Rounding::RP), 0xBC00);
  // Overflow under directed modes stops at max finite where it should.
  EXPECT_EQ(encodeF16(1e6, Rounding::RZ), 0x7BFF);
  EXPECT_EQ(encodeF16(1e6, Rounding::RM), 0x7BFF);
  EXPECT_EQ(encodeF16(1e6, Rounding::RP), 0x7C00);
  EXPECT_EQ(encodeF16(-1e6, Rounding::RM), 0xFC00);
  EXPECT_EQ(encodeF16(-1e6, Rounding::RP), 0xFBFF);
}

TEST(DType, BF16) {
  EXPECT_EQ(encodeBF16(1.0), 0x3F80);
  EXPECT_EQ(encodeBF16(-1.5), 0xBFC0);
  EXPECT_EQ(decodeBF16(0x4049), 3.140625);
  const double ulp = std::ldexp(1.0, -7);
  EXPECT_EQ(encodeBF16(1.0 + ulp / 2), 0x3F80);   // tie -> even
  EXPECT_EQ(encodeBF16(1.0 + 1.5 * ulp), 0x3F82); // tie -> even
  EXPECT_EQ(encodeBF16(1.0 + ulp / 2, Rounding::RP), 0x3F81);
  EXPECT_EQ(encodeBF16(3.0e38), 0x7F62);
  EXPECT_EQ(encodeBF16(3.4e38), 0x7F80); // rounds past max: inf
  EXPECT_TRUE(std::isnan(decodeBF16(0xFFFF)));
  // Agrees with truncating an f32 whose low half is zero.
  float f = 2.5f;
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  EXPECT_EQ(encodeBF16(2.5), bits >> 16);
}

TEST(DType, F32) {
  EXPECT_EQ(encode(DType::F32, 1.0), 0x3F800000u);
  double x = 1.0 + std::ldexp(1.0, -24); // tie between 1 and 1 + 2^-23
  EXPECT_EQ(encode(DType::F32, x), 0x3F800000u);
  EXPECT_EQ(encode(DType::F32, x, Rounding::RP), 0x3F800001u);
  EXPECT_EQ(decode(DType::F32, 0x00000001u), std::ldexp(1.0, -149));
  EXPECT_EQ(roundTo(DType::F32, 0.1), static_cast<double>(0.1f));
  EXPECT_TRUE(std::isnan(decode(DType::F32, 0xFFFFFFFFu)));
}

TEST(DType, Fp8) {
  // e4m3fn: bias 7, max 448, no inf, NaN = 0x7F / 0xFF.
  EXPECT_EQ(encode(DType::F8E4M3, 1.0), 0x38u);
  EXPECT_EQ(encode(DType::F8E4M3, 448.0), 0x7Eu);
  EXPECT_EQ(encode(DType::F8E4M3, 1000.0), 0x7Eu); // satfinite
  EXPECT_EQ(encode(DType::F8E4M3, -1000.0), 0xFEu);
  EXPECT_EQ(encode(DType::F8E4M3, INFINITY), 0x7Eu);
  EXPECT_EQ(encode(DType::F8E4M3, NAN), 0x7Fu);
  EXPECT_EQ(decode(DType::F8E4M3, 0x01), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isnan(decode(DType::F8E4M3, 0xFF)));
  EXPECT_EQ(decode(DType::F8E4M3, 0x7E), 448.0);
  EXPECT_EQ(decode(DType::F8E4M3, 0x78), 256.0);   // exponent 1111 is finite
  EXPECT_EQ(encode(DType::F8E4M3, 1.0625), 0x38u); // tie -> even
  EXPECT_EQ(encode(DType::F8E4M3, 1.1875), 0x3Au); // tie -> even (up)
  // e5m2: IEEE-like, max 57344, saturating on encode.
  EXPECT_EQ(encode(DType::F8E5M2, 1.0), 0x3Cu);
  EXPECT_EQ(encode(DType::F8E5M2, 57344.0), 0x7Bu);
  EXPECT_EQ(encode(DType::F8E5M2, 1e6), 0x7Bu);
  EXPECT_TRUE(std::isinf(decode(DType::F8E5M2, 0x7C)));
  EXPECT_TRUE(std::isnan(decode(DType::F8E5M2, 0xFF)));
}

TEST(DType, RoundTripEveryF16) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    double v = decode(DType::F16, b);
    if (std::isnan(v))
      continue;
    EXPECT_EQ(encode(DType::F16, v), b) << std::hex << b;
  }
  for (uint32_t b = 0; b < 0x100; ++b) {
    double v = decode(DType::F8E4M3, b);
    if (!std::isnan(v)) {
      EXPECT_EQ(encode(DType::F8E4M3, v), b) << std::hex << b;
    }
    double w = decode(DType::F8E5M2, b);
    if (!std::isnan(w) && !std::isinf(w)) {
      EXPECT_EQ(encode(DType::F8E5M2, w), b) << std::hex << b;
    }
  }
}

TEST(DType, HostArrays) {
  unsigned char buf[8];
  storeElement(DType::F16, buf, 1, 1.0);
  EXPECT_EQ(loadElement(DType::F16, buf, 1), 1.0);
  storeElement(DType::F8E4M3, buf, 7, -0.5);
  EXPECT_EQ(loadElement(DType::F8E4M3, buf, 7), -0.5);
  storeElement(DType::F32, buf, 1, 0.1);
  EXPECT_EQ(loadElement(DType::F32, buf, 1), static_cast<double>(0.1f));
}

} // namespace
