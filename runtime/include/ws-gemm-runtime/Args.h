//===- Args.h - GEMM arguments and their validation --------------*- C++
//-*-===//
//
// GemmArgs is what a caller fills to launch a manifest's kernel: the problem
// size, device pointers for A, B, C, D and for every named parameter, and the
// values of scalar parameters. validate() checks all of it against the
// manifest before anything is encoded or launched, and names the argument and
// the rule it breaks:
//   D: row stride N * 2 = 2002 bytes is not a multiple of 16 (TMA requirement)
//   bias: null pointer
//   L: the kernel is not batched (manifest batched = false), got L = 4
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_ARGS_H
#define WSGEMM_RUNTIME_ARGS_H

#include "ws-gemm-runtime/Manifest.h"
#include "ws-gemm-runtime/TileOrder.h"

#include <cuda.h>

#include <map>
#include <optional>
#include <string>

namespace wsgemm::runtime {

/// One device buffer argument. For matrices, `ld` is the distance in elements
/// between consecutive rows of the stored matrix (0: packed, i.e. the row
/// length) and `batchStride` the distance between batches (0: packed, i.e.
/// rows * ld). Vectors, reductions and scalar pointers use `ptr` (and
/// `dtype`) only.
struct TensorArg {
  CUdeviceptr ptr = 0;
  /// When set, must equal the dtype the kernel was compiled for.
  std::optional<DType> dtype;
  int64_t ld = 0;
  int64_t batchStride = 0;
};

struct GemmArgs {
  int64_t M = 0, N = 0, K = 0, L = 1;
  TensorArg A, B, C, D;
  /// Aux matrices (by aux name), vectors, reductions and scalar pointers (by
  /// parameter name).
  std::map<std::string, TensorArg> named;
  /// Values of `scalar` parameters, by name.
  std::map<std::string, float> scalars;
  /// Split-K / stream-K kernels (manifest "workspace"): a caller-owned
  /// workspace of `workspaceBytes` (at least what requiredWorkspaceBytes()
  /// says, 16-byte aligned, zeroed before its first launch; every launch
  /// leaves it zeroed). 0: the launch plan allocates and zeroes its own.
  CUdeviceptr workspace = 0;
  uint64_t workspaceBytes = 0;
  /// Stream-K kernels: the count of stream-K tiles (0 = all data-parallel);
  /// unset: the runtime's heuristic (docs/stream-k.md).
  std::optional<int64_t> streamKTiles;
  /// Kernels that take their raster order and swizzle at launch (a
  /// tile_order parameter): this order instead of the runtime's choice
  /// (chooseTileOrder); refused for a kernel whose config fixes them.
  std::optional<TileOrder> tileOrder;
};

/// Value of a problem dimension of kernel `m`: M, N, K and L are the
/// args'; KB = ceil(K / 128), NB = ceil(N / 128); KG = K / m's
/// operands.A.dequant.group. parseManifest allows KG only in the dequant
/// pointers' extents of a kernel whose group is 32 or 64, so every
/// manifest it accepted knows KG's value; there is no form without the
/// manifest, so that no caller can guess it (one given a hand-made manifest
/// without such a group gets 0).
int64_t dimValue(Dim d, const GemmArgs &args, const Manifest &m);

/// How a matrix operand (A, B, C, D or an aux name) is stored: rows x cols
/// with row stride `ld` and batch stride `batchStride`, both in elements and
/// with the defaults of TensorArg applied.
struct MatrixGeometry {
  int64_t rows = 0, cols = 0, ld = 0, batchStride = 0, batches = 1;
  DType dtype = DType::F16;
  Dim rowDim = Dim::M, colDim = Dim::N; // what rows/cols count
  /// Elements spanned from the base: (batches-1)*batchStride +
  /// (rows-1)*ld + cols.
  int64_t spanElements() const;
  /// Offset in elements of element (r, c) of batch l.
  int64_t offset(int64_t r, int64_t c, int64_t l) const {
    return l * batchStride + r * ld + c;
  }
  /// Offset of the element at row m, column n of the M x N matrix it
  /// stores, whichever of M and N is contiguous (a column-major D: colDim
  /// M).
  int64_t offsetMN(int64_t m, int64_t n, int64_t l) const {
    return colDim == Dim::M ? offset(n, m, l) : offset(m, n, l);
  }
};
/// Geometry of `operand` (A, B, C, D or an aux matrix name); an operand not
/// in the manifest yields rows = cols = 0.
MatrixGeometry matrixGeometry(const Manifest &m, const std::string &operand,
                              const GemmArgs &args);

/// Number of elements of a pointer or reduction with this extent of kernel
/// `m` (1 for []): the product of its dims' dimValue.
int64_t extentElements(const std::vector<Dim> &extent, const GemmArgs &args,
                       const Manifest &m);

/// The TensorArg for a tensor_map operand (A..D or args.named[aux]).
const TensorArg *tensorArgFor(const std::string &operand, const GemmArgs &args);
/// The same, to fill: A..D, else args.named[operand] (created).
TensorArg &tensorArgFor(const std::string &operand, GemmArgs &args);

/// Arguments that are never dereferenced, for the checks that run without
/// a device (dry runs, fuzzing): every pointer parameter of `m` a distinct
/// 16-byte-aligned placeholder address (4 GiB apart), strides packed, every
/// scalar parameter 1.0. The problem size is left as it is.
void setPlaceholderArgs(const Manifest &m, GemmArgs &args);

/// True when C may be null: the load_src node's skip_if_zero names a scalar
/// parameter whose value in args is 0 (the kernel then never reads C).
bool sourceSkipped(const Manifest &m, const GemmArgs &args);

/// Checks every argument against the manifest; the first violation fails.
Status validate(const Manifest &m, const GemmArgs &args);

/// Sets the ld of every matrix of `m` in `args` (A, B, C, D, aux) to its
/// row length plus `pad` elements, rounded up to a multiple of
/// `alignBytes` bytes (0: no rounding): the test tools' --pad and
/// --align-ld. Does nothing when both are 0.
void padLeadingDimensions(const Manifest &m, GemmArgs &args, int64_t pad,
                          int64_t alignBytes);

/// Whether an output of `m` (D or an aux store) given in `args` has an
/// address, row or batch stride, or row length that TMA cannot store (not
/// a multiple of 16 bytes), so that only a `store = direct` kernel can
/// write it. Kernel families pick such a variant for it.
bool outputsNeedDirectStore(const Manifest &m, const GemmArgs &args);

/// The alignment in bytes (16, 8, 4, 2 or 1) that `operand` ("A" or "B")
/// of `args` has: the largest that divides its base address, its row
/// stride in bytes and (batched) its batch stride. A TMA kernel needs 16; a
/// cp.async one its align_bytes (Manifest::requiredAlignment). Kernel
/// families pick a variant whose needs it meets.
int64_t operandAlignment(const Manifest &m, const std::string &operand,
                         const GemmArgs &args);
int64_t operandAlignment(const Manifest &m, const std::string &operand,
                         const TensorArg &t, const MatrixGeometry &g);

/// `args` as variant `m` takes them: a workspace, a stream-K tile count and
/// a tile order meant for whichever variant a family picks are dropped for
/// a variant whose tile scheduler takes none (data-parallel; split-K: no
/// tile count; a config that fixes raster and swizzle: no tile order).
GemmArgs argsForVariant(const Manifest &m, const GemmArgs &args);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_ARGS_H
