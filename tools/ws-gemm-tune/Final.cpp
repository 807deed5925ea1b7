//===- Final.cpp - ws-gemm-tune's round orders and head-to-head final -----===//

#include "Final.h"

#include "../ws-gemm-bench/RoundStats.h"

#include <algorithm>

namespace wsgemm::tune {

std::vector<size_t> mainRoundOrder(size_t n, int round) {
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = round % 2 == 0 ? i : n - 1 - i;
  return order;
}

std::vector<size_t> finalRoundOrder(size_t n, int round) {
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = (i + static_cast<size_t>(round)) % n;
  return order;
}

FinalRanking rankFinal(const std::vector<std::vector<double>> &ms,
                       size_t finalists) {
  FinalRanking r;
  r.scores.resize(finalists);
  std::vector<std::vector<double>> ratios(finalists);
  for (const std::vector<double> &round : ms) {
    if (round.size() < finalists)
      continue;
    bool complete = true;
    for (size_t i = 0; i < finalists; ++i)
      complete &= round[i] > 0;
    if (!complete)
      continue;
    ++r.rounds;
    for (size_t i = 0; i < finalists; ++i)
      ratios[i].push_back(round[i] / round[0]);
  }
  if (r.rounds == 0)
    return r;
  for (size_t i = 0; i < finalists; ++i) {
    FinalScore &s = r.scores[i];
    s.ratio = bench::median(ratios[i]);
    s.ratioMin = *std::min_element(ratios[i].begin(), ratios[i].end());
    s.ratioMax = *std::max_element(ratios[i].begin(), ratios[i].end());
    if (s.ratio < r.scores[r.winner].ratio)
      r.winner = i;
  }
  return r;
}

} // namespace wsgemm::tune
