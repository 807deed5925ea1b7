//===- Dequantizer.h - A mixed-input consumer's dequantization --*- C++ -*-===//
//
// One consumer thread's view of a pre-packed quantized A (MixedInput.cpp's
// mainloop; docs/mixed-input.md): its stage's scale and zero-point rows,
// its 16 bytes of each packed half unit, and the conversion of a k16
// step's fragment into the MMA's 16-bit type in registers.
//
// Dequantization, per register, into the pair w = round(v * s) (or
// (v - z) * s) of the MMA type, rounded once (mul.rn .bf16x2 / .f16x2), or
// where the scales multiply f32 accumulators (MixedInput.cpp) v (or
// v - z) itself, exact:
// - i4: x = ((q >> 4j) & 0x000f000f) | magic (one lop3) is the pair
//   (M + q0, M + q1) (magic 0x4300: bf16 128 + q; 0x6400: f16 1024 + q),
//   y = x - zz with zz = M + z from dequant_a (exact: small integers),
//   w = y * s.
// - i8 into f16: the bytes with their sign bit flipped (q + 128) under
//   f16's magic 0x64 by one prmt, minus 1024 + 128, times s. bf16's 7
//   mantissa bits cannot hold q + 128; into bf16 each byte goes into the
//   low byte of its half (one prmt), under 0x43004300: masked to its low
//   7 bits it is 128 + (q & 127), to its sign bit 128 + 128 (q < 0) (bit
//   7 is bf16's lowest exponent bit), and their difference is q, exact:
//   two lop3 and one sub, no xor. Times s.
// - f8e4m3 into f16: cvt.rn.f16x2.e4m3x2. Into bf16: sign and the 7 bits
//   of exponent and mantissa shifted into bf16's places are v * 2^-120
//   (subnormals included: bf16 has their exponent range), times 2^120
//   (exact), times s.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_CONVERSION_COLLECTIVES_DEQUANTIZER_H
#define WSGEMM_LIB_CONVERSION_COLLECTIVES_DEQUANTIZER_H

#include "KernelContext.h"

namespace mlir::wsgemm::collectives {

/// One consumer thread's dequantization state for its warpgroup's rows.
class Dequantizer {
public:
  /// Bytes of a half of a pre-packed unit (KernelLayout.h): 16 per thread.
  static constexpr int64_t kPackedHalfBytes = 2048;

  Dequantizer(KernelContext &kc, Value consumerWg);

  /// Bytes of one pre-packed unit (64 rows x 64 K).
  int64_t unitBytes() const { return halves * kPackedHalfBytes; }

  /// The scales (then, with zero points, the zero points) of the stage
  /// whose dequantization rows start at `rows`, as i32 holding 16 bits:
  /// per group j of the k-tile (copyDequantRows) and 64-row block mb, rows
  /// r (2 mb) and r + 8 (2 mb + 1).
  SmallVector<Value> load(Value rows);

  /// The k-tile's group that k16 step `ks` falls in.
  int64_t groupOfStep(int64_t ks) const {
    return ks * 16 * groupsPerKTile / kc.layout.tileK;
  }

  /// This thread's 16 bytes of half `half` of 64-row block `aBlock` (the
  /// block's first unit in the A stage; tile K / 64 units of one or two
  /// halves): one ld.shared.v4.
  Value loadChunk(Value aBlock, int64_t half);
  /// The half (loadChunk) that k16 step `ks` of the k-tile reads.
  int64_t chunkOfStep(int64_t ks) const { return ks * halves / 4; }

  /// Both halves of a register are one row: (s, s) and (zz, zz) of rows
  /// r and r + 8 of 64-row block `mb`, from the `words` of load(). zz is
  /// what the i4 and i8-into-f16 conversions subtract; i4 into f16 takes
  /// the high nibbles' rows (r + 8) as -(64 + z) instead (stepFragments).
  struct RowPairs {
    Value scale[2], zero[2];
  };
  RowPairs pairs(int64_t mb, int64_t j, ValueRange words);

  /// The 4 fragment registers of k16 step `ks` of the k-tile from the
  /// block's halves (loadChunk, indexed by half; chunkOfStep(ks) loaded):
  /// i4 word ks % 4 of chunk ks / 4; 8-bit words 2 (ks % 2) and
  /// 2 (ks % 2) + 1 of chunk ks / 2.
  SmallVector<Value> stepFragments(ValueRange chunks, int64_t ks,
                                   const RowPairs &p);

  /// One scale per row (group 0) is not applied here but to the f32
  /// accumulator after the mainloop: it is the same for the row's whole K,
  /// so s * sum(q * b), with exact products accumulated in f32 as any
  /// GEMM's: no rounding of the weight to the MMA type, and one multiply
  /// per accumulator instead of one per register of every k16 step.
  bool scalesRows() const { return rowScales; }

  /// Group scales on the accumulator (planning::scalesDequantAccumulator):
  /// each of the k-tile's groups (one, or two of 128 in a k-tile of 256)
  /// accumulates (v - z) * b into a partial, folded into the total with
  /// its scale once per k-tile.
  bool scalesGroups() const { return accScales && !rowScales; }

  /// Group `j`'s f32 scales of this thread's rows (r and r + 8 of each
  /// 64-row block, in that order) from the `words` of load().
  SmallVector<Value> groupScales(int64_t j, ValueRange words);

  /// Row `mb * 64 + h * 8` of this thread's in its tile (rows r and r + 8
  /// of each 64-row block: wgmma's accumulator layout).
  Value rowInTile(int64_t mb, int64_t h) const {
    return kc.add(row0, kc.i32(mb * 64 + h * 8));
  }

private:
  /// The 16-bit scale in the low half of `word` as an f32 (exact).
  Value toF32(Value word);

  /// prmt.b32 (byte permute) of `x` and the constant `y` by `selector`:
  /// nibble i picks result byte i from x's bytes 0-3 and y's 4-7.
  Value prmt(Value x, int64_t y, int64_t selector) {
    return asmOp("prmt.b32 $0, $1, $2, " + std::to_string(selector) + ";",
                 {x, kc.i32(y)}, "=r,r,r", /*sideEffects=*/false);
  }

  /// (x & mask) | magic (the MMA type's magic number) as one lop3: written
  /// as and + or, the two immediates made ptxas emit two LOP3s (one
  /// immediate each).
  Value underMagic(Value x, int64_t mask);

  /// The signed bytes `byte0`, `byte0 + 1` of `u` as a bf16 pair q0, q1
  /// (the file comment's i8 into bf16).
  Value i8PairBf16(Value u, int64_t byte0);

  /// The e4m3 bytes `byte0`, `byte0 + 1` of `w` as a pair of the MMA type.
  /// f16: one cvt. bf16: each byte in the high byte of its half, the low
  /// half's sign replicated above it (one prmt), an arithmetic shift right
  /// by 4 and one mask keep each sign and put the 7 other bits under
  /// bf16's exponent and mantissa: v * 2^-120, times 2^120 (exact).
  Value e4m3Pair(Value w, int64_t byte0);

  /// `op`.rn on two packed 16-bit values (i32 registers). Volatile, so
  /// that it stays after the wgmma.wait_group that frees the fragment
  /// registers it may write (emitMixedInputMma).
  Value halfOp(StringRef op, Value x, Value y) {
    return asmOp((op + ".rn." + type + " $0, $1, $2;").str(), {x, y}, "=r,r,r",
                 /*sideEffects=*/true);
  }
  /// fma.rn on packed 16-bit values: x * y + z, volatile as halfOp.
  Value halfFma(Value x, Value y, Value z) {
    return asmOp(("fma.rn." + type + " $0, $1, $2, $3;").str(), {x, y, z},
                 "=r,r,r,r", /*sideEffects=*/true);
  }

  /// `w` times its row's scale, unless the scale multiplies the accumulator
  /// after the mainloop (one per row). Then the conversion's last write
  /// (prmt, cvt, sub or the e4m3 mul by 2^120) is the volatile one that
  /// stays after the wait_group.
  Value scaled(Value w, Value scale) {
    return accScales ? w : halfOp("mul", w, scale);
  }

  Value asmOp(const std::string &text, ValueRange operands,
              StringRef constraints, bool sideEffects);

  KernelContext &kc;
  ImplicitLocOpBuilder &b;
  planning::DType weight;
  int64_t halves;
  int64_t groupsPerKTile; // scale groups a k-tile spans
  bool bf16 = false;
  int64_t magic = 0;
  bool zeroPoints = false;
  bool rowScales = false; // group 0: scaleRows after the mainloop
  bool accScales = false; // scales multiply f32 accumulators (either kind)
  Value row0;             // this thread's first row in the tile
  StringRef type;
  SmallVector<Value> rowBytes; // per (mb, h): the row's byte offset, i32
};

} // namespace mlir::wsgemm::collectives

#endif // WSGEMM_LIB_CONVERSION_COLLECTIVES_DEQUANTIZER_H
