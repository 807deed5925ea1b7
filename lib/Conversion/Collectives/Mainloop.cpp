//===- Mainloop.cpp - The mainloop collective: TMA A/B, wgmma -------------===//
//
// Implements Mainloop.h. Shared memory of a stage: A as tile M rows of 128
// bytes (tile K of a 16-bit type, 128 of an 8-bit one, whose wgmma is the
// k32 form reading the same 32 bytes per step) with the 128B swizzle, B likewise when
// K-major; an M-major A (N-major B) as tile M / 64 (tile N / 64) blocks of
// [tile K rows][64 columns], 8 KiB each (TMA boxes are at most 128 swizzled
// bytes wide). Either way 64 rows of A take 8 KiB, so a warpgroup's rows
// and an m64 block start at the same offsets; wgmma reads the MN-major
// operands transposed.
//
//===----------------------------------------------------------------------===//

#include "Mainloop.h"

#include "BlockScales.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

static bool isAKMajor(KernelContext &kc) {
  return kc.desc.aMajor != pl::OperandMajor::M;
}
static bool isBKMajor(KernelContext &kc) {
  return kc.desc.bMajor != pl::OperandMajor::N;
}

Value collectives::stageBase(KernelContext &kc, int64_t offset, int64_t bytes,
                             Value stage) {
  return kc.smemAt(kc.add(kc.i32(offset), kc.mul(stage, kc.i32(bytes))));
}

/// How the CTAs of a cluster share one operand's tile: `parts` CTAs (1: not
/// shared) each load the part `part` (i32) of it and multicast it to the
/// CTAs of `mask` (i16), their cluster row (A) or column (B).
struct Sharing {
  int64_t parts = 1;
  Value part, mask;
};

/// A's tile is shared by the clusterN CTAs of this CTA's cluster row (same
/// ctaM: ranks ctaM + j clusterM), B's by the clusterM CTAs of its column
/// (same ctaN: ranks i + ctaN clusterM).
static Sharing sharingOf(KernelContext &kc, bool isA) {
  Sharing s;
  s.parts = isA ? kc.clusterN : kc.clusterM;
  if (s.parts == 1)
    return s;
  ImplicitLocOpBuilder &b = kc.b;
  s.part = isA ? kc.ctaN : kc.ctaM;
  int64_t bits = 0;
  for (int64_t j = 0; j < s.parts; ++j)
    bits |= int64_t(1) << (isA ? j * kc.clusterM : j);
  Value shift = isA ? kc.ctaM : kc.mul(kc.ctaN, kc.i32(kc.clusterM));
  Value mask32 = arith::ShLIOp::create(b, kc.i32(bits), shift);
  s.mask = arith::TruncIOp::create(b, b.getI16Type(), mask32);
  return s;
}

/// Loads one operand's tile of a stage: one box of `rows` K-major rows, or
/// (`kMajor` false) rows / 64 boxes of 64 columns, 8 KiB apart. Shared by
/// `sh.parts` CTAs, each loads its 1 / sh.parts of it (the box of a K-major
/// operand is that many rows: KernelLayout.cpp) and multicasts it to all of
/// them.
static void loadOperand(KernelContext &kc, StringRef name, bool kMajor,
                        int64_t rows, Value dst, Value row0, Value kCoord,
                        Value batch, Value state, const Sharing &sh) {
  if (sh.parts == 1) {
    if (kMajor) {
      kc.tmaLoad(dst, name, kc.coords(kCoord, row0, batch), kc.mainPipe,
                 state);
      return;
    }
    for (int64_t block = 0; block < rows / 64; ++block)
      kc.tmaLoad(kc.gep(dst, kc.i32(block * 8192)), name,
                 kc.coords(kc.add(row0, kc.i32(block * 64)), kCoord, batch),
                 kc.mainPipe, state);
    return;
  }
  int64_t parts = sh.parts;
  Value mask = sh.mask;
  if (kMajor) {
    Value first = kc.mul(sh.part, kc.i32(rows / parts));
    kc.tmaLoad(kc.gep(dst, kc.mul(first, kc.i32(128))), name,
               kc.coords(kCoord, kc.add(row0, first), batch), kc.mainPipe,
               state, mask);
    return;
  }
  int64_t blocks = rows / 64 / parts;
  for (int64_t i = 0; i < blocks; ++i) {
    Value block = kc.add(kc.mul(sh.part, kc.i32(blocks)), kc.i32(i));
    kc.tmaLoad(kc.gep(dst, kc.mul(block, kc.i32(8192))), name,
               kc.coords(kc.add(row0, kc.mul(block, kc.i32(64))), kCoord,
                         batch),
               kc.mainPipe, state, mask);
  }
}

void collectives::emitTmaOperandLoad(KernelContext &kc, bool isA,
                                     const WorkTile &tile, Value kCoord,
                                     Value dst, Value state) {
  loadOperand(kc, isA ? "A" : "B", isA ? isAKMajor(kc) : isBKMajor(kc),
              isA ? kc.layout.tileM : kc.layout.tileN, dst,
              isA ? tile.m0 : tile.n0, kCoord, tile.batch, state, Sharing{});
}

Value collectives::emitProducerKTiles(
    KernelContext &kc, const WorkTile &tile, Value start,
    function_ref<void(Value kt, Value state)> body) {
  ImplicitLocOpBuilder &b = kc.b;
  auto loop = scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1),
                                 ValueRange{start});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value state = loop.getRegionIterArgs()[0];
  body(loop.getInductionVar(), state);
  scf::YieldOp::create(b, ValueRange{PipelineStateAdvanceOp::create(
                              b, state.getType(), state, /*by=*/1)});
  return loop.getResult(0);
}

Value collectives::emitMainloopLoads(KernelContext &kc, const WorkTile &tile,
                                     Value start) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  // A cluster along N shares A tiles, one along M shares B tiles.
  Sharing shareA = sharingOf(kc, /*isA=*/true);
  Sharing shareB = sharingOf(kc, /*isA=*/false);
  return emitProducerKTiles(kc, tile, start, [&](Value kt, Value state) {
    // The stage is empty once every consumer warpgroup released it; then
    // its full barrier expects the bytes of A and B.
    ProducerAcquireOp::create(b, kc.mainPipe, state);
    Value stage = kc.stageIndex(state);
    // The unit's k-tiles start at kBegin (split-K, stream-K).
    Value kCoord = kc.mul(kc.add(tile.kBegin, kt), kc.i32(layout.tileK));
    loadOperand(kc, "A", isAKMajor(kc), layout.tileM,
                stageBase(kc, layout.offA, layout.stageBytesA, stage), tile.m0,
                kCoord, tile.batch, state, shareA);
    loadOperand(kc, "B", isBKMajor(kc), layout.tileN,
                stageBase(kc, layout.offB, layout.stageBytesB, stage), tile.n0,
                kCoord, tile.batch, state, shareB);
    ProducerCommitOp::create(b, kc.mainPipe, state);
  });
}

/// The wgmma shared-memory matrix descriptor of a 128B-swizzled operand
/// starting at `sharedPtr`: start address >> 4 in bits 0-13, leading byte
/// offset >> 4 in 16-29, stride byte offset >> 4 in 32-45, swizzle mode 1
/// (128B) in bits 62-63. K-major: eight 128-byte rows of K form a 1024-byte
/// atom (SBO = 1024; LBO unused). MN-major: an atom is 8 K rows of 64
/// contiguous MN elements; SBO = 1024 steps 8 K rows, LBO steps 64 MN
/// elements (`mnBlockBytes`).
///
/// Packed here rather than with nvgpu.warpgroup.generate.descriptor: that
/// op takes the operand as a memref typed by a tensor map and fixes the
/// K-major offsets, and its descriptors feed nvgpu.warpgroup.mma, whose
/// accumulator store we cannot use (DESIGN.md, known upstream limits). Our
/// stages are !llvm.ptr<3> offsets into the kernel's carve, and an N-major
/// B needs LBO = 8 KiB between its 64-column blocks.
Value collectives::makeDescriptor(ImplicitLocOpBuilder &b, Value sharedPtr,
                                  int64_t mnBlockBytes) {
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

/// A consumed stage goes back to every producer that writes into it, by an
/// arrival on the stage's empty barrier in its CTA: this CTA's and, in a
/// cluster, those of the other CTAs with its ctaM (their multicasts fill
/// its A) and with its ctaN (B); in a 2 x 2 cluster not the fourth CTA.
/// One thread issues them all. Spreading them over a warp's lanes, one
/// arrival each as CUTLASS's consumers signal, measured 1.9% slower over
/// 20 paired points of 2x1 kernels (docs/perf-notes.md, "The tuner's
/// final, and clusters of 4").
static void releaseStage(KernelContext &kc, Value state) {
  if (kc.clusterSize() == 1) {
    ConsumerReleaseOp::create(kc.b, kc.mainPipe, state, Value(), Value());
    return;
  }
  for (int64_t rank = 0; rank < kc.clusterSize(); ++rank) {
    auto release = [&] {
      ConsumerReleaseOp::create(kc.b, kc.mainPipe, state, kc.i32(rank),
                                Value());
    };
    // A cluster along one dimension: every CTA is a source.
    if (kc.clusterM == 1 || kc.clusterN == 1) {
      release();
      continue;
    }
    Value isSource = arith::OrIOp::create(
        kc.b, kc.eq(kc.ctaM, kc.i32(rank % kc.clusterM)),
        kc.eq(kc.ctaN, kc.i32(rank / kc.clusterM)));
    kc.ifThen(isSource, release);
  }
}

Type collectives::getAccumulatorType(KernelContext &kc) {
  return LLVM::LLVMStructType::getLiteral(
      kc.b.getContext(), SmallVector<Type>(kc.layout.tileN / 2, kc.f32Ty));
}

static NVVM::WGMMATypes wgmmaType(pl::DType type) {
  switch (type) {
  case pl::DType::BF16:
    return NVVM::WGMMATypes::bf16;
  case pl::DType::F8E4M3:
    return NVVM::WGMMATypes::e4m3;
  case pl::DType::F8E5M2:
    return NVVM::WGMMATypes::e5m2;
  default:
    return NVVM::WGMMATypes::f16;
  }
}

/// `total` + `partial`, element by element (two accumulator structs).
static Value addAccumulators(KernelContext &kc, Value total, Value partial) {
  ImplicitLocOpBuilder &b = kc.b;
  for (int64_t i = 0; i < kc.layout.tileN / 2; ++i) {
    Value sum = arith::AddFOp::create(
        b, LLVM::ExtractValueOp::create(b, total, i),
        LLVM::ExtractValueOp::create(b, partial, i));
    total = LLVM::InsertValueOp::create(b, total, sum, i);
  }
  return total;
}

SmallVector<Value>
collectives::emitMainloopMma(KernelContext &kc, const WorkTile &tile,
                             Value consumerWg, Value kBase,
                             function_ref<void()> afterIssue) {
  // A quantized A is dequantized in registers (MixedInput.cpp).
  if (kc.desc.isMixedInput())
    return emitMixedInputMma(kc, tile, consumerWg, kBase, afterIssue);
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  bool aKMajor = isAKMajor(kc);
  bool bKMajor = isBKMajor(kc);
  int64_t mBlocks = layout.wgRows / 64;
  Type accTy = getAccumulatorType(kc);
  Value zero = LLVM::ZeroOp::create(b, accTy);
  // Promoted accumulation (fp8): wgmma accumulates into partials (the
  // first mBlocks values), which every `interval` k-tiles are added into
  // f32 totals (the next mBlocks) and cleared.
  int64_t interval = kc.desc.config.promotionInterval.value_or(0);
  SmallVector<Value> init(interval > 0 ? 2 * mBlocks : mBlocks, zero);
  int64_t numAcc = init.size();
  // Block scaling (interval 1): the loop also carries the scales of the
  // next k-tile, loaded one k-tile ahead (BlockScales.h).
  std::optional<BlockScales> scales;
  if (pl::isBlockScaled(kc.desc.config)) {
    scales.emplace(kc, tile, consumerWg);
    llvm::append_range(init, scales->load(tile.kBegin));
  }

  Value start = PipelineStateInitOp::create(
      b, PipelineStateType::get(b.getContext(), layout.stages),
      PipelineAgent::consumer);
  auto loop = scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value g = kc.add(kBase, kt);
    SmallVector<Value> nextScales;
    if (scales)
      nextScales =
          scales->load(kc.add(kc.add(tile.kBegin, kt), kc.i32(1)));
    Value state = kc.stateAt(start, g);
    ConsumerWaitOp::create(b, kc.mainPipe, state);
    Value stage = kc.stageIndex(state);

    Value aStage = stageBase(kc, layout.offA, layout.stageBytesA, stage);
    Value bStage = stageBase(kc, layout.offB, layout.stageBytesB, stage);
    // This warpgroup's rows of A start wgRows * 128 bytes into the stage.
    Value aRows =
        kc.gep(aStage, kc.mul(consumerWg, kc.i32(layout.wgRows * 128)));
    Value descA = aKMajor ? makeDescriptor(b, aRows)
                          : makeDescriptor(b, aRows, 64 * 64 * 2);
    Value descB = bKMajor ? makeDescriptor(b, bStage)
                          : makeDescriptor(b, bStage, 64 * 64 * 2);

    // One wgmma reads 32 bytes of K per row: k16 of a 16-bit type, k32 of
    // an 8-bit one (8-bit operands are K-major: Legality.cpp).
    int64_t instK = 32 / (pl::getBits(kc.desc.a) / 8);
    auto shape =
        NVVM::MMAShapeAttr::get(b.getContext(), 64, layout.tileN, instK);
    SmallVector<Value> acc(loop.getRegionIterArgs().take_front(numAcc));
    ValueRange tileScales = loop.getRegionIterArgs().drop_front(numAcc);
    NVVM::WgmmaFenceAlignedOp::create(b);
    for (int64_t ks = 0; ks < layout.tileK / instK; ++ks) {
      // K-major: within a 128-byte swizzled row, k steps are 32 bytes
      // (2 units). N-major: 16 K rows of 128 bytes (128 units).
      Value dB =
          arith::AddIOp::create(b, descB, kc.i64(ks * (bKMajor ? 2 : 128)));
      for (int64_t mb = 0; mb < mBlocks; ++mb) {
        // 64 rows of A are 8192 bytes (512 units) either way; a k step
        // is 32 bytes along a K-major row or 16 rows of an M-major block.
        Value dA = arith::AddIOp::create(
            b, descA, kc.i64(ks * (aKMajor ? 2 : 128) + mb * 512));
        acc[mb] = NVVM::WgmmaMmaAsyncOp::create(
            b, accTy, acc[mb], dA, dB, shape, wgmmaType(kc.desc.a),
            wgmmaType(kc.desc.b), NVVM::WGMMATypes::f32,
            NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
            NVVM::WGMMAScaleIn::one,
            aKMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
            bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
            NVVM::MMAIntOverflowAttr());
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    // Keep this k-tile's group in flight; the previous one has retired, so
    // its stage goes back to the producers (one arrival per warpgroup and
    // producer).
    NVVM::WgmmaWaitGroupSyncOp::create(b, 1);
    Value hasPrev =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, kt, kc.i32(0));
    Value releaser = kc.andi(hasPrev, kc.eq(kc.tidInWg, kc.i32(0)));
    // Without a cluster the arrival is predicated: no branch where this
    // k-tile's group is in flight (MixedInput.cpp's release says why).
    if (kc.clusterSize() == 1)
      ConsumerReleaseOp::create(b, kc.mainPipe,
                                kc.stateAt(start, kc.sub(g, kc.i32(1))),
                                /*cta=*/Value(), releaser);
    else
      kc.ifThen(releaser, [&] {
        releaseStage(kc, kc.stateAt(start, kc.sub(g, kc.i32(1))));
      });
    if (interval > 0) {
      // Every interval-th k-tile: drain the wgmma groups (the partials are
      // read next), add the partials into the totals, clear them.
      Value due = kc.eq(kc.remu(kc.add(kt, kc.i32(1)), kc.i32(interval)),
                        kc.i32(0));
      auto promote = scf::IfOp::create(b, ValueRange(acc).getTypes(), due,
                                       /*withElseRegion=*/true);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&promote.getThenRegion().front());
      NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
      SmallVector<Value> promoted(acc);
      for (int64_t mb = 0; mb < mBlocks; ++mb) {
        promoted[mBlocks + mb] =
            scales ? scales->promote(acc[mBlocks + mb], acc[mb], mb,
                                     tileScales)
                   : addAccumulators(kc, acc[mBlocks + mb], acc[mb]);
        promoted[mb] = zero;
      }
      scf::YieldOp::create(b, promoted);
      b.setInsertionPointToStart(&promote.getElseRegion().front());
      scf::YieldOp::create(b, acc);
      acc.assign(promote.getResults().begin(), promote.getResults().end());
    }
    llvm::append_range(acc, nextScales);
    scf::YieldOp::create(b, acc);
  }
  if (afterIssue)
    afterIssue();
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  // The last k-tile's stage goes back too, for the next tile of this CTA.
  Value hadAny = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt,
                                       tile.kTiles, kc.i32(0));
  kc.ifThen(kc.andi(hadAny, kc.eq(kc.tidInWg, kc.i32(0))), [&] {
    releaseStage(
        kc, kc.stateAt(start, kc.sub(kc.add(kBase, tile.kTiles), kc.i32(1))));
  });
  SmallVector<Value> results(loop.getResults().take_front(numAcc));
  if (interval == 0)
    return results;
  // Block scaling promotes every k-tile: the last partial is zero.
  if (scales)
    return SmallVector<Value>(ArrayRef(results).drop_front(mBlocks));
  // The last partial (zero when the last k-tile promoted) joins the totals.
  SmallVector<Value> totals;
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    totals.push_back(addAccumulators(kc, results[mBlocks + mb], results[mb]));
  return totals;
}
