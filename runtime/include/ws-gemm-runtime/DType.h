//===- DType.h - Element types, rounding and host conversions ----*- C++
//-*-===//
//
// The element types a manifest can name (f16, bf16, f32, f8e4m3, f8e5m2;
// i4 and i8 for a mixed-input A) and exact host-side conversions between
// them and double:
//   - decode(dtype, bits) is exact (every value is a double);
//   - encode(dtype, x, rounding) rounds a double *once* to the target type with
//     round-to-nearest-even (rn), toward zero (rz), toward -inf (rm) or
//     toward +inf (rp), subnormals included. f16, bf16 and f32 overflow to inf
//     as IEEE does (rz/rm/rp stop at the largest finite value where the
//     direction says so). The fp8 types saturate to +-max finite (448 for
//     e4m3, 57344 for e5m2) like PTX cvt.*.satfinite, which is what CUTLASS
//     uses; NaN stays NaN (e4m3 has no inf).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_DTYPE_H
#define WSGEMM_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace wsgemm::runtime {

/// I4 and I8: a mixed-input kernel's pre-packed quantized A (Prepack.h).
/// I4's elements are the integers 0..15, two per byte in its packing; I8's
/// the signed bytes -128..127 (two's complement). Element access here takes
/// one per byte for both.
enum class DType { F16, BF16, F32, F8E4M3, F8E5M2, I4, I8 };

enum class Rounding { RN, RZ, RM, RP };

/// Manifest spelling: "f16", "bf16", "f32", "f8e4m3", "f8e5m2", "i4", "i8".
const char *dtypeName(DType t);
/// Parses a manifest dtype. Accepts the canonical names and MLIR's spellings
/// (f8E4M3FN, f8E5M2), case-insensitively.
std::optional<DType> parseDType(const std::string &name);
/// Bytes per element.
size_t dtypeSize(DType t);
/// Explicit mantissa bits (10 for f16, 7 for bf16, 23 for f32, 3, 2).
int dtypeMantissaBits(DType t);
/// Unit roundoff: half an ulp of 1.0 (2^-11 for f16).
double dtypeUnitRoundoff(DType t);
/// Largest finite value.
double dtypeMaxFinite(DType t);
/// Smallest positive (subnormal) value: the spacing of the values below
/// the smallest normal one (2^-9 for e4m3, 2^-16 for e5m2, 2^-24 for f16).
double dtypeMinSubnormal(DType t);

/// "rn", "rz", "rm", "rp".
const char *roundingName(Rounding r);
std::optional<Rounding> parseRounding(const std::string &name);

/// Rounds x to the nearest value of `t` per `r` and returns its bit pattern
/// in the low dtypeSize(t) bytes.
uint32_t encode(DType t, double x, Rounding r = Rounding::RN);
/// The exact value of a bit pattern.
double decode(DType t, uint32_t bits);
/// decode(t, encode(t, x, r)): x rounded to t, as a double.
double roundTo(DType t, double x, Rounding r = Rounding::RN);

/// Shorthands used by tests and tools.
inline uint16_t encodeF16(double x, Rounding r = Rounding::RN) {
  return static_cast<uint16_t>(encode(DType::F16, x, r));
}
inline uint16_t encodeBF16(double x, Rounding r = Rounding::RN) {
  return static_cast<uint16_t>(encode(DType::BF16, x, r));
}
inline double decodeF16(uint16_t b) { return decode(DType::F16, b); }
inline double decodeBF16(uint16_t b) { return decode(DType::BF16, b); }

/// Reads / writes element i of a packed host array of dtype t.
double loadElement(DType t, const void *base, size_t i);
void storeElement(DType t, void *base, size_t i, double x,
                  Rounding r = Rounding::RN);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_DTYPE_H
