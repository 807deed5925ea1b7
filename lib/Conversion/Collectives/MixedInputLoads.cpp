//===- MixedInputLoads.cpp - The mixed-input producer ---------------------===//
//
// The producer half of Mainloop.h's mixed-input pieces (docs/mixed-input.md;
// the consumer's dequantization and register-A wgmma are MixedInput.cpp):
// per k-tile the load warp's lane 0 issues the TMA boxes of the pre-packed
// A units (one box of tile K / 64 units per 64-row block, KernelLayout.h's
// packing) and of B, and every lane copies its 16-byte pieces of the
// k-tile's group scales (and zero points) into the stage with cp.async,
// the stage's full barrier completed by the TMA bytes and the lanes'
// cp.async.mbarrier.arrive.noinc. One scale per row (group 0) is not
// staged: the consumers apply it after the K loop.
//
//===----------------------------------------------------------------------===//

#include "Mainloop.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

/// The TMA load of the pre-packed A units of `tile` at k origin `kCoord`
/// (a multiple of 64) into the A stage at `dst`: one box {256 x u64, tile K
/// / 64 units of h halves, tile M / 64 blocks(, 1 batch)} at (0, h k / 64,
/// m0 / 64(, batch)); blocks past M are zero-filled.
static void loadPackedA(KernelContext &kc, const WorkTile &tile, Value kCoord,
                        Value dst, Value state) {
  int64_t halves = pl::packedHalvesPerUnit(kc.desc.a);
  SmallVector<Value> crd{kc.i32(0),
                         kc.mul(kc.divu(kCoord, kc.i32(64)), kc.i32(halves)),
                         kc.divu(tile.m0, kc.i32(64))};
  if (kc.desc.batched)
    crd.push_back(tile.batch);
  kc.tmaLoad(dst, "A", crd, kc.mainPipe, state);
}

/// The names of the dequantization arrays `desc` reads, in stage order.
static SmallVector<StringRef, 2> dequantArrays(const pl::GemmDesc &desc) {
  SmallVector<StringRef, 2> names{"dequant_scale_a"};
  if (desc.dequantA->zero == pl::ZeroPoint::Group)
    names.push_back("dequant_zero_a");
  return names;
}

/// This lane's 16-byte cp.async copies of the tile's rows of the scales
/// (and zero points) of the groups k-tile `kTile` spans into the stage at
/// `dst`: array a's row r of the k-tile's group j (of
/// getDequantGroupsPerKTile) at (a * groups + j) * tile M + r elements. A
/// 16-byte piece is 8 rows; M is a multiple of 64
/// (LegalityMixedInput.cpp), so a piece is inside the matrix or past it
/// whole, and pieces past it are zero-filled (the rows' packed weights are
/// zero too, so they dequantize to 0). So are the groups past K of a last
/// k-tile that K ends inside (K a multiple of 64 and of the group, not of
/// tile K: groups of 32 or 64 in k-tiles of 128, of 128 in k-tiles of
/// 256), whose weights and B are TMA's zeros: their copies would read
/// past the array (or the next batch's scales, which could be NaN).
static void copyDequantRows(KernelContext &kc, const WorkTile &tile,
                            Value kTile, Value dst) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  int64_t tileM = layout.tileM;
  int64_t piecesPerRowSet = tileM * 2 / 16;
  int64_t sets = pl::getDequantGroupsPerKTile(kc.desc);
  SmallVector<StringRef, 2> arrays = dequantArrays(kc.desc);
  int64_t pieces = piecesPerRowSet * sets * int64_t(arrays.size());
  Type i64Ty = b.getI64Type();
  auto ext = [&](Value v) { return arith::ExtUIOp::create(b, i64Ty, v); };
  // Element (batch * groups + g) * M of the k-tile's first group's first
  // row: group g = kTile * sets with groups smaller than a k-tile, kTile /
  // (group / tile K) with larger ones. One scale per row (group 0) is not
  // staged (getDequantStageBytes): the consumers apply it after the loop.
  int64_t group = kc.desc.dequantA->group;
  assert(group > 0 && "one scale per row is not staged");
  Value groups = kc.divu(kc.sizeK, kc.i32(group));
  Value g = group < layout.tileK
                ? kc.mul(kTile, kc.i32(sets))
                : kc.divu(kTile, kc.i32(group / layout.tileK));
  Value batch = kc.desc.batched ? tile.batch : kc.i32(0);
  Value firstGroup = kc.add(kc.mul(batch, groups), g);
  // Piece p is bytes [16 p, 16 p + 16) of the stage's rows: row set u = p /
  // piecesPerRowSet (array u / sets, group j = u % sets), rows 8 (p %
  // piecesPerRowSet) on. With several groups a k-tile, those j >=
  // groupsLeft are past K (zero-filled: a copy of source size 0 reads
  // nothing).
  Value groupsLeft = sets > 1 ? kc.sub(groups, g) : Value();
  for (int64_t first = 0; first < pieces; first += 32) {
    Value piece = kc.add(kc.lane, kc.i32(first));
    auto copy = [&] {
      Value set = kc.divu(piece, kc.i32(piecesPerRowSet));
      Value c = kc.sub(piece, kc.mul(set, kc.i32(piecesPerRowSet)));
      Value j = set;
      Value base = kc.param(arrays[0]);
      if (arrays.size() > 1) {
        Value inFirst = kc.ult(set, kc.i32(sets));
        base = kc.select(inFirst, base, kc.param(arrays[1]));
        j = kc.select(inFirst, set, kc.sub(set, kc.i32(sets)));
      }
      Value row = kc.add(tile.m0, kc.mul(c, kc.i32(8)));
      Value inside = kc.ult(row, kc.sizeM);
      if (groupsLeft)
        inside = kc.andi(inside, kc.ult(j, groupsLeft));
      Value elem = arith::AddIOp::create(
          b, arith::MulIOp::create(b, ext(kc.add(firstGroup, j)),
                                   ext(kc.sizeM)),
          ext(kc.select(inside, row, kc.i32(0))));
      Value from = LLVM::GEPOp::create(b, kc.globalPtrTy, b.getI16Type(), base,
                                       ValueRange{elem});
      NVVM::CpAsyncOp::create(b, kc.gep(dst, kc.mul(piece, kc.i32(16))), from,
                              /*size=*/16, NVVM::LoadCacheModifierKind::CG,
                              kc.select(inside, kc.i32(16), kc.i32(0)));
    };
    if (first + 32 <= pieces)
      copy();
    else
      kc.ifThen(kc.ult(piece, kc.i32(pieces)), copy);
  }
}

Value collectives::emitMixedInputLoads(KernelContext &kc, const WorkTile &tile,
                                       Value start) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  return emitProducerKTiles(kc, tile, start, [&](Value kt, Value state) {
    // Every lane waits for the empty stage (no arrival yet).
    ProducerAcquireOp::create(b, kc.mainPipe, state, /*cp_async=*/true);
    Value stage = kc.stageIndex(state);
    Value kTile = kc.add(tile.kBegin, kt);
    Value kCoord = kc.mul(kTile, kc.i32(layout.tileK));
    kc.ifThen(kc.eq(kc.lane, kc.i32(0)), [&] {
      ProducerExpectTxOp::create(
          b, kc.mainPipe, state,
          kc.i32(layout.stageBytesA + layout.stageBytesB));
      loadPackedA(kc, tile, kCoord,
                  stageBase(kc, layout.offA, layout.stageBytesA, stage),
                  state);
      // B in blocks of 64 K ([tile N rows][128 bytes] each, the swizzle
      // span), all of the k-tile's in one box over the tensor map's view
      // {64, N, K / 64(, L)} (KernelLayout.cpp's k_chunks) at (0, n0, k /
      // 64(, batch)).
      Value bStage = stageBase(kc, layout.offB, layout.stageBytesB, stage);
      if (layout.tileK == 64) {
        emitTmaOperandLoad(kc, /*isA=*/false, tile, kCoord, bStage, state);
      } else {
        SmallVector<Value> crd{kc.i32(0), tile.n0,
                               kc.divu(kCoord, kc.i32(64))};
        if (kc.desc.batched)
          crd.push_back(tile.batch);
        kc.tmaLoad(bStage, "B", crd, kc.mainPipe, state);
      }
    });
    if (layout.stageBytesDequant > 0)
      copyDequantRows(
          kc, tile, kTile,
          stageBase(kc, layout.offDequant, layout.stageBytesDequant, stage));
    // Each lane's arrival counts once its copies land.
    ProducerCommitOp::create(b, kc.mainPipe, state, /*cp_async=*/true,
                             /*stores=*/false);
  });
}
