//===- PipelineFuzzer.cpp - Fuzz the whole pipeline to NVVM ---------------===//
//
// wsgemm-fuzz-pipeline: each input is MLIR text that, when it parses and
// verifies, runs through buildToNVVMPipeline, the pipeline ws-gemm-compile
// and `ws-gemm-opt --wsgemm-to-nvvm` run (presets, plan, manifest,
// specialize, EVT visit, pipelines, upstream conversions to NVVM/LLVM),
// stopping before PTX and ptxas. A refusal (a diagnostic and a failed pass)
// is fine; a crash, a sanitizer report, or a pass that succeeds on IR the
// verifier then rejects (the pass manager verifies after every pass) is
// not. Inputs over 16 KiB are skipped: the seeds are a few KiB, and a large
// kernel only makes the run slower.
//
//===----------------------------------------------------------------------===//

#include "FuzzMLIR.h"

#include "ws-gemm/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 16384)
    return 0;
  mlir::wsgemm::fuzz::Input input(data, size);
  if (!input.module)
    return 0;
  static auto *options = new mlir::wsgemm::PipelineOptions();
  PassManager pm(&input.context);
  pm.enableVerifier(true);
  mlir::wsgemm::buildToNVVMPipeline(pm, *options);
  (void)pm.run(*input.module);
  return 0;
}
