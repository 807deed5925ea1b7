//===- EpilogueReductions.cpp - Row, column and tile reductions -----------===//
//
// The epilogue collective's reductions (CUTLASS's Sm90RowReduction,
// Sm90ColReduction and Sm90ScalarReduction): each thread folds the visit's
// per-element contributions into partials over the tile's subtiles (one per
// row of the thread for reduce_to_vec_m and reduce_to_scalar, one per column
// for reduce_to_vec_n). An element outside the problem contributes the
// reduction's identity: per element only the bound that the partial's key
// leaves open is checked (one select), the key's own bound once per tile,
// and only in subtiles that cross M or N: each fragment branches once
// (uniformly) between folding without and with the selects.
// At the end of the tile the partials are combined across the lanes that
// share a row or column (a scalar's over its rows first) with butterfly
// shuffles and one lane per output element folds its value into global
// memory with an atomic. No shared memory is used.
//
// Two savings per element, where they are exact or allowed:
// - a sum's or absmax's operand `u * x` with `fastmath<reassoc>` and u
//   uniform reduces x and multiplies each flushed partial by u (|u| for
//   absmax): one multiply per partial, not per element. For absmax this is
//   exact for finite u (rounding is monotone: max |u * x_i| = |u| * max
//   |x_i|); for sum it reassociates, as the flag allows;
// - where the reduced value is the accumulator itself and the identity is
//   0 (sum, absmax), elements outside M x N need no select (nor the
//   branch): TMA fills A's rows past M and B's columns past N with zeros,
//   so those accumulator elements are 0 ... unless an operand holds an
//   infinity (0 * inf is NaN). Only e4m3 has none, so only e4m3 x e4m3
//   kernels skip the select; block-scaled ones keep it (their scales
//   multiply the zeros).
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::collectives;
namespace pl = mlir::wsgemm::planning;
using Kind = pl::EpilogueOperand::Kind;

static double identityOf(StringRef reduce) {
  if (reduce == "max")
    return -std::numeric_limits<double>::infinity();
  if (reduce == "min")
    return std::numeric_limits<double>::infinity();
  return 0.0; // sum, absmax
}

static Value combine(ImplicitLocOpBuilder &b, StringRef reduce, Value acc,
                     Value v) {
  if (reduce == "sum")
    return arith::AddFOp::create(b, acc, v);
  if (reduce == "min")
    return arith::MinimumFOp::create(b, acc, v);
  return arith::MaximumFOp::create(b, acc, v); // max, absmax
}

Value Epilogue::evalUniform(Value v, IRMapping &done) {
  if (Value known = done.lookupOrNull(v))
    return known;
  Operation *def = v.getDefiningOp();
  Value result;
  if (auto scalar = dyn_cast<epi::ScalarOp>(def)) {
    if (scalar.getSource() == epi::ScalarSource::attr) {
      result = kc.f32(scalar.getValue()->convertToDouble());
    } else {
      // Several names multiply (as the visit does).
      for (StringRef name :
           scalar.getNamesAttr().getAsValueRange<StringAttr>()) {
        Value s = scalars.lookup(name);
        result =
            result ? arith::MulFOp::create(kc.b, result, s).getResult() : s;
      }
    }
  } else {
    for (Value operand : def->getOperands())
      evalUniform(operand, done);
    result = kc.b.clone(*def, done)->getResult(0);
  }
  done.map(v, result);
  return result;
}

void Epilogue::planReductions() {
  Block &body = kc.op.getEpilogue().front();
  bool noInfinity = kc.desc.a == pl::DType::F8E4M3 &&
                    kc.desc.b == pl::DType::F8E4M3 &&
                    !pl::isBlockScaled(kc.desc.config);
  IRMapping uniforms;
  for (Reduction &r : reductions) {
    for (Operation &inner : body)
      if (isa<epi::ReduceToVecMOp, epi::ReduceToVecNOp, epi::ReduceToScalarOp>(
              inner) &&
          cast<StringAttr>(inner.getAttr("name")).getValue() == r.operand.name)
        r.reduceOp = &inner;
    assert(r.reduceOp && "a reduction operand without its reduce op");
    r.reduced = r.reduceOp->getOperand(0);
    StringRef reduce = r.operand.reduce;
    if (reduce != "sum" && reduce != "absmax")
      continue;
    if (std::optional<epi::UniformFactor> split =
            epi::splitUniformFactor(r.reduced)) {
      r.reduced = split->rest;
      r.factor = evalUniform(split->factor, uniforms);
      if (reduce == "absmax")
        r.factor = math::AbsFOp::create(kc.b, r.factor);
    }
    r.unmasked = noInfinity && r.reduced == body.getArgument(0);
  }
}

void Epilogue::accumulate(Reduction &r, const Element &el, Value v,
                          bool bounded) {
  StringRef reduce = r.operand.reduce;
  if (reduce == "absmax")
    v = math::AbsFOp::create(kc.b, v);
  // One select per element: the bound the partial's key fixes is applied
  // at the flush (see Reduction::partials). A scalar keeps one partial per
  // row only where its warpgroup has one 64-row block (two partials, one
  // register more than a single partial); with more blocks the registers
  // would outweigh the select, so its elements check both bounds.
  if (bounded) {
    Value rowIn = kc.ult(el.gm, kc.sizeM), colIn = kc.ult(el.gn, kc.sizeN);
    Value inBounds = r.operand.kind == Kind::ReduceVecN ? rowIn
                     : r.operand.kind == Kind::ReduceVecM || scalarKeyedByRow()
                         ? colIn
                         : kc.andi(rowIn, colIn);
    v = kc.select(inBounds, v, kc.f32(identityOf(reduce)));
  }
  Value &partial = r.partials[keyOf(r, el)];
  partial = partial ? combine(kc.b, reduce, partial, v) : v;
}

int64_t Epilogue::keyOf(const Reduction &r, const Element &el) const {
  if (r.operand.kind == Kind::ReduceVecN)
    return el.chunk * 2 + el.e;
  if (r.operand.kind == Kind::ReduceVecM || scalarKeyedByRow())
    return el.mb * 2 + el.h;
  return -1;
}

void Epilogue::accumulateFragment(ArrayRef<Element> frag,
                                  llvm::StringMap<SmallVector<Value>> &out,
                                  Value inside) {
  ImplicitLocOpBuilder &b = kc.b;
  // Reductions whose elements never need bounds (Reduction::unmasked) fold
  // directly; the others are `bounded`.
  SmallVector<Reduction *> bounded;
  for (Reduction &r : reductions) {
    if (!r.unmasked) {
      bounded.push_back(&r);
      continue;
    }
    for (auto [el, v] : llvm::zip(frag, out[r.operand.name]))
      accumulate(r, el, v, /*bounded=*/false);
  }
  if (bounded.empty())
    return;
  // The others select per element only where the fragment's subtile
  // crosses M or N: one uniform branch, both sides folding the same values
  // into the partials the fragment touches.
  SmallVector<std::pair<Reduction *, int64_t>> slots;
  for (Reduction *r : bounded)
    for (const Element &el : frag) {
      std::pair<Reduction *, int64_t> slot{r, keyOf(*r, el)};
      if (llvm::is_contained(slots, slot))
        continue;
      Value &partial = r->partials[slot.second];
      if (!partial)
        partial = kc.f32(identityOf(r->operand.reduce));
      slots.push_back(slot);
    }
  SmallVector<Value> before;
  for (auto [r, key] : slots)
    before.push_back(r->partials[key]);
  auto ifOp = scf::IfOp::create(b, SmallVector<Type>(slots.size(), kc.f32Ty),
                                inside, /*withElse=*/true);
  auto side = [&](Block *block, bool check) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(block);
    for (auto [slot, value] : llvm::zip(slots, before))
      slot.first->partials[slot.second] = value;
    for (Reduction *r : bounded)
      for (auto [el, v] : llvm::zip(frag, out[r->operand.name]))
        accumulate(*r, el, v, check);
    SmallVector<Value> after;
    for (auto [r, key] : slots)
      after.push_back(r->partials[key]);
    scf::YieldOp::create(b, after);
  };
  side(ifOp.thenBlock(), /*check=*/false);
  side(ifOp.elseBlock(), /*check=*/true);
  for (auto [slot, result] : llvm::zip(slots, ifOp.getResults()))
    slot.first->partials[slot.second] = result;
}

Value Epilogue::rowOfKey(const WorkTile &tile, Value consumerWg, int64_t key) {
  int64_t mb = key / 2, h = key % 2;
  Value blockRow =
      kc.add(kc.add(tile.m0, kc.mul(consumerWg, kc.i32(kc.layout.wgRows))),
             kc.i32(kc.layout.blockRows() * mb));
  return kc.add(kc.add(blockRow, rowInBlock), kc.i32(8 * h));
}

bool Epilogue::scalarKeyedByRow() const { return kc.layout.wgRows == 64; }

void Epilogue::foldScalarRows(const WorkTile &tile, Value consumerWg,
                              int64_t mb) {
  for (Reduction &r : reductions) {
    if (r.operand.kind != Kind::ReduceScalar)
      continue;
    StringRef reduce = r.operand.reduce;
    for (auto [key, partial] : r.partials) {
      Value masked =
          key < 0 ? partial
                  : kc.select(kc.ult(rowOfKey(tile, consumerWg, key), kc.sizeM),
                              partial, kc.f32(identityOf(reduce)));
      r.total = r.total ? combine(kc.b, reduce, r.total, masked) : masked;
    }
    r.partials.clear();
  }
}

void Epilogue::flushReductions(const WorkTile &tile, Value consumerWg) {
  ImplicitLocOpBuilder &b = kc.b;
  // Float max/min as integer atomics: for x >= 0 the bit patterns order like
  // signed integers, for x < 0 like reversed unsigned integers.
  auto atomic = [&](StringRef reduce, Value ptr, Value v) {
    auto rmw = [&](LLVM::AtomicBinOp op, Value operand) {
      LLVM::AtomicRMWOp::create(b, op, ptr, operand,
                                LLVM::AtomicOrdering::monotonic);
    };
    if (reduce == "sum")
      return rmw(LLVM::AtomicBinOp::fadd, v);
    Value bits = LLVM::BitcastOp::create(b, kc.i32Ty, v);
    if (reduce == "absmax")
      return rmw(LLVM::AtomicBinOp::umax, bits);
    Value nonNeg =
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, bits, kc.i32(0));
    bool isMax = reduce == "max";
    auto ifOp = scf::IfOp::create(b, nonNeg, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    rmw(isMax ? LLVM::AtomicBinOp::max : LLVM::AtomicBinOp::min, bits);
    b.setInsertionPointToStart(ifOp.elseBlock());
    rmw(isMax ? LLVM::AtomicBinOp::umin : LLVM::AtomicBinOp::umax, bits);
  };
  // Combined across the lanes, then times the reduction's factor.
  auto shuffleCombine = [&](const Reduction &r, Value v, ArrayRef<int> masks) {
    for (int m : masks) {
      Value other =
          NVVM::ShflOp::create(b, kc.f32Ty, kc.i32(-1), v, kc.i32(m),
                               kc.i32(0x1f), NVVM::ShflKind::bfly, UnitAttr());
      v = combine(b, r.operand.reduce, v, other);
    }
    return r.factor ? arith::MulFOp::create(b, v, r.factor).getResult() : v;
  };
  auto outputAt = [&](const Reduction &r, Value index) {
    return LLVM::GEPOp::create(b, kc.globalPtrTy, kc.f32Ty,
                               kc.param(r.operand.name), ValueRange{index});
  };
  for (Reduction &r : reductions) {
    StringRef reduce = r.operand.reduce;
    if (r.operand.kind == Kind::ReduceVecM) {
      // Lanes 4r..4r+3 share a row: combine across them.
      for (auto [key, partial] : r.partials) {
        Value v = shuffleCombine(r, partial, {1, 2});
        Value gm = rowOfKey(tile, consumerWg, key);
        Value pred = kc.andi(kc.eq(kc.remu(kc.lane, kc.i32(4)), kc.i32(0)),
                             kc.ult(gm, kc.sizeM));
        kc.ifThen(pred, [&] {
          atomic(reduce, outputAt(r, kc.add(kc.mul(tile.batch, kc.sizeM), gm)),
                 v);
        });
      }
    } else if (r.operand.kind == Kind::ReduceVecN) {
      // Lanes with equal lane % 4 share columns: combine across the 8 rows.
      for (auto [key, partial] : r.partials) {
        int64_t c = key / 2, e = key % 2;
        Value v = shuffleCombine(r, partial, {4, 8, 16});
        Value gn = kc.add(kc.add(kc.add(tile.n0, warpCol), colInChunk),
                          kc.i32(8 * c + e));
        Value pred = kc.andi(kc.ult(kc.lane, kc.i32(4)), kc.ult(gn, kc.sizeN));
        kc.ifThen(pred, [&] {
          atomic(reduce, outputAt(r, kc.add(kc.mul(tile.batch, kc.sizeN), gn)),
                 v);
        });
      }
    } else {
      // The thread's rows were folded block by block; now the warp.
      Value v = shuffleCombine(r, r.total, {1, 2, 4, 8, 16});
      kc.ifThen(kc.eq(kc.lane, kc.i32(0)),
                [&] { atomic(reduce, kc.param(r.operand.name), v); });
    }
  }
}
