//===- TileSchedulerFixup.cpp - Split tiles summed through a workspace ----===//
//
// Implements TileScheduler::emitFixup: the units of a tile whose K range is
// split (split-K, stream-K) meet in a global f32 workspace, in a fixed
// order, so that results do not depend on timing (docs/stream-k.md). Per
// consumer warpgroup of the tile (each owns its rows, partials and flag):
//
//   split-K with at most 64 accumulators per thread (KernelLayout::
//   gatherSplits; S units, each its own partial slot; the flag counts
//   arrivals):
//     s < S - 1:  partial[s] = acc; flag += 1 (release); no wait
//     s = S - 1:  wait until flag == S - 1, then
//                 acc = ((acc + partial[0]) + ...) + partial[S - 2];
//                 flag = 0 (the workspace is ready for the next launch)
//   stream-K (a tile's units vary in number) and split-K with larger
//   accumulators (one slot, a chain):
//     s > 0:      wait until flag == s, then acc += partial
//     not last:   partial = acc; flag = s + 1 (release)
//     last:       flag = 0
//
// The last unit's acc is then the tile's sum: its epilogue runs, once.
// The sum is ((p0 + p1) + p2) + ... + p(S-1) (stream-K) or ((p(S-1) +
// p0) + p1) + ... + p(S-2) (split-K), each p an f32 wgmma accumulation over
// the unit's k-tiles from zero, in an order fixed by the split indices. A data-parallel
// kernel accumulates all k-tiles in one chain; splitting reassociates the
// sum at the split boundaries (one extra f32 rounding per split), which
// changes results in the last bits but not the error bound's order
// (K x eps x sum |a b|). Same shape, config and grid: same bits, run after
// run. Split-K's units never wait for each other but the last for all: one
// hand-off (write, publish, observe, read) on the critical path instead of
// S - 1 in a chain, each about 1.6-1.9 us at decode shapes (split_k = 8
// took 2.4x split_k = 1's time at 4096 x 16 x 1024 with the chain;
// docs/perf-notes.md, "Split-K's hand-offs").
//
// Workspace (KernelLayout.h; the runtime sizes it from the manifest): per
// split tile a slot of its partials (gathered split-K: S - 1; otherwise
// one), tile M x tile N f32 each, then its flags, one i32 per consumer
// warpgroup (16 bytes). A flag's place depends on the kernel alone, never
// on the problem's tile count: the runtime zeroes a workspace once and
// reuses it for the kernel's later launches, whose flags then start at 0
// (every launch leaves the flags it used at 0), where flags placed after
// all partials could land on an earlier, larger launch's partials; the
// split-K counter, unlike the chain's stored values, needs them at 0. A
// warpgroup's partial is its accumulator registers in thread order:
// float4 j of accumulator block mb of thread t at ((mb x V + j) x 128 + t)
// x 16 bytes (V float4s a block: tile N / 8 for a 64-row block, tile N /
// 16 for sm_8x's 32-row blocks with warp_columns = 2), so that each
// warp's access is 512 contiguous bytes.
//
// Synchronization follows the PTX memory model's message passing: the
// warpgroup's threads write the partial, meet at their named barrier, and
// one thread publishes it (st.release.gpu, or atom.add.release.gpu on the
// split-K counter); the waiting warpgroup's first thread spins with
// ld.acquire.gpu, then the warpgroup meets at its barrier before reading.
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

/// Spins the warpgroup's first thread on `flag` (ld.acquire.gpu) until it
/// holds `value`, then meets the warpgroup at `barrierId`.
static void waitForFlag(KernelContext &kc, Value flag, Value value,
                        Value barrierId, Value leader) {
  ImplicitLocOpBuilder &b = kc.b;
  kc.ifThen(leader, [&] {
    auto spin = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&spin.getBefore());
    Value seen = LLVM::LoadOp::create(
        b, kc.i32Ty, flag, /*alignment=*/4, false, false, false, false,
        LLVM::AtomicOrdering::acquire, kGpuScope);
    scf::ConditionOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ne, seen, value),
        ValueRange{});
    b.createBlock(&spin.getAfter());
    scf::YieldOp::create(b, ValueRange{});
  });
  kc.namedBarrier(barrierId, 128);
}

SmallVector<Value> TileScheduler::emitFixup(const WorkTile &tile,
                                            Value consumerWg, Value barrierId,
                                            ArrayRef<Value> acc) {
  if (!hasSplits())
    return SmallVector<Value>(acc);
  ImplicitLocOpBuilder &b = kc.b;
  const planning::KernelLayout &layout = kc.layout;
  // Float4s per thread per accumulator block: a block is a 64-row block's
  // tile N / 2 f32 (wgmma's layout), or with sm_8x's warp_columns = 2 a
  // 32-row block's tile N / 4 (MainloopSm80.h); either way the thread's
  // registers in order.
  int64_t fields =
      cast<LLVM::LLVMStructType>(acc.front().getType()).getBody().size();
  assert(fields % 4 == 0 && "accumulator blocks of whole float4s");
  int64_t vectors = fields / 4;
  int64_t partialBytes = layout.tileM * layout.tileN * 4;
  Value leader = kc.eq(kc.tidInWg, kc.i32(0));

  // This warpgroup's partial in the tile's slot `index` (split-K: its
  // split; stream-K: 0), and its flag after the tile's partials.
  Value workspace = kc.param("workspace");
  Value tileBase = arith::MulIOp::create(
      b, toI64(kc, tile.slot),
      kc.i64(layout.workspaceTileBytes + layout.workspaceFlagBytes));
  Value wgOffset = toI64(kc, kc.mul(consumerWg,
                                    kc.i32(layout.wgRows * layout.tileN * 4)));
  auto partialAt = [&](Value index) {
    return globalByte(
        kc, workspace,
        arith::AddIOp::create(
            b, tileBase,
            arith::AddIOp::create(
                b,
                arith::MulIOp::create(b, toI64(kc, index),
                                      kc.i64(partialBytes)),
                wgOffset)));
  };
  Value flag = globalByte(
      kc, workspace,
      arith::AddIOp::create(
          b, tileBase,
          toI64(kc, kc.add(kc.i32(layout.workspaceTileBytes),
                           kc.mul(consumerWg, kc.i32(4))))));
  // Float4 j of block mb of this thread in `partial`.
  auto vectorAt = [&](Value partial, int64_t mb, int64_t j) {
    Value index = kc.add(kc.i32((mb * vectors + j) * 128), kc.tidInWg);
    return globalByte(kc, partial,
                      arith::MulIOp::create(b, toI64(kc, index), kc.i64(16)));
  };
  auto v4 = VectorType::get({4}, kc.f32Ty);
  // Float4 j of `partial` added into fields 4j.. of `block` (64-row block
  // mb's accumulators).
  auto addVector = [&](Value &block, Value partial, int64_t mb, int64_t j) {
    Value v =
        LLVM::LoadOp::create(b, v4, vectorAt(partial, mb, j), /*alignment=*/16);
    for (int64_t e = 0; e < 4; ++e) {
      int64_t field = j * 4 + e;
      Value x = LLVM::ExtractValueOp::create(b, block, field);
      Value y = LLVM::ExtractElementOp::create(b, v, kc.i32(e));
      block = LLVM::InsertValueOp::create(b, block,
                                          arith::AddFOp::create(b, x, y), field);
    }
  };
  // The unit's accumulators into `partial`, then a barrier.
  auto storePartial = [&](ValueRange blocks, Value partial) {
    for (auto [mb, block] : llvm::enumerate(blocks)) {
      for (int64_t j = 0; j < vectors; ++j) {
        Value v = LLVM::UndefOp::create(b, v4);
        for (int64_t e = 0; e < 4; ++e)
          v = LLVM::InsertElementOp::create(
              b, v, LLVM::ExtractValueOp::create(b, block, j * 4 + e),
              kc.i32(e));
        LLVM::StoreOp::create(b, v, vectorAt(partial, mb, j),
                              /*alignment=*/16);
      }
    }
    kc.namedBarrier(barrierId, 128);
  };
  TypeRange accTypes = ValueRange(acc).getTypes();
  Value notLast = arith::XOrIOp::create(b, tile.last, kc.constTrue());

  if (layout.gatherSplits) {
    // Split-K: every unit but the last publishes its partial and goes on;
    // the last waits for all of them and sums them in split order.
    ValueRange sum = ifElse(
        kc, notLast, accTypes,
        [&] {
          storePartial(acc, partialAt(tile.split));
          // red.release.gpu: NVPTX lowers an atomicrmw's release ordering
          // to a relaxed atom, which would not publish the partial.
          kc.ifThen(leader, [&] {
            LLVM::InlineAsmOp::create(
                b, TypeRange{}, ValueRange{flag},
                "red.release.gpu.global.add.u32 [$0], 1;", "l,~{memory}",
                /*has_side_effects=*/true, /*is_align_stack=*/false,
                LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                /*operand_attrs=*/ArrayAttr());
          });
          return SmallVector<Value>(acc);
        },
        [&] {
          waitForFlag(kc, flag, kc.i32(splitK - 1), barrierId, leader);
          // ((acc + p0) + p1) + ... + p(S-2), one partial per iteration of
          // a loop: unrolled, ptxas hoisted the loads of every partial over
          // the adds and spilled (1.3 KB when 128x256 split 4 gathered;
          // such tiles now keep the chain: KernelLayout::gatherSplits).
          // The partial's address is carried, so the loop keeps one
          // pointer beside the accumulators.
          SmallVector<Value> init(acc);
          init.push_back(partialAt(kc.i32(0)));
          auto loop = scf::ForOp::create(b, kc.i32(0), kc.i32(splitK - 1),
                                         kc.i32(1), init);
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(loop.getBody());
            SmallVector<Value> added(loop.getRegionIterArgs());
            Value partial = added.pop_back_val();
            for (auto [mb, block] : llvm::enumerate(added))
              for (int64_t j = 0; j < vectors; ++j)
                addVector(block, partial, mb, j);
            added.push_back(globalByte(kc, partial, kc.i64(partialBytes)));
            scf::YieldOp::create(b, added);
          }
          SmallVector<Value> total(loop.getResults().drop_back());
          kc.ifThen(leader, [&] {
            LLVM::StoreOp::create(b, kc.i32(0), flag, /*alignment=*/4);
          });
          return total;
        });
    return SmallVector<Value>(sum);
  }

  // The chain: stream-K (the last unit's predecessors vary per tile) and
  // split-K with large accumulators (KernelLayout::gatherSplits).
  Value partial = partialAt(kc.i32(0));
  Value hasEarlier = kc.ult(kc.i32(0), tile.split);
  Value joins = kc.andi(tile.last, hasEarlier);
  // A unit that is its tile's only one (data-parallel) skips all of it.
  Value involved = arith::OrIOp::create(b, hasEarlier, notLast);
  ValueRange sum = ifElse(
      kc, involved, accTypes,
      [&] {
        // Wait for the units before this one, then add their sum.
        ValueRange total = ifElse(
            kc, hasEarlier, accTypes,
            [&] {
              waitForFlag(kc, flag, tile.split, barrierId, leader);
              SmallVector<Value> added(acc);
              for (auto [mb, block] : llvm::enumerate(added))
                for (int64_t j = 0; j < vectors; ++j)
                  addVector(block, partial, mb, j);
              return added;
            },
            [&] { return SmallVector<Value>(acc); });
        // Hand the sum so far to the next unit.
        kc.ifThen(notLast, [&] {
          storePartial(total, partial);
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
