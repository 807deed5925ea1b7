//===- PipelineFuzzer.cpp - Fuzz the whole pipeline to NVVM and PTX -------===//
//
// wsgemm-fuzz-pipeline: each input is MLIR text that, when it parses and
// verifies, runs through buildToNVVMPipeline, the pipeline ws-gemm-compile
// and `ws-gemm-opt --wsgemm-to-nvvm` run (presets, plan, manifest,
// specialize, EVT visit, pipelines, upstream conversions to NVVM/LLVM). A
// bounded share goes on to PTX through the driver itself (compileModule
// with --emit=ptx: the linalg front end, the name checks, NVPTX's printer;
// no ptxas): every input that has a symbol other than a plain C
// identifier (the names NVPTX's printer aborted on), and one in eight of
// the others, chosen by a hash of the bytes so that a failure reproduces.
// NVPTX costs about as much as the pipeline before it; translating every
// input would double the smoke's time.
//
// A refusal (a diagnostic and a failed pass) is fine; a crash, a sanitizer
// report, or a pass that succeeds on IR the verifier then rejects (the
// pass manager verifies after every pass) is not. Inputs over 16 KiB are
// skipped: the seeds are a few KiB, and a large kernel only makes the run
// slower.
//
//===----------------------------------------------------------------------===//

#include "FuzzMLIR.h"

#include "ws-gemm/Driver/Compile.h"
#include "ws-gemm/Pipelines/Pipelines.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// Whether the input goes on to PTX (the file comment says which).
static bool toPtx(ModuleOp module, const uint8_t *data, size_t size) {
  bool odd = false;
  module->walk([&](SymbolOpInterface symbol) {
    StringRef name = symbol.getName();
    odd |= name.empty() || llvm::isDigit(name[0]) ||
           !llvm::all_of(name,
                         [](char c) { return llvm::isAlnum(c) || c == '_'; });
  });
  if (odd)
    return true;
  uint32_t hash = 2166136261u; // FNV-1a
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 16777619u;
  return hash % 8 == 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 16384)
    return 0;
  mlir::wsgemm::fuzz::Input input(data, size);
  if (!input.module)
    return 0;
  if (toPtx(*input.module, data, size)) {
    mlir::wsgemm::CompileOptions options;
    options.emit = mlir::wsgemm::EmitKind::Ptx;
    (void)mlir::wsgemm::compileModule(*input.module, options);
    return 0;
  }
  static auto *options = new mlir::wsgemm::PipelineOptions();
  PassManager pm(&input.context);
  pm.enableVerifier(true);
  mlir::wsgemm::buildToNVVMPipeline(pm, *options);
  (void)pm.run(*input.module);
  return 0;
}
