//===- RoundStatsTest.cpp - ws-gemm-bench's statistics over rounds --------===//
//
// The median, the ratio over alternating rounds (median of the per-round
// ratios, with min and max) and the fraction of the peak at a clock.
//
//===----------------------------------------------------------------------===//

#include "RoundStats.h"

#include <gtest/gtest.h>

#include <vector>

using namespace wsgemm::bench;

namespace {

TEST(RoundStats, Median) {
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({3}), 3);
  EXPECT_EQ(median({5, 1, 3}), 3);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(RoundStats, RatioIsMedianOfPerRoundRatios) {
  // Per round: 0.9, 1.0, 0.8, 1.2, 0.95. The median of the ratios (0.95) is
  // not the ratio of the medians (700 / 700 = 1).
  std::vector<double> ours = {630, 700, 560, 840, 760};
  std::vector<double> lib = {700, 700, 700, 700, 800};
  RoundSummary s = summarizeRounds(ours, lib);
  EXPECT_EQ(s.rounds, 5);
  EXPECT_DOUBLE_EQ(s.oursTflops, 700);
  EXPECT_DOUBLE_EQ(s.libTflops, 700);
  EXPECT_DOUBLE_EQ(s.ratio, 0.95);
  EXPECT_DOUBLE_EQ(s.ratioMin, 0.8);
  EXPECT_DOUBLE_EQ(s.ratioMax, 1.2);
}

TEST(RoundStats, EvenRoundCount) {
  RoundSummary s = summarizeRounds({600, 800}, {800, 800});
  EXPECT_EQ(s.rounds, 2);
  EXPECT_DOUBLE_EQ(s.oursTflops, 700);
  EXPECT_DOUBLE_EQ(s.ratio, 0.875);
  EXPECT_DOUBLE_EQ(s.ratioMin, 0.75);
  EXPECT_DOUBLE_EQ(s.ratioMax, 1.0);
}

TEST(RoundStats, WithoutCublasNoRatio) {
  RoundSummary s = summarizeRounds({500, 520, 510}, {});
  EXPECT_EQ(s.rounds, 3);
  EXPECT_DOUBLE_EQ(s.oursTflops, 510);
  EXPECT_EQ(s.libTflops, 0);
  EXPECT_EQ(s.ratio, 0);
  EXPECT_EQ(s.ratioMin, 0);
  EXPECT_EQ(s.ratioMax, 0);
}

TEST(RoundStats, NonPositiveLibRoundsLeftOutOfRatio) {
  RoundSummary s = summarizeRounds({600, 700, 800}, {0, 700, 800});
  EXPECT_DOUBLE_EQ(s.ratio, 1.0);
  EXPECT_DOUBLE_EQ(s.ratioMin, 1.0);
  EXPECT_DOUBLE_EQ(s.ratioMax, 1.0);
}

TEST(RoundStats, PeakAtClock) {
  EXPECT_DOUBLE_EQ(peakTflopsAtClock(1830), 989);
  EXPECT_DOUBLE_EQ(peakTflopsAtClock(915), 494.5);
  // 741.75 TFLOP/s at the boost clock is 0.75 of peak; at 1755 MHz the peak
  // is 948.47 TFLOP/s, and 0.75 of that is 0.75 of peak at that clock.
  EXPECT_DOUBLE_EQ(fractionOfPeakAtClock(741.75, 1830), 0.75);
  EXPECT_NEAR(fractionOfPeakAtClock(0.75 * 989 * 1755 / 1830, 1755), 0.75,
              1e-12);
  // 8-bit inputs: twice the peak (1979 TFLOP/s at the boost clock).
  EXPECT_DOUBLE_EQ(peakTflopsAtClock(1830, kPeakTflops8Bit), 1979);
  EXPECT_NEAR(fractionOfPeakAtClock(1413.28, 1980, kPeakTflops8Bit),
              1413.28 / (1979.0 * 1980 / 1830), 1e-12);
  // Unknown clock: no fraction.
  EXPECT_EQ(fractionOfPeakAtClock(700, 0), 0);
}

} // namespace
