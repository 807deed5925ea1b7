//===- Epilogue.cpp - The epilogue collective -----------------------------===//
//
// Implements Epilogue.h: per consumer warpgroup the subtile loop (wait, S2R,
// epi.visit, R2S, fence, barrier, TMA store). The epilogue-load warp and
// the broadcast-vector loads are in EpilogueLoads.cpp; reductions in
// EpilogueReductions.cpp; subtiles between registers and shared memory
// (swizzle, ldmatrix, stmatrix) in EpilogueSharedMemory.cpp;
// `store = direct`'s copy-out, which replaces the fence and the TMA store,
// in EpilogueDirectStore.cpp.
//
// Each thread's accumulator elements in a 64 x epi N subtile follow wgmma's
// fixed layout: element (chunk c, q) of 64-row block mb sits at row
// 16 * warp + lane / 4 + 8 * (q / 2) and column 8 * c + 2 * (lane % 4) +
// q % 2; the subtile's chunks are the epi N / 8 chunks of its columns.
// sm_8x kernels with warp_columns = 2 (KernelLayout.h) hold 32-row blocks
// of half the columns per warp: a subtile's shared-memory buffer is laid out
// the same (warp w's 16 rows from row 16 w), but its two 32-row halves are
// two rectangles of the output (and of C and the aux loads, which the
// epilogue-load warp copies so), the second warpN() columns to the right.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"

#include "CpAsyncProducer.h"

#include "ws-gemm/Conversion/EvtVisit.h"
#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;
using Kind = pl::EpilogueOperand::Kind;

Epilogue::Epilogue(KernelContext &kc) : kc(kc) {
  ImplicitLocOpBuilder &b = kc.b;
  useC = kc.constTrue();
  for (Operation &inner : kc.op.getEpilogue().front())
    if (auto src = dyn_cast<epi::LoadSrcOp>(inner))
      if (std::optional<StringRef> gate = src.getSkipIfZero())
        useC = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE,
                                     kc.param(*gate), kc.f32(0.0));
  // Aux matrices are always read; C may be gated off at run time.
  loadsActive =
      kc.desc.operandsOf(Kind::AuxLoad).empty() ? useC : kc.constTrue();
  for (const pl::EpilogueOperand &operand : kc.desc.operands) {
    if (operand.kind == Kind::Scalar)
      scalars[operand.name] = kc.param(operand.name);
    else if (operand.kind == Kind::ScalarPointer)
      scalars[operand.name] =
          LLVM::LoadOp::create(b, kc.f32Ty, kc.param(operand.name));
    else if (operand.kind == Kind::ReduceVecM ||
             operand.kind == Kind::ReduceVecN ||
             operand.kind == Kind::ReduceScalar)
      reductions.emplace_back().operand = operand;
  }
  planReductions();
}

int64_t Epilogue::getSubtilesPerTile() const {
  return kc.layout.rowBlocks() * (kc.layout.warpN() / kc.layout.epiN);
}

/// The warpgroup's buffer for `slot` of a ring of `slots` subtiles of `type`
/// starting at `offset`.
Value Epilogue::ringBuffer(int64_t offset, pl::DType type, int64_t slots,
                           Value consumerWg, Value slot) {
  int64_t bytes = kc.layout.subtileBytes(type);
  return kc.smemAt(kc.add(kc.add(kc.i32(offset), kc.mul(slot, kc.i32(bytes))),
                          kc.mul(consumerWg, kc.i32(slots * bytes))));
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

void Epilogue::setThreadGeometry() {
  rowInSub =
      kc.add(kc.mul(kc.warpInWg, kc.i32(16)), kc.divu(kc.lane, kc.i32(4)));
  colInChunk = kc.mul(kc.remu(kc.lane, kc.i32(4)), kc.i32(2));
  rowInBlock = rowInSub;
  warpCol = kc.i32(0);
  if (kc.layout.warpColumns > 1) {
    Value warps = kc.i32(kc.layout.warpsM());
    rowInBlock = kc.add(kc.mul(kc.remu(kc.warpInWg, warps), kc.i32(16)),
                        kc.divu(kc.lane, kc.i32(4)));
    warpCol = kc.mul(kc.divu(kc.warpInWg, warps), kc.i32(kc.layout.warpN()));
  }
}

Value Epilogue::subtileInside(Value subRow, Value subCol) {
  const pl::KernelLayout &layout = kc.layout;
  return kc.andi(
      kc.ult(kc.add(subRow, kc.i32(layout.blockRows() - 1)), kc.sizeM),
      kc.ult(kc.add(subCol, kc.i32((layout.warpColumns - 1) * layout.warpN() +
                                   layout.epiN - 1)),
             kc.sizeN));
}

/// The visit op of one fragment: its sources are the elements' accumulator
/// values, C and aux elements from shared memory, broadcast-vector elements
/// at their rows and columns, and the uniform scalars; its body is the
/// kernel's epilogue region.
llvm::StringMap<SmallVector<Value>>
Epilogue::visit(ArrayRef<Element> elements, ArrayRef<Value> acc,
                const SubtileBuffers &bufs, const WorkTile &tile,
                Value consumerWg) {
  ImplicitLocOpBuilder &b = kc.b;
  int64_t n = elements.size();
  auto fragTy = VectorType::get({n}, kc.f32Ty);
  auto fragment = [&](function_ref<Value(const Element &)> f) {
    SmallVector<Value> values;
    for (const Element &el : elements)
      values.push_back(f(el));
    return vector::FromElementsOp::create(b, fragTy, values).getResult();
  };
  Value accFrag = fragment([&](const Element &el) {
    return LLVM::ExtractValueOp::create(b, acc[el.mb],
                                        el.chunk * 4 + el.h * 2 + el.e)
        .getResult();
  });
  SmallVector<Value> sources;
  SmallVector<StringRef> sourceNames;
  // Element el of a subtile source: from the pairs ldmatrix read, or one
  // load from shared memory.
  int64_t chunksPerSubtile = kc.layout.epiN / 8;
  auto sourceElement = [&](StringRef name, Value buf, pl::DType type,
                           const Element &el) {
    auto it = bufs.pairs.find(name);
    if (it == bufs.pairs.end())
      return loadShared(buf, type, el.offset);
    return widenFromPair(it->second[el.chunk % chunksPerSubtile * 2 + el.h],
                         type, el.e);
  };
  if (kc.desc.loadsC) {
    bool pairs = bufs.pairs.count("C");
    sources.push_back(fragment([&](const Element &el) {
      Value c = sourceElement("C", bufs.c, kc.desc.c, el);
      // Pairs are zeroed when C is not read (emitTile).
      return pairs ? c : kc.select(useC, c, kc.f32(0.0));
    }));
    sourceNames.push_back("C");
  }
  SmallVector<StringRef> outputNames;
  if (kc.desc.storesD)
    outputNames.push_back("D");
  for (const pl::EpilogueOperand &operand : kc.desc.operands) {
    Value source;
    switch (operand.kind) {
    case Kind::AuxLoad:
      source = fragment([&](const Element &el) {
        return sourceElement(operand.name, bufs.auxLoads.lookup(operand.name),
                             operand.type, el);
      });
      break;
    case Kind::VecM:
    case Kind::VecN:
      // One load per row (VecM) or column (VecN) of the thread, unless
      // prefetchVectors loaded it before the mainloop.
      source = fragment([&](const Element &el) {
        int64_t key = operand.kind == Kind::VecM ? el.mb * 2 + el.h
                                                 : el.chunk * 2 + el.e;
        return loadVector(operand.name, operand.type, key,
                          vectorIndex(operand, key, tile, consumerWg));
      });
      break;
    case Kind::Scalar:
    case Kind::ScalarPointer:
      source = scalars.lookup(operand.name);
      break;
    case Kind::AuxStore:
    case Kind::ReduceVecM:
    case Kind::ReduceVecN:
    case Kind::ReduceScalar:
      outputNames.push_back(operand.name);
      continue;
    }
    sources.push_back(source);
    sourceNames.push_back(operand.name);
  }

  Type cType = kc.op.getCType() ? *kc.op.getCType() : Type();
  auto visitOp = epi::VisitOp::create(
      b, SmallVector<Type>(outputNames.size(), fragTy), accFrag, sources,
      b.getStrArrayAttr(sourceNames), b.getStrArrayAttr(outputNames),
      TypeAttr::get(kc.op.getDType()), cType ? TypeAttr::get(cType) : nullptr);
  IRMapping map;
  kc.op.getEpilogue().cloneInto(&visitOp.getBody(), map);
  // A reduction whose factor is applied at the flush reduces the rest.
  for (const Reduction &r : reductions)
    if (r.factor)
      map.lookup(r.reduceOp)->setOperand(0, map.lookup(r.reduced));

  llvm::StringMap<SmallVector<Value>> outputs;
  for (auto [name, result] : llvm::zip(outputNames, visitOp.getOutputs()))
    for (int64_t i = 0; i < n; ++i)
      outputs[name].push_back(vector::ExtractOp::create(b, result, i));
  return outputs;
}

//===----------------------------------------------------------------------===//
// Consumer warpgroups: one tile
//===----------------------------------------------------------------------===//

void Epilogue::emitTile(const WorkTile &tile, Value consumerWg, Value barrierId,
                        ArrayRef<Value> acc, Value subBase) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  const pl::GemmDesc &desc = kc.desc;
  int64_t epiN = layout.epiN, nJ = layout.warpN() / epiN;
  int64_t total = getSubtilesPerTile();
  bool reuse = layout.reuseSmemC;
  bool delay = desc.config.delayTmaStore.value_or(false);
  bool direct = desc.config.isDirectStore();
  int64_t fragmentSize = desc.config.fragmentSize.value_or(epiN / 2);
  bool epiLoads = layout.hasEpilogueLoads();
  epi::StoreReduceKind dReduce = epi::StoreReduceKind::none;
  for (Operation &inner : kc.op.getEpilogue().front())
    if (auto store = dyn_cast<epi::StoreOp>(inner))
      dReduce = store.getReduce();
  if (!vectorsPrefetched)
    vectors.clear();
  vectorsPrefetched = false;
  for (Reduction &r : reductions) {
    r.partials.clear();
    r.total = Value();
  }

  // The stores of one subtile: D and every aux matrix, one bulk group.
  // Each warp stores the 16 rows it holds (storeBoxRows), from its slice of
  // the subtile's buffers, so no store waits for the warpgroup; with
  // reuse_smem_c the warpgroup's leader stores the whole subtile.
  struct SubtileStore {
    Value dBuf, col, row;
    SmallVector<Value> auxBufs;
  };
  int64_t boxRows = layout.storeBoxRows();
  bool perWarp = layout.warpStores;
  auto warpSlice = [&](Value buf, pl::DType type) {
    return kc.gep(
        buf, kc.mul(kc.warpInWg, kc.i32(boxRows * epiN * byteWidth(type))));
  };
  std::optional<SubtileStore> prev;
  auto storeSubtile = [&](const SubtileStore &st) {
    Value row =
        perWarp ? kc.add(st.row, kc.mul(kc.warpInWg, kc.i32(boxRows))) : st.row;
    SmallVector<Value> crd = kc.coords(st.col, row, tile.batch);
    // D op= value (epi.store ... reduce): the same box, reduced into D by
    // cp.reduce.async.bulk.tensor instead of overwriting it.
    if (desc.storesD)
      StoreTmaOp::create(b, perWarp ? warpSlice(st.dBuf, desc.d) : st.dBuf,
                         kc.tmaDescriptor("D"), crd, kc.storePipe,
                         dReduce == epi::StoreReduceKind::none
                             ? epi::StoreReduceKindAttr()
                             : epi::StoreReduceKindAttr::get(b.getContext(),
                                                             dReduce));
    for (auto [aux, buf] : llvm::zip(layout.auxStores, st.auxBufs))
      StoreTmaOp::create(b, perWarp ? warpSlice(buf, aux.type) : buf,
                         kc.tmaDescriptor(aux.name), crd, kc.storePipe,
                         epi::StoreReduceKindAttr());
    StoreCommitOp::create(b, kc.storePipe);
  };
  Value leader = kc.eq(kc.tidInWg, kc.i32(0));
  Value storer = storesIssuer();
  copyThread = kc.tidInWg;
  copyThreads = 128;
  // copy_out = load: the consumers stage each subtile in its own store-ring
  // slot and hand it to the load warps (the copy-out pipeline's producer
  // side), without waiting for one another.
  bool copyOut = direct && layout.copyOutByLoad;
  Value copyStart;
  if (copyOut)
    copyStart = PipelineStateInitOp::create(
        b, PipelineStateType::get(b.getContext(), layout.storeRing),
        PipelineAgent::producer);
  setThreadGeometry();
  Value epiStart;
  if (epiLoads)
    epiStart = PipelineStateInitOp::create(
        b, PipelineStateType::get(b.getContext(), layout.stagesC),
        PipelineAgent::consumer);
  // The epilogue-load pipeline's state of this tile's subtile t.
  auto epiState = [&](int64_t t) {
    return kc.stateAt(epiStart, kc.add(subBase, kc.i32(t)));
  };

  for (int64_t t = 0; t < total; ++t) {
    int64_t mb = t / nJ, j = t % nJ;
    // copy_out = load: the slot is free once the load warps copied out
    // what it held (with a ring of the whole tile, during this tile's
    // mainloop), so the wait comes first.
    Value copySt;
    if (copyOut) {
      copySt = kc.stateAt(copyStart, kc.add(subBase, kc.i32(t)));
      ProducerAcquireOp::create(b, kc.copyOutPipe, copySt);
    }
    // The first rectangle's origin (one per column of warps).
    Value subRow =
        kc.add(kc.add(tile.m0, kc.mul(consumerWg, kc.i32(layout.wgRows))),
               kc.i32(layout.blockRows() * mb));
    Value subCol = kc.add(tile.n0, kc.i32(j * epiN));
    SubtileBuffers bufs;
    Value epiSt;
    if (epiLoads) {
      epiSt = epiState(t);
      Value slot = kc.stageIndex(epiSt);
      if (desc.loadsC)
        bufs.c =
            ringBuffer(layout.offC, desc.c, layout.stagesC, consumerWg, slot);
      for (const pl::AuxBuffer &aux : layout.auxLoads)
        bufs.auxLoads[aux.name] =
            ringBuffer(aux.offset, aux.type, layout.stagesC, consumerWg, slot);
      kc.ifThen(loadsActive,
                [&] { ConsumerWaitOp::create(b, kc.epiPipe, epiSt); });
      // 16-bit sources: the subtile's elements in registers now, four
      // 8x8 matrices per ldmatrix, not one ld.shared per element. C the
      // loader did not fill (beta == 0) reads as zeros.
      if (desc.loadsC && readsPairs(desc.c)) {
        SmallVector<Value> &pairs = bufs.pairs["C"];
        pairs = loadPairs(bufs.c, desc.c);
        for (Value &pair : pairs)
          pair = kc.select(useC, pair, kc.i32(0));
      }
      for (const pl::AuxBuffer &aux : layout.auxLoads)
        if (readsPairs(aux.type))
          bufs.pairs[aux.name] = loadPairs(bufs.auxLoads[aux.name], aux.type);
    }
    // With ReuseSmemC, D is written over the C subtile it was computed from.
    Value storeSlot =
        kc.remu(kc.add(subBase, kc.i32(t)), kc.i32(layout.storeRing));
    Value dBuf;
    if (reuse)
      dBuf = bufs.c;
    else if (desc.storesD)
      dBuf = ringBuffer(layout.offD, desc.d, layout.stagesD, consumerWg,
                        storeSlot);
    SubtileStore current{dBuf, subCol, subRow, {}};
    for (const pl::AuxBuffer &aux : layout.auxStores) {
      current.auxBufs.push_back(ringBuffer(
          aux.offset, aux.type, layout.storeRing, consumerWg, storeSlot));
      bufs.auxStores[aux.name] = current.auxBufs.back();
    }

    // The thread's epi N / 2 accumulator elements of this subtile, visited
    // fragment_size at a time.
    SmallVector<Element> elements;
    for (int64_t c = j * epiN / 8; c < (j + 1) * epiN / 8; ++c) {
      for (int64_t q = 0; q < 4; ++q) {
        Element el{mb, q / 2, c, q % 2, {}, {}, {}};
        Value row = kc.add(rowInSub, kc.i32(8 * el.h));
        Value col = kc.add(colInChunk, kc.i32(8 * c - j * epiN + el.e));
        el.gm = kc.add(subRow, kc.add(rowInBlock, kc.i32(8 * el.h)));
        el.gn = kc.add(kc.add(subCol, warpCol), col);
        el.offset = kc.add(kc.mul(row, kc.i32(epiN)), col);
        elements.push_back(el);
      }
    }
    // The subtile lies within M x N: its reductions need no bounds.
    Value inside;
    if (!reductions.empty())
      inside = subtileInside(subRow, subCol);
    SmallVector<Value> dVals;
    struct PendingStore {
      Value buf;
      pl::DType type;
      Value offset, value;
    };
    SmallVector<PendingStore> auxStores;
    for (size_t first = 0; first < elements.size(); first += fragmentSize) {
      ArrayRef<Element> frag =
          ArrayRef<Element>(elements).slice(first, fragmentSize);
      llvm::StringMap<SmallVector<Value>> out =
          visit(frag, acc, bufs, tile, consumerWg);
      if (desc.storesD)
        llvm::append_range(dVals, out["D"]);
      for (const pl::AuxBuffer &aux : layout.auxStores)
        for (auto [el, v] : llvm::zip(frag, out[aux.name]))
          auxStores.push_back({bufs.auxStores.lookup(aux.name), aux.type,
                               el.offset, narrowForMemory(v, aux.type)});
      if (!reductions.empty())
        accumulateFragment(frag, out, inside);
    }
    if (j == nJ - 1)
      foldScalarRows(tile, consumerWg, mb);

    // The buffer about to be written was last stored from `ring` subtiles
    // ago: wait until that TMA store has read it (counting the store still
    // held back by DelayTmaStore). Per-warp stores free a warp's own slice,
    // so the warp waits alone, unless a C / aux stage goes back to the
    // loader below, which needs the whole warpgroup to have read it (with
    // reuse_smem_c, also because other threads' stmatrix rows cover
    // elements this thread read from C). Direct stores read their buffer
    // before each thread reaches this barrier: the barrier alone makes the
    // buffer free. With a ring of two or more and no C / aux stage to hand
    // back, it is free already: its last copy-out (subtile t - ring, or an
    // earlier tile's, ordered before this epilogue by the schedule) read it
    // before each thread reached the barrier ahead of subtile t - 1's
    // copy-out, which every thread has passed.
    // With copy_out = load, the slot's empty barrier says its last
    // copy-out read it; C and aux stages go back per thread (sm_8x copies
    // them).
    bool freeAlready =
        direct && ((!epiLoads && layout.storeRing >= 2) || copyOut);
    if (!direct)
      kc.ifThen(storer, [&] {
        if (delay)
          StoreWaitOp::create(b, kc.storePipe,
                              b.getI32IntegerAttr(layout.storeRing - 2));
        else
          StoreAcquireOp::create(b, kc.storePipe);
      });
    if (!freeAlready && perWarp && !epiLoads)
      kc.warpSync();
    else if (!freeAlready)
      kc.namedBarrier(barrierId, 128);
    // Every thread of the warpgroup has read this subtile's C and aux
    // elements: the stage goes back to the loader, unless D is staged over
    // C (ReuseSmemC), whose release waits for D's TMA store below. Stages
    // the loader writes with st.shared: each thread releases its reads.
    if (epiLoads && !reuse)
      kc.ifThen(desc.storesEpilogueLoads() ? loadsActive
                                           : kc.andi(leader, loadsActive),
                [&] {
                  ConsumerReleaseOp::create(b, kc.epiPipe, epiSt, Value(),
                                            Value());
                });

    // Registers to shared memory: aux stores, then D.
    for (const PendingStore &st : auxStores)
      storeShared(st.buf, st.type, st.offset, st.value);
    if (desc.storesD)
      emitR2S(current.dBuf, dVals);
    if (copyOut) {
      // This thread's writes of the subtile are done (the arrival releases
      // them); the load warps copy it out once every thread has arrived.
      ProducerCommitOp::create(b, kc.copyOutPipe, copySt);
      continue;
    }
    if (direct) {
      // Every thread's shared-memory writes are done; the warpgroup copies
      // the subtile out (reuse_smem_c and delay_tma_store are off).
      kc.namedBarrier(barrierId, 128);
      if (desc.storesD)
        storeDirect(current.dBuf, desc.d, "D", subRow, subCol, tile.batch,
                    desc.dReduce);
      for (auto [aux, buf] : llvm::zip(layout.auxStores, current.auxBufs))
        storeDirect(buf, aux.type, aux.name, subRow, subCol, tile.batch);
      continue;
    }
    // Make the generic-proxy writes visible to the TMA engine, then one
    // thread (of each warp, or of the warpgroup) stores them.
    NVVM::FenceProxyOp::create(
        b, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    if (perWarp)
      kc.warpSync();
    else
      kc.namedBarrier(barrierId, 128);
    kc.ifThen(storer, [&] {
      if (!delay) {
        storeSubtile(current);
      } else {
        // DelayTmaStore: the previous subtile's store is issued now, after
        // this one's R2S, so its smem read overlaps with the next compute.
        if (prev)
          storeSubtile(*prev);
        if (t == total - 1)
          storeSubtile(current);
      }
      if (!reuse || !epiLoads)
        return;
      // ReuseSmemC (never with DelayTmaStore): a C stage goes back to the
      // loader once the D store staged in it has read it. The previous
      // subtile's store is the one before this subtile's; the tile's last
      // stage is handed back before the next tile.
      kc.ifThen(loadsActive, [&] {
        if (t >= 1) {
          StoreWaitOp::create(
              b, kc.storePipe,
              b.getI32IntegerAttr(std::min<int64_t>(1, layout.storeRing - 1)));
          ConsumerReleaseOp::create(b, kc.epiPipe, epiState(t - 1), Value(),
                                    Value());
        }
        if (t == total - 1) {
          StoreWaitOp::create(b, kc.storePipe, b.getI32IntegerAttr(0));
          ConsumerReleaseOp::create(b, kc.epiPipe, epiSt, Value(), Value());
        }
      });
    });
    prev = current;
  }
  flushReductions(tile, consumerWg);
}

void Epilogue::emitCopyOut(const WorkTile &tile, Value subBase) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  const pl::GemmDesc &desc = kc.desc;
  int64_t nJ = layout.warpN() / layout.epiN;
  // The load warps' first power-of-two threads copy (storeDirect splits a
  // subtile's rows and columns evenly between them); the others only take
  // part in the barriers.
  copyThread = kc.tid;
  copyThreads = int64_t(llvm::bit_floor(
      uint64_t(getCpAsyncProducerThreads(layout))));
  Value copies = kc.ult(copyThread, kc.i32(copyThreads));
  Value start = PipelineStateInitOp::create(
      b, PipelineStateType::get(b.getContext(), layout.storeRing),
      PipelineAgent::consumer);
  // One loop over the subtiles (not unrolled as the consumers' are: the
  // copy needs no registers of theirs, and the load warps' code stays
  // small).
  auto loop = scf::ForOp::create(b, kc.i32(0), kc.i32(getSubtilesPerTile()),
                                 kc.i32(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  {
    Value t = loop.getInductionVar();
    Value mb = kc.divu(t, kc.i32(nJ)), j = kc.remu(t, kc.i32(nJ));
    Value state = kc.stateAt(start, kc.add(subBase, t));
    ConsumerWaitOp::create(b, kc.copyOutPipe, state);
    Value slot = kc.stageIndex(state);
    // Every consumer warpgroup's subtile t of the tile, where emitTile
    // staged it.
    kc.ifThen(copies, [&] {
      for (int64_t wg = 0; wg < layout.consumerWarpgroups; ++wg) {
        Value subRow =
            kc.add(kc.add(tile.m0, kc.i32(wg * layout.wgRows)),
                   kc.mul(mb, kc.i32(layout.blockRows())));
        Value subCol = kc.add(tile.n0, kc.mul(j, kc.i32(layout.epiN)));
        if (desc.storesD)
          storeDirect(ringBuffer(layout.offD, desc.d, layout.stagesD,
                                 kc.i32(wg), slot),
                      desc.d, "D", subRow, subCol, tile.batch, desc.dReduce);
        for (const pl::AuxBuffer &aux : layout.auxStores)
          storeDirect(ringBuffer(aux.offset, aux.type, layout.storeRing,
                                 kc.i32(wg), slot),
                      aux.type, aux.name, subRow, subCol, tile.batch);
      }
    });
    // This thread's reads of the slot are done (their values are in the
    // st.global it issued): the consumers may write it again.
    ConsumerReleaseOp::create(b, kc.copyOutPipe, state, Value(), Value());
  }
}

void Epilogue::emitStoresRead() {
  // Direct stores read their buffers synchronously: nothing in flight.
  if (kc.desc.config.isDirectStore())
    return;
  kc.ifThen(storesIssuer(), [&] {
    StoreWaitOp::create(kc.b, kc.storePipe, kc.b.getI32IntegerAttr(0));
  });
}

void Epilogue::emitTail() {
  // Every TMA store must finish before the CTA exits (direct stores issue
  // none).
  if (kc.desc.config.isDirectStore())
    return;
  kc.ifThen(storesIssuer(), [&] { StoreTailOp::create(kc.b, kc.storePipe); });
}

Value Epilogue::storesIssuer() {
  return kc.eq(kc.layout.warpStores ? kc.lane : kc.tidInWg, kc.i32(0));
}
