//===- EpilogueDirectStore.cpp - Outputs stored without TMA ---------------===//
//
// `store = direct`: the epilogue stages each 64 x epi N subtile of D and of
// every aux store in shared memory exactly as for a TMA store (stmatrix or
// st.shared, the subtile's swizzle), and then, instead of one thread's TMA
// bulk store, the warpgroup's 128 threads copy it to global memory with
// st.global. TMA needs row strides and base addresses that are multiples
// of 16 bytes and writes whole 16-byte pieces at the end of a row; these
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

void Epilogue::storeDirect(Value buf, pl::DType type, StringRef operand,
                           Value subRow, Value subCol, Value batch,
                           pl::StoreReduce reduce) {
  ImplicitLocOpBuilder &b = kc.b;
  const int64_t epiN = kc.layout.epiN, threads = 128, rows = 64;
  const int64_t bytes = pl::getBits(type) / 8;
  const int64_t cols = std::min(epiN, threads), rowStep = threads / cols;
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
  Value row0 = kc.divu(kc.tidInWg, kc.i32(cols));
  Value col0 = kc.remu(kc.tidInWg, kc.i32(cols));
  Value gm0 = kc.add(subRow, row0);
  // Rows of this thread inside the subtile and inside M: ceil((min(64 -
  // row0, M - gm0)) / R), 0 when gm0 >= M or the thread has no column
  // (epi N not dividing 128).
  Value left = arith::MinSIOp::create(b, kc.sub(kc.i32(rows), row0),
                                      kc.sub(kc.sizeM, gm0));
  Value active = kc.andi(kc.ult(gm0, kc.sizeM),
                         kc.ult(kc.tidInWg, kc.i32(rowStep * cols)));
  Value trips = kc.divu(kc.add(left, kc.i32(rowStep - 1)), kc.i32(rowStep));
  Value stepBytes = mul64(m.ld, kc.i64(rowStep * bytes));
  for (int64_t pass = 0; pass < epiN / cols; ++pass) {
    Value col = kc.add(col0, kc.i32(pass * cols));
    Value gn = kc.add(subCol, col);
    Value n = kc.select(kc.andi(active, kc.ult(gn, kc.sizeN)), trips,
                        kc.i32(0));
    // Element (gm0, gn) of batch `batch`: batch * batch stride + gm0 * ld
    // + gn, in 64 bits (a matrix may exceed 2^31 elements).
    Value first = add64(add64(batchBase, mul64(toI64(gm0), m.ld)), toI64(gn));
    Value dst0 = LLVM::GEPOp::create(b, kc.globalPtrTy, bitsTy, m.base,
                                     ValueRange{first});
    auto loop = scf::ForOp::create(b, kc.i32(0), n, kc.i32(1),
                                   ValueRange{dst0});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value dst = loop.getRegionIterArgs()[0];
    Value row = kc.add(row0, kc.mul(k, kc.i32(rowStep)));
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
