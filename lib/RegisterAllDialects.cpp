//===- RegisterAllDialects.cpp - Register the ws-gemm dialects ------------===//
//
// The dialects alone: this library links WsGemmEpi and WsGemmDialect and
// nothing of the passes or conversions.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/InitAllDialects.h"
#include "ws-gemm/Dialect/Epi/EpiDialect.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

void wsgemm::registerAllDialects(DialectRegistry &registry) {
  registry.insert<epi::EpiDialect, wsgemm::WsGemmDialect>();
}

void wsgemm::registerAllDialects(MLIRContext &context) {
  DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
}
