//===- RoundStats.cpp - ws-gemm-bench's statistics over rounds ------------===//

#include "RoundStats.h"

#include <algorithm>

namespace wsgemm::bench {

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double peakTflopsAtClock(double mhz, double peak) {
  return peak * mhz / kPeakMhz;
}

double fractionOfPeakAtClock(double tflops, double mhz, double peak) {
  if (mhz <= 0)
    return 0;
  return tflops / peakTflopsAtClock(mhz, peak);
}

RoundSummary summarizeRounds(const std::vector<double> &ours,
                             const std::vector<double> &lib) {
  RoundSummary s;
  s.rounds = static_cast<int>(ours.size());
  s.oursTflops = median(ours);
  s.libTflops = median(lib);
  std::vector<double> ratios;
  for (size_t i = 0; i < ours.size() && i < lib.size(); ++i)
    if (lib[i] > 0)
      ratios.push_back(ours[i] / lib[i]);
  if (ratios.empty())
    return s;
  s.ratio = median(ratios);
  auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
  s.ratioMin = *lo;
  s.ratioMax = *hi;
  return s;
}

} // namespace wsgemm::bench
