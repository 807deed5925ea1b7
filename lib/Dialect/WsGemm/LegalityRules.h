//===- LegalityRules.h - Pieces shared by the legality files ---*- C++ -*-===//
//
// What the files of planning::checkLegality share (Legality.cpp calls the
// rest): the error list every rule appends to, and the rule groups kept in
// their own files (LegalitySchedulers.cpp: split-K, stream-K, block
// scaling). No IR here.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_DIALECT_WSGEMM_LEGALITYRULES_H
#define WSGEMM_LIB_DIALECT_WSGEMM_LEGALITYRULES_H

#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>
#include <vector>

namespace mlir::wsgemm::planning::legality {

/// Collects errors; `error()` returns a stream for the message.
class ErrorList {
public:
  llvm::raw_string_ostream error() {
    errors.push_back({});
    return llvm::raw_string_ostream(errors.back().message);
  }
  size_t size() const { return errors.size(); }
  std::vector<PlanError> take() { return std::move(errors); }
  PlanError &back() { return errors.back(); }

private:
  std::vector<PlanError> errors;
};

inline KernelSchedule getSchedule(const GemmDesc &desc) {
  return desc.config.schedule.value_or(KernelSchedule::Cooperative);
}

/// "[a, b, c]" for diagnostics.
template <size_t N>
std::string listToString(const std::array<int64_t, N> &values) {
  std::string str = "[";
  for (size_t i = 0; i < N; ++i)
    str += (i ? ", " : "") + std::to_string(values[i]);
  return str + "]";
}

/// The knob that splits a config's tiles, as written: "scheduler =
/// stream_k" or "split_k = S", for diagnostics.
inline std::string splitKnob(const GemmConfig &c) {
  return c.isStreamK() ? std::string("scheduler = stream_k")
                       : "split_k = " + std::to_string(c.getSplitK());
}

/// Split-K and stream-K (workspace, persistence, schedule, clusters, the
/// scheduler's parameter names).
void checkTileSchedulerRules(const GemmDesc &desc, ErrorList &errors);

/// Block-wise scaling (8-bit operands, promotion, tile N, parameter names).
void checkBlockScalingRules(const GemmDesc &desc, ErrorList &errors);

/// Mixed input (a quantized A, `dequant_a`): types, packing, tile K, group,
/// knobs it does not compose with (LegalityMixedInput.cpp).
void checkMixedInputRules(const GemmDesc &desc, ErrorList &errors);

} // namespace mlir::wsgemm::planning::legality

#endif // WSGEMM_LIB_DIALECT_WSGEMM_LEGALITYRULES_H
