//===- Passes.h - ws-gemm conversion passes ---------------------*- C++ -*-===//

#ifndef WSGEMM_CONVERSION_PASSES_H
#define WSGEMM_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;

#define GEN_PASS_DECL
#include "ws-gemm/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ws-gemm/Conversion/Passes.h.inc"

} // namespace mlir

#endif // WSGEMM_CONVERSION_PASSES_H
