//===- MainloopSm80.cpp - The sm_8x mainloop consumer ---------------------===//
//
// Implements MainloopSm80.h. A K-major stage holds the tile's rows (M for
// A, N for B) of 128 bytes (64 elements of K), row r's 16-byte chunk c at
// chunk c ^ (r % 8) (the 128B swizzle emitCopyTile writes). One k16 step
// reads 2 chunks of a row:
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
//
//===----------------------------------------------------------------------===//

#include "MainloopSm80.h"

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

SmallVector<Value> collectives::emitMainloopMmaSm80(KernelContext &kc,
                                                    const WorkTile &tile,
                                                    Value consumerWg,
                                                    Value kBase) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  MLIRContext *ctx = b.getContext();
  const int64_t mBlocks = layout.wgRows / 64, chunks = layout.tileN / 8;
  const int64_t kSteps = layout.tileK / 16;
  bool bf16 = kc.desc.a == pl::DType::BF16;
  // f16 fragments are vector<2xf16> for mma.sync; bf16 ones stay i32.
  Type pairTy = bf16 ? Type(kc.i32Ty) : VectorType::get({2}, b.getF16Type());
  auto pair = [&](Value v) {
    return bf16 ? v : LLVM::BitcastOp::create(b, pairTy, v).getResult();
  };
  NVVM::MMATypes mmaType = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  auto quadF32 = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(4, kc.f32Ty));

  // This lane's ldmatrix rows: byte offsets in a stage of A's rows (per
  // 64-row block) and B's (per 16 columns), and the swizzled chunk offsets
  // of each k16 step.
  Value matrix = kc.divu(kc.lane, kc.i32(8));
  Value rowInMatrix = kc.remu(kc.lane, kc.i32(8));
  Value aRow0 = kc.add(
      kc.add(kc.mul(consumerWg, kc.i32(layout.wgRows)),
             kc.mul(kc.warpInWg, kc.i32(16))),
      kc.add(kc.mul(kc.remu(matrix, kc.i32(2)), kc.i32(8)), rowInMatrix));
  Value bRow0 =
      kc.add(kc.mul(kc.divu(matrix, kc.i32(2)), kc.i32(8)), rowInMatrix);
  auto chunkOffset = [&](Value kHalf, int64_t ks) {
    Value chunk = kc.add(kc.i32(2 * ks), kHalf);
    return kc.mul(arith::XOrIOp::create(b, chunk, rowInMatrix), kc.i32(16));
  };
  SmallVector<Value> aChunk, bChunk;
  for (int64_t ks = 0; ks < kSteps; ++ks) {
    aChunk.push_back(chunkOffset(kc.divu(matrix, kc.i32(2)), ks));
    bChunk.push_back(chunkOffset(kc.remu(matrix, kc.i32(2)), ks));
  }
  Value aRowBytes = kc.mul(aRow0, kc.i32(128));
  Value bRowBytes = kc.mul(bRow0, kc.i32(128));

  // Accumulators flat: (64-row block, 8-column chunk, element) in wgmma's
  // order, element q at row half q / 2, column q % 2.
  SmallVector<Value> init(mBlocks * chunks * 4, kc.f32(0.0));
  Value start = PipelineStateInitOp::create(
      b, PipelineStateType::get(ctx, layout.stages), PipelineAgent::consumer);
  auto loop = scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value state = kc.stateAt(start, kc.add(kBase, loop.getInductionVar()));
    ConsumerWaitOp::create(b, kc.mainPipe, state);
    Value stage = kc.stageIndex(state);
    Value aStage = kc.smemAt(
        kc.add(kc.i32(layout.offA), kc.mul(stage, kc.i32(layout.stageBytesA))));
    Value bStage = kc.smemAt(
        kc.add(kc.i32(layout.offB), kc.mul(stage, kc.i32(layout.stageBytesB))));
    SmallVector<Value> acc(loop.getRegionIterArgs());
    for (int64_t ks = 0; ks < kSteps; ++ks) {
      SmallVector<SmallVector<Value>> aFrag;
      for (int64_t mb = 0; mb < mBlocks; ++mb)
        aFrag.push_back(loadMatrices(
            kc, kc.gep(aStage, kc.add(kc.add(aRowBytes, aChunk[ks]),
                                      kc.i32(mb * 64 * 128)))));
      for (int64_t nb = 0; nb < chunks / 2; ++nb) {
        SmallVector<Value> bFrag = loadMatrices(
            kc, kc.gep(bStage, kc.add(kc.add(bRowBytes, bChunk[ks]),
                                      kc.i32(nb * 16 * 128))));
        for (int64_t half = 0; half < 2; ++half) {
          int64_t chunk = 2 * nb + half;
          SmallVector<Value> bOps{pair(bFrag[2 * half]),
                                  pair(bFrag[2 * half + 1])};
          for (int64_t mb = 0; mb < mBlocks; ++mb) {
            SmallVector<Value> aOps;
            for (Value a : aFrag[mb])
              aOps.push_back(pair(a));
            int64_t at = (mb * chunks + chunk) * 4;
            SmallVector<Value> cOps(ArrayRef<Value>(acc).slice(at, 4));
            Value d = NVVM::MmaOp::create(
                b, quadF32, aOps, bOps, cOps, ArrayRef<int64_t>{16, 8, 16},
                std::nullopt, std::nullopt,
                std::array<NVVM::MMATypes, 2>{mmaType, mmaType},
                std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                               NVVM::MMALayout::col});
            for (int64_t q = 0; q < 4; ++q)
              acc[at + q] = LLVM::ExtractValueOp::create(b, d, q);
          }
        }
      }
    }
    // Every thread's ldmatrix reads of the stage are done (their results
    // are in registers): each thread arrives on the empty barrier.
    ConsumerReleaseOp::create(b, kc.mainPipe, state, Value());
    scf::YieldOp::create(b, acc);
  }

  Type accTy = getAccumulatorType(kc);
  SmallVector<Value> result;
  for (int64_t mb = 0; mb < mBlocks; ++mb) {
    Value s = LLVM::UndefOp::create(b, accTy);
    for (int64_t i = 0; i < chunks * 4; ++i)
      s = LLVM::InsertValueOp::create(b, s,
                                      loop.getResult(mb * chunks * 4 + i), i);
    result.push_back(s);
  }
  return result;
}
