//===- ws-gemm-bench.h - The pieces of ws-gemm-bench ------------*- C++ -*-===//
//
// Shared by ws-gemm-bench's files: its options (ws-gemm-bench.cpp parses
// them), the timed launches (Timing.cpp), the CSV table (Report.cpp) and
// the timing of one cubin at several tile orders (TileOrders.cpp).
// The cuBLASLt side is CublasCompare.h.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMBENCH_WSGEMMBENCH_H
#define WSGEMM_TOOLS_WSGEMMBENCH_WSGEMMBENCH_H

#include "RoundStats.h"

#include "ws-gemm-runtime/Driver.h"
#include "ws-gemm-runtime/Kernel.h"
#include "ws-gemm-runtime/Problem.h"

#include "../common/TileOrderFlags.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace wsgemm::bench {

/// The flags (usage() in ws-gemm-bench.cpp lists them).
struct Options {
  std::string manifest;
  int64_t M = 0, N = 0, K = 0, L = 1;
  int iters = 100;
  int warmup = 20;
  int rounds = 5;
  int device = 0;
  int64_t streamKTiles = -1; // stream-K tiles (-1: the runtime's choice)
  int64_t alignLd = 0;       // bytes: every matrix's ld rounded up
  int64_t padA = 0, padB = 0;       // extra elements in A's / B's ld
  int64_t offsetA = 0, offsetB = 0; // A / B start this many elements in
  int64_t padC = 0, offsetC = 0;    // the same for C and the aux loads
  uint64_t seed = 1;
  bool compare = false;
  bool cIsD = false; // --c-is-d: C read from D's buffer (D = f(acc, D))
  std::string csv;
  std::string plot;
  bool dryRun = false;
  std::string cublasLtPath;
  std::string tuning, variant; // family manifests (FamilyChoice.h)
  std::string chosen;          // the family variant run (empty: a manifest)
  std::map<std::string, float> scalars;
  tools::TileOrderChoice tileOrder;               // --raster, --swizzle
  std::vector<tools::TileOrderChoice> tileOrders; // --tile-orders
};

struct Timing {
  double median = 0, min = 0, p90 = 0;
  int samples = 0;
};

/// Times `launch(i)` (i selects the buffer set) with an event pair around
/// each call, after `warmup` untimed calls.
runtime::Expected<Timing>
timeLaunches(const std::function<runtime::Status(int)> &launch, CUstream stream,
             int warmup, int iters);

/// Plans a launch of `k` for each buffer set, with o.streamKTiles and the
/// tile order `order` (pinned in the arguments: every set packs the same
/// order, the one of the first set's geometry, stored in `packed`; none
/// for a kernel without a tile_order parameter and nothing forced).
runtime::Status
preparePlans(const runtime::Kernel &k, const Options &o,
             const std::vector<runtime::TestProblem> &sets,
             const tools::TileOrderChoice &order,
             std::vector<runtime::LaunchPlan> &plans,
             std::optional<runtime::TileOrder> *packed = nullptr);

/// --tile-orders: times `k` over `sets` at each of o.tileOrders, o.rounds
/// blocks of o.iters launches each (orders interleaved within a round), and
/// prints one line per order:
///   tile-order raster=along_m swizzle=8 source=forced ms=0.4321
///   tflops=612.3
/// (source: runtime, forced or partly forced). Returns the exit code.
int timeTileOrders(const runtime::Kernel &k, const Options &o,
                   const std::vector<runtime::TestProblem> &sets,
                   CUstream stream);

/// TFLOP/s of the problem of `o` run in `ms` milliseconds: 2*M*N*K*L / t.
double tflops(const Options &o, double ms);

/// One side (ours or cuBLASLt) over the rounds: medians over rounds of the
/// per-round median time and of the throughput, and the median SM clock
/// sampled after each round's timed block (0: unknown).
struct SideResult {
  double ms = 0, tflops = 0, mhz = 0;
};

/// What a run measured: both sides (lib.ms = 0: cuBLASLt not timed) and the
/// ratio over rounds.
struct BenchResult {
  SideResult ours, lib;
  /// The dense peak at the boost clock for the kernel's inputs (A's type):
  /// what the clock columns' fractions are of.
  double peakTflops = kPeakTflops;
  RoundSummary rounds;
  std::string libName, libNote;
};

/// Appends one row to the CSV file o.csv.
runtime::Status appendCsv(const Options &o, const std::string &kernel,
                          const BenchResult &r);

/// Draws the rows of CSV table `csv` (TFLOP/s per kernel and shape, ours
/// beside cuBLASLt) into `out` (.png or .svg) with gnuplot. Plot.cpp.
runtime::Status plotCsv(const std::string &csv, const std::string &out);

} // namespace wsgemm::bench

#endif // WSGEMM_TOOLS_WSGEMMBENCH_WSGEMMBENCH_H
