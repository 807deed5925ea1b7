//===- Prepack.cpp - Offline packing of quantized weights -----------------===//
//
// Implements Prepack.h. Both packings place an element by the same fragment
// coordinates (thread, k16 step, register, half) and differ only in where
// a unit's fragment bytes go; both directions walk one element -> (byte,
// shift) map per packing, so that a round trip checks it against itself
// and the GPU tests check it against the kernel's fragment layout
// (MixedInput.cpp).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Prepack.h"

#include <algorithm>

namespace wsgemm::runtime {

namespace {
/// Where element (m, k) of batch l lives in the packed buffer.
struct ElementAt {
  int64_t byte;
  int shift;
};

/// Element (m, k) of batch l in wgmma's A fragment layout (Prepack.h).
struct Fragment {
  int64_t unit, thread, step;
  int reg, half;
};

Fragment fragmentOf(int64_t l, int64_t m, int64_t k, int64_t M, int64_t K) {
  int64_t r = m % 64, c = k % 64;
  return {(l * (M / 64) + m / 64) * (K / 64) + k / 64,
          32 * (r / 16) + 4 * (r % 8) + (c % 8) / 2, c / 16,
          2 * int((c % 16) >= 8) + int((r % 16) >= 8), int(c % 2)};
}

/// A packing: its manifest name, bits per element and element map.
struct Packing {
  const char *name;
  int bits;
  ElementAt (*locate)(const Fragment &);
};

const Packing kI4{kPackingI4, 4, [](const Fragment &f) {
                    int bit = 16 * f.half + 4 * f.reg;
                    return ElementAt{f.unit * 2048 + f.thread * 16 +
                                         f.step * 4 + bit / 8,
                                     bit % 8};
                  }};

const Packing kB8{kPackingB8, 8, [](const Fragment &f) {
                    return ElementAt{f.unit * 4096 + (f.step / 2) * 2048 +
                                         f.thread * 16 + (f.step % 2) * 8 +
                                         f.reg * 2 + f.half,
                                     0};
                  }};

Status checkShape(const Packing &pk, int64_t M, int64_t K, int64_t L) {
  if (M <= 0 || M % 64 != 0)
    return errorf("M = ", M, ": a pre-packed weight has a multiple of 64 ",
                  "rows (", pk.name, ")");
  if (K <= 0 || K % 64 != 0)
    return errorf("K = ", K, ": a pre-packed weight has a multiple of 64 ",
                  "columns (", pk.name, ")");
  if (L <= 0)
    return errorf("L = ", L, ": must be positive");
  return Status::success();
}

int64_t packedBytes(const Packing &pk, int64_t M, int64_t K, int64_t L) {
  return M * K * L * pk.bits / 8;
}

Status pack(const Packing &pk, const uint8_t *q, int64_t M, int64_t K,
            int64_t L, uint8_t *packed) {
  WSGEMM_TRY(checkShape(pk, M, K, L));
  const unsigned maxValue = (1u << pk.bits) - 1;
  std::fill_n(packed, packedBytes(pk, M, K, L), uint8_t(0));
  for (int64_t l = 0; l < L; ++l)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) {
        uint8_t v = q[(l * M + m) * K + k];
        if (v > maxValue)
          return errorf("q[", l, "][", m, "][", k, "] = ", int(v),
                        ": an i4 value is in [0, 15]");
        ElementAt at = pk.locate(fragmentOf(l, m, k, M, K));
        packed[at.byte] |= uint8_t(v << at.shift);
      }
  return Status::success();
}

Status unpack(const Packing &pk, const uint8_t *packed, int64_t M, int64_t K,
              int64_t L, uint8_t *q) {
  WSGEMM_TRY(checkShape(pk, M, K, L));
  const unsigned maxValue = (1u << pk.bits) - 1;
  for (int64_t l = 0; l < L; ++l)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) {
        ElementAt at = pk.locate(fragmentOf(l, m, k, M, K));
        q[(l * M + m) * K + k] = (packed[at.byte] >> at.shift) & maxValue;
      }
  return Status::success();
}
} // namespace

int64_t packedI4Bytes(int64_t M, int64_t K, int64_t L) {
  return packedBytes(kI4, M, K, L);
}

int64_t packedB8Bytes(int64_t M, int64_t K, int64_t L) {
  return packedBytes(kB8, M, K, L);
}

Status prepackI4(const uint8_t *q, int64_t M, int64_t K, int64_t L,
                 uint8_t *packed) {
  return pack(kI4, q, M, K, L, packed);
}

Status unpackI4(const uint8_t *packed, int64_t M, int64_t K, int64_t L,
                uint8_t *q) {
  return unpack(kI4, packed, M, K, L, q);
}

Status prepackB8(const uint8_t *q, int64_t M, int64_t K, int64_t L,
                 uint8_t *packed) {
  return pack(kB8, q, M, K, L, packed);
}

Status unpackB8(const uint8_t *packed, int64_t M, int64_t K, int64_t L,
                uint8_t *q) {
  return unpack(kB8, packed, M, K, L, q);
}

Status checkPackedArgument(const Manifest &m, const Param &p,
                           const TensorArg &t, const GemmArgs &args) {
  const std::string &name = p.operand;
  if (t.ptr % 16 != 0)
    return errorf(name, ": base address ", uint64_t(t.ptr),
                  " is not 16-byte aligned (TMA requirement)");
  if (t.ld != 0 || t.batchStride != 0)
    return errorf(name, ": a pre-packed weight (", p.packing,
                  ") is dense: pass ld = 0 and batch stride 0, got ", t.ld,
                  " and ", t.batchStride);
  if (args.M % 64 != 0)
    return errorf("M = ", args.M, ": the pre-packed ", name,
                  " needs M a multiple of 64 (", p.packing, ")");
  if (args.K % 64 != 0)
    return errorf("K = ", args.K, ": the pre-packed ", name,
                  " needs K a multiple of 64 (", p.packing, ")");
  // Group 0 is one scale per row: no rule on K beyond the packing's.
  const auto &dq = m.operand(name).dequant;
  if (dq && dq->group > 0 && args.K % dq->group != 0)
    return errorf("K = ", args.K, ": the pre-packed ", name,
                  " needs K a multiple of its scale group ", dq->group, " (",
                  p.packing, ")");
  return Status::success();
}

double dequantizeReference(DType mma, DType a, uint8_t bits, int zero,
                           double scale, ScaleApplied applied) {
  // v - zero is exact in double (a small integer or an e4m3 value), and so
  // is its product with a 16-bit scale (at most 8 + 11 significant bits):
  // roundTo rounds it once; a scale the kernel applies to the accumulator
  // is not rounded into the weight at all.
  double w = (decode(a, bits) - zero) * scale;
  return applied == ScaleApplied::Accumulator ? w : roundTo(mma, w);
}

} // namespace wsgemm::runtime
