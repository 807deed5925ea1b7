//===- Prepack.h - Offline packing of quantized weights ---------*- C++ -*-===//
//
// A mixed-input kernel (`dequant_a`, docs/mixed-input.md) reads its
// quantized A pre-packed so that every consumer thread finds the wgmma A
// fragments of a 64 x 64 block in contiguous bytes: 16 for a 4-bit A, 32
// (two 16-byte halves) for an 8-bit one. prepackI4 / prepackB8 build those
// layouts from plain values (one per byte), unpackI4 / unpackB8 invert
// them; dequantizeReference is the value the kernel multiplies, for CPU
// references; checkPackedArgument is validate()'s rule for a packed
// operand. No driver calls here.
//
// Both layouts share the fragment coordinates of element (r, c) of a 64 x
// 64 block (r = m % 64, c = k % 64): thread t = 32 (r / 16) + 4 (r % 8) +
// (c % 8) / 2 of the warpgroup, k16 step s = c / 16, fragment register j =
// 2 (c % 16 >= 8) + (r % 16 >= 8) and half h = c % 2. For batch l, row block
// mb = m / 64 and K block kb = k / 64, the block is the unit number u =
// (l * M/64 + mb) * K/64 + kb.
//
// `wsgemm.i4.m64k64.v1` (i4 values 0..15): 2048-byte units at u * 2048; the
// element is the nibble at bit 16 h + 4 j of the 32-bit little-endian word
// at byte t * 16 + s * 4 of its unit.
//
// `wsgemm.b8.m64k64.v1` (i8 or f8e4m3 bytes): 4096-byte units at u * 4096;
// the element is the byte (s / 2) * 2048 + t * 16 + (s % 2) * 8 + j * 2 + h
// of its unit, so a thread reads steps 0-1 at t * 16 and steps 2-3 at 2048
// + t * 16, each with one conflict-free 16-byte load.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_PREPACK_H
#define WSGEMM_RUNTIME_PREPACK_H

#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/DType.h"
#include "ws-gemm-runtime/Status.h"

#include <cstdint>

namespace wsgemm::runtime {

/// The packings' names and versions, as manifests spell them.
constexpr const char *kPackingI4 = "wsgemm.i4.m64k64.v1";
constexpr const char *kPackingB8 = "wsgemm.b8.m64k64.v1";

/// Bytes of an L x M x K i4 weight, packed (M * K * L / 2).
int64_t packedI4Bytes(int64_t M, int64_t K, int64_t L = 1);
/// Bytes of an L x M x K 8-bit weight, packed (M * K * L).
int64_t packedB8Bytes(int64_t M, int64_t K, int64_t L = 1);

/// Packs `q` (L x M x K values in [0, 15], one per byte, K contiguous)
/// into `packed` (packedI4Bytes bytes). Refuses M or K not a multiple of 64
/// and values above 15, naming them.
Status prepackI4(const uint8_t *q, int64_t M, int64_t K, int64_t L,
                 uint8_t *packed);
/// The inverse of prepackI4.
Status unpackI4(const uint8_t *packed, int64_t M, int64_t K, int64_t L,
                uint8_t *q);

/// Packs `q` (L x M x K bytes, K contiguous: int8 values or f8e4m3 bit
/// patterns, any byte) into `packed` (packedB8Bytes bytes). Refuses M or K
/// not a multiple of 64, naming them.
Status prepackB8(const uint8_t *q, int64_t M, int64_t K, int64_t L,
                 uint8_t *packed);
/// The inverse of prepackB8.
Status unpackB8(const uint8_t *packed, int64_t M, int64_t K, int64_t L,
                uint8_t *q);

/// validate()'s rules for the pre-packed tensor_map param `p` given as `t`
/// (either packing): a 16-byte aligned base, no ld or batch stride (the
/// packing is dense), M and K multiples of 64 and K of the scale group
/// (when it is not 0, one scale per row), each refusal naming it.
Status checkPackedArgument(const Manifest &m, const Param &p,
                           const TensorArg &t, const GemmArgs &args);

/// The weight a mixed-input kernel multiplies for the stored element
/// `bits` of an A of type `a` (i4: the nibble 0..15; i8: the signed byte;
/// f8e4m3: the e4m3fn value of the byte), its zero point `zero` (8 for
/// bias8, 0 for zero = none) and its scale `scale` (a value of `mma`):
/// (v - zero) * scale rounded once to `mma` (f16 or bf16), nearest even,
/// where the kernel scales the weight (ScaleApplied::Weight); where it
/// scales f32 accumulators (ScaleApplied::Accumulator: s * sum((v - z) *
/// b) per row or group, the manifest's operands.A.dequant.scale_applied)
/// the product itself, not rounded.
enum class ScaleApplied { Weight, Accumulator };
double dequantizeReference(DType mma, DType a, uint8_t bits, int zero,
                           double scale,
                           ScaleApplied applied = ScaleApplied::Weight);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_PREPACK_H
