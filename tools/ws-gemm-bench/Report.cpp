//===- Report.cpp - ws-gemm-bench's CSV table -----------------------------===//
//
// One row per run, appended to --csv FILE (with a header line when the file
// is new or empty): the kernel, the problem, both times and throughputs,
// their ratio, the cuBLASLt epilogue timed and any note about the match;
// then (appended later, so older readers keep working) the ratio's spread
// over the rounds, the round count, and per side the median SM clock and
// the throughput as a fraction of the peak at that clock (empty: unknown).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-bench.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace wsgemm::bench {

using namespace runtime;

Status appendCsv(const Options &o, const std::string &kernel,
                 const BenchResult &r) {
  bool fresh;
  {
    std::ifstream probe(o.csv);
    fresh = !probe.good() || probe.peek() == std::ifstream::traits_type::eof();
  }
  std::ofstream csv(o.csv, std::ios::app);
  if (!csv)
    return errorf(o.csv, ": cannot open for appending");
  if (fresh)
    csv << "kernel,M,N,K,L,ours_ms,ours_tflops,cublaslt_ms,cublaslt_tflops,"
           "ratio,cublaslt_epilogue,note,ratio_min,ratio_max,rounds,sm_mhz,"
           "frac_peak_at_clock,cublaslt_sm_mhz,cublaslt_frac_peak_at_clock\n";
  auto quote = [](std::string s) {
    std::replace(s.begin(), s.end(), '"', '\'');
    return "\"" + s + "\"";
  };
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s,%lld,%lld,%lld,%lld,%.5f,%.2f,",
                kernel.c_str(), static_cast<long long>(o.M),
                static_cast<long long>(o.N), static_cast<long long>(o.K),
                static_cast<long long>(o.L), r.ours.ms, r.ours.tflops);
  csv << buf;
  const bool lib = r.lib.ms > 0;
  if (lib) {
    std::snprintf(buf, sizeof buf, "%.5f,%.2f,%.4f,", r.lib.ms, r.lib.tflops,
                  r.rounds.ratio);
    csv << buf;
  } else {
    csv << ",,,";
  }
  csv << quote(r.libName) << "," << quote(r.libNote) << ",";
  if (lib) {
    std::snprintf(buf, sizeof buf, "%.4f,%.4f,", r.rounds.ratioMin,
                  r.rounds.ratioMax);
    csv << buf;
  } else {
    csv << ",,";
  }
  csv << r.rounds.rounds << ",";
  // The clock columns of one side: empty when the clock (or side) is unknown.
  auto clockCols = [&](const SideResult &side) {
    if (side.mhz <= 0 || side.ms <= 0)
      return std::string(",");
    char b[64];
    std::snprintf(b, sizeof b, "%.0f,%.4f", side.mhz,
                  fractionOfPeakAtClock(side.tflops, side.mhz, r.peakTflops));
    return std::string(b);
  };
  csv << clockCols(r.ours) << "," << clockCols(r.lib) << "\n";
  return Status::success();
}

} // namespace wsgemm::bench
