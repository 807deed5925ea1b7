//===- EpilogueSharedMemory.cpp - Subtiles between registers and SMEM ----===//
//
// The epilogue collective's shared-memory subtiles: the TMA swizzle of a
// subtile's byte offsets, single elements in and out (widened to f32 or
// narrowed to their type), the thread's elements of a 16-bit C or aux
// source by ldmatrix, and D from registers to its buffer (stmatrix for
// 16-bit D, packed st.shared for 8-bit and f32, and for 16-bit on sm_8x).
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"

#include "ws-gemm/Conversion/EvtVisit.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

/// Byte `offset` of a 64 x epiN subtile of `type` as TMA lays it out with
/// the subtile's swizzle: the 16-byte chunk index (bits 4..) XOR the row's
/// position in the swizzle pattern (bits 7..), over 1, 2 or 3 bits for 32B,
/// 64B and 128B. TMA applies the pattern to shared-memory addresses; it
/// matches buffer offsets because every buffer starts at a multiple of 1024
/// bytes from the aligned base (KernelLayout.h).
Value Epilogue::swizzleOffset(Value offset, pl::DType type) {
  int64_t swizzle = kc.layout.subtileSwizzle(type);
  if (!swizzle)
    return offset;
  int64_t bits = llvm::Log2_64(swizzle / 16);
  Value rowPhase = kc.andi(arith::ShRUIOp::create(kc.b, offset, kc.i32(7)),
                           kc.i32((1 << bits) - 1));
  return arith::XOrIOp::create(
      kc.b, offset, arith::ShLIOp::create(kc.b, rowPhase, kc.i32(4)));
}

/// An element of `type` loaded from `ptr` and widened to f32 (exactly: an
/// 8-bit float travels as its i8 bits and widens through f16).
Value Epilogue::loadWidened(Value ptr, pl::DType type) {
  if (byteWidth(type) == 1)
    return epi::extendF8ToF32(kc.b, kc.b.getLoc(),
                              LLVM::LoadOp::create(kc.b, kc.b.getI8Type(), ptr),
                              kc.typeOf(type));
  Value v = LLVM::LoadOp::create(kc.b, kc.typeOf(type), ptr);
  if (type != pl::DType::F32)
    v = arith::ExtFOp::create(kc.b, kc.f32Ty, v);
  return v;
}

/// `v` (f32) as an element of `type` in memory: f16/bf16 as their type
/// (rn), an 8-bit float as its i8 bits (cvt.rn.satfinite), f32 as is.
Value Epilogue::narrowForMemory(Value v, pl::DType type) {
  ImplicitLocOpBuilder &b = kc.b;
  if (byteWidth(type) != 1)
    return epi::convertFloat(b, b.getLoc(), v, kc.typeOf(type),
                             epi::RoundingMode::rn);
  Value pair = epi::convertF32PairToF8(b, b.getLoc(), v, v, kc.typeOf(type));
  return arith::TruncIOp::create(b, b.getI8Type(), pair);
}

/// Element `elemOffset` of a subtile buffer, widened to f32.
Value Epilogue::loadShared(Value buf, pl::DType type, Value elemOffset) {
  Value ptr = kc.gep(
      buf, swizzleOffset(kc.mul(elemOffset, kc.i32(byteWidth(type))), type));
  return loadWidened(ptr, type);
}

bool Epilogue::readsPairs(pl::DType type) const {
  return byteWidth(type) == 2 && (kc.layout.epiN / 8) % 2 == 0;
}

/// Lane l addresses row l % 8 of matrix l / 8 = (row half h, chunk c + k),
/// the order emitR2S's stmatrix writes, so result register k holds this
/// thread's columns e = 0, 1 of row half k % 2 in chunk c + k / 2.
SmallVector<Value> Epilogue::loadPairs(Value buf, pl::DType type) {
  ImplicitLocOpBuilder &b = kc.b;
  int64_t epiN = kc.layout.epiN, chunks = epiN / 8;
  Value laneRow = kc.remu(kc.lane, kc.i32(8));
  Value matrix = kc.divu(kc.lane, kc.i32(8));
  Value mh = kc.remu(matrix, kc.i32(2));
  Value mc = kc.divu(matrix, kc.i32(2));
  Value row = kc.add(
      kc.add(kc.mul(kc.warpInWg, kc.i32(16)), kc.mul(mh, kc.i32(8))), laneRow);
  auto quad = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                               SmallVector<Type>(4, kc.i32Ty));
  SmallVector<Value> pairs(chunks * 2);
  for (int64_t c = 0; c < chunks; c += 2) {
    Value col = kc.mul(kc.add(mc, kc.i32(c)), kc.i32(8));
    Value off = swizzleOffset(
        kc.mul(kc.add(kc.mul(row, kc.i32(epiN)), col), kc.i32(2)), type);
    Value regs = NVVM::LdMatrixOp::create(
        b, quad, kc.gep(buf, off), 4, NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    for (int64_t k = 0; k < 4; ++k)
      pairs[(c + k / 2) * 2 + k % 2] = LLVM::ExtractValueOp::create(b, regs, k);
  }
  return pairs;
}

Value Epilogue::widenFromPair(Value pair, pl::DType type, int64_t e) {
  ImplicitLocOpBuilder &b = kc.b;
  Type elemTy = kc.typeOf(type);
  Value halves = LLVM::BitcastOp::create(b, VectorType::get({2}, elemTy), pair);
  Value v = LLVM::ExtractElementOp::create(b, halves, kc.i32(e));
  return arith::ExtFOp::create(b, kc.f32Ty, v);
}

void Epilogue::storeShared(Value buf, pl::DType type, Value elemOffset,
                           Value v) {
  Value ptr = kc.gep(
      buf, swizzleOffset(kc.mul(elemOffset, kc.i32(byteWidth(type))), type));
  LLVM::StoreOp::create(kc.b, v, ptr);
}

/// Registers to shared memory for D: stmatrix for 16-bit D (each x4 writes
/// two 8-column chunks of both row halves), st.shared.v2 for f32 D, and for
/// 8-bit D each thread's column pair packed by cvt.rn.satfinite into one
/// st.shared.b16.
void Epilogue::emitR2S(Value dBuf, ArrayRef<Value> dVals) {
  ImplicitLocOpBuilder &b = kc.b;
  pl::DType dType = kc.desc.d;
  int64_t epiN = kc.layout.epiN, chunks = epiN / 8;
  epi::RoundingMode rounding = epi::RoundingMode::rn;
  for (Operation &inner : kc.op.getEpilogue().front())
    if (auto store = dyn_cast<epi::StoreOp>(inner))
      rounding = store.getRounding();
  if (byteWidth(dType) == 2 && kc.isSm8x()) {
    // sm_8x has no stmatrix: each thread stores its pairs (columns e = 0,
    // 1 of row half h in chunk c) with st.shared.b32.
    for (int64_t c = 0; c < chunks; ++c) {
      for (int64_t h = 0; h < 2; ++h) {
        Value pair = epi::convertF32Pair(b, b.getLoc(), dVals[c * 4 + 2 * h],
                                         dVals[c * 4 + 2 * h + 1],
                                         kc.typeOf(dType), rounding);
        Value row = kc.add(rowInSub, kc.i32(8 * h));
        Value col = kc.add(colInChunk, kc.i32(8 * c));
        Value off = swizzleOffset(
            kc.mul(kc.add(kc.mul(row, kc.i32(epiN)), col), kc.i32(2)), dType);
        LLVM::StoreOp::create(b, LLVM::BitcastOp::create(b, kc.i32Ty, pair),
                              kc.gep(dBuf, off), /*alignment=*/4);
      }
    }
    return;
  }
  if (byteWidth(dType) == 2) {
    // stmatrix.x4: matrices (h=0, c), (h=1, c), (h=0, c+1), (h=1, c+1).
    Value laneRow = kc.remu(kc.lane, kc.i32(8));
    Value matrix = kc.divu(kc.lane, kc.i32(8));
    Value mh = kc.remu(matrix, kc.i32(2));
    Value mc = kc.divu(matrix, kc.i32(2));
    for (int64_t c = 0; c < chunks; c += 2) {
      SmallVector<Value> regs;
      for (int64_t k = 0; k < 4; ++k) {
        int64_t cc = c + k / 2, h = k % 2;
        Value pair = epi::convertF32Pair(b, b.getLoc(), dVals[cc * 4 + 2 * h],
                                         dVals[cc * 4 + 2 * h + 1],
                                         kc.typeOf(dType), rounding);
        regs.push_back(LLVM::BitcastOp::create(b, kc.i32Ty, pair));
      }
      Value row =
          kc.add(kc.add(kc.mul(kc.warpInWg, kc.i32(16)), kc.mul(mh, kc.i32(8))),
                 laneRow);
      Value col = kc.mul(kc.add(mc, kc.i32(c)), kc.i32(8));
      Value off = swizzleOffset(
          kc.mul(kc.add(kc.mul(row, kc.i32(epiN)), col), kc.i32(2)), dType);
      NVVM::StMatrixOp::create(
          b, kc.gep(dBuf, off), regs, NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
          NVVM::LdStMatrixEltType::B16);
    }
    return;
  }
  if (byteWidth(dType) == 1) {
    for (int64_t c = 0; c < chunks; ++c) {
      for (int64_t h = 0; h < 2; ++h) {
        Value pair =
            epi::convertF32PairToF8(b, b.getLoc(), dVals[c * 4 + 2 * h],
                                    dVals[c * 4 + 2 * h + 1], kc.typeOf(dType));
        Value row = kc.add(rowInSub, kc.i32(8 * h));
        Value col = kc.add(colInChunk, kc.i32(8 * c));
        Value off =
            swizzleOffset(kc.add(kc.mul(row, kc.i32(epiN)), col), dType);
        LLVM::StoreOp::create(b, pair, kc.gep(dBuf, off), /*alignment=*/2);
      }
    }
    return;
  }
  auto v2 = VectorType::get({2}, kc.f32Ty);
  for (int64_t c = 0; c < chunks; ++c) {
    for (int64_t h = 0; h < 2; ++h) {
      Value vec = LLVM::UndefOp::create(b, v2);
      vec = LLVM::InsertElementOp::create(b, vec, dVals[c * 4 + 2 * h],
                                          kc.i32(0));
      vec = LLVM::InsertElementOp::create(b, vec, dVals[c * 4 + 2 * h + 1],
                                          kc.i32(1));
      Value row = kc.add(rowInSub, kc.i32(8 * h));
      Value col = kc.add(colInChunk, kc.i32(8 * c));
      Value off = swizzleOffset(
          kc.mul(kc.add(kc.mul(row, kc.i32(epiN)), col), kc.i32(4)), dType);
      LLVM::StoreOp::create(b, vec, kc.gep(dBuf, off), /*alignment=*/8);
    }
  }
}
