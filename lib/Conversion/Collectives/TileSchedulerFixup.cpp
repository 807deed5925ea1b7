//===- TileSchedulerFixup.cpp - Split tiles summed through a workspace ----===//
//
// Implements TileScheduler::emitFixup: the units of a tile whose K range is
// split (split-K, stream-K) meet in a global f32 workspace, in a fixed
// order, so that results do not depend on timing (docs/stream-k.md):
//
//   unit s of the tile (split order, 0 = lowest k-tiles), per consumer
//   warpgroup of the tile (each owns its rows, its partial and its flag):
//     s > 0:      wait until flag == s, then acc += partial
//     not last:   partial = acc; flag = s + 1 (release)
//     last:       flag = 0 (the workspace is ready for the next launch);
//                 acc is the tile's sum: its epilogue runs, once.
//
// So the tile's sum is ((p0 + p1) + p2) + ... + p(S-1), each p an f32
// wgmma accumulation over the unit's k-tiles from zero. A data-parallel
// kernel accumulates all k-tiles in one chain; splitting reassociates the
// sum at the split boundaries (one extra f32 rounding per split), which
// changes results in the last bits but not the error bound's order
// (K x eps x sum |a b|). Same shape, config and grid: same bits, run after
// run.
//
// Workspace (KernelLayout.h; the runtime sizes it from the manifest): the
// partials of the split tiles, tile M x tile N f32 each, then their flags,
// one i32 per consumer warpgroup. A warpgroup's partial is its accumulator
// registers in thread order: float4 j of 64-row block mb of thread t at
// ((mb x tile N / 8 + j) x 128 + t) x 16 bytes, so that each warp's access
// is 512 contiguous bytes.
//
// Synchronization follows the PTX memory model's message passing: the
// warpgroup's threads write the partial, meet at their named barrier, and
// one thread publishes the flag with st.release.gpu; the waiting
// warpgroup's first thread spins with ld.acquire.gpu, then the warpgroup
// meets at its barrier before reading the partial.
//
//===----------------------------------------------------------------------===//

#include "TileScheduler.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;

/// NVPTX's sync scope for .gpu (ld.acquire.gpu, st.release.gpu).
static constexpr StringLiteral kGpuScope = "device";

/// `base` + `bytes` (an i64) in global memory.
static Value globalByte(KernelContext &kc, Value base, Value bytes) {
  return LLVM::GEPOp::create(kc.b, kc.globalPtrTy, kc.b.getI8Type(), base,
                             ValueRange{bytes});
}

static Value toI64(KernelContext &kc, Value v) {
  return arith::ExtUIOp::create(kc.b, kc.b.getI64Type(), v);
}

/// One scf.if with results `types`: `then` and `otherwise` each return the
/// values they yield.
static ValueRange ifElse(KernelContext &kc, Value cond, TypeRange types,
                         function_ref<SmallVector<Value>()> then,
                         function_ref<SmallVector<Value>()> otherwise) {
  auto op = scf::IfOp::create(kc.b, types, cond, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(kc.b);
  kc.b.setInsertionPointToStart(op.thenBlock());
  scf::YieldOp::create(kc.b, then());
  kc.b.setInsertionPointToStart(op.elseBlock());
  scf::YieldOp::create(kc.b, otherwise());
  return op.getResults();
}

SmallVector<Value> TileScheduler::emitFixup(const WorkTile &tile,
                                            Value consumerWg, Value barrierId,
                                            ArrayRef<Value> acc) {
  if (!hasSplits())
    return SmallVector<Value>(acc);
  ImplicitLocOpBuilder &b = kc.b;
  const planning::KernelLayout &layout = kc.layout;
  int64_t wgs = layout.consumerWarpgroups;
  int64_t vectors = layout.tileN / 8; // float4s per thread per 64-row block
  Value leader = kc.eq(kc.tidInWg, kc.i32(0));

  // This warpgroup's partial and flag.
  Value workspace = kc.param("workspace");
  Value tileBytes = kc.i64(layout.workspaceTileBytes);
  Value partial = globalByte(
      kc, workspace,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, toI64(kc, tile.slot), tileBytes),
          toI64(kc, kc.mul(consumerWg,
                           kc.i32(layout.wgRows * layout.tileN * 4)))));
  Value flagIndex = kc.add(kc.mul(tile.slot, kc.i32(wgs)), consumerWg);
  Value flag = globalByte(
      kc, workspace,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, toI64(kc, splitTiles), tileBytes),
          arith::MulIOp::create(b, toI64(kc, flagIndex), kc.i64(4))));
  // Float4 j of block mb of this thread.
  auto vectorAt = [&](int64_t mb, int64_t j) {
    Value index = kc.add(kc.i32((mb * vectors + j) * 128), kc.tidInWg);
    return globalByte(kc, partial,
                      arith::MulIOp::create(b, toI64(kc, index), kc.i64(16)));
  };
  auto v4 = VectorType::get({4}, kc.f32Ty);

  Value hasEarlier = kc.ult(kc.i32(0), tile.split);
  Value notLast = arith::XOrIOp::create(b, tile.last, kc.constTrue());
  Value joins = kc.andi(tile.last, hasEarlier);
  // A unit that is its tile's only one (data-parallel) skips all of it.
  Value involved = arith::OrIOp::create(b, hasEarlier, notLast);

  TypeRange accTypes = ValueRange(acc).getTypes();
  ValueRange sum = ifElse(
      kc, involved, accTypes,
      [&] {
        // Wait for the units before this one, then add their sum.
        ValueRange total = ifElse(
            kc, hasEarlier, accTypes,
            [&] {
              kc.ifThen(leader, [&] {
                auto spin = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
                OpBuilder::InsertionGuard guard(b);
                b.createBlock(&spin.getBefore());
                Value seen = LLVM::LoadOp::create(
                    b, kc.i32Ty, flag, /*alignment=*/4, false, false, false,
                    false, LLVM::AtomicOrdering::acquire, kGpuScope);
                scf::ConditionOp::create(
                    b,
                    arith::CmpIOp::create(b, arith::CmpIPredicate::ne, seen,
                                          tile.split),
                    ValueRange{});
                b.createBlock(&spin.getAfter());
                scf::YieldOp::create(b, ValueRange{});
              });
              kc.namedBarrier(barrierId, 128);
              SmallVector<Value> added(acc);
              for (auto [mb, block] : llvm::enumerate(added)) {
                for (int64_t j = 0; j < vectors; ++j) {
                  Value v = LLVM::LoadOp::create(b, v4, vectorAt(mb, j),
                                                 /*alignment=*/16);
                  for (int64_t e = 0; e < 4; ++e) {
                    int64_t field = j * 4 + e;
                    Value x = LLVM::ExtractValueOp::create(b, block, field);
                    Value y = LLVM::ExtractElementOp::create(b, v, kc.i32(e));
                    block = LLVM::InsertValueOp::create(
                        b, block, arith::AddFOp::create(b, x, y), field);
                  }
                }
              }
              return added;
            },
            [&] { return SmallVector<Value>(acc); });
        // Hand the sum so far to the next unit.
        kc.ifThen(notLast, [&] {
          for (auto [mb, block] : llvm::enumerate(total)) {
            for (int64_t j = 0; j < vectors; ++j) {
              Value v = LLVM::UndefOp::create(b, v4);
              for (int64_t e = 0; e < 4; ++e)
                v = LLVM::InsertElementOp::create(
                    b, v, LLVM::ExtractValueOp::create(b, block, j * 4 + e),
                    kc.i32(e));
              LLVM::StoreOp::create(b, v, vectorAt(mb, j), /*alignment=*/16);
            }
          }
          kc.namedBarrier(barrierId, 128);
          kc.ifThen(leader, [&] {
            LLVM::StoreOp::create(b, kc.add(tile.split, kc.i32(1)), flag,
                                  /*alignment=*/4, false, false, false,
                                  LLVM::AtomicOrdering::release, kGpuScope);
          });
        });
        // The last unit has read every partial: the flag starts over.
        kc.ifThen(kc.andi(joins, leader), [&] {
          LLVM::StoreOp::create(b, kc.i32(0), flag, /*alignment=*/4);
        });
        return SmallVector<Value>(total);
      },
      [&] { return SmallVector<Value>(acc); });
  return SmallVector<Value>(sum);
}
