//===- EpilogueDirectStore.cpp - Outputs stored without TMA ---------------===//
//
// `store = direct`: the epilogue stages each 64 x epi N subtile of D and of
// every aux store in shared memory exactly as for a TMA store (stmatrix or
// st.shared, the subtile's swizzle), and then, instead of one thread's TMA
// bulk store, the warpgroup's 128 threads (with copy_out = load, the load
// warps') copy it to global memory with st.global. TMA needs row strides
// and base addresses that are multiples of 16 bytes and writes whole
// 16-byte pieces at the end of a row; these
// stores need only element alignment and write exactly the elements inside
// M x N, so any leading dimension works (an f16 LM head with N = 50257).
//
// Thread t copies column t % C of rows t / C, t / C + R, ... of the
// subtile (C = min(epi N, 128) columns per pass, R = 128 / C rows apart):
// a warp's 32 stores at a time are consecutive elements of a row, so they
// coalesce whatever the row's alignment. The rows are a loop whose trip
// count stops at M (out-of-bounds rows cost nothing) and whose global
// address advances by R rows each step: one 64-bit add per element, and
// few registers live beside the accumulators. Shared-memory reads follow
// the subtile's swizzle, which permutes 16-byte chunks within a row: a
// warp's 32 reads stay conflict-free.
//
// Where the output's base, leading dimension and batch stride put every
// row on 16 bytes (a uniform test in the kernel) and a subtile row holds
// at least four 16-byte pieces, thread t copies piece t % P of rows t / P,
// t / P + 128 / P, ... instead (P pieces a row): one ld.shared.v4 and one
// st.global.v4 for 8 16-bit elements, the piece that N cuts element by
// element. A warp then writes whole 128-byte rows; the 2-byte path spent
// 8 times the instructions (sm_80 kernels, whose every store is direct,
// ran 1-5% faster: docs/perf-notes.md). Those rows are a loop per
// rectangle, each trip's store waiting on its own ld.shared; a subtile
// wholly inside M x N (a uniform test) takes storeDirectWhole instead:
// each thread loads all its 64 * P / 128 pieces of the buffer (across the
// rectangles), then stores them, unrolled and unpredicated. The sm_80
// multistage 128x256 kernel with four columns of warps (epi N 32: four
// 16 x 32 rectangles a subtile, one trip or none each) ran 1.03-1.12x
// faster (docs/perf-notes.md, "The copy-out unrolled").
//
// A column-major D (`d(T, m_major)`: M contiguous in memory) is copied the
// other way round: thread t takes row t % 64 of columns t / 64, t / 64 + 2,
// ..., so a warp's 32 stores are consecutive elements of a column. Its
// shared-memory reads walk down a column of the row-major subtile: rows r
// and r + 8 share a bank under the 128B swizzle, a 4-way conflict on
// 16-bit elements (the copy-out is a small part of the epilogue; measured
// in docs/perf-notes.md).
//
// D reduced into (`epi.store ... reduce add`) takes red.global instead of
// st.global: `red.global.add.f32` and `red.global.add.noftz.{f16,bf16}`,
// the only scalar float reductions PTX has (min and max exist for 16-bit
// floats only as vectors, which these single-element stores cannot use:
// the planner refuses them with store = direct).
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;

void Epilogue::storeDirectElements(Value buf, Value bufRow, int64_t rows,
                                   pl::DType type, StringRef operand,
                                   Value subRow, Value subCol, Value batch,
                                   pl::StoreReduce reduce) {
  ImplicitLocOpBuilder &b = kc.b;
  const int64_t epiN = kc.layout.epiN, threads = copyThreads;
  const int64_t bytes = pl::getBits(type) / 8;
  // The copy walks the subtile along the matrix's contiguous dimension
  // ("inner": N of a row-major output, M of a column-major D) with
  // consecutive threads, and along the other ("outer") in a loop.
  const bool columnMajor =
      operand == "D" && kc.desc.dMajor == pl::OperandMajor::M;
  const int64_t innerExt = columnMajor ? rows : epiN;
  const int64_t inners = std::min(innerExt, threads),
                outerStep = threads / inners;
  const int64_t outerExt = columnMajor ? epiN : rows;
  Value innerOrigin = columnMajor ? subRow : subCol;
  Value outerOrigin = columnMajor ? subCol : subRow;
  Value innerSize = columnMajor ? kc.sizeM : kc.sizeN;
  Value outerSize = columnMajor ? kc.sizeN : kc.sizeM;
  // The element as raw bits: the copy never converts.
  Type bitsTy = b.getIntegerType(bytes * 8);
  Type i64Ty = b.getI64Type();
  KernelContext::MatrixArg m = kc.matrixArg(operand);
  auto toI64 = [&](Value v) -> Value {
    return arith::ExtUIOp::create(b, i64Ty, v);
  };
  auto mul64 = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, x, y);
  };
  auto add64 = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, x, y);
  };
  Value batchBase = kc.i64(0);
  if (kc.desc.batched)
    batchBase = mul64(toI64(batch), m.batchStride);
  Value outer0 = kc.divu(copyThread, kc.i32(inners));
  Value inner0 = kc.remu(copyThread, kc.i32(inners));
  Value go0 = kc.add(outerOrigin, outer0);
  // Outer steps of this thread inside the subtile and the matrix:
  // ceil(min(outer extent - outer0, size - go0) / step), 0 when go0 is
  // outside or the thread has no inner index (epi N not dividing 128).
  Value left = arith::MinSIOp::create(b, kc.sub(kc.i32(outerExt), outer0),
                                      kc.sub(outerSize, go0));
  Value active = kc.andi(kc.ult(go0, outerSize),
                         kc.ult(copyThread, kc.i32(outerStep * inners)));
  Value trips =
      kc.divu(kc.add(left, kc.i32(outerStep - 1)), kc.i32(outerStep));
  Value stepBytes = mul64(m.ld, kc.i64(outerStep * bytes));
  for (int64_t pass = 0; pass < innerExt / inners; ++pass) {
    Value inner = kc.add(inner0, kc.i32(pass * inners));
    Value gi = kc.add(innerOrigin, inner);
    Value n = kc.select(kc.andi(active, kc.ult(gi, innerSize)), trips,
                        kc.i32(0));
    // Element (go0, gi) of batch `batch`: batch * batch stride + go0 * ld
    // + gi, in 64 bits (a matrix may exceed 2^31 elements).
    Value first = add64(add64(batchBase, mul64(toI64(go0), m.ld)), toI64(gi));
    Value dst0 = LLVM::GEPOp::create(b, kc.globalPtrTy, bitsTy, m.base,
                                     ValueRange{first});
    auto loop = scf::ForOp::create(b, kc.i32(0), n, kc.i32(1),
                                   ValueRange{dst0});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value dst = loop.getRegionIterArgs()[0];
    Value outer = kc.add(outer0, kc.mul(k, kc.i32(outerStep)));
    Value row = kc.add(columnMajor ? inner : outer, bufRow);
    Value col = columnMajor ? outer : inner;
    Value src = kc.gep(
        buf, swizzleOffset(kc.mul(kc.add(kc.mul(row, kc.i32(epiN)), col),
                                  kc.i32(bytes)),
                           type));
    Value v = LLVM::LoadOp::create(b, bitsTy, src, /*alignment=*/bytes);
    if (reduce == pl::StoreReduce::None) {
      LLVM::StoreOp::create(b, v, dst, /*alignment=*/bytes);
    } else {
      // Legality.cpp admits only add here. The f32 element goes in an .f32
      // register, a 16-bit one as its bits in a .b16 register.
      assert(reduce == pl::StoreReduce::Add && "direct min/max refused");
      std::string ptx = "red.global.add";
      if (type == pl::DType::F32) {
        v = LLVM::BitcastOp::create(b, kc.f32Ty, v);
        ptx += ".f32";
      } else {
        ptx += type == pl::DType::BF16 ? ".noftz.bf16" : ".noftz.f16";
      }
      NVVM::InlinePtxOp::create(b, TypeRange{}, ValueRange{dst, v},
                                ValueRange{}, ptx + " [$0], $1;",
                                /*predicate=*/Value());
    }
    scf::YieldOp::create(
        b, ValueRange{LLVM::GEPOp::create(b, kc.globalPtrTy, b.getI8Type(),
                                          dst, ValueRange{stepBytes})
                          .getResult()});
  }
}

/// The first element of `operand`'s row `row` (i32, in the tile's batch
/// `batch`) at column `col` (i32), and the bytes from one row to the next
/// `rowStep` rows down: 64-bit arithmetic (a matrix may exceed 2^31
/// elements).
static std::pair<Value, Value>
rowAddress(KernelContext &kc, const KernelContext::MatrixArg &m,
           Type elemTy, int64_t bytes, Value batch, Value row, Value col,
           int64_t rowStep) {
  ImplicitLocOpBuilder &b = kc.b;
  auto toI64 = [&](Value v) -> Value {
    return arith::ExtUIOp::create(b, b.getI64Type(), v);
  };
  Value first = arith::AddIOp::create(
      b, arith::MulIOp::create(b, toI64(row), m.ld), toI64(col));
  if (kc.desc.batched)
    first = arith::AddIOp::create(
        b, first, arith::MulIOp::create(b, toI64(batch), m.batchStride));
  Value ptr = LLVM::GEPOp::create(b, kc.globalPtrTy, elemTy, m.base,
                                  ValueRange{first});
  return {ptr, arith::MulIOp::create(b, m.ld, kc.i64(rowStep * bytes))};
}

Value Epilogue::vectorStoresAligned(StringRef operand, pl::DType type) {
  ImplicitLocOpBuilder &b = kc.b;
  KernelContext::MatrixArg m = kc.matrixArg(operand);
  const int64_t perVector = 16 / (pl::getBits(type) / 8);
  // The base's low 4 bits, and the element strides' low log2(perVector)
  // bits: all zero when every row (and batch) starts on 16 bytes.
  Value bits = arith::AndIOp::create(
      b, LLVM::PtrToIntOp::create(b, b.getI64Type(), m.base), kc.i64(15));
  Value strides = m.ld;
  if (kc.desc.batched)
    strides = arith::OrIOp::create(b, strides, m.batchStride);
  bits = arith::OrIOp::create(
      b, bits, arith::AndIOp::create(b, strides, kc.i64(perVector - 1)));
  return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, bits, kc.i64(0));
}

void Epilogue::storeDirectVectors(Value buf, Value bufRow, int64_t rows,
                                  pl::DType type, StringRef operand,
                                  Value subRow, Value subCol, Value batch) {
  ImplicitLocOpBuilder &b = kc.b;
  const int64_t epiN = kc.layout.epiN, threads = copyThreads;
  const int64_t bytes = pl::getBits(type) / 8, perVector = 16 / bytes;
  // Thread t copies 16-byte piece t % P of rows t / P, t / P + 128 / P, ...
  // (P = the subtile's pieces per row, epi N / perVector).
  const int64_t pieces = epiN / perVector, rowStep = threads / pieces;
  Type bitsTy = b.getIntegerType(bytes * 8);
  KernelContext::MatrixArg m = kc.matrixArg(operand);
  Value piece = kc.remu(copyThread, kc.i32(pieces));
  Value row0 = kc.divu(copyThread, kc.i32(pieces));
  Value gi = kc.add(subCol, kc.mul(piece, kc.i32(perVector)));
  Value gr0 = kc.add(subRow, row0);
  // Rows of this thread inside the subtile and the matrix (none when its
  // first is outside), and whether its piece lies wholly inside N.
  Value left = arith::MinSIOp::create(b, kc.sub(kc.i32(rows), row0),
                                      kc.sub(kc.sizeM, gr0));
  Value trips = kc.select(
      kc.andi(kc.ult(gr0, kc.sizeM), kc.ult(gi, kc.sizeN)),
      kc.divu(kc.add(left, kc.i32(rowStep - 1)), kc.i32(rowStep)), kc.i32(0));
  Value whole = kc.ult(kc.add(gi, kc.i32(perVector - 1)), kc.sizeN);
  auto [dst0, stepBytes] =
      rowAddress(kc, m, bitsTy, bytes, batch, gr0, gi, rowStep);
  auto loop =
      scf::ForOp::create(b, kc.i32(0), trips, kc.i32(1), ValueRange{dst0});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value row = kc.add(kc.add(row0, bufRow),
                     kc.mul(loop.getInductionVar(), kc.i32(rowStep)));
  Value dst = loop.getRegionIterArgs()[0];
  Value v = loadPiece(buf, type, row, piece);
  auto ifWhole = scf::IfOp::create(b, whole, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifWhole.thenBlock());
    LLVM::StoreOp::create(b, v, dst, /*alignment=*/16);
    // The piece that N cuts: its elements below N one by one.
    b.setInsertionPointToStart(ifWhole.elseBlock());
    Value elems =
        LLVM::BitcastOp::create(b, VectorType::get({perVector}, bitsTy), v);
    for (int64_t e = 0; e < perVector; ++e)
      kc.ifThen(kc.ult(kc.add(gi, kc.i32(e)), kc.sizeN), [&] {
        LLVM::StoreOp::create(
            b, LLVM::ExtractElementOp::create(b, elems, kc.i32(e)),
            LLVM::GEPOp::create(b, kc.globalPtrTy, bitsTy, dst,
                                ValueRange{kc.i32(e)}),
            /*alignment=*/bytes);
      });
  }
  scf::YieldOp::create(
      b, ValueRange{LLVM::GEPOp::create(b, kc.globalPtrTy, b.getI8Type(), dst,
                                        ValueRange{stepBytes})
                        .getResult()});
}

void Epilogue::storeDirect(Value buf, pl::DType type, StringRef operand,
                           Value subRow, Value subCol, Value batch,
                           pl::StoreReduce reduce) {
  ImplicitLocOpBuilder &b = kc.b;
  const int64_t bytes = pl::getBits(type) / 8;
  const bool columnMajor =
      operand == "D" && kc.desc.dMajor == pl::OperandMajor::M;
  // 16-byte pieces where a subtile row has at least 4 of them and their
  // count divides the copying threads (narrower subtiles gain
  // little, and the second copy's registers made the cooperative sm_80
  // kernel with an aux store and three reductions at epi N 16 spill).
  const int64_t rowBytes = kc.layout.epiN * bytes;
  // One rectangle of blockRows() rows per column of warps (KernelLayout.h).
  // Four of them are one loop over the rectangles, kept rolled (LLVM would
  // unroll its few trips): a copy of the row loops per rectangle was most
  // of the sm_80 multistage 128x256 kernel's ptxas time (four columns of
  // warps, eight subtiles: 1.00 s, 0.31 s with the loop). Two stay
  // unrolled: with the loop, two 168- and 255-register kernels of two
  // columns spilled 4-8 bytes (docs/perf-notes.md, "256-row multistage
  // tiles").
  const int64_t rows = kc.layout.blockRows();
  auto eachRectangle = [&](auto store) {
    if (kc.layout.warpColumns < 4) {
      for (int64_t q = 0; q < kc.layout.warpColumns; ++q)
        store(kc.i32(q * rows),
              kc.add(subCol, kc.i32(q * kc.layout.warpN())));
      return;
    }
    auto loop = scf::ForOp::create(b, kc.i32(0),
                                   kc.i32(kc.layout.warpColumns), kc.i32(1));
    kc.keepRolled(loop);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value q = loop.getInductionVar();
    store(kc.mul(q, kc.i32(rows)),
          kc.add(subCol, kc.mul(q, kc.i32(kc.layout.warpN()))));
  };
  auto elements = [&] {
    eachRectangle([&](Value bufRow, Value col) {
      storeDirectElements(buf, bufRow, rows, type, operand, subRow, col,
                          batch, reduce);
    });
  };
  if (columnMajor || reduce != pl::StoreReduce::None || rowBytes % 16 != 0 ||
      rowBytes / 16 < 4 || copyThreads % (rowBytes / 16) != 0) {
    elements();
    return;
  }
  // Rows that start on 16 bytes take 16-byte stores; others element ones.
  auto ifAligned = scf::IfOp::create(b, vectorStoresAligned(operand, type),
                                     /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifAligned.thenBlock());
  // A subtile inside M x N: straight-line copies of the whole buffer.
  const int64_t pieces = rowBytes / 16;
  if ((64 * pieces) % copyThreads == 0) {
    auto ifInside = scf::IfOp::create(b, subtileInside(subRow, subCol),
                                      /*withElse=*/true);
    b.setInsertionPointToStart(ifInside.thenBlock());
    storeDirectWhole(buf, type, operand, subRow, subCol, batch);
    b.setInsertionPointToStart(ifInside.elseBlock());
  }
  eachRectangle([&](Value bufRow, Value col) {
    storeDirectVectors(buf, bufRow, rows, type, operand, subRow, col, batch);
  });
  b.setInsertionPointToStart(ifAligned.elseBlock());
  elements();
}

Value Epilogue::loadPiece(Value buf, pl::DType type, Value row, Value piece) {
  const int64_t bytes = pl::getBits(type) / 8;
  Value offset = kc.add(kc.mul(row, kc.i32(kc.layout.epiN)),
                        kc.mul(piece, kc.i32(16 / bytes)));
  Value src = kc.gep(buf, swizzleOffset(kc.mul(offset, kc.i32(bytes)), type));
  return LLVM::LoadOp::create(kc.b, VectorType::get({4}, kc.i32Ty), src,
                              /*alignment=*/16);
}

void Epilogue::storeDirectWhole(Value buf, pl::DType type, StringRef operand,
                                Value subRow, Value subCol, Value batch) {
  ImplicitLocOpBuilder &b = kc.b;
  const int64_t epiN = kc.layout.epiN, bytes = pl::getBits(type) / 8;
  const int64_t perVector = 16 / bytes, pieces = epiN / perVector;
  const int64_t rowStep = copyThreads / pieces;
  const int64_t rows = kc.layout.blockRows();
  Type bitsTy = b.getIntegerType(bytes * 8);
  KernelContext::MatrixArg m = kc.matrixArg(operand);
  Value piece = kc.remu(copyThread, kc.i32(pieces));
  Value row0 = kc.divu(copyThread, kc.i32(pieces));
  Value col0 = kc.add(subCol, kc.mul(piece, kc.i32(perVector)));
  // Buffer row r is row r % rows of rectangle r / rows (storeDirect).
  SmallVector<Value> values, dsts;
  for (int64_t r = 0; r < 64; r += rowStep) {
    Value row = kc.add(row0, kc.i32(r));
    values.push_back(loadPiece(buf, type, row, piece));
    Value col = kc.add(col0, kc.mul(kc.divu(row, kc.i32(rows)),
                                    kc.i32(kc.layout.warpN())));
    dsts.push_back(rowAddress(kc, m, bitsTy, bytes, batch,
                              kc.add(subRow, kc.remu(row, kc.i32(rows))), col,
                              rowStep)
                       .first);
  }
  for (auto [v, dst] : llvm::zip(values, dsts))
    LLVM::StoreOp::create(b, v, dst, /*alignment=*/16);
}
