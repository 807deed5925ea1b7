//===- Final.h - ws-gemm-tune's round orders and final ---------*- C++ -*-===//
//
// Pure functions (no CUDA), unit-tested in unittests/Runtime/TuneFinalTest.cpp.
//
// Ranking by the median of each variant's absolute times over rounds lets a
// variant's place in the round decide close calls: at the H100's power cap
// the card heats and its clock falls within a round, so whoever is timed
// early in every round looks faster. Two fixes:
//   - the main rounds alternate direction (round 0 first to last, round 1
//     last to first, ...), as ws-gemm-bench alternates ours and cuBLASLt;
//   - the leading few variants then meet in a final: rounds of back-to-back
//     blocks in a rotating order, each finalist scored by the median over
//     rounds of its time divided by the main-round leader's time in the
//     same round (paired, so the clock of that moment cancels).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMTUNE_FINAL_H
#define WSGEMM_TOOLS_WSGEMMTUNE_FINAL_H

#include <cstddef>
#include <vector>

namespace wsgemm::tune {

/// The order in which main round `round` (from 0) times `n` candidates:
/// 0..n-1 on even rounds, n-1..0 on odd ones.
std::vector<size_t> mainRoundOrder(size_t n, int round);

/// The order of final round `round` (from 0) over `n` finalists: rotated by
/// `round`, so that each finalist is timed first once every n rounds (for
/// two: AB, BA, AB, ...).
std::vector<size_t> finalRoundOrder(size_t n, int round);

/// A finalist's score: its time over the leader's (finalist 0) in the same
/// round, median over the complete rounds, with the extremes.
struct FinalScore {
  double ratio = 0, ratioMin = 0, ratioMax = 0;
};

struct FinalRanking {
  int rounds = 0;                 // complete rounds used
  std::vector<FinalScore> scores; // per finalist; finalist 0's ratio is 1
  size_t winner = 0;              // lowest ratio; ties keep the earlier one
};

/// Ranks finalists from `ms[round][finalist]` (milliseconds; a round with a
/// missing or non-positive time is incomplete and left out). Finalist 0 is
/// the main rounds' leader. With no complete round the leader stays the
/// winner and every score is 0.
FinalRanking rankFinal(const std::vector<std::vector<double>> &ms,
                       size_t finalists);

} // namespace wsgemm::tune

#endif // WSGEMM_TOOLS_WSGEMMTUNE_FINAL_H
