//===- WsGemmPipelineOps.cpp - Warp roles and pipelines -------------------===//
//
// SKELETON: the explicit-level work item completes this file.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::wsgemm;

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmPipelineOps.cpp.inc"
