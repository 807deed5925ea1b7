//===- Tool.cpp - What the compiler's command-line tools share ------------===//
//
// The flags are llvm::cl options registered by the CompileFlags object's
// constructor, so a program that links the driver without constructing one
// (the C API's users) gets none of them.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/Tool.h"
#include "ws-gemm/Driver/ParseGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::wsgemm;
namespace cl = llvm::cl;

llvm::cl::OptionCategory &mlir::wsgemm::compileFlagsCategory() {
  static cl::OptionCategory category("Compile options");
  return category;
}

struct CompileFlags::Opts {
  cl::OptionCategory &cat = compileFlagsCategory();
  cl::opt<std::string> chip{"chip", cl::desc("Target SM"),
                            cl::init("sm_90a"), cl::cat(cat)};
  cl::opt<std::string> sassArch{
      "sass-arch",
      cl::desc("ptxas -arch when not --chip (testing: an sm_8x kernel's PTX "
               "assembled for sm_90a runs on an H100)"),
      cl::init(""), cl::cat(cat)};
  cl::opt<std::string> features{"features", cl::desc("PTX features"),
                                cl::init("+ptx80"), cl::cat(cat)};
  cl::opt<unsigned> optLevel{"opt-level", cl::desc("NVPTX opt level"),
                             cl::init(3), cl::cat(cat)};
  cl::opt<std::string> cudaPath{
      "cuda-path",
      cl::desc("CUDA toolkit root (ptxas, libdevice); default $CUDA_HOME or "
               "the one found at configure time"),
      cl::init(CompileOptions::defaultCudaPath()), cl::cat(cat)};
  cl::opt<SpillPolicy> spills{
      "spills", cl::desc("What a kernel that spills registers is"),
      cl::init(SpillPolicy::Warn),
      cl::values(clEnumValN(SpillPolicy::Error, "error",
                            "an error: nothing is written"),
                 clEnumValN(SpillPolicy::Warn, "warn", "a warning (default)"),
                 clEnumValN(SpillPolicy::Allow, "allow",
                            "accepted silently")),
      cl::cat(cat)};
};

CompileFlags::CompileFlags() : opts(std::make_unique<Opts>()) {}
CompileFlags::~CompileFlags() = default;

CompileOptions CompileFlags::options() const {
  CompileOptions o;
  o.chip = opts->chip;
  o.sassArch = opts->sassArch;
  o.features = opts->features;
  o.optLevel = opts->optLevel;
  o.cudaPath = opts->cudaPath;
  o.spills = opts->spills;
  return o;
}

std::vector<std::string> CompileFlags::given() const {
  std::vector<std::string> out;
  auto add = [&](const cl::Option &opt, const std::string &value) {
    if (opt.getNumOccurrences())
      out.push_back(("--" + opt.ArgStr + "=").str() + value);
  };
  add(opts->chip, opts->chip);
  add(opts->sassArch, opts->sassArch);
  add(opts->features, opts->features);
  add(opts->optLevel, std::to_string(opts->optLevel));
  add(opts->cudaPath, opts->cudaPath);
  const char *spills[] = {"warn", "error", "allow"};
  add(opts->spills, spills[static_cast<int>(opts->spills.getValue())]);
  return out;
}

struct ToolInput::Handler {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler;
  explicit Handler(MLIRContext &context) : handler(sourceMgr, &context) {}
};

ToolInput::ToolInput()
    : context(compilerRegistry()),
      handler(std::make_unique<Handler>(context)) {
  // Diagnostics carry locations; dumping whole kernels after them buries
  // the message.
  context.printOpOnDiagnostic(false);
}

ToolInput::~ToolInput() = default;

OwningOpRef<ModuleOp> ToolInput::parse(StringRef path, StringRef tool) {
  std::string error;
  auto file = openInputFile(path, &error);
  if (!file) {
    llvm::errs() << tool << ": error: " << error << "\n";
    return nullptr;
  }
  unsigned id =
      handler->sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (failed(refuseParserHazards(handler->sourceMgr, id, context)))
    return nullptr;
  return parseSourceFile<ModuleOp>(handler->sourceMgr, &context);
}
