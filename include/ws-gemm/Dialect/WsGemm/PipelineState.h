//===- PipelineState.h - Pipeline iterator arithmetic -----------*- C++ -*-===//
//
// The (index, phase, count) iterator of an N-stage mbarrier pipeline, as a
// constexpr value type with no MLIR dependency. It is the single definition of
// the arithmetic behind `!wsgemm.pipeline_state<N>`: the folders of
// `wsgemm.pipeline_state_advance` and the accessors use it, and the pipeline
// lowering emits the same formulas on SSA values.
//
// Semantics follow CUTLASS's cutlass::PipelineState (sm90_pipeline.hpp):
//   - `index` is the stage (buffer slot) in [0, stages);
//   - `phase` is the parity a wait on that stage's barrier waits for; it flips
//     every time the index wraps past the last stage;
//   - `count` is the number of advances since the start state.
// The producer starts at (0, 1, 0) because every buffer starts empty: its
// first wait on an empty barrier asks for the parity of the phase *before*
// the barrier's initial phase 0 and succeeds at once
// (make_producer_start_state). The consumer starts at (0, 0, 0).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_PIPELINESTATE_H
#define WSGEMM_DIALECT_WSGEMM_PIPELINESTATE_H

#include <cstdint>

namespace mlir::wsgemm {

struct PipelineState {
  /// Number of stages of the pipeline; at least 1.
  int64_t stages = 1;
  /// Stage the iterator points at, in [0, stages).
  int64_t index = 0;
  /// Barrier parity to wait for at `index`: 0 or 1.
  uint32_t phase = 0;
  /// Advances since the start state (never wraps in practice).
  int64_t count = 0;

  /// CUTLASS make_producer_start_state: (0, 1, 0).
  static constexpr PipelineState producerStart(int64_t stages) {
    return PipelineState{stages, 0, 1, 0};
  }
  /// A default-constructed CUTLASS PipelineState: (0, 0, 0).
  static constexpr PipelineState consumerStart(int64_t stages) {
    return PipelineState{stages, 0, 0, 0};
  }

  /// Number of times advancing by `n` (n >= 0) wraps the index past the last
  /// stage: floor((index + n) / stages), computed without overflow.
  constexpr int64_t wrapsFor(int64_t n) const {
    return n / stages + (n % stages >= stages - index ? 1 : 0);
  }

  /// Advances the iterator by `n` >= 0 steps in place: the index wraps modulo
  /// `stages`, the phase flips once per wrap, the count grows by `n`. Same
  /// result as `n` single increments and as CUTLASS PipelineState::advance.
  constexpr PipelineState &advance(int64_t n = 1) {
    int64_t wraps = wrapsFor(n);
    int64_t rest = n % stages;
    phase ^= static_cast<uint32_t>(wraps & 1);
    // (index + rest) mod stages, without forming index + rest.
    index = rest >= stages - index ? index - (stages - rest) : index + rest;
    count += n;
    return *this;
  }

  /// Returns a copy advanced by `n` >= 0 steps.
  constexpr PipelineState advanced(int64_t n = 1) const {
    PipelineState next = *this;
    next.advance(n);
    return next;
  }

  /// A state is well-formed when it could have been reached from a start
  /// state: stages >= 1, index in range, phase a single bit, count >= 0.
  constexpr bool isValid() const {
    return stages >= 1 && index >= 0 && index < stages && phase <= 1 &&
           count >= 0;
  }

  friend constexpr bool operator==(const PipelineState &a,
                                   const PipelineState &b) {
    return a.stages == b.stages && a.index == b.index && a.phase == b.phase &&
           a.count == b.count;
  }
  friend constexpr bool operator!=(const PipelineState &a,
                                   const PipelineState &b) {
    return !(a == b);
  }
};

// Compile-time checks of the arithmetic (the unit tests cover more).
static_assert(PipelineState::producerStart(4).advanced(4).phase == 0,
              "producer phase flips on the first wrap");
static_assert(PipelineState::consumerStart(4).advanced(9).index == 1 &&
                  PipelineState::consumerStart(4).advanced(9).phase == 0,
              "two wraps restore the phase");
static_assert(PipelineState::consumerStart(1).advanced(3).phase == 1,
              "a 1-stage pipeline flips the phase on every advance");

} // namespace mlir::wsgemm

#endif // WSGEMM_DIALECT_WSGEMM_PIPELINESTATE_H
