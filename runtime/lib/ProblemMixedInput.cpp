//===- ProblemMixedInput.cpp - Test data of a mixed-input kernel ----------===//
//
// TestProblem's quantized A (docs/mixed-input.md): seeded 4-bit values,
// scales (positive, in [1/16, 1/4], rounded to the scale type) and zero
// points (integers in [0, 15] with zero = ui4, else 8), never all zero.
// The device gets the values pre-packed (prepackI4) and the scales and
// zero points as [L][KB][M] arrays of the scale type; the host copy of A
// is the dequantized weight (dequantizeReference), computed from the
// unpacked values, so that the reference multiplies what the kernel
// should and shares no code with the kernel's packing but the map the
// unit tests check.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Prepack.h"
#include "ws-gemm-runtime/Problem.h"

#include <algorithm>
#include <cmath>

namespace wsgemm::runtime {

Status TestProblem::allocPackedA(const Param &par) {
  const auto &dq = manifest_.operand("A").dequant;
  if (!dq)
    return errorf("A: pre-packed without operands.A.dequant");
  const int64_t M = args_.M, K = args_.K, L = args_.L;
  if (M % 64 != 0 || K % dq->group != 0)
    return errorf("M = ", M, ", K = ", K, ": a pre-packed i4 A needs M a "
                  "multiple of 64 and K a multiple of the group ", dq->group);
  const DType mma = manifest_.operand("B").dtype;
  const size_t n = static_cast<size_t>(M * K * L);
  const int64_t groups = K / dq->group;
  const size_t nScales = static_cast<size_t>(M * groups * L);

  std::vector<double> u;
  fillUniform(u, n, opts_.seed, "A", 0.0, 16.0);
  std::vector<uint8_t> q(n);
  for (size_t i = 0; i < n; ++i)
    q[i] = static_cast<uint8_t>(std::min(15.0, std::floor(u[i])));
  std::vector<double> scales, zeros;
  fillUniform(scales, nScales, opts_.seed, "dequant_scale_a", 1.0 / 16, 0.25);
  for (double &s : scales)
    s = roundTo(dq->scale, s);
  if (dq->zero == "ui4") {
    fillUniform(zeros, nScales, opts_.seed, "dequant_zero_a", 0.0, 16.0);
    for (double &z : zeros)
      z = std::min(15.0, std::floor(z));
  } else {
    zeros.assign(nScales, 8.0);
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
  std::vector<uint8_t> packed(static_cast<size_t>(packedI4Bytes(M, K, L)));
  WSGEMM_TRY(prepackI4(q.data(), M, K, L, packed.data()));
  WSGEMM_TRY(upload(par.operand, packed.data(), packed.size(), DType::I4));
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
  // Scale and zero point of (l, m, k): [L][KB][M], group index k / group.
  for (int64_t l = 0; l < L; ++l)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) {
        size_t s = static_cast<size_t>((l * groups + k / dq->group) * M + m);
        size_t i = static_cast<size_t>((l * M + m) * K + k);
        host.data[static_cast<size_t>(host.geometry.offset(m, k, l))] =
            dequantizeReference(mma, q[i], int(zeros[s]), scales[s]);
      }
  host_.A = std::move(host);
  return Status::success();
}

} // namespace wsgemm::runtime
