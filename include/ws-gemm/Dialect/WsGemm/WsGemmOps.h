//===- WsGemmOps.h - wsgemm ops ---------------------------------*- C++ -*-===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_H
#define WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_H

#include "ws-gemm/Dialect/WsGemm/WsGemmDialect.h"
#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h.inc"

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmPipelineOps.h.inc"

namespace mlir::wsgemm {
/// The rules of a gemm with a quantized operand (MixedInput.cpp).
LogicalResult verifyMixedInput(GemmOp op);
} // namespace mlir::wsgemm

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_H
