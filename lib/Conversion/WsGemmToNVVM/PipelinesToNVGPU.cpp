//===- PipelinesToNVGPU.cpp - Pipelines to mbarriers, TMA, bulk groups ----===//
//
// Step 2 of --wsgemm-lower-pipelines, as conversion patterns with a 1:N
// type conversion:
//   !wsgemm.pipeline<N, ..>     -> !nvgpu.mbarrier.group of 2N barriers:
//                                  full barrier i at i, empty at N + i
//   !wsgemm.pipeline_state<N>   -> (index: i32, phase: i32, count: i32)
//   !wsgemm.store_pipeline<N>   -> nothing (bulk async-groups are per-thread
//                                  hardware state)
// and the ops to nvgpu.mbarrier.init/arrive/arrive.expect_tx/
// try_wait.parity, nvgpu.tma.async.load/store, and NVVM where nvgpu has no
// op (mbarrier.expect_tx, cp.async.bulk commit/wait groups). In a gpu.module
// for sm_8x, waits spin on mbarrier.test_wait.parity (sm_80 has no
// try_wait) and the barrier inits go without fence.mbarrier_init. Shared memory
// the kernel addresses with !llvm.ptr<3> (barrier storage, TMA buffers) is
// given to nvgpu as a memref descriptor cast to the memref type;
// convert-nvgpu-to-nvvm and reconcile-unrealized-casts fold the casts away.
//
//===----------------------------------------------------------------------===//

#include "MBarriers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::detail;

namespace {

/// Index, phase and count of a lowered pipeline state.
struct LoweredState {
  Value index, phase, count;
  explicit LoweredState(ValueRange v) : index(v[0]), phase(v[1]), count(v[2]) {
    assert(v.size() == 3 && "a pipeline state lowers to three values");
  }
};

/// The lowering's view of a pipeline: a group of 2 * N mbarriers, the
/// full barrier of stage i at i and its empty barrier at N + i.
/// The group slot of stage `index`'s full (empty) barrier.
Value fullSlot(OpBuilder &b, Location loc, Value index) {
  return toIndex(b, loc, index);
}
Value emptySlot(OpBuilder &b, Location loc, Value index, int64_t stages) {
  return toIndex(
      b, loc, arith::AddIOp::create(b, loc, index, constI32(b, loc, stages)));
}

/// Base class of the patterns: access to the creator information.
template <typename Op> struct PipelinePattern : OpConversionPattern<Op> {
  PipelinePattern(const TypeConverter &converter, MLIRContext *ctx,
                  const PipelineInfoMap &infos,
                  const LLVMTypeConverter &llvmConverter)
      : OpConversionPattern<Op>(converter, ctx), infos(infos),
        llvmConverter(llvmConverter) {}
  const PipelineInfo &info(Operation *op) const {
    auto it = infos.find(op);
    assert(it != infos.end() && "pipeline users are checked before");
    return it->second;
  }
  /// What nvgpu's TMA ops take: the shared-memory buffer at `ptr` as a
  /// memref of the descriptor's box, and the 32-bit coordinates as indices.
  std::pair<Value, SmallVector<Value>>
  tmaOperands(OpBuilder &b, Location loc, Type descriptor, Value ptr,
              ArrayRef<ValueRange> coordinates) const {
    MemRefType box =
        cast<nvgpu::TensorMapDescriptorType>(descriptor).getTensor();
    Value buffer = sharedBufferAs(b, loc, llvmConverter, box, ptr);
    SmallVector<Value> indices;
    for (ValueRange c : coordinates)
      indices.push_back(
          arith::IndexCastOp::create(b, loc, b.getIndexType(), c.front()));
    return {buffer, indices};
  }
  const PipelineInfoMap &infos;
  /// Builds memref descriptors of shared-memory buffers.
  const LLVMTypeConverter &llvmConverter;
};

struct LowerPipelineCreate : PipelinePattern<PipelineCreateOp> {
  using PipelinePattern::PipelinePattern;

  LogicalResult
  matchAndRewrite(PipelineCreateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t stages = op.getType().getStages();
    Value group = createBarrierGroup(
        rewriter, loc, llvmConverter, 2 * stages,
        op.getBarriers() ? adaptor.getBarriers().front() : Value());
    // Full barrier s expects the producer's arrival, empty barrier s the
    // consumers' (interleaved, stage by stage).
    int64_t arrivals = op.getConsumerArrivalsAttr().getInt();
    int64_t producers = op.getProducerArrivals().value_or(1);
    SmallVector<std::pair<int64_t, int64_t>> slotCounts;
    for (int64_t s = 0; s < stages; ++s)
      slotCounts.append({{s, producers}, {stages + s, arrivals}});
    initBarriersOnce(rewriter, loc, group, slotCounts);
    rewriter.replaceOp(op, group);
    return success();
  }
};

struct LowerStorePipelineCreate : OpConversionPattern<StorePipelineCreateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StorePipelineCreateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {ValueRange{}});
    return success();
  }
};

struct LowerStateInit : OpConversionPattern<PipelineStateInitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PipelineStateInitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // CUTLASS: a producer starts at phase 1 (the buffers start empty).
    int64_t phase = op.getAgent() == PipelineAgent::producer ? 1 : 0;
    Value zero = constI32(rewriter, loc, 0);
    rewriter.replaceOpWithMultiple(
        op, {ValueRange{zero, constI32(rewriter, loc, phase), zero}});
    return success();
  }
};

/// index + amount wrapped into [0, N), the phase flipped once per wrap (a
/// run-time amount).
SmallVector<Value> advanceState(OpBuilder &b, Location loc, LoweredState s,
                                Value amount, int64_t stages) {
  Value n = constI32(b, loc, stages);
  Value sum = arith::AddIOp::create(b, loc, s.index, amount);
  Value index = arith::RemUIOp::create(b, loc, sum, n);
  Value wraps = arith::DivUIOp::create(b, loc, sum, n);
  Value flip = arith::AndIOp::create(b, loc, wraps, constI32(b, loc, 1));
  Value phase = arith::XOrIOp::create(b, loc, s.phase, flip);
  Value count = arith::AddIOp::create(b, loc, s.count, amount);
  return {index, phase, count};
}

/// A static advance needs no division: with n = q * N + r, the index
/// wraps at most once more (a compare and a select) and the phase flips
/// q + wrap times.
struct LowerStateAdvance : OpConversionPattern<PipelineStateAdvanceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PipelineStateAdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoweredState s(adaptor.getState());
    int64_t stages = op.getType().getStages();
    int64_t by = op.getByAttr().getInt();
    Value sum = arith::AddIOp::create(rewriter, loc, s.index,
                                      constI32(rewriter, loc, by % stages));
    Value wrap = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                       sum, constI32(rewriter, loc, stages));
    Value index = arith::SelectOp::create(
        rewriter, loc, wrap,
        arith::SubIOp::create(rewriter, loc, sum,
                              constI32(rewriter, loc, stages)),
        sum);
    Value flip = arith::XOrIOp::create(
        rewriter, loc,
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), wrap),
        constI32(rewriter, loc, (by / stages) & 1));
    Value phase = arith::XOrIOp::create(rewriter, loc, s.phase, flip);
    Value count = arith::AddIOp::create(rewriter, loc, s.count,
                                        constI32(rewriter, loc, by));
    rewriter.replaceOpWithMultiple(op, {ValueRange{index, phase, count}});
    return success();
  }
};

struct LowerStateAdvanceBy : OpConversionPattern<PipelineStateAdvanceByOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PipelineStateAdvanceByOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(
        op,
        {advanceState(rewriter, op.getLoc(), LoweredState(adaptor.getState()),
                      adaptor.getAmount().front(), op.getType().getStages())});
    return success();
  }
};

template <typename Op> struct LowerStateAccessor : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<Op>::OneToNOpAdaptor;

  LogicalResult
  matchAndRewrite(Op op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweredState s(adaptor.getState());
    Location loc = op.getLoc();
    Value v;
    if constexpr (std::is_same_v<Op, PipelineStatePhaseOp>)
      v = arith::TruncIOp::create(rewriter, loc, rewriter.getI1Type(), s.phase);
    else
      v = arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getIndexType(),
          std::is_same_v<Op, PipelineStateIndexOp> ? s.index : s.count);
    rewriter.replaceOp(op, v);
    return success();
  }
};

// sm_8x waits spin on mbarrier.test_wait, a shared-memory access that
// competes with the consumers' ldmatrix and the producers' cp.async for
// the MIO pipe; a nanosleep between tries (producers 128 ns, consumers
// 32 ns) ran the sm_80 kernels up to 4% faster on the H100 than spinning,
// the cooperative one within 1% (docs/perf-notes.md, "The sm_80
// producer's copies").
constexpr int64_t kSm8xProducerBackoffNs = 128;
constexpr int64_t kSm8xConsumerBackoffNs = 32;

struct LowerProducerAcquire : PipelinePattern<ProducerAcquireOp> {
  using PipelinePattern::PipelinePattern;

  LogicalResult
  matchAndRewrite(ProducerAcquireOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const PipelineInfo &pi = info(op);
    Location loc = op.getLoc();
    Value group = adaptor.getPipeline().front();
    LoweredState s(adaptor.getState());
    waitParity(rewriter, loc, group,
               emptySlot(rewriter, loc, s.index, pi.stages), s.phase,
               targetsSm8x(op), kSm8xProducerBackoffNs);
    // A cp.async producer's threads only wait: they arrive as their copies
    // land (producer_commit), a TMA operand's bytes come by expect_tx.
    if (pi.txBytes > 0 && !op.getCpAsync())
      nvgpu::MBarrierArriveExpectTxOp::create(
          rewriter, loc, group, constIndex(rewriter, loc, pi.txBytes),
          fullSlot(rewriter, loc, s.index), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The shared-memory address of stage `index`'s full barrier, for NVVM ops
/// nvgpu has no counterpart of.
Value fullBarrierAddress(OpBuilder &b, Location loc, Value group, Value index) {
  Value addr = nvgpu::MBarrierGetOp::create(b, loc, b.getI64Type(), group,
                                            fullSlot(b, loc, index));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), addr);
}

struct LowerProducerCommit : PipelinePattern<ProducerCommitOp> {
  using PipelinePattern::PipelinePattern;

  LogicalResult
  matchAndRewrite(ProducerCommitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getCpAsync() || op.getStores()) {
      Location loc = op.getLoc();
      LoweredState s(adaptor.getState());
      Value full = fullBarrierAddress(rewriter, loc,
                                      adaptor.getPipeline().front(), s.index);
      // The arrival counts when this thread's copies land (.noinc: the
      // full barrier's count includes it); with st.shared writes too, the
      // counting form, then a release arrival after a proxy fence (wgmma
      // reads the stage through the async proxy).
      if (op.getCpAsync())
        NVVM::CpAsyncMBarrierArriveOp::create(rewriter, loc, full,
                                              /*noinc=*/!op.getStores());
      if (op.getStores()) {
        NVVM::FenceProxyOp::create(
            rewriter, loc, NVVM::ProxyKind::async_shared,
            NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                       NVVM::SharedSpace::shared_cta));
        NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), full, Value());
      }
      rewriter.eraseOp(op);
      return success();
    }
    // A TMA producer arrived in acquire; its transactions fill the stage.
    if (info(op).txBytes == 0) {
      Location loc = op.getLoc();
      LoweredState s(adaptor.getState());
      nvgpu::MBarrierArriveOp::create(
          rewriter, loc, nvgpu::MBarrierTokenType::get(rewriter.getContext()),
          adaptor.getPipeline().front(), fullSlot(rewriter, loc, s.index));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerProducerGetBarrier : OpConversionPattern<ProducerGetBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ProducerGetBarrierOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweredState s(adaptor.getState());
    rewriter.replaceOp(op, fullBarrierAddress(rewriter, op.getLoc(),
                                              adaptor.getPipeline().front(),
                                              s.index));
    return success();
  }
};

/// nvgpu has arrive.expect_tx only; a bare expect_tx is an NVVM op.
struct LowerProducerExpectTx : OpConversionPattern<ProducerExpectTxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ProducerExpectTxOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoweredState s(adaptor.getState());
    NVVM::MBarrierExpectTxOp::create(
        rewriter, loc,
        fullBarrierAddress(rewriter, loc, adaptor.getPipeline().front(),
                           s.index),
        adaptor.getBytes().front(),
        NVVM::MemScopeKindAttr::get(rewriter.getContext(),
                                    NVVM::MemScopeKind::CTA));
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerProducerTmaLoad : PipelinePattern<ProducerTmaLoadOp> {
  using PipelinePattern::PipelinePattern;

  LogicalResult
  matchAndRewrite(ProducerTmaLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoweredState s(adaptor.getState());
    auto [dst, coords] =
        tmaOperands(rewriter, loc, op.getTensorMap().getType(),
                    adaptor.getDst().front(), adaptor.getCoordinates());
    nvgpu::TmaAsyncLoadOp::create(rewriter, loc, dst,
                                  adaptor.getPipeline().front(),
                                  adaptor.getTensorMap().front(), coords,
                                  fullSlot(rewriter, loc, s.index),
                                  op.getMulticast()
                                      ? adaptor.getMulticast().front()
                                      : Value(),
                                  /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerConsumerWait : OpConversionPattern<ConsumerWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConsumerWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoweredState s(adaptor.getState());
    waitParity(rewriter, loc, adaptor.getPipeline().front(),
               fullSlot(rewriter, loc, s.index), s.phase, targetsSm8x(op),
               kSm8xConsumerBackoffNs);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerConsumerRelease : PipelinePattern<ConsumerReleaseOp> {
  using PipelinePattern::PipelinePattern;

  LogicalResult
  matchAndRewrite(ConsumerReleaseOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoweredState s(adaptor.getState());
    Value group = adaptor.getPipeline().front();
    Value slot = emptySlot(rewriter, loc, s.index, info(op).stages);
    if (op.getPred()) {
      // A predicated arrival, no branch (ConsumerReleaseOp's description).
      Value addr = nvgpu::MBarrierGetOp::create(
          rewriter, loc, rewriter.getI64Type(), group, slot);
      Value pred = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(),
                                        adaptor.getPred().front());
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange{}, ValueRange{addr, pred},
          "{ .reg .pred p; setp.ne.b32 p, $1, 0; "
          "@p mbarrier.arrive.shared::cta.b64 _, [$0]; }",
          "l,r,~{memory}", /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
          /*operand_attrs=*/ArrayAttr());
      rewriter.eraseOp(op);
      return success();
    }
    if (!op.getCta()) {
      nvgpu::MBarrierArriveOp::create(
          rewriter, loc, nvgpu::MBarrierTokenType::get(rewriter.getContext()),
          group, slot);
      rewriter.eraseOp(op);
      return success();
    }
    // The same barrier in CTA `cta` of the cluster: its shared::cluster
    // address, arrived on with release.cta semantics (CUTLASS's
    // ClusterBarrier::arrive(cta_id)). The release orders this CTA's own
    // reads of the stage (wgmma, already waited) before the arrival; the
    // peer's TMA overwrites that stage only after observing it. A
    // release.cluster here made every 2x1 kernel run at ~0.47x its 1x1
    // twin on an H100 (its SASS is a MEMBAR.ALL.GPU per arrival; measured
    // in docs/perf-notes.md).
    MLIRContext *ctx = rewriter.getContext();
    Value addr =
        nvgpu::MBarrierGetOp::create(rewriter, loc, rewriter.getI64Type(),
                                     group, slot);
    Value local = LLVM::IntToPtrOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(ctx, 3), addr);
    Value remote = NVVM::MapaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(ctx, 7), local,
        adaptor.getCta().front());
    NVVM::MBarrierArriveOp::create(
        rewriter, loc, Type(), remote, Value(),
        NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA),
        rewriter.getBoolAttr(false));
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerStoreTma : PipelinePattern<StoreTmaOp> {
  using PipelinePattern::PipelinePattern;

  LogicalResult
  matchAndRewrite(StoreTmaOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (std::optional<epi::StoreReduceKind> reduce = op.getReduce()) {
      // nvgpu has no reducing store: the NVVM op, on the descriptor as the
      // generic pointer nvgpu lowers it to (reconciled with that lowering's
      // cast) and the staged box's shared-memory address.
      NVVM::TMAReduxKind kind = NVVM::TMAReduxKind::ADD;
      if (*reduce == epi::StoreReduceKind::min)
        kind = NVVM::TMAReduxKind::MIN;
      else if (*reduce == epi::StoreReduceKind::max)
        kind = NVVM::TMAReduxKind::MAX;
      Value desc =
          UnrealizedConversionCastOp::create(
              rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
              adaptor.getTensorMap().front())
              .getResult(0);
      SmallVector<Value> coords;
      for (ValueRange c : adaptor.getCoordinates())
        coords.push_back(c.front());
      NVVM::CpAsyncBulkTensorReduceOp::create(
          rewriter, loc, desc, adaptor.getSrc().front(),
          NVVM::TMAReduxKindAttr::get(rewriter.getContext(), kind),
          NVVM::TMAStoreModeAttr::get(rewriter.getContext(),
                                      NVVM::TMAStoreMode::TILE),
          coords, /*l2CacheHint=*/Value());
      rewriter.eraseOp(op);
      return success();
    }
    auto [src, coords] =
        tmaOperands(rewriter, loc, op.getTensorMap().getType(),
                    adaptor.getSrc().front(), adaptor.getCoordinates());
    nvgpu::TmaAsyncStoreOp::create(rewriter, loc, src,
                                   adaptor.getTensorMap().front(), coords,
                                   /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// cp.async.bulk.wait_group[.read] n.
void waitGroup(OpBuilder &b, Location loc, int64_t pending, bool read) {
  NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(pending),
                                       read ? b.getUnitAttr() : UnitAttr());
}

template <typename Op> struct LowerStoreOp : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<Op>::OneToNOpAdaptor;

  LogicalResult
  matchAndRewrite(Op op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t stages = op.getPipeline().getType().getStages();
    if constexpr (std::is_same_v<Op, StoreCommitOp>)
      NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    else if constexpr (std::is_same_v<Op, StoreAcquireOp>)
      waitGroup(rewriter, loc, stages - 1, /*read=*/true);
    else if constexpr (std::is_same_v<Op, StoreWaitOp>)
      waitGroup(rewriter, loc, op.getPendingAttr().getInt(), /*read=*/true);
    else
      waitGroup(rewriter, loc, 0, /*read=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

LogicalResult mlir::wsgemm::collectPipelineInfo(Operation *root,
                                                PipelineInfoMap &infos) {
  WalkResult checked = root->walk([&](Operation *op) -> WalkResult {
    if (!isa<ProducerAcquireOp, ProducerCommitOp, ConsumerReleaseOp>(op))
      return WalkResult::advance();
    Value pipeline = op->getOperand(0);
    PipelineCreateOp create = PipelineCreateOp::lookup(pipeline);
    if (!create) {
      op->emitOpError() << "uses a pipeline that no 'wsgemm.pipeline_create' "
                           "defines; the lowering takes its barriers and "
                           "byte counts from there";
      return WalkResult::interrupt();
    }
    infos[op] = {create.getType().getStages(), create.getTxBytesAttr().getInt(),
                 create.getConsumerArrivalsAttr().getInt()};
    return WalkResult::advance();
  });
  return failure(checked.wasInterrupted());
}

void mlir::wsgemm::populateWsGemmPipelineTypeConversions(
    TypeConverter &converter) {
  converter.addConversion([](PipelineType type) -> Type {
    return barrierGroupType(type.getContext(), 2 * type.getStages());
  });
  converter.addConversion([](OrderBarrierType type) -> Type {
    return barrierGroupType(type.getContext(), type.getGroups());
  });
  converter.addConversion(
      [](StorePipelineType, SmallVectorImpl<Type> &) { return success(); });
  converter.addConversion(
      [](PipelineStateType type, SmallVectorImpl<Type> &results) {
        Type i32 = IntegerType::get(type.getContext(), 32);
        results.append({i32, i32, i32});
        return success();
      });
}

void mlir::wsgemm::populateWsGemmPipelinesToNVGPUConversionPatterns(
    const TypeConverter &converter, const LLVMTypeConverter &llvmConverter,
    const PipelineInfoMap &infos, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *ctx = patterns.getContext();
  target.addIllegalOp<
      PipelineCreateOp, StorePipelineCreateOp, PipelineStateInitOp,
      PipelineStateAdvanceOp, PipelineStateAdvanceByOp, PipelineStateIndexOp,
      PipelineStatePhaseOp, PipelineStateCountOp, ProducerAcquireOp,
      ProducerCommitOp, ProducerGetBarrierOp, ProducerExpectTxOp,
      ProducerTmaLoadOp, StoreTmaOp, ConsumerWaitOp, ConsumerReleaseOp,
      StoreCommitOp, StoreAcquireOp, StoreWaitOp, StoreTailOp>();
  patterns.add<LowerPipelineCreate, LowerProducerAcquire, LowerProducerCommit,
               LowerConsumerRelease, LowerProducerTmaLoad, LowerStoreTma>(
      converter, ctx, infos, llvmConverter);
  patterns
      .add<LowerStorePipelineCreate, LowerStateInit, LowerStateAdvance,
           LowerStateAdvanceBy, LowerStateAccessor<PipelineStateIndexOp>,
           LowerStateAccessor<PipelineStatePhaseOp>,
           LowerStateAccessor<PipelineStateCountOp>, LowerProducerGetBarrier,
           LowerProducerExpectTx, LowerConsumerWait,
           LowerStoreOp<StoreCommitOp>, LowerStoreOp<StoreAcquireOp>,
           LowerStoreOp<StoreWaitOp>, LowerStoreOp<StoreTailOp>>(converter,
                                                                 ctx);
  populateOrderBarrierPatterns(converter, llvmConverter, patterns, target);
}
