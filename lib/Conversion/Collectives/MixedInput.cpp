//===- MixedInput.cpp - The mixed-input mainloop: A dequantized on load ---===//
//
// Implements the consumer of Mainloop.h's mixed-input pieces
// (docs/mixed-input.md; the producer is MixedInputLoads.cpp), CUTLASS's
// mixed-input collective (sm90_mma_tma_gmma_rs_warpspecialized_
// mixed_input) in IR. The quantized weight is A and arrives pre-packed
// (KernelLayout.h, kPackingI4 / kPackingB8): the producer moves tile M / 64
// units per k-tile with one TMA box, into the stage where a 16-bit A would
// go, at a quarter (i4) or half (i8, f8e4m3) of its bytes. A unit is one
// (i4) or two (8-bit) halves of 2048 bytes; each consumer thread reads its
// 16 bytes of a half with one ld.shared.v4 (thread t at t * 16: no bank
// conflicts), which hold its wgmma A fragment for 4 (i4) or 2 (8-bit) k16
// steps. i4: word s is step s, and nibbles j and 4 + j of it (bits 4j and
// 16 + 4j) are the two 16-bit halves of fragment register j (a_2j,
// a_2j+1; rows r, r + 8, r, r + 8 for j = 0..3 with r = 16 warp + lane /
// 4). 8-bit: words 2 (s % 2) and 2 (s % 2) + 1 are step s, bytes 2 (j % 2)
// and 2 (j % 2) + 1 of word j / 2 the halves of register j.
//
// The dequantization itself (Dequantizer.h): per fragment register, into
// the MMA's 16-bit type.
//
// One scale per row (group 0: the 8-bit weights' per-channel scales) is not
// applied per element: each consumer thread reads its rows' scales from
// global memory before the mainloop and multiplies its f32 accumulators by
// them after it (s * sum(q * b): exact products, no rounding of the weight),
// one multiply per accumulator instead of one mul.rn per register of every
// k16 step. Group scales go the same way where the k-tile spans one group
// (or two of 128 in a k-tile of 256) and that is fewer instructions
// (pl::scalesDequantAccumulator: the decode tiles, N 16 or 32): each group
// of the k-tile accumulates sum((v - z) * b) into an f32 partial of its own
// (its first wgmma with scale-d 0), which the next k-tile folds into the
// total with one fma per element and the group's scale, once the k-tile's
// last wgmma retired; the last folds follow the loop (0.86-0.96x the time
// of one mul.rn per register at Llama-3 decode shapes, docs/mixed-
// input.md).
//
// Group scales (and zero points) of a stage's k-tile come with its tiles:
// the load warp's lanes copy the tile's rows of each group the k-tile spans
// (one, or tile K / group, each k16 step taking its own group's)
// into the stage with 16-byte cp.async beside the TMA boxes, and each
// consumer thread reads its two rows per 64-row block with ld.shared after
// the stage's wait (a global load in the consumer, even k-tiles ahead,
// stalled the loop on its latency: the registers it lands in are loop-
// carried and moved at the back edge). The zero point z (an integer in B's
// type) becomes zz = M + z with one exact add, bias8's zz = M + 8 is a
// constant.
//
// The MMA is wgmma's register-A form, which NVVM's wgmma op does not
// model (it takes two descriptors), as inline PTX with the accumulators
// tied in and out; B is read from its 128B-swizzled stage by descriptor
// as in the SS mainloop. A wgmma reads its A registers until its group
// retires (rewriting them before is undefined, and ptxas does not guard
// it), so every k16 step is its own group with its own registers (8
// sets: step s's are rewritten by step s + 8, in the next k-tile or, in a
// k-tile of 256, the same one) after a wait_group that leaves the younger
// groups in flight: the tensor cores multiply
// while the consumers dequantize (docs/mixed-input.md). The stage goes
// back by a predicated arrival: a branch around it, with groups in
// flight, made ptxas serialize every wgmma of the kernel (C7513).
//
//===----------------------------------------------------------------------===//

#include "Dequantizer.h"
#include "Mainloop.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

/// wgmma.mma_async m64nNk16 with A from the 4 registers `a` and B from
/// descriptor `descB` (K-major), accumulating into `acc`.
static Value registerAWgmma(KernelContext &kc, Value acc, ValueRange a,
                            Value descB, bool accumulate = true) {
  ImplicitLocOpBuilder &b = kc.b;
  int64_t n = kc.layout.tileN / 2;
  const char *t = kc.desc.b == pl::DType::BF16 ? "bf16" : "f16";
  std::string text, constraints;
  llvm::raw_string_ostream os(text), cs(constraints);
  os << "wgmma.mma_async.sync.aligned.m64n" << kc.layout.tileN << "k16.f32."
     << t << "." << t << " {";
  for (int64_t i = 0; i < n; ++i) {
    os << (i ? ", $" : "$") << i;
    cs << "=f,";
  }
  // scale-d 1 (accumulate) or 0 (overwrite: `acc` is not read), scale-a/b
  // 1, B not transposed (K-major).
  os << "}, {$" << n << ", $" << n + 1 << ", $" << n + 2 << ", $" << n + 3
     << "}, $" << n + 4 << ", " << (accumulate ? 1 : 0) << ", 1, 1, 0;";
  cs << "r,r,r,r,l";
  SmallVector<Value> operands(a.begin(), a.end());
  operands.push_back(descB);
  for (int64_t i = 0; accumulate && i < n; ++i) {
    cs << "," << i;
    operands.push_back(LLVM::ExtractValueOp::create(b, acc, i));
  }
  return LLVM::InlineAsmOp::create(
             b, acc.getType(), operands, text, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

/// The f32 scales of this thread's rows (r and r + 8 of each 64-row block,
/// in that order) with one scale per row (group 0): element batch * M +
/// row of `dequant_scale_a`, a row past M reading row 0 (its accumulators
/// are not stored). Read before the mainloop, used after it.
static SmallVector<Value> loadRowScales(KernelContext &kc, const WorkTile &tile,
                                        const Dequantizer &dq,
                                        int64_t mBlocks) {
  ImplicitLocOpBuilder &b = kc.b;
  Type i64Ty = b.getI64Type();
  Value batch = kc.desc.batched ? tile.batch : kc.i32(0);
  Value first =
      arith::MulIOp::create(b, arith::ExtUIOp::create(b, i64Ty, batch),
                            arith::ExtUIOp::create(b, i64Ty, kc.sizeM));
  bool bf16 = kc.desc.dequantA->scale == pl::DType::BF16;
  SmallVector<Value> scales;
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t h = 0; h < 2; ++h) {
      Value row = kc.add(tile.m0, dq.rowInTile(mb, h));
      row = kc.select(kc.ult(row, kc.sizeM), row, kc.i32(0));
      Value ptr = LLVM::GEPOp::create(
          b, kc.globalPtrTy, b.getI16Type(), kc.param("dequant_scale_a"),
          ValueRange{arith::AddIOp::create(
              b, first, arith::ExtUIOp::create(b, i64Ty, row))});
      Value bits = LLVM::LoadOp::create(b, b.getI16Type(), ptr,
                                        /*alignment=*/2, /*isVolatile=*/false,
                                        /*isNonTemporal=*/false,
                                        /*isInvariant=*/true);
      // bf16: its bits are an f32's high half; f16 widens exactly.
      Value scale;
      if (bf16) {
        Value wide = arith::ShLIOp::create(
            b, arith::ExtUIOp::create(b, kc.i32Ty, bits), kc.i32(16));
        scale = arith::BitcastOp::create(b, kc.f32Ty, wide);
      } else {
        Value half = arith::BitcastOp::create(b, b.getF16Type(), bits);
        scale = arith::ExtFOp::create(b, kc.f32Ty, half);
      }
      scales.push_back(scale);
    }
  return scales;
}

/// `acc` (wgmma's m64nN f32 layout: element i is row r + 8 ((i / 2) % 2))
/// times its row's scale.
static Value scaleRows(KernelContext &kc, Value acc, Value scaleR,
                       Value scaleR8) {
  ImplicitLocOpBuilder &b = kc.b;
  for (int64_t i = 0; i < kc.layout.tileN / 2; ++i) {
    Value v = arith::MulFOp::create(b, LLVM::ExtractValueOp::create(b, acc, i),
                                    (i % 4) / 2 ? scaleR8 : scaleR);
    acc = LLVM::InsertValueOp::create(b, acc, v, i);
  }
  return acc;
}

/// `acc` + `partial` times its row's scale (wgmma's m64nN f32 layout, as
/// scaleRows), one fma per element.
static Value foldPartial(KernelContext &kc, Value acc, Value partial,
                         Value scaleR, Value scaleR8) {
  ImplicitLocOpBuilder &b = kc.b;
  for (int64_t i = 0; i < kc.layout.tileN / 2; ++i) {
    Value v =
        LLVM::FMAOp::create(b, LLVM::ExtractValueOp::create(b, partial, i),
                            (i % 4) / 2 ? scaleR8 : scaleR,
                            LLVM::ExtractValueOp::create(b, acc, i));
    acc = LLVM::InsertValueOp::create(b, acc, v, i);
  }
  return acc;
}

/// k16 steps per wgmma group (commit): their fragments are dequantized
/// before one fence, and one wait_group frees their registers. Two in the
/// decode tiles (tile N 16): half the fences, commits and waits, whose
/// warpgroup-wide synchronization keeps a warpgroup's warps in lockstep;
/// 1.002-1.045x the one-step groups' speed at the Llama-3 weights (v1, W4
/// and int8; v11 1.008-1.013x) on an H200, and four steps no better
/// (docs/perf-notes.md, "Bigger stages, one B box, 64-row tiles"). One
/// elsewhere (not measured: wider tiles have more wgmmas to overlap).
static int64_t stepsPerCommit(const pl::KernelLayout &layout) {
  return layout.tileN <= 16 ? 2 : 1;
}

/// One arrival on the empty barrier of the stage at `state` (no cluster:
/// LegalityMixedInput.cpp), by the warpgroup's first thread, when `pred`:
/// a predicated arrival, not a branch, since wgmma groups stay in flight
/// across it (a branch there made ptxas serialize every wgmma: C7513).
static void release(KernelContext &kc, Value pred, Value state) {
  ConsumerReleaseOp::create(kc.b, kc.mainPipe, state, /*cta=*/Value(),
                            kc.andi(pred, kc.eq(kc.tidInWg, kc.i32(0))));
}

SmallVector<Value>
collectives::emitMixedInputMma(KernelContext &kc, const WorkTile &tile,
                               Value consumerWg, Value kBase,
                               function_ref<void()> afterIssue) {
  ImplicitLocOpBuilder &b = kc.b;
  const pl::KernelLayout &layout = kc.layout;
  int64_t mBlocks = layout.wgRows / 64;
  int64_t unitsPerTile = layout.tileK / 64;
  int64_t steps = layout.tileK / 16;
  // Steps whose fragment registers may be read by wgmmas in flight: a
  // k-tile of 64 or 128 gives all its steps registers of their own, one of
  // 256 the last 8 (step s rewrites the registers of step s - 8).
  int64_t slots = std::min<int64_t>(steps, 8);
  Value zero = LLVM::ZeroOp::create(b, getAccumulatorType(kc));
  Dequantizer dq(kc, consumerWg);
  // Group scales on the accumulator (one group per k-tile, or two of 128
  // in a k-tile of 256): per group j and 64-row block mb a partial
  // sum((v - z) * b) over the group's steps, and the scales of its rows it
  // is folded with, loop-carried after the totals (all zero before the
  // first k-tile: the first folds add 0).
  bool groupAcc = dq.scalesGroups();
  int64_t groups = groupAcc ? pl::getDequantGroupsPerKTile(kc.desc) : 0;
  int64_t stepsPerGroup = groupAcc ? steps / groups : steps;
  SmallVector<Value> init(mBlocks, zero);
  if (groupAcc) {
    init.append(groups * mBlocks, zero);
    init.append(2 * groups * mBlocks,
                arith::ConstantOp::create(b, b.getF32FloatAttr(0.0f)));
  }
  SmallVector<Value> rowScales;
  if (dq.scalesRows())
    rowScales = loadRowScales(kc, tile, dq, mBlocks);
  auto partialAt = [&](int64_t j, int64_t mb) {
    return mBlocks + j * mBlocks + mb;
  };
  auto scaleAt = [&](int64_t j, int64_t i) {
    return (1 + groups) * mBlocks + j * 2 * mBlocks + i;
  };
  // Every partial of a k-tile (carried as `from`) into the totals `acc`,
  // with its group's scales.
  auto foldAll = [&](SmallVector<Value> &acc, ArrayRef<Value> from) {
    for (int64_t j = 0; j < groups; ++j)
      for (int64_t mb = 0; mb < mBlocks; ++mb)
        acc[mb] = foldPartial(kc, acc[mb], from[partialAt(j, mb)],
                              from[scaleAt(j, 2 * mb)],
                              from[scaleAt(j, 2 * mb + 1)]);
  };

  Value start = PipelineStateInitOp::create(
      b, PipelineStateType::get(b.getContext(), layout.stages),
      PipelineAgent::consumer);
  auto loop = scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value g = kc.add(kBase, kt);
    SmallVector<Value> carried(loop.getRegionIterArgs());
    Value state = kc.stateAt(start, g);
    ConsumerWaitOp::create(b, kc.mainPipe, state);
    Value stage = kc.stageIndex(state);
    // The stage's scales and zero points, copied beside A by the load warp
    // (a global load here, even k-tiles ahead, stalled the loop on its
    // latency: the loop-carried registers it lands in are moved at the
    // back edge; docs/mixed-input.md).
    SmallVector<Value> words = dq.load(
        stageBase(kc, layout.offDequant, layout.stageBytesDequant, stage));
    Value aStage = stageBase(kc, layout.offA, layout.stageBytesA, stage);
    Value descB = makeDescriptor(
        b, stageBase(kc, layout.offB, layout.stageBytesB, stage));
    // This warpgroup's 64-row blocks follow the other warpgroups' ones.
    // Their halves of the first 128 of K are read up front, those of a
    // k-tile of 256's second 128 at their first step (fewer registers).
    Value firstBlock = kc.mul(consumerWg, kc.i32(mBlocks));
    int64_t halvesPerTile = dq.chunkOfStep(steps - 1) + 1;
    SmallVector<Value> blocks;
    SmallVector<SmallVector<Value>> chunks(
        mBlocks, SmallVector<Value>(halvesPerTile, Value()));
    auto needChunk = [&](int64_t mb, int64_t half) {
      if (!chunks[mb][half])
        chunks[mb][half] = dq.loadChunk(blocks[mb], half);
    };
    for (int64_t mb = 0; mb < mBlocks; ++mb) {
      Value block = kc.add(firstBlock, kc.i32(mb));
      blocks.push_back(kc.gep(
          aStage, kc.mul(block, kc.i32(unitsPerTile * dq.unitBytes()))));
      for (int64_t h = 0; h <= dq.chunkOfStep(slots - 1); ++h)
        needChunk(mb, h);
    }
    // Per group of the k-tile, per 64-row block.
    SmallVector<SmallVector<Dequantizer::RowPairs>> rowPairs(
        pl::getDequantGroupsPerKTile(kc.desc));
    for (auto [j, perBlock] : llvm::enumerate(rowPairs))
      for (int64_t mb = 0; mb < mBlocks; ++mb)
        perBlock.push_back(dq.pairs(mb, j, words));

    // One wgmma group per k16 step; groups retire in order. A step's
    // registers are rewritten only once the step `slots` before it (in
    // this k-tile or the previous one) retired (PTX: rewriting a wgmma's A
    // registers before its wait_group is undefined), and the partials are
    // folded only once the previous k-tile's last step retired: each wait
    // leaves the younger groups in flight, so the tensor cores multiply
    // steps while the next ones are dequantized. Once the previous k-tile
    // has retired entirely its stage goes back. Steps are numbered from
    // this k-tile's first; the previous k-tile's are -steps .. -1.
    Value hasPrev =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, kt, kc.i32(0));
    // wgmma groups of `perCommit` steps: their fragments dequantized
    // first, then one fence, the steps' wgmmas and one commit; `issued`
    // and `retiredThrough` count these groups (floor of step / perCommit;
    // the previous k-tile's are negative).
    int64_t perCommit = stepsPerCommit(layout);
    auto groupOf = [&](int64_t step) {
      return step >= 0 ? step / perCommit : -((-step - 1) / perCommit) - 1;
    };
    int64_t issued = 0, retiredThrough = groupOf(-steps) - 1;
    bool released = false;
    auto ensureRetired = [&](int64_t step) {
      int64_t group = groupOf(step);
      if (group <= retiredThrough)
        return;
      // Groups in flight after `group`: group + 1 .. issued - 1.
      NVVM::WgmmaWaitGroupSyncOp::create(b, issued - 1 - group);
      retiredThrough = group;
      if (group >= -1 && !released) {
        release(kc, hasPrev, kc.stateAt(start, kc.sub(g, kc.i32(1))));
        released = true;
      }
    };
    SmallVector<Value> acc(carried.begin(), carried.begin() + mBlocks);
    SmallVector<Value> yielded(carried);
    for (int64_t first = 0; first < steps; first += perCommit) {
      // The group's last step rewrites the registers of the step `slots`
      // before it, the latest its steps reuse.
      ensureRetired(first + perCommit - 1 - slots);
      SmallVector<SmallVector<SmallVector<Value>>> regs(perCommit);
      for (int64_t i = 0; i < perCommit; ++i)
        for (int64_t mb = 0; mb < mBlocks; ++mb) {
          int64_t ks = first + i;
          needChunk(mb, dq.chunkOfStep(ks));
          regs[i].push_back(dq.stepFragments(
              chunks[mb], ks, rowPairs[dq.groupOfStep(ks)][mb]));
        }
      if (groupAcc && first == 0) {
        // The previous k-tile's partials, once its last wgmma retired
        // (after step 0's dequantization, which hides some of that wait;
        // dequantizing a second step first measured the same), into the
        // totals with that k-tile's scales; this k-tile's go to the next
        // fold.
        ensureRetired(-1);
        foldAll(acc, carried);
        for (int64_t j = 0; j < groups; ++j)
          for (auto [i, scale] : llvm::enumerate(dq.groupScales(j, words)))
            yielded[scaleAt(j, i)] = scale;
      }
      NVVM::WgmmaFenceAlignedOp::create(b);
      for (int64_t i = 0; i < perCommit; ++i) {
        int64_t ks = first + i;
        // A K-major B advances 32 bytes (2 descriptor units) per k16 step
        // within a 64-K block of tile N x 128 bytes.
        Value dB = arith::AddIOp::create(
            b, descB,
            kc.i64((ks % 4) * 2 + (ks / 4) * layout.tileN * 128 / 16));
        // A scale group's first step overwrites its partial (scale-d 0).
        bool overwrite = groupAcc && ks % stepsPerGroup == 0;
        for (int64_t mb = 0; mb < mBlocks; ++mb) {
          if (groupAcc) {
            int64_t at = partialAt(ks / stepsPerGroup, mb);
            yielded[at] = registerAWgmma(kc, yielded[at], regs[i][mb], dB,
                                         /*accumulate=*/!overwrite);
          } else {
            acc[mb] = registerAWgmma(kc, acc[mb], regs[i][mb], dB);
          }
        }
      }
      NVVM::WgmmaGroupSyncAlignedOp::create(b);
      ++issued;
    }
    for (int64_t mb = 0; mb < mBlocks; ++mb)
      yielded[mb] = acc[mb];
    scf::YieldOp::create(b, yielded);
  }
  if (afterIssue)
    afterIssue();
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  Value hadAny = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt,
                                       tile.kTiles, kc.i32(0));
  release(kc, hadAny,
          kc.stateAt(start, kc.sub(kc.add(kBase, tile.kTiles), kc.i32(1))));
  SmallVector<Value> results(loop.getResults());
  SmallVector<Value> acc(results.begin(), results.begin() + mBlocks);
  foldAll(acc, results);
  for (int64_t mb = 0; mb < int64_t(rowScales.size()) / 2; ++mb)
    acc[mb] = scaleRows(kc, acc[mb], rowScales[2 * mb], rowScales[2 * mb + 1]);
  return acc;
}
