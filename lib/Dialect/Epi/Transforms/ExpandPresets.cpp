//===- ExpandPresets.cpp - Expand epi.fusion presets ----------------------===//
//
// --epi-expand-presets rewrites each `epi.fusion` (a CUTLASS SM90
// FusionOperation) into the explicit EVT that CUTLASS instantiates for it:
// the trees of include/cutlass/epilogue/fusion/sm90_callbacks_tma_
// warpspecialized.hpp, node for node, with the argument names of their
// `Arguments` structs. The semantics come from there and from
// operations.hpp; per node:
//
//   Sm90ScalarBroadcast<.., N>   scalars multiplied left to right, first
//                                argument first (update_scalar in
//                                sm90_visitor_load_tma_warpspecialized.hpp)
//   Sm90ColBroadcast / RowBroadcast   epi.load_vec_m / epi.load_vec_n
//   Sm90SrcFetch                 epi.load_src, gated by beta when beta is a
//                                kernel parameter (the `beta * C + Z` tree
//                                visitor skips C when beta is zero)
//   Sm90Compute<multiplies>      arith.mulf
//   Sm90Compute<homogeneous_multiply_add>  math.fma (a * b + c; nvcc emits
//                                fma.rn for CUTLASS's multiply_add)
//   Sm90Compute<ActivationFn>    the epi activation op
//   Sm90AuxStore                 epi.aux_store (passes its input through)
//   Sm90ScalarReduction<amax>    epi.reduce_to_scalar absmax
//   root Sm90Compute<.., ElementOutput, .., RoundStyle>  epi.store (rn)
//
// Without a C operand on the enclosing op (CUTLASS's void ElementC), the
// beta * C term and its scalars are dropped, as CUTLASS does.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiPasses.h"

namespace mlir::epi {
#define GEN_PASS_DEF_EPIEXPANDPRESETS
#include "ws-gemm/Dialect/Epi/EpiPasses.h.inc"
} // namespace mlir::epi

using namespace mlir;
using namespace mlir::epi;

namespace {
/// Emits the ops of one preset before the preset.
class PresetExpander {
public:
  PresetExpander(FusionOp op, EpilogueOpInterface owner)
      : op(op), b(op), loc(op.getLoc()), f32(b.getF32Type()),
        info(getPresetInfo(op.getKind())), dType(owner.getDElementType()),
        cType(owner.getCElementType()) {}

  void expand();

private:
  Value param(StringRef name) {
    return ScalarOp::create(b, loc, f32, ScalarSource::param,
                            b.getStrArrayAttr({name}), FloatAttr());
  }
  Value pointer(StringRef name) {
    return ScalarOp::create(b, loc, f32, ScalarSource::ptr,
                            b.getStrArrayAttr({name}), FloatAttr());
  }
  /// alpha or beta: a kernel parameter, or an f32 vector by m or n
  /// (PerRow/PerCol presets, ElementScalar = ElementCompute = f32).
  Value scale(StringRef name) {
    switch (info.scale) {
    case PresetScale::Scalar:
      return param(name);
    case PresetScale::PerRow:
      return LoadVecMOp::create(b, loc, f32, name, f32);
    case PresetScale::PerCol:
      return LoadVecNOp::create(b, loc, f32, name, f32);
    }
    llvm_unreachable("unknown preset scale");
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulFOp::create(b, loc, lhs, rhs);
  }
  Value fma(Value a, Value m, Value c) {
    return math::FmaOp::create(b, loc, a, m, c);
  }
  /// `beta * C + z` (the homogeneous_multiply_add over Sm90SrcFetch), or z
  /// when the enclosing op has no C.
  Value addSource(Value z);
  /// (alpha [* scale_a * scale_b]) * acc [+ bias].
  Value scaledAccPlusBias();

  FusionOp op;
  OpBuilder b;
  Location loc;
  Type f32;
  PresetInfo info;
  Type dType;
  Type cType;
};
} // namespace

Value PresetExpander::addSource(Value z) {
  if (!info.source || !cType)
    return z;
  Value beta = scale("beta");
  // Sm90ScaledLinComb*: Sm90ScalarBroadcast<.., 2> over {beta, scale_c}.
  if (info.fp8Scaling)
    beta = mul(beta, pointer("scale_c"));
  // Only a by-value beta is known before C is loaded; vectors always load C.
  StringAttr gate =
      info.scale == PresetScale::Scalar ? b.getStringAttr("beta") : nullptr;
  Value c = LoadSrcOp::create(b, loc, f32, gate);
  return fma(beta, c, z);
}

Value PresetExpander::scaledAccPlusBias() {
  Value alpha = scale("alpha");
  // Sm90ScaledLinComb*: Sm90ScalarBroadcast<.., 3> over
  // {alpha, scale_a, scale_b}, i.e. (alpha * scale_a) * scale_b.
  if (info.fp8Scaling) {
    alpha = mul(alpha, pointer("scale_a"));
    alpha = mul(alpha, pointer("scale_b"));
  }
  Value acc = op.getAcc();
  if (info.bias == PresetBias::None)
    return mul(alpha, acc); // Sm90Compute<multiplies>: alpha * acc
  // ElementBias defaults to ElementOutput (operations.hpp).
  Type biasType = op.getBiasType().value_or(dType);
  Value bias = info.bias == PresetBias::PerRow
                   ? Value(LoadVecMOp::create(b, loc, f32, "bias", biasType))
                   : Value(LoadVecNOp::create(b, loc, f32, "bias", biasType));
  return fma(alpha, acc, bias); // homogeneous_multiply_add: alpha*acc + bias
}

void PresetExpander::expand() {
  Value d;
  if (info.residual) {
    // Sm90PerColResAddPerColBiasEltAct:
    //   D = beta * C + activation(alpha * acc + bias).
    Value z = scaledAccPlusBias();
    d = addSource(buildActivation(b, loc, op.getActivationAttr(), z));
  } else {
    // Z = beta * C + (alpha * acc + bias), the shared subtree of every other
    // preset (Sm90LinearCombination, Sm90LinCombPer{Row,Col}Bias,
    // Sm90Per{Row,Col}LinCombPer{Row,Col}Bias, Sm90ScaledLinCombPer*Bias).
    Value z = addSource(scaledAccPlusBias());
    bool auxFp8 = false;
    if (info.aux) {
      // ElementAux defaults to ElementOutput (operations.hpp).
      Type auxType = op.getAuxType().value_or(dType);
      auxFp8 = isFloat8Type(auxType);
      if (!(info.amax && auxFp8)) {
        // Sm90AuxStore over Z, before the activation; LinComb*Aux and the
        // non-fp8-aux Sm90ScaledLinComb*AmaxAuxNotFp8: Aux = Z.
        AuxStoreOp::create(b, loc, z, "aux", auxType);
      } else {
        // Sm90ScaledLinComb*AmaxAuxFp8, aux branch of the split tree:
        //   amax_aux = max(abs(Z)); Aux = Z * scale_aux.
        ReduceToScalarOp::create(b, loc, ReduceKind::absmax, z, "amax_aux");
        Value scaled = mul(z, pointer("scale_aux"));
        AuxStoreOp::create(b, loc, scaled, "aux", auxType);
      }
    }
    d = info.activation ? buildActivation(b, loc, op.getActivationAttr(), z)
                        : z;
    // ScaleOutOp: D = activation(Z) * scale_d only when D is fp8, else
    // `first` (scale_d unused). amax_d is reduced over activation(Z) before
    // scale_d, and only for an fp8 D (the Arguments conversion nulls
    // amax_D_ptr otherwise).
    if (info.fp8Scaling && isFloat8Type(dType)) {
      if (info.amax)
        ReduceToScalarOp::create(b, loc, ReduceKind::absmax, d, "amax_d");
      d = mul(d, pointer("scale_d"));
    }
  }
  StoreOp::create(b, loc, d, RoundingMode::rn);
  op.erase();
}

LogicalResult mlir::epi::expandPreset(FusionOp op) {
  EpilogueOpInterface owner = getEnclosingEpilogue(op);
  if (!owner)
    return op.emitOpError()
           << "can only be expanded directly inside an epilogue region";
  PresetExpander(op, owner).expand();
  return success();
}

namespace {
struct EpiExpandPresetsPass
    : public epi::impl::EpiExpandPresetsBase<EpiExpandPresetsPass> {
  void runOnOperation() override {
    SmallVector<FusionOp> presets;
    getOperation()->walk([&](FusionOp op) { presets.push_back(op); });
    for (FusionOp op : presets)
      if (failed(expandPreset(op)))
        return signalPassFailure();
  }
};
} // namespace
