//===- ws-gemm-compile.cpp - Compile wsgemm kernels to cubins -------------===//
//
// ws-gemm-compile IN.mlir -o DIR [--emit=ptx|cubin|all]
//
// Runs --wsgemm-from-linalg (so IN may be linalg on tensors), then the
// --wsgemm-to-nvvm pipeline (the same builder ws-gemm-opt registers), then gpu-module-to-binary to PTX, assembles each kernel's PTX
// with ptxas -v (the cubin, and its register and spill report: a kernel
// that spills is reported, never silently accepted; --spills says how), and
// writes DIR/<kernel>.cubin, DIR/<kernel>.ptx and DIR/<kernel>.json (the
// manifest, docs/manifest.md) for each kernel. Files are written under temporary names
// and renamed only after every kernel compiled, so a failure leaves nothing
// that looks like a good result.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/LinalgToWsGemm.h"
#include "ws-gemm/InitAll.h"
#include "ws-gemm/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <map>

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::Required);
static cl::opt<std::string> outputDir("o", cl::desc("Output directory"),
                                      cl::value_desc("dir"), cl::Required);
enum class Emit { Ptx, Cubin, All };
static cl::opt<Emit>
    emit("emit", cl::desc("What to write besides the manifest"),
         cl::init(Emit::All),
         cl::values(clEnumValN(Emit::Ptx, "ptx", "PTX only"),
                    clEnumValN(Emit::Cubin, "cubin", "cubin only"),
                    clEnumValN(Emit::All, "all", "PTX and cubin")));
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
             cl::init(wsgemm::PipelineOptions::defaultCudaPath()));

enum class Spills { Error, Warn, Allow };
static cl::opt<Spills> spills(
    "spills", cl::desc("What a kernel that spills registers is"),
    cl::init(Spills::Warn),
    cl::values(clEnumValN(Spills::Error, "error",
                          "an error: nothing is written"),
               clEnumValN(Spills::Warn, "warn", "a warning (default)"),
               clEnumValN(Spills::Allow, "allow", "accepted silently")));

namespace {
/// What one kernel produces, before anything is written.
struct KernelOutput {
  std::string manifest;
  std::string ptx;
  std::string cubin;
};
} // namespace

/// Assembles `ptx` with `ptxas -v` into `cubin`; returns ptxas's report
/// (registers, spills) or fails with its diagnostics.
static FailureOr<std::string> assemble(StringRef name, StringRef ptx,
                                       std::string &cubin) {
  SmallString<256> ptxas(cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!llvm::sys::fs::can_execute(ptxas)) {
    llvm::errs() << "ws-gemm-compile: no ptxas at " << ptxas
                 << " (--cuda-path=" << cudaPath << ")\n";
    return failure();
  }
  SmallString<128> in, out, log;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("wsgemm-" + name, "ptx", fd, in) ||
      llvm::sys::fs::createTemporaryFile("wsgemm-" + name, "cubin", out) ||
      llvm::sys::fs::createTemporaryFile("wsgemm-" + name, "log", log)) {
    llvm::errs() << "ws-gemm-compile: cannot create temporary files\n";
    return failure();
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  std::string arch = "-arch=" + chip.getValue();
  std::string opt = "-O" + std::to_string(std::min(optLevel.getValue(), 3u));
  SmallVector<StringRef> args{ptxas, arch, opt, "-v", in, "-o", out};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &error);
  auto report = llvm::MemoryBuffer::getFile(log);
  auto binary = llvm::MemoryBuffer::getFile(out, /*IsText=*/false);
  std::string text = report ? (*report)->getBuffer().str() : "";
  if (rc == 0 && binary)
    cubin = (*binary)->getBuffer().str();
  for (StringRef path : {StringRef(in), StringRef(out), StringRef(log)})
    llvm::sys::fs::remove(path);
  if (rc != 0 || !binary) {
    llvm::errs() << "ws-gemm-compile: ptxas failed on kernel '" << name
                 << "'" << (error.empty() ? "" : ": " + error) << "\n"
                 << text;
    return failure();
  }
  return text;
}

/// Spill bytes and registers from `ptxas -v`'s report; false when a kernel
/// spills and --spills forbids it.
static bool checkSpills(StringRef name, StringRef report) {
  llvm::Regex spill("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  llvm::Regex regs("Used ([0-9]+) registers");
  SmallVector<StringRef> s, r;
  if (!spill.match(report, &s) || !regs.match(report, &r))
    return true;
  unsigned stores = 0, loads = 0;
  s[1].getAsInteger(10, stores);
  s[2].getAsInteger(10, loads);
  if (stores + loads == 0 || spills == Spills::Allow)
    return true;
  llvm::errs() << "ws-gemm-compile: " << (spills == Spills::Error ? "error" : "warning")
               << ": kernel '" << name << "' spills registers to local memory ("
               << stores << " bytes stored, " << loads << " loaded; " << r[1]
               << " registers): its epilogue needs more registers than the "
                  "accumulator leaves; a smaller tile N, epi_tile N or "
                  "fragment_size, or a simpler epilogue, fits\n";
  return spills != Spills::Error;
}

/// Runs gpu-module-to-binary with `format` on a clone of `module` and stores
/// each gpu.module's object into outputs[kernel].*field.
static LogicalResult serialize(ModuleOp module, StringRef format,
                               StringRef toolkit,
                               std::map<std::string, KernelOutput> &outputs,
                               std::string KernelOutput::*field) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  GpuModuleToBinaryPassOptions options;
  options.compilationTarget = format.str();
  options.toolkitPath = toolkit.str();
  pm.addPass(createGpuModuleToBinaryPass(options));
  if (failed(pm.run(*clone)))
    return failure();
  for (auto binary : clone->getOps<gpu::BinaryOp>()) {
    StringRef name = binary.getName();
    name.consume_back("_module");
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    outputs[name.str()].*field = object.getObject().getValue().str();
  }
  return success();
}

static LogicalResult writeAtomically(const Twine &path, StringRef contents,
                                     SmallVectorImpl<std::string> &temps) {
  std::string temp = (path + ".tmp").str();
  std::string error;
  auto file = openOutputFile(temp, &error);
  if (!file) {
    llvm::errs() << "ws-gemm-compile: cannot write " << temp << ": " << error
                 << "\n";
    return failure();
  }
  file->os() << contents;
  file->keep();
  temps.push_back(temp);
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ws-gemm-compile: wsgemm.gemm kernels (or linalg matmul chains, through "
      "--wsgemm-from-linalg) to cubin + PTX + manifest\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  wsgemm::registerAllDialects(registry);
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

  wsgemm::PipelineOptions options;
  options.chip = chip;
  options.features = features;
  options.optLevel = optLevel;
  options.cudaPath = cudaPath;
  PassManager pm(&context);
  // linalg input: the front end makes the kernels first (a no-op on
  // wsgemm.gemm input).
  pm.addPass(createWsGemmFromLinalg());
  wsgemm::buildToNVVMPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  std::map<std::string, KernelOutput> outputs;
  module->walk([&](LLVM::LLVMFuncOp func) {
    if (auto manifest = func->getAttrOfType<StringAttr>("wsgemm.manifest"))
      outputs[func.getSymName().str()].manifest = manifest.getValue().str();
  });
  if (outputs.empty()) {
    llvm::errs() << "ws-gemm-compile: " << inputFile
                 << " defines no wsgemm.gemm kernel\n";
    return 1;
  }
  if (failed(serialize(*module, "isa", cudaPath, outputs, &KernelOutput::ptx)))
    return 1;
  // An unresolved math function (libdevice not found) would only surface
  // when the PTX is assembled: refuse it here with the reason.
  for (auto &[name, out] : outputs) {
    size_t pos = out.ptx.find(".extern .func");
    if (pos == std::string::npos)
      continue;
    size_t end = out.ptx.find('\n', pos);
    llvm::errs() << "ws-gemm-compile: kernel '" << name
                 << "' calls an unresolved function ("
                 << StringRef(out.ptx).slice(pos, end).trim()
                 << "): is libdevice under --cuda-path=" << cudaPath << "?\n";
    return 1;
  }
  if (emit != Emit::Ptx) {
    for (auto &[name, out] : outputs) {
      FailureOr<std::string> report = assemble(name, out.ptx, out.cubin);
      if (failed(report) || !checkSpills(name, *report))
        return 1;
    }
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << "ws-gemm-compile: cannot create " << outputDir << ": "
                 << ec.message() << "\n";
    return 1;
  }
  SmallVector<std::string> temps;
  bool ok = true;
  for (auto &[name, out] : outputs) {
    SmallString<256> base(outputDir);
    llvm::sys::path::append(base, name);
    ok &= succeeded(writeAtomically(base + ".json", out.manifest, temps));
    if (emit != Emit::Cubin)
      ok &= succeeded(writeAtomically(base + ".ptx", out.ptx, temps));
    if (emit != Emit::Ptx)
      ok &= succeeded(writeAtomically(base + ".cubin", out.cubin, temps));
  }
  for (const std::string &temp : temps) {
    StringRef final = StringRef(temp).drop_back(4);
    if (ok)
      ok &= !llvm::sys::fs::rename(temp, final);
    else
      llvm::sys::fs::remove(temp);
  }
  return ok ? 0 : 1;
}
