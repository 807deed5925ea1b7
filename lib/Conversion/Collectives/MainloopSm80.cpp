//===- MainloopSm80.cpp - The sm_8x mainloop consumer ---------------------===//
//
// Implements MainloopSm80.h. A K-major stage holds the tile's rows (M for
// A, N for B) of 128 bytes (64 elements of a 16-bit K, 128 of fp8), row
// r's 16-byte chunk c at chunk c ^ (r % 8) (the 128B swizzle emitCopyTile
// writes). One k-step (k16, or k32 for fp8) reads 2 chunks of a row:
//   A, per 64-row block: one ldmatrix.x4 per warp, lane l giving the
//     address of row 16 w + 8 ((l / 8) % 2) + l % 8 at chunk 2 ks + l / 16;
//     its four 8x8 matrices are mma.sync's a0..a3 (rows 0-7 / 8-15 by k
//     0-7, then k 8-15).
//   B, per 16 columns: one ldmatrix.x4, lane l giving row (column of the
//     tile) 8 (l / 16) + l % 8 at chunk 2 ks + (l / 8) % 2; matrices 0, 1
//     are b0, b1 of the first 8 columns, 2, 3 those of the next 8 (a
//     K-major B is mma.sync's `col` operand without a transpose).
// The 8 rows one 8x8 matrix reads are 8 consecutive rows, so r % 8 takes
// every value once and the 8 16-byte reads fall in distinct banks.
// With warp_columns = 2 (KernelLayout.h) warp w reads A's rows 16 (w % 2)
// of each 32-row block and B's columns from (tile N / 2) (w / 2): a 64 x
// 64 warp tile in one warpgroup of 128 rows (CUTLASS's sm_80 shape), 32 x
// 64 in a cooperative one, 6 ldmatrix.x4 per 16 mma.sync instead of 9.
// The warp-specialized loop waits on the producer's full barriers (with
// one consumer warpgroup software-pipelined across k-tiles, below); the
// multistage one (no producer) copies with every thread of the CTA and
// orders the ring with cp.async groups and bar.sync. All multiply a stage
// with the same StageMma.
//
//===----------------------------------------------------------------------===//

#include "MainloopSm80.h"

#include "CpAsyncProducer.h"
#include "Mainloop.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

/// Four 8x8 b16 matrices from the rows at `ptr` (one per lane): four i32.
static SmallVector<Value> loadMatrices(KernelContext &kc, Value ptr) {
  ImplicitLocOpBuilder &b = kc.b;
  auto quad = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                               SmallVector<Type>(4, kc.i32Ty));
  Value regs = NVVM::LdMatrixOp::create(
      b, quad, ptr, 4, NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> out;
  for (int64_t k = 0; k < 4; ++k)
    out.push_back(LLVM::ExtractValueOp::create(b, regs, k));
  return out;
}

namespace {
/// One consumer thread's side of mma.sync over a swizzled stage: its
/// ldmatrix row addresses (computed once) and the k16 steps of a stage.
/// Accumulators are flat: (64-row block, 8-column chunk, element) in
/// wgmma's order, element q at row half q / 2, column q % 2.
class StageMma {
public:
  StageMma(KernelContext &kc, Value consumerWg);
  /// The zero accumulators.
  SmallVector<Value> zeros() {
    return SmallVector<Value>(mBlocks * chunks * 4, kc.f32(0.0));
  }
  /// acc += A x B of the stage at `aStage`, `bStage` (shared pointers).
  void multiply(Value aStage, Value bStage, SmallVector<Value> &acc);
  /// This thread's fragments of k-step `ks` of a stage: each 64-row block's
  /// four A registers, then each 16-column pair's four B registers.
  SmallVector<Value> load(Value aStage, Value bStage, int64_t ks);
  /// acc += the product of one k-step's fragments (as `load` gives them).
  void mma(ArrayRef<Value> frag, SmallVector<Value> &acc);
  int64_t steps() const { return kSteps; }
  /// The registers `load` gives.
  int64_t fragmentCount() const { return 4 * (mBlocks + chunks / 2); }
  /// The flat accumulators as the epilogue takes them: one struct per
  /// block of the warp's rows (getAccumulatorType's, per 64-row block, with
  /// one column of warps).
  SmallVector<Value> pack(ValueRange flat);

private:
  KernelContext &kc;
  int64_t mBlocks, chunks, kSteps;
  bool bf16;
  /// fp8 (sm_89): mma.sync.m16n8k32 with these PTX types of A and B, "" for
  /// 16-bit operands.
  StringRef fp8A, fp8B;
  Value aRowBytes, bRowBytes;
  SmallVector<Value> aChunk, bChunk;
  Value pair(Value v);
  /// mma.sync.m16n8k32 on fp8 A and B with f32 accumulators (inline PTX:
  /// NVVM's mma op has no dense fp8 form); returns the 4 sums.
  Value mmaFp8(Type quadF32, ValueRange a, ValueRange b, ValueRange c);
};
} // namespace

/// The PTX type of an fp8 operand of mma.sync, "" for a 16-bit one.
static StringRef fp8Type(pl::DType t) {
  return t == pl::DType::F8E4M3   ? "e4m3"
         : t == pl::DType::F8E5M2 ? "e5m2"
                                  : "";
}

// A k-step reads 32 bytes of each row, 2 of a row's 8 chunks, whatever the
// element: 16 K of a 16-bit operand (m16n8k16), 32 of an 8-bit one
// (m16n8k32). Their fragments are the same bytes: register i of a lane
// holds the 4 bytes at (row g + 8 (i % 2), byte 16 (i / 2) + 4 t) of A and
// (byte 16 i + 4 t, column g) of B (g = lane / 4, t = lane % 4), so the
// ldmatrix loads serve both.
StageMma::StageMma(KernelContext &kc, Value consumerWg)
    : kc(kc), mBlocks(kc.layout.rowBlocks()), chunks(kc.layout.warpN() / 8),
      kSteps(kc.layout.tileK * pl::getBits(kc.desc.a) / 8 / 32),
      bf16(kc.desc.a == pl::DType::BF16), fp8A(fp8Type(kc.desc.a)),
      fp8B(fp8Type(kc.desc.b)) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  // This lane's ldmatrix rows: byte offsets in a stage of A's rows (per
  // 64-row block) and B's (per 16 columns), and the swizzled chunk offsets
  // of each k16 step.
  Value matrix = kc.divu(kc.lane, kc.i32(8));
  Value rowInMatrix = kc.remu(kc.lane, kc.i32(8));
  // The warp's rows start 16 (w % warpsM) into each block of blockRows
  // rows, its columns warpN (w / warpsM) into the tile (KernelLayout.h).
  Value warpRow = kc.remu(kc.warpInWg, kc.i32(layout.warpsM()));
  Value warpCol = kc.divu(kc.warpInWg, kc.i32(layout.warpsM()));
  Value aRow0 = kc.add(
      kc.add(kc.mul(consumerWg, kc.i32(layout.wgRows)),
             kc.mul(warpRow, kc.i32(16))),
      kc.add(kc.mul(kc.remu(matrix, kc.i32(2)), kc.i32(8)), rowInMatrix));
  Value bRow0 =
      kc.add(kc.add(kc.mul(kc.divu(matrix, kc.i32(2)), kc.i32(8)), rowInMatrix),
             kc.mul(warpCol, kc.i32(layout.warpN())));
  auto chunkOffset = [&](Value kHalf, int64_t ks) {
    Value chunk = kc.add(kc.i32(2 * ks), kHalf);
    return kc.mul(arith::XOrIOp::create(b, chunk, rowInMatrix), kc.i32(16));
  };
  for (int64_t ks = 0; ks < kSteps; ++ks) {
    aChunk.push_back(chunkOffset(kc.divu(matrix, kc.i32(2)), ks));
    bChunk.push_back(chunkOffset(kc.remu(matrix, kc.i32(2)), ks));
  }
  aRowBytes = kc.mul(aRow0, kc.i32(128));
  bRowBytes = kc.mul(bRow0, kc.i32(128));
}

/// f16 fragments are vector<2xf16> for mma.sync; bf16 and fp8 ones stay
/// i32.
Value StageMma::pair(Value v) {
  if (bf16 || !fp8A.empty())
    return v;
  return LLVM::BitcastOp::create(kc.b, VectorType::get({2}, kc.b.getF16Type()),
                                 v);
}

SmallVector<Value> StageMma::load(Value aStage, Value bStage, int64_t ks) {
  SmallVector<Value> frag;
  const int64_t blockBytes = kc.layout.blockRows() * 128;
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    llvm::append_range(
        frag, loadMatrices(kc, kc.gep(aStage,
                                      kc.add(kc.add(aRowBytes, aChunk[ks]),
                                             kc.i32(mb * blockBytes)))));
  for (int64_t nb = 0; nb < chunks / 2; ++nb)
    llvm::append_range(
        frag, loadMatrices(kc, kc.gep(bStage,
                                      kc.add(kc.add(bRowBytes, bChunk[ks]),
                                             kc.i32(nb * 16 * 128)))));
  return frag;
}

void StageMma::mma(ArrayRef<Value> frag, SmallVector<Value> &acc) {
  ImplicitLocOpBuilder &b = kc.b;
  NVVM::MMATypes mmaType = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  auto quadF32 = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, kc.f32Ty));
  for (int64_t nb = 0; nb < chunks / 2; ++nb) {
    ArrayRef<Value> bFrag = frag.slice(4 * (mBlocks + nb), 4);
    for (int64_t half = 0; half < 2; ++half) {
      int64_t chunk = 2 * nb + half;
      SmallVector<Value> bOps{pair(bFrag[2 * half]), pair(bFrag[2 * half + 1])};
      for (int64_t mb = 0; mb < mBlocks; ++mb) {
        SmallVector<Value> aOps;
        for (Value a : frag.slice(4 * mb, 4))
          aOps.push_back(pair(a));
        int64_t at = (mb * chunks + chunk) * 4;
        SmallVector<Value> cOps(ArrayRef<Value>(acc).slice(at, 4));
        Value d =
            fp8A.empty()
                ? NVVM::MmaOp::create(
                      b, quadF32, aOps, bOps, cOps,
                      ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
                      std::array<NVVM::MMATypes, 2>{mmaType, mmaType},
                      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                     NVVM::MMALayout::col})
                : mmaFp8(quadF32, aOps, bOps, cOps);
        for (int64_t q = 0; q < 4; ++q)
          acc[at + q] = LLVM::ExtractValueOp::create(b, d, q);
      }
    }
  }
}

void StageMma::multiply(Value aStage, Value bStage, SmallVector<Value> &acc) {
  for (int64_t ks = 0; ks < kSteps; ++ks)
    mma(load(aStage, bStage, ks), acc);
}

Value StageMma::mmaFp8(Type quadF32, ValueRange a, ValueRange b,
                       ValueRange c) {
  SmallVector<Value> operands(a);
  llvm::append_range(operands, b);
  llvm::append_range(operands, c);
  std::string text = ("mma.sync.aligned.m16n8k32.row.col.f32." + fp8A + "." +
                      fp8B + ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, "
                             "{$8, $9}, {$10, $11, $12, $13};")
                         .str();
  return LLVM::InlineAsmOp::create(
             kc.b, quadF32, operands, text, "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f",
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

SmallVector<Value> StageMma::pack(ValueRange flat) {
  // wgmma's struct (getAccumulatorType) with one column of warps; a warp's
  // own columns with two.
  Type accTy = LLVM::LLVMStructType::getLiteral(
      kc.b.getContext(), SmallVector<Type>(chunks * 4, kc.f32Ty));
  SmallVector<Value> result;
  for (int64_t mb = 0; mb < mBlocks; ++mb) {
    Value s = LLVM::UndefOp::create(kc.b, accTy);
    for (int64_t i = 0; i < chunks * 4; ++i)
      s = LLVM::InsertValueOp::create(kc.b, s, flat[mb * chunks * 4 + i], i);
    result.push_back(s);
  }
  return result;
}

/// The stage `stage` (i32) of A's and B's rings.
static std::pair<Value, Value> stagePointers(KernelContext &kc, Value stage) {
  const pl::KernelLayout &layout = kc.layout;
  return {kc.smemAt(kc.add(kc.i32(layout.offA),
                           kc.mul(stage, kc.i32(layout.stageBytesA)))),
          kc.smemAt(kc.add(kc.i32(layout.offB),
                           kc.mul(stage, kc.i32(layout.stageBytesB))))};
}

/// The consumer loop without lookahead: wait for k-tile kt's stage,
/// multiply it, release it. The cooperative kernels take it: their 168
/// registers per thread (384 threads) have no room for a second k-step's
/// fragments carried across iterations (the sm_80 kernel with an aux store
/// and three reductions spilled 284 bytes with them), and the lookahead
/// measured 0-1% there.
static SmallVector<Value> emitMainloopInOrder(KernelContext &kc,
                                              const WorkTile &tile,
                                              StageMma &mma, Value start,
                                              Value kBase) {
  ImplicitLocOpBuilder &b = kc.b;
  auto loop =
      scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), mma.zeros());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value state = kc.stateAt(start, kc.add(kBase, loop.getInductionVar()));
  ConsumerWaitOp::create(b, kc.mainPipe, state);
  auto [aStage, bStage] = stagePointers(kc, kc.stageIndex(state));
  SmallVector<Value> acc(loop.getRegionIterArgs());
  mma.multiply(aStage, bStage, acc);
  // Every thread's ldmatrix reads of the stage are done (their results are
  // in registers): each thread arrives on the empty barrier.
  ConsumerReleaseOp::create(b, kc.mainPipe, state, Value(), Value());
  scf::YieldOp::create(b, acc);
  b.setInsertionPointAfter(loop);
  return mma.pack(loop.getResults());
}

// The loop is software-pipelined across k-tiles, as CUTLASS's multistage
// mainloop is: iteration kt first waits for k-tile kt + 1's stage, releases
// its own stage once its last k-step's fragments are loaded, reads the next
// stage's first fragments, and then runs the last k-step's mma.sync, so the
// tensor pipe has work while those ldmatrix are in flight; the first
// k-step's fragments are loop-carried. The wait sits at the top of the
// iteration, not beside the loads: its spin loop splits the code into
// blocks ptxas schedules apart, and at the top the k-tile's ldmatrix and
// mma.sync stay one straight-line block (so the lookahead is one stage
// shorter). The release comes before the next stage's ldmatrix: after them
// it cost 2% at 4096^3 (the arrival's release semantics likely wait for
// those loads, holding the last mma.sync back). The last k-tile reads its
// own stage again instead (never a stage the producer may be refilling) and
// releases it after that read; both releases are predicated arrivals, not
// branches. Peeling the last k-tile instead made the 255-register
// warp_specialized kernel spill.
SmallVector<Value> collectives::emitMainloopMmaSm80(KernelContext &kc,
                                                    const WorkTile &tile,
                                                    Value consumerWg,
                                                    Value kBase) {
  ImplicitLocOpBuilder &b = kc.b;
  StageMma mma(kc, consumerWg);
  Value start = PipelineStateInitOp::create(
      b, PipelineStateType::get(b.getContext(), kc.layout.stages),
      PipelineAgent::consumer);
  if (kc.layout.consumerWarpgroups != 1)
    return emitMainloopInOrder(kc, tile, mma, start, kBase);
  auto stateOf = [&](Value kt) { return kc.stateAt(start, kc.add(kBase, kt)); };
  auto stageOf = [&](Value kt) {
    return stagePointers(kc, kc.stageIndex(stateOf(kt)));
  };
  // k-tile 0's first fragments (zeros for a work tile without k-tiles,
  // whose loop does not run).
  SmallVector<Value> init = mma.zeros();
  const int64_t nAcc = init.size();
  {
    auto first = scf::IfOp::create(
        b, SmallVector<Type>(mma.fragmentCount(), kc.i32Ty),
        kc.ult(kc.i32(0), tile.kTiles), /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    ConsumerWaitOp::create(b, kc.mainPipe, stateOf(kc.i32(0)));
    auto [a0, b0] = stageOf(kc.i32(0));
    scf::YieldOp::create(b, mma.load(a0, b0, 0));
    b.setInsertionPointToStart(first.elseBlock());
    scf::YieldOp::create(
        b, SmallVector<Value>(mma.fragmentCount(), kc.i32(0)));
    b.setInsertionPointAfter(first);
    llvm::append_range(init, first.getResults());
  }
  auto loop = scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value next = kc.add(kt, kc.i32(1));
    Value more = kc.ult(next, tile.kTiles);
    Value state = stateOf(kt);
    kc.ifThen(more,
              [&] { ConsumerWaitOp::create(b, kc.mainPipe, stateOf(next)); });
    auto [aStage, bStage] = stagePointers(kc, kc.stageIndex(state));
    ValueRange args = loop.getRegionIterArgs();
    SmallVector<Value> acc(args.take_front(nAcc));
    SmallVector<Value> frag(args.drop_front(nAcc));
    for (int64_t ks = 0; ks < mma.steps(); ++ks) {
      SmallVector<Value> ahead;
      if (ks + 1 < mma.steps()) {
        ahead = mma.load(aStage, bStage, ks + 1);
      } else {
        // Every ldmatrix of this stage is issued: each thread arrives on
        // the empty barrier, the last k-tile after its extra read.
        ConsumerReleaseOp::create(b, kc.mainPipe, state, Value(), more);
        auto [an, bn] = stageOf(kc.select(more, next, kt));
        ahead = mma.load(an, bn, 0);
        ConsumerReleaseOp::create(b, kc.mainPipe, state, Value(),
                                  kc.eq(next, tile.kTiles));
      }
      mma.mma(frag, acc);
      frag = ahead;
    }
    llvm::append_range(acc, frag);
    scf::YieldOp::create(b, acc);
  }
  return mma.pack(ValueRange(loop.getResults()).take_front(nAcc));
}

/// The multistage loop in order: at the top of each k-tile every thread
/// waits for its copies of the k-tile and meets the others at bar.sync,
/// copies k-tile kt + stages - 1 (the edge-checked or straight-line copies
/// of emitCpAsyncOperandCopies), then multiplies the stage. Returns the
/// flat accumulators.
static SmallVector<Value> emitMultistageInOrder(KernelContext &kc,
                                                const WorkTile &tile,
                                                StageMma &mma,
                                                int64_t threads) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  const int64_t stages = layout.stages;
  // Every thread of the CTA copies its pieces of k-tile `kt` (i32) into
  // stage `stage`, one cp.async group per k-tile (empty past the tile's
  // k-tiles, so that the group count stays k-tile + stages - 1).
  auto copyKTile = [&](Value kt, Value stage) {
    kc.ifThen(kc.ult(kt, tile.kTiles), [&] {
      auto [aDst, bDst] = stagePointers(kc, stage);
      Value kCoord = kc.mul(kc.add(tile.kBegin, kt), kc.i32(layout.tileK));
      emitCpAsyncOperandCopies(kc, tile, kCoord, aDst, bDst, kc.tid, threads);
    });
    NVVM::CpAsyncCommitGroupOp::create(b);
  };
  for (int64_t s = 0; s + 1 < stages; ++s)
    copyKTile(kc.i32(s), kc.i32(s));
  auto loop =
      scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), mma.zeros());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value kt = loop.getInductionVar();
  // This thread's copies of k-tile kt landed; after the barrier every
  // thread's have, and every thread is done reading stage kt - 1, which
  // k-tile kt + stages - 1 refills.
  NVVM::CpAsyncWaitGroupOp::create(b, stages - 2);
  kc.namedBarrier(kc.i32(0), threads);
  Value next = kc.add(kt, kc.i32(stages - 1));
  copyKTile(next, kc.remu(next, kc.i32(stages)));
  auto [aStage, bStage] = stagePointers(kc, kc.remu(kt, kc.i32(stages)));
  SmallVector<Value> acc(loop.getRegionIterArgs());
  mma.multiply(aStage, bStage, acc);
  scf::YieldOp::create(b, acc);
  return SmallVector<Value>(loop.getResults());
}

/// The multistage loop software-pipelined as CUTLASS's MmaMultistage is:
/// k-step ks loads k-step ks + 1's fragments, runs ks's mma.sync, then
/// issues its share of k-tile kt + stages - 1's copies (branch-free,
/// KTileCopier), the group committed after the second-to-last k-step; the
/// last k-step waits for k-tile kt + 1 and meets the other threads at
/// bar.sync before loading that stage's first fragments, so the barrier
/// and the loads' latency fall behind k-step ks's mma.sync in the tensor
/// pipe instead of ahead of a k-tile's first.
/// Every read of stage kt is issued before that barrier, so the copies
/// after it may refill the stage. Returns the flat accumulators.
static SmallVector<Value> emitMultistagePipelined(KernelContext &kc,
                                                  const WorkTile &tile,
                                                  StageMma &mma,
                                                  int64_t threads) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  const int64_t stages = layout.stages, steps = mma.steps();
  KTileCopier copyA(kc, /*isA=*/true, tile, kc.tid, threads);
  KTileCopier copyB(kc, /*isA=*/false, tile, kc.tid, threads);
  auto setKTile = [&](Value kt, Value stage) {
    auto [aDst, bDst] = stagePointers(kc, stage);
    Value kCoord = kc.mul(kc.add(tile.kBegin, kt), kc.i32(layout.tileK));
    copyA.setKTile(kCoord, aDst);
    copyB.setKTile(kCoord, bDst);
  };
  // Rounds of A then B, spread over the first steps - 1 k-steps.
  SmallVector<std::pair<KTileCopier *, int64_t>> rounds;
  for (KTileCopier *c : {&copyA, &copyB})
    for (int64_t u = 0; u < c->rounds(); ++u)
      rounds.push_back({c, u});
  const int64_t slots = steps - 1, total = rounds.size();
  auto issueSlot = [&](int64_t s) {
    for (int64_t i = s * total / slots; i < (s + 1) * total / slots; ++i)
      rounds[i].first->issue(rounds[i].second);
  };
  // The prologue: k-tiles 0 .. stages - 2 (zero bytes past the tile's).
  for (int64_t s = 0; s + 1 < stages; ++s) {
    setKTile(kc.i32(s), kc.i32(s));
    for (int64_t i = 0; i < total; ++i)
      rounds[i].first->issue(rounds[i].second);
    NVVM::CpAsyncCommitGroupOp::create(b);
  }
  NVVM::CpAsyncWaitGroupOp::create(b, stages - 2);
  kc.namedBarrier(kc.i32(0), threads);
  SmallVector<Value> init = mma.zeros();
  const int64_t nAcc = init.size();
  {
    auto [a0, b0] = stagePointers(kc, kc.i32(0));
    llvm::append_range(init, mma.load(a0, b0, 0));
  }
  auto loop = scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    auto [aStage, bStage] = stagePointers(kc, kc.remu(kt, kc.i32(stages)));
    setKTile(kc.add(kt, kc.i32(stages - 1)),
             kc.remu(kc.add(kt, kc.i32(stages - 1)), kc.i32(stages)));
    ValueRange args = loop.getRegionIterArgs();
    SmallVector<Value> acc(args.take_front(nAcc));
    SmallVector<Value> frag(args.drop_front(nAcc));
    for (int64_t ks = 0; ks < steps; ++ks) {
      SmallVector<Value> ahead;
      if (ks + 1 < steps) {
        ahead = mma.load(aStage, bStage, ks + 1);
      } else {
        // k-tile kt + 1 landed (every group up to it: the prologue's
        // stages - 1 and one per k-tile through this one); past the last
        // k-tile this reads a stage of zeros, never one in flight.
        NVVM::CpAsyncWaitGroupOp::create(b, stages - 2);
        kc.namedBarrier(kc.i32(0), threads);
        auto [an, bn] = stagePointers(
            kc, kc.remu(kc.add(kt, kc.i32(1)), kc.i32(stages)));
        ahead = mma.load(an, bn, 0);
      }
      mma.mma(frag, acc);
      if (ks < slots) {
        issueSlot(ks);
        if (ks + 1 == slots)
          NVVM::CpAsyncCommitGroupOp::create(b);
      }
      frag = ahead;
    }
    llvm::append_range(acc, frag);
    scf::YieldOp::create(b, acc);
  }
  return SmallVector<Value>(ValueRange(loop.getResults()).take_front(nAcc));
}

SmallVector<Value> collectives::emitMainloopMultistageSm80(KernelContext &kc,
                                                           const WorkTile &tile,
                                                           Value consumerWg) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  const int64_t threads = 128 * layout.consumerWarpgroups;
  StageMma mma(kc, consumerWg);
  SmallVector<Value> acc =
      mma.steps() >= 2 && KTileCopier::applies(kc, /*isA=*/true, threads) &&
              KTileCopier::applies(kc, /*isA=*/false, threads)
          ? emitMultistagePipelined(kc, tile, mma, threads)
          : emitMultistageInOrder(kc, tile, mma, threads);
  // The ring is reused by the next tile's first copies: every group landed
  // (the empty ones past K included) and every thread read its last stage.
  NVVM::CpAsyncWaitGroupOp::create(b, 0);
  kc.namedBarrier(kc.i32(0), threads);
  return mma.pack(acc);
}
