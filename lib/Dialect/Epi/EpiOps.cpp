//===- EpiOps.cpp - Epilogue Visitor Tree ops -----------------------------===//
//
// Verifiers for epi leaves, compute (activation parameters: a constant or
// a launch-time operand) and outputs, the preset table, the activation
// builder, and folders. The rules of a whole epilogue region are
// EpilogueRegion.cpp.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::epi;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

EpilogueOpInterface mlir::epi::getEnclosingEpilogue(Operation *op) {
  return dyn_cast_if_present<EpilogueOpInterface>(op->getParentOp());
}

LogicalResult mlir::epi::verifyInEpilogue(Operation *op) {
  if (getEnclosingEpilogue(op))
    return success();
  return op->emitOpError()
         << "must be directly inside an epilogue region (an op implementing "
            "EpilogueOpInterface, such as wsgemm.gemm): it reads or writes "
            "per-element GEMM state that exists nowhere else";
}

bool mlir::epi::isFloat8Type(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// PTX converts to 8-bit floats only with cvt.rn.satfinite.
static LogicalResult verifyRounding(Operation *op, Type target,
                                    RoundingMode rounding) {
  if (isFloat8Type(target) && rounding != RoundingMode::rn)
    return op->emitOpError()
           << "conversion to " << target << " supports only 'rn' rounding "
           << "(PTX cvt.rn.satfinite), got '" << stringifyRoundingMode(rounding)
           << "'";
  return success();
}

static LogicalResult verifyName(Operation *op, StringRef name) {
  if (name.empty())
    return op->emitOpError() << "needs a non-empty name: names become kernel "
                                "parameters in the manifest";
  return success();
}

//===----------------------------------------------------------------------===//
// Leaves
//===----------------------------------------------------------------------===//

/// Whether `block` holds an `epi.scalar param` naming `name`.
static bool hasScalar(Block *block, StringRef name, ScalarSource source) {
  for (auto scalar : block->getOps<ScalarOp>()) {
    ArrayAttr names = scalar.getNamesAttr();
    if (scalar.getSource() != source || !names)
      continue;
    // Siblings may not be verified yet: tolerate non-string entries.
    for (Attribute attr : names)
      if (auto str = dyn_cast<StringAttr>(attr); str && str.getValue() == name)
        return true;
  }
  return false;
}

LogicalResult LoadSrcOp::verify() {
  EpilogueOpInterface owner = getEnclosingEpilogue(*this);
  if (owner && !owner.getCElementType())
    return emitOpError() << "reads the source matrix C, but the enclosing '"
                         << owner->getName() << "' declares no C operand";
  std::optional<StringRef> gate = getSkipIfZero();
  if (!gate)
    return success();
  if (failed(verifyName(*this, *gate)))
    return failure();
  // The gate is a by-value f32 kernel parameter: the one an `epi.scalar
  // param` of the same name reads, or, when none does (canonicalization
  // may drop an unused one), a parameter of its own.
  if (owner &&
      hasScalar(getOperation()->getBlock(), *gate, ScalarSource::ptr))
    return emitOpError()
           << "skip_if_zero names '" << *gate
           << "', which an 'epi.scalar ptr' reads from device memory: only "
              "a by-value kernel parameter is known before C is loaded";
  return success();
}

LogicalResult ScalarOp::verify() {
  if (getSource() == ScalarSource::attr) {
    if (!getValue() || getNames())
      return emitOpError() << "with source 'attr' needs a value and no names";
    // The constant must survive conversion to the result type.
    APFloat value = *getValue();
    if (value.isFinite()) {
      bool losesInfo = false;
      auto status =
          value.convert(cast<FloatType>(getType()).getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
      if (status & APFloat::opOverflow)
        return emitOpError() << "value " << getValueAttr().getValueAsDouble()
                             << " must be representable in the result type "
                             << getType() << ", but it overflows";
    }
    return success();
  }
  if (getValue())
    return emitOpError() << "with source '"
                         << stringifyScalarSource(getSource())
                         << "' takes names, not a value";
  ArrayAttr names = getNamesAttr();
  if (!names || names.empty())
    return emitOpError() << "with source '"
                         << stringifyScalarSource(getSource())
                         << "' needs at least one name";
  llvm::StringSet<> seen;
  for (Attribute name : names) {
    StringRef str = cast<StringAttr>(name).getValue();
    if (failed(verifyName(*this, str)))
      return failure();
    if (!seen.insert(str).second)
      return emitOpError() << "names scalar '" << str << "' twice";
  }
  return success();
}

LogicalResult LoadVecMOp::verify() { return verifyName(*this, getName()); }
LogicalResult LoadVecNOp::verify() { return verifyName(*this, getName()); }
LogicalResult AuxLoadOp::verify() { return verifyName(*this, getName()); }

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

OpFoldResult IdentityOp::fold(FoldAdaptor) { return getInput(); }

//===----------------------------------------------------------------------===//
// Activation parameters: a constant attribute or a launch-time operand
//===----------------------------------------------------------------------===//

/// custom<ActivationParam>: an SSA operand (a launch-time value) or a float
/// literal (an F64 attribute, a compile-time constant).
static ParseResult
parseActivationParam(OpAsmParser &parser,
                     std::optional<OpAsmParser::UnresolvedOperand> &operand,
                     FloatAttr &attr) {
  OpAsmParser::UnresolvedOperand value;
  OptionalParseResult parsed = parser.parseOptionalOperand(value);
  if (parsed.has_value()) {
    if (failed(*parsed))
      return failure();
    operand = value;
    return success();
  }
  return parser.parseAttribute(attr, parser.getBuilder().getF64Type());
}

static void printActivationParam(OpAsmPrinter &printer, Operation *,
                                 Value operand, FloatAttr attr) {
  if (operand)
    printer << operand;
  else if (attr)
    printer.printAttributeWithoutType(attr);
}

/// A parameter is given exactly once: as a constant attribute or as an
/// operand; `required` ones must be given.
static LogicalResult verifyActivationParam(Operation *op, StringRef name,
                                           Value operand, Attribute attr,
                                           bool required) {
  if (operand && attr)
    return op->emitOpError()
           << "gives '" << name
           << "' both as an attribute and as an operand; an activation "
              "parameter is either a compile-time constant (attribute) or a "
              "launch-time value (operand), not both";
  if (required && !operand && !attr)
    return op->emitOpError()
           << "needs '" << name
           << "', as a compile-time constant (attribute) or a launch-time "
              "value (operand)";
  return success();
}

LogicalResult ClampOp::verify() {
  if (failed(verifyActivationParam(*this, "lower", getLowerOperand(),
                                   getLowerAttr(), /*required=*/true)) ||
      failed(verifyActivationParam(*this, "upper", getUpperOperand(),
                                   getUpperAttr(), /*required=*/true)))
    return failure();
  // Launch-time bounds are the caller's: CUTLASS does not check them either.
  if (getLower() && getUpper() &&
      getLower()->convertToDouble() > getUpper()->convertToDouble())
    return emitOpError() << "needs lower <= upper, got lower = "
                         << getLower()->convertToDouble()
                         << " and upper = " << getUpper()->convertToDouble();
  return success();
}

LogicalResult LeakyReluOp::verify() {
  return verifyActivationParam(*this, "leaky_alpha", getLeakyAlphaOperand(),
                               getLeakyAlphaAttr(), /*required=*/true);
}

LogicalResult ThresholdReluOp::verify() {
  if (failed(verifyActivationParam(*this, "threshold", getThresholdOperand(),
                                   getThresholdAttr(), /*required=*/true)))
    return failure();
  return verifyActivationParam(*this, "upper_bound", getUpperBoundOperand(),
                               getUpperBoundAttr(), /*required=*/false);
}

LogicalResult ConvertOp::verify() {
  return verifyRounding(*this, getType(), getRounding());
}

OpFoldResult ConvertOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

LogicalResult StoreOp::verify() {
  EpilogueOpInterface owner = getEnclosingEpilogue(*this);
  if (!owner)
    return success(); // Reported by the InEpilogue trait.
  Type d = owner.getDElementType();
  if (failed(verifyRounding(*this, d, getRounding())))
    return failure();
  if (!isReduce())
    return success();
  // PTX's reductions into global memory (cp.reduce.async.bulk.tensor,
  // red.global): add for f32, f16 and bf16; min and max for f16 and bf16
  // only; nothing for 8-bit floats.
  StringRef kind = stringifyStoreReduceKind(getReduce());
  if (!d.isF32() && !d.isF16() && !d.isBF16())
    return emitOpError() << "'reduce " << kind << "' into D of type " << d
                         << ": PTX reduces into global memory only f32, f16 "
                            "and bf16 (cp.reduce.async.bulk.tensor, "
                            "red.global), not 8-bit floats";
  if (d.isF32() && getReduce() != StoreReduceKind::add)
    return emitOpError() << "'reduce " << kind
                         << "' into f32 D: PTX has min and max reductions "
                            "for f16 and bf16 only (f32 has add)";
  return success();
}

LogicalResult AuxStoreOp::verify() { return verifyName(*this, getName()); }
LogicalResult ReduceToVecMOp::verify() { return verifyName(*this, getName()); }
LogicalResult ReduceToVecNOp::verify() { return verifyName(*this, getName()); }
LogicalResult ReduceToScalarOp::verify() {
  return verifyName(*this, getName());
}

//===----------------------------------------------------------------------===//
// Presets
//===----------------------------------------------------------------------===//

// The table follows include/cutlass/epilogue/fusion/operations.hpp: each
// FusionOperation's Is*Supported flags and its inheritance chain.
PresetInfo mlir::epi::getPresetInfo(FusionKind kind) {
  PresetInfo info;
  StringRef name = stringifyFusionKind(kind);
  info.source = kind != FusionKind::ScaledAcc;
  info.activation = name.contains("EltAct");
  info.aux = name.ends_with("Aux");
  info.fp8Scaling = name.starts_with("Scaled") && kind != FusionKind::ScaledAcc;
  info.amax = name.contains("Amax");
  info.residual = name.contains("ResAdd");
  if (name.contains("PerRowBias"))
    info.bias = PresetBias::PerRow;
  else if (name.contains("PerColBias"))
    info.bias = PresetBias::PerCol;
  if (name.starts_with("PerRow"))
    info.scale = PresetScale::PerRow;
  else if (name.starts_with("PerCol"))
    info.scale = PresetScale::PerCol;
  return info;
}

ParseResult FusionOp::parse(OpAsmParser &parser, OperationState &result) {
  Properties &props = result.getOrAddProperties<Properties>();
  FailureOr<FusionKind> kind = FieldParser<FusionKind>::parse(parser);
  if (failed(kind))
    return failure();
  props.kind = *kind;
  OpAsmParser::UnresolvedOperand acc;
  if (parser.parseOperand(acc))
    return failure();
  Type type;
  if (succeeded(parser.parseOptionalKeyword("activation"))) {
    ActivationAttr activation;
    if (parseActivationWithTrailingType(parser, activation, type))
      return failure();
    props.activation = activation;
  }
  // A type consumed with the activation ends the op.
  if (!type) {
    Type elemType;
    if (succeeded(parser.parseOptionalKeyword("bias"))) {
      if (parser.parseType(elemType))
        return failure();
      props.bias_type = TypeAttr::get(elemType);
    }
    if (succeeded(parser.parseOptionalKeyword("aux"))) {
      if (parser.parseType(elemType))
        return failure();
      props.aux_type = TypeAttr::get(elemType);
    }
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseOptionalAttrDict(result.attributes) ||
        failed(verifyInherentAttrs(result.name, result.attributes,
                                   [&] {
                                     return parser.emitError(loc)
                                            << "'" << result.name.getStringRef()
                                            << "' op ";
                                   })) ||
        parser.parseColonType(type))
      return failure();
  }
  return parser.resolveOperand(acc, type, result.operands);
}

void FusionOp::print(OpAsmPrinter &printer) {
  printer << ' ' << stringifyFusionKind(getKind()) << ' ' << getAcc();
  if (ActivationAttr activation = getActivationAttr()) {
    printer << " activation ";
    printer.printAttribute(activation);
  }
  if (std::optional<Type> bias = getBiasType())
    printer << " bias " << *bias;
  if (std::optional<Type> aux = getAuxType())
    printer << " aux " << *aux;
  printer.printOptionalAttrDict(
      (*this)->getAttrs(), {"kind", "activation", "bias_type", "aux_type"});
  printer << " : " << getAcc().getType();
}

LogicalResult FusionOp::verify() {
  PresetInfo info = getPresetInfo(getKind());
  StringRef name = stringifyFusionKind(getKind());
  if (info.activation && !getActivation())
    return emitOpError() << "preset " << name
                         << " needs an activation (its name has EltAct)";
  if (!info.activation && getActivation())
    return emitOpError() << "preset " << name << " takes no activation, got "
                         << stringifyActivationKind(
                                getActivationAttr().getKind());
  if (info.bias == PresetBias::None && getBiasType())
    return emitOpError() << "preset " << name
                         << " has no bias vector, so it takes no bias type";
  if (!info.aux && getAuxType())
    return emitOpError() << "preset " << name
                         << " has no aux output, so it takes no aux type";
  // The bias and aux types default to D's type, which must then be one a
  // vector or matrix can hold.
  EpilogueOpInterface owner = getEnclosingEpilogue(*this);
  if (!owner)
    return success(); // Reported by the InEpilogue trait.
  Type dType = owner.getDElementType();
  bool dIsMemType =
      isa<Float16Type, BFloat16Type, Float32Type>(dType) || isFloat8Type(dType);
  auto checkDefault = [&](bool used, std::optional<Type> given,
                          StringRef what) -> LogicalResult {
    if (!used || given || dIsMemType)
      return success();
    return emitOpError() << "preset " << name << " defaults its " << what
                         << " type to the D type " << dType
                         << ", which must then be f16, bf16, f32, f8E4M3FN or "
                            "f8E5M2; give an explicit `"
                         << what << " <type>`";
  };
  if (failed(
          checkDefault(info.bias != PresetBias::None, getBiasType(), "bias")) ||
      failed(checkDefault(info.aux, getAuxType(), "aux")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Activation builder
//===----------------------------------------------------------------------===//

namespace {
/// One parameter of an #epi.activation as an op takes it: a constant
/// attribute, or an operand (an epi.scalar built for a launch-time one).
struct BuiltParam {
  Value operand;
  FloatAttr attr;
};
} // namespace

static BuiltParam getParam(OpBuilder &b, Location loc, ActivationAttr act,
                           StringRef name, Type type) {
  DictionaryAttr params = act.getParams();
  Attribute value = params ? params.get(name) : Attribute();
  if (auto constant = dyn_cast_if_present<FloatAttr>(value))
    return {Value(), b.getF64FloatAttr(constant.getValueAsDouble())};
  if (auto ref = dyn_cast_if_present<ScalarRefAttr>(value))
    return {ScalarOp::create(b, loc, type, ref.getSource(),
                             b.getStrArrayAttr({ref.getName()}), FloatAttr()),
            FloatAttr()};
  return {};
}

Value mlir::epi::buildActivation(OpBuilder &b, Location loc, ActivationAttr act,
                                 Value x) {
  Type type = x.getType();
  auto param = [&](StringRef name) {
    return getParam(b, loc, act, name, type);
  };
  switch (act.getKind()) {
  case ActivationKind::identity:
    return IdentityOp::create(b, loc, x);
  case ActivationKind::relu:
    return ReluOp::create(b, loc, x);
  case ActivationKind::clamp: {
    BuiltParam lower = param("lower"), upper = param("upper");
    return ClampOp::create(b, loc, x, lower.operand, upper.operand, lower.attr,
                           upper.attr);
  }
  case ActivationKind::leaky_relu: {
    BuiltParam alpha = param("leaky_alpha");
    return LeakyReluOp::create(b, loc, x, alpha.operand, alpha.attr);
  }
  case ActivationKind::threshold_relu: {
    BuiltParam threshold = param("threshold"), upper = param("upper_bound");
    return ThresholdReluOp::create(b, loc, x, threshold.operand,
                                   upper.operand, threshold.attr, upper.attr);
  }
  case ActivationKind::gelu:
    return GeluOp::create(b, loc, x);
  case ActivationKind::gelu_taylor:
    return GeluTaylorOp::create(b, loc, x);
  case ActivationKind::silu:
    return SiluOp::create(b, loc, x);
  case ActivationKind::sigmoid:
    return SigmoidOp::create(b, loc, x);
  case ActivationKind::tanh:
    return TanhOp::create(b, loc, x);
  case ActivationKind::hardswish:
    return HardSwishOp::create(b, loc, x);
  }
  llvm_unreachable("unknown activation kind");
}

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/Epi/EpiOps.cpp.inc"
