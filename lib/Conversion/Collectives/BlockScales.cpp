//===- BlockScales.cpp - The mainloop's fp8 block scales ------------------===//
//
// Implements BlockScales.h. Each thread holds, per 64-row block of its
// warpgroup, the accumulator elements of two rows (16 * warp + lane / 4
// and 8 below: Epilogue.cpp's fragment map), and in element i of a 64 x N
// accumulator the column 8 * (i / 4) + ..., so element i lies in column
// block (8 * (i / 4)) / 128 of the tile. A scale_a row and a scale_b
// column block each come from one f32 load; indices are 64-bit (M x
// ceil(K/128) x L may pass 2^31 elements).
//
//===----------------------------------------------------------------------===//

#include "BlockScales.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;

/// min(x, limit - 1) of i32 values (limit >= 1).
static Value clampBelow(KernelContext &kc, Value x, Value limit) {
  Value last = kc.sub(limit, kc.i32(1));
  return kc.select(kc.ult(x, limit), x, last);
}

static Value toI64(KernelContext &kc, Value x) {
  return arith::ExtUIOp::create(kc.b, kc.b.getI64Type(), x);
}

BlockScales::BlockScales(KernelContext &kc, const WorkTile &tile,
                         Value consumerWg)
    : kc(kc) {
  const planning::KernelLayout &layout = kc.layout;
  mBlocks = layout.wgRows / 64;
  nBlocks = std::max<int64_t>(1, layout.tileN / 128);
  auto ceil128 = [&](Value x) {
    return kc.divu(kc.add(x, kc.i32(127)), kc.i32(128));
  };
  kBlocks = ceil128(kc.sizeK);
  Value nScaleBlocks = ceil128(kc.sizeN);
  Value batch = kc.desc.batched ? tile.batch : kc.i32(0);
  // A: element (batch * KB + kb) * M + row.
  Value aBatch = arith::MulIOp::create(
      kc.b, toI64(kc, kc.mul(batch, kBlocks)), toI64(kc, kc.sizeM));
  Value row0 = kc.add(
      kc.add(tile.m0, kc.mul(consumerWg, kc.i32(layout.wgRows))),
      kc.add(kc.mul(kc.warpInWg, kc.i32(16)), kc.divu(kc.lane, kc.i32(4))));
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t h = 0; h < 2; ++h) {
      Value row = clampBelow(kc, kc.add(row0, kc.i32(mb * 64 + h * 8)),
                             kc.sizeM);
      aRowBase.push_back(
          arith::AddIOp::create(kc.b, aBatch, toI64(kc, row)));
    }
  // B: element (batch * NB + nb) * KB + kb.
  Value nb0 = kc.divu(tile.n0, kc.i32(128));
  for (int64_t j = 0; j < nBlocks; ++j) {
    Value nb = clampBelow(kc, kc.add(nb0, kc.i32(j)), nScaleBlocks);
    Value block = kc.add(kc.mul(batch, nScaleBlocks), nb);
    bBlockBase.push_back(arith::MulIOp::create(
        kc.b, toI64(kc, block), toI64(kc, kBlocks)));
  }
}

/// The f32 at element `index` (i64) of the global tensor `base`; read-only
/// for the kernel's lifetime, so the load may take the non-coherent path
/// (ld.global.nc).
static Value loadF32(KernelContext &kc, Value base, Value index) {
  Value ptr = LLVM::GEPOp::create(kc.b, kc.globalPtrTy, kc.f32Ty, base,
                                  ValueRange{index});
  return LLVM::LoadOp::create(kc.b, kc.f32Ty, ptr, /*alignment=*/4,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/true);
}

SmallVector<Value> BlockScales::load(Value kBlock) {
  Value kb = toI64(kc, clampBelow(kc, kBlock, kBlocks));
  Value aBase = kc.param("block_scale_a"), bBase = kc.param("block_scale_b");
  Value aStep = arith::MulIOp::create(kc.b, kb, toI64(kc, kc.sizeM));
  SmallVector<Value> scales;
  for (Value rowBase : aRowBase)
    scales.push_back(
        loadF32(kc, aBase, arith::AddIOp::create(kc.b, rowBase, aStep)));
  for (Value blockBase : bBlockBase)
    scales.push_back(
        loadF32(kc, bBase, arith::AddIOp::create(kc.b, blockBase, kb)));
  return scales;
}

Value BlockScales::promote(Value total, Value partial, int64_t mb,
                           ValueRange scales) {
  ImplicitLocOpBuilder &b = kc.b;
  // One product per (row, column block): scale_a * scale_b, rounded once.
  SmallVector<Value> factor;
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t j = 0; j < nBlocks; ++j)
      factor.push_back(arith::MulFOp::create(b, scales[mb * 2 + h],
                                             scales[2 * mBlocks + j]));
  int64_t tileN = kc.layout.tileN;
  for (int64_t i = 0; i < tileN / 2; ++i) {
    int64_t h = (i % 4) / 2;
    int64_t j = tileN > 128 ? (8 * (i / 4)) / 128 : 0;
    Value sum = LLVM::FMAOp::create(
        b, LLVM::ExtractValueOp::create(b, partial, i),
        factor[h * nBlocks + j], LLVM::ExtractValueOp::create(b, total, i));
    total = LLVM::InsertValueOp::create(b, total, sum, i);
  }
  return total;
}
