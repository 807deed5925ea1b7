//===- KernelSchedule.cpp - Compose the collectives into a kernel ---------===//
//
// Implements KernelSchedule.h for the warp_specialized (one consumer
// warpgroup owns a tile), cooperative (two consumer warpgroups split a
// tile's rows) and pingpong (two consumer warpgroups take alternate tiles
// and take turns: one runs its mainloop while the other runs its epilogue)
// schedules, and the sm_8x multistage one (no producer: the mma role's
// warps copy with cp.async groups and bar.sync, MainloopSm80.h). Roles, in
// the order of their warps:
//
//   load (warp 0): one elected thread runs the mainloop's producer over the
//     tiles the tile scheduler gives the CTA; with a cp.async operand
//     (load_a/load_b = cp_async) the producer warpgroup's warps beside the
//     epilogue-load warp (3 or 4) all copy (CpAsyncProducer.cpp).
//   epilogue_load (warp 1, when C or aux matrices are read): one elected
//     thread runs the epilogue's loads over the same tiles (on sm_8x the
//     warp's 32 threads, copying with cp.async).
//   mma (consumer warpgroups): per tile, the mainloop's wgmma loop, then the
//     epilogue of the warpgroup's rows.
//
// Pipelines: the mainloop's (StagesAB; each consumer warpgroup of the tile
// releases a stage), the epilogue loads' (StagesC; one stage holds the
// subtile of every consumer warpgroup of the tile) and the TMA store group.
// The states are carried through the tile loops, so the rings continue
// across tiles. Pingpong adds two order barriers (CUTLASS's
// OrderedSequenceBarrier): the warpgroups' mainloops run in tile order, one
// at a time, and so do their epilogues, which share the epilogue buffers.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedule.h"

#include "CpAsyncProducer.h"
#include "Epilogue.h"
#include "Mainloop.h"
#include "MainloopSm80.h"
#include "TileScheduler.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

/// The kernel's signature: tensor maps by value (__grid_constant__, 64-byte
/// aligned, 128 bytes), directly stored matrices by value ({address, ld,
/// batch stride}, 3 x i64), then pointers, scalars and sizes, in manifest
/// order.
static LLVM::LLVMFuncOp createFunction(ImplicitLocOpBuilder &b, GemmOp op,
                                       const PlannedGemm &plan,
                                       int64_t threads) {
  MLIRContext *ctx = b.getContext();
  Type globalPtr = LLVM::LLVMPointerType::get(ctx, 1);
  SmallVector<Type> argTypes;
  for (const pl::KernelParam &p : plan.layout.params) {
    switch (p.kind) {
    case pl::KernelParam::Kind::TensorMap:
    case pl::KernelParam::Kind::Matrix:
      argTypes.push_back(LLVM::LLVMPointerType::get(ctx));
      break;
    case pl::KernelParam::Kind::Pointer:
    case pl::KernelParam::Kind::ScalarPointer:
    case pl::KernelParam::Kind::Reduction:
    case pl::KernelParam::Kind::Workspace:
      argTypes.push_back(globalPtr);
      break;
    case pl::KernelParam::Kind::Scalar:
      argTypes.push_back(b.getF32Type());
      break;
    case pl::KernelParam::Kind::Size:
    case pl::KernelParam::Kind::StreamKTiles:
    case pl::KernelParam::Kind::TileOrder:
      argTypes.push_back(b.getI32Type());
      break;
    }
  }
  auto fnTy =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  auto func = LLVM::LLVMFuncOp::create(b, op.getSymName(), fnTy);
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  // .minnctapersm: ptxas keeps the registers per thread within the share
  // of the CTAs the kernel is built to keep resident (ctas_per_sm).
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(int32_t(plan.desc.config.getCtasPerSm())));
  // A cluster is launched as consecutive CTAs along x (.reqnctapercluster).
  if (plan.desc.config.cluster) {
    auto [cm, cn, ck] = *plan.desc.config.cluster;
    if (cm * cn * ck > 1)
      func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    b.getDenseI32ArrayAttr({int32_t(cm * cn * ck), 1, 1}));
  }
  for (auto [i, p] : llvm::enumerate(plan.layout.params)) {
    if (p.kind == pl::KernelParam::Kind::Matrix) {
      func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(LLVM::LLVMArrayType::get(b.getI64Type(), 3)));
      func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(8));
      continue;
    }
    if (p.kind != pl::KernelParam::Kind::TensorMap)
      continue;
    func.setArgAttr(
        i, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(64));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    b.getUnitAttr());
  }
  return func;
}

/// Every non-exited thread of the cluster meets here (barrier.cluster
/// arrive with release semantics, then wait with acquire).
static void clusterSync(KernelContext &kc) {
  NVVM::ClusterArriveOp::create(kc.b, /*aligned=*/nullptr);
  NVVM::ClusterWaitOp::create(kc.b, /*aligned=*/nullptr);
}

/// Dynamic shared memory, its base rounded up to 1024 bytes (128B-swizzle
/// atoms); the planned size reserves the round-up.
static Value carveSharedMemory(KernelContext &kc) {
  ImplicitLocOpBuilder &b = kc.b;
  auto global = LLVM::AddressOfOp::create(b, kc.sharedPtrTy, kSmemGlobalName);
  Value raw = LLVM::PtrToIntOp::create(b, kc.i32Ty, global);
  Value aligned = kc.andi(kc.add(raw, kc.i32(1023)), kc.i32(~1023));
  return kc.gep(global, kc.sub(aligned, raw));
}

/// One elected thread of a producer warp walks the CTA's tiles; the state
/// of the pipeline it fills (`stages` deep) is carried through the tile
/// loop, so the ring continues across tiles. `loads` issues one tile's
/// loads from a state and returns the state after them.
/// With `wholeWarp`, every thread of the warp does (cp.async copies).
static void
emitProducerOverTiles(KernelContext &kc, TileScheduler &scheduler,
                      int64_t stages,
                      function_ref<Value(const WorkTile &, Value)> loads,
                      bool wholeWarp = false) {
  auto body = [&] {
    OpBuilder::InsertionGuard guard(kc.b);
    Value start = PipelineStateInitOp::create(
        kc.b, PipelineStateType::get(kc.b.getContext(), stages),
        PipelineAgent::producer);
    WorkTile tile;
    scf::ForOp tiles = scheduler.createTileLoop(ValueRange{start}, tile);
    scf::YieldOp::create(kc.b,
                         ValueRange{loads(tile, tiles.getRegionIterArgs()[0])});
  };
  if (wholeWarp)
    body();
  else
    kc.ifThen(kc.elect(), body);
}

/// copy_out = load (sm_8x): the load warps' cp.async producer over the
/// CTA's tiles, which also copies each tile's staged output out: tile i's
/// once tile i + 1's k-tiles are all issued. The ring is full then, so the
/// consumers have `stages` k-tiles of work while the copy runs, and tile
/// i's subtiles were staged long before (with a short K, the load warps
/// wait for them). Copying right after tile i + 1's first `stages` k-tiles
/// instead, when the consumers have just staged them, ran 3% slower at
/// 4096^3 and 2-5% slower at 8192 x 8192 x 1024 (docs/perf-notes.md, "The
/// load warps copy the tile out"). The last tile's copy-out follows the
/// tile loop. The loop carries the previous tile's origin and whether
/// there is one.
static void emitLoadAndCopyOutRole(KernelContext &kc,
                                   TileScheduler &scheduler) {
  assert(!scheduler.hasSplits() && "copy_out = load with split tiles");
  ImplicitLocOpBuilder &b = kc.b;
  Epilogue epilogue(kc);
  Value subtiles = kc.i32(epilogue.getSubtilesPerTile());
  scf::ForOp tiles;
  {
    OpBuilder::InsertionGuard guard(b);
    Value start = PipelineStateInitOp::create(
        b, PipelineStateType::get(b.getContext(), kc.layout.stages),
        PipelineAgent::producer);
    Value zero = kc.i32(0);
    WorkTile tile;
    tiles = scheduler.createTileLoop(
        ValueRange{start, arith::ConstantIntOp::create(b, 0, 1), zero, zero,
                   zero, zero}, tile);
    ValueRange carried = tiles.getRegionIterArgs();
    Value pending = carried[1], copyBase = carried[5];
    WorkTile prev;
    prev.m0 = carried[2];
    prev.n0 = carried[3];
    prev.batch = carried[4];
    Value state = emitCpAsyncMainloopLoads(kc, tile, carried[0]);
    kc.ifThen(pending, [&] { epilogue.emitCopyOut(prev, copyBase); });
    scf::YieldOp::create(
        b, ValueRange{state, kc.constTrue(), tile.m0, tile.n0, tile.batch,
                      kc.add(copyBase, kc.select(pending, subtiles, zero))});
  }
  ValueRange last = tiles.getResults();
  WorkTile prev;
  prev.m0 = last[2];
  prev.n0 = last[3];
  prev.batch = last[4];
  kc.ifThen(last[1], [&] { epilogue.emitCopyOut(prev, last[5]); });
}

/// The load warp: the mainloop's producer over the CTA's tiles. With a
/// cp.async operand every thread of the load warps copies (no election).
static void emitLoadRole(KernelContext &kc) {
  TileScheduler scheduler(kc);
  if (kc.layout.copyOutByLoad) {
    emitLoadAndCopyOutRole(kc, scheduler);
    return;
  }
  // With a cp.async operand, or a mixed-input A's scales, every thread of
  // the load warps copies (no election).
  if (kc.desc.config.hasCpAsync() || kc.desc.isMixedInput()) {
    OpBuilder::InsertionGuard guard(kc.b);
    Value start = PipelineStateInitOp::create(
        kc.b, PipelineStateType::get(kc.b.getContext(), kc.layout.stages),
        PipelineAgent::producer);
    WorkTile tile;
    scf::ForOp tiles = scheduler.createTileLoop(ValueRange{start}, tile);
    Value state = tiles.getRegionIterArgs()[0];
    scf::YieldOp::create(
        kc.b, ValueRange{kc.desc.isMixedInput()
                             ? emitMixedInputLoads(kc, tile, state)
                             : emitCpAsyncMainloopLoads(kc, tile, state)});
    return;
  }
  emitProducerOverTiles(kc, scheduler, kc.layout.stages,
                        [&](const WorkTile &tile, Value state) {
                          return emitMainloopLoads(kc, tile, state);
                        });
}

/// The epilogue-load warp: the epilogue's loads over the CTA's tiles (of a
/// split tile, for its last unit only: the one that runs the epilogue).
static void emitEpilogueLoadRole(KernelContext &kc) {
  TileScheduler scheduler(kc);
  Epilogue epilogue(kc);
  kc.ifThen(epilogue.getLoadsActive(), [&] {
    emitProducerOverTiles(
        kc, scheduler, kc.layout.stagesC,
        [&](const WorkTile &tile, Value state) -> Value {
          if (!scheduler.hasSplits())
            return epilogue.emitLoads(tile, state);
          auto ifOp = scf::IfOp::create(kc.b, state.getType(), tile.last,
                                        /*withElse=*/true);
          OpBuilder::InsertionGuard guard(kc.b);
          kc.b.setInsertionPointToStart(ifOp.thenBlock());
          scf::YieldOp::create(kc.b, epilogue.emitLoads(tile, state));
          kc.b.setInsertionPointToStart(ifOp.elseBlock());
          scf::YieldOp::create(kc.b, state);
          return ifOp.getResult(0);
        },
        /*wholeWarp=*/kc.desc.copiesEpilogueLoads());
  });
}

/// prefetch.tensormap of every TMA descriptor of the kernel by thread 0, as
/// CUTLASS's kernels do at entry: the first TMA of each operand then does
/// not wait for its descriptor's fetch.
static void prefetchTensorMaps(KernelContext &kc) {
  SmallVector<Value> maps;
  for (auto [i, p] : llvm::enumerate(kc.layout.params))
    if (p.kind == pl::KernelParam::Kind::TensorMap)
      maps.push_back(kc.args[i]);
  if (maps.empty())
    return;
  // The generic address of a parameter, read as one (prefetch.param.
  // tensormap).
  kc.ifThen(kc.eq(kc.tid, kc.i32(0)), [&] {
    for (Value map : maps)
      NVVM::PrefetchOp::create(kc.b, /*cacheLevel=*/nullptr,
                               /*evictPriority=*/nullptr, map,
                               /*predicate=*/Value(), /*tensormap=*/true,
                               /*uniform=*/false, /*in_param_space=*/true);
  });
}

/// A consumer warpgroup: per tile, the wgmma loop and the epilogue. The
/// tile loop carries the mainloop's and the epilogue loads' use counts.
/// Multistage (no load warpgroup before it): per tile, the multistage
/// mainloop every thread runs (MainloopSm80.h), then the epilogue.
static void emitMmaRole(KernelContext &kc, bool multistage) {
  Value consumerWg = multistage ? kc.wgIdx : kc.sub(kc.wgIdx, kc.i32(1));
  Value barrierId = kc.add(consumerWg, kc.i32(1));
  TileScheduler scheduler(kc);
  Epilogue epilogue(kc);
  {
    OpBuilder::InsertionGuard guard(kc.b);
    WorkTile tile;
    scf::ForOp tiles =
        scheduler.createTileLoop(ValueRange{kc.i32(0), kc.i32(0)}, tile);
    Value kBase = tiles.getRegionIterArgs()[0];
    Value subBase = tiles.getRegionIterArgs()[1];
    // The tile's bias-like vector elements load under the mainloop.
    epilogue.prefetchVectors(tile, consumerWg);
    // sm_8x: ldmatrix + mma.sync, accumulators in the same layout.
    SmallVector<Value> acc =
        multistage   ? emitMainloopMultistageSm80(kc, tile, consumerWg)
        : kc.isSm8x() ? emitMainloopMmaSm80(kc, tile, consumerWg, kBase)
                      : emitMainloopMma(kc, tile, consumerWg, kBase);
    Value subtiles = kc.i32(epilogue.getSubtilesPerTile());
    if (scheduler.hasSplits()) {
      // A split tile's units sum through the workspace; the last one runs
      // the epilogue, once (and only it takes epilogue-load stages).
      acc = scheduler.emitFixup(tile, consumerWg, barrierId, acc);
      kc.ifThen(tile.last, [&] {
        epilogue.emitTile(tile, consumerWg, barrierId, acc, subBase);
      });
      subtiles = kc.select(tile.last, subtiles, kc.i32(0));
    } else {
      epilogue.emitTile(tile, consumerWg, barrierId, acc, subBase);
    }
    scf::YieldOp::create(kc.b, ValueRange{kc.add(kBase, tile.kTiles),
                                          kc.add(subBase, subtiles)});
  }
  epilogue.emitTail();
}

/// A pingpong consumer warpgroup (0 or 1): the CTA's tiles wg, wg + 2, ...,
/// each whole. Its turn-th tile waits for its mainloop turn (the other
/// warpgroup's previous mainloop has issued its last wgmma; this one hands
/// the turn on once it issued its own), and after the mainloop for its
/// epilogue turn (the other's previous epilogue is done
/// and its TMA stores have read the shared buffers both use). The uses of
/// the mainloop and epilogue-load pipelines skip the other warpgroup's
/// tiles: every tile takes the same number of each.
static void emitPingpongMmaRole(KernelContext &kc) {
  Value wg = kc.sub(kc.wgIdx, kc.i32(1));
  Value barrierId = kc.add(wg, kc.i32(1));
  TileScheduler scheduler(kc);
  Epilogue epilogue(kc);
  Value kTiles = scheduler.getKTiles();
  Value subtiles = kc.i32(epilogue.getSubtilesPerTile());
  {
    OpBuilder::InsertionGuard guard(kc.b);
    WorkTile tile;
    scf::ForOp tiles = scheduler.createTileLoop(
        ValueRange{kc.mul(wg, kTiles), kc.mul(wg, subtiles), kc.i32(0)}, tile,
        wg, /*every=*/2);
    Value kBase = tiles.getRegionIterArgs()[0];
    Value subBase = tiles.getRegionIterArgs()[1];
    Value turn = tiles.getRegionIterArgs()[2];
    epilogue.prefetchVectors(tile, kc.i32(0));
    OrderWaitOp::create(kc.b, kc.mmaOrder, wg, turn);
    SmallVector<Value> acc = emitMainloopMma(kc, tile, kc.i32(0), kBase, [&] {
      OrderArriveOp::create(kc.b, kc.mmaOrder, wg);
    });
    OrderWaitOp::create(kc.b, kc.epiOrder, wg, turn);
    epilogue.emitTile(tile, kc.i32(0), barrierId, acc, subBase);
    epilogue.emitStoresRead();
    OrderArriveOp::create(kc.b, kc.epiOrder, wg);
    scf::YieldOp::create(
        kc.b, ValueRange{kc.add(kBase, kc.mul(kTiles, kc.i32(2))),
                         kc.add(subBase, kc.mul(subtiles, kc.i32(2))),
                         kc.add(turn, kc.i32(1))});
  }
  epilogue.emitTail();
}

LLVM::LLVMFuncOp collectives::buildKernel(OpBuilder &builder, GemmOp op,
                                          const PlannedGemm &plan) {
  ImplicitLocOpBuilder b(op.getLoc(), builder);
  const pl::KernelLayout &layout = plan.layout;
  const pl::GemmConfig &config = plan.desc.config;
  MLIRContext *ctx = b.getContext();
  // The schedule decides the consumer warpgroups of the CTA and of a tile
  // (the layout records the planner's counts of them).
  pl::KernelSchedule schedule =
      config.schedule.value_or(pl::KernelSchedule::Cooperative);
  bool pingpong = schedule == pl::KernelSchedule::Pingpong;
  bool multistage = schedule == pl::KernelSchedule::Multistage;
  int64_t mmaWgs = pl::getNumConsumerWarpgroups(schedule);
  int64_t wgs = pl::getWarpgroupsPerTile(schedule);
  assert(wgs == layout.consumerWarpgroups && mmaWgs == layout.mmaWarpgroups &&
         pingpong == (layout.offOrderBarriers >= 0) &&
         "layout of another schedule");
  LLVM::LLVMFuncOp func =
      createFunction(b, op, plan, pl::getBlockThreads(schedule));
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);

  KernelContext kc(b, op, plan);
  kc.smemBase = carveSharedMemory(kc);
  SmallVector<Value> captures(func.getArguments());
  captures.push_back(kc.smemBase);
  // A stage is released by each consumer warpgroup of the tile, in every
  // CTA whose stage this CTA's multicasts fill: those of its cluster row
  // and column.
  // With a cp.async operand (CpAsyncProducer.h), every thread of the load
  // warps arrives on a full barrier as its copies land; the TMA operand
  // beside them, if any, adds its bytes. Multistage has neither the
  // pipeline nor the load role: its warps copy for themselves.
  SmallVector<Role> roles;
  SmallVector<int32_t> warps;
  if (!multistage) {
    auto mainTy = PipelineType::get(ctx, layout.stages, Role::load, Role::mma);
    // A mixed-input A's scales are copied by the load warp's lanes.
    bool mixedInput = plan.desc.isMixedInput();
    bool cpAsync = config.hasCpAsync() || mixedInput;
    int64_t producerThreads = mixedInput ? kMixedInputProducerThreads
                              : cpAsync  ? getCpAsyncProducerThreads(layout)
                                         : 1;
    int64_t tmaBytes = (config.isCpAsyncA() ? 0 : layout.stageBytesA) +
                       (config.isCpAsyncB() ? 0 : layout.stageBytesB);
    // On sm_8x every consumer thread releases the stage it read with
    // ldmatrix (MainloopSm80.h).
    int64_t releases = kc.isSm8x() ? wgs * 128 : wgs * kc.stageSources();
    captures.push_back(PipelineCreateOp::create(
        b, mainTy, kc.smem(layout.offMainBarriers),
        b.getI64IntegerAttr(tmaBytes), b.getI64IntegerAttr(releases),
        cpAsync ? b.getI64IntegerAttr(producerThreads) : IntegerAttr()));
    roles.push_back(Role::load);
    warps.push_back(int32_t(producerThreads > 1 ? producerThreads / 32 : 1));
  }
  if (layout.hasEpilogueLoads()) {
    // One stage holds the subtile of every consumer warpgroup; each of them
    // releases it. C counts in the static bytes unless a run-time scalar
    // gates it while aux matrices keep the loader running (then the loader
    // announces C's bytes itself).
    int64_t bytes = 0;
    for (const pl::AuxBuffer &aux : layout.auxLoads)
      bytes += layout.subtileBytes(aux.type);
    if (plan.desc.loadsC && (!plan.desc.gatedC || layout.auxLoads.empty()))
      bytes += layout.subtileBytes(plan.desc.c);
    auto epiTy =
        PipelineType::get(ctx, layout.stagesC, Role::epilogue_load, Role::mma);
    // Copied (sm_8x, load_c = cp_async), the subtiles come with the 32
    // threads' arrivals, no transaction bytes; written with st.shared,
    // every consumer thread releases them (GemmDesc::storesEpilogueLoads).
    bool copied = plan.desc.copiesEpilogueLoads();
    captures.push_back(PipelineCreateOp::create(
        b, epiTy, kc.smem(layout.offEpiBarriers),
        b.getI64IntegerAttr(copied ? 0 : wgs * bytes),
        b.getI64IntegerAttr(plan.desc.storesEpilogueLoads() ? wgs * 128 : wgs),
        copied ? b.getI64IntegerAttr(32) : IntegerAttr()));
    roles.push_back(Role::epilogue_load);
    warps.push_back(1);
  }
  if (pingpong) {
    // Mainloop turns, then epilogue turns; every thread of a warpgroup
    // arrives when its turn ends.
    auto orderTy = OrderBarrierType::get(ctx, mmaWgs);
    for (int64_t sequence = 0; sequence < 2; ++sequence)
      captures.push_back(OrderBarrierCreateOp::create(
          b, orderTy, kc.smem(layout.offOrderBarriers + sequence * 8 * mmaWgs),
          b.getI64IntegerAttr(128)));
  }
  if (layout.copyOutByLoad) {
    // copy_out = load: every consumer thread arrives on a slot's full
    // barrier once its part of the subtile is in shared memory; every load
    // thread on its empty barrier once it has copied the slot out.
    auto copyTy =
        PipelineType::get(ctx, layout.storeRing, Role::mma, Role::load);
    captures.push_back(PipelineCreateOp::create(
        b, copyTy, kc.smem(layout.offCopyOutBarriers), b.getI64IntegerAttr(0),
        b.getI64IntegerAttr(getCpAsyncProducerThreads(layout)),
        b.getI64IntegerAttr(128 * wgs)));
  }
  captures.push_back(StorePipelineCreateOp::create(
      b, StorePipelineType::get(ctx, layout.storeRing)));
  roles.push_back(Role::mma);
  warps.push_back(4 * mmaWgs);
  SmallVector<int32_t> regs;
  if (config.producerRegs && config.consumerRegs) {
    regs.assign(roles.size() - 1, *config.producerRegs);
    regs.push_back(*config.consumerRegs);
  }
  auto ws = WarpSpecializeOp::create(b, captures, roles, warps, regs);

  for (auto [i, role] : llvm::enumerate(roles)) {
    OpBuilder::InsertionGuard guard(b);
    Block *block = &ws->getRegion(i).front();
    b.setInsertionPoint(block->getTerminator());
    kc.enterRole(block);
    // The tensor maps are kernel parameters, which no earlier grid writes:
    // the first role's first thread (the CTA's thread 0) brings them into
    // the cache now, ahead of their first TMA, the cluster's first barrier
    // and the grid-dependency wait below.
    if (i == 0)
      prefetchTensorMaps(kc);
    // With a cluster, no CTA's producer multicasts into a peer, and no
    // consumer arrives on a peer's barrier, before every CTA initialized
    // its barriers; none exits while a peer may still do so.
    if (kc.clusterSize() > 1)
      clusterSync(kc);
    // Programmatic dependent launch (sm_90): a kernel launched with
    // programmatic stream serialization (the runtime does, manifest "pdl")
    // may start while the stream's previous kernel finishes; its shared
    // memory carve-up and barrier inits overlap that kernel's tail. Every
    // thread waits for the previous grid's memory before its first global
    // access, then lets the next kernel launch. Waiting first bounds a
    // chain to one grid in flight ahead of its producer.
    if (!kc.isSm8x()) {
      NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
      NVVM::GriddepcontrolOp::create(b,
                                     NVVM::GridDepActionKind::launch_dependents);
    }
    switch (role) {
    case Role::load:
      emitLoadRole(kc);
      break;
    case Role::epilogue_load:
      emitEpilogueLoadRole(kc);
      break;
    case Role::mma:
      if (pingpong)
        emitPingpongMmaRole(kc);
      else
        emitMmaRole(kc, multistage);
      break;
    }
    if (kc.clusterSize() > 1)
      clusterSync(kc);
  }
  LLVM::ReturnOp::create(b, ValueRange{});
  return func;
}
