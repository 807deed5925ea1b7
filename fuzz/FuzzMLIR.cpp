//===- FuzzMLIR.cpp - What the MLIR fuzz targets share --------------------===//
//
// Inputs are parsed from a copy of the bytes (MLIR's lexer wants a
// NUL-terminated buffer; libFuzzer's data is not).
//
//===----------------------------------------------------------------------===//

#include "FuzzMLIR.h"

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"
#include "ws-gemm/Driver/ParseGuard.h"
#include "ws-gemm/InitAll.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

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

void mlir::wsgemm::fuzz::printKernelNamesWithNVPTX(ModuleOp module) {
  // Names met before are not printed again (capped, so that a long run's
  // memory stays bounded; a name past the cap is printed every time).
  static llvm::StringSet<> *seen = new llvm::StringSet<>();
  SmallVector<std::string> names;
  module.walk([&](wsgemm::GemmOp gemm) {
    StringRef name = gemm.getSymName();
    if (!seen->contains(name))
      names.push_back(name.str());
  });
  MLIRContext *ctx = module.getContext();
  for (const std::string &name : names) {
    if (seen->size() < 100000)
      seen->insert(name);
    // The kernel's shape as the lowering emits it: an external
    // nvvm.kernel with a parameter (NVPTX names it <name>_param_0).
    OwningOpRef<ModuleOp> probe = parseSourceString<ModuleOp>(
        "gpu.module @probe [#nvvm.target<chip = \"sm_90a\", "
        "features = \"+ptx80\">] {\n"
        "  llvm.func @k(%a: i32) attributes {nvvm.kernel} {\n"
        "    llvm.return\n"
        "  }\n"
        "}\n",
        ctx);
    if (!probe)
      std::abort(); // the probe itself must parse
    probe->walk(
        [&](LLVM::LLVMFuncOp func) { SymbolTable::setSymbolName(func, name); });
    PassManager pm(ctx);
    GpuModuleToBinaryPassOptions options;
    options.compilationTarget = "isa";
    pm.addPass(createGpuModuleToBinaryPass(options));
    (void)pm.run(*probe);
  }
}
