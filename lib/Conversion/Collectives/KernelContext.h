//===- KernelContext.h - What every collective sees -------------*- C++ -*-===//
//
// The state the collectives (tile scheduler, mainloop, epilogue) share while
// the kernel schedule emits one warp-role region: the builder, the planned
// gemm (its GemmDesc and KernelLayout, read from --wsgemm-plan), the kernel
// parameters and pipelines as the role region sees them, the thread indices,
// and small helpers for integer arithmetic, shared-memory addresses, TMA
// descriptors and pipeline states. It holds no policy: which roles exist and
// what each does is the schedule's (KernelSchedule.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_KERNELCONTEXT_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_KERNELCONTEXT_H

#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::wsgemm::collectives {

class KernelContext {
public:
  KernelContext(ImplicitLocOpBuilder &b, GemmOp op, const PlannedGemm &plan);

  ImplicitLocOpBuilder &b;
  /// The gemm being lowered (its epilogue region is the EVT).
  GemmOp op;
  const planning::GemmDesc &desc;
  const planning::KernelLayout &layout;
  /// An sm_80/86/89 kernel (cp.async + mma.sync; no TMA, wgmma, clusters,
  /// elect.sync or setmaxnreg).
  bool isSm8x() const { return planning::isSm8x(desc.chip); }

  /// Binds the role region `block`, whose arguments are the kernel
  /// parameters in layout.params order, the SMEM base, and the pipelines
  /// (mainloop, epilogue loads when the kernel has them, pingpong's order
  /// barriers, the copy-out pipeline, TMA stores); computes
  /// the thread indices and problem sizes at the builder's insertion point.
  void enterRole(Block *block);

  // The role's view of the kernel.
  SmallVector<Value> args;
  Block *roleBlock = nullptr;
  Value smemBase;
  Value mainPipe, epiPipe, storePipe; // epiPipe null without epilogue loads
  /// copy_out = load (sm_8x): the consumers' staged output subtiles, one
  /// stage per store-ring slot, mma -> load; null without it.
  Value copyOutPipe;
  /// Pingpong: the order barriers of the consumer warpgroups' mainloops and
  /// epilogues (null in other schedules).
  Value mmaOrder, epiOrder;
  Value tid, wgIdx, tidInWg, warpInWg, lane;
  /// The cluster: clusterM x clusterN CTAs (1 x 1 without one), launched as
  /// clusterSize() consecutive CTAs along grid x; ctaRank is this CTA's
  /// rank in it and (ctaM, ctaN) = (rank % clusterM, rank / clusterM) its
  /// place in the cluster's clusterM x clusterN group of tiles (i32; null
  /// without a cluster). The CTAs of one ctaM share A tiles, those of one
  /// ctaN share B tiles.
  int64_t clusterM = 1, clusterN = 1;
  int64_t clusterSize() const { return clusterM * clusterN; }
  /// The CTAs whose multicasts fill a stage of this CTA: its cluster row
  /// and column, clusterM + clusterN - 1 of them (itself once).
  int64_t stageSources() const { return clusterM + clusterN - 1; }
  Value ctaRank, ctaM, ctaN;
  Value sizeM, sizeN, sizeK;

  // Types.
  Type i32Ty, f32Ty, sharedPtrTy, globalPtrTy;

  // Integer and float constants, arithmetic.
  Value i32(int64_t v);
  Value i64(int64_t v);
  Value f32(double v);
  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value divu(Value x, Value y);
  Value remu(Value x, Value y);
  Value eq(Value x, Value y);
  Value ult(Value x, Value y);
  Value select(Value c, Value x, Value y);
  Value andi(Value x, Value y);
  Value constTrue();

  /// Shared memory: the byte `offset` from the aligned base, or from `base`.
  Value smem(int64_t offset) { return smemAt(i32(offset)); }
  Value smemAt(Value offset);
  Value gep(Value base, Value offset);

  /// Kernel parameters by name.
  Value param(StringRef name);
  int paramIndex(StringRef name);

  /// Runs `body` under `pred` in the current control flow.
  void ifThen(Value pred, function_ref<void()> body);
  /// Marks `loop` for LLVM as not to be unrolled (llvm.loop.unroll.disable;
  /// NVPTX then emits `.pragma "nounroll"` for ptxas too): a loop whose
  /// copies would only grow the kernel and its ptxas time.
  void keepRolled(scf::ForOp loop);
  /// One thread of the warp: elect.sync on sm_90, lane 0 on sm_8x.
  Value elect();
  void namedBarrier(Value id, int64_t threads);
  /// bar.warp.sync over the whole warp: orders the warp's shared-memory
  /// accesses before and after it.
  void warpSync();

  /// TMA coordinates (inner, outer[, batch]).
  SmallVector<Value> coords(Value inner, Value outer, Value batch);
  /// The tensor map of `operand` as the TMA descriptor it is: its box
  /// (outermost first), swizzle, the L2 promotion and out-of-bounds fill
  /// the runtime encodes (docs/manifest.md). One cast per role, at its entry.
  Value tmaDescriptor(StringRef operand);
  /// TMA load of `operand`'s box at `crd` into `dst`, completing on the
  /// full barrier of `pipe`'s stage at `state`.
  /// With `multicast` (an i16 mask of cluster ranks) the box lands in every
  /// CTA of the mask.
  void tmaLoad(Value dst, StringRef operand, ArrayRef<Value> crd, Value pipe,
               Value state, Value multicast = Value());

  /// An output matrix of `store = direct`: its global base and its row and
  /// batch strides in elements (i64), read from the by-value parameter
  /// {address, ld, batch stride} once per role, at its entry.
  struct MatrixArg {
    Value base, ld, batchStride;
  };
  MatrixArg matrixArg(StringRef operand);

  /// The pipeline state `g` uses after `start`, and its stage index (i32).
  Value stateAt(Value start, Value g);
  Value stageIndex(Value state);

  /// The MLIR type of an element type of the plan.
  Type typeOf(planning::DType type);

private:
  llvm::StringMap<Value> descriptors;
  llvm::StringMap<MatrixArg> matrices;
};

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_KERNELCONTEXT_H
