//===- TensorMap.cpp - Tensor map geometry (no driver calls) --------------===//
//
// dims/box come from the manifest in its order (innermost first); extents
// are the problem sizes, strides follow MatrixGeometry (row stride for dim 1,
// batch stride for L).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/TensorMap.h"

#include "ws-gemm-runtime/Prepack.h"

#include <cinttypes>
#include <cstdio>

namespace wsgemm::runtime {

CUtensorMapDataType tensorMapDataType(DType t) {
  switch (t) {
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::I8:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case DType::I4: // pre-packed: moved in 8-byte units (computeTensorMapSpec)
    return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

static CUtensorMapSwizzle toCu(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  case Swizzle::B32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case Swizzle::B64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case Swizzle::B128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

static CUtensorMapL2promotion toCu(L2Promotion p) {
  switch (p) {
  case L2Promotion::None:
    return CU_TENSOR_MAP_L2_PROMOTION_NONE;
  case L2Promotion::B64:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  case L2Promotion::B128:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  case L2Promotion::B256:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  }
  return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}

Expected<TensorMapSpec> computeTensorMapSpec(const Manifest &m, const Param &p,
                                             const GemmArgs &args) {
  if (p.kind != ParamKind::TensorMap)
    return errorf(p.name, ": not a tensor_map parameter");
  TensorMapSpec s;
  s.operand = p.operand;
  s.dtype = p.dtype;
  s.dataType = tensorMapDataType(p.dtype);
  s.rank = static_cast<uint32_t>(p.dims.size());
  s.swizzle = toCu(p.swizzle);
  s.l2Promotion = toCu(p.l2Promotion);

  const TensorArg *t = tensorArgFor(p.operand, args);
  s.address = t ? t->ptr : 0;
  // A skipped C is never read: its map is encoded over D's address, rounded
  // down to 16 bytes (D stored directly need only be element-aligned), with
  // strides rounded up to 16 bytes (a direct-store kernel's N may be odd).
  const bool skipped =
      s.address == 0 && p.operand == "C" && sourceSkipped(m, args);
  if (skipped)
    s.address = args.D.ptr & ~CUdeviceptr(15);
  if (s.address == 0)
    return errorf(p.operand, ": null pointer");

  // A pre-packed A (Prepack.h), whatever its element type, moves as u64:
  // a unit is `halves` consecutive 2048-byte rows of 256 x u64 (one for
  // i4, two for b8, whose unit is 4096 bytes), K / 64 units per 64-row
  // block, M / 64 blocks per batch; the box is tile K / 64 units of tile M
  // / 64 blocks (the manifest's box is the logical tile K x M).
  if (!p.packing.empty()) {
    const uint64_t halves = p.packing == kPackingB8 ? 2 : 1;
    s.dataType = CU_TENSOR_MAP_DATA_TYPE_UINT64;
    s.rank += 1;
    const uint64_t rows = halves * static_cast<uint64_t>(args.K / 64),
                   mBlocks = static_cast<uint64_t>(args.M / 64);
    s.globalDim[0] = 256;
    s.globalDim[1] = rows;
    s.globalDim[2] = mBlocks;
    s.globalStrides[0] = 2048;
    s.globalStrides[1] = 2048 * rows;
    s.boxDim[0] = 256;
    s.boxDim[1] = static_cast<uint32_t>(halves * p.box[0] / 64);
    s.boxDim[2] = p.box[1] / 64;
    if (s.rank == 4) {
      s.globalDim[3] = static_cast<uint64_t>(args.L);
      s.globalStrides[2] = 2048 * rows * mBlocks;
      s.boxDim[3] = 1;
    }
    return s;
  }

  MatrixGeometry g = matrixGeometry(m, p.operand, args);
  const uint64_t es = dtypeSize(p.dtype);
  // Blocks of K in one box (k_chunks; a K-major B): K seen as [box[0], K /
  // box[0]] with the blocks outside the rows, {box[0], rows, blocks(,
  // L)}, strides {ld, box[0] elements(, batch)} bytes: the box's blocks
  // land one after another, each [box[1]][box[0]]. A K not a multiple of
  // box[0] is refused before launch (Args.cpp): its last, partial block
  // would lie past the view's K / box[0] blocks and read as zeros.
  if (p.kChunks > 0) {
    s.rank += 1;
    const uint64_t block = p.box[0];
    s.globalDim[0] = block;
    s.globalDim[1] = static_cast<uint64_t>(args.N);
    s.globalDim[2] = static_cast<uint64_t>(args.K) / block;
    s.globalStrides[0] = static_cast<uint64_t>(g.ld) * es;
    s.globalStrides[1] = block * es;
    s.boxDim[0] = p.box[0];
    s.boxDim[1] = p.box[1];
    s.boxDim[2] = p.kChunks;
    if (s.rank == 4) {
      s.globalDim[3] = static_cast<uint64_t>(args.L);
      s.globalStrides[2] = static_cast<uint64_t>(g.batchStride) * es;
      s.boxDim[3] = 1;
    }
    return s;
  }
  for (uint32_t i = 0; i < s.rank; ++i) {
    s.globalDim[i] = static_cast<cuuint64_t>(dimValue(p.dims[i], args, m));
    s.boxDim[i] = p.box[i];
    if (i == 0)
      continue;
    // Byte stride of dim i: rows for dim 1, batches for L.
    uint64_t stride;
    if (p.dims[i] == Dim::L)
      stride = static_cast<uint64_t>(g.batchStride) * es;
    else if (i == 1)
      stride = static_cast<uint64_t>(g.ld) * es;
    else
      stride = s.globalStrides[i - 2] * s.globalDim[i - 1];
    if (skipped)
      stride = (stride + 15) / 16 * 16;
    s.globalStrides[i - 1] = stride;
  }
  return s;
}

std::string describeTensorMapSpec(const TensorMapSpec &s) {
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%" PRIx64,
                static_cast<uint64_t>(s.address));
  auto list = [&](auto begin, uint32_t n) {
    std::string out = "[";
    for (uint32_t i = 0; i < n; ++i)
      out += (i ? ", " : "") + std::to_string(begin[i]);
    return out + "]";
  };
  static const char *swz[] = {"none", "32B", "64B", "128B"};
  std::string out =
      std::string(dtypeName(s.dtype)) + " at " + addr + ", dims " +
      list(s.globalDim.data(), s.rank) + ", strides " +
      list(s.globalStrides.data(), s.rank ? s.rank - 1 : 0) + " bytes, box " +
      list(s.boxDim.data(), s.rank) + ", swizzle " +
      (s.swizzle <= CU_TENSOR_MAP_SWIZZLE_128B ? swz[s.swizzle] : "other");
  return out;
}

} // namespace wsgemm::runtime
