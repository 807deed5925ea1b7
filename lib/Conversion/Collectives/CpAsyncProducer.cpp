//===- CpAsyncProducer.cpp - cp.async producers of operand tiles ----------===//
//
// Implements CpAsyncProducer.h. A tile of R rows x C elements is cut into
// pieces of the copy width W (16, 8 or 4 bytes by cp.async; at 2-byte
// alignment, 16-byte pieces read as 4-byte words, realigned in registers
// and stored with one st.shared.v4, or read whole by ld.global.v4 where
// the matrix turns out 16-byte aligned); piece i of the tile is row i / P,
// column piece i % P (P pieces per row), so a warp reads whole 128-byte
// runs of a row.
// Thread t copies pieces t, t + T, t + 2T, ... (T threads), unrolled.
// In shared memory, column byte b of row r goes where TMA's swizzle puts
// it; for the operands' 128B swizzle: block b / 128 (blockBytes apart),
// row r's 128 bytes, chunk (b % 128) / 16 XOR (r % 8), byte b % 16. A
// piece never crosses a 16-byte chunk, so it moves whole.
//
// Edges: a piece whose row is past `rows` copies 0 bytes (cp.async's
// src-size; the source address is clamped to the tile's first element,
// or for a tile that may start outside the matrix, to the matrix's); one
// that straddles `cols` copies the bytes inside and zero-fills the rest,
// as TMA's OOB fill does.
//
//===----------------------------------------------------------------------===//

#include "CpAsyncProducer.h"

#include "Mainloop.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <optional>

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

int64_t
collectives::getCpAsyncProducerThreads(const pl::KernelLayout &layout) {
  return 32 * (layout.hasEpilogueLoads() ? 3 : 4);
}

/// A 16-byte piece of 2-byte elements whose first element `from` is only
/// 2-byte aligned, `bytes` (0..16) of it inside the matrix: the five 4-byte
/// words around it (word j at from - (from & 2) + 4j; a word holding no byte of
/// the piece's inside part reads word 0 instead, so nothing past the
/// matrix is touched), each output word a funnel shift of two neighbours
/// by (from & 2) * 8 bits, bytes at or past `bytes` zeroed, one 16-byte
/// shared store at `to`.
static void emitRealignedPiece(KernelContext &kc, Value from, Value bytes,
                               Value to) {
  ImplicitLocOpBuilder &b = kc.b;
  Type i32Ty = kc.i32Ty, i64Ty = b.getI64Type();
  Value address = LLVM::PtrToIntOp::create(b, i64Ty, from);
  Value phase = arith::TruncIOp::create(
      b, i32Ty, arith::AndIOp::create(b, address, kc.i64(2)));
  Value shift = kc.mul(phase, kc.i32(8));
  auto byteAt = [&](Value base, Value offset) -> Value {
    return LLVM::GEPOp::create(b, kc.globalPtrTy, b.getI8Type(), base,
                               ValueRange{offset});
  };
  Value word0 = byteAt(from, kc.sub(kc.i32(0), phase));
  // Word j starts at byte 4j - phase of the piece: it holds an inside byte
  // iff max(4j - phase, 0) < bytes.
  SmallVector<Value, 5> words;
  for (int64_t j = 0; j < 5; ++j) {
    Value first = j == 0 ? kc.i32(0) : kc.sub(kc.i32(4 * j), phase);
    Value needed = kc.ult(first, bytes);
    Value at = kc.select(needed, byteAt(word0, kc.i32(4 * j)), word0);
    words.push_back(LLVM::LoadOp::create(b, i32Ty, at, /*alignment=*/4));
  }
  Type vecTy = VectorType::get({4}, i32Ty);
  Value out = LLVM::PoisonOp::create(b, vecTy);
  for (int64_t i = 0; i < 4; ++i) {
    Value word =
        LLVM::FshrOp::create(b, i32Ty, words[i + 1], words[i], shift);
    Value mask = kc.select(
        kc.ult(kc.i32(4 * i + 2), bytes), kc.i32(-1),
        kc.select(kc.ult(kc.i32(4 * i), bytes), kc.i32(0xffff), kc.i32(0)));
    out = LLVM::InsertElementOp::create(
        b, vecTy, out, arith::AndIOp::create(b, word, mask), kc.i32(i));
  }
  LLVM::StoreOp::create(b, out, to, /*alignment=*/16);
}

/// The cp.async copies of a tile that lies inside the matrix (no piece past
/// `rows` or `cols`), where the threads take whole rounds of whole rows
/// (`threads` a multiple of the pieces per row, `pieces` of the rounds):
/// thread t's piece of round u is row t / P + u * (T / P), column piece
/// t % P, the same column in every round. So one global address per
/// thread, stepped by T / P rows per round, and, where T / P rows keep the
/// swizzle phase (a multiple of its 8-row period, or no swizzle), one
/// shared offset stepped by a constant: a piece is one 64-bit add and the
/// cp.async, against ~9 instructions of the edge-checked path (row and
/// column compares, src-size and address selects per piece).
static void emitInteriorCopies(KernelContext &kc, const GlobalTile &src,
                               const SwizzledStage &dst, const CopyPlan &plan,
                               Value tileBase, int64_t piecesPerRow,
                               int64_t blockWidth, int64_t swizzleBits) {
  ImplicitLocOpBuilder &b = kc.b;
  const int64_t width = plan.widthBytes, eb = plan.elementBytes;
  const int64_t rowsPerRound = plan.threads / piecesPerRow;
  const int64_t rounds = dst.tileRows * piecesPerRow / plan.threads;
  Type i64Ty = b.getI64Type();
  Value r = kc.divu(plan.thread, kc.i32(piecesPerRow));
  Value colBytes =
      kc.mul(kc.remu(plan.thread, kc.i32(piecesPerRow)), kc.i32(width));
  // Shared: the piece's block and chunk are the same in every round; the
  // row advances by rowsPerRound.
  Value block = kc.divu(colBytes, kc.i32(blockWidth));
  Value inRow = kc.remu(colBytes, kc.i32(blockWidth));
  Value blockBase = kc.add(kc.mul(block, kc.i32(dst.blockBytes)),
                           kc.remu(inRow, kc.i32(16)));
  Value chunk = kc.divu(inRow, kc.i32(16));
  const int64_t rowsPerPhase = 128 / blockWidth;
  const bool phaseKept =
      swizzleBits == 0 || rowsPerRound % (rowsPerPhase << swizzleBits) == 0;
  auto sharedAt = [&](Value row) {
    Value c = chunk;
    if (swizzleBits > 0)
      c = arith::XOrIOp::create(
          b, c,
          kc.remu(kc.divu(row, kc.i32(rowsPerPhase)),
                  kc.i32(1 << swizzleBits)));
    return kc.add(blockBase, kc.add(kc.mul(row, kc.i32(blockWidth)),
                                    kc.mul(c, kc.i32(16))));
  };
  Value to0 = sharedAt(r);
  // Global: this thread's first piece, then rowsPerRound rows per round.
  Value first = arith::AddIOp::create(
      b, tileBase,
      arith::MulIOp::create(b, arith::ExtUIOp::create(b, i64Ty, r), src.ld));
  Value from0 = LLVM::GEPOp::create(
      b, kc.globalPtrTy, b.getI8Type(), src.base,
      ValueRange{arith::AddIOp::create(
          b, arith::MulIOp::create(b, first, kc.i64(eb)),
          arith::ExtUIOp::create(b, i64Ty, colBytes))});
  Value step = arith::MulIOp::create(b, src.ld, kc.i64(rowsPerRound * eb));
  for (int64_t u = 0; u < rounds; ++u) {
    Value to =
        phaseKept
            ? kc.add(to0, kc.i32(u * rowsPerRound * blockWidth))
            : sharedAt(kc.add(r, kc.i32(u * rowsPerRound)));
    Value from = LLVM::GEPOp::create(
        b, kc.globalPtrTy, b.getI8Type(), from0,
        ValueRange{arith::MulIOp::create(b, step, kc.i64(u))});
    NVVM::CpAsyncOp::create(b, kc.gep(dst.dst, to), from, uint32_t(width),
                            width == 16 ? NVVM::LoadCacheModifierKind::CG
                                        : NVVM::LoadCacheModifierKind::CA,
                            Value());
  }
}

void collectives::emitCopyTile(KernelContext &kc, const GlobalTile &src,
                               const SwizzledStage &dst, const CopyPlan &plan) {
  ImplicitLocOpBuilder &b = kc.b;
  // 2-byte copies move 16-byte pieces (a stage row is TMA's box row: a
  // multiple of 16 bytes).
  const bool realign = plan.usesStores();
  const int64_t width = realign ? 16 : plan.widthBytes;
  const int64_t eb = plan.elementBytes;
  assert((dst.tileCols * eb) % width == 0 && "a stage row of whole pieces");
  const int64_t perPiece = width / eb;
  const int64_t piecesPerRow = dst.tileCols * eb / width;
  const int64_t pieces = dst.tileRows * piecesPerRow;
  Type i64Ty = b.getI64Type();
  auto ext = [&](Value v) { return arith::ExtUIOp::create(b, i64Ty, v); };
  // The batch's first element and the tile's origin, in elements.
  Value batchBase = arith::MulIOp::create(b, ext(src.batch), src.batchStride);
  Value tileBase = arith::AddIOp::create(
      b, batchBase,
      arith::AddIOp::create(b, arith::MulIOp::create(b, ext(src.row0), src.ld),
                            ext(src.col0)));
  // Bytes of a block's row, and the swizzle's XOR width in chunks.
  const int64_t blockWidth =
      dst.swizzleBytes ? std::min(dst.tileCols * eb, dst.swizzleBytes)
                       : dst.tileCols * eb;
  const int64_t swizzleBits =
      dst.swizzleBytes ? llvm::Log2_64(dst.swizzleBytes / 16) : 0;
  // On sm_8x a tile inside the matrix (a uniform branch: every operand
  // tile but the edges' and the k-tile past K) takes the straight-line
  // copies; the rest, and tiles the threads do not cut into whole rounds
  // of rows, the edge-checked copies below. Measured on the H100 (sm_80
  // PTX, docs/perf-notes.md): multistage 6-8% faster, warp_specialized
  // 4-7% (with the waits' backoff); the cooperative kernel 3-4% slower
  // (1-6% with a backoff): its producer's back-to-back cp.async beside two
  // consumer warpgroups whose ldmatrix already fill the MIO pipe, so there
  // the copies stay spread out. Not on sm_90: LLVM's LICM hoists each round's address (two
  // registers) out of the k-loop, which spilled the load role under its
  // setmaxnreg budget (40-80 registers); sm_8x has no such cap.
  const bool multistage =
      kc.desc.config.schedule == pl::KernelSchedule::Multistage;
  const bool straightLine =
      kc.isSm8x() && (multistage || kc.layout.consumerWarpgroups == 1);
  std::optional<OpBuilder::InsertionGuard> edgeCopies;
  if (straightLine && !realign && plan.threads % piecesPerRow == 0 &&
      pieces % plan.threads == 0) {
    auto fits = [&](Value origin, int64_t extent, Value size) -> Value {
      return arith::CmpIOp::create(b, arith::CmpIPredicate::ule,
                                   kc.add(origin, kc.i32(extent)), size);
    };
    Value inside = kc.andi(fits(src.row0, dst.tileRows, src.rows),
                           fits(src.col0, dst.tileCols, src.cols));
    auto ifOp = scf::IfOp::create(b, inside, /*withElse=*/true);
    edgeCopies.emplace(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emitInteriorCopies(kc, src, dst, plan, tileBase, piecesPerRow, blockWidth,
                       swizzleBits);
    b.setInsertionPointToStart(ifOp.elseBlock());
  }
  Type i8Ty = b.getI8Type();
  auto globalAt = [&](Value elements) -> Value {
    Value bytes = arith::MulIOp::create(b, elements, kc.i64(eb));
    return LLVM::GEPOp::create(b, kc.globalPtrTy, i8Ty, src.base,
                               ValueRange{bytes});
  };
  // Whole rounds in a loop, `unroll` pieces per iteration, the rounds
  // left over straight after it, then the last partial round guarded.
  // cp.async is fire-and-forget: 4 per iteration at most keep the producer
  // within 56 registers. A realigned piece holds 5 words until its store; 8
  // pieces per iteration (40 words in flight, 96 registers) ran an
  // odd-lda 8192^3 GEMM 2x slower than 4 (docs/perf-notes.md).
  struct Piece {
    Value to, from, bytes;
  };
  auto pieceAt = [&](Value piece) -> Piece {
    Value r = kc.divu(piece, kc.i32(piecesPerRow));
    Value c = kc.mul(kc.remu(piece, kc.i32(piecesPerRow)), kc.i32(perPiece));
    // Shared: block, row, chunk XOR the row's swizzle phase (its offset's
    // bits 7..: r % 8 for 128-byte rows, r / 2 % 4 for 64, r / 4 % 2 for
    // 32), byte in the chunk.
    Value colBytes = kc.mul(c, kc.i32(eb));
    Value block = kc.divu(colBytes, kc.i32(blockWidth));
    Value inRow = kc.remu(colBytes, kc.i32(blockWidth));
    Value chunk = kc.divu(inRow, kc.i32(16));
    if (swizzleBits > 0)
      chunk = arith::XOrIOp::create(
          b, chunk,
          kc.remu(kc.divu(r, kc.i32(128 / blockWidth)),
                  kc.i32(1 << swizzleBits)));
    Value offset = kc.add(
        kc.add(kc.mul(block, kc.i32(dst.blockBytes)),
               kc.mul(r, kc.i32(blockWidth))),
        kc.add(kc.mul(chunk, kc.i32(16)), kc.remu(inRow, kc.i32(16))));
    Value to = kc.gep(dst.dst, offset);
    // Global: bytes inside the matrix (0 past its rows or columns).
    Value gRow = kc.add(src.row0, r);
    Value gCol = kc.add(src.col0, c);
    Value rowIn = kc.ult(gRow, src.rows);
    Value colIn = kc.ult(gCol, src.cols);
    Value inside = kc.andi(rowIn, colIn);
    Value left = kc.mul(kc.sub(src.cols, kc.select(colIn, gCol, src.cols)),
                        kc.i32(eb));
    Value bytes = kc.select(
        inside,
        arith::MinUIOp::create(b, left, kc.i32(width)), kc.i32(0));
    Value at = arith::AddIOp::create(
        b, tileBase,
        arith::AddIOp::create(b, arith::MulIOp::create(b, ext(r), src.ld),
                              ext(c)));
    Value from = globalAt(
        arith::SelectOp::create(b, inside, at,
                                src.originInside ? tileBase : kc.i64(0)));
    return {to, from, bytes};
  };
  // A 2-byte copy of a matrix whose base, rows and batches all start on 16
  // bytes (the same for every tile of the launch: a uniform branch) moves
  // a round's whole pieces with one 16-byte ld.global + st.shared each;
  // other rounds are realigned. Both write with st.shared, so the stage's
  // commit is the same either way. The branch is per round of pieces: per
  // piece it ran the realigned copies 2.1x slower (each piece's loads
  // waited behind the previous piece's branch), around whole loops LLVM
  // hoisted every piece's addresses above it (spills).
  Value aligned;
  if (realign) {
    Value misaligned = arith::OrIOp::create(
        b, LLVM::PtrToIntOp::create(b, i64Ty, src.base),
        arith::OrIOp::create(
            b, arith::MulIOp::create(b, src.ld, kc.i64(eb)),
            arith::MulIOp::create(b, src.batchStride, kc.i64(eb))));
    aligned = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, misaligned, kc.i64(15)), kc.i64(0));
  }
  Type vecTy = VectorType::get({4}, kc.i32Ty);
  auto copyRound = [&](ArrayRef<Value> indices, bool mayBeWhole) {
    if (!realign) {
      for (Value i : indices) {
        Piece p = pieceAt(i);
        NVVM::CpAsyncOp::create(b, p.to, p.from, uint32_t(width),
                                width == 16 ? NVVM::LoadCacheModifierKind::CG
                                            : NVVM::LoadCacheModifierKind::CA,
                                p.bytes);
      }
      return;
    }
    SmallVector<Piece> round;
    for (Value i : indices)
      round.push_back(pieceAt(i));
    auto realigned = [&] {
      for (const Piece &p : round)
        emitRealignedPiece(kc, p.from, p.bytes, p.to);
    };
    if (!mayBeWhole) {
      realigned();
      return;
    }
    Value whole = aligned;
    for (const Piece &p : round)
      whole = kc.andi(whole, kc.eq(p.bytes, kc.i32(16)));
    auto ifOp = scf::IfOp::create(b, whole, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> loaded;
    for (const Piece &p : round)
      loaded.push_back(LLVM::LoadOp::create(b, vecTy, p.from, 16));
    for (auto [p, v] : llvm::zip(round, loaded))
      LLVM::StoreOp::create(b, v, p.to, /*alignment=*/16);
    b.setInsertionPointToStart(ifOp.elseBlock());
    realigned();
  };

  // cp.async rounds divide evenly into the loop (fewer rounds per
  // iteration where 4 do not); realigned ones keep 4 and copy the rest
  // after it.
  const int64_t fullRounds = pieces / plan.threads;
  int64_t unroll = 4;
  while (!realign && unroll > 1 && fullRounds % unroll != 0)
    unroll /= 2;
  const int64_t looped = fullRounds / unroll * unroll;
  auto roundOf = [&](Value first, int64_t n) {
    SmallVector<Value> indices;
    for (int64_t u = 0; u < n; ++u)
      indices.push_back(kc.add(first, kc.i32(u * plan.threads)));
    return indices;
  };
  if (looped > 0) {
    auto loop =
        scf::ForOp::create(b, kc.i32(0), kc.i32(looped), kc.i32(unroll));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value first = kc.add(plan.thread,
                         kc.mul(loop.getInductionVar(), kc.i32(plan.threads)));
    copyRound(roundOf(first, unroll), /*mayBeWhole=*/true);
  }
  if (fullRounds > looped)
    copyRound(roundOf(kc.add(plan.thread, kc.i32(looped * plan.threads)),
                      fullRounds - looped),
              /*mayBeWhole=*/true);
  if (pieces % plan.threads != 0) {
    Value piece = kc.add(plan.thread, kc.i32(fullRounds * plan.threads));
    kc.ifThen(kc.ult(piece, kc.i32(pieces)),
              [&] { copyRound({piece}, /*mayBeWhole=*/false); });
  }
}

/// The tile of A (`isA`) or B at k-tile origin `kCoord` as a cp.async
/// source, and its stage.
static std::pair<GlobalTile, SwizzledStage>
operandTile(KernelContext &kc, bool isA, const WorkTile &tile, Value kCoord,
            Value stageDst) {
  const pl::KernelLayout &layout = kc.layout;
  KernelContext::MatrixArg m = kc.matrixArg(isA ? "A" : "B");
  bool kMajor = isA ? kc.desc.aMajor != pl::OperandMajor::M
                    : kc.desc.bMajor != pl::OperandMajor::N;
  int64_t mn = isA ? layout.tileM : layout.tileN;
  Value mn0 = isA ? tile.m0 : tile.n0;
  Value size = isA ? kc.sizeM : kc.sizeN;
  GlobalTile g;
  g.base = m.base;
  g.ld = m.ld;
  g.batchStride = m.batchStride;
  g.batch = kc.desc.batched ? tile.batch : kc.i32(0);
  SwizzledStage s;
  s.dst = stageDst;
  // Either way the stage is tile K rows x 128 bytes per 128 bytes of MN
  // (MN-major), or MN rows of 128 bytes of K (K-major, one block).
  s.blockBytes = layout.tileK * 128;
  if (kMajor) {
    g.row0 = mn0;
    g.col0 = kCoord;
    g.rows = size;
    g.cols = kc.sizeK;
    s.tileRows = mn;
    s.tileCols = layout.tileK;
  } else {
    g.row0 = kCoord;
    g.col0 = mn0;
    g.rows = kc.sizeK;
    g.cols = size;
    s.tileRows = layout.tileK;
    s.tileCols = mn;
  }
  return {g, s};
}

/// How `threads` threads, of which this is `thread`, copy A (`isA`) or B:
/// at the config's alignment, 16 bytes at most.
static CopyPlan copyPlan(KernelContext &kc, bool isA, Value thread,
                         int64_t threads) {
  const pl::GemmConfig &c = kc.desc.config;
  CopyPlan p;
  p.elementBytes = pl::getBits(isA ? kc.desc.a : kc.desc.b) / 8;
  p.widthBytes = std::min<int64_t>(
      16, (isA ? c.alignA : c.alignB).value_or(p.elementBytes));
  p.threads = threads;
  p.thread = thread;
  return p;
}

void collectives::emitCpAsyncOperandCopies(KernelContext &kc,
                                           const WorkTile &tile, Value kCoord,
                                           Value aDst, Value bDst,
                                           Value thread, int64_t threads) {
  const pl::GemmConfig &c = kc.desc.config;
  for (bool isA : {true, false}) {
    if (isA ? !c.isCpAsyncA() : !c.isCpAsyncB())
      continue;
    auto [g, s] = operandTile(kc, isA, tile, kCoord, isA ? aDst : bDst);
    emitCopyTile(kc, g, s, copyPlan(kc, isA, thread, threads));
  }
}

bool KTileCopier::applies(KernelContext &kc, bool isA, int64_t threads) {
  const pl::GemmConfig &c = kc.desc.config;
  bool kMajor = isA ? kc.desc.aMajor != pl::OperandMajor::M
                    : kc.desc.bMajor != pl::OperandMajor::N;
  CopyPlan plan = copyPlan(kc, isA, Value(), threads);
  int64_t rows = isA ? kc.layout.tileM : kc.layout.tileN;
  int64_t piecesPerRow = kc.layout.tileK * plan.elementBytes / 16;
  return (isA ? c.isCpAsyncA() : c.isCpAsyncB()) && kMajor &&
         plan.widthBytes == 16 && piecesPerRow == 8 &&
         threads % piecesPerRow == 0 &&
         (rows * piecesPerRow) % threads == 0;
}

KTileCopier::KTileCopier(KernelContext &kc, bool isA, const WorkTile &tile,
                         Value thread, int64_t threads)
    : kc(kc) {
  assert(applies(kc, isA, threads) && "not a branch-free copy");
  ImplicitLocOpBuilder &b = kc.b;
  Type i64Ty = b.getI64Type();
  auto ext = [&](Value v) { return arith::ExtUIOp::create(b, i64Ty, v); };
  KernelContext::MatrixArg m = kc.matrixArg(isA ? "A" : "B");
  elementBytes = pl::getBits(isA ? kc.desc.a : kc.desc.b) / 8;
  const int64_t piecesPerRow = 8, rows = isA ? kc.layout.tileM
                                             : kc.layout.tileN;
  rowsPerRound = threads / piecesPerRow;
  nRounds = rows / rowsPerRound;
  Value r = kc.divu(thread, kc.i32(piecesPerRow));
  Value piece = kc.remu(thread, kc.i32(piecesPerRow));
  column = kc.mul(piece, kc.i32(16 / elementBytes));
  // The stage's 128B swizzle: row r's chunk c at c ^ (r % 8); rounds of a
  // multiple of 8 rows keep the phase.
  assert(rowsPerRound % 8 == 0 && "rounds keep the swizzle's phase");
  sharedOff = kc.add(kc.mul(r, kc.i32(128)),
                     kc.mul(arith::XOrIOp::create(
                                b, piece, kc.remu(r, kc.i32(8))),
                            kc.i32(16)));
  Value batch = kc.desc.batched ? tile.batch : kc.i32(0);
  Value row = kc.add(isA ? tile.m0 : tile.n0, r);
  Value first = arith::AddIOp::create(
      b, arith::MulIOp::create(b, ext(batch), m.batchStride),
      arith::MulIOp::create(b, ext(row), m.ld));
  rowStart = LLVM::GEPOp::create(
      b, kc.globalPtrTy, b.getI8Type(), m.base,
      ValueRange{arith::MulIOp::create(b, first, kc.i64(elementBytes))});
  step = arith::MulIOp::create(b, m.ld,
                               kc.i64(rowsPerRound * elementBytes));
  // Rounds u with row + u * rowsPerRound < the matrix's rows: 0 ..
  // rowsInside - 1 (rows past the edge read nothing).
  Value size = isA ? kc.sizeM : kc.sizeN;
  Value left = kc.select(kc.ult(row, size), kc.sub(size, row), kc.i32(0));
  rowsInside = arith::MinUIOp::create(
      b, kc.divu(kc.add(left, kc.i32(rowsPerRound - 1)),
                 kc.i32(rowsPerRound)),
      kc.i32(nRounds));
}

void KTileCopier::setKTile(Value kCoord, Value stageDst) {
  ImplicitLocOpBuilder &b = kc.b;
  Value col = kc.add(kCoord, column);
  // K is a multiple of the 16-byte piece (the operand's alignment rule), so
  // a piece is wholly inside K or wholly past it.
  Value inside = kc.ult(col, kc.sizeK);
  Value at = kc.select(inside, col, kc.i32(0));
  from = LLVM::GEPOp::create(
      b, kc.globalPtrTy, b.getI8Type(), rowStart,
      ValueRange{arith::MulIOp::create(
          b, arith::ExtUIOp::create(b, b.getI64Type(), at),
          kc.i64(elementBytes))});
  roundsToCopy = kc.select(inside, rowsInside, kc.i32(0));
  stage = stageDst;
}

void KTileCopier::issue(int64_t u) {
  ImplicitLocOpBuilder &b = kc.b;
  Value src = LLVM::GEPOp::create(
      b, kc.globalPtrTy, b.getI8Type(), from,
      ValueRange{arith::MulIOp::create(b, step, kc.i64(u))});
  Value dst =
      kc.gep(stage, kc.add(sharedOff, kc.i32(u * rowsPerRound * 128)));
  Value bytes =
      kc.select(kc.ult(kc.i32(u), roundsToCopy), kc.i32(16), kc.i32(0));
  NVVM::CpAsyncOp::create(b, dst, src, 16, NVVM::LoadCacheModifierKind::CG,
                          bytes);
}

Value collectives::emitCpAsyncMainloopLoads(KernelContext &kc,
                                            const WorkTile &tile, Value start) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  const pl::GemmConfig &c = kc.desc.config;
  int64_t threads = getCpAsyncProducerThreads(layout);
  auto plan = [&](bool isA) { return copyPlan(kc, isA, kc.tid, threads); };
  bool stores = (c.isCpAsyncA() && plan(true).usesStores()) ||
                (c.isCpAsyncB() && plan(false).usesStores());
  bool copies = (c.isCpAsyncA() && !plan(true).usesStores()) ||
                (c.isCpAsyncB() && !plan(false).usesStores());
  // Bytes a TMA operand beside the copies brings per stage.
  int64_t tmaBytes = (c.isCpAsyncA() ? 0 : layout.stageBytesA) +
                     (c.isCpAsyncB() ? 0 : layout.stageBytesB);

  return emitProducerKTiles(kc, tile, start, [&](Value kt, Value state) {
    // Every producer thread waits for the empty stage (no arrival yet).
    ProducerAcquireOp::create(b, kc.mainPipe, state, /*cp_async=*/true);
    Value stage = kc.stageIndex(state);
    Value kCoord = kc.mul(kc.add(tile.kBegin, kt), kc.i32(layout.tileK));
    Value aDst = kc.smemAt(kc.add(kc.i32(layout.offA),
                                  kc.mul(stage, kc.i32(layout.stageBytesA))));
    Value bDst = kc.smemAt(kc.add(kc.i32(layout.offB),
                                  kc.mul(stage, kc.i32(layout.stageBytesB))));
    if (tmaBytes > 0) {
      // One thread announces and loads the TMA operand (a whole box, or
      // the 64-column blocks of an MN-major one).
      kc.ifThen(kc.eq(kc.tid, kc.i32(0)), [&] {
        ProducerExpectTxOp::create(b, kc.mainPipe, state, kc.i32(tmaBytes));
        bool isA = !c.isCpAsyncA();
        emitTmaOperandLoad(kc, isA, tile, kCoord, isA ? aDst : bDst, state);
      });
    }
    emitCpAsyncOperandCopies(kc, tile, kCoord, aDst, bDst, kc.tid, threads);
    // Each thread's arrival counts once its copies land.
    ProducerCommitOp::create(b, kc.mainPipe, state, /*cp_async=*/copies,
                             /*stores=*/stores);
  });
}
