//===- consumer.cpp - ws-gemm from a C++ compiler -------------------------===//
//
// consumer-cpp FILE.mlir: what a compiler embedding ws-gemm does, built
// against the installed package (find_package(WsGemm)): registers the
// dialects, parses wsgemm.gemm kernels, runs the --wsgemm-prepare pipeline
// through its builder and prints the planned module, then compiles the
// kernels to PTX and manifests in memory with the driver. The README's C++
// snippet is the part between the snippet markers.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/Compile.h"
#include "ws-gemm/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: consumer-cpp FILE.mlir\n";
    return 2;
  }
  StringRef path = argv[1];
  // [snippet:cpp]
  DialectRegistry registry;
  wsgemm::registerCompilerDialects(registry); // epi, wsgemm + what they lower to
  MLIRContext context(registry);

  // A named pipeline through its builder (ws-gemm-opt --wsgemm-prepare).
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &context);
  PassManager pm(&context);
  wsgemm::buildPreparePipeline(pm, wsgemm::PipelineOptions());
  if (!module || failed(pm.run(*module)))
    return 1; // diagnostics went to the context's handler (stderr here)
  module->print(llvm::outs());

  // The whole driver (ws-gemm-compile): manifest + PTX (+ cubin) in memory.
  module = parseSourceFile<ModuleOp>(path, &context);
  wsgemm::CompileOptions options;
  options.emit = wsgemm::EmitKind::Ptx; // EmitKind::All runs ptxas too
  auto kernels = wsgemm::compileModule(*module, options);
  if (failed(kernels))
    return 1;
  for (const wsgemm::CompiledKernel &kernel : *kernels)
    llvm::outs() << "kernel " << kernel.name << ": " << kernel.ptx.size()
                 << " bytes of PTX, manifest of " << kernel.manifest.size()
                 << " bytes\n";
  // [/snippet:cpp]
  return 0;
}
