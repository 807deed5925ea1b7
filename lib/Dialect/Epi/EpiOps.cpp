//===- EpiOps.cpp - Epilogue Visitor Tree ops -----------------------------===//
//
// Verifiers for epi leaves, compute and outputs, the epilogue-region rules
// shared by every op that owns an epilogue, and folders.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringMap.h"
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

static bool isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// PTX converts to 8-bit floats only with cvt.rn.satfinite.
static LogicalResult verifyRounding(Operation *op, Type target,
                                    RoundingMode rounding) {
  if (isFloat8(target) && rounding != RoundingMode::rn)
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

LogicalResult LoadSrcOp::verify() {
  EpilogueOpInterface owner = getEnclosingEpilogue(*this);
  if (owner && !owner.getCElementType())
    return emitOpError() << "reads the source matrix C, but the enclosing '"
                         << owner->getName() << "' declares no C operand";
  return success();
}

LogicalResult ScalarOp::verify() {
  if (getSource() == ScalarSource::attr) {
    if (!getValue() || getNames())
      return emitOpError() << "with source 'attr' needs a value and no names";
    return success();
  }
  if (getValue())
    return emitOpError() << "with source '" << stringifyScalarSource(getSource())
                         << "' takes names, not a value";
  ArrayAttr names = getNamesAttr();
  if (!names || names.empty())
    return emitOpError() << "with source '" << stringifyScalarSource(getSource())
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

LogicalResult ClampOp::verify() {
  if (getLower().convertToDouble() > getUpper().convertToDouble())
    return emitOpError() << "needs lower <= upper, got lower = "
                         << getLower().convertToDouble()
                         << " and upper = " << getUpper().convertToDouble();
  return success();
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
  return verifyRounding(*this, owner.getDElementType(), getRounding());
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

namespace {
/// What a preset reads beyond alpha/beta/C, derived from its CUTLASS name.
struct PresetTraits {
  bool activation = false;
  bool bias = false;
  bool aux = false;
};
} // namespace

static PresetTraits getPresetTraits(FusionKind kind) {
  StringRef name = stringifyFusionKind(kind);
  PresetTraits traits;
  traits.activation = name.contains("EltAct");
  traits.bias = name.contains("Bias");
  traits.aux = name.ends_with("Aux");
  return traits;
}

LogicalResult FusionOp::verify() {
  PresetTraits traits = getPresetTraits(getKind());
  StringRef name = stringifyFusionKind(getKind());
  if (traits.activation && !getActivation())
    return emitOpError() << "preset " << name << " needs an activation";
  if (!traits.activation && getActivation())
    return emitOpError() << "preset " << name << " takes no activation";
  if (!traits.bias && getBiasType())
    return emitOpError() << "preset " << name << " has no bias";
  if (!traits.aux && getAuxType())
    return emitOpError() << "preset " << name << " has no aux output";
  return success();
}

//===----------------------------------------------------------------------===//
// Epilogue region rules
//===----------------------------------------------------------------------===//

static bool isScalar(Type type) {
  return isa<FloatType, IntegerType, IndexType>(type);
}

namespace {
/// One use of a manifest name by a leaf or an output.
struct NameUse {
  Operation *op;
  Type elemType;
};
} // namespace

/// The (name, element type) pairs an op introduces into the manifest.
static SmallVector<std::pair<StringRef, Type>> getNamedOperands(Operation *op) {
  SmallVector<std::pair<StringRef, Type>> result;
  Type f32 = Float32Type::get(op->getContext());
  if (auto scalar = dyn_cast<ScalarOp>(op)) {
    if (auto names = scalar.getNames())
      for (Attribute name : *names)
        result.push_back({cast<StringAttr>(name).getValue(), f32});
  } else if (auto vec = dyn_cast<LoadVecMOp>(op)) {
    result.push_back({vec.getName(), vec.getElemType()});
  } else if (auto vec = dyn_cast<LoadVecNOp>(op)) {
    result.push_back({vec.getName(), vec.getElemType()});
  } else if (auto aux = dyn_cast<AuxLoadOp>(op)) {
    result.push_back({aux.getName(), aux.getElemType()});
  } else if (auto aux = dyn_cast<AuxStoreOp>(op)) {
    result.push_back({aux.getName(), aux.getElemType()});
  } else if (auto red = dyn_cast<ReduceToVecMOp>(op)) {
    result.push_back({red.getName(), f32});
  } else if (auto red = dyn_cast<ReduceToVecNOp>(op)) {
    result.push_back({red.getName(), f32});
  } else if (auto red = dyn_cast<ReduceToScalarOp>(op)) {
    result.push_back({red.getName(), f32});
  }
  return result;
}

LogicalResult mlir::epi::verifyEpilogueRegion(EpilogueOpInterface owner) {
  Region &region = owner.getEpilogueRegion();
  if (!region.hasOneBlock())
    return owner->emitOpError() << "epilogue region must have exactly one block";
  Block &block = region.front();
  if (block.getNumArguments() != 1 || !block.getArgument(0).getType().isF32())
    return owner->emitOpError()
           << "epilogue region must have exactly one f32 block argument (the "
              "accumulator element)";

  Operation *dStore = nullptr;
  bool hasOutput = false;
  llvm::StringMap<NameUse> names;
  for (Operation &op : block) {
    Dialect *dialect = op.getDialect();
    StringRef ns = dialect ? dialect->getNamespace() : StringRef();
    if (ns != "epi" && ns != "arith" && ns != "math")
      return op.emitOpError()
             << "is not allowed in an epilogue: only epi, arith and math ops "
                "on scalars may appear there";
    if (op.getNumRegions() != 0)
      return op.emitOpError() << "has regions; epilogue ops must be flat";
    for (Type type : llvm::concat<Type>(llvm::to_vector(op.getOperandTypes()),
                                        llvm::to_vector(op.getResultTypes())))
      if (!isScalar(type))
        return op.emitOpError()
               << "uses a value of type " << type
               << "; epilogue values are scalars (one output element)";

    if (isa<StoreOp, FusionOp>(op)) {
      if (dStore)
        return op.emitOpError() << "stores D a second time; an epilogue has "
                                   "at most one D store"
                                << " (the first is at " << dStore->getLoc()
                                << ")";
      dStore = &op;
    }
    if (isa<StoreOp, FusionOp, AuxStoreOp, ReduceToVecMOp, ReduceToVecNOp,
            ReduceToScalarOp>(op))
      hasOutput = true;

    for (auto [name, type] : getNamedOperands(&op)) {
      auto [it, inserted] = names.try_emplace(name, NameUse{&op, type});
      if (inserted)
        continue;
      NameUse &prev = it->second;
      if (prev.op->getName() != op.getName() || prev.elemType != type ||
          isa<AuxStoreOp, ReduceToVecMOp, ReduceToVecNOp, ReduceToScalarOp>(
              op))
        return op.emitOpError()
               << "uses the name '" << name << "' already used by '"
               << prev.op->getName() << "' with element type " << prev.elemType
               << "; each name is one manifest parameter of one kind and type";
    }
  }
  if (!hasOutput)
    return owner->emitOpError()
           << "epilogue has no output: it needs an epi.store, epi.aux_store, "
              "a reduction or an epi.fusion preset";
  return success();
}

//===----------------------------------------------------------------------===//
// Activation builder
//===----------------------------------------------------------------------===//

static double getParam(ActivationAttr act, StringRef name) {
  return cast<FloatAttr>(act.getParams().get(name)).getValueAsDouble();
}

Value mlir::epi::buildActivation(OpBuilder &b, Location loc,
                                 ActivationAttr act, Value x) {
  switch (act.getKind()) {
  case ActivationKind::identity:
    return IdentityOp::create(b, loc, x);
  case ActivationKind::relu:
    return ReluOp::create(b, loc, x);
  case ActivationKind::clamp:
    return ClampOp::create(b, loc, x, b.getF64FloatAttr(getParam(act, "lower")),
                           b.getF64FloatAttr(getParam(act, "upper")));
  case ActivationKind::leaky_relu:
    return LeakyReluOp::create(b, loc, x,
                               b.getF64FloatAttr(getParam(act, "alpha")));
  case ActivationKind::threshold_relu:
    return ThresholdReluOp::create(
        b, loc, x, b.getF64FloatAttr(getParam(act, "threshold")),
        b.getF64FloatAttr(getParam(act, "value")));
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
