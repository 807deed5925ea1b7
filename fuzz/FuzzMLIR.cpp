//===- FuzzMLIR.cpp - What the MLIR fuzz targets share --------------------===//
//
// Inputs are parsed from a copy of the bytes (MLIR's lexer wants a
// NUL-terminated buffer; libFuzzer's data is not).
//
//===----------------------------------------------------------------------===//

#include "FuzzMLIR.h"

#include "ws-gemm/Driver/ParseGuard.h"
#include "ws-gemm/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

const DialectRegistry &mlir::wsgemm::fuzz::registry() {
  static DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    mlir::registerAllDialects(*reg);
    mlir::registerAllExtensions(*reg);
    mlir::registerAllToLLVMIRTranslations(*reg);
    mlir::wsgemm::registerAllDialects(*reg);
    return reg;
  }();
  return *r;
}

void mlir::wsgemm::fuzz::configureContext(MLIRContext &context) {
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  // Swallow every diagnostic (returning success marks it handled).
  context.getDiagEngine().registerHandler(
      [](Diagnostic &) { return success(); });
}

OwningOpRef<ModuleOp> mlir::wsgemm::fuzz::parse(MLIRContext &context,
                                          const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz-input"),
      llvm::SMLoc());
  // As the tools do: what MLIR 22's parser crashes on is refused first.
  if (failed(refuseParserHazards(sourceMgr, id, context)))
    return nullptr;
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

mlir::wsgemm::fuzz::Input::Input(const uint8_t *data, size_t size)
    : context(registry()) {
  configureContext(context);
  module = parse(context, data, size);
}
