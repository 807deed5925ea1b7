//===- Compile.cpp - wsgemm.gemm kernels to cubin, PTX, manifest ----------===//
//
// The driver behind ws-gemm-compile and the C API: the configs of gemms
// without one resolved (Family.cpp), then the --wsgemm-to-nvvm
// pipeline (the builder ws-gemm-opt registers), then gpu-module-to-binary
// to PTX on a clone of the lowered module, then ptxas -v per kernel
// (Ptxas.cpp). Each kernel's manifest is the wsgemm.manifest attribute that
// --wsgemm-emit-manifest left on its llvm.func.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/LinalgToWsGemm.h"
#include "ws-gemm/Driver/Compile.h"
#include "Names.h"
#include "Ptxas.h"
#include "ws-gemm/Driver/Family.h"
#include "ws-gemm/InitAllDialects.h"
#include "ws-gemm/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <map>

using namespace mlir;
using namespace mlir::wsgemm;

std::string CompileOptions::defaultCudaPath() {
  return PipelineOptions::defaultCudaPath();
}

void wsgemm::registerCompilerDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  wsgemm::registerAllDialects(registry);
}

const DialectRegistry &wsgemm::compilerRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerCompilerDialects(*r);
    return r;
  }();
  return *registry;
}

namespace {
/// A kernel while it is compiled: where to report, what it produced.
struct Pending {
  Location loc;
  CompiledKernel out;
};
} // namespace

/// Runs gpu-module-to-binary with `format` on a clone of `module` and
/// stores each gpu.module's object into kernels[name].out.*field.
static LogicalResult serialize(ModuleOp module, StringRef format,
                               StringRef toolkit,
                               std::map<std::string, Pending> &kernels,
                               std::string CompiledKernel::*field) {
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
    auto it = kernels.find(name.str());
    if (it == kernels.end())
      continue;
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    it->second.out.*field = object.getObject().getValue().str();
  }
  return success();
}

/// A cubin assembled for --sass-arch runs on that arch: the manifest's
/// "arch" says so (the runtime checks the device against it) and "chip"
/// keeps what the code was planned for.
static void retarget(std::string &manifest, const CompileOptions &options) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(manifest);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return;
  }
  llvm::json::Object *root = parsed->getAsObject();
  (*root)["arch"] = options.sassArch;
  (*root)["chip"] = options.chip;
  manifest.clear();
  llvm::raw_string_ostream os(manifest);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(*root)));
}

FailureOr<SmallVector<CompiledKernel>>
wsgemm::compileModule(ModuleOp module, const CompileOptions &options) {
  if (failed(resolveDefaultConfigs(module, options.chip)))
    return failure();
  return driver::compileResolved(module, options);
}

FailureOr<SmallVector<CompiledKernel>>
driver::compileResolved(ModuleOp module, const CompileOptions &options) {
  PipelineOptions pipeline;
  pipeline.chip = options.chip;
  pipeline.features = options.features;
  // sm_89's fp8 mma.sync is PTX ISA 8.4; the default features say 8.0 (what
  // every other kernel needs), so only an fp8 sm_89 module asks for more.
  if (options.chip == "sm_89" && options.features == "+ptx80") {
    bool fp8 = false;
    module.walk([&](GemmOp op) {
      auto is8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
      fp8 |= is8(op.getAType()) || is8(op.getBType());
    });
    if (fp8)
      pipeline.features = "+ptx84";
  }
  pipeline.optLevel = options.optLevel;
  pipeline.cudaPath = options.cudaPath;
  PassManager pm(module.getContext());
  // linalg input: the front end makes the kernels first (a no-op on
  // wsgemm.gemm input).
  pm.addPass(createWsGemmFromLinalg());
  buildToNVVMPipeline(pm, pipeline);
  if (failed(pm.run(module)))
    return failure();

  std::map<std::string, Pending> kernels;
  SmallVector<std::pair<std::string, Location>> named;
  module.walk([&](LLVM::LLVMFuncOp func) {
    auto manifest = func->getAttrOfType<StringAttr>("wsgemm.manifest");
    if (!manifest)
      return;
    named.emplace_back(func.getSymName().str(), func.getLoc());
    Pending &kernel =
        kernels.try_emplace(func.getSymName().str(), Pending{func.getLoc(), {}})
            .first->second;
    kernel.out.name = func.getSymName().str();
    kernel.out.manifest = manifest.getValue().str();
  });
  if (kernels.empty())
    return emitError(module.getLoc())
           << "the module defines no wsgemm.gemm kernel";
  // Names become files and PTX symbols (Names.h): refused here, before
  // NVPTX, which aborts on a symbol it cannot print.
  bool namesOk = succeeded(driver::checkKernelNames(named));
  if (failed(driver::checkPtxSymbols(module)) || !namesOk)
    return failure();
  if (failed(serialize(module, "isa", options.cudaPath, kernels,
                       &CompiledKernel::ptx)))
    return failure();
  // An unresolved math function (libdevice not found) would only surface
  // when the PTX is assembled: refuse it here with the reason.
  for (auto &[name, kernel] : kernels) {
    StringRef ptx = kernel.out.ptx;
    size_t pos = ptx.find(".extern .func");
    if (pos == StringRef::npos)
      continue;
    return emitError(kernel.loc)
           << "kernel '" << name << "' calls an unresolved function ("
           << ptx.slice(pos, ptx.find('\n', pos)).trim()
           << "): is libdevice under --cuda-path=" << options.cudaPath << "?";
  }
  if (options.emit != EmitKind::Ptx) {
    for (auto &[name, kernel] : kernels) {
      FailureOr<std::string> report = driver::assemble(
          kernel.loc, name, kernel.out.ptx, options, kernel.out.cubin);
      if (failed(report) || failed(driver::checkSpills(kernel.loc, name, *report,
                                                       options.spills)))
        return failure();
      kernel.out.ptxasLog = std::move(*report);
    }
  }
  if (!options.sassArch.empty() && options.sassArch != options.chip)
    for (auto &[name, kernel] : kernels)
      retarget(kernel.out.manifest, options);
  SmallVector<CompiledKernel> result;
  for (auto &[name, kernel] : kernels)
    result.push_back(std::move(kernel.out));
  return result;
}

llvm::Error wsgemm::writeKernels(ArrayRef<CompiledKernel> kernels,
                                 StringRef dir, EmitKind emit) {
  // Names are file names: no '/', no "..", no two alike (Names.h).
  if (llvm::Error err = driver::checkOutputNames(kernels))
    return err;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create %s: %s",
                                   dir.str().c_str(), ec.message().c_str());
  SmallVector<std::string> temps;
  std::string failure;
  auto write = [&](const Twine &path, StringRef contents) {
    std::string temp = (path + ".tmp").str(), error;
    auto file = openOutputFile(temp, &error);
    if (!file) {
      if (failure.empty())
        failure = "cannot write " + temp + ": " + error;
      return;
    }
    file->os() << contents;
    file->keep();
    temps.push_back(temp);
  };
  for (const CompiledKernel &kernel : kernels) {
    SmallString<256> base(dir);
    llvm::sys::path::append(base, kernel.name);
    write(base + ".json", kernel.manifest);
    if (emit != EmitKind::Cubin)
      write(base + ".ptx", kernel.ptx);
    if (emit != EmitKind::Ptx)
      write(base + ".cubin", kernel.cubin);
  }
  for (const std::string &temp : temps) {
    StringRef final = StringRef(temp).drop_back(4);
    if (!failure.empty()) {
      llvm::sys::fs::remove(temp);
    } else if (std::error_code ec = llvm::sys::fs::rename(temp, final)) {
      failure = "cannot rename " + temp + ": " + ec.message();
      llvm::sys::fs::remove(temp);
    }
  }
  if (!failure.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), failure);
  return llvm::Error::success();
}
