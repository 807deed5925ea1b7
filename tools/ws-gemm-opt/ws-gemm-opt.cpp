//===- ws-gemm-opt.cpp - ws-gemm optimizer driver -------------------------===//
//
// MlirOptMain with every upstream dialect, extension and pass registered,
// plus the epi and wsgemm dialects, their passes and named pipelines.
//
// The input is read here, not by MlirOptMain, so that what MLIR 22's own
// parser crashes on is refused with an error first (ws-gemm/Driver/
// ParseGuard.h); the rest is MlirOptMain's.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/ParseGuard.h"
#include "ws-gemm/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  registerAllPasses();
  wsgemm::registerAllPasses();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  wsgemm::registerAllDialects(registry);

  auto [inputFile, outputFile] = registerAndParseCLIOptions(
      argc, argv, "ws-gemm optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // These print and return without reading any input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFile, outputFile, registry));
  llvm::InitLLVM init(argc, argv);

  if (inputFile == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  {
    llvm::SourceMgr sourceMgr;
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    MLIRContext context(MLIRContext::Threading::DISABLED);
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    if (failed(wsgemm::refuseParserHazards(sourceMgr, id, context)))
      return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
