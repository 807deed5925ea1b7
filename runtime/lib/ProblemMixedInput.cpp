//===- ProblemMixedInput.cpp - Test data of a mixed-input kernel ----------===//
//
// TestProblem's quantized A (docs/mixed-input.md), seeded, never all zero:
//   - i4: values in [0, 15], scales in [1/16, 1/4] and zero points
//     (integers in [0, 15] with zero = ui4, else 8);
//   - i8: values in [-128, 127], scales in [1/512, 1/64], so that |w| stays
//     below 2 as with 4 bits;
//   - f8e4m3: uniform values in [-4, 4] rounded to e4m3 (never a NaN
//     byte), scales in [1/16, 1/4];
// scales positive and rounded to the scale type. The device gets the values
// pre-packed (prepackI4, prepackB8) and the scales and zero points as
// [L][K / group][M] arrays of the scale type, group 32, 64 or 128 (the
// extent's KG or KB), or [L][M] for group 0, one per row;
// the host copy of A is the dequantized weight (dequantizeReference;
// with one scale per row not rounded to the MMA type: the kernel scales
// its f32 accumulator),
// computed from the unpacked values, so that the reference multiplies what
// the kernel should and shares no code with the kernel's packing but the
// map the unit tests check.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Prepack.h"
#include "ws-gemm-runtime/Problem.h"

#include <algorithm>
#include <cmath>

namespace wsgemm::runtime {

namespace {
/// The seeded test data of a quantized A type: values uniform in [lo, hi)
/// (integers: rounded down), scales uniform in [scaleLo, scaleHi].
struct QuantizedRange {
  double lo, hi, scaleLo, scaleHi;
};

QuantizedRange quantizedRange(DType a) {
  switch (a) {
  case DType::I8:
    return {-128.0, 128.0, 1.0 / 512, 1.0 / 64};
  case DType::F8E4M3:
    return {-4.0, 4.0, 1.0 / 16, 0.25};
  default: // i4
    return {0.0, 16.0, 1.0 / 16, 0.25};
  }
}
} // namespace

Status TestProblem::allocPackedA(const Param &par) {
  const auto &dq = manifest_.operand("A").dequant;
  if (!dq)
    return errorf("A: pre-packed without operands.A.dequant");
  const int64_t M = args_.M, K = args_.K, L = args_.L;
  if (M % 64 != 0 || K % 64 != 0 || (dq->group > 0 && K % dq->group != 0))
    return errorf("M = ", M, ", K = ", K, ": a pre-packed A needs M and K ",
                  "multiples of 64 and K a multiple of the group ", dq->group,
                  " (", par.packing, ")");
  const DType mma = manifest_.operand("B").dtype, a = par.dtype;
  const bool i4 = par.packing == kPackingI4;
  const size_t n = static_cast<size_t>(M * K * L);
  const int64_t groups = dq->groups(K);
  const size_t nScales = static_cast<size_t>(M * groups * L);

  // The stored bytes: nibbles, two's complement bytes or e4m3 bit patterns
  // (encode saturates, so no NaN).
  const QuantizedRange range = quantizedRange(a);
  std::vector<double> u;
  fillUniform(u, n, opts_.seed, "A", range.lo, range.hi);
  std::vector<uint8_t> q(n);
  for (size_t i = 0; i < n; ++i)
    q[i] = static_cast<uint8_t>(
        encode(a, a == DType::F8E4M3 ? u[i] : std::floor(u[i])));
  std::vector<double> scales, zeros;
  fillUniform(scales, nScales, opts_.seed, "dequant_scale_a", range.scaleLo,
              range.scaleHi);
  for (double &s : scales)
    s = roundTo(dq->scale, s);
  if (dq->zero == "ui4") {
    fillUniform(zeros, nScales, opts_.seed, "dequant_zero_a", 0.0, 16.0);
    for (double &z : zeros)
      z = std::min(15.0, std::floor(z));
  } else {
    zeros.assign(nScales, dq->zero == "bias8" ? 8.0 : 0.0);
  }

  // The device copies: packed values, scales, zero points.
  auto upload = [&](const std::string &name, const void *data, size_t bytes,
                    DType dtype) -> Status {
    Buffer buf;
    buf.dtype = dtype;
    buf.dataBytes = bytes;
    std::vector<unsigned char> all((bytes + opts_.guardBytes + 255) / 256 *
                                       256,
                                   0xFF);
    std::copy_n(static_cast<const unsigned char *>(data), bytes, all.data());
    auto mem = DeviceBuffer::alloc(all.size(), name);
    if (!mem)
      return mem.status();
    buf.mem = std::move(*mem);
    WSGEMM_TRY(buf.mem.upload(all.data(), all.size()));
    tensorArgFor(name, args_) = TensorArg{buf.mem.ptr(), dtype, 0, 0};
    buffers_[name] = std::move(buf);
    return Status::success();
  };
  std::vector<uint8_t> packed(static_cast<size_t>(i4 ? packedI4Bytes(M, K, L)
                                                     : packedB8Bytes(M, K, L)));
  WSGEMM_TRY((i4 ? prepackI4 : prepackB8)(q.data(), M, K, L, packed.data()));
  WSGEMM_TRY(upload(par.operand, packed.data(), packed.size(), a));
  for (const char *name : {"dequant_scale_a", "dequant_zero_a"}) {
    if (!manifest_.findParam(name))
      continue;
    const std::vector<double> &v = name[8] == 's' ? scales : zeros;
    std::vector<unsigned char> bytes(nScales * dtypeSize(dq->scale));
    for (size_t i = 0; i < nScales; ++i)
      storeElement(dq->scale, bytes.data(), i, v[i]);
    WSGEMM_TRY(upload(name, bytes.data(), bytes.size(), dq->scale));
    host_.vectors[name] = v;
  }

  if (!opts_.keepHost)
    return Status::success();
  HostMatrix host;
  host.geometry = matrixGeometry(manifest_, "A", args_);
  host.data.resize(n);
  // Scale and zero point of (l, m, k): [L][groups][M], group index k /
  // group (0 for one scale per row).
  for (int64_t l = 0; l < L; ++l)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) {
        int64_t g = dq->group > 0 ? k / dq->group : 0;
        size_t s = static_cast<size_t>((l * groups + g) * M + m);
        size_t i = static_cast<size_t>((l * M + m) * K + k);
        host.data[static_cast<size_t>(host.geometry.offset(m, k, l))] =
            dequantizeReference(mma, a, q[i], int(zeros[s]), scales[s],
                                dq->onAccumulator
                                    ? ScaleApplied::Accumulator
                                    : ScaleApplied::Weight);
      }
  host_.A = std::move(host);
  return Status::success();
}

} // namespace wsgemm::runtime
