//===- EpiDialect.cpp - Epilogue fusion (EVT) dialect ---------------------===//
//
// Dialect registration, generated enums and attributes, and the activation
// attribute's parameter rules.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::epi;

#include "ws-gemm/Dialect/Epi/EpiOpsDialect.cpp.inc"
#include "ws-gemm/Dialect/Epi/EpiEnums.cpp.inc"
#include "ws-gemm/Dialect/Epi/EpiInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ws-gemm/Dialect/Epi/EpiAttributes.cpp.inc"

void EpiDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ws-gemm/Dialect/Epi/EpiAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ws-gemm/Dialect/Epi/EpiOps.cpp.inc"
      >();
}

/// The parameter names each activation kind takes.
static ArrayRef<StringRef> activationParamNames(ActivationKind kind) {
  static const StringRef clamp[] = {"lower", "upper"};
  static const StringRef leaky[] = {"alpha"};
  static const StringRef threshold[] = {"threshold", "value"};
  switch (kind) {
  case ActivationKind::clamp:
    return clamp;
  case ActivationKind::leaky_relu:
    return leaky;
  case ActivationKind::threshold_relu:
    return threshold;
  default:
    return {};
  }
}

LogicalResult
ActivationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ActivationKind kind, DictionaryAttr params) {
  ArrayRef<StringRef> expected = activationParamNames(kind);
  size_t given = params ? params.size() : 0;
  for (StringRef name : expected) {
    Attribute value = params ? params.get(name) : Attribute();
    if (!value)
      return emitError() << "activation '" << stringifyActivationKind(kind)
                         << "' needs parameter '" << name << "'";
    if (!isa<FloatAttr>(value))
      return emitError() << "activation parameter '" << name
                         << "' must be a float attribute";
  }
  if (given != expected.size())
    return emitError() << "activation '" << stringifyActivationKind(kind)
                       << "' takes " << expected.size()
                       << " parameter(s), got " << given;
  return success();
}
