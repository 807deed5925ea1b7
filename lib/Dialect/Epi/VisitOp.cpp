//===- VisitOp.cpp - The EVT on an accumulator fragment -------------------===//
//
// epi.visit: the op the epilogue collective evaluates the EVT with (its
// body is the kernel's epilogue region, its sources and outputs named
// fragments; --epi-visit-fragments expands it). Its EpilogueOpInterface,
// name lookups and verifiers.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::epi;

Region &VisitOp::getEpilogueRegion() { return getBody(); }
Type VisitOp::getDElementType() { return getDType(); }
Type VisitOp::getCElementType() {
  return getCType() ? *getCType() : Type();
}

Value VisitOp::getSource(StringRef name) {
  for (auto [source, sourceName] :
       llvm::zip(getSources(), getSourceNames().getAsValueRange<StringAttr>()))
    if (sourceName == name)
      return source;
  return {};
}

Value VisitOp::getOutput(StringRef name) {
  for (auto [output, outputName] :
       llvm::zip(getOutputs(), getOutputNames().getAsValueRange<StringAttr>()))
    if (outputName == name)
      return output;
  return {};
}

LogicalResult VisitOp::verify() {
  if (getSourceNames().size() != getSources().size())
    return emitOpError() << "names " << getSourceNames().size()
                         << " sources but has " << getSources().size()
                         << ": each source needs exactly one name";
  if (getOutputNames().size() != getOutputs().size())
    return emitOpError() << "names " << getOutputNames().size()
                         << " outputs but has " << getOutputs().size()
                         << ": each output needs exactly one name";
  int64_t size = getFragmentSize();
  for (Value v : llvm::concat<Value>(getSources(), getOutputs()))
    if (auto vec = dyn_cast<VectorType>(v.getType());
        vec && vec.getNumElements() != size)
      return emitOpError() << "has a fragment of " << vec.getNumElements()
                           << " elements beside an accumulator fragment of "
                           << size
                           << ": every fragment holds the same elements";
  llvm::StringSet<> names;
  for (StringRef name : getSourceNames().getAsValueRange<StringAttr>())
    if (!names.insert(name).second)
      return emitOpError() << "names source '" << name << "' twice";
  names.clear();
  for (StringRef name : getOutputNames().getAsValueRange<StringAttr>())
    if (!names.insert(name).second)
      return emitOpError() << "names output '" << name << "' twice";
  return success();
}

LogicalResult VisitOp::verifyRegions() { return verifyEpilogueRegion(*this); }
