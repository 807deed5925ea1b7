//===- Ptxas.h - Assemble PTX with ptxas -v ---------------------*- C++ -*-===//
//
// Internal to the driver: one kernel's PTX through ptxas -v, and the spill
// check on its report; and the compile of a module whose configs are
// resolved, shared by compileModule and compileWithFamilies.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_DRIVER_PTXAS_H
#define WSGEMM_LIB_DRIVER_PTXAS_H

#include "ws-gemm/Driver/Compile.h"

#include "mlir/IR/Location.h"

namespace mlir::wsgemm::driver {

/// Assembles `ptx` with `ptxas -v` (from options.cudaPath) into `cubin`;
/// returns ptxas's report (registers, spills), or fails with an error at
/// `loc` carrying ptxas's own diagnostics.
FailureOr<std::string> assemble(Location loc, StringRef name, StringRef ptx,
                                const CompileOptions &options,
                                std::string &cubin);

/// Reads spill bytes and registers from ptxas's `report` and reports a
/// kernel that spills at `loc` as options.spills says; fails only for
/// SpillPolicy::Error.
LogicalResult checkSpills(Location loc, StringRef name, StringRef report,
                          SpillPolicy policy);

/// compileModule after resolveDefaultConfigs: the pipeline, PTX, ptxas.
FailureOr<SmallVector<CompiledKernel>>
compileResolved(ModuleOp module, const CompileOptions &options);

} // namespace mlir::wsgemm::driver

#endif // WSGEMM_LIB_DRIVER_PTXAS_H
