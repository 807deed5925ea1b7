//===- Compile.h - wsgemm.gemm kernels to cubin, PTX, manifest --*- C++ -*-===//
//
// The compile driver as a library: what ws-gemm-compile does, minus the
// command line and the files, for tools and compilers that embed ws-gemm
// (the C API calls it too). compileModule runs the --wsgemm-to-nvvm
// pipeline, gpu-module-to-binary to PTX, and ptxas -v for each kernel's
// cubin and its register/spill report; everything it has to say is an MLIR
// diagnostic on the module's context (located at the kernel where there is
// one), never a print to stderr.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DRIVER_COMPILE_H
#define WSGEMM_DRIVER_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::wsgemm {

/// What to produce besides the manifest.
enum class EmitKind { All, Ptx, Cubin };

/// What a kernel that spills registers to local memory is.
enum class SpillPolicy {
  Warn,  ///< a warning; the kernel is kept (default)
  Error, ///< an error: compilation fails
  Allow  ///< accepted silently
};

/// What a wsgemm.gemm without a config compiles into besides its kernel.
enum class FamilyMode {
  None,   ///< the kernel alone (default)
  Default ///< also its default family (docs/tuning.md, "The default family")
};

/// The driver's options; the defaults are ws-gemm-compile's.
struct CompileOptions {
  std::string chip = "sm_90a";
  /// ptxas's -arch when not `chip` (empty: `chip`): an sm_8x kernel's PTX
  /// assembled for sm_90a, to run it on an H100 in tests. The manifest's
  /// "arch" is then this (what the cubin runs on), its "chip" `chip`.
  std::string sassArch;
  std::string features = "+ptx80";
  unsigned optLevel = 3;
  /// CUDA toolkit root: ptxas (bin/ptxas) and libdevice come from it.
  std::string cudaPath = defaultCudaPath();
  EmitKind emit = EmitKind::All;
  SpillPolicy spills = SpillPolicy::Warn;
  /// Family.h: compileWithFamilies.
  FamilyMode family = FamilyMode::None;
  /// Parallel compiles of family variants; 0: the cores there are.
  unsigned jobs = 0;

  /// $CUDA_HOME if set, else the toolkit found when ws-gemm was configured
  /// (PipelineOptions::defaultCudaPath()).
  static std::string defaultCudaPath();
};

/// One compiled kernel. `ptx` is empty for EmitKind::Cubin only if the
/// caller drops it; the driver always produces it (the cubin is assembled
/// from it). `cubin` and `ptxasLog` are empty for EmitKind::Ptx.
struct CompiledKernel {
  std::string name;     ///< kernel symbol (the wsgemm.gemm's name)
  std::string manifest; ///< JSON, docs/manifest.md
  std::string ptx;
  std::string cubin;    ///< ELF bytes
  std::string ptxasLog; ///< ptxas -v's report (registers, spills)
};

/// Adds every dialect, extension and LLVM IR translation the driver's input
/// and pipeline need: upstream's (func, arith, math, gpu, nvvm, llvm, ...)
/// and ws-gemm's.
void registerCompilerDialects(DialectRegistry &registry);
/// A registry filled by registerCompilerDialects once, shared (read-only)
/// by every context the driver and its tools create.
const DialectRegistry &compilerRegistry();

/// Compiles every wsgemm.gemm in `module` (lowered in place to gpu.modules
/// and LLVM functions). A gemm without a config gets the planner's default,
/// or when the planner refuses that (a heavy epilogue's registers) the
/// first smaller config it accepts (resolveDefaultConfigs, Family.h); an
/// explicit config is compiled as written. Two kernels whose names are
/// equal without case, and a symbol NVPTX cannot print, are errors before
/// any PTX is made. Diagnostics go to the module's
/// context; returns the kernels sorted by name, or failure when any kernel
/// failed (the diagnostics say which and why). options.family is not read
/// here: compileWithFamilies (Family.h) makes families.
FailureOr<SmallVector<CompiledKernel>>
compileModule(ModuleOp module, const CompileOptions &options);

/// Writes DIR/<kernel>.json, .ptx (unless EmitKind::Cubin) and .cubin
/// (unless EmitKind::Ptx) for each kernel, creating `dir`. Every file is
/// written under a temporary name first and renamed only when all were
/// written, so a failure leaves nothing that looks like a good result.
/// Writes nothing, and says which kernels, when a name is no valid kernel
/// name (ws-gemm/Dialect/WsGemm/KernelName.h: so never a path) or two are
/// equal without case (one file on such file systems).
llvm::Error writeKernels(ArrayRef<CompiledKernel> kernels, StringRef dir,
                         EmitKind emit);

} // namespace mlir::wsgemm

#endif // WSGEMM_DRIVER_COMPILE_H
