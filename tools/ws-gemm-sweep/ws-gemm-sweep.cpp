//===- ws-gemm-sweep.cpp - Compile one GEMM under many configs ------------===//
//
// ws-gemm-sweep IN.mlir -o DIR [--kernel NAME] [axis flags] [--jobs N]
//     [--emit=cubin|ptx] [--spills=warn|error|allow] [--dry-run]
//     [ws-gemm-compile's --chip, --features, --opt-level, --cuda-path]
//
// Compiles one wsgemm.gemm under the cross product of the axes into a
// kernel family: DIR/<variant>/<kernel>.{mlir,json,cubin,ptx,compile.log}
// per compiled variant and DIR/family.json listing them (docs/tuning.md).
// Axes default to tiles x schedules x clusters x swizzles (Space.cpp); a
// flag replaces its axis; --axis sweeps any knob of #wsgemm.config. The
// planner decides legality: refused configs are reported with its reason
// and skipped. Progress goes to stdout, one line per config.
//
//===----------------------------------------------------------------------===//

#include "Sweep.h"

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"
#include "ws-gemm/Driver/Tool.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory axesCat("Axes (comma-separated values; 'auto' "
                                  "leaves the knob to the planner)");
static cl::OptionCategory toolCat("ws-gemm-sweep options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::Required, cl::cat(toolCat));
static cl::opt<std::string> outputDir("o", cl::desc("Family directory"),
                                      cl::value_desc("dir"), cl::cat(toolCat));
static cl::opt<std::string> kernel("kernel",
                                   cl::desc("The wsgemm.gemm to sweep (when "
                                            "the file has several)"),
                                   cl::cat(toolCat));
static cl::opt<std::string> tiles("tiles", cl::desc("MxN[xK],... (K: 128 bytes)"),
                                  cl::cat(axesCat));
static cl::opt<std::string> schedules("schedules", cl::desc("cooperative,pingpong,..."),
                                      cl::cat(axesCat));
static cl::opt<std::string> clusters("clusters", cl::desc("MxN[xK],..."),
                                     cl::cat(axesCat));
static cl::opt<std::string> stages("stages", cl::desc("mainloop stages,..."),
                                   cl::cat(axesCat));
static cl::opt<std::string> epiTiles("epi-tiles", cl::desc("MxN,..."),
                                     cl::cat(axesCat));
static cl::opt<std::string> rasters("rasters", cl::desc("along_m,along_n,heuristic"),
                                    cl::cat(axesCat));
static cl::opt<std::string> swizzles("swizzles", cl::desc("1,2,4,8"),
                                     cl::cat(axesCat));
static cl::opt<std::string> persistent("persistent", cl::desc("true,false"),
                                       cl::cat(axesCat));
static cl::opt<std::string> fragmentSizes("fragment-sizes", cl::desc("N,..."),
                                          cl::cat(axesCat));
static cl::list<std::string>
    axisFlags("axis",
              cl::desc("KNOB=V1|V2|... any #wsgemm.config knob, values in "
                       "its syntax (e.g. 'epi_tile=[128, 32]|auto')"),
              cl::cat(axesCat));
static cl::opt<bool> noDefaults("no-default-axes",
                                cl::desc("Sweep only the axes given (else "
                                         "default tile, schedule, cluster "
                                         "and swizzle axes fill in)"),
                                cl::cat(axesCat));
static cl::opt<unsigned> jobs("jobs", cl::desc("Parallel compiles (default: "
                                               "the cores there are)"),
                              cl::init(0), cl::cat(toolCat));
static cl::opt<std::string> emit("emit", cl::desc("cubin (default) or ptx "
                                                  "(no ptxas)"),
                                 cl::init("cubin"), cl::cat(toolCat));
// ws-gemm-compile's --chip, --features, --opt-level, --cuda-path and
// --spills, passed on to it when given.
static mlir::wsgemm::CompileFlags compileFlags;
static cl::opt<std::string>
    compile("compile", cl::desc("ws-gemm-compile to run (default: "
                                "$WSGEMM_COMPILE, else next to this tool)"),
            cl::cat(toolCat));
static cl::opt<bool> dryRun("dry-run", cl::desc("Plan every config, compile "
                                                "nothing, write nothing"),
                            cl::cat(toolCat));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(
      {&toolCat, &axesCat, &mlir::wsgemm::compileFlagsCategory()});
  cl::ParseCommandLineOptions(
      argc, argv, "ws-gemm-sweep: one wsgemm.gemm under many configs -> a "
                  "kernel family (docs/tuning.md)\n");
  ::wsgemm::sweep::Options o;
  o.input = inputFile;
  o.outDir = outputDir;
  o.kernel = kernel;
  o.emit = emit;
  o.compileFlags = compileFlags.given();
  o.chip = compileFlags.options().chip;
  o.jobs = jobs;
  o.dryRun = dryRun;
  o.noDefaults = noDefaults;
  for (int i = 0; i < argc; ++i)
    o.argv.push_back(argv[i]);
  if (o.outDir.empty() && !o.dryRun) {
    llvm::errs() << "ws-gemm-sweep: error: -o DIR is required (or --dry-run)\n";
    return 2;
  }
  if (o.emit != "cubin" && o.emit != "ptx") {
    llvm::errs() << "ws-gemm-sweep: error: --emit must be cubin or ptx\n";
    return 2;
  }
  o.compile = compile;
  if (o.compile.empty())
    if (auto env = llvm::sys::Process::GetEnv("WSGEMM_COMPILE"))
      o.compile = *env;
  if (o.compile.empty()) {
    std::string self = llvm::sys::fs::getMainExecutable(
        argv[0], reinterpret_cast<void *>(&main));
    llvm::SmallString<256> path(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(path, "ws-gemm-compile");
    o.compile = path.str().str();
  }
  if (!o.dryRun && !llvm::sys::fs::can_execute(o.compile)) {
    llvm::errs() << "ws-gemm-sweep: error: cannot run ws-gemm-compile at "
                 << o.compile << " (--compile)\n";
    return 2;
  }

  mlir::wsgemm::ToolInput input;
  OwningOpRef<ModuleOp> module = input.parse(inputFile, "ws-gemm-sweep");
  if (!module)
    return 2;
  // Shorthand tiles take K from A's width (128 bytes); the op is found
  // again, with its errors, in runSweep.
  int64_t tileK = 64;
  module->walk([&](mlir::wsgemm::GemmOp g) {
    if ((kernel.empty() || g.getSymName() == kernel) &&
        g.getAType().isIntOrFloat())
      tileK = 1024 / std::max(1u, g.getAType().getIntOrFloatBitWidth());
  });
  struct Flag {
    const char *name;
    const std::string &value;
  } flags[] = {{"tiles", tiles},         {"schedules", schedules},
               {"clusters", clusters},   {"stages", stages},
               {"epi-tiles", epiTiles},  {"rasters", rasters},
               {"swizzles", swizzles},   {"persistent", persistent},
               {"fragment-sizes", fragmentSizes}};
  for (const Flag &f : flags) {
    if (f.value.empty())
      continue;
    ::wsgemm::sweep::Axis axis;
    if (!::wsgemm::sweep::parseAxisFlag(f.name, f.value, tileK, axis))
      return 2;
    o.axes.push_back(axis);
  }
  for (const std::string &a : axisFlags) {
    ::wsgemm::sweep::Axis axis;
    if (!::wsgemm::sweep::parseAxisFlag("axis", a, tileK, axis))
      return 2;
    for (const ::wsgemm::sweep::Axis &prev : o.axes)
      if (prev.knob == axis.knob) {
        llvm::errs() << "ws-gemm-sweep: error: knob '" << axis.knob
                     << "' is swept twice\n";
        return 2;
      }
    o.axes.push_back(axis);
  }
  return ::wsgemm::sweep::runSweep(o, *module);
}
