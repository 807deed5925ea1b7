//===- FuzzMLIR.cpp - What the MLIR fuzz targets share --------------------===//
//
// Inputs are parsed from a copy of the bytes (MLIR's lexer wants a
// NUL-terminated buffer; libFuzzer's data is not).
//
//===----------------------------------------------------------------------===//

#include "FuzzMLIR.h"

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

/// Inputs that crash MLIR 22's own parser, which no code of ours can
/// refuse first: linalg.reduce (and the other linalg ops with a
/// `dimensions = [...]` list) sets a null attribute when the list does not
/// parse (llvm/llvm-project#132747; mlir-opt crashes too). Each such
/// input is skipped; fuzz/seeds/mlir/ keeps one in every run.
static bool crashesUpstreamParser(llvm::StringRef text) {
  if (!text.contains("linalg."))
    return false;
  for (size_t at = text.find("dimensions"); at != llvm::StringRef::npos;
       at = text.find("dimensions", at + 1)) {
    llvm::StringRef rest = text.drop_front(at + 10).ltrim();
    if (!rest.consume_front("="))
      continue;
    rest = rest.ltrim();
    if (!rest.consume_front("["))
      return true;
    size_t end = rest.find(']');
    if (end == llvm::StringRef::npos ||
        rest.take_front(end).find_first_not_of("0123456789, -\n\t") !=
            llvm::StringRef::npos)
      return true;
  }
  return false;
}

OwningOpRef<ModuleOp> mlir::wsgemm::fuzz::parse(MLIRContext &context,
                                          const uint8_t *data, size_t size) {
  if (crashesUpstreamParser(
          llvm::StringRef(reinterpret_cast<const char *>(data), size)))
    return nullptr;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz-input"),
      llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

mlir::wsgemm::fuzz::Input::Input(const uint8_t *data, size_t size)
    : context(registry()) {
  configureContext(context);
  module = parse(context, data, size);
}
