//===- LowerActivations.cpp - Lower named activations to arith/math -------===//
//
// --epi-lower-activations rewrites every named `epi` activation into scalar
// `arith`/`math` ops in the operand's float type, reproducing the formulas
// of CUTLASS's include/cutlass/epilogue/thread/activation.h op for op: the
// same constants (rounded the way CUTLASS rounds them), the same evaluation
// order, the same per-type specialisations, and the same NaN behaviour of
// its min/max helpers (include/cutlass/functional.h):
//
//   maximum<T, PropagateNaN = true>  (ReLu, Clamp)   -> arith.maximumf
//   minimum<T, PropagateNaN = true>  (Clamp, ThresholdReLU) -> arith.minimumf
//   maximum/minimum<float, false>    (HardSwish, f32) -> arith.maxnumf/minnumf
//                                      (fmaxf/fminf: NaN loses)
//   maximum/minimum<T, false>        (HardSwish, other types)
//                                    -> `a < b ? b : a` via cmpf olt + select
//
// CUTLASS's multiply_add (`a * b + c`, contracted to fma.rn by nvcc's default
// -fmad=true) becomes math.fma where CUTLASS calls it explicitly.
//
// An activation with fastmath<afn> (sigmoid, silu, tanh, gelu, gelu_taylor)
// is evaluated in f32 (f16/bf16 operands widened, the result rounded back)
// with its exp, divide and tanh carrying `afn`, which the NVVM lowering turns
// into ex2.approx, rcp.approx and tanh.approx (--convert-math-approx-to-nvvm);
// gelu takes the tanh form there. This is what nvcc's --use_fast_math makes
// of CUTLASS's formulas.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiPasses.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::epi {
#define GEN_PASS_DEF_EPILOWERACTIVATIONS
#include "ws-gemm/Dialect/Epi/EpiPasses.h.inc"
} // namespace mlir::epi

using namespace mlir;
using namespace mlir::epi;

namespace {
/// Builds scalar arith/math ops of one float type at one location.
class ScalarEmitter {
public:
  /// `approx`: exp, divide and tanh allow approximate implementations
  /// (fastmath<afn>).
  ScalarEmitter(OpBuilder &b, Location loc, FloatType type, bool approx = false)
      : b(b), loc(loc), type(type),
        fastmath(arith::FastMathFlagsAttr::get(
            b.getContext(), approx ? arith::FastMathFlags::afn
                                   : arith::FastMathFlags::none)) {}

  FloatType getType() const { return type; }
  bool isApprox() const {
    return fastmath.getValue() != arith::FastMathFlags::none;
  }

  /// A constant from a double literal, rounded once to the type (CUTLASS's
  /// `T(0.7978845608028654)`).
  Value constant(double value) { return constant(APFloat(value)); }
  /// A constant from a float literal, rounded to float first (CUTLASS's
  /// `T(0.16666667f)`).
  Value constantFromFloat(float value) { return constant(APFloat(value)); }
  Value constant(APFloat value) {
    bool losesInfo = false;
    (void)value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                        &losesInfo);
    return arith::ConstantOp::create(b, loc, type, FloatAttr::get(type, value));
  }

  Value add(Value lhs, Value rhs) {
    return arith::AddFOp::create(b, loc, lhs, rhs);
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulFOp::create(b, loc, lhs, rhs);
  }
  Value div(Value lhs, Value rhs) {
    return arith::DivFOp::create(b, loc, lhs, rhs, fastmath);
  }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value fma(Value a, Value m, Value c) {
    return math::FmaOp::create(b, loc, a, m, c);
  }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x, fastmath); }
  Value tanh(Value x) { return math::TanhOp::create(b, loc, x, fastmath); }
  Value cmp(arith::CmpFPredicate pred, Value lhs, Value rhs) {
    return arith::CmpFOp::create(b, loc, pred, lhs, rhs);
  }
  Value select(Value cond, Value lhs, Value rhs) {
    return arith::SelectOp::create(b, loc, cond, lhs, rhs);
  }

  /// CUTLASS maximum<T, true>: NaN in either operand gives NaN.
  Value maxPropagateNaN(Value lhs, Value rhs) {
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  }
  /// CUTLASS minimum<T, true>.
  Value minPropagateNaN(Value lhs, Value rhs) {
    return arith::MinimumFOp::create(b, loc, lhs, rhs);
  }
  /// CUTLASS maximum<T, false>: fmaxf for float, `lhs < rhs ? rhs : lhs`
  /// otherwise.
  Value maxNoNaN(Value lhs, Value rhs) {
    if (type.isF32())
      return arith::MaxNumFOp::create(b, loc, lhs, rhs);
    return select(cmp(arith::CmpFPredicate::OLT, lhs, rhs), rhs, lhs);
  }
  /// CUTLASS minimum<T, false>: fminf for float, `rhs < lhs ? rhs : lhs`
  /// otherwise.
  Value minNoNaN(Value lhs, Value rhs) {
    if (type.isF32())
      return arith::MinNumFOp::create(b, loc, lhs, rhs);
    return select(cmp(arith::CmpFPredicate::OLT, rhs, lhs), rhs, lhs);
  }

  /// CUTLASS evaluates erf in float for 16-bit types (`erff((float)x)`) and
  /// in the type itself for float and double.
  Value erf(Value x) {
    if (type.getWidth() > 16)
      return math::ErfOp::create(b, loc, x);
    Type f32 = b.getF32Type();
    Value wide = arith::ExtFOp::create(b, loc, f32, x);
    Value result = math::ErfOp::create(b, loc, wide);
    return arith::TruncFOp::create(b, loc, type, result);
  }

private:
  OpBuilder &b;
  Location loc;
  FloatType type;
  arith::FastMathFlagsAttr fastmath;
};
} // namespace

//===----------------------------------------------------------------------===//
// Formulas, one per activation (CUTLASS struct in brackets)
//===----------------------------------------------------------------------===//

/// [ReLu] max(x, 0), NaN-propagating.
static Value lower(ReluOp, Value x, ScalarEmitter &e) {
  return e.maxPropagateNaN(x, e.constant(0.0));
}

// The activations with parameters take each one as a constant attribute
// (folded into the formula as a constant of the operand's type, exactly as
// before launch-time parameters existed) or as an operand (a launch-time
// value, used as is). `param` picks the one the op has.

/// A parameter's value: the operand (from the adaptor) or the constant.
static Value param(Value operand, std::optional<APFloat> constant,
                   ScalarEmitter &e) {
  return operand ? operand : e.constant(*constant);
}

/// [Clamp] min(max(x, lower_bound), upper_bound), NaN-propagating.
static Value lowerWith(ClampOp op, ClampOp::Adaptor a, Value x,
                       ScalarEmitter &e) {
  Value lo =
      e.maxPropagateNaN(x, param(a.getLowerOperand(), op.getLower(), e));
  return e.minPropagateNaN(lo, param(a.getUpperOperand(), op.getUpper(), e));
}

/// [LeakyReLU] x > 0 ? x : x * leaky_alpha.
static Value lowerWith(LeakyReluOp op, LeakyReluOp::Adaptor a, Value x,
                       ScalarEmitter &e) {
  Value positive = e.cmp(arith::CmpFPredicate::OGT, x, e.constant(0.0));
  Value leaked =
      e.mul(x, param(a.getLeakyAlphaOperand(), op.getLeakyAlpha(), e));
  return e.select(positive, x, leaked);
}

/// [ThresholdReLU] min(x <= threshold ? 0 : x, upper_bound), the min
/// NaN-propagating; upper_bound defaults to numeric_limits<T>::max().
static Value lowerWith(ThresholdReluOp op, ThresholdReluOp::Adaptor a,
                       Value x, ScalarEmitter &e) {
  Value below = e.cmp(arith::CmpFPredicate::OLE, x,
                      param(a.getThresholdOperand(), op.getThreshold(), e));
  Value cut = e.select(below, e.constant(0.0), x);
  Value bound;
  if (Value operand = a.getUpperBoundOperand())
    bound = operand;
  else if (std::optional<APFloat> upper = op.getUpperBound())
    bound = e.constant(*upper);
  else
    bound = e.constant(APFloat::getLargest(e.getType().getFloatSemantics()));
  return e.minPropagateNaN(cut, bound);
}

static Value lower(GeluTaylorOp, Value x, ScalarEmitter &e);

/// [GELU] (0.5 * x) * (1 + erf(x * half_root_two)). With afn: the tanh form
/// (GELU_taylor's), since erf has no approximate instruction and the tanh
/// form is within 4.7e-4 of it.
static Value lower(GeluOp, Value x, ScalarEmitter &e) {
  if (e.isApprox())
    return lower(GeluTaylorOp(), x, e);
  Value halfX = e.mul(e.constant(0.5), x);
  Value scaled = e.mul(x, e.constant(0.70710678118654752440));
  Value erf = e.erf(scaled);
  return e.mul(halfX, e.add(e.constant(1.0), erf));
}

/// [GELU_taylor] tanh form with k0 = sqrt(2/pi), k1 = 0.044715, in the form
/// of CUTLASS's specialisation for the operand type.
static Value lower(GeluTaylorOp, Value x, ScalarEmitter &e) {
  constexpr double k0 = 0.7978845608028654;
  constexpr double k1 = 0.044715;
  FloatType type = e.getType();
  if (type.isF32()) {
    // GELU_taylor<float>: 0.5 * fma(x, tanh(x * fma(k0*k1 * x, x, k0)), x),
    // with k0*k1 folded in float.
    float k0f = static_cast<float>(k0);
    float k01 = k0f * static_cast<float>(k1);
    Value v0 = e.mul(e.constantFromFloat(k01), x);
    Value v1 = e.fma(v0, x, e.constantFromFloat(k0f));
    Value v2 = e.mul(x, v1);
    Value v3 = e.tanh(v2);
    Value v4 = e.fma(x, v3, x);
    return e.mul(e.constant(0.5), v4);
  }
  if (type.isF16()) {
    // GELU_taylor<Array<half_t, N>>, which the EVT's fragments use:
    // (x * 0.5) * (1 + tanh((k0 * x) * fma(k1 * x, x, 1))).
    Value one = e.constant(1.0);
    Value k0x = e.mul(e.constant(k0), x);
    Value k1x = e.mul(e.constant(k1), x);
    Value u = e.mul(k0x, e.fma(k1x, x, one));
    Value halfX = e.mul(x, e.constant(0.5));
    return e.mul(halfX, e.add(one, e.tanh(u)));
  }
  // Generic GELU_taylor<T>:
  // (0.5 * x) * (1 + tanh((k0 * x) * (1 + (k1 * x) * x))).
  Value one = e.constant(1.0);
  Value halfX = e.mul(e.constant(0.5), x);
  Value k0x = e.mul(e.constant(k0), x);
  Value k1xx = e.mul(e.mul(e.constant(k1), x), x);
  Value u = e.mul(k0x, e.add(one, k1xx));
  return e.mul(halfX, e.add(one, e.tanh(u)));
}

/// [Sigmoid] 1 / (1 + exp(-x)).
static Value emitSigmoid(Value x, ScalarEmitter &e) {
  Value one = e.constant(1.0);
  Value expNeg = e.exp(e.neg(x));
  return e.div(one, e.add(one, expNeg));
}

static Value lower(SigmoidOp, Value x, ScalarEmitter &e) {
  return emitSigmoid(x, e);
}

/// [SiLu] x * sigmoid(x).
static Value lower(SiluOp, Value x, ScalarEmitter &e) {
  return e.mul(x, emitSigmoid(x, e));
}

/// [Tanh] fast_tanh(x).
static Value lower(TanhOp, Value x, ScalarEmitter &e) { return e.tanh(x); }

/// [HardSwish] relu6 = min(max(x + 3, 0), 6) without NaN propagation, then
/// (x * relu6) * 0.16666667f for float and half_t, (x * relu6) / 6 otherwise.
static Value lower(HardSwishOp, Value x, ScalarEmitter &e) {
  FloatType type = e.getType();
  Value shifted = e.add(x, e.constant(3.0));
  Value atLeastZero = e.maxNoNaN(shifted, e.constant(0.0));
  Value six = e.constant(6.0);
  Value relu6 = e.minNoNaN(atLeastZero, six);
  Value product = e.mul(x, relu6);
  if (type.isF32() || type.isF16())
    return e.mul(product, e.constantFromFloat(0.16666667f));
  return e.div(product, six);
}

/// The formula of an activation without parameters (after every `lower`:
/// the call below is resolved where the template is defined).
template <typename OpTy>
static Value lowerWith(OpTy op, typename OpTy::Adaptor, Value x,
                       ScalarEmitter &e) {
  return lower(op, x, e);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Whether `op` carries fastmath<afn> (only the transcendental activations
/// take fastmath flags).
static bool allowsApprox(Operation *op) {
  auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
  return fm && arith::bitEnumContainsAny(fm.getFastMathFlagsAttr().getValue(),
                                         arith::FastMathFlags::afn);
}

namespace {
/// Replaces one activation with its formula.
template <typename OpTy>
struct LowerActivation : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput();
    auto type = dyn_cast<FloatType>(x.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "operand is not a float");
    if (!allowsApprox(op) || type.isF64()) {
      ScalarEmitter emitter(rewriter, op.getLoc(), type);
      rewriter.replaceOp(op, lowerWith(op, adaptor, x, emitter));
      return success();
    }
    // fastmath<afn>: in f32, whose approximate instructions PTX has.
    Location loc = op.getLoc();
    FloatType f32 = rewriter.getF32Type();
    Value wide = type == f32 ? x : arith::ExtFOp::create(rewriter, loc, f32, x);
    ScalarEmitter emitter(rewriter, loc, f32, /*approx=*/true);
    Value result = lowerWith(op, adaptor, wide, emitter);
    if (type != f32)
      result = arith::TruncFOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// identity needs no ops: its uses take the operand.
struct LowerIdentity : public OpConversionPattern<IdentityOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};
} // namespace

void mlir::epi::populateLowerActivationsPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerIdentity, LowerActivation<ReluOp>, LowerActivation<ClampOp>,
               LowerActivation<LeakyReluOp>, LowerActivation<ThresholdReluOp>,
               LowerActivation<GeluOp>, LowerActivation<GeluTaylorOp>,
               LowerActivation<SiluOp>, LowerActivation<SigmoidOp>,
               LowerActivation<TanhOp>, LowerActivation<HardSwishOp>>(
      patterns.getContext());
}

LogicalResult mlir::epi::lowerActivations(Operation *root) {
  MLIRContext *context = root->getContext();
  ConversionTarget target(*context);
  target.addLegalDialect<arith::ArithDialect, math::MathDialect>();
  target.addIllegalOp<IdentityOp, ReluOp, ClampOp, LeakyReluOp,
                      ThresholdReluOp, GeluOp, GeluTaylorOp, SiluOp, SigmoidOp,
                      TanhOp, HardSwishOp>();
  // Everything else (other epi ops, the GEMM, functions) stays as is.
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(context);
  populateLowerActivationsPatterns(patterns);
  return applyPartialConversion(root, target, std::move(patterns));
}

namespace {
struct EpiLowerActivationsPass
    : public epi::impl::EpiLowerActivationsBase<EpiLowerActivationsPass> {
  void runOnOperation() override {
    if (failed(lowerActivations(getOperation())))
      signalPassFailure();
  }
};
} // namespace
