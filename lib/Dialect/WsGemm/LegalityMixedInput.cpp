//===- LegalityMixedInput.cpp - Rules of a mixed-input GEMM ---------------===//
//
// What a mixed-input GEMM (a quantized A dequantized on load, `dequant_a`;
// docs/mixed-input.md) must satisfy for the lowering in
// lib/Conversion/Collectives/MixedInput.cpp: A is the pre-packed i4, i8 or
// f8e4m3 weight (64 x 64 units), B the f16/bf16 activations, both K-major;
// the consumers dequantize A into registers and issue wgmma's register-A
// form. No IR here.
//
//===----------------------------------------------------------------------===//

#include "LegalityRules.h"

#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"

using namespace mlir::wsgemm::planning;
using namespace mlir::wsgemm::planning::legality;

static bool isInteger(DType type) {
  return type == DType::I4 || type == DType::I8;
}

/// The weight types the lowering dequantizes (one packing each).
static bool isLoweredWeight(DType type) {
  return type == DType::I4 || type == DType::I8 || type == DType::F8E4M3;
}

void mlir::wsgemm::planning::legality::checkMixedInputRules(
    const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  if (isInteger(desc.b)) {
    errors.error() << "B of type " << toString(desc.b)
                   << " is quantized, but only A may be: wgmma takes only A "
                      "from registers, where the consumers dequantize it; "
                      "swap the operands (D^T = B^T A^T) so that the "
                      "quantized weight is A";
    return;
  }
  if (!desc.dequantA) {
    errors.error() << "A of type " << toString(desc.a)
                   << " needs dequant_a #wsgemm.dequant<...>, which says how "
                      "it becomes B's type";
    return;
  }
  const Dequant &dq = *desc.dequantA;
  if (!isLoweredWeight(desc.a)) {
    errors.error() << "dequant_a needs a pre-packed i4, i8 or f8e4m3 A, got "
                   << toString(desc.a) << " A";
    return;
  }
  bool i4 = desc.a == DType::I4;
  if (desc.b != DType::F16 && desc.b != DType::BF16) {
    errors.error() << "a mixed-input GEMM multiplies in B's type, which must "
                      "be f16 or bf16 (wgmma reads A from registers only "
                      "for 16-bit types), got "
                   << toString(desc.b) << " B";
    return;
  }
  if (dq.scale != desc.b)
    errors.error() << "dequant_a scale must be B's type " << toString(desc.b)
                   << " (the dequantizing multiply is one mul.rn."
                   << toString(desc.b) << "x2), got " << toString(dq.scale);
  if (i4 && dq.zero == ZeroPoint::None)
    errors.error() << "i4 A holds unsigned 4-bit values, so dequant_a needs "
                      "zero = ui4 (a zero point per group and row) or bias8 "
                      "(symmetric: 8), got zero = none";
  if (!i4 && dq.zero != ZeroPoint::None)
    errors.error() << "an " << toString(desc.a)
                   << " A is signed and takes zero = none, got zero = "
                   << toString(dq.zero);
  int64_t tileK = c.tile ? (*c.tile)[2] : 64;
  bool groupOk = dq.group == 32 || dq.group == 64 || dq.group == 128 ||
                 (!i4 && dq.group == 0);
  if (!groupOk)
    errors.error() << "dequant_a group = " << dq.group
                   << " is not supported: the lowering takes group = 32, 64 "
                      "or 128 (GPTQ/AWQ's: scales [M, K / group])"
                   << (i4 ? "" : " or 0 (one scale per row, [M])")
                   << " for an " << toString(desc.a) << " A "
                   << "(docs/mixed-input.md)";
  if (tileK != 64 && tileK != 128 && tileK != 256)
    errors.error() << "tile K = " << tileK << " must be 64, 128 or 256 for an "
                   << toString(desc.a)
                   << " A: a k-tile is one, two or four pre-packed units of "
                      "64 rows x 64 K ("
                   << 2048 * packedHalvesPerUnit(desc.a)
                   << " bytes) per 64 rows";
  if (desc.aMajor != OperandMajor::K || desc.bMajor != OperandMajor::K)
    errors.error() << "a mixed-input GEMM needs k_major A and B: the "
                      "pre-packed A is K-major by construction, and B "
                      "(the activations, tokens x K) is read K-major";
  auto cluster = c.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  if (cluster[0] * cluster[1] != 1)
    errors.error() << "cluster = " << listToString(cluster)
                   << " is not supported with dequant_a: the pre-packed A "
                      "is not multicast (use [1, 1, 1])";
  if (isBlockScaled(c) || isPromoted(c))
    errors.error() << "block_scaling and promotion_interval are fp8 knobs; "
                      "a mixed-input GEMM accumulates its 16-bit wgmma in f32";
  if (c.hasCpAsync())
    errors.error() << "load_a / load_b = cp_async is not supported with "
                      "dequant_a: the pre-packed A and B are loaded by TMA";
  if (c.isCpAsyncC())
    errors.error() << "load_c = cp_async is not implemented with dequant_a "
                      "(its C and aux loads are TMA boxes: pass them with "
                      "16-byte aligned rows)";
  if (desc.shape) {
    auto [m, n, k, l] = *desc.shape;
    (void)n;
    (void)l;
    if (m % 64 != 0)
      errors.error() << "M = " << m << " must be a multiple of 64 for an "
                     << toString(desc.a)
                     << " A: the pre-packed weight comes in units of 64 "
                        "rows";
    if (k % 64 != 0)
      errors.error() << "K = " << k << " must be a multiple of 64 for an "
                     << toString(desc.a)
                     << " A: the pre-packed weight comes in units of 64 of K";
    else if (dq.group > 0 && k % dq.group != 0)
      errors.error() << "K = " << k << " must be a multiple of group = "
                     << dq.group << ": every group has its scale";
  }
}
