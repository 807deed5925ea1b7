//===- Tune.h - The pieces of ws-gemm-tune ----------------------*- C++ -*-===//
//
// ws-gemm-tune times every variant of a kernel family on given shapes and
// records the fastest per shape in a tuning table (docs/tuning.md):
//   ws-gemm-tune.cpp  flags, the shapes loop, the time budget, the table;
//   Shape.cpp         one shape: buffer sets, the correctness check of each
//                     candidate against the CPU reference (ws-gemm-run's
//                     Verify.cpp), and alternating timed rounds over the
//                     candidates (ws-gemm-bench's timeLaunches and SM clock).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMTUNE_TUNE_H
#define WSGEMM_TOOLS_WSGEMMTUNE_TUNE_H

#include "ws-gemm-runtime/Family.h"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace wsgemm::tune {

struct Options {
  std::string family, table;
  std::vector<runtime::Shape> shapes;
  std::vector<std::string> only; // --variants: ids to time (default all)
  int iters = 50;
  int warmup = 10;
  int rounds = 3;
  int finalists = 3;   // leaders meeting in the final (< 2: no final)
  int finalRounds = 4; // its rounds (0: no final)
  double budgetS = 480; // whole run, seconds
  bool verifyAll = false; // --verify all: on every shape, not just the first
  int device = 0;
  uint64_t seed = 1;
  std::map<std::string, float> scalars;
};

using Clock = std::chrono::steady_clock;

/// What tuning one shape gave.
struct ShapeResult {
  runtime::TuningEntry entry; // variant empty: nothing measured
  int wrong = 0;              // variants that failed verification
  int skipped = 0;            // refused at launch, or out of budget
  int rounds = 0;             // complete rounds timed
};

/// Tunes one shape; progress on stdout. Its timed rounds get an equal share
/// of what is left before `deadline` once its set-up (buffers, reference,
/// verification) is done, with `shapesLeft` shapes (this one included) still
/// to time. `checked` holds, per family variant, what an earlier shape's
/// verification found (0 not checked, 1 correct, -1 wrong): with --verify
/// first a checked variant is not checked again, and a wrong one is skipped.
runtime::Expected<ShapeResult>
tuneShape(const Options &o, const runtime::Family &f,
          const std::vector<int> &candidates, const runtime::Shape &s,
          Clock::time_point start, Clock::time_point deadline,
          size_t shapesLeft, std::vector<int> &checked);

double secondsSince(Clock::time_point t0);

} // namespace wsgemm::tune

#endif // WSGEMM_TOOLS_WSGEMMTUNE_TUNE_H
