//===- ws-gemm-compile.cpp - Compile wsgemm kernels to cubins -------------===//
//
// ws-gemm-compile IN.mlir -o DIR [--emit=ptx|cubin|all]
//
// The command line over the compile driver (ws-gemm/Driver/Compile.h):
// parses IN.mlir (wsgemm.gemm kernels, or linalg matmul chains that the
// driver first turns into kernels with --wsgemm-from-linalg), compiles every
// wsgemm.gemm (the --wsgemm-to-nvvm
// pipeline, PTX, ptxas -v with its spill report; --spills says what a
// spilling kernel is), and writes DIR/<kernel>.cubin, DIR/<kernel>.ptx and
// DIR/<kernel>.json (the manifest, docs/manifest.md) for each kernel, or
// nothing when anything failed. Diagnostics carry locations; exit 1 on
// error.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/Compile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using wsgemm::EmitKind;
using wsgemm::SpillPolicy;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::Required);
static cl::opt<std::string> outputDir("o", cl::desc("Output directory"),
                                      cl::value_desc("dir"), cl::Required);
static cl::opt<EmitKind>
    emit("emit", cl::desc("What to write besides the manifest"),
         cl::init(EmitKind::All),
         cl::values(clEnumValN(EmitKind::Ptx, "ptx", "PTX only"),
                    clEnumValN(EmitKind::Cubin, "cubin", "cubin only"),
                    clEnumValN(EmitKind::All, "all", "PTX and cubin")));
static cl::opt<std::string> chip("chip", cl::desc("Target SM"),
                                 cl::init("sm_90a"));
static cl::opt<std::string> features("features", cl::desc("PTX features"),
                                     cl::init("+ptx80"));
static cl::opt<unsigned> optLevel("opt-level", cl::desc("NVPTX opt level"),
                                  cl::init(3));
static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("CUDA toolkit root (ptxas, libdevice); default "
                      "$CUDA_HOME or the one found at configure time"),
             cl::init(wsgemm::CompileOptions::defaultCudaPath()));
static cl::opt<SpillPolicy> spills(
    "spills", cl::desc("What a kernel that spills registers is"),
    cl::init(SpillPolicy::Warn),
    cl::values(clEnumValN(SpillPolicy::Error, "error",
                          "an error: nothing is written"),
               clEnumValN(SpillPolicy::Warn, "warn", "a warning (default)"),
               clEnumValN(SpillPolicy::Allow, "allow", "accepted silently")));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ws-gemm-compile: wsgemm.gemm kernels (or linalg matmul chains, through "
      "--wsgemm-from-linalg) to cubin + PTX + manifest\n");

  DialectRegistry registry;
  wsgemm::registerCompilerDialects(registry);
  MLIRContext context(registry);
  // Diagnostics carry locations; dumping whole kernels after them buries
  // the message.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "ws-gemm-compile: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  wsgemm::CompileOptions options;
  options.chip = chip;
  options.features = features;
  options.optLevel = optLevel;
  options.cudaPath = cudaPath;
  options.emit = emit;
  options.spills = spills;
  auto kernels = wsgemm::compileModule(*module, options);
  if (failed(kernels))
    return 1;
  if (llvm::Error err = wsgemm::writeKernels(*kernels, outputDir, emit)) {
    llvm::errs() << "ws-gemm-compile: " << llvm::toString(std::move(err))
                 << "\n";
    return 1;
  }
  return 0;
}
