//===- Pipelines.h - ws-gemm pass pipelines ---------------------*- C++ -*-===//
//
// The named pipelines of ws-gemm. Each is built by one function that
// ws-gemm-opt (through registration) and the ws-gemm-compile driver share.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_PIPELINES_PIPELINES_H
#define WSGEMM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::wsgemm {

/// Options shared by the ws-gemm pipelines.
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target SM architecture"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{*this, "features",
                                            llvm::cl::desc("PTX features"),
                                            llvm::cl::init("+ptx80")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("Optimization level for NVPTX"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root: ptxas and libdevice (math functions "
                     "such as erf) come from it"),
      llvm::cl::init(defaultCudaPath())};

  /// $CUDA_HOME if set, else the toolkit found when ws-gemm was configured.
  static std::string defaultCudaPath();
};

/// The front half: expand presets, canonicalize, plan configs.
/// Registered as --wsgemm-prepare.
void buildPreparePipeline(OpPassManager &pm, const PipelineOptions &options);

/// Prepare, then lower every wsgemm.gemm to an NVVM kernel in a gpu.module
/// and that module to the LLVM dialect. Registered as --wsgemm-to-nvvm.
void buildToNVVMPipeline(OpPassManager &pm, const PipelineOptions &options);

/// --wsgemm-to-nvvm followed by gpu-module-to-binary with `format` ("isa" for
/// PTX, "bin" for a cubin). Registered as --wsgemm-to-ptx / --wsgemm-to-cubin;
/// ws-gemm-compile calls it too.
void buildToBinaryPipeline(OpPassManager &pm, const PipelineOptions &options,
                           llvm::StringRef format);

/// Registers every named pipeline above with the global registry.
void registerPipelines();

} // namespace mlir::wsgemm

#endif // WSGEMM_PIPELINES_PIPELINES_H
