//===- Prepack.h - Offline packing of quantized weights ---------*- C++ -*-===//
//
// A mixed-input kernel (`dequant_a`, docs/mixed-input.md) reads its i4 A
// pre-packed so that every consumer thread finds the wgmma A fragment of a
// 64 x 64 block in 16 contiguous bytes. prepackI4 builds that layout from
// plain unsigned 4-bit values, unpackI4 inverts it; dequantizeReference is
// the value the kernel multiplies, for CPU references; checkPackedArgument
// is validate()'s rule for a packed operand. No driver calls here.
//
// Layout `wsgemm.i4.m64k64.v1`: for batch l, row block mb = m / 64 and K
// block kb = k / 64, one 2048-byte unit at ((l * M/64 + mb) * K/64 + kb) *
// 2048. In a unit, element (r, c) (r = m % 64, c = k % 64) belongs to
// thread t = 32 (r / 16) + 4 (r % 8) + (c % 8) / 2 of the warpgroup, k16
// step s = c / 16, fragment register j = 2 (c % 16 >= 8) + (r % 16 >= 8)
// and half h = c % 2: it is the nibble at bit 16 h + 4 j of the 32-bit
// little-endian word at byte t * 16 + s * 4.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_PREPACK_H
#define WSGEMM_RUNTIME_PREPACK_H

#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/DType.h"
#include "ws-gemm-runtime/Status.h"

#include <cstdint>

namespace wsgemm::runtime {

/// The packing's name and version, as manifests spell it.
constexpr const char *kPackingI4 = "wsgemm.i4.m64k64.v1";

/// Bytes of an L x M x K i4 weight, packed (M * K * L / 2).
int64_t packedI4Bytes(int64_t M, int64_t K, int64_t L = 1);

/// Packs `q` (L x M x K values in [0, 15], one per byte, K contiguous)
/// into `packed` (packedI4Bytes bytes). Refuses M or K not a multiple of 64
/// and values above 15, naming them.
Status prepackI4(const uint8_t *q, int64_t M, int64_t K, int64_t L,
                 uint8_t *packed);

/// validate()'s rules for the pre-packed tensor_map param `p` given as `t`:
/// a 16-byte aligned base, no ld or batch stride (the packing is dense), M
/// a multiple of 64 and K of the scale group, each refusal naming it.
Status checkPackedArgument(const Manifest &m, const Param &p,
                           const TensorArg &t, const GemmArgs &args);

/// The inverse of prepackI4.
Status unpackI4(const uint8_t *packed, int64_t M, int64_t K, int64_t L,
                uint8_t *q);

/// The weight a mixed-input kernel multiplies for the 4-bit value `q`, its
/// zero point `zero` (8 for bias8) and scale `scale` (a value of `mma`):
/// (q - zero) * scale rounded once to `mma` (f16 or bf16), nearest even.
double dequantizeReference(DType mma, int q, int zero, double scale);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_PREPACK_H
