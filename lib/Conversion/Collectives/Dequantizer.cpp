//===- Dequantizer.cpp - A mixed-input consumer's dequantization ---------===//
//
// Implements Dequantizer.h: the packed A's conversions (i4 under a magic
// number, i8 by byte permutes, e4m3 by cvt or bit moves) and the stage's
// scale and zero-point rows.
//
//===----------------------------------------------------------------------===//

#include "Dequantizer.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

Dequantizer::Dequantizer(KernelContext &kc, Value consumerWg)
    : kc(kc), b(kc.b), weight(kc.desc.a),
      halves(pl::packedHalvesPerUnit(kc.desc.a)),
      groupsPerKTile(pl::getDequantGroupsPerKTile(kc.desc)) {
  const pl::Dequant &dq = *kc.desc.dequantA;
  bf16 = kc.desc.b == pl::DType::BF16;
  magic = bf16 ? 0x43004300 : 0x64006400;
  zeroPoints = dq.zero == pl::ZeroPoint::Group;
  rowScales = dq.group == 0;
  accScales = pl::scalesDequantAccumulator(kc.desc);
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

SmallVector<Value> Dequantizer::load(Value rows) {
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

Value Dequantizer::loadChunk(Value aBlock, int64_t half) {
  auto vecTy = VectorType::get({4}, kc.i32Ty);
  Value ptr = kc.gep(aBlock, kc.add(kc.mul(kc.tidInWg, kc.i32(16)),
                                    kc.i32(half * kPackedHalfBytes)));
  return LLVM::LoadOp::create(b, vecTy, ptr, /*alignment=*/16);
}

Dequantizer::RowPairs Dequantizer::pairs(int64_t mb, int64_t j,
                                         ValueRange words) {
  auto pair = [&](Value half) {
    return arith::OrIOp::create(b, half,
                                arith::ShLIOp::create(b, half, kc.i32(16)));
  };
  RowPairs p;
  int64_t rows = rowBytes.size();
  int64_t scales = j * rows, zeros = (groupsPerKTile + j) * rows;
  // i4 into f16: the low nibbles (registers 0, 2: row r) subtract
  // 1024 + z, the high ones (registers 1, 3: row r + 8) add -(64 + z).
  const bool f16Nibbles = weight == pl::DType::I4 && !bf16;
  for (int64_t h = 0; h < 2; ++h) {
    if (!accScales)
      p.scale[h] = pair(words[scales + 2 * mb + h]);
    if (f16Nibbles && h == 1)
      p.zero[h] = zeroPoints ? halfFma(pair(words[zeros + 2 * mb + h]),
                                       kc.i32(0xBC00BC00), // -1
                                       kc.i32(0xD400D400)) // -64
                             : kc.i32(0xD480D480);         // bias8: -72
    else if (zeroPoints)
      p.zero[h] = halfOp("add", pair(words[zeros + 2 * mb + h]), kc.i32(magic));
    else if (weight == pl::DType::I4)
      p.zero[h] = kc.i32(magic | 0x00080008); // bias8: M + 8
    else
      p.zero[h] = kc.i32(0x64806480); // i8 into f16: 1024 + 128
  }
  return p;
}

SmallVector<Value> Dequantizer::stepFragments(ValueRange chunks, int64_t ks,
                                              const RowPairs &p) {
  auto word = [&](int64_t chunk, int64_t w) -> Value {
    return LLVM::ExtractElementOp::create(b, chunks[chunk], kc.i32(w));
  };
  SmallVector<Value> regs;
  if (weight == pl::DType::I4) {
    Value q = word(ks / 4, ks % 4);
    if (!bf16) {
      // f16's 10 mantissa bits hold a nibble in bits 4-7 too: 1024 + 16 q,
      // times 1/16 plus -(64 + z) is q - z by one exact fma. One shift per
      // word instead of three.
      Value q8 = arith::ShRUIOp::create(b, q, kc.i32(8));
      for (int64_t j = 0; j < 4; ++j) {
        Value x = underMagic(j < 2 ? q : q8, j % 2 ? 0x00f000f0 : 0x000f000f);
        Value y = j % 2 ? halfFma(x, kc.i32(0x2C002C00), p.zero[1]) // 1/16
                        : halfOp("sub", x, p.zero[0]);
        regs.push_back(scaled(y, p.scale[j & 1]));
      }
      return regs;
    }
    // bf16's 7 hold it only in bits 0-3: each pair shifted there.
    for (int64_t j = 0; j < 4; ++j) {
      Value x = j ? arith::ShRUIOp::create(b, q, kc.i32(4 * j)) : q;
      Value y = halfOp("sub", underMagic(x, 0x000f000f), p.zero[j & 1]);
      regs.push_back(scaled(y, p.scale[j & 1]));
    }
    return regs;
  }
  Value words[2] = {word(ks / 2, 2 * (ks % 2)), word(ks / 2, 2 * (ks % 2) + 1)};
  // i8 into f16: q + 128 (the sign bit flipped) is what the magic takes.
  if (weight == pl::DType::I8 && !bf16)
    for (Value &w : words)
      w = arith::XOrIOp::create(b, w, kc.i32(0x80808080));
  for (int64_t j = 0; j < 4; ++j) {
    Value w = words[j / 2];
    // The register's two bytes: byte0 (low half) and byte0 + 1.
    int64_t byte0 = 2 * (j % 2);
    Value pairValue =
        weight == pl::DType::I8
            ? (bf16 ? i8PairBf16(w, byte0)
                    : halfOp("sub",
                             prmt(w, 0x64646464,
                                  0x4040 | (byte0 + 1) << 8 | byte0),
                             p.zero[j & 1]))
            : e4m3Pair(w, byte0);
    regs.push_back(scaled(pairValue, p.scale[j & 1]));
  }
  return regs;
}

SmallVector<Value> Dequantizer::groupScales(int64_t j, ValueRange words) {
  SmallVector<Value> scales;
  int64_t rows = rowBytes.size();
  for (int64_t i = 0; i < rows; ++i)
    scales.push_back(toF32(words[j * rows + i]));
  return scales;
}

Value Dequantizer::toF32(Value word) {
  if (kc.desc.dequantA->scale == pl::DType::BF16) {
    Value wide = arith::ShLIOp::create(b, word, kc.i32(16));
    return arith::BitcastOp::create(b, kc.f32Ty, wide);
  }
  Value bits = arith::TruncIOp::create(b, b.getI16Type(), word);
  Value half = arith::BitcastOp::create(b, b.getF16Type(), bits);
  return arith::ExtFOp::create(b, kc.f32Ty, half);
}

Value Dequantizer::i8PairBf16(Value u, int64_t byte0) {
  // Each byte in the low byte of its half (the high one zero: prmt with
  // 0, whose register is RZ, and the selector as the immediate; with
  // 0x43434343 ptxas took that as the immediate and moved the selector into
  // a register before every prmt), then under 0x43: its low 7 bits (128 +
  // low7) minus its sign bit (0x4300: 128, or 0x4380: 256) is q.
  Value x = prmt(u, 0, 0x4040 | (byte0 + 1) << 8 | byte0);
  Value low = underMagic(x, 0x007f007f);
  Value sign = underMagic(x, 0x00800080);
  return halfOp("sub", low, sign);
}

Value Dequantizer::e4m3Pair(Value w, int64_t byte0) {
  if (!bf16)
    return asmOp(std::string("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $1; "
                             "cvt.rn.f16x2.e4m3x2 $0, ") +
                     (byte0 ? "hi" : "lo") + "; }",
                 {w}, "=r,r", /*sideEffects=*/accScales);
  // Bytes (0, v0, sign(v0) x 8, v1) (prmt's selector 8 + i replicates
  // byte i's sign bit), shifted right by 4 with the sign: each half's sign
  // bit in bit 15 and its 7 other bits in bits 4-10, masked (0x87f0).
  Value x = prmt(w, 0,
                 (byte0 + 1) << 12 | (8 | byte0) << 8 | byte0 << 4 | 4);
  Value shifted = arith::ShRSIOp::create(b, x, kc.i32(4));
  Value bits = arith::AndIOp::create(b, shifted, kc.i32(0x87f087f0));
  return halfOp("mul", bits, kc.i32(0x7B807B80)); // 2^120 in bf16
}

Value Dequantizer::underMagic(Value x, int64_t mask) {
  return asmOp("lop3.b32 $0, $1, 0x" + llvm::utohexstr(mask, true, 8) + ", " +
                   std::to_string(magic) + ", 0xea;",
               {x}, "=r,r", /*sideEffects=*/false);
}

Value Dequantizer::asmOp(const std::string &text, ValueRange operands,
                         StringRef constraints, bool sideEffects) {
  return LLVM::InlineAsmOp::create(
             b, kc.i32Ty, operands, text, constraints, sideEffects,
             /*is_align_stack=*/false, LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}
