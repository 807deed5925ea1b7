//===- EpilogueLoads.cpp - What the epilogue reads from global memory -----===//
//
// The epilogue collective's loads (Epilogue.h). The epilogue-load warp:
// per subtile of a tile, the warp that brings C and every aux-load matrix
// into the epilogue pipeline's stages, by TMA (sm_90a) or, where TMA cannot
// describe them or the chip has none, by its 32 lanes' cp.async copies
// (CpAsyncProducer.cpp) into the layout TMA would write. The consumers'
// broadcast-vector elements (epi.load_vec_m / _n): one global load per
// vector and row or column of the thread per tile, before the tile's
// mainloop where few enough (prefetchVectors), else where the visit reads
// them.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"

#include "CpAsyncProducer.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;
using Kind = pl::EpilogueOperand::Kind;

Value Epilogue::emitLoads(const WorkTile &tile, Value start) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  int64_t nJ = layout.warpN() / layout.epiN;
  auto loop = scf::ForOp::create(b, kc.i32(0), kc.i32(getSubtilesPerTile()),
                                 kc.i32(1), ValueRange{start});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value t = loop.getInductionVar();
  Value state = loop.getRegionIterArgs()[0];
  Value mb = kc.divu(t, kc.i32(nJ));
  Value j = kc.remu(t, kc.i32(nJ));
  if (kc.desc.copiesEpilogueLoads()) {
    emitCopiedLoads(tile, state, mb, j);
    scf::YieldOp::create(b, ValueRange{PipelineStateAdvanceOp::create(
                                b, state.getType(), state, /*by=*/1)});
    return loop.getResult(0);
  }
  // One TMA box of 64 rows per subtile: sm_90a's wgmma layout.
  assert(layout.warpColumns == 1 && "two columns of warps are sm_8x's");
  ProducerAcquireOp::create(b, kc.epiPipe, state);
  // C's bytes when a scalar gates it and the pipeline's static count
  // leaves it out (KernelSchedule.cpp).
  bool cCounted = !kc.desc.gatedC || kc.desc.operandsOf(Kind::AuxLoad).empty();
  if (kc.desc.loadsC && !cCounted)
    kc.ifThen(useC, [&] {
      ProducerExpectTxOp::create(
          b, kc.epiPipe, state,
          kc.i32(layout.consumerWarpgroups * layout.subtileBytes(kc.desc.c)));
    });
  Value slot = kc.stageIndex(state);
  for (int64_t w = 0; w < layout.consumerWarpgroups; ++w) {
    Value wg = kc.i32(w);
    Value row = kc.add(kc.add(tile.m0, kc.i32(w * layout.wgRows)),
                       kc.mul(mb, kc.i32(64)));
    SmallVector<Value> crd = kc.coords(
        kc.add(tile.n0, kc.mul(j, kc.i32(layout.epiN))), row, tile.batch);
    if (kc.desc.loadsC)
      kc.ifThen(useC, [&] {
        kc.tmaLoad(ringBuffer(layout.offC, kc.desc.c, layout.stagesC, wg, slot),
                   "C", crd, kc.epiPipe, state);
      });
    for (const pl::AuxBuffer &aux : layout.auxLoads)
      kc.tmaLoad(ringBuffer(aux.offset, aux.type, layout.stagesC, wg, slot),
                 aux.name, crd, kc.epiPipe, state);
  }
  ProducerCommitOp::create(b, kc.epiPipe, state);
  scf::YieldOp::create(b, ValueRange{PipelineStateAdvanceOp::create(
                              b, state.getType(), state, /*by=*/1)});
  return loop.getResult(0);
}

/// Without TMA (sm_8x, or load_c = cp_async), each of the warp's 32
/// threads waits for the empty stage, copies its align_c-byte pieces of
/// every warpgroup's subtile (rows mb * 64.., columns j * epi N.., or its
/// two rectangles with warp_columns = 2) of C and
/// the aux matrices into the layout TMA would write (the subtile's swizzle,
/// zeros past M and N), and arrives on the full barrier as they land (with
/// 2-byte alignment, 16-byte pieces realigned in registers and stored
/// with st.shared, after its stores).
void Epilogue::emitCopiedLoads(const WorkTile &tile, Value state, Value mb,
                               Value j) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  ProducerAcquireOp::create(b, kc.epiPipe, state, /*cp_async=*/true);
  Value slot = kc.stageIndex(state);
  // The subtile is one rectangle of blockRows() rows per column of warps
  // (KernelLayout::warpColumns): rectangle q's rows land from buffer row
  // q * blockRows(), which keeps each row's swizzle phase (blockRows() is a
  // multiple of 8) and its place in every 64-row column block.
  auto copy = [&](StringRef name, pl::DType type, Value buf, Value wgRow) {
    KernelContext::MatrixArg m = kc.matrixArg(name);
    const int64_t swizzle = layout.subtileSwizzle(type);
    const int64_t rowBytes = layout.epiN * byteWidth(type);
    const int64_t blockWidth = swizzle ? std::min(rowBytes, swizzle) : rowBytes;
    for (int64_t q = 0; q < layout.warpColumns; ++q) {
      GlobalTile g;
      g.base = m.base;
      g.ld = m.ld;
      g.batchStride = m.batchStride;
      g.batch = kc.desc.batched ? tile.batch : kc.i32(0);
      g.row0 = kc.add(kc.add(tile.m0, wgRow),
                      kc.mul(mb, kc.i32(layout.blockRows())));
      g.col0 = kc.add(kc.add(tile.n0, kc.i32(q * layout.warpN())),
                      kc.mul(j, kc.i32(layout.epiN)));
      g.rows = kc.sizeM;
      g.cols = kc.sizeN;
      g.originInside = false;
      SwizzledStage s;
      s.dst = kc.gep(buf, kc.i32(q * layout.blockRows() * blockWidth));
      s.tileRows = layout.blockRows();
      s.tileCols = layout.epiN;
      s.swizzleBytes = swizzle;
      s.blockBytes = layout.subtileBytes(type);
      CopyPlan plan;
      plan.elementBytes = byteWidth(type);
      plan.widthBytes = kc.desc.epilogueCopyBytes();
      plan.threads = 32;
      plan.thread = kc.lane;
      emitCopyTile(kc, g, s, plan);
    }
  };
  for (int64_t w = 0; w < layout.consumerWarpgroups; ++w) {
    Value wg = kc.i32(w);
    Value wgRow = kc.i32(w * layout.wgRows);
    if (kc.desc.loadsC)
      kc.ifThen(useC, [&] {
        copy("C", kc.desc.c,
             ringBuffer(layout.offC, kc.desc.c, layout.stagesC, wg, slot),
             wgRow);
      });
    for (const pl::AuxBuffer &aux : layout.auxLoads)
      copy(aux.name, aux.type,
           ringBuffer(aux.offset, aux.type, layout.stagesC, wg, slot), wgRow);
  }
  bool stores = kc.desc.storesEpilogueLoads();
  ProducerCommitOp::create(b, kc.epiPipe, state, /*cp_async=*/!stores,
                           /*stores=*/stores);
}

//===----------------------------------------------------------------------===//
// Broadcast vectors (consumer warpgroups)
//===----------------------------------------------------------------------===//

/// A broadcast-vector element, loaded once per (vector, row or column of
/// the thread) per tile and shared by every element and every EVT leaf that
/// reads it.
Value Epilogue::loadVector(StringRef name, pl::DType type, int64_t key,
                           Value index) {
  Value &cached = vectors[{name.str(), key}];
  if (cached)
    return cached;
  Type elemTy = byteWidth(type) == 1 ? Type(kc.b.getI8Type()) : kc.typeOf(type);
  Value ptr = LLVM::GEPOp::create(kc.b, kc.globalPtrTy, elemTy, kc.param(name),
                                  ValueRange{index});
  cached = loadWidened(ptr, type);
  return cached;
}

int64_t Epilogue::vectorKeys(const pl::EpilogueOperand &operand) const {
  // VecM: key mb * 2 + h per 64-row block and row half; VecN: chunk * 2 + e
  // per 8-column chunk of the warp's columns and column of the pair.
  return operand.kind == Kind::VecM ? kc.layout.rowBlocks() * 2
                                    : kc.layout.warpN() / 8 * 2;
}

Value Epilogue::vectorIndex(const pl::EpilogueOperand &operand, int64_t key,
                            const WorkTile &tile, Value consumerWg) {
  if (operand.kind == Kind::VecM) {
    Value m = arith::MinUIOp::create(kc.b, rowOfKey(tile, consumerWg, key),
                                     kc.sub(kc.sizeM, kc.i32(1)));
    return kc.add(kc.mul(tile.batch, kc.sizeM), m);
  }
  int64_t chunk = key / 2, e = key % 2;
  Value gn = kc.add(kc.add(kc.add(tile.n0, warpCol), colInChunk),
                    kc.i32(8 * chunk + e));
  Value n = arith::MinUIOp::create(kc.b, gn, kc.sub(kc.sizeN, kc.i32(1)));
  return kc.add(kc.mul(tile.batch, kc.sizeN), n);
}

void Epilogue::prefetchVectors(const WorkTile &tile, Value consumerWg) {
  vectors.clear();
  vectorsPrefetched = true;
  if (kc.isSm8x())
    return; // their consumers run at up to 255 registers: not measured
  int64_t budget = kPrefetchedVectorElements;
  for (const pl::EpilogueOperand &operand : kc.desc.operands) {
    if (operand.kind != Kind::VecM && operand.kind != Kind::VecN)
      continue;
    int64_t keys = vectorKeys(operand);
    if (keys > budget)
      continue;
    if (budget == kPrefetchedVectorElements)
      setThreadGeometry();
    budget -= keys;
    for (int64_t key = 0; key < keys; ++key)
      loadVector(operand.name, operand.type, key,
                 vectorIndex(operand, key, tile, consumerWg));
  }
}
