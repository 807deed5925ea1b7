//===- DType.cpp - Element types and exact host conversions ---------------===//
//
// One generic encoder/decoder for the small IEEE-like formats, parameterised
// by exponent and mantissa widths. Rounding happens once, on the exact double
// value, so f32 -> f16 double-rounding never occurs.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/DType.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

namespace wsgemm::runtime {
namespace {

struct Format {
  int expBits;
  int mantBits;
  bool hasInf;      // all-ones exponent encodes inf/NaN (IEEE style)
  bool saturate;    // encode clamps out-of-range values to +-max finite
  uint32_t nanBits; // canonical positive quiet NaN
  double maxFinite;
};

const Format &format(DType t) {
  static const Format f16{5, 10, true, false, 0x7E00u, 65504.0};
  static const Format bf16{
      8, 7, true, false, 0x7FC0u, std::ldexp(255.0, 120)}; // (2 - 2^-7) * 2^127
  static const Format f32{
      8,     23,          true,
      false, 0x7FC00000u, static_cast<double>(3.4028234663852886e38)};
  static const Format e4m3{4, 3, false, true, 0x7Fu, 448.0};
  static const Format e5m2{5, 2, true, true, 0x7Eu, 57344.0};
  switch (t) {
  case DType::F16:
    return f16;
  case DType::BF16:
    return bf16;
  case DType::F32:
    return f32;
  case DType::F8E4M3:
    return e4m3;
  case DType::F8E5M2:
    return e5m2;
  case DType::I4: // integers: encode and decode handle them apart
  case DType::I8:
    return f32;
  }
  return f32;
}

int bias(const Format &f) { return (1 << (f.expBits - 1)) - 1; }
int totalBits(const Format &f) { return 1 + f.expBits + f.mantBits; }

/// Bit pattern of a value already representable in `f` (finite, >= 0).
uint32_t packExact(const Format &f, double r) {
  if (r == 0.0)
    return 0;
  int emin = 1 - bias(f);
  if (r < std::ldexp(1.0, emin)) {
    double m = std::ldexp(r, f.mantBits - emin);
    return static_cast<uint32_t>(m);
  }
  int e = std::ilogb(r);
  double m = std::ldexp(r, f.mantBits - e) - std::ldexp(1.0, f.mantBits);
  return (static_cast<uint32_t>(e + bias(f)) << f.mantBits) |
         static_cast<uint32_t>(m);
}

} // namespace

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F8E4M3:
    return "f8e4m3";
  case DType::F8E5M2:
    return "f8e5m2";
  case DType::I4:
    return "i4";
  case DType::I8:
    return "i8";
  }
  return "?";
}

std::optional<DType> parseDType(const std::string &name) {
  std::string n = name;
  std::transform(n.begin(), n.end(), n.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (n == "f16")
    return DType::F16;
  if (n == "bf16")
    return DType::BF16;
  if (n == "f32")
    return DType::F32;
  if (n == "f8e4m3" || n == "f8e4m3fn")
    return DType::F8E4M3;
  if (n == "f8e5m2")
    return DType::F8E5M2;
  if (n == "i4")
    return DType::I4;
  if (n == "i8")
    return DType::I8;
  return std::nullopt;
}

size_t dtypeSize(DType t) {
  if (t == DType::I4 || t == DType::I8)
    return 1;
  return static_cast<size_t>(totalBits(format(t)) / 8);
}

int dtypeMantissaBits(DType t) { return format(t).mantBits; }

double dtypeUnitRoundoff(DType t) {
  return std::ldexp(1.0, -(format(t).mantBits + 1));
}

double dtypeMaxFinite(DType t) { return format(t).maxFinite; }

double dtypeMinSubnormal(DType t) {
  const Format &f = format(t);
  return std::ldexp(1.0, 1 - bias(f) - f.mantBits);
}

const char *roundingName(Rounding r) {
  switch (r) {
  case Rounding::RN:
    return "rn";
  case Rounding::RZ:
    return "rz";
  case Rounding::RM:
    return "rm";
  case Rounding::RP:
    return "rp";
  }
  return "?";
}

std::optional<Rounding> parseRounding(const std::string &name) {
  if (name == "rn")
    return Rounding::RN;
  if (name == "rz")
    return Rounding::RZ;
  if (name == "rm")
    return Rounding::RM;
  if (name == "rp")
    return Rounding::RP;
  return std::nullopt;
}

uint32_t encode(DType t, double x, Rounding r) {
  // Integers: the nearest one in range (ties to even), saturated; I8 as
  // its two's complement byte.
  if (t == DType::I4 || t == DType::I8) {
    const double lo = t == DType::I4 ? 0.0 : -128.0,
                 hi = t == DType::I4 ? 15.0 : 127.0;
    if (std::isnan(x))
      return 0u;
    int v = static_cast<int>(std::min(hi, std::max(lo, std::nearbyint(x))));
    return static_cast<uint32_t>(v) & 0xFFu;
  }
  const Format &f = format(t);
  const uint32_t signBit = 1u << (totalBits(f) - 1);
  const bool neg = std::signbit(x);
  const uint32_t sign = neg ? signBit : 0u;
  if (std::isnan(x))
    return sign | f.nanBits;
  double a = std::fabs(x);
  const uint32_t maxBits = packExact(f, f.maxFinite);
  const uint32_t infBits = ((1u << f.expBits) - 1u) << f.mantBits;
  if (std::isinf(a))
    return sign | ((f.hasInf && !f.saturate) ? infBits : maxBits);
  if (a == 0.0)
    return sign;

  // Quantum (ulp) at a's binade, clamped to the subnormal quantum.
  int emin = 1 - bias(f);
  int e = std::max(std::ilogb(a), emin);
  double quantum = std::ldexp(1.0, e - f.mantBits);
  double q = a / quantum; // exact: scaling by a power of two
  double qi = std::floor(q);
  double frac = q - qi;
  bool up = false;
  switch (r) {
  case Rounding::RN:
    up = frac > 0.5 || (frac == 0.5 && std::fmod(qi, 2.0) != 0.0);
    break;
  case Rounding::RZ:
    break;
  case Rounding::RM:
    up = neg && frac > 0.0;
    break;
  case Rounding::RP:
    up = !neg && frac > 0.0;
    break;
  }
  double rounded = (qi + (up ? 1.0 : 0.0)) * quantum;
  if (rounded > f.maxFinite) {
    if (f.saturate || !f.hasInf)
      return sign | maxBits;
    // IEEE overflow: the rounding direction decides between inf and max.
    bool toInf = r == Rounding::RN || (r == Rounding::RM && neg) ||
                 (r == Rounding::RP && !neg);
    return sign | (toInf ? infBits : maxBits);
  }
  return sign | packExact(f, rounded);
}

double decode(DType t, uint32_t bits) {
  if (t == DType::I4)
    return double(bits & 0xFu);
  if (t == DType::I8)
    return double(static_cast<int8_t>(bits & 0xFFu));
  const Format &f = format(t);
  const int total = totalBits(f);
  bits &= total == 32 ? 0xFFFFFFFFu : ((1u << total) - 1u);
  bool neg = (bits >> (total - 1)) & 1u;
  uint32_t field = (bits >> f.mantBits) & ((1u << f.expBits) - 1u);
  uint32_t mant = bits & ((1u << f.mantBits) - 1u);
  double v;
  uint32_t allOnes = (1u << f.expBits) - 1u;
  if (f.hasInf && field == allOnes) {
    v = mant == 0 ? INFINITY : NAN;
  } else if (!f.hasInf && field == allOnes && mant == (1u << f.mantBits) - 1u) {
    v = NAN; // e4m3fn: S.1111.111 is the only NaN
  } else if (field == 0) {
    v = std::ldexp(static_cast<double>(mant), 1 - bias(f) - f.mantBits);
  } else {
    v = std::ldexp(static_cast<double>(mant + (1u << f.mantBits)),
                   static_cast<int>(field) - bias(f) - f.mantBits);
  }
  return neg ? -v : v;
}

double roundTo(DType t, double x, Rounding r) {
  return decode(t, encode(t, x, r));
}

double loadElement(DType t, const void *base, size_t i) {
  const unsigned char *p =
      static_cast<const unsigned char *>(base) + i * dtypeSize(t);
  uint32_t bits = 0;
  switch (dtypeSize(t)) {
  case 1:
    bits = *p;
    break;
  case 2: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    bits = b;
    break;
  }
  default:
    std::memcpy(&bits, p, 4);
    break;
  }
  return decode(t, bits);
}

void storeElement(DType t, void *base, size_t i, double x, Rounding r) {
  unsigned char *p = static_cast<unsigned char *>(base) + i * dtypeSize(t);
  uint32_t bits = encode(t, x, r);
  switch (dtypeSize(t)) {
  case 1:
    *p = static_cast<unsigned char>(bits);
    break;
  case 2: {
    uint16_t b = static_cast<uint16_t>(bits);
    std::memcpy(p, &b, 2);
    break;
  }
  default:
    std::memcpy(p, &bits, 4);
    break;
  }
}

} // namespace wsgemm::runtime
