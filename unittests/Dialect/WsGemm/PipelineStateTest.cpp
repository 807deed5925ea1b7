//===- PipelineStateTest.cpp - Pipeline iterator arithmetic ---------------===//
//
// Unit tests of mlir::wsgemm::PipelineState (PipelineState.h), the arithmetic
// behind !wsgemm.pipeline_state<N>: start states, single steps, advances by
// more than the stage count, phase flips per wrap and count growth, checked
// against a step-by-step model of CUTLASS's PipelineState::operator++.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/PipelineState.h"

#include "gtest/gtest.h"

#include <limits>

using mlir::wsgemm::PipelineState;

namespace {

/// CUTLASS's PipelineState::operator++, one step at a time.
PipelineState stepByStep(PipelineState s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    ++s.index;
    ++s.count;
    if (s.index == s.stages) {
      s.index = 0;
      s.phase ^= 1;
    }
  }
  return s;
}

TEST(PipelineStateTest, StartStates) {
  for (int64_t stages = 1; stages <= 7; ++stages) {
    PipelineState p = PipelineState::producerStart(stages);
    EXPECT_EQ(p.stages, stages);
    EXPECT_EQ(p.index, 0);
    EXPECT_EQ(p.phase, 1u);
    EXPECT_EQ(p.count, 0);
    EXPECT_TRUE(p.isValid());

    PipelineState c = PipelineState::consumerStart(stages);
    EXPECT_EQ(c.index, 0);
    EXPECT_EQ(c.phase, 0u);
    EXPECT_EQ(c.count, 0);
    EXPECT_TRUE(c.isValid());
    EXPECT_NE(p, c);
  }
}

TEST(PipelineStateTest, SingleStepsOverSeveralWraps) {
  for (int64_t stages = 1; stages <= 7; ++stages) {
    for (PipelineState start : {PipelineState::producerStart(stages),
                                PipelineState::consumerStart(stages)}) {
      PipelineState s = start;
      for (int64_t step = 1; step <= 5 * stages; ++step) {
        s.advance();
        EXPECT_EQ(s.index, step % stages) << "stages " << stages;
        EXPECT_EQ(s.count, step);
        // The phase flips once per completed cycle through the stages.
        uint32_t wraps = static_cast<uint32_t>((step / stages) & 1);
        EXPECT_EQ(s.phase, start.phase ^ wraps)
            << "stages " << stages << " step " << step;
        EXPECT_TRUE(s.isValid());
      }
    }
  }
}

TEST(PipelineStateTest, AdvanceByKMatchesKSteps) {
  for (int64_t stages = 1; stages <= 7; ++stages) {
    // Every reachable start point within two cycles, both agents.
    for (int64_t pre = 0; pre < 2 * stages; ++pre) {
      for (PipelineState base : {PipelineState::producerStart(stages),
                                 PipelineState::consumerStart(stages)}) {
        PipelineState from = stepByStep(base, pre);
        // k below, equal to and well above the stage count.
        for (int64_t k = 0; k <= 4 * stages + 3; ++k) {
          PipelineState expected = stepByStep(from, k);
          EXPECT_EQ(from.advanced(k), expected)
              << "stages " << stages << " pre " << pre << " k " << k;
        }
      }
    }
  }
}

TEST(PipelineStateTest, AdvanceComposes) {
  for (int64_t stages = 1; stages <= 7; ++stages) {
    PipelineState s = PipelineState::producerStart(stages);
    for (int64_t a = 0; a <= 2 * stages + 1; ++a)
      for (int64_t b = 0; b <= 2 * stages + 1; ++b)
        EXPECT_EQ(s.advanced(a).advanced(b), s.advanced(a + b))
            << "stages " << stages << " a " << a << " b " << b;
  }
}

TEST(PipelineStateTest, KnownValues) {
  // 4 stages, producer: after 5 steps, index 1, one wrap, phase 0.
  PipelineState p = PipelineState::producerStart(4).advanced(5);
  EXPECT_EQ(p.index, 1);
  EXPECT_EQ(p.phase, 0u);
  EXPECT_EQ(p.count, 5);
  // 3 stages, consumer: 9 steps are three wraps, phase 1.
  PipelineState c = PipelineState::consumerStart(3).advanced(9);
  EXPECT_EQ(c.index, 0);
  EXPECT_EQ(c.phase, 1u);
  EXPECT_EQ(c.count, 9);
  // From index 3 of 4, advancing by 1 wraps (CUTLASS's n < stages branch).
  PipelineState w = PipelineState::consumerStart(4).advanced(3).advanced(1);
  EXPECT_EQ(w.index, 0);
  EXPECT_EQ(w.phase, 1u);
  // From index 3 of 4, advancing by 6: (3 + 6) / 4 = 2 wraps, phase kept.
  PipelineState x = PipelineState::consumerStart(4).advanced(3).advanced(6);
  EXPECT_EQ(x.index, 1);
  EXPECT_EQ(x.phase, 0u);
}

TEST(PipelineStateTest, OneStageFlipsEveryStep) {
  PipelineState s = PipelineState::consumerStart(1);
  for (int64_t i = 1; i <= 10; ++i) {
    s.advance();
    EXPECT_EQ(s.index, 0);
    EXPECT_EQ(s.phase, static_cast<uint32_t>(i & 1));
  }
}

TEST(PipelineStateTest, LargeAdvancesDoNotOverflow) {
  // No intermediate exceeds max(n, stages), so huge n are exact.
  const int64_t n = (int64_t(1) << 62) + 5;
  for (int64_t stages = 1; stages <= 7; ++stages) {
    PipelineState from =
        PipelineState::producerStart(stages).advanced(stages - 1);
    PipelineState s = from.advanced(n);
    int64_t wraps = n / stages + ((stages - 1) + n % stages >= stages ? 1 : 0);
    EXPECT_EQ(s.index, ((stages - 1) + n % stages) % stages);
    EXPECT_EQ(s.phase, 1u ^ static_cast<uint32_t>(wraps & 1));
    EXPECT_EQ(s.count, (stages - 1) + n);
    EXPECT_TRUE(s.isValid());
  }
}

TEST(PipelineStateTest, HugeStageCountsDoNotOverflow) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  PipelineState s = PipelineState::consumerStart(max).advanced(max - 1);
  EXPECT_EQ(s.index, max - 1);
  EXPECT_EQ(s.phase, 0u);
  s.count = 0;        // keep the count itself in range for this check
  s.advance(max - 1); // wraps once: index (2 * max - 2) mod max = max - 2.
  EXPECT_EQ(s.index, max - 2);
  EXPECT_EQ(s.phase, 1u);
  EXPECT_TRUE(s.isValid());
}

TEST(PipelineStateTest, Validity) {
  EXPECT_FALSE((PipelineState{0, 0, 0, 0}).isValid());
  EXPECT_FALSE((PipelineState{4, 4, 0, 0}).isValid());
  EXPECT_FALSE((PipelineState{4, -1, 0, 0}).isValid());
  EXPECT_FALSE((PipelineState{4, 0, 2, 0}).isValid());
  EXPECT_FALSE((PipelineState{4, 0, 0, -1}).isValid());
  EXPECT_TRUE((PipelineState{4, 3, 1, 7}).isValid());
}

// The header is constexpr: folders may evaluate it at compile time.
static_assert(PipelineState::producerStart(5).advanced(12) ==
                  PipelineState{5, 2, 1, 12},
              "two wraps keep the producer's phase");

} // namespace
