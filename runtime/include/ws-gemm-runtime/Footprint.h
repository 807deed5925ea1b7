//===- Footprint.h - Memory a test problem needs, before any of it -*- C++ -*-===//
//
// What TestProblem::create (Problem.h) will allocate on the device for a
// manifest's kernel and a problem size, and what ws-gemm-run keeps on the
// host (inputs staged as bytes and decoded to double, outputs downloaded
// and decoded, the reference's packed f32 copies of A and B), computed
// from the manifest and the arguments alone, so that a problem that cannot
// fit is refused at once, with the bytes needed and available, instead of
// after minutes of filling host buffers:
//   problem needs 80000128768 bytes of device memory (D 80000000256, ...),
//   more than the 84987740160 bytes free of 85029158912
// Sizes are computed in 128-bit arithmetic: any M, N, K, L validate()
// accepts gives an exact count.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_FOOTPRINT_H
#define WSGEMM_RUNTIME_FOOTPRINT_H

#include "ws-gemm-runtime/Args.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wsgemm::runtime {

struct ProblemFootprint {
  /// Device bytes, guards and 256-byte rounding included.
  uint64_t deviceBytes = 0;
  /// Host bytes ws-gemm-run holds at its peak (see the file comment).
  uint64_t hostBytes = 0;
  /// Device bytes per buffer (matrix operand or parameter name), largest
  /// first.
  std::vector<std::pair<std::string, uint64_t>> buffers;
  /// "D 80000000256, C 80000000256, A 25600256" (the first `count`).
  std::string describe(size_t count = 3) const;
};

/// The footprint of a TestProblem for `args` (sizes and leading dimensions;
/// pointers are ignored) with `guardBytes` of poison after every buffer.
/// Fails when a size overflows 64 bits.
Expected<ProblemFootprint> problemFootprint(const Manifest &m,
                                            const GemmArgs &args,
                                            uint64_t guardBytes = 256);

/// Refuses a footprint larger than the device's free memory (cuMemGetInfo)
/// or the host's available memory (0: unknown, not checked), naming both.
Status checkFootprint(const ProblemFootprint &f, uint64_t deviceFree,
                      uint64_t deviceTotal, uint64_t hostAvailable);

/// MemAvailable from /proc/meminfo in bytes (0 when unknown).
uint64_t hostAvailableBytes();

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_FOOTPRINT_H
