//===- TuneFinalTest.cpp - ws-gemm-tune's round orders and final ----------===//
//
// The main rounds alternate direction; the final rotates its order and
// ranks finalists by the median of their per-round time over the leader's.
//
//===----------------------------------------------------------------------===//

#include "../../tools/ws-gemm-tune/Final.h"

#include <gtest/gtest.h>

#include <vector>

using namespace wsgemm::tune;

namespace {

using Order = std::vector<size_t>;

TEST(TuneFinal, MainRoundsAlternateDirection) {
  EXPECT_EQ(mainRoundOrder(4, 0), (Order{0, 1, 2, 3}));
  EXPECT_EQ(mainRoundOrder(4, 1), (Order{3, 2, 1, 0}));
  EXPECT_EQ(mainRoundOrder(4, 2), (Order{0, 1, 2, 3}));
  EXPECT_EQ(mainRoundOrder(1, 1), (Order{0}));
  EXPECT_TRUE(mainRoundOrder(0, 0).empty());
}

TEST(TuneFinal, FinalRoundsRotateSoEachGoesFirst) {
  EXPECT_EQ(finalRoundOrder(2, 0), (Order{0, 1}));
  EXPECT_EQ(finalRoundOrder(2, 1), (Order{1, 0}));
  EXPECT_EQ(finalRoundOrder(3, 1), (Order{1, 2, 0}));
  EXPECT_EQ(finalRoundOrder(3, 2), (Order{2, 0, 1}));
  EXPECT_EQ(finalRoundOrder(3, 3), (Order{0, 1, 2}));
}

TEST(TuneFinal, PairedRatioOverridesTheMedians) {
  // The clock falls over the rounds. Finalist 1 is 3% faster than the
  // leader in every round, though its median time (over rounds taken at
  // different clocks) would not show it; finalist 2 is 5% slower.
  std::vector<std::vector<double>> ms = {{1.00, 0.97, 1.05},
                                         {1.20, 1.164, 1.26},
                                         {1.10, 1.067, 1.155},
                                         {1.30, 1.261, 1.365}};
  FinalRanking r = rankFinal(ms, 3);
  EXPECT_EQ(r.rounds, 4);
  EXPECT_EQ(r.winner, 1u);
  EXPECT_DOUBLE_EQ(r.scores[0].ratio, 1.0);
  EXPECT_NEAR(r.scores[1].ratio, 0.97, 1e-12);
  EXPECT_NEAR(r.scores[1].ratioMin, 0.97, 1e-12);
  EXPECT_NEAR(r.scores[1].ratioMax, 0.97, 1e-12);
  EXPECT_NEAR(r.scores[2].ratio, 1.05, 1e-12);
}

TEST(TuneFinal, MedianNotMeanOfRatios) {
  // Ratios of finalist 1: 0.9, 1.02, 1.03: one outlier round does not make
  // it the winner.
  std::vector<std::vector<double>> ms = {{1.0, 0.9}, {1.0, 1.02}, {1.0, 1.03}};
  FinalRanking r = rankFinal(ms, 2);
  EXPECT_EQ(r.winner, 0u);
  EXPECT_NEAR(r.scores[1].ratio, 1.02, 1e-12);
  EXPECT_NEAR(r.scores[1].ratioMin, 0.9, 1e-12);
  EXPECT_NEAR(r.scores[1].ratioMax, 1.03, 1e-12);
}

TEST(TuneFinal, TiesKeepTheLeader) {
  FinalRanking r = rankFinal({{2.0, 2.0}, {3.0, 3.0}}, 2);
  EXPECT_EQ(r.winner, 0u);
  EXPECT_DOUBLE_EQ(r.scores[1].ratio, 1.0);
}

TEST(TuneFinal, IncompleteRoundsAreLeftOut) {
  // The last round was cut by the budget after finalist 0.
  FinalRanking r = rankFinal({{1.0, 1.1}, {1.0, 0.8}, {1.0, 0.0}}, 2);
  EXPECT_EQ(r.rounds, 2);
  EXPECT_NEAR(r.scores[1].ratio, 0.95, 1e-12);
  EXPECT_EQ(r.winner, 1u);
  // No complete round: the leader stays, nothing scored.
  FinalRanking none = rankFinal({{1.0, 0.0}, {1.0}}, 2);
  EXPECT_EQ(none.rounds, 0);
  EXPECT_EQ(none.winner, 0u);
  EXPECT_EQ(none.scores.size(), 2u);
  EXPECT_EQ(none.scores[1].ratio, 0);
}

} // namespace
