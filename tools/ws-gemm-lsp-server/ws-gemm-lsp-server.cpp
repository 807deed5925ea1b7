//===- ws-gemm-lsp-server.cpp - Language server for ws-gemm IR ------------===//
//
// MLIR's language server (MlirLspServerMain: diagnostics as you type, go to
// definition, hover, symbols, completion) with every upstream dialect plus
// epi and wsgemm, for .mlir files that hold wsgemm.gemm kernels and what
// the passes make of them. docs/editors.md says how to point an editor at
// it.
//
// MLIR 22's linalg parser crashes on a malformed `dimensions = [...]` or
// `permutation = [...]` list; the server runs behind a relay that keeps such
// text from it and reports the list instead (HazardRelay.h).
// WSGEMM_LSP_NO_RELAY=1 runs the server alone.
//
//===----------------------------------------------------------------------===//

#include "HazardRelay.h"

#include "ws-gemm/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  auto server = [&] {
    mlir::DialectRegistry registry;
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    mlir::wsgemm::registerAllDialects(registry);
    return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
  };
  const char *noRelay = std::getenv("WSGEMM_LSP_NO_RELAY");
  bool help = false;
  llvm::SmallVector<llvm::StringRef> args;
  for (int i = 1; i < argc; ++i) {
    args.push_back(argv[i]);
    help |= args.back().ltrim('-').starts_with("help") ||
            args.back().ltrim('-') == "version";
  }
  if (help || (noRelay && std::strcmp(noRelay, "1") == 0))
    return server();
  return mlir::wsgemm::runBehindHazardRelay(args, server);
}
