//===- TensorMap.h - Tensor map geometry from manifest and args --*- C++
//-*-===//
//
// The pure half of tensor map creation: what cuTensorMapEncodeTiled will be
// given for one `tensor_map` parameter (dims and box innermost first, byte
// strides of dims 1..rank-1, swizzle, L2 promotion, zero OOB fill, no
// interleave). The driver call itself is encodeTensorMap() in Driver.h.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_TENSORMAP_H
#define WSGEMM_RUNTIME_TENSORMAP_H

#include "ws-gemm-runtime/Args.h"

#include <cuda.h>

#include <array>

namespace wsgemm::runtime {

struct TensorMapSpec {
  std::string operand;
  DType dtype = DType::F16;
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  uint32_t rank = 0;
  CUdeviceptr address = 0;
  std::array<cuuint64_t, 5> globalDim{};     // elements, innermost first
  std::array<cuuint64_t, 4> globalStrides{}; // bytes, dims 1..rank-1
  std::array<cuuint32_t, 5> boxDim{};
  std::array<cuuint32_t, 5> elementStrides{1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  /// CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE fills out-of-bounds elements with 0.
  CUtensorMapFloatOOBfill oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// The tensor map data type for a dtype (fp8 travels as UINT8).
CUtensorMapDataType tensorMapDataType(DType t);

/// Geometry of `param` (a tensor_map) for these arguments. Assumes
/// validate(m, args) passed; a null C whose load is skipped (beta == 0) is
/// described over D's address, which the kernel then never reads.
Expected<TensorMapSpec> computeTensorMapSpec(const Manifest &m,
                                             const Param &param,
                                             const GemmArgs &args);

/// The spec as text, for messages: "f16 at 0x..., dims [1000, 128], strides
/// [2000] bytes, box [64, 32], swizzle 128B".
std::string describeTensorMapSpec(const TensorMapSpec &spec);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_TENSORMAP_H
