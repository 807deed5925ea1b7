//===- Saturate.h - 128-bit size arithmetic saturated to int64_t -*- C++ -*-===//
//
// Private to the runtime's argument checks (Args.cpp, ArgsGeometry.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_LIB_SATURATE_H
#define WSGEMM_RUNTIME_LIB_SATURATE_H

#include <cstdint>
#include <limits>

namespace wsgemm::runtime::detail {

/// `v`, a product or sum of sizes and strides computed in 128 bits,
/// saturated to int64_t (validate() refuses what saturates; nothing
/// overflows on the way).
inline int64_t saturate(__int128 v) {
  const __int128 hi = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v > hi ? hi : v < -hi ? -hi : v);
}

} // namespace wsgemm::runtime::detail

#endif // WSGEMM_RUNTIME_LIB_SATURATE_H
