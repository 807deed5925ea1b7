//===- ws-gemm-lsp-server.cpp - Language server for ws-gemm IR ------------===//
//
// MLIR's language server (MlirLspServerMain: diagnostics as you type, go to
// definition, hover, symbols, completion) with every upstream dialect plus
// epi and wsgemm, for .mlir files that hold wsgemm.gemm kernels and what
// the passes make of them. docs/editors.md says how to point an editor at
// it.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::wsgemm::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
