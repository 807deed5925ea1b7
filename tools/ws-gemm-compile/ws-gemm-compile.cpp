//===- ws-gemm-compile.cpp - Compile wsgemm kernels to cubins -------------===//
//
// ws-gemm-compile IN.mlir -o DIR [--emit=ptx|cubin|all]
//     [--family=none|default] [--jobs N]
//
// The command line over the compile driver (ws-gemm/Driver/Compile.h):
// parses IN.mlir (wsgemm.gemm kernels, or linalg matmul chains that the
// driver first turns into kernels with --wsgemm-from-linalg), compiles every
// wsgemm.gemm (the --wsgemm-to-nvvm
// pipeline, PTX, ptxas -v with its spill report; --spills says what a
// spilling kernel is), and writes DIR/<kernel>.cubin, DIR/<kernel>.ptx and
// DIR/<kernel>.json (the manifest, docs/manifest.md) for each kernel, or
// nothing when anything failed. A gemm without a config is its default
// kernel there; with --family=default it is also compiled into its default
// family, DIR/<kernel>/family.json and DIR/<kernel>/<variant>/<kernel>.*,
// the variants in parallel (docs/tuning.md, "The default family").
// Diagnostics carry locations; exit 1 on error.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/Family.h"
#include "ws-gemm/Driver/Tool.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using wsgemm::EmitKind;
namespace cl = llvm::cl;

static cl::OptionCategory toolCat("ws-gemm-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::Required, cl::cat(toolCat));
static cl::opt<std::string> outputDir("o", cl::desc("Output directory"),
                                      cl::value_desc("dir"), cl::Required,
                                      cl::cat(toolCat));
static cl::opt<EmitKind>
    emit("emit", cl::desc("What to write besides the manifest"),
         cl::init(EmitKind::All), cl::cat(toolCat),
         cl::values(clEnumValN(EmitKind::Ptx, "ptx", "PTX only"),
                    clEnumValN(EmitKind::Cubin, "cubin", "cubin only"),
                    clEnumValN(EmitKind::All, "all", "PTX and cubin")));
static cl::opt<wsgemm::FamilyMode> family(
    "family",
    cl::desc("What a wsgemm.gemm without a config compiles into besides "
             "DIR/<kernel>.*"),
    cl::init(wsgemm::FamilyMode::None), cl::cat(toolCat),
    cl::values(clEnumValN(wsgemm::FamilyMode::None, "none",
                          "nothing (default)"),
               clEnumValN(wsgemm::FamilyMode::Default, "default",
                          "its default family in DIR/<kernel>/family.json")));
static cl::opt<unsigned> jobs("jobs",
                              cl::desc("Family variants compiled at once "
                                       "(default: the cores there are)"),
                              cl::init(0), cl::cat(toolCat));
// --chip, --features, --opt-level, --cuda-path, --spills.
static wsgemm::CompileFlags compileFlags;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&toolCat, &wsgemm::compileFlagsCategory()});
  cl::ParseCommandLineOptions(
      argc, argv,
      "ws-gemm-compile: wsgemm.gemm kernels (or linalg matmul chains, through "
      "--wsgemm-from-linalg) to cubin + PTX + manifest\n");

  wsgemm::ToolInput input;
  OwningOpRef<ModuleOp> module = input.parse(inputFile, "ws-gemm-compile");
  if (!module)
    return 1;

  wsgemm::CompileOptions options = compileFlags.options();
  options.emit = emit;
  options.family = family;
  options.jobs = jobs;
  auto out = wsgemm::compileWithFamilies(*module, options);
  if (failed(out))
    return 1;
  llvm::Error err = wsgemm::writeKernels(out->kernels, outputDir, emit);
  for (const wsgemm::CompiledFamily &f : out->families) {
    if (err)
      break;
    llvm::SmallString<256> dir(outputDir);
    llvm::sys::path::append(dir, f.name);
    err = wsgemm::writeFamily(f, dir, emit);
  }
  if (err) {
    llvm::errs() << "ws-gemm-compile: " << llvm::toString(std::move(err))
                 << "\n";
    return 1;
  }
  return 0;
}
