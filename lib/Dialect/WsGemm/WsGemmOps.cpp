//===- WsGemmOps.cpp - Declarative GEMM ops -------------------------------===//
//
// SKELETON: the gemm work item completes this file.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::wsgemm;

Region &GemmOp::getEpilogueRegion() { return getEpilogue(); }
Type GemmOp::getDElementType() { return getDType(); }
Type GemmOp::getCElementType() {
  if (auto c = getCType())
    return *c;
  return {};
}

LogicalResult GemmOp::verifyRegions() {
  return epi::verifyEpilogueRegion(*this);
}

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.cpp.inc"
