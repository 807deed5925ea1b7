//===- KernelBuilder.cpp - Build a warp-specialized GEMM kernel -----------===//
//
// Emits one wsgemm.gemm as a warp-specialized sm_90a kernel at the explicit
// level of the wsgemm dialect: an llvm.func whose body carves dynamic shared
// memory, creates the pipelines (wsgemm.pipeline_create with their barriers
// placed in the carve, wsgemm.store_pipeline_create) and splits into warp
// roles with wsgemm.warp_specialize, in the shape of CUTLASS's SM90 TMA
// warp-specialized kernel:
//
//   load (warp 0): one elected thread streams A/B k-tiles by TMA through the
//     StagesAB pipeline (producer_acquire / producer_tma_load / commit).
//   epilogue_load (warp 1, when C or aux matrices are read): one elected
//     thread streams, per epilogue subtile, the C and aux subtiles of every
//     consumer warpgroup by TMA through the StagesC pipeline.
//   mma (1 or 2 warpgroups): consumer_wait, wgmma (SS), keep one wgmma group
//     in flight and consumer_release the stage whose group retired. Then the
//     epilogue, per 64 x epiN subtile: wait for the C/aux stage, visit the
//     EVT on each accumulator element (wgmma's fixed thread-to-(m, n) map),
//     convert, stmatrix (16-bit D) or st.shared into a StagesD ring (or over
//     C with ReuseSmemC; subtile buffers carry the TMA swizzle of their
//     rows), fence.proxy.async, a named barrier among the warpgroup's
//     threads, and one thread issues the TMA stores of D and aux
//     matrices as one bulk group (store_acquire / store_commit / store_wait).
//   Tiles: persistent CTAs stride over them; a "tiles" grid gives one each.
//
// --wsgemm-lower-pipelines turns roles and pipelines into nvgpu and NVVM.
// Ragged M/N/K rely on TMA: loads zero-fill, stores clip. Broadcast vectors
// (global loads) clamp their index; reductions mask elements outside the
// problem to the reduction's identity.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::detail;

static int64_t byteWidth(Type t) { return t.getIntOrFloatBitWidth() / 8; }

int64_t KernelSpec::bytesA() const { return tileM * tileK * byteWidth(aType); }
int64_t KernelSpec::bytesB() const { return tileN * tileK * byteWidth(bType); }
int64_t KernelSpec::subtileBytes(Type t) const {
  return 64 * epiN * byteWidth(t);
}
int64_t KernelSpec::subtileSwizzle(Type t) const {
  int64_t rowBytes = epiN * byteWidth(t);
  return rowBytes == 32 || rowBytes == 64 || rowBytes == 128 ? rowBytes : 0;
}

namespace {

/// Identity and combiner of a reduction kind.
enum class RedKind { Sum, Max, Min, AbsMax };

/// Per-thread partial results of one epilogue reduction.
struct ReductionState {
  Operation *op;
  RedKind kind;
  int paramIndex;
  /// vec_m: keyed by (mb, h); vec_n: keyed by (chunk, e); scalar: key 0.
  llvm::MapVector<int64_t, Value> partials;
};

/// Builds one kernel. Member functions follow the kernel's phases.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &ob, GemmOp op, const KernelSpec &spec,
                ArrayRef<KernelParam> params)
      : b(op.getLoc(), ob), op(op), spec(spec), params(params) {}

  LogicalResult build();

private:
  // ---- small helpers -----------------------------------------------------
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, v, 32); }
  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, v, 64); }
  Value f32(double v) {
    return arith::ConstantFloatOp::create(b, b.getF32Type(),
                                          APFloat(static_cast<float>(v)));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y);
  }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, y);
  }
  Value smem(int64_t offset) { return smemAt(i32(offset)); }
  Value smemAt(Value offset) {
    return LLVM::GEPOp::create(b, sharedPtrTy, b.getI8Type(), smemBase,
                               ValueRange{offset});
  }
  Value smemAt2(Value base, Value offset) {
    return LLVM::GEPOp::create(b, sharedPtrTy, b.getI8Type(), base,
                               ValueRange{offset});
  }
  Value paramValue(StringRef name) {
    for (auto [i, p] : llvm::enumerate(params))
      if (p.name == name)
        return args[i];
    llvm_unreachable("unknown kernel parameter");
  }
  int paramIndex(StringRef name) {
    for (auto [i, p] : llvm::enumerate(params))
      if (p.name == name)
        return i;
    return -1;
  }
  /// Runs `body` in one thread (`pred` true) of the current control flow.
  void ifThen(Value pred, function_ref<void()> body) {
    auto ifOp = scf::IfOp::create(b, pred, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  }
  Value tensorMap(StringRef operand) {
    for (auto [i, p] : llvm::enumerate(params))
      if (p.kind == KernelParam::Kind::TensorMap && p.operand == operand)
        return args[i];
    return {};
  }
  SmallVector<Value> coords(Value inner, Value outer) {
    SmallVector<Value> c{inner, outer};
    if (spec.batched)
      c.push_back(batchIdx);
    return c;
  }
  /// The tensor map of `operand` as the TMA descriptor it is: its box
  /// (outermost first) in shared memory, swizzle, and the L2 promotion and
  /// out-of-bounds fill the runtime encodes (docs/manifest.md). One cast of
  /// the kernel parameter per role, at the role's entry.
  Value tmaDescriptor(StringRef operand) {
    Value &cached = descriptors[operand];
    if (cached)
      return cached;
    const KernelParam *param = nullptr;
    for (const KernelParam &p : params)
      if (p.kind == KernelParam::Kind::TensorMap && p.operand == operand)
        param = &p;
    assert(param && "no tensor map for the operand");
    MLIRContext *ctx = b.getContext();
    auto box = MemRefType::get(
        llvm::to_vector(llvm::reverse(param->box)), param->elemType,
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
    cached = UnrealizedConversionCastOp::create(b, type, tensorMap(operand))
                 .getResult(0);
    return cached;
  }
  /// TMA load of `operand`'s box at `crd` into `dst`, completing on the full
  /// barrier of `pipe`'s stage at `state`.
  void tmaLoad(Value dst, StringRef operand, ArrayRef<Value> crd, Value pipe,
               Value state) {
    ProducerTmaLoadOp::create(b, tmaDescriptor(operand), crd, dst, pipe, state);
  }
  /// The state of a pipeline iterator after its g-th use (g advances from
  /// `start`, a pipeline_state_init) and the stage index it points at.
  Value stateAt(Value start, Value g) {
    return PipelineStateAdvanceByOp::create(b, start.getType(), start, g);
  }
  Value stageIndex(Value state) {
    return arith::IndexCastUIOp::create(
        b, b.getI32Type(), PipelineStateIndexOp::create(b, b.getIndexType(), state));
  }
  Value elect() { return NVVM::ElectSyncOp::create(b, b.getI1Type(), Value()); }
  void namedBarrier(Value id, int64_t threads) {
    NVVM::BarrierOp::create(b, TypeRange{}, id, i32(threads),
                            NVVM::BarrierReductionAttr(), Value());
  }

  // ---- phases -------------------------------------------------------------
  void emitSpecialize();
  void enterRole(Block *block);
  void emitGeometry();
  void scanEpilogue();
  void emitProducer();
  void emitEpilogueLoader();
  void emitConsumer(Value consumerWg);
  void decodeTile(Value tile);
  scf::ForOp createTileLoop(ValueRange init);
  SmallVector<Value> emitMainloop(Value kBase);
  void emitEpilogue(Value consumerWg, ArrayRef<Value> acc, Value subBase);
  void issueEpiLoads(Value subtile, Value state);
  Value ringBuffer(int64_t offset, Type elemType, int64_t slots,
                   Value consumerWg, Value slot);
  Value swizzleOffset(Value offset, Type elemType);
  Value loadShared(Value buf, Type elemType);
  void storeShared(Value buf, Value offset, Value v);
  Value subtileRow(Value consumerWg, int64_t mb);
  Value emitElement(Value acc, Value gm, Value gn, Value inBounds, Value cVal,
                    int64_t mb, int64_t h, int64_t chunk, int64_t e);
  void emitReductionFlush();
  Value loadGlobal(Value ptr, Type elemType, Value index);
  Value loadVector(Operation *leaf, StringRef name, Type elemType, int64_t key,
                   Value index);
  Value packPair(Value lo, Value hi);
  Value cvtPair(Value lo, Value hi, Type elem, epi::RoundingMode rounding);
  Value convertFloat(Value v, Type to, epi::RoundingMode rounding);

  ImplicitLocOpBuilder b;
  GemmOp op;
  const KernelSpec &spec;
  ArrayRef<KernelParam> params;

  LLVM::LLVMFuncOp func;
  /// The kernel's parameters as seen by the role being emitted (the role
  /// region's arguments), in `params` order.
  SmallVector<Value> args;
  /// The entry block of the role being emitted, and its TMA descriptors.
  Block *roleBlock = nullptr;
  llvm::StringMap<Value> descriptors;
  /// The pipelines, as seen by the role being emitted: mainloop (StagesAB),
  /// epilogue loads (StagesC; null without C or aux loads) and TMA stores.
  Value mainPipe, epiPipe, storePipe;
  Type sharedPtrTy, globalPtrTy, accTy;
  Value smemBase, tid, warpInWg, lane, tidInWg, wgIdx;
  Value m0, n0, batchIdx, sizeM, sizeN, sizeK, kTiles;
  Value tilesM, tilesN, tilesMN, numTiles, tileStart, tileStep;
  Value alongM; // i1: tiles numbered with m fastest.
  Value useC;   // i1: whether C is read (false when beta == 0 gates it).
  bool cGated = false; // C's load is gated by a run-time scalar.

  /// Per-thread values computed once for the epilogue.
  DenseMap<Operation *, Value> scalarValues;
  DenseMap<std::pair<Operation *, int64_t>, Value> vectorCache;
  SmallVector<ReductionState> reductions;
  epi::RoundingMode dRounding = epi::RoundingMode::rn; // of the D store.
  /// The element being visited: its offset in a 64 x epiN subtile (in
  /// elements) and the current subtile's aux buffers by name.
  Value elemOffset;
  llvm::StringMap<Value> auxLoadBufs, auxStoreBufs;
  /// Aux-store elements of the current subtile: (buffer, offset, value).
  struct PendingStore {
    Value buf, offset, value;
  };
  SmallVector<PendingStore> pendingAuxStores;
};

} // namespace

//===----------------------------------------------------------------------===//
// Prologue: indices, shared memory, barriers
//===----------------------------------------------------------------------===//

/// Thread indices, problem sizes and the tile schedule, as seen by the role
/// being emitted (each role region computes its own: they are isolated).
void KernelEmitter::emitGeometry() {
  Type i32Ty = b.getI32Type();
  tid = NVVM::ThreadIdXOp::create(b, i32Ty);
  wgIdx = arith::DivUIOp::create(b, tid, i32(128));
  tidInWg = arith::RemUIOp::create(b, tid, i32(128));
  warpInWg = arith::DivUIOp::create(b, tidInWg, i32(32));
  lane = arith::RemUIOp::create(b, tid, i32(32));
  sizeM = paramValue("M");
  sizeN = paramValue("N");
  sizeK = paramValue("K");
  kTiles = arith::CeilDivUIOp::create(b, sizeK, i32(spec.tileK));
  // Output tiles are numbered batch-major, then in raster order: along N
  // (n fastest) or along M (m fastest). Persistent kernels take tiles
  // blockIdx.x, blockIdx.x + gridDim.x, ...; a "tiles" grid (docs/manifest.md)
  // gives each CTA the one tile named by its (x, y, z) position, and CTAs
  // past the edge (cluster rounding) find no tile.
  tilesN = arith::CeilDivUIOp::create(b, sizeN, i32(spec.tileN));
  tilesM = arith::CeilDivUIOp::create(b, sizeM, i32(spec.tileM));
  tilesMN = mul(tilesM, tilesN);
  numTiles = mul(tilesMN, paramValue("L"));
  Value bx = NVVM::BlockIdXOp::create(b, i32Ty);
  if (spec.rasterHeuristic) {
    // CUTLASS's heuristic: raster along M when there are more N tiles.
    alongM =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, tilesN, tilesM);
  } else {
    alongM = arith::ConstantIntOp::create(b, spec.rasterAlongM ? 1 : 0, 1);
  }
  if (spec.persistent) {
    tileStart = bx;
    tileStep = NVVM::GridDimXOp::create(b, i32Ty);
  } else {
    Value by = NVVM::BlockIdYOp::create(b, i32Ty);
    Value bz = NVVM::BlockIdZOp::create(b, i32Ty);
    Value tilesX = arith::SelectOp::create(b, alongM, tilesM, tilesN);
    Value inRange = ult(by, arith::SelectOp::create(b, alongM, tilesN, tilesM));
    inRange = arith::AndIOp::create(b, inRange, ult(bx, tilesX));
    Value linear = add(mul(bz, tilesMN), add(mul(by, tilesX), bx));
    tileStart = arith::SelectOp::create(b, inRange, linear, numTiles);
    tileStep = numTiles;
  }
}

/// The kernel body at the explicit level: the shared-memory carve, the
/// pipelines (their barriers at offBars: the mainloop's 2 x stages, then
/// the epilogue loads' 2 x stagesC), and one region per warp role.
void KernelEmitter::emitSpecialize() {
  MLIRContext *ctx = b.getContext();
  Type i32Ty = b.getI32Type();
  // Dynamic shared memory, rounded up to 1024 bytes (128B-swizzle atoms).
  auto global = LLVM::AddressOfOp::create(b, LLVM::LLVMPointerType::get(ctx, 3),
                                          "wsgemm_smem");
  Value raw = LLVM::PtrToIntOp::create(b, i32Ty, global);
  Value aligned = arith::AndIOp::create(b, add(raw, i32(1023)), i32(~1023));
  Value delta = arith::SubIOp::create(b, aligned, raw);
  smemBase = LLVM::GEPOp::create(b, sharedPtrTy, b.getI8Type(), global,
                                 ValueRange{delta});

  int64_t wgs = spec.consumerWarpgroups;
  auto mainTy = PipelineType::get(ctx, spec.stages, Role::load, Role::mma);
  Value mainBars = smem(spec.offBars);
  SmallVector<Value> captures(func.getArguments());
  captures.push_back(smemBase);
  captures.push_back(PipelineCreateOp::create(
      b, mainTy, mainBars, b.getI64IntegerAttr(spec.bytesA() + spec.bytesB()),
      b.getI64IntegerAttr(wgs)));
  SmallVector<Role> roles{Role::load};
  SmallVector<int32_t> warps{1};
  if (spec.hasEpiLoads()) {
    // One stage holds the subtile of every consumer warpgroup; each of them
    // releases it. C counts in the static bytes unless a run-time scalar
    // gates it while aux matrices keep the loader running (then the loader
    // announces C's bytes itself).
    int64_t bytes = 0;
    for (const AuxStream &aux : spec.auxLoads)
      bytes += spec.subtileBytes(aux.elemType);
    if (spec.cType && (!cGated || spec.auxLoads.empty()))
      bytes += spec.subtileBytes(spec.cType);
    auto epiTy = PipelineType::get(ctx, spec.stagesC, Role::epilogue_load,
                                   Role::mma);
    captures.push_back(PipelineCreateOp::create(
        b, epiTy, smem(spec.offBars + 16 * spec.stages),
        b.getI64IntegerAttr(wgs * bytes), b.getI64IntegerAttr(wgs)));
    roles.push_back(Role::epilogue_load);
    warps.push_back(1);
  }
  captures.push_back(StorePipelineCreateOp::create(
      b, StorePipelineType::get(ctx, spec.storeRing())));
  roles.push_back(Role::mma);
  warps.push_back(4 * wgs);
  SmallVector<int32_t> regs;
  if (spec.producerRegs && spec.consumerRegs) {
    regs.assign(roles.size() - 1, spec.producerRegs);
    regs.push_back(spec.consumerRegs);
  }
  auto ws = WarpSpecializeOp::create(b, captures, roles, warps, regs);

  OpBuilder::InsertionGuard guard(b);
  for (auto [i, role] : llvm::enumerate(roles)) {
    Block *block = &ws->getRegion(i).front();
    b.setInsertionPoint(block->getTerminator());
    enterRole(block);
    switch (role) {
    case Role::load:
      emitProducer();
      break;
    case Role::epilogue_load:
      emitEpilogueLoader();
      break;
    case Role::mma:
      emitConsumer(arith::SubIOp::create(b, wgIdx, i32(1)));
      break;
    }
  }
}

/// Binds the parameters, shared memory and pipelines to the arguments of a
/// role region and computes the role's geometry.
void KernelEmitter::enterRole(Block *block) {
  unsigned n = params.size();
  args.assign(block->args_begin(), block->args_begin() + n);
  roleBlock = block;
  descriptors.clear();
  smemBase = block->getArgument(n);
  mainPipe = block->getArgument(n + 1);
  epiPipe = spec.hasEpiLoads() ? block->getArgument(n + 2) : Value();
  storePipe = block->getArguments().back();
  vectorCache.clear();
  scalarValues.clear();
  emitGeometry();
}

//===----------------------------------------------------------------------===//
// Producer warp: TMA loads of A and B through the mainloop ring
//===----------------------------------------------------------------------===//

void KernelEmitter::decodeTile(Value tile) {
  batchIdx = arith::DivUIOp::create(b, tile, tilesMN);
  Value inBatch = arith::RemUIOp::create(b, tile, tilesMN);
  // `first` runs along the raster direction, `second` across it.
  Value fast = arith::SelectOp::create(b, alongM, tilesM, tilesN);
  Value first, second;
  if (spec.tileSwizzle == 1) {
    first = arith::RemUIOp::create(b, inBatch, fast);
    second = arith::DivUIOp::create(b, inBatch, fast);
  } else {
    // Swizzle S: bands of S tiles across the raster direction walk it
    // together (consecutive tiles alternate within the band), as CUTLASS's
    // tile scheduler does for L2 reuse. The last band holds the remaining
    // slow % S rows, so every tile index maps to a tile.
    Value slow = arith::SelectOp::create(b, alongM, tilesN, tilesM);
    Value s = i32(spec.tileSwizzle);
    Value bandTiles = mul(s, fast);
    Value fullBands = arith::DivUIOp::create(b, slow, s);
    Value tailStart = mul(fullBands, bandTiles);
    Value inTail = arith::CmpIOp::create(b, arith::CmpIPredicate::uge,
                                         inBatch, tailStart);
    Value bandSize = arith::SelectOp::create(
        b, inTail, arith::SubIOp::create(b, slow, mul(fullBands, s)), s);
    Value inBand = arith::SelectOp::create(
        b, inTail, arith::SubIOp::create(b, inBatch, tailStart),
        arith::RemUIOp::create(b, inBatch, bandTiles));
    Value band = arith::SelectOp::create(
        b, inTail, fullBands, arith::DivUIOp::create(b, inBatch, bandTiles));
    first = arith::DivUIOp::create(b, inBand, bandSize);
    second = add(mul(band, s), arith::RemUIOp::create(b, inBand, bandSize));
  }
  m0 = mul(arith::SelectOp::create(b, alongM, first, second), i32(spec.tileM));
  n0 = mul(arith::SelectOp::create(b, alongM, second, first), i32(spec.tileN));
}

scf::ForOp KernelEmitter::createTileLoop(ValueRange init) {
  auto loop = scf::ForOp::create(b, tileStart, numTiles, tileStep, init);
  b.setInsertionPointToStart(loop.getBody());
  decodeTile(loop.getInductionVar());
  return loop;
}

void KernelEmitter::emitProducer() {
  // One thread of the load warp issues every TMA load. The pipeline state
  // is carried through both loops: the ring's position continues across
  // tiles.
  ifThen(elect(), [&] {
    OpBuilder::InsertionGuard guard(b);
    Value start = PipelineStateInitOp::create(
        b, PipelineStateType::get(b.getContext(), spec.stages),
        PipelineAgent::producer);
    scf::ForOp tiles = createTileLoop(ValueRange{start});
    auto loop = scf::ForOp::create(b, i32(0), kTiles, i32(1),
                                   ValueRange{tiles.getRegionIterArgs()[0]});
    scf::YieldOp::create(b, loop.getResults());
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value state = loop.getRegionIterArgs()[0];
    // The stage is empty once every consumer warpgroup released it; then
    // its full barrier expects the bytes of A and B.
    ProducerAcquireOp::create(b, mainPipe, state);
    Value stage = stageIndex(state);
    Value kCoord = mul(kt, i32(spec.tileK));
    Value aDst = smemAt(add(i32(spec.offA), mul(stage, i32(spec.bytesA()))));
    tmaLoad(aDst, "A", coords(kCoord, m0), mainPipe, state);
    Value bDst = smemAt(add(i32(spec.offB), mul(stage, i32(spec.bytesB()))));
    if (spec.bKMajor) {
      tmaLoad(bDst, "B", coords(kCoord, n0), mainPipe, state);
    } else {
      // N-major B: 64-column blocks of [64 K rows][64 N], 8 KiB each.
      for (int64_t nb = 0; nb < spec.tileN / 64; ++nb)
        tmaLoad(smemAt2(bDst, i32(nb * 8192)), "B",
                coords(add(n0, i32(nb * 64)), kCoord), mainPipe, state);
    }
    ProducerCommitOp::create(b, mainPipe, state);
    scf::YieldOp::create(b, ValueRange{PipelineStateAdvanceOp::create(
                                b, state.getType(), state, /*by=*/1)});
  });
}

/// The epilogue-load warp: per output tile, the C and aux subtiles of every
/// consumer warpgroup, in the order the epilogue visits them, through the
/// StagesC pipeline (CUTLASS's producer warp role Epilogue).
void KernelEmitter::emitEpilogueLoader() {
  scanEpilogue();
  // Nothing to load when beta == 0 gates C off and no aux matrix is read.
  Value loadsActive = spec.auxLoads.empty()
                          ? useC
                          : arith::ConstantIntOp::create(b, 1, 1).getResult();
  int64_t total = (spec.wgRows() / 64) * (spec.tileN / spec.epiN);
  ifThen(loadsActive, [&] {
    ifThen(elect(), [&] {
      OpBuilder::InsertionGuard guard(b);
      // The pipeline state is carried through both loops, so that stage
      // addresses are computed where they are used: the warp runs on
      // setmaxnreg's small budget.
      Value start = PipelineStateInitOp::create(
          b, PipelineStateType::get(b.getContext(), spec.stagesC),
          PipelineAgent::producer);
      scf::ForOp tiles = createTileLoop(ValueRange{start});
      auto subtiles = scf::ForOp::create(
          b, i32(0), i32(total), i32(1),
          ValueRange{tiles.getRegionIterArgs()[0]});
      scf::YieldOp::create(b, subtiles.getResults());
      b.setInsertionPointToStart(subtiles.getBody());
      Value state = subtiles.getRegionIterArgs()[0];
      issueEpiLoads(subtiles.getInductionVar(), state);
      scf::YieldOp::create(b, ValueRange{PipelineStateAdvanceOp::create(
                                  b, state.getType(), state, /*by=*/1)});
    });
  });
}

//===----------------------------------------------------------------------===//
// Consumer warpgroups: wgmma mainloop
//===----------------------------------------------------------------------===//

/// The wgmma shared-memory matrix descriptor of a 128B-swizzled operand
/// starting at `sharedPtr`: start address >> 4 in bits 0-13, leading byte
/// offset >> 4 in 16-29, stride byte offset >> 4 in 32-45, swizzle mode 1
/// (128B) in bits 62-63. K-major: eight 128-byte rows of K form a 1024-byte
/// atom (SBO = 1024; LBO unused). MN-major: an atom is 8 K rows of 64
/// contiguous MN elements; SBO = 1024 steps 8 K rows, LBO steps 64 MN
/// elements (`mnBlockBytes`).
static Value makeDescriptor(ImplicitLocOpBuilder &b, Value sharedPtr,
                            int64_t mnBlockBytes = 16) {
  Value addr = LLVM::PtrToIntOp::create(b, b.getI64Type(), sharedPtr);
  Value start = arith::AndIOp::create(
      b,
      arith::ShRUIOp::create(b, addr, arith::ConstantIntOp::create(b, 4, 64)),
      arith::ConstantIntOp::create(b, 0x3FFF, 64));
  int64_t fixed = (int64_t(mnBlockBytes >> 4) << 16) |
                  (int64_t(1024 >> 4) << 32) | (int64_t(1) << 62);
  return arith::OrIOp::create(b, start,
                              arith::ConstantIntOp::create(b, fixed, 64));
}

SmallVector<Value> KernelEmitter::emitMainloop(Value kBase) {
  int64_t mBlocks = spec.wgRows() / 64;
  Value consumerWg = arith::SubIOp::create(b, wgIdx, i32(1));
  Value zero = LLVM::ZeroOp::create(b, accTy);
  SmallVector<Value> init(mBlocks, zero);

  Value start = PipelineStateInitOp::create(
      b, PipelineStateType::get(b.getContext(), spec.stages),
      PipelineAgent::consumer);
  auto loop = scf::ForOp::create(b, i32(0), kTiles, i32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value g = add(kBase, kt);
    Value state = stateAt(start, g);
    ConsumerWaitOp::create(b, mainPipe, state);
    Value stage = stageIndex(state);

    Value aStage = smemAt(add(i32(spec.offA), mul(stage, i32(spec.bytesA()))));
    Value bStage = smemAt(add(i32(spec.offB), mul(stage, i32(spec.bytesB()))));
    // This warpgroup's rows of A start wgRows * 128 bytes into the stage.
    Value aRows = LLVM::GEPOp::create(
        b, sharedPtrTy, b.getI8Type(), aStage,
        ValueRange{mul(consumerWg, i32(spec.wgRows() * 128))});
    Value descA = makeDescriptor(b, aRows);
    Value descB = spec.bKMajor ? makeDescriptor(b, bStage)
                               : makeDescriptor(b, bStage, 64 * 64 * 2);

    auto typeOf = [](Type t) {
      return t.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
    };
    auto shape = NVVM::MMAShapeAttr::get(b.getContext(), 64, spec.tileN, 16);
    SmallVector<Value> acc(loop.getRegionIterArgs());
    NVVM::WgmmaFenceAlignedOp::create(b);
    for (int64_t k16 = 0; k16 < spec.tileK / 16; ++k16) {
      // K-major: within a 128-byte swizzled row, k16 steps are 32 bytes
      // (2 units). N-major: 16 K rows of 128 bytes (128 units).
      Value dB =
          arith::AddIOp::create(b, descB, i64(k16 * (spec.bKMajor ? 2 : 128)));
      for (int64_t mb = 0; mb < mBlocks; ++mb) {
        // 64 rows of A are 64 * 128 = 8192 bytes (512 units).
        Value dA = arith::AddIOp::create(b, descA, i64(k16 * 2 + mb * 512));
        acc[mb] = NVVM::WgmmaMmaAsyncOp::create(
            b, accTy, acc[mb], dA, dB, shape, typeOf(spec.aType),
            typeOf(spec.bType), NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
            NVVM::MMALayout::row,
            spec.bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
            NVVM::MMAIntOverflowAttr());
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    // Keep this k-tile's group in flight; the previous one has retired, so
    // its stage goes back to the producer (one arrival per warpgroup).
    NVVM::WgmmaWaitGroupSyncOp::create(b, 1);
    Value hasPrev =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, kt, i32(0));
    Value releaser = arith::AndIOp::create(b, hasPrev, eq(tidInWg, i32(0)));
    ifThen(releaser, [&] {
      ConsumerReleaseOp::create(
          b, mainPipe, stateAt(start, arith::SubIOp::create(b, g, i32(1))));
    });
    scf::YieldOp::create(b, acc);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  // The last k-tile's stage goes back too, for the next tile of this CTA.
  Value hadAny =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, kTiles, i32(0));
  ifThen(arith::AndIOp::create(b, hadAny, eq(tidInWg, i32(0))), [&] {
    ConsumerReleaseOp::create(
        b, mainPipe,
        stateAt(start, arith::SubIOp::create(b, add(kBase, kTiles), i32(1))));
  });
  return SmallVector<Value>(loop.getResults());
}

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

Value KernelEmitter::subtileRow(Value consumerWg, int64_t mb) {
  return add(add(m0, mul(consumerWg, i32(spec.wgRows()))), i32(64 * mb));
}

/// The warpgroup's buffer for `slot` of a ring of `slots` subtiles of
/// `elemType` starting at `offset`.
Value KernelEmitter::ringBuffer(int64_t offset, Type elemType, int64_t slots,
                                Value consumerWg, Value slot) {
  int64_t bytes = spec.subtileBytes(elemType);
  return smemAt(add(add(i32(offset), mul(slot, i32(bytes))),
                    mul(consumerWg, i32(slots * bytes))));
}

/// Issues the TMA loads of this tile's epilogue subtile `t` of every
/// consumer warpgroup (C when it is read, and every aux matrix) into the
/// stage of the epilogue-load pipeline that `state` points at.
void KernelEmitter::issueEpiLoads(Value t, Value state) {
  Value nJ = i32(spec.tileN / spec.epiN);
  Value mb = arith::DivUIOp::create(b, t, nJ);
  Value j = arith::RemUIOp::create(b, t, nJ);
  ProducerAcquireOp::create(b, epiPipe, state);
  // C's bytes when a scalar gates it and the static count leaves it out.
  if (spec.cType && cGated && !spec.auxLoads.empty())
    ifThen(useC, [&] {
      ProducerExpectTxOp::create(
          b, epiPipe, state,
          i32(spec.consumerWarpgroups * spec.subtileBytes(spec.cType)));
    });
  Value slot = stageIndex(state);
  for (int64_t w = 0; w < spec.consumerWarpgroups; ++w) {
    Value wg = i32(w);
    Value row = add(add(m0, i32(w * spec.wgRows())), mul(mb, i32(64)));
    SmallVector<Value> crd = coords(add(n0, mul(j, i32(spec.epiN))), row);
    if (spec.cType)
      ifThen(useC, [&] {
        tmaLoad(ringBuffer(spec.offC, spec.cType, spec.stagesC, wg, slot), "C",
                crd, epiPipe, state);
      });
    for (const AuxStream &aux : spec.auxLoads)
      tmaLoad(ringBuffer(aux.offset, aux.elemType, spec.stagesC, wg, slot),
              aux.name, crd, epiPipe, state);
  }
  ProducerCommitOp::create(b, epiPipe, state);
}

/// A broadcast-vector element, loaded once per (leaf, row or column of the
/// thread) and reused by every element that shares it.
Value KernelEmitter::loadVector(Operation *leaf, StringRef name, Type elemType,
                                int64_t key, Value index) {
  Value &cached = vectorCache[{leaf, key}];
  if (!cached)
    cached = loadGlobal(paramValue(name), elemType, index);
  return cached;
}

Value KernelEmitter::loadGlobal(Value base, Type elemType, Value index) {
  Value ptr =
      LLVM::GEPOp::create(b, globalPtrTy, elemType, base, ValueRange{index});
  Value v = LLVM::LoadOp::create(b, elemType, ptr);
  if (!elemType.isF32())
    v = arith::ExtFOp::create(b, b.getF32Type(), v);
  return v;
}

/// Byte `offset` of a 64 x epiN subtile of `elemType` as TMA lays it out
/// with the subtile's swizzle: the 16-byte chunk index (bits 4..) XOR the
/// row's position in the swizzle pattern (bits 7..), over 1, 2 or 3 bits for
/// 32B, 64B and 128B. TMA applies the pattern to shared-memory addresses; it
/// matches buffer offsets because every buffer starts at a multiple of 1024
/// bytes from the aligned base (A/B stages are multiples of 8 KiB, subtiles
/// 64 rows of a multiple of 16 bytes).
Value KernelEmitter::swizzleOffset(Value offset, Type elemType) {
  int64_t swizzle = spec.subtileSwizzle(elemType);
  if (!swizzle)
    return offset;
  int64_t bits = llvm::Log2_64(swizzle / 16);
  Value rowPhase = arith::AndIOp::create(
      b, arith::ShRUIOp::create(b, offset, i32(7)), i32((1 << bits) - 1));
  return arith::XOrIOp::create(b, offset,
                               arith::ShLIOp::create(b, rowPhase, i32(4)));
}

/// The current element of a 64 x epiN subtile buffer, widened to f32.
Value KernelEmitter::loadShared(Value buf, Type elemType) {
  Value ptr = smemAt2(
      buf, swizzleOffset(mul(elemOffset, i32(byteWidth(elemType))), elemType));
  Value v = LLVM::LoadOp::create(b, elemType, ptr);
  if (!elemType.isF32())
    v = arith::ExtFOp::create(b, b.getF32Type(), v);
  return v;
}

void KernelEmitter::storeShared(Value buf, Value offset, Value v) {
  Type elemType = v.getType();
  Value ptr = smemAt2(
      buf, swizzleOffset(mul(offset, i32(byteWidth(elemType))), elemType));
  LLVM::StoreOp::create(b, v, ptr);
}

static RedKind toRedKind(epi::ReduceKind k) {
  switch (k) {
  case epi::ReduceKind::sum:
    return RedKind::Sum;
  case epi::ReduceKind::max:
    return RedKind::Max;
  case epi::ReduceKind::min:
    return RedKind::Min;
  case epi::ReduceKind::absmax:
    return RedKind::AbsMax;
  }
  llvm_unreachable("unknown reduce kind");
}

static double identityOf(RedKind k) {
  switch (k) {
  case RedKind::Sum:
  case RedKind::AbsMax:
    return 0.0;
  case RedKind::Max:
    return -std::numeric_limits<double>::infinity();
  case RedKind::Min:
    return std::numeric_limits<double>::infinity();
  }
  llvm_unreachable("unknown reduce kind");
}

static Value combine(ImplicitLocOpBuilder &b, RedKind k, Value acc, Value v) {
  switch (k) {
  case RedKind::Sum:
    return arith::AddFOp::create(b, acc, v);
  case RedKind::Max:
  case RedKind::AbsMax:
    return arith::MaximumFOp::create(b, acc, v);
  case RedKind::Min:
    return arith::MinimumFOp::create(b, acc, v);
  }
  llvm_unreachable("unknown reduce kind");
}

/// Visits the EVT for one accumulator element at global (gm, gn). Returns
/// the D value; emits aux stores and folds reduction contributions.
Value KernelEmitter::emitElement(Value acc, Value gm, Value gn, Value inBounds,
                                 Value cVal, int64_t mb, int64_t h,
                                 int64_t chunk, int64_t e) {
  Block &body = op.getEpilogue().front();
  IRMapping map;
  map.map(body.getArgument(0), acc);
  Value result;
  Value mClamped =
      arith::MinUIOp::create(b, gm, arith::SubIOp::create(b, sizeM, i32(1)));
  Value nClamped =
      arith::MinUIOp::create(b, gn, arith::SubIOp::create(b, sizeN, i32(1)));
  for (Operation &inner : body.without_terminator()) {
    auto mapTo = [&](Value v) { map.map(inner.getResult(0), v); };
    if (isa<epi::LoadSrcOp>(inner)) {
      mapTo(cVal ? cVal : f32(0.0));
    } else if (isa<epi::ScalarOp>(inner)) {
      mapTo(scalarValues.lookup(&inner));
    } else if (auto vec = dyn_cast<epi::LoadVecMOp>(inner)) {
      // Element m of this batch's vector; one load per row of the thread.
      mapTo(loadVector(&inner, vec.getName(), vec.getElemType(), mb * 2 + h,
                       add(mul(batchIdx, sizeM), mClamped)));
    } else if (auto vec = dyn_cast<epi::LoadVecNOp>(inner)) {
      // Element n; one load per column of the thread.
      mapTo(loadVector(&inner, vec.getName(), vec.getElemType(), chunk * 2 + e,
                       add(mul(batchIdx, sizeN), nClamped)));
    } else if (auto aux = dyn_cast<epi::AuxLoadOp>(inner)) {
      mapTo(loadShared(auxLoadBufs.lookup(aux.getName()), aux.getElemType()));
    } else if (auto convert = dyn_cast<epi::ConvertOp>(inner)) {
      mapTo(convertFloat(map.lookup(convert.getInput()), convert.getType(),
                         convert.getRounding()));
    } else if (auto store = dyn_cast<epi::StoreOp>(inner)) {
      result = map.lookup(store.getValue());
    } else if (auto aux = dyn_cast<epi::AuxStoreOp>(inner)) {
      // Staged in shared memory once the buffer is free (after the barrier
      // that precedes R2S); the subtile's TMA store clips the edges.
      Value v = convertFloat(map.lookup(aux.getValue()), aux.getElemType(),
                             epi::RoundingMode::rn);
      pendingAuxStores.push_back(
          {auxStoreBufs.lookup(aux.getName()), elemOffset, v});
    } else if (isa<epi::ReduceToVecMOp, epi::ReduceToVecNOp,
                   epi::ReduceToScalarOp>(inner)) {
      ReductionState *state = nullptr;
      for (ReductionState &r : reductions)
        if (r.op == &inner)
          state = &r;
      Value v = map.lookup(inner.getOperand(0));
      if (state->kind == RedKind::AbsMax)
        v = math::AbsFOp::create(b, v);
      v = arith::SelectOp::create(b, inBounds, v, f32(identityOf(state->kind)));
      int64_t key = isa<epi::ReduceToVecMOp>(inner)   ? mb * 2 + h
                    : isa<epi::ReduceToVecNOp>(inner) ? chunk * 2 + e
                                                      : 0;
      Value &partial = state->partials[key];
      partial = partial ? combine(b, state->kind, partial, v) : v;
    } else {
      b.clone(inner, map);
    }
  }
  return result;
}

/// Converts two f32 values to a packed pair of 16-bit floats with PTX's
/// cvt.{rn,rz}.{f16x2,bf16x2}.f32 (`hi` lands in the upper half).
Value KernelEmitter::cvtPair(Value lo, Value hi, Type elem,
                             epi::RoundingMode rounding) {
  auto vecTy = VectorType::get({2}, elem);
  NVVM::FPRoundingMode rnd = rounding == epi::RoundingMode::rz
                                 ? NVVM::FPRoundingMode::RZ
                                 : NVVM::FPRoundingMode::RN;
  if (elem.isBF16())
    return NVVM::ConvertF32x2ToBF16x2Op::create(b, vecTy, hi, lo, Value(), rnd);
  return NVVM::ConvertF32x2ToF16x2Op::create(b, vecTy, hi, lo, Value(), rnd);
}

/// epi.convert: widening is exact; narrowing f32 to f16/bf16 rounds as asked
/// (resolveKernelSpec refused the modes PTX lacks).
Value KernelEmitter::convertFloat(Value v, Type to,
                                  epi::RoundingMode rounding) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, to, v);
  if (!from.isF32())
    v = arith::ExtFOp::create(b, b.getF32Type(), v);
  if (to.isF32())
    return v;
  Value pair = cvtPair(v, v, to, rounding);
  return LLVM::ExtractElementOp::create(b, pair, i32(0));
}

/// Packs two f32 values into one 32-bit register of two 16-bit D elements,
/// rounding as the D store asks.
Value KernelEmitter::packPair(Value lo, Value hi) {
  return LLVM::BitcastOp::create(b, b.getI32Type(),
                                 cvtPair(lo, hi, spec.dType, dRounding));
}

void KernelEmitter::emitEpilogue(Value consumerWg, ArrayRef<Value> acc,
                                 Value subBase) {
  int64_t nJ = spec.tileN / spec.epiN;
  int64_t mBlocks = spec.wgRows() / 64;
  int64_t total = mBlocks * nJ;
  bool reuse = spec.reuseSmemC && spec.cType;
  // The stores of one subtile: D and every aux matrix, one bulk group.
  struct SubtileStore {
    Value dBuf, col, row;
    SmallVector<Value> auxBufs;
  };
  std::optional<SubtileStore> prev;
  auto storeSubtile = [&](const SubtileStore &st) {
    SmallVector<Value> crd = coords(st.col, st.row);
    StoreTmaOp::create(b, st.dBuf, tmaDescriptor("D"), crd, storePipe);
    for (auto [aux, buf] : llvm::zip(spec.auxStores, st.auxBufs))
      StoreTmaOp::create(b, buf, tmaDescriptor(aux.name), crd, storePipe);
    StoreCommitOp::create(b, storePipe);
  };
  // Whether this warpgroup waits for epilogue loads: C may be gated off at
  // run time (beta == 0); aux matrices are always read.
  Value loadsActive = spec.auxLoads.empty()
                          ? useC
                          : arith::ConstantIntOp::create(b, 1, 1).getResult();
  Value leader = eq(tidInWg, i32(0));
  Value barrierId = add(consumerWg, i32(1));
  // Each thread's rows and columns inside a 64 x epiN subtile.
  Value rowInSub =
      add(mul(warpInWg, i32(16)), arith::DivUIOp::create(b, lane, i32(4)));
  Value colInChunk = mul(arith::RemUIOp::create(b, lane, i32(4)), i32(2));
  Value epiStart;
  if (spec.hasEpiLoads())
    epiStart = PipelineStateInitOp::create(
        b, PipelineStateType::get(b.getContext(), spec.stagesC),
        PipelineAgent::consumer);
  // The epilogue-load pipeline's state of this tile's subtile t.
  auto epiState = [&](int64_t t) {
    return stateAt(epiStart, add(subBase, i32(t)));
  };

  for (int64_t t = 0; t < total; ++t) {
    int64_t mb = t / nJ, j = t % nJ;
    Value subRow = subtileRow(consumerWg, mb);
    Value subCol = add(n0, i32(j * spec.epiN));
    Value global = add(subBase, i32(t));
    Value cBuf, epiSt;
    auxLoadBufs.clear();
    auxStoreBufs.clear();
    if (spec.hasEpiLoads()) {
      epiSt = epiState(t);
      Value cSlot = stageIndex(epiSt);
      if (spec.cType)
        cBuf =
            ringBuffer(spec.offC, spec.cType, spec.stagesC, consumerWg, cSlot);
      for (const AuxStream &aux : spec.auxLoads)
        auxLoadBufs[aux.name] = ringBuffer(aux.offset, aux.elemType,
                                           spec.stagesC, consumerWg, cSlot);
      ifThen(loadsActive,
             [&] { ConsumerWaitOp::create(b, epiPipe, epiSt); });
    }
    // With ReuseSmemC, D is written over the C subtile it was computed from.
    Value storeSlot = arith::RemUIOp::create(b, global, i32(spec.storeRing()));
    SubtileStore current{reuse ? cBuf
                               : ringBuffer(spec.offD, spec.dType, spec.stagesD,
                                            consumerWg, storeSlot),
                         subCol,
                         subRow,
                         {}};
    for (const AuxStream &aux : spec.auxStores) {
      current.auxBufs.push_back(ringBuffer(
          aux.offset, aux.elemType, spec.storeRing(), consumerWg, storeSlot));
      auxStoreBufs[aux.name] = current.auxBufs.back();
    }
    Value dBuf = current.dBuf;

    // Visit the EVT on the 4 * epiN / 8 accumulator elements of this thread.
    SmallVector<Value> dVals;
    for (int64_t c = j * spec.epiN / 8; c < (j + 1) * spec.epiN / 8; ++c) {
      for (int64_t q = 0; q < 4; ++q) {
        int64_t h = q / 2, e = q % 2;
        int64_t localCol = 8 * c - j * spec.epiN + e;
        Value row = add(rowInSub, i32(8 * h));
        Value col = add(colInChunk, i32(localCol));
        Value gm = add(subRow, row);
        Value gn = add(subCol, col);
        Value inBounds =
            arith::AndIOp::create(b, ult(gm, sizeM), ult(gn, sizeN));
        Value accVal = LLVM::ExtractValueOp::create(b, acc[mb], c * 4 + q);
        elemOffset = add(mul(row, i32(spec.epiN)), col);
        Value cVal;
        if (spec.cType)
          cVal = arith::SelectOp::create(b, useC, loadShared(cBuf, spec.cType),
                                         f32(0.0));
        dVals.push_back(
            emitElement(accVal, gm, gn, inBounds, cVal, mb, h, c, e));
      }
    }

    // The buffer about to be written was last stored from `ring` subtiles
    // ago: wait until that TMA store has read it (counting the store still
    // held back by DelayTmaStore), and, since other threads' stmatrix rows
    // cover elements this thread read from C, until the warpgroup is done.
    ifThen(leader, [&] {
      if (spec.delayTmaStore)
        StoreWaitOp::create(b, storePipe,
                            b.getI32IntegerAttr(spec.storeRing() - 2));
      else
        StoreAcquireOp::create(b, storePipe);
    });
    namedBarrier(barrierId, 128);
    // Every thread of the warpgroup has read this subtile's C and aux
    // elements: the stage goes back to the loader, unless D is staged over
    // C (ReuseSmemC), whose release waits for D's TMA store below.
    if (spec.hasEpiLoads() && !reuse)
      ifThen(arith::AndIOp::create(b, leader, loadsActive),
             [&] { ConsumerReleaseOp::create(b, epiPipe, epiSt); });

    // Registers to shared memory: aux stores, then D.
    for (const PendingStore &st : pendingAuxStores)
      storeShared(st.buf, st.offset, st.value);
    pendingAuxStores.clear();
    int64_t chunks = spec.epiN / 8;
    if (byteWidth(spec.dType) == 2) {
      // stmatrix.x4: matrices (h=0, c), (h=1, c), (h=0, c+1), (h=1, c+1).
      Value laneRow = arith::RemUIOp::create(b, lane, i32(8));
      Value matrix = arith::DivUIOp::create(b, lane, i32(8));
      Value mh = arith::RemUIOp::create(b, matrix, i32(2));
      Value mc = arith::DivUIOp::create(b, matrix, i32(2));
      for (int64_t c = 0; c < chunks; c += 2) {
        SmallVector<Value> regs;
        for (int64_t k = 0; k < 4; ++k) {
          int64_t cc = c + k / 2, h = k % 2;
          regs.push_back(
              packPair(dVals[cc * 4 + 2 * h], dVals[cc * 4 + 2 * h + 1]));
        }
        Value row = add(add(mul(warpInWg, i32(16)), mul(mh, i32(8))), laneRow);
        Value col = mul(add(mc, i32(c)), i32(8));
        Value off = swizzleOffset(
            mul(add(mul(row, i32(spec.epiN)), col), i32(2)), spec.dType);
        NVVM::StMatrixOp::create(
            b, smemAt2(dBuf, off), regs, NVVM::MMALayout::row,
            NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
            NVVM::LdStMatrixEltType::B16);
      }
    } else {
      auto v2 = VectorType::get({2}, b.getF32Type());
      for (int64_t c = 0; c < chunks; ++c) {
        for (int64_t h = 0; h < 2; ++h) {
          Value vec = LLVM::UndefOp::create(b, v2);
          vec = LLVM::InsertElementOp::create(b, vec, dVals[c * 4 + 2 * h],
                                              i32(0));
          vec = LLVM::InsertElementOp::create(b, vec, dVals[c * 4 + 2 * h + 1],
                                              i32(1));
          Value row = add(rowInSub, i32(8 * h));
          Value col = add(colInChunk, i32(8 * c));
          Value off = swizzleOffset(
              mul(add(mul(row, i32(spec.epiN)), col), i32(4)), spec.dType);
          LLVM::StoreOp::create(b, vec, smemAt2(dBuf, off), /*alignment=*/8);
        }
      }
    }
    // Make the generic-proxy writes visible to the TMA engine, then one
    // thread stores the subtile.
    NVVM::FenceProxyOp::create(
        b, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    namedBarrier(barrierId, 128);
    ifThen(leader, [&] {
      if (!spec.delayTmaStore) {
        storeSubtile(current);
      } else {
        // DelayTmaStore: the previous subtile's store is issued now, after
        // this one's R2S, so its smem read overlaps with the next compute.
        if (prev)
          storeSubtile(*prev);
        if (t == total - 1)
          storeSubtile(current);
      }
      if (!reuse || !spec.hasEpiLoads())
        return;
      // ReuseSmemC (never with DelayTmaStore): a C stage goes back to the
      // loader once the D store staged in it has read it. The previous
      // subtile's store is the one before this subtile's; the tile's last
      // stage is handed back before the next tile.
      ifThen(loadsActive, [&] {
        if (t >= 1) {
          StoreWaitOp::create(
              b, storePipe,
              b.getI32IntegerAttr(std::min<int64_t>(1, spec.storeRing() - 1)));
          ConsumerReleaseOp::create(b, epiPipe, epiState(t - 1));
        }
        if (t == total - 1) {
          StoreWaitOp::create(b, storePipe, b.getI32IntegerAttr(0));
          ConsumerReleaseOp::create(b, epiPipe, epiSt);
        }
      });
    });
    prev = current;
  }
  emitReductionFlush();
}

//===----------------------------------------------------------------------===//
// Reductions: shuffle within the warp, then one atomic per output element
//===----------------------------------------------------------------------===//

void KernelEmitter::emitReductionFlush() {
  // Float max/min as integer atomics: for x >= 0 the bit patterns order like
  // signed integers, for x < 0 like reversed unsigned integers.
  auto atomic = [&](RedKind kind, Value ptr, Value v) {
    if (kind == RedKind::Sum) {
      LLVM::AtomicRMWOp::create(b, LLVM::AtomicBinOp::fadd, ptr, v,
                                LLVM::AtomicOrdering::monotonic);
      return;
    }
    Value bits = LLVM::BitcastOp::create(b, b.getI32Type(), v);
    if (kind == RedKind::AbsMax) {
      LLVM::AtomicRMWOp::create(b, LLVM::AtomicBinOp::umax, ptr, bits,
                                LLVM::AtomicOrdering::monotonic);
      return;
    }
    Value nonNeg =
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, bits, i32(0));
    bool isMax = kind == RedKind::Max;
    auto ifOp = scf::IfOp::create(b, nonNeg, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    LLVM::AtomicRMWOp::create(
        b, isMax ? LLVM::AtomicBinOp::max : LLVM::AtomicBinOp::min, ptr, bits,
        LLVM::AtomicOrdering::monotonic);
    b.setInsertionPointToStart(ifOp.elseBlock());
    LLVM::AtomicRMWOp::create(
        b, isMax ? LLVM::AtomicBinOp::umin : LLVM::AtomicBinOp::umax, ptr, bits,
        LLVM::AtomicOrdering::monotonic);
  };
  auto shuffleCombine = [&](RedKind kind, Value v, ArrayRef<int> masks) {
    for (int m : masks) {
      Value other =
          NVVM::ShflOp::create(b, b.getF32Type(), i32(-1), v, i32(m), i32(0x1f),
                               NVVM::ShflKind::bfly, UnitAttr());
      v = combine(b, kind, v, other);
    }
    return v;
  };
  Value consumerWg = arith::SubIOp::create(b, wgIdx, i32(1));
  Value rowInSub =
      add(mul(warpInWg, i32(16)), arith::DivUIOp::create(b, lane, i32(4)));
  Value colInChunk = mul(arith::RemUIOp::create(b, lane, i32(4)), i32(2));
  for (ReductionState &r : reductions) {
    Value out = args[r.paramIndex];
    if (isa<epi::ReduceToVecMOp>(r.op)) {
      // Lanes 4r..4r+3 share a row: combine across them.
      for (auto [key, partial] : r.partials) {
        int64_t mb = key / 2, h = key % 2;
        Value v = shuffleCombine(r.kind, partial, {1, 2});
        Value gm = add(add(subtileRow(consumerWg, mb), rowInSub), i32(8 * h));
        Value pred = arith::AndIOp::create(
            b, eq(arith::RemUIOp::create(b, lane, i32(4)), i32(0)),
            ult(gm, sizeM));
        ifThen(pred, [&] {
          Value idx = add(mul(batchIdx, sizeM), gm);
          atomic(r.kind,
                 LLVM::GEPOp::create(b, globalPtrTy, b.getF32Type(), out,
                                     ValueRange{idx}),
                 v);
        });
      }
    } else if (isa<epi::ReduceToVecNOp>(r.op)) {
      // Lanes with equal lane % 4 share columns: combine across the 8 rows.
      for (auto [key, partial] : r.partials) {
        int64_t c = key / 2, e = key % 2;
        Value v = shuffleCombine(r.kind, partial, {4, 8, 16});
        Value gn = add(add(n0, colInChunk), i32(8 * c + e));
        Value pred =
            arith::AndIOp::create(b, ult(lane, i32(4)), ult(gn, sizeN));
        ifThen(pred, [&] {
          Value idx = add(mul(batchIdx, sizeN), gn);
          atomic(r.kind,
                 LLVM::GEPOp::create(b, globalPtrTy, b.getF32Type(), out,
                                     ValueRange{idx}),
                 v);
        });
      }
    } else {
      Value v = r.partials.front().second;
      v = shuffleCombine(r.kind, v, {1, 2, 4, 8, 16});
      ifThen(eq(lane, i32(0)), [&] { atomic(r.kind, out, v); });
    }
  }
}

//===----------------------------------------------------------------------===//
// Consumer entry and the kernel
//===----------------------------------------------------------------------===//

/// What the epilogue reads before visiting elements: scalars (kernel
/// parameters by value, device scalars read once), C's run-time gate, the
/// D store's rounding and the reductions.
void KernelEmitter::scanEpilogue() {
  Block &body = op.getEpilogue().front();
  useC = arith::ConstantIntOp::create(b, 1, 1);
  reductions.clear();
  for (Operation &inner : body) {
    if (auto store = dyn_cast<epi::StoreOp>(inner))
      dRounding = store.getRounding();
    if (auto scalar = dyn_cast<epi::ScalarOp>(inner)) {
      Value v;
      if (scalar.getSource() == epi::ScalarSource::attr) {
        v = f32(scalar.getValue()->convertToDouble());
      } else {
        for (Attribute name : scalar.getNamesAttr()) {
          Value arg = paramValue(cast<StringAttr>(name).getValue());
          Value s =
              scalar.getSource() == epi::ScalarSource::param
                  ? arg
                  : LLVM::LoadOp::create(b, b.getF32Type(), arg).getResult();
          v = v ? arith::MulFOp::create(b, v, s).getResult() : s;
        }
      }
      scalarValues[&inner] = v;
    }
    if (auto src = dyn_cast<epi::LoadSrcOp>(inner)) {
      if (std::optional<StringRef> gate = src.getSkipIfZero())
        useC = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE,
                                     paramValue(*gate), f32(0.0));
    }
    auto addReduction = [&](auto red) {
      reductions.push_back(
          {&inner, toRedKind(red.getKind()), paramIndex(red.getName()), {}});
    };
    if (auto red = dyn_cast<epi::ReduceToVecMOp>(inner))
      addReduction(red);
    if (auto red = dyn_cast<epi::ReduceToVecNOp>(inner))
      addReduction(red);
    if (auto red = dyn_cast<epi::ReduceToScalarOp>(inner))
      addReduction(red);
  }
}

void KernelEmitter::emitConsumer(Value consumerWg) {
  scanEpilogue();
  int64_t total = (spec.wgRows() / 64) * (spec.tileN / spec.epiN);
  {
    OpBuilder::InsertionGuard guard(b);
    scf::ForOp tiles = createTileLoop(ValueRange{i32(0), i32(0)});
    Value kBase = tiles.getRegionIterArgs()[0];
    Value subBase = tiles.getRegionIterArgs()[1];
    vectorCache.clear();
    for (ReductionState &r : reductions)
      r.partials.clear();
    SmallVector<Value> acc = emitMainloop(kBase);
    emitEpilogue(consumerWg, acc, subBase);
    scf::YieldOp::create(
        b, ValueRange{add(kBase, kTiles), add(subBase, i32(total))});
  }
  // Every TMA store must finish before the CTA exits.
  ifThen(eq(tidInWg, i32(0)), [&] { StoreTailOp::create(b, storePipe); });
}

LogicalResult KernelEmitter::build() {
  MLIRContext *ctx = b.getContext();
  sharedPtrTy = LLVM::LLVMPointerType::get(ctx, 3);
  globalPtrTy = LLVM::LLVMPointerType::get(ctx, 1);
  accTy = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(spec.tileN / 2, b.getF32Type()));

  // Signature: tensor maps by value (__grid_constant__, 64-byte aligned),
  // then pointers, scalars and sizes, in manifest order.
  SmallVector<Type> argTypes;
  for (const KernelParam &p : params) {
    switch (p.kind) {
    case KernelParam::Kind::TensorMap:
      argTypes.push_back(LLVM::LLVMPointerType::get(ctx));
      break;
    case KernelParam::Kind::Pointer:
    case KernelParam::Kind::ScalarPointer:
    case KernelParam::Kind::Reduction:
      argTypes.push_back(globalPtrTy);
      break;
    case KernelParam::Kind::Scalar:
      argTypes.push_back(b.getF32Type());
      break;
    case KernelParam::Kind::Size:
      argTypes.push_back(b.getI32Type());
      break;
    }
  }
  auto fnTy =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  func = LLVM::LLVMFuncOp::create(b, spec.name, fnTy);
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                b.getDenseI32ArrayAttr({int32_t(spec.threads()), 1, 1}));
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(1));
  for (auto [i, p] : llvm::enumerate(params)) {
    if (p.kind != KernelParam::Kind::TensorMap)
      continue;
    func.setArgAttr(
        i, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(64));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    b.getUnitAttr());
  }
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);

  for (Operation &inner : op.getEpilogue().front())
    if (auto src = dyn_cast<epi::LoadSrcOp>(inner))
      cGated = src.getSkipIfZero().has_value();
  emitSpecialize();
  LLVM::ReturnOp::create(b, ValueRange{});
  return success();
}

LogicalResult mlir::wsgemm::detail::buildKernel(OpBuilder &builder, GemmOp op,
                                                const KernelSpec &spec,
                                                ArrayRef<KernelParam> params) {
  KernelEmitter kb(builder, op, spec, params);
  return kb.build();
}
