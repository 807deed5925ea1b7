//===- KernelBuilder.h - Build a warp-specialized GEMM kernel ---*- C++ -*-===//
//
// Internal interface of the WsGemm-to-NVVM conversion: the resolved kernel
// specification (every knob decided by --wsgemm-plan, plus what the epilogue
// needs) and the function that emits the kernel as an llvm.func at the
// explicit level (warp roles and pipelines of the wsgemm dialect, the rest
// NVVM, LLVM, scf and arith ops).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_WSGEMMTONVVM_KERNELBUILDER_H
#define WSGEMM_LIB_CONVERSION_WSGEMMTONVVM_KERNELBUILDER_H

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>
#include <vector>

namespace mlir::wsgemm::detail {

/// One kernel parameter, in launch order (see docs/manifest.md).
struct KernelParam {
  enum class Kind {
    TensorMap,
    Pointer,
    Scalar,
    ScalarPointer,
    Reduction,
    Size
  };
  Kind kind;
  std::string name;
  /// Tensor maps: the operand ("A", "B", "C", "D"). Sizes: "M", "N", "K", "L".
  std::string operand;
  /// Element type in memory (pointers, tensor maps); f32 for scalars.
  Type elemType;
  /// Tensor maps: dims and box, innermost first; swizzle in bytes (0 = none).
  SmallVector<std::string> dims;
  SmallVector<int64_t> box;
  int64_t swizzleBytes = 0;
  /// Pointers and reductions: the extent, e.g. {"M", "L"}.
  SmallVector<std::string> extent;
  /// Reductions: sum, max, min, absmax.
  std::string reduce;
};

/// An aux matrix the epilogue loads or stores through TMA, with the smem
/// offset of its per-warpgroup subtile ring.
struct AuxStream {
  std::string name;
  Type elemType;
  int64_t offset = 0;
};

/// Everything the kernel builder needs, resolved from a planned wsgemm.gemm.
struct KernelSpec {
  std::string name;
  Type aType, bType, cType, dType; // cType null when the epilogue reads no C.
  bool bKMajor = true;
  bool batched = false;
  int64_t tileM = 128, tileN = 128, tileK = 64;
  int64_t stages = 4;
  int64_t consumerWarpgroups = 2; // 1: warp_specialized, 2: cooperative.
  int64_t epiN = 32;              // epilogue subtile columns.
  int64_t stagesC = 2, stagesD = 2;
  int64_t producerRegs = 0, consumerRegs = 0; // 0: no setmaxnreg.
  /// Persistent: the grid is min(tiles, SMs) and each CTA loops over tiles.
  bool persistent = true;
  /// Tile order: along M (m fastest) or N; heuristic decides at run time
  /// (persistent only; a "tiles" grid needs a fixed order).
  bool rasterAlongM = false, rasterHeuristic = false;
  /// Tile-scheduler swizzle (CUTLASS max_swizzle_size; persistent only):
  /// bands of this many tiles across the raster direction walk it together.
  int64_t tileSwizzle = 1;
  /// ReuseSmemC: D is staged in the C buffers (needs C). DelayTmaStore: the
  /// TMA store of subtile t is issued after subtile t + 1's R2S.
  bool reuseSmemC = false, delayTmaStore = false;
  /// Derived layout of dynamic shared memory (bytes from a 1024-aligned base).
  int64_t offA = 0, offB = 0, offC = 0, offD = 0, offBars = 0, smemBytes = 0;

  /// Aux matrices: loaded with C (one stage of the epilogue-load pipeline),
  /// stored with D (one bulk group per subtile).
  std::vector<AuxStream> auxLoads, auxStores;

  int64_t wgRows() const { return tileM / consumerWarpgroups; }
  bool hasEpiLoads() const { return cType || !auxLoads.empty(); }
  /// Slots of the D (and aux store) ring: the C ring when D reuses it.
  int64_t storeRing() const { return reuseSmemC ? stagesC : stagesD; }
  int64_t threads() const { return 128 * (1 + consumerWarpgroups); }
  int64_t bytesA() const;
  int64_t bytesB() const;
  int64_t subtileBytes(Type t) const;
  /// The TMA swizzle (bytes; 0 = none) of a 64 x epiN subtile of `t` in
  /// shared memory (C, D and aux buffers): the row's bytes when they are 32,
  /// 64 or 128, so that the eight rows one stmatrix or one warp-wide load
  /// touches fall in distinct banks.
  int64_t subtileSwizzle(Type t) const;
};

/// Decides the spec of `op` (which --wsgemm-plan has completed) and the
/// parameter list; fails with a diagnostic on what this lowering cannot do.
FailureOr<KernelSpec> resolveKernelSpec(GemmOp op,
                                        std::vector<KernelParam> &params);

/// Emits the kernel for `spec` as an llvm.func named spec.name at the
/// builder's insertion point (a gpu.module body), parameters in the order of
/// `params`.
LogicalResult buildKernel(OpBuilder &builder, GemmOp op, const KernelSpec &spec,
                          ArrayRef<KernelParam> params);

} // namespace mlir::wsgemm::detail

#endif // WSGEMM_LIB_CONVERSION_WSGEMMTONVVM_KERNELBUILDER_H
