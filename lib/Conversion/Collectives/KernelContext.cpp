//===- KernelContext.cpp - What every collective sees ---------------------===//
//
// Implements KernelContext.h: binding a role region's arguments and the
// helpers the collectives build IR with.
//
//===----------------------------------------------------------------------===//

#include "KernelContext.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

KernelContext::KernelContext(ImplicitLocOpBuilder &b, GemmOp op,
                             const PlannedGemm &plan)
    : b(b), op(op), desc(plan.desc), layout(plan.layout) {
  if (plan.desc.config.cluster) {
    clusterM = (*plan.desc.config.cluster)[0];
    clusterN = (*plan.desc.config.cluster)[1];
  }
  MLIRContext *ctx = b.getContext();
  i32Ty = b.getI32Type();
  f32Ty = b.getF32Type();
  sharedPtrTy = LLVM::LLVMPointerType::get(ctx, 3);
  globalPtrTy = LLVM::LLVMPointerType::get(ctx, 1);
}

void KernelContext::enterRole(Block *block) {
  unsigned n = layout.params.size();
  args.assign(block->args_begin(), block->args_begin() + n);
  roleBlock = block;
  descriptors.clear();
  matrices.clear();
  smemBase = block->getArgument(n);
  unsigned next = n + 1;
  // The multistage schedule has no mainloop pipeline (cp.async groups).
  bool multistage =
      desc.config.schedule == planning::KernelSchedule::Multistage;
  mainPipe = multistage ? Value() : block->getArgument(next++);
  epiPipe = layout.hasEpilogueLoads() ? block->getArgument(next++) : Value();
  mmaOrder = epiOrder = Value();
  if (layout.offOrderBarriers >= 0) {
    mmaOrder = block->getArgument(next++);
    epiOrder = block->getArgument(next++);
  }
  copyOutPipe = layout.copyOutByLoad ? block->getArgument(next++) : Value();
  storePipe = block->getArguments().back();
  tid = NVVM::ThreadIdXOp::create(b, i32Ty);
  wgIdx = divu(tid, i32(128));
  tidInWg = remu(tid, i32(128));
  warpInWg = divu(tidInWg, i32(32));
  lane = remu(tid, i32(32));
  ctaRank = ctaM = ctaN = Value();
  if (clusterSize() > 1) {
    ctaRank = remu(NVVM::BlockIdXOp::create(b, i32Ty), i32(clusterSize()));
    // Constants where the cluster has one CTA along a dimension.
    ctaM = clusterM == 1   ? i32(0)
           : clusterN == 1 ? ctaRank
                           : remu(ctaRank, i32(clusterM));
    ctaN = clusterN == 1   ? i32(0)
           : clusterM == 1 ? ctaRank
                           : divu(ctaRank, i32(clusterM));
  }
  sizeM = param("M");
  sizeN = param("N");
  sizeK = param("K");
}

Value KernelContext::i32(int64_t v) {
  return arith::ConstantIntOp::create(b, v, 32);
}
Value KernelContext::i64(int64_t v) {
  return arith::ConstantIntOp::create(b, v, 64);
}
Value KernelContext::f32(double v) {
  return arith::ConstantFloatOp::create(b, b.getF32Type(),
                                        APFloat(static_cast<float>(v)));
}
Value KernelContext::add(Value x, Value y) {
  return arith::AddIOp::create(b, x, y);
}
Value KernelContext::sub(Value x, Value y) {
  return arith::SubIOp::create(b, x, y);
}
Value KernelContext::mul(Value x, Value y) {
  return arith::MulIOp::create(b, x, y);
}
Value KernelContext::divu(Value x, Value y) {
  return arith::DivUIOp::create(b, x, y);
}
Value KernelContext::remu(Value x, Value y) {
  return arith::RemUIOp::create(b, x, y);
}
Value KernelContext::eq(Value x, Value y) {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y);
}
Value KernelContext::ult(Value x, Value y) {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, y);
}
Value KernelContext::select(Value c, Value x, Value y) {
  return arith::SelectOp::create(b, c, x, y);
}
Value KernelContext::andi(Value x, Value y) {
  return arith::AndIOp::create(b, x, y);
}
Value KernelContext::constTrue() {
  return arith::ConstantIntOp::create(b, 1, 1);
}

Value KernelContext::smemAt(Value offset) { return gep(smemBase, offset); }

Value KernelContext::gep(Value base, Value offset) {
  return LLVM::GEPOp::create(b, sharedPtrTy, b.getI8Type(), base,
                             ValueRange{offset});
}

int KernelContext::paramIndex(StringRef name) {
  for (auto [i, p] : llvm::enumerate(layout.params))
    if (p.name == name)
      return i;
  return -1;
}

Value KernelContext::param(StringRef name) {
  int index = paramIndex(name);
  assert(index >= 0 && "unknown kernel parameter");
  return args[index];
}

void KernelContext::ifThen(Value pred, function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, pred, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

void KernelContext::keepRolled(scf::ForOp loop) {
  MLIRContext *ctx = b.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/b.getBoolAttr(true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
      unroll, /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{},
      /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
  // The SCF and CF lowerings carry an LLVM attribute of the loop to its
  // latch branch under its name, where the LLVM dialect's branches take
  // `loop_annotation` as theirs.
  loop->setAttr("loop_annotation", annotation);
}

Value KernelContext::elect() {
  if (isSm8x())
    return eq(lane, i32(0));
  return NVVM::ElectSyncOp::create(b, b.getI1Type(), Value());
}

void KernelContext::namedBarrier(Value id, int64_t threads) {
  NVVM::BarrierOp::create(b, TypeRange{}, id, i32(threads),
                          NVVM::BarrierReductionAttr(), Value());
}

void KernelContext::warpSync() { NVVM::SyncWarpOp::create(b, i32(-1)); }

SmallVector<Value> KernelContext::coords(Value inner, Value outer,
                                         Value batch) {
  SmallVector<Value> c{inner, outer};
  if (desc.batched)
    c.push_back(batch);
  return c;
}

Type KernelContext::typeOf(pl::DType type) {
  return toMlirType(b.getContext(), type);
}

Value KernelContext::tmaDescriptor(StringRef operand) {
  Value &cached = descriptors[operand];
  if (cached)
    return cached;
  const pl::KernelParam *param = nullptr;
  int index = -1;
  for (auto [i, p] : llvm::enumerate(layout.params))
    if (p.kind == pl::KernelParam::Kind::TensorMap && p.operand == operand) {
      param = &p;
      index = i;
    }
  assert(param && "no tensor map for the operand");
  MLIRContext *ctx = b.getContext();
  // A pre-packed operand moves in 8-byte units (KernelLayout.h).
  Type element = param->packing.empty() ? typeOf(param->type)
                                        : Type(b.getI64Type());
  // Blocks of K in one box (k_chunks): the device sees {K block, rows,
  // blocks(, L)} (runtime/lib/TensorMap.cpp).
  SmallVector<int64_t> dims(param->box.begin(), param->box.end());
  if (param->kChunks > 0)
    dims.insert(dims.begin() + 2, param->kChunks);
  auto box = MemRefType::get(
      llvm::to_vector(llvm::reverse(dims)), element,
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  nvgpu::TensorMapSwizzleKind swizzle;
  switch (param->swizzleBytes) {
  case 32:
    swizzle = nvgpu::TensorMapSwizzleKind::SWIZZLE_32B;
    break;
  case 64:
    swizzle = nvgpu::TensorMapSwizzleKind::SWIZZLE_64B;
    break;
  case 128:
    swizzle = nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
    break;
  default:
    assert(param->swizzleBytes == 0 && "TMA swizzles 32, 64 or 128 bytes");
    swizzle = nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE;
  }
  auto type = nvgpu::TensorMapDescriptorType::get(
      ctx, box, swizzle, nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(roleBlock);
  cached =
      UnrealizedConversionCastOp::create(b, type, args[index]).getResult(0);
  return cached;
}

KernelContext::MatrixArg KernelContext::matrixArg(StringRef operand) {
  auto it = matrices.find(operand);
  if (it != matrices.end())
    return it->second;
  int index = -1;
  for (auto [i, p] : llvm::enumerate(layout.params))
    if (p.kind == pl::KernelParam::Kind::Matrix && p.operand == operand)
      index = i;
  assert(index >= 0 && "no direct-store matrix for the operand");
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(roleBlock);
  Type i64Ty = b.getI64Type();
  auto field = [&](int32_t k) -> Value {
    Value ptr = LLVM::GEPOp::create(b, args[index].getType(), i64Ty,
                                    args[index], ArrayRef<LLVM::GEPArg>{k});
    return LLVM::LoadOp::create(b, i64Ty, ptr);
  };
  MatrixArg m;
  m.base = LLVM::IntToPtrOp::create(b, globalPtrTy, field(0));
  m.ld = field(1);
  m.batchStride = field(2);
  matrices[operand] = m;
  return m;
}

void KernelContext::tmaLoad(Value dst, StringRef operand, ArrayRef<Value> crd,
                            Value pipe, Value state, Value multicast) {
  ProducerTmaLoadOp::create(b, tmaDescriptor(operand), crd, dst, pipe, state,
                            multicast);
}

Value KernelContext::stateAt(Value start, Value g) {
  return PipelineStateAdvanceByOp::create(b, start.getType(), start, g);
}

Value KernelContext::stageIndex(Value state) {
  return arith::IndexCastUIOp::create(
      b, i32Ty, PipelineStateIndexOp::create(b, b.getIndexType(), state));
}
