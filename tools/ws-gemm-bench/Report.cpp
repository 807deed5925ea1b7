//===- Report.cpp - ws-gemm-bench's CSV table -----------------------------===//
//
// One row per run, appended to --csv FILE (with a header line when the file
// is new or empty): the kernel, the problem, both times and throughputs,
// their ratio, the cuBLASLt epilogue timed and any note about the match.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-bench.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace wsgemm::bench {

using namespace runtime;

Status appendCsv(const Options &o, const std::string &kernel, double oursMs,
                 double libMs, const std::string &libName,
                 const std::string &libNote) {
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
           "ratio,cublaslt_epilogue,note\n";
  auto quote = [](std::string s) {
    std::replace(s.begin(), s.end(), '"', '\'');
    return "\"" + s + "\"";
  };
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s,%lld,%lld,%lld,%lld,%.5f,%.2f,",
                kernel.c_str(), static_cast<long long>(o.M),
                static_cast<long long>(o.N), static_cast<long long>(o.K),
                static_cast<long long>(o.L), oursMs, tflops(o, oursMs));
  csv << buf;
  if (libMs > 0) {
    std::snprintf(buf, sizeof buf, "%.5f,%.2f,%.4f,", libMs, tflops(o, libMs),
                  libMs / oursMs);
    csv << buf;
  } else {
    csv << ",,,";
  }
  csv << quote(libName) << "," << quote(libNote) << "\n";
  return Status::success();
}

} // namespace wsgemm::bench
