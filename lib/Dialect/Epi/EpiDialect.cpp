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

#include "ws-gemm/Dialect/Epi/EpiEnums.cpp.inc"
#include "ws-gemm/Dialect/Epi/EpiInterfaces.cpp.inc"
#include "ws-gemm/Dialect/Epi/EpiOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ws-gemm/Dialect/Epi/EpiAttributes.cpp.inc"

//===----------------------------------------------------------------------===//
// Attribute parsing and printing
//===----------------------------------------------------------------------===//

/// Where parseActivationWithTrailingType wants the consumed `: type`; set only
/// while that function runs (parsing is single-threaded per parser).
static thread_local Type *trailingTypeSlot = nullptr;

Attribute EpiDialect::parseAttribute(DialectAsmParser &parser,
                                     Type type) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Attribute attr;
  OptionalParseResult result =
      generatedAttributeParser(parser, &mnemonic, type, attr);
  if (!result.has_value()) {
    parser.emitError(loc) << "unknown attribute `" << mnemonic
                          << "` in dialect `epi`";
    return {};
  }
  if (succeeded(*result) && type && trailingTypeSlot)
    *trailingTypeSlot = type;
  return attr;
}

void EpiDialect::printAttribute(Attribute attr,
                                DialectAsmPrinter &printer) const {
  (void)generatedAttributePrinter(attr, printer);
}

ParseResult mlir::epi::parseActivationWithTrailingType(
    AsmParser &parser, ActivationAttr &activation, Type &trailingType) {
  SMLoc loc = parser.getCurrentLocation();
  Attribute attr;
  trailingType = {};
  Type *saved = trailingTypeSlot;
  trailingTypeSlot = &trailingType;
  ParseResult result = parser.parseAttribute(attr);
  trailingTypeSlot = saved;
  if (failed(result))
    return failure();
  activation = dyn_cast<ActivationAttr>(attr);
  if (!activation)
    return parser.emitError(loc)
           << "expected an #epi.activation attribute, got " << attr;
  return success();
}

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

//===----------------------------------------------------------------------===//
// ActivationAttr
//===----------------------------------------------------------------------===//

Attribute ActivationAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  FailureOr<ActivationKind> kind = FieldParser<ActivationKind>::parse(parser);
  if (failed(kind))
    return {};
  DictionaryAttr params;
  OptionalParseResult parsed = parser.parseOptionalAttribute(params);
  if ((parsed.has_value() && failed(*parsed)) || parser.parseGreater())
    return {};
  return parser.getChecked<ActivationAttr>(loc, parser.getContext(), *kind,
                                           params);
}

void ActivationAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyActivationKind(getKind());
  if (getParams()) {
    printer << ' ';
    printer.printAttributeWithoutType(getParams());
  }
  printer << '>';
}

namespace {
/// The parameters an activation kind takes: required, then optional.
struct ActivationParams {
  ArrayRef<StringRef> required;
  ArrayRef<StringRef> optional;
};
} // namespace

static ActivationParams getActivationParams(ActivationKind kind) {
  static const StringRef clamp[] = {"lower", "upper"};
  static const StringRef leaky[] = {"leaky_alpha"};
  static const StringRef threshold[] = {"threshold"};
  static const StringRef thresholdOptional[] = {"upper_bound"};
  switch (kind) {
  case ActivationKind::clamp:
    return {clamp, {}};
  case ActivationKind::leaky_relu:
    return {leaky, {}};
  case ActivationKind::threshold_relu:
    return {threshold, thresholdOptional};
  default:
    return {};
  }
}

LogicalResult
ActivationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ActivationKind kind, DictionaryAttr params) {
  ActivationParams expected = getActivationParams(kind);
  StringRef kindName = stringifyActivationKind(kind);
  for (StringRef name : expected.required)
    if (!params || !params.get(name))
      return emitError() << "activation '" << kindName << "' needs parameter '"
                         << name << "'";
  if (!params)
    return success();
  for (NamedAttribute param : params) {
    StringRef name = param.getName().getValue();
    if (!llvm::is_contained(expected.required, name) &&
        !llvm::is_contained(expected.optional, name))
      return emitError() << "activation '" << kindName
                         << "' takes no parameter '" << name << "'";
    if (!isa<FloatAttr, ScalarRefAttr>(param.getValue()))
      return emitError() << "activation parameter '" << name
                         << "' must be a float (a compile-time constant) or "
                            "an #epi.scalar<param|ptr \"name\"> (a "
                            "launch-time value), got "
                         << param.getValue();
  }
  // Launch-time bounds are not checked (CUTLASS does not check them).
  auto lowerAttr = dyn_cast_if_present<FloatAttr>(params.get("lower"));
  auto upperAttr = dyn_cast_if_present<FloatAttr>(params.get("upper"));
  if (kind == ActivationKind::clamp && lowerAttr && upperAttr) {
    double lower = lowerAttr.getValueAsDouble();
    double upper = upperAttr.getValueAsDouble();
    if (lower > upper)
      return emitError() << "activation 'clamp' needs lower <= upper, got "
                            "lower = "
                         << lower << " and upper = " << upper;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ScalarRefAttr
//===----------------------------------------------------------------------===//

LogicalResult
ScalarRefAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      ScalarSource source, StringRef name) {
  if (source == ScalarSource::attr)
    return emitError() << "#epi.scalar names a launch-time value: its source "
                          "is 'param' or 'ptr', not 'attr' (write the "
                          "constant itself)";
  if (name.empty())
    return emitError() << "#epi.scalar needs a non-empty name: names become "
                          "kernel parameters in the manifest";
  return success();
}
