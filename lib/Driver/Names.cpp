//===- Names.cpp - Names that reach NVPTX and the file system -------------===//
//
// Names.h's checks. Names in messages are quoted with quoteName
// (KernelName.h): escaped and shortened, so that a hostile name is one
// readable line.
//
//===----------------------------------------------------------------------===//

#include "Names.h"

#include "ws-gemm/Dialect/WsGemm/KernelName.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::wsgemm;

/// The linkage of an LLVM symbol op NVPTX emits; nullopt for other ops.
static std::optional<LLVM::Linkage> linkageOf(Operation *op) {
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
    return func.getLinkage();
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return global.getLinkage();
  if (auto alias = dyn_cast<LLVM::AliasOp>(op))
    return alias.getLinkage();
  return std::nullopt;
}

LogicalResult driver::checkPtxSymbols(ModuleOp module) {
  bool ok = true;
  module.walk([&](gpu::GPUModuleOp gpuModule) {
    for (Operation &op : gpuModule.getBody()->getOperations()) {
      std::optional<LLVM::Linkage> linkage = linkageOf(&op);
      if (!linkage || *linkage == LLVM::Linkage::Private ||
          *linkage == LLVM::Linkage::Internal)
        continue;
      StringRef name = cast<SymbolOpInterface>(op).getName();
      auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
      if ((func && func.isExternal() && name.starts_with("llvm.")) ||
          isPtxIdentifier(name))
        continue;
      op.emitError() << "symbol " << quoteName(name)
                     << " must be a PTX identifier (a letter, then letters, "
                        "digits, '_' or '$'; or '_' or '$' and at least one "
                        "of those) because NVPTX prints a symbol of "
                     << LLVM::linkage::stringifyLinkage(*linkage)
                     << " linkage as it is written";
      ok = false;
    }
  });
  return success(ok);
}

LogicalResult
driver::checkKernelNames(ArrayRef<std::pair<std::string, Location>> kernels) {
  llvm::StringMap<size_t> seen;
  bool ok = true;
  for (size_t i = 0; i < kernels.size(); ++i) {
    // wsgemm.gemm's verifier keeps to the rule; a kernel function written
    // at a lower level need not.
    if (std::optional<std::string> why = checkKernelName(kernels[i].first)) {
      emitError(kernels[i].second) << "kernel symbol " << *why;
      ok = false;
      continue;
    }
    auto [it, inserted] =
        seen.try_emplace(StringRef(kernels[i].first).lower(), i);
    if (inserted)
      continue;
    const auto &[first, firstLoc] = kernels[it->second];
    InFlightDiagnostic diag = emitError(kernels[i].second);
    if (first == kernels[i].first)
      diag << "two kernels are named " << quoteName(first)
           << ": each writes <name>.json, .ptx and .cubin";
    else
      diag << "kernels " << quoteName(first) << " and "
           << quoteName(kernels[i].first)
           << " differ only in case: their files (<name>.json, .ptx, "
              ".cubin) would be one on a file system that ignores case";
    diag.attachNote(firstLoc) << "the other kernel";
    ok = false;
  }
  return success(ok);
}

llvm::Error driver::checkOutputNames(ArrayRef<CompiledKernel> kernels) {
  llvm::StringMap<StringRef> seen;
  for (const CompiledKernel &kernel : kernels) {
    if (std::optional<std::string> why = checkKernelName(kernel.name))
      return llvm::createStringError("kernel %s: nothing written: its name %s",
                                     quoteName(kernel.name).c_str(),
                                     why->c_str());
    auto [it, inserted] =
        seen.try_emplace(StringRef(kernel.name).lower(), kernel.name);
    if (!inserted)
      return llvm::createStringError(
          "kernels %s and %s: nothing written: they would write the same "
          "files (<name>.json, .ptx, .cubin; names are compared without "
          "case, as some file systems do)",
          quoteName(it->second).c_str(), quoteName(kernel.name).c_str());
  }
  return llvm::Error::success();
}

bool driver::isSafePathComponent(StringRef name) {
  return !name.empty() && name != "." && name != ".." &&
         llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
         });
}
