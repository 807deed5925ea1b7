//===- WsGemmDialect.cpp - Warp-specialized GEMM dialect ------------------===//
//
// Registers both op lists (declarative and explicit level), attributes and
// types of the wsgemm dialect.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::wsgemm;

#include "ws-gemm/Dialect/WsGemm/WsGemmDialect.cpp.inc"
#include "ws-gemm/Dialect/WsGemm/WsGemmEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmAttributes.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmTypes.cpp.inc"

void WsGemmDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ws-gemm/Dialect/WsGemm/WsGemmAttributes.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ws-gemm/Dialect/WsGemm/WsGemmTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ws-gemm/Dialect/WsGemm/WsGemmPipelineOps.cpp.inc"
      >();
}
