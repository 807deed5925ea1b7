//===- EvtVisit.cpp - The EVT on accumulator fragments --------------------===//
//
// --epi-visit-fragments: each epi.visit becomes straight-line code, one copy
// of the epilogue region per fragment element (EvtVisit.h). The leaves of
// the region are resolved by name against the op's sources, outputs become
// the op's results; the op's results are only ever read element by element
// (vector.extract at constant positions), which this pass forwards to the
// element values, so no vector reaches the LLVM lowering.
//
// Register pressure of an EVT is decided here: each element's code is
// emitted whole before the next element's, so at most one element's
// intermediates are live beside the fragment's sources and outputs, and the
// epilogue collective chooses the fragment's size (fragment_size).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/EvtVisit.h"
#include "ws-gemm/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
#define GEN_PASS_DEF_EPIVISITFRAGMENTS
#include "ws-gemm/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::epi;

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

Value mlir::epi::convertF32Pair(OpBuilder &b, Location loc, Value lo, Value hi,
                                Type elem, RoundingMode rounding) {
  auto vecTy = VectorType::get({2}, elem);
  NVVM::FPRoundingMode rnd = rounding == RoundingMode::rz
                                 ? NVVM::FPRoundingMode::RZ
                                 : NVVM::FPRoundingMode::RN;
  if (elem.isBF16())
    return NVVM::ConvertF32x2ToBF16x2Op::create(b, loc, vecTy, hi, lo, Value(),
                                                rnd);
  return NVVM::ConvertF32x2ToF16x2Op::create(b, loc, vecTy, hi, lo, Value(),
                                             rnd);
}

Value mlir::epi::convertF32PairToF8(OpBuilder &b, Location loc, Value lo,
                                    Value hi, Type elem) {
  // The op puts its first operand in the upper byte.
  return NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), hi, lo, NVVM::FPRoundingMode::RN,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false, elem);
}

Value mlir::epi::extendF8ToF32(OpBuilder &b, Location loc, Value bits,
                               Type elem) {
  auto pairTy = VectorType::get({2}, b.getI8Type());
  Value pair = LLVM::UndefOp::create(b, loc, pairTy);
  for (int64_t i = 0; i < 2; ++i)
    pair = LLVM::InsertElementOp::create(
        b, loc, pair, bits, arith::ConstantIntOp::create(b, loc, i, 32));
  Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
      b, loc, VectorType::get({2}, b.getF16Type()), pair, /*relu=*/false,
      elem);
  Value half = LLVM::ExtractElementOp::create(
      b, loc, halves, arith::ConstantIntOp::create(b, loc, 0, 32));
  return arith::ExtFOp::create(b, loc, b.getF32Type(), half);
}

Value mlir::epi::convertFloat(OpBuilder &b, Location loc, Value v, Type to,
                              RoundingMode rounding) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  if (!from.isF32())
    v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  if (to.isF32())
    return v;
  Value pair = convertF32Pair(b, loc, v, v, to, rounding);
  return LLVM::ExtractElementOp::create(
      b, loc, pair, arith::ConstantIntOp::create(b, loc, 0, 32));
}

//===----------------------------------------------------------------------===//
// The visit
//===----------------------------------------------------------------------===//

namespace {
/// Emits the per-element code of one visit op.
class FragmentVisitor {
public:
  FragmentVisitor(RewriterBase &rewriter, VisitOp op)
      : b(rewriter), op(op), loc(op.getLoc()) {}

  LogicalResult run();

private:
  /// Element `i` of the source named `name`: a fragment's element or a
  /// uniform value.
  FailureOr<Value> source(Operation *leaf, StringRef name, int64_t i);
  Value element(Value fragment, int64_t i);
  LogicalResult visitElement(int64_t i);

  RewriterBase &b;
  VisitOp op;
  Location loc;
  /// The values of each output, element by element.
  llvm::StringMap<SmallVector<Value>> outputs;
  /// Per-element extracts, shared by every leaf that reads them.
  DenseMap<std::pair<Value, int64_t>, Value> extracts;
};
} // namespace

Value FragmentVisitor::element(Value fragment, int64_t i) {
  Value &cached = extracts[{fragment, i}];
  if (!cached) {
    // A fragment built element by element yields its element directly.
    if (auto from = fragment.getDefiningOp<vector::FromElementsOp>())
      cached = from.getElements()[i];
    else
      cached = vector::ExtractOp::create(b, loc, fragment, i);
  }
  return cached;
}

FailureOr<Value> FragmentVisitor::source(Operation *leaf, StringRef name,
                                         int64_t i) {
  Value fragment = op.getSource(name);
  if (!fragment)
    return leaf->emitOpError()
           << "reads '" << name << "', which the enclosing epi.visit does not "
           << "carry as a source";
  if (!isa<VectorType>(fragment.getType()))
    return fragment;
  return element(fragment, i);
}

LogicalResult FragmentVisitor::visitElement(int64_t i) {
  Block &body = op.getBody().front();
  IRMapping map;
  map.map(body.getArgument(0), element(op.getAcc(), i));
  for (Operation &inner : body.without_terminator()) {
    auto define = [&](FailureOr<Value> v) -> LogicalResult {
      if (failed(v))
        return failure();
      map.map(inner.getResult(0), *v);
      return success();
    };
    auto output = [&](StringRef name, Value v) -> LogicalResult {
      outputs[name].push_back(map.lookup(v));
      return success();
    };
    LogicalResult ok =
        llvm::TypeSwitch<Operation *, LogicalResult>(&inner)
            .Case([&](LoadSrcOp src) { return define(source(src, "C", i)); })
            .Case<AuxLoadOp, LoadVecMOp, LoadVecNOp>([&](auto leaf) {
              return define(source(leaf, leaf.getName(), i));
            })
            .Case([&](ScalarOp scalar) -> LogicalResult {
              if (scalar.getSource() == ScalarSource::attr)
                return define(Value(arith::ConstantFloatOp::create(
                    b, loc, b.getF32Type(),
                    APFloat(static_cast<float>(
                        scalar.getValue()->convertToDouble())))));
              // Several names multiply (CUTLASS's ScalarBroadcast).
              Value product;
              for (StringRef name :
                   scalar.getNamesAttr().getAsValueRange<StringAttr>()) {
                FailureOr<Value> v = source(scalar, name, i);
                if (failed(v))
                  return failure();
                product =
                    product
                        ? arith::MulFOp::create(b, loc, product, *v).getResult()
                        : *v;
              }
              return define(product);
            })
            .Case([&](ConvertOp convert) {
              return define(convertFloat(b, loc, map.lookup(convert.getInput()),
                                         convert.getType(),
                                         convert.getRounding()));
            })
            .Case([&](StoreOp store) { return output("D", store.getValue()); })
            .Case([&](AuxStoreOp aux) {
              return output(aux.getName(), aux.getValue());
            })
            .Case<ReduceToVecMOp, ReduceToVecNOp, ReduceToScalarOp>(
                [&](auto red) { return output(red.getName(), red.getValue()); })
            .Case([&](FusionOp preset) {
              return preset.emitOpError()
                     << "must be expanded (--epi-expand-presets) before the "
                        "EVT is visited";
            })
            .Default([&](Operation *other) {
              b.clone(*other, map);
              return success();
            });
    if (failed(ok))
      return failure();
  }
  return success();
}

LogicalResult FragmentVisitor::run() {
  b.setInsertionPoint(op);
  int64_t n = op.getFragmentSize();
  for (int64_t i = 0; i < n; ++i)
    if (failed(visitElement(i)))
      return failure();
  // Each result becomes its elements; element-wise reads see them directly.
  for (auto [result, name] :
       llvm::zip(op.getOutputs(),
                 op.getOutputNames().getAsValueRange<StringAttr>())) {
    SmallVector<Value> &values = outputs[name];
    if ((int64_t)values.size() != n)
      return op.emitOpError() << "names output '" << name
                              << "', which its epilogue region does not "
                                 "produce";
    for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
      auto extract = dyn_cast<vector::ExtractOp>(use.getOwner());
      if (!extract || extract.hasDynamicPosition())
        continue;
      b.replaceOp(extract, values[extract.getStaticPosition()[0]]);
    }
    if (!result.use_empty())
      b.replaceAllUsesWith(
          result, vector::FromElementsOp::create(
                      b, loc, cast<VectorType>(result.getType()), values));
  }
  // Sources built only for this op go with it.
  SmallVector<Operation *> inputs;
  for (Value v : op->getOperands())
    if (Operation *def = v.getDefiningOp<vector::FromElementsOp>())
      inputs.push_back(def);
  b.eraseOp(op);
  for (Operation *def : inputs)
    if (def->use_empty())
      b.eraseOp(def);
  return success();
}

LogicalResult mlir::epi::expandVisit(RewriterBase &rewriter, VisitOp op) {
  return FragmentVisitor(rewriter, op).run();
}

namespace {
struct ExpandVisitPattern : OpRewritePattern<VisitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(VisitOp op,
                                PatternRewriter &rewriter) const override {
    return expandVisit(rewriter, op);
  }
};

struct EpiVisitFragmentsPass
    : public impl::EpiVisitFragmentsBase<EpiVisitFragmentsPass> {
  void runOnOperation() override {
    SmallVector<VisitOp> visits;
    getOperation()->walk([&](VisitOp op) { visits.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (VisitOp op : visits)
      if (failed(expandVisit(rewriter, op)))
        return signalPassFailure();
  }
};
} // namespace

void mlir::epi::populateEpiVisitFragmentsPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandVisitPattern>(patterns.getContext());
}
