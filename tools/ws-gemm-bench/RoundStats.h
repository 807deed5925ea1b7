//===- RoundStats.h - ws-gemm-bench's statistics over rounds ----*- C++ -*-===//
//
// Pure functions (no CUDA) for the alternating rounds: ws-gemm-bench times
// ours and then cuBLASLt, R times over, so clock drift hits both sides. Per
// side the median over rounds; the ratio is the median over rounds of each
// round's ours/cuBLASLt, with its min and max (the spread). Throughput is
// also given as a fraction of the dense f16/bf16 H100 SXM peak at the SM
// clock measured while timing.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMBENCH_ROUNDSTATS_H
#define WSGEMM_TOOLS_WSGEMMBENCH_ROUNDSTATS_H

#include <vector>

namespace wsgemm::bench {

/// Dense H100 SXM peaks at the 1830 MHz boost clock: 989 TFLOP/s for
/// f16/bf16 inputs, 1979 for 8-bit (e4m3/e5m2) ones.
constexpr double kPeakTflops = 989.0;
constexpr double kPeakTflops8Bit = 1979.0;
constexpr double kPeakMhz = 1830.0;

/// The median of `v` (the mean of the middle two for an even count); 0 when
/// `v` is empty.
double median(std::vector<double> v);

/// The peak TFLOP/s at SM clock `mhz`: `peak` (the boost clock's, by input
/// type: kPeakTflops or kPeakTflops8Bit) * mhz / kPeakMhz.
double peakTflopsAtClock(double mhz, double peak = kPeakTflops);

/// `tflops` as a fraction of peakTflopsAtClock(mhz, peak); 0 when mhz <= 0
/// (clock unknown).
double fractionOfPeakAtClock(double tflops, double mhz,
                             double peak = kPeakTflops);

/// The summary of R rounds of one kernel against cuBLASLt.
struct RoundSummary {
  int rounds = 0;
  double oursTflops = 0; // median over rounds
  double libTflops = 0;  // median over rounds; 0: cuBLASLt not timed
  double ratio = 0;      // median over rounds of ours/cuBLASLt (throughput)
  double ratioMin = 0, ratioMax = 0;
};

/// Summarizes per-round throughputs (TFLOP/s). `lib` is empty when cuBLASLt
/// was not timed (the ratio fields stay 0); otherwise it has one entry per
/// round of `ours`, and each ratio is ours[i] / lib[i]. Rounds whose lib
/// figure is not positive are left out of the ratio.
RoundSummary summarizeRounds(const std::vector<double> &ours,
                             const std::vector<double> &lib);

} // namespace wsgemm::bench

#endif // WSGEMM_TOOLS_WSGEMMBENCH_ROUNDSTATS_H
