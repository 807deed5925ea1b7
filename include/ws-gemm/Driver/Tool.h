//===- Tool.h - What the compiler's command-line tools share ----*- C++ -*-===//
//
// ws-gemm-compile and ws-gemm-sweep read the same input and take the same
// compile flags (ws-gemm-sweep hands them on to the ws-gemm-compile
// processes it runs). One definition of each here:
//   CompileFlags  --chip, --features, --opt-level, --cuda-path, --spills:
//                 their cl::opts, the driver's CompileOptions from them,
//                 and the ones given, spelled for a ws-gemm-compile command
//                 line;
//   ToolInput     the context of the compile driver (its dialects, no op
//                 dump after a diagnostic, diagnostics printed with their
//                 source line) and the parse of the input file.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DRIVER_TOOL_H
#define WSGEMM_DRIVER_TOOL_H

#include "ws-gemm/Driver/Compile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::wsgemm {

/// The category of CompileFlags' options. A tool's --help lists only its
/// own category and this one (llvm::cl::HideUnrelatedOptions), not the
/// hundreds of LLVM's that linking LLVM registers.
llvm::cl::OptionCategory &compileFlagsCategory();

/// The compile driver's flags. Construct one before
/// llvm::cl::ParseCommandLineOptions (a global, or a local in main).
class CompileFlags {
public:
  CompileFlags();
  ~CompileFlags();
  CompileFlags(const CompileFlags &) = delete;
  CompileFlags &operator=(const CompileFlags &) = delete;

  /// The driver's options as the flags say (emit left at its default).
  CompileOptions options() const;
  /// `--flag=value` for each flag given on the command line, for a
  /// ws-gemm-compile process (the others keep its defaults).
  std::vector<std::string> given() const;

private:
  struct Opts;
  std::unique_ptr<Opts> opts;
};

/// One input file of a compiler tool, parsed in the driver's context.
class ToolInput {
public:
  ToolInput();
  ~ToolInput();

  /// Parses `path` as a module. Null when it fails: the diagnostics are
  /// printed, or `<tool>: error: <why>` when the file cannot be read.
  OwningOpRef<ModuleOp> parse(StringRef path, StringRef tool);
  MLIRContext &getContext() { return context; }

private:
  MLIRContext context;
  struct Handler;
  std::unique_ptr<Handler> handler;
};

} // namespace mlir::wsgemm

#endif // WSGEMM_DRIVER_TOOL_H
