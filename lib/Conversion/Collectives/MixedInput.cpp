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
// Dequantization, per register, into the pair w = round(v * s) (or
// (v - z) * s) of the MMA type, rounded once (mul.rn .bf16x2 / .f16x2;
// with one scale per row, v itself, exact: below):
// - i4: x = ((q >> 4j) & 0x000f000f) | magic (one lop3) is the pair
//   (M + q0, M + q1) (magic 0x4300: bf16 128 + q; 0x6400: f16 1024 + q),
//   y = x - zz with zz = M + z from dequant_a (exact: small integers),
//   w = y * s.
// - i8 into f16: the bytes with their sign bit flipped (q + 128) under
//   f16's magic 0x64 by one prmt, minus 1024 + 128, times s. bf16's 7
//   mantissa bits cannot hold q + 128, so into bf16 each byte goes under
//   the f32 magic 0x4B000000 (2^23 + q + 128, one prmt), an exact f32
//   subtraction leaves q, whose high 16 bits are q in bf16 (one prmt
//   takes both), times s (CUTLASS's NumericArrayConverter does the same).
// - f8e4m3 into f16: cvt.rn.f16x2.e4m3x2. Into bf16: sign and the 7 bits
//   of exponent and mantissa shifted into bf16's places are v * 2^-120
//   (subnormals included: bf16 has their exponent range), times 2^120
//   (exact), times s.
// One scale per row (group 0: the 8-bit weights' per-channel scales) is
// not applied per element: each consumer thread reads its rows' scales
// from global memory before the mainloop and multiplies its f32
// accumulators by them after it (s * sum(q * b): exact products, no
// rounding of the weight), one multiply per accumulator instead of one mul.rn per
// register of every k16 step. Group scales (and zero points) of a stage's
// k-tile come with its tiles: the load warp's lanes copy the tile's rows
// of each group the
// k-tile spans (one, or tile K / group of 32 or 64, each k16 step taking
// its own group's)
// into the stage with 16-byte cp.async beside the TMA boxes, and each
// consumer thread reads its two rows per 64-row block with ld.shared
// after the stage's wait (a global load in the consumer, even k-tiles
// ahead, stalled the loop on its latency: the registers it lands in are
// loop-carried and moved at the back edge). The zero point z (an integer
// in B's type) becomes zz = M + z with one exact add, bias8's zz = M + 8 is
// a constant.
//
// The MMA is wgmma's register-A form, which NVVM's wgmma op does not
// model (it takes two descriptors), as inline PTX with the accumulators
// tied in and out; B is read from its 128B-swizzled stage by descriptor
// as in the SS mainloop. A wgmma reads its A registers until its group
// retires (rewriting them before is undefined, and ptxas does not guard
// it), so every k16 step is its own group with its own registers, and
// step s's registers are rewritten in the next k-tile after a wait_group
// that leaves the 3 younger groups in flight: the tensor cores multiply
// while the consumers dequantize (docs/mixed-input.md). The stage goes
// back by a predicated arrival: a branch around it, with groups in
// flight, made ptxas serialize every wgmma of the kernel (C7513).
//
//===----------------------------------------------------------------------===//

#include "Mainloop.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

/// Bytes of a half of a pre-packed unit (KernelLayout.h): 16 per thread.
static constexpr int64_t kHalfBytes = 2048;

namespace {
/// One consumer thread's dequantization state for its warpgroup's rows.
class Dequantizer {
public:
  Dequantizer(KernelContext &kc, Value consumerWg)
      : kc(kc), b(kc.b), weight(kc.desc.a),
        halves(pl::packedHalvesPerUnit(kc.desc.a)),
        groupsPerKTile(pl::getDequantGroupsPerKTile(kc.desc)) {
    const pl::Dequant &dq = *kc.desc.dequantA;
    bf16 = kc.desc.b == pl::DType::BF16;
    magic = bf16 ? 0x43004300 : 0x64006400;
    zeroPoints = dq.zero == pl::ZeroPoint::Group;
    rowScales = dq.group == 0;
    type = bf16 ? "bf16x2" : "f16x2";
    int64_t mBlocks = kc.layout.wgRows / 64;
    // Byte offsets of this thread's rows in a stage's dequantization rows.
    row0 = kc.add(
        kc.mul(consumerWg, kc.i32(kc.layout.wgRows)),
        kc.add(kc.mul(kc.warpInWg, kc.i32(16)), kc.divu(kc.lane, kc.i32(4))));
    for (int64_t mb = 0; mb < mBlocks; ++mb)
      for (int64_t h = 0; h < 2; ++h)
        rowBytes.push_back(
            kc.mul(kc.add(row0, kc.i32(mb * 64 + h * 8)), kc.i32(2)));
  }

  /// Bytes of one pre-packed unit (64 rows x 64 K).
  int64_t unitBytes() const { return halves * kHalfBytes; }

  /// The scales (then, with zero points, the zero points) of the stage
  /// whose dequantization rows start at `rows`, as i32 holding 16 bits:
  /// per group j of the k-tile (copyDequantRows) and 64-row block mb, rows
  /// r (2 mb) and r + 8 (2 mb + 1).
  SmallVector<Value> load(Value rows) {
    SmallVector<Value> words;
    if (rowScales)
      return words; // applied after the mainloop (scaleRows)
    for (int64_t array = 0; array < (zeroPoints ? 2 : 1); ++array)
      for (int64_t j = 0; j < groupsPerKTile; ++j)
        for (Value offset : rowBytes) {
          int64_t set = array * groupsPerKTile + j;
          Value ptr =
              kc.gep(rows, kc.add(offset, kc.i32(set * kc.layout.tileM * 2)));
          Value half = LLVM::LoadOp::create(b, b.getI16Type(), ptr,
                                            /*alignment=*/2);
          words.push_back(arith::ExtUIOp::create(b, kc.i32Ty, half));
        }
    return words;
  }

  /// The k-tile's group that k16 step `ks` falls in.
  int64_t groupOfStep(int64_t ks) const {
    return ks * 16 * groupsPerKTile / kc.layout.tileK;
  }

  /// This thread's 16 bytes of each half unit of 64-row block `aBlock`
  /// (the block's first unit in the A stage): one ld.shared.v4 per half,
  /// tile K / 64 units of one or two halves.
  SmallVector<Value> loadChunks(Value aBlock) {
    auto vecTy = VectorType::get({4}, kc.i32Ty);
    SmallVector<Value> chunks;
    for (int64_t half = 0; half < kc.layout.tileK / 64 * halves; ++half) {
      Value ptr = kc.gep(aBlock, kc.add(kc.mul(kc.tidInWg, kc.i32(16)),
                                        kc.i32(half * kHalfBytes)));
      chunks.push_back(LLVM::LoadOp::create(b, vecTy, ptr, /*alignment=*/16));
    }
    return chunks;
  }

  /// Both halves of a register are one row: (s, s) and (zz, zz) of rows
  /// r and r + 8 of 64-row block `mb`, from the `words` of load(). zz is
  /// what the i4 and i8-into-f16 conversions subtract.
  struct RowPairs {
    Value scale[2], zero[2];
  };
  RowPairs pairs(int64_t mb, int64_t j, ValueRange words) {
    auto pair = [&](Value half) {
      return arith::OrIOp::create(
          b, half, arith::ShLIOp::create(b, half, kc.i32(16)));
    };
    RowPairs p;
    int64_t rows = rowBytes.size();
    int64_t scales = j * rows, zeros = (groupsPerKTile + j) * rows;
    for (int64_t h = 0; h < 2; ++h) {
      if (!rowScales)
        p.scale[h] = pair(words[scales + 2 * mb + h]);
      if (zeroPoints)
        p.zero[h] =
            halfOp("add", pair(words[zeros + 2 * mb + h]), kc.i32(magic));
      else if (weight == pl::DType::I4)
        p.zero[h] = kc.i32(magic | 0x00080008); // bias8: M + 8
      else
        p.zero[h] = kc.i32(0x64806480); // i8 into f16: 1024 + 128
    }
    return p;
  }

  /// The 4 fragment registers of k16 step `ks` of the k-tile from the
  /// block's loadChunks(): i4 word ks % 4 of chunk ks / 4; 8-bit words
  /// 2 (ks % 2) and 2 (ks % 2) + 1 of chunk ks / 2.
  SmallVector<Value> stepFragments(ValueRange chunks, int64_t ks,
                                   const RowPairs &p) {
    auto word = [&](int64_t chunk, int64_t w) -> Value {
      return LLVM::ExtractElementOp::create(b, chunks[chunk], kc.i32(w));
    };
    SmallVector<Value> regs;
    if (weight == pl::DType::I4) {
      Value q = word(ks / 4, ks % 4);
      for (int64_t j = 0; j < 4; ++j) {
        Value x = j ? arith::ShRUIOp::create(b, q, kc.i32(4 * j)) : q;
        // (x & 0x000f000f) | magic as one lop3: written as and + or, the
        // two immediates made ptxas emit two LOP3s (one immediate each).
        x = asmOp("lop3.b32 $0, $1, 0x000f000f, " + std::to_string(magic) +
                      ", 0xea;",
                  {x}, "=r,r", /*sideEffects=*/false);
        Value y = halfOp("sub", x, p.zero[j & 1]);
        regs.push_back(scaled(y, p.scale[j & 1]));
      }
      return regs;
    }
    Value words[2] = {word(ks / 2, 2 * (ks % 2)),
                      word(ks / 2, 2 * (ks % 2) + 1)};
    // i8: q + 128 (the sign bit flipped) is what the magic numbers take.
    if (weight == pl::DType::I8)
      for (Value &w : words)
        w = arith::XOrIOp::create(b, w, kc.i32(0x80808080));
    for (int64_t j = 0; j < 4; ++j) {
      Value w = words[j / 2];
      // The register's two bytes: byte0 (low half) and byte0 + 1.
      int64_t byte0 = 2 * (j % 2);
      Value pairValue = weight == pl::DType::I8
                            ? (bf16 ? i8PairBf16(w, byte0)
                                    : halfOp("sub",
                                             prmt(w, 0x64646464,
                                                  0x4040 | (byte0 + 1) << 8 |
                                                      byte0),
                                             p.zero[j & 1]))
                            : e4m3Pair(w, byte0);
      regs.push_back(scaled(pairValue, p.scale[j & 1]));
    }
    return regs;
  }

  /// One scale per row (group 0) is not applied here but to the f32
  /// accumulator after the mainloop: it is the same for the row's whole K,
  /// so s * sum(q * b), with exact products accumulated in f32 as any
  /// GEMM's: no rounding of the weight to the MMA type, and one multiply
  /// per accumulator instead of one per register of every k16 step.
  bool scalesRows() const { return rowScales; }

  /// Row `mb * 64 + h * 8` of this thread's in its tile (rows r and r + 8
  /// of each 64-row block: wgmma's accumulator layout).
  Value rowInTile(int64_t mb, int64_t h) const {
    return kc.add(row0, kc.i32(mb * 64 + h * 8));
  }

private:
  /// prmt.b32 (byte permute) of `x` and the constant `y` by `selector`:
  /// nibble i picks result byte i from x's bytes 0-3 and y's 4-7.
  Value prmt(Value x, int64_t y, int64_t selector) {
    return asmOp("prmt.b32 $0, $1, $2, " + std::to_string(selector) + ";",
                 {x, kc.i32(y)}, "=r,r,r", /*sideEffects=*/false);
  }

  /// The signed bytes `byte0`, `byte0 + 1` of `u` (sign bits flipped:
  /// q + 128) as a bf16 pair q0, q1: 2^23 + q + 128 in f32 by a prmt
  /// under 0x4B000000, minus 2^23 + 128 (exact), whose high 16 bits are q
  /// in bf16 (|q| <= 128 has at most 8 significant bits).
  Value i8PairBf16(Value u, int64_t byte0) {
    Value f[2];
    for (int64_t h = 0; h < 2; ++h) {
      Value bits = prmt(u, 0x4B000000, 0x7440 | (byte0 + h));
      Value x = arith::BitcastOp::create(b, kc.f32Ty, bits);
      Value q = arith::SubFOp::create(
          b, x, arith::ConstantOp::create(b, b.getF32FloatAttr(8388736.0f)));
      f[h] = arith::BitcastOp::create(b, kc.i32Ty, q);
    }
    // The register's last write when no scale follows: volatile (scaled).
    return asmOp("prmt.b32 $0, $1, $2, 0x7632;", {f[0], f[1]}, "=r,r,r",
                 /*sideEffects=*/rowScales);
  }

  /// The e4m3 bytes `byte0`, `byte0 + 1` of `w` as a pair of the MMA type.
  /// f16: one cvt. bf16: each byte in the high byte of its half (prmt),
  /// its sign kept and its 7 other bits shifted right by 4 under bf16's
  /// exponent and mantissa: v * 2^-120, times 2^120 (exact).
  Value e4m3Pair(Value w, int64_t byte0) {
    if (!bf16)
      return asmOp(std::string("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $1; "
                               "cvt.rn.f16x2.e4m3x2 $0, ") +
                       (byte0 ? "hi" : "lo") + "; }",
                   {w}, "=r,r", /*sideEffects=*/rowScales);
    Value x = prmt(w, 0, (byte0 + 1) << 12 | 0x400 | byte0 << 4 | 4);
    Value sign = arith::AndIOp::create(b, x, kc.i32(0x80008000));
    Value rest = arith::AndIOp::create(
        b, arith::ShRUIOp::create(b, x, kc.i32(4)), kc.i32(0x07f007f0));
    Value bits = arith::OrIOp::create(b, sign, rest);
    return halfOp("mul", bits, kc.i32(0x7B807B80)); // 2^120 in bf16
  }

  /// `op`.rn on two packed 16-bit values (i32 registers). Volatile, so
  /// that it stays after the wgmma.wait_group that frees the fragment
  /// registers it may write (emitMixedInputMma).
  Value halfOp(StringRef op, Value x, Value y) {
    return asmOp((op + ".rn." + type + " $0, $1, $2;").str(), {x, y},
                 "=r,r,r", /*sideEffects=*/true);
  }

  /// `w` times its row's scale, unless the scale multiplies the accumulator
  /// after the mainloop (one per row). Then the conversion's last write
  /// (prmt, cvt, sub or the e4m3 mul by 2^120) is the volatile one that
  /// stays after the wait_group.
  Value scaled(Value w, Value scale) {
    return rowScales ? w : halfOp("mul", w, scale);
  }

  Value asmOp(const std::string &text, ValueRange operands,
              StringRef constraints, bool sideEffects) {
    return LLVM::InlineAsmOp::create(
               b, kc.i32Ty, operands, text, constraints, sideEffects,
               /*is_align_stack=*/false, LLVM::TailCallKind::None,
               LLVM::AsmDialectAttr(),
               /*operand_attrs=*/ArrayAttr())
        .getResult(0);
  }

  KernelContext &kc;
  ImplicitLocOpBuilder &b;
  pl::DType weight;
  int64_t halves;
  int64_t groupsPerKTile; // scale groups a k-tile spans
  bool bf16 = false;
  int64_t magic = 0;
  bool zeroPoints = false;
  bool rowScales = false; // group 0: scaleRows after the mainloop
  Value row0;             // this thread's first row in the tile
  StringRef type;
  SmallVector<Value> rowBytes; // per (mb, h): the row's byte offset, i32
};
} // namespace

/// wgmma.mma_async m64nNk16 with A from the 4 registers `a` and B from
/// descriptor `descB` (K-major), accumulating into `acc`.
static Value registerAWgmma(KernelContext &kc, Value acc, ValueRange a,
                            Value descB) {
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
  // scale-d 1 (accumulate), scale-a/b 1, B not transposed (K-major).
  os << "}, {$" << n << ", $" << n + 1 << ", $" << n + 2 << ", $" << n + 3
     << "}, $" << n + 4 << ", 1, 1, 1, 0;";
  cs << "r,r,r,r,l";
  SmallVector<Value> operands(a.begin(), a.end());
  operands.push_back(descB);
  for (int64_t i = 0; i < n; ++i) {
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
static SmallVector<Value> loadRowScales(KernelContext &kc,
                                        const WorkTile &tile,
                                        const Dequantizer &dq,
                                        int64_t mBlocks) {
  ImplicitLocOpBuilder &b = kc.b;
  Type i64Ty = b.getI64Type();
  Value batch = kc.desc.batched ? tile.batch : kc.i32(0);
  Value first = arith::MulIOp::create(
      b, arith::ExtUIOp::create(b, i64Ty, batch),
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
  Value zero = LLVM::ZeroOp::create(b, getAccumulatorType(kc));
  Dequantizer dq(kc, consumerWg);
  SmallVector<Value> init(mBlocks, zero);
  SmallVector<Value> rowScales;
  if (dq.scalesRows())
    rowScales = loadRowScales(kc, tile, dq, mBlocks);

  Value start = PipelineStateInitOp::create(
      b, PipelineStateType::get(b.getContext(), layout.stages),
      PipelineAgent::consumer);
  auto loop = scf::ForOp::create(b, kc.i32(0), tile.kTiles, kc.i32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value g = kc.add(kBase, kt);
    SmallVector<Value> acc(loop.getRegionIterArgs());
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
    Value firstBlock = kc.mul(consumerWg, kc.i32(mBlocks));
    SmallVector<SmallVector<Value>> chunks;
    for (int64_t mb = 0; mb < mBlocks; ++mb) {
      Value block = kc.add(firstBlock, kc.i32(mb));
      chunks.push_back(dq.loadChunks(
          kc.gep(aStage,
                 kc.mul(block, kc.i32(unitsPerTile * dq.unitBytes())))));
    }
    // Per group of the k-tile, per 64-row block.
    SmallVector<SmallVector<Dequantizer::RowPairs>> rowPairs(
        pl::getDequantGroupsPerKTile(kc.desc));
    for (auto [j, perBlock] : llvm::enumerate(rowPairs))
      for (int64_t mb = 0; mb < mBlocks; ++mb)
        perBlock.push_back(dq.pairs(mb, j, words));
    // One wgmma group per k16 step. Step ks's registers are rewritten only
    // once the previous k-tile's step ks retired (PTX: rewriting a wgmma's
    // A registers before its wait_group is undefined): the 3 groups after
    // it may stay in flight, so the tensor cores multiply steps while the
    // next ones are dequantized. After the last step's wait the previous
    // k-tile has retired entirely and its stage goes back.
    int64_t steps = layout.tileK / 16;
    for (int64_t ks = 0; ks < steps; ++ks) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, steps - 1);
      if (ks == steps - 1) {
        Value hasPrev = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt,
                                              kt, kc.i32(0));
        release(kc, hasPrev, kc.stateAt(start, kc.sub(g, kc.i32(1))));
      }
      SmallVector<SmallVector<Value>> regs;
      for (int64_t mb = 0; mb < mBlocks; ++mb)
        regs.push_back(dq.stepFragments(chunks[mb], ks,
                                        rowPairs[dq.groupOfStep(ks)][mb]));
      NVVM::WgmmaFenceAlignedOp::create(b);
      // A K-major B advances 32 bytes (2 descriptor units) per k16 step
      // within a 64-K block of tile N x 128 bytes.
      Value dB = arith::AddIOp::create(
          b, descB, kc.i64((ks % 4) * 2 + (ks / 4) * layout.tileN * 128 / 16));
      for (int64_t mb = 0; mb < mBlocks; ++mb)
        acc[mb] = registerAWgmma(kc, acc[mb], regs[mb], dB);
      NVVM::WgmmaGroupSyncAlignedOp::create(b);
    }
    scf::YieldOp::create(b, acc);
  }
  if (afterIssue)
    afterIssue();
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  Value hadAny = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt,
                                       tile.kTiles, kc.i32(0));
  release(kc, hadAny,
          kc.stateAt(start, kc.sub(kc.add(kBase, tile.kTiles), kc.i32(1))));
  SmallVector<Value> acc(loop.getResults());
  for (int64_t mb = 0; mb < int64_t(rowScales.size()) / 2; ++mb)
    acc[mb] = scaleRows(kc, acc[mb], rowScales[2 * mb], rowScales[2 * mb + 1]);
  return acc;
}
