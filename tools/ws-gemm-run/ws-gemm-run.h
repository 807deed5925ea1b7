//===- ws-gemm-run.h - The pieces of ws-gemm-run ----------------*- C++ -*-===//
//
// Shared by ws-gemm-run's files: its options (ws-gemm-run.cpp parses them),
// the broken and fake arguments of --bad-arg and --dry-run (BadArg.cpp) and
// the comparison of the kernel's outputs with the CPU reference
// (Verify.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMRUN_WSGEMMRUN_H
#define WSGEMM_TOOLS_WSGEMMRUN_WSGEMMRUN_H

#include "ws-gemm-runtime/Reference.h"

#include "../common/TileOrderFlags.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace wsgemm::runtool {

/// The flags (usage() in ws-gemm-run.cpp lists them).
struct Options {
  std::string manifest;
  int64_t M = 0, N = 0, K = 0, L = 1;
  double timeout = 120; // seconds the launch may take (0: no watchdog)
  uint64_t seed = 1;
  int64_t pad = 0;
  int64_t alignLd = 0; // bytes: every matrix's ld rounded up (0: packed)
  int64_t padA = 0, padB = 0;       // extra elements in A's / B's ld
  int64_t offsetA = 0, offsetB = 0; // A / B start this many elements in
  int64_t padC = 0, offsetC = 0;    // the same for C and the aux loads
  int64_t streamKTiles = -1; // stream-K tiles (-1: the runtime's choice)
  tools::TileOrderChoice tileOrder; // --raster, --swizzle
  int device = 0;
  int samples = 4096;
  bool full = false;
  bool dryRun = false;
  std::string badArg;
  std::string tuning, variant; // family manifests (FamilyChoice.h)
  std::map<std::string, float> scalars;
  std::set<std::string> nanInputs; // --nan
  double rtol = -1, atolRms = -1; // overrides
};

//===----------------------------------------------------------------------===//
// --bad-arg and --dry-run (BadArg.cpp)
//===----------------------------------------------------------------------===//

/// Breaks one argument per `mode` (misaligned, stride, dtype, null,
/// scale-ld: a block-scaled kernel's scale_a padded); returns
/// the words the runtime's refusal must contain.
std::string breakArgument(const runtime::Manifest &m, const std::string &mode,
                          runtime::GemmArgs &a);
/// Prints whether the broken argument was refused with the expected words;
/// the exit status (0: refused as expected, 1 otherwise).
int reportRefusal(const std::string &mode, const runtime::Status &s,
                  const std::string &expect);
/// Fake, aligned device addresses for every buffer (no GPU needed).
runtime::GemmArgs fakeArgs(const runtime::Manifest &m, const Options &o);

//===----------------------------------------------------------------------===//
// Verification (Verify.cpp)
//===----------------------------------------------------------------------===//

/// Compares D, the aux stores (`outs`, by name) and the reductions
/// (`reductions`, by name) with `ref`, printing one report per output;
/// true when all are within tolerance.
bool verifyOutputs(
    const runtime::Manifest &m, const Options &o, const runtime::Reference &ref,
    const std::map<std::string, runtime::HostMatrix> &outs,
    const std::map<std::string, std::vector<double>> &reductions);

} // namespace wsgemm::runtool

#endif // WSGEMM_TOOLS_WSGEMMRUN_WSGEMMRUN_H
