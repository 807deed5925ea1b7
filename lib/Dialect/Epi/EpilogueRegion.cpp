//===- EpilogueRegion.cpp - Rules of an epilogue region ------------------===//
//
// verifyEpilogueRegion(), shared by every op that owns an epilogue
// (wsgemm.gemm, epi.visit): one D store, at least one output, and the
// manifest names its ops introduce (epi.scalar, vectors, aux tensors,
// reductions, presets' operands) consistent: one kind and one element type
// per name, each output written once. The ops' own verifiers are EpiOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::epi;

static bool isScalar(Type type) {
  return isa<FloatType, IntegerType, IndexType>(type);
}

namespace {
/// The kind of manifest parameter a name denotes. A name has one kind and one
/// element type per epilogue; inputs may be read several times, outputs are
/// written once.
enum class NameKind {
  ScalarParam,
  ScalarPtr,
  VecM,
  VecN,
  AuxLoad,
  AuxStore,
  ReduceVecM,
  ReduceVecN,
  ReduceScalar,
};

/// One manifest name introduced by an op.
struct NamedParam {
  StringRef name;
  NameKind kind;
  Type elemType;
};

/// The first use of a name.
struct NameUse {
  Operation *op;
  NameKind kind;
  Type elemType;
};
} // namespace

static bool isOutput(NameKind kind) {
  return kind == NameKind::AuxStore || kind == NameKind::ReduceVecM ||
         kind == NameKind::ReduceVecN || kind == NameKind::ReduceScalar;
}

static StringRef describe(NameKind kind) {
  switch (kind) {
  case NameKind::ScalarParam:
    return "a scalar kernel parameter (epi.scalar param)";
  case NameKind::ScalarPtr:
    return "a scalar device pointer (epi.scalar ptr)";
  case NameKind::VecM:
    return "a vector indexed by m (epi.load_vec_m)";
  case NameKind::VecN:
    return "a vector indexed by n (epi.load_vec_n)";
  case NameKind::AuxLoad:
    return "an aux input matrix (epi.aux_load)";
  case NameKind::AuxStore:
    return "an aux output matrix (epi.aux_store)";
  case NameKind::ReduceVecM:
    return "a reduction to a vector indexed by m (epi.reduce_to_vec_m)";
  case NameKind::ReduceVecN:
    return "a reduction to a vector indexed by n (epi.reduce_to_vec_n)";
  case NameKind::ReduceScalar:
    return "a reduction to a scalar (epi.reduce_to_scalar)";
  }
  llvm_unreachable("unknown name kind");
}

/// The manifest names a preset introduces once expanded; mirrors
/// --epi-expand-presets (ExpandPresets.cpp) so that conflicts with the rest
/// of the epilogue are reported on the preset itself.
static SmallVector<NamedParam> getPresetNames(FusionOp op,
                                              EpilogueOpInterface owner) {
  SmallVector<NamedParam> result;
  Type f32 = Float32Type::get(op.getContext());
  Type dType = owner.getDElementType();
  bool hasC = static_cast<bool>(owner.getCElementType());
  PresetInfo info = getPresetInfo(op.getKind());
  NameKind scaleKind = info.scale == PresetScale::PerRow ? NameKind::VecM
                       : info.scale == PresetScale::PerCol
                           ? NameKind::VecN
                           : NameKind::ScalarParam;
  bool readsC = info.source && hasC;
  result.push_back({"alpha", scaleKind, f32});
  if (readsC)
    result.push_back({"beta", scaleKind, f32});
  if (info.fp8Scaling) {
    result.push_back({"scale_a", NameKind::ScalarPtr, f32});
    result.push_back({"scale_b", NameKind::ScalarPtr, f32});
    if (readsC)
      result.push_back({"scale_c", NameKind::ScalarPtr, f32});
    if (isFloat8Type(dType))
      result.push_back({"scale_d", NameKind::ScalarPtr, f32});
  }
  if (info.bias != PresetBias::None) {
    Type biasType = op.getBiasType().value_or(dType);
    result.push_back(
        {"bias",
         info.bias == PresetBias::PerRow ? NameKind::VecM : NameKind::VecN,
         biasType});
  }
  if (info.aux) {
    Type auxType = op.getAuxType().value_or(dType);
    result.push_back({"aux", NameKind::AuxStore, auxType});
    if (info.amax && isFloat8Type(auxType)) {
      result.push_back({"amax_aux", NameKind::ReduceScalar, f32});
      result.push_back({"scale_aux", NameKind::ScalarPtr, f32});
    }
  }
  if (info.amax && isFloat8Type(dType))
    result.push_back({"amax_d", NameKind::ReduceScalar, f32});
  // The activation's launch-time parameters.
  if (ActivationAttr act = op.getActivationAttr())
    if (DictionaryAttr params = act.getParams())
      for (NamedAttribute param : params)
        if (auto ref = dyn_cast<ScalarRefAttr>(param.getValue()))
          result.push_back({ref.getName(),
                            ref.getSource() == ScalarSource::ptr
                                ? NameKind::ScalarPtr
                                : NameKind::ScalarParam,
                            f32});
  return result;
}

/// The manifest names an op introduces.
static SmallVector<NamedParam> getNamedParams(Operation *op,
                                              EpilogueOpInterface owner) {
  SmallVector<NamedParam> result;
  Type f32 = Float32Type::get(op->getContext());
  if (auto scalar = dyn_cast<ScalarOp>(op)) {
    NameKind kind = scalar.getSource() == ScalarSource::ptr
                        ? NameKind::ScalarPtr
                        : NameKind::ScalarParam;
    if (ArrayAttr names = scalar.getNamesAttr())
      for (Attribute name : names)
        result.push_back({cast<StringAttr>(name).getValue(), kind, f32});
  } else if (auto vec = dyn_cast<LoadVecMOp>(op)) {
    result.push_back({vec.getName(), NameKind::VecM, vec.getElemType()});
  } else if (auto vec = dyn_cast<LoadVecNOp>(op)) {
    result.push_back({vec.getName(), NameKind::VecN, vec.getElemType()});
  } else if (auto aux = dyn_cast<AuxLoadOp>(op)) {
    result.push_back({aux.getName(), NameKind::AuxLoad, aux.getElemType()});
  } else if (auto aux = dyn_cast<AuxStoreOp>(op)) {
    result.push_back({aux.getName(), NameKind::AuxStore, aux.getElemType()});
  } else if (auto red = dyn_cast<ReduceToVecMOp>(op)) {
    result.push_back({red.getName(), NameKind::ReduceVecM, f32});
  } else if (auto red = dyn_cast<ReduceToVecNOp>(op)) {
    result.push_back({red.getName(), NameKind::ReduceVecN, f32});
  } else if (auto red = dyn_cast<ReduceToScalarOp>(op)) {
    result.push_back({red.getName(), NameKind::ReduceScalar, f32});
  } else if (auto fusion = dyn_cast<FusionOp>(op)) {
    result = getPresetNames(fusion, owner);
  }
  return result;
}

/// Records the names `op` introduces, rejecting a name reused with another
/// kind or element type, and an output name written twice.
static LogicalResult recordNames(Operation &op, EpilogueOpInterface owner,
                                 llvm::StringMap<NameUse> &names) {
  for (NamedParam param : getNamedParams(&op, owner)) {
    auto [it, inserted] =
        names.try_emplace(param.name, NameUse{&op, param.kind, param.elemType});
    if (inserted)
      continue;
    NameUse &prev = it->second;
    if (prev.kind == param.kind && prev.elemType == param.elemType &&
        !isOutput(param.kind))
      continue;
    InFlightDiagnostic diag = op.emitOpError();
    if (prev.kind == param.kind && prev.elemType == param.elemType)
      diag << "writes the output '" << param.name
           << "' a second time; each output name is written once";
    else
      diag << "uses the name '" << param.name << "' as " << describe(param.kind)
           << " of " << param.elemType << ", but it already denotes "
           << describe(prev.kind) << " of " << prev.elemType
           << "; each name is one manifest parameter of one kind and type";
    diag.attachNote(prev.op->getLoc()) << "first used here";
    return diag;
  }
  return success();
}

LogicalResult mlir::epi::verifyEpilogueRegion(EpilogueOpInterface owner) {
  Region &region = owner.getEpilogueRegion();
  if (!region.hasOneBlock())
    return owner->emitOpError()
           << "epilogue region must have exactly one block, got "
           << region.getBlocks().size();
  Block &block = region.front();
  if (block.getNumArguments() != 1 || !block.getArgument(0).getType().isF32())
    return owner->emitOpError()
           << "epilogue region must have exactly one f32 block argument (the "
              "accumulator element), got "
           << block.getNumArguments() << " argument(s)";

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
    for (Type type : llvm::concat<Type>(llvm::to_vector(op.getOperandTypes()),
                                        llvm::to_vector(op.getResultTypes())))
      if (!isScalar(type))
        return op.emitOpError()
               << "uses a value of type " << type
               << "; epilogue values are scalars (one output element)";

    if (isa<StoreOp, FusionOp>(op)) {
      if (dStore) {
        InFlightDiagnostic diag =
            op.emitOpError() << "stores D a second time; an epilogue has at "
                                "most one D store (epi.store or epi.fusion)";
        diag.attachNote(dStore->getLoc()) << "first D store here";
        return diag;
      }
      dStore = &op;
    }
    if (isa<StoreOp, FusionOp, AuxStoreOp, ReduceToVecMOp, ReduceToVecNOp,
            ReduceToScalarOp>(op))
      hasOutput = true;
    if (failed(recordNames(op, owner, names)))
      return failure();
  }
  if (!hasOutput)
    return owner->emitOpError()
           << "epilogue has no output: it needs an epi.store, epi.aux_store, "
              "a reduction or an epi.fusion preset";
  return success();
}
