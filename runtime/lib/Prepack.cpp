//===- Prepack.cpp - Offline packing of quantized weights -----------------===//
//
// Implements Prepack.h. Both directions walk the same element -> (byte,
// shift) map, so that a round trip checks it against itself and the GPU
// tests check it against the kernel's fragment layout (MixedInput.cpp).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Prepack.h"

namespace wsgemm::runtime {

namespace {
/// Where element (m, k) of batch l lives in the packed buffer.
struct NibbleAt {
  int64_t byte;
  int shift;
};

NibbleAt locate(int64_t l, int64_t m, int64_t k, int64_t M, int64_t K) {
  int64_t unit = (l * (M / 64) + m / 64) * (K / 64) + k / 64;
  int64_t r = m % 64, c = k % 64;
  int64_t thread = 32 * (r / 16) + 4 * (r % 8) + (c % 8) / 2;
  int64_t step = c / 16;
  int reg = 2 * int((c % 16) >= 8) + int((r % 16) >= 8);
  int bit = 16 * int(c % 2) + 4 * reg;
  return {unit * 2048 + thread * 16 + step * 4 + bit / 8, bit % 8};
}

Status checkShape(int64_t M, int64_t K, int64_t L) {
  if (M <= 0 || M % 64 != 0)
    return errorf("M = ", M, ": a pre-packed i4 weight has a multiple of 64 "
                             "rows (", kPackingI4, ")");
  if (K <= 0 || K % 64 != 0)
    return errorf("K = ", K, ": a pre-packed i4 weight has a multiple of 64 "
                             "columns (", kPackingI4, ")");
  if (L <= 0)
    return errorf("L = ", L, ": must be positive");
  return Status::success();
}
} // namespace

int64_t packedI4Bytes(int64_t M, int64_t K, int64_t L) {
  return M * K * L / 2;
}

Status prepackI4(const uint8_t *q, int64_t M, int64_t K, int64_t L,
                 uint8_t *packed) {
  WSGEMM_TRY(checkShape(M, K, L));
  for (int64_t i = 0; i < packedI4Bytes(M, K, L); ++i)
    packed[i] = 0;
  for (int64_t l = 0; l < L; ++l)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) {
        uint8_t v = q[(l * M + m) * K + k];
        if (v > 15)
          return errorf("q[", l, "][", m, "][", k, "] = ", int(v),
                        ": an i4 value is in [0, 15]");
        NibbleAt at = locate(l, m, k, M, K);
        packed[at.byte] |= uint8_t(v << at.shift);
      }
  return Status::success();
}

Status unpackI4(const uint8_t *packed, int64_t M, int64_t K, int64_t L,
                uint8_t *q) {
  WSGEMM_TRY(checkShape(M, K, L));
  for (int64_t l = 0; l < L; ++l)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) {
        NibbleAt at = locate(l, m, k, M, K);
        q[(l * M + m) * K + k] = (packed[at.byte] >> at.shift) & 0xF;
      }
  return Status::success();
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
  const auto &dq = m.operand(name).dequant;
  int64_t group = dq ? dq->group : 64;
  if (args.M % 64 != 0)
    return errorf("M = ", args.M, ": the pre-packed ", name,
                  " needs M a multiple of 64 (", p.packing, ")");
  if (args.K % group != 0)
    return errorf("K = ", args.K, ": the pre-packed ", name,
                  " needs K a multiple of its scale group ", group);
  return Status::success();
}

double dequantizeReference(DType mma, int q, int zero, double scale) {
  // q - zero is a small integer, exact in f16/bf16; its product with a
  // 16-bit scale is exact in double, so roundTo rounds it once.
  return roundTo(mma, double(q - zero) * scale);
}

} // namespace wsgemm::runtime
