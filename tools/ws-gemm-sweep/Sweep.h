//===- Sweep.h - The pieces of ws-gemm-sweep --------------------*- C++ -*-===//
//
// ws-gemm-sweep compiles one wsgemm.gemm under many configs into a kernel
// family (docs/tuning.md):
//   Space.cpp    the config space: axes (a knob and its values in the
//                #wsgemm.config syntax, or auto), their defaults, the
//                shorthand flags, and the cross product merged over the
//                source op's own config;
//   Variants.cpp each config planned in-process by --wsgemm-prepare
//                (refusals keep the planner's diagnostic), variants that
//                plan alike merged, the survivors compiled by
//                ws-gemm-compile processes in parallel, and the family
//                manifest written.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMSWEEP_SWEEP_H
#define WSGEMM_TOOLS_WSGEMMSWEEP_SWEEP_H

#include "ws-gemm/Driver/Family.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <string>
#include <vector>

namespace wsgemm::sweep {

/// One knob swept over values. A value is written as in #wsgemm.config
/// (`[128, 256, 64]`, `pingpong`, `4`, `true`); "" means auto: the knob is
/// unset and the planner picks CUTLASS's default.
struct Axis {
  std::string knob;
  std::vector<std::string> values;
  bool fromUser = false; // given on the command line (else a default)
};

/// The knobs of a config as `knob -> value text`, in the attribute's order
/// (ws-gemm/Driver/Family.h, shared with the compile driver).
using mlir::wsgemm::joinConfig;
using mlir::wsgemm::KnobList;
using mlir::wsgemm::splitConfig;

/// The default axes (docs/tuning.md lists them): tile, schedule, cluster,
/// swizzle. `kBytes` is 128 bytes of A's element type (tile K).
std::vector<Axis> defaultAxes(int64_t tileK);

/// Parses a shorthand flag's list into an axis. `flag` is one of
/// tiles, schedules, clusters, stages, epi-tiles, rasters, swizzles,
/// persistent, fragment-sizes (value syntax: 128x256[x64], 2x1[x1], auto,
/// ...), or `axis` with `KNOB=V1|V2|...` in the attribute's own syntax.
/// False with a message on stderr when malformed.
bool parseAxisFlag(const std::string &flag, const std::string &value,
                   int64_t tileK, Axis &out);

/// Every combination of the axes (the first axis varies slowest), each
/// merged over `base`: a value replaces the base's knob, auto removes it.
std::vector<KnobList> enumerate(const KnobList &base,
                                const std::vector<Axis> &axes);

struct Options {
  std::string input, outDir, kernel;
  std::string compile;       // ws-gemm-compile to run
  std::string emit = "cubin"; // cubin | ptx (no ptxas)
  /// ws-gemm-compile's flags given to the sweep (--spills, --chip, ...),
  /// passed on to every compile.
  std::vector<std::string> compileFlags;
  /// The chip the configs are planned for (ws-gemm-compile's --chip).
  std::string chip = "sm_90a";
  unsigned jobs = 0;          // 0: the cores there are
  bool dryRun = false;        // plan only, compile nothing
  bool noDefaults = false;    // only the user's axes
  std::vector<Axis> axes;
  std::vector<std::string> argv; // for the family manifest
};

/// Runs the sweep on the parsed module; the exit status (0: a family was
/// written and nothing failed, 1: a variant the planner accepted failed to
/// compile or nothing compiled, 2: bad input).
int runSweep(const Options &o, mlir::ModuleOp module);

} // namespace wsgemm::sweep

#endif // WSGEMM_TOOLS_WSGEMMSWEEP_SWEEP_H
