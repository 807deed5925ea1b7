//===- Plot.cpp - ws-gemm-bench --plot: TFLOP/s per shape -----------------===//
//
// Reads the CSV table ws-gemm-bench appends to (Report.cpp) and draws one
// pair of bars per row, ours beside cuBLASLt, labelled with the kernel and
// its M x N x K (x L), with the throughput ratio above each pair. gnuplot
// (Debian's gnuplot-nox) renders it: a .png (pngcairo) or .svg file.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-bench.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace wsgemm::bench {
using namespace runtime;

namespace {
struct Row {
  std::string label;
  double ours = 0, lib = 0, ratio = 0;
};

/// The first `n` comma-separated fields of `line` (the table's leading
/// columns are never quoted).
std::vector<std::string> fields(const std::string &line, size_t n) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string f;
  while (out.size() < n && std::getline(ss, f, ','))
    out.push_back(f);
  return out;
}

Expected<std::vector<Row>> readTable(const std::string &csv) {
  std::ifstream in(csv);
  if (!in)
    return errorf(csv, ": cannot open");
  std::string line;
  if (!std::getline(in, line) || line.rfind("kernel,M,N,K,L,ours_ms,", 0) != 0)
    return errorf(csv, ": not a ws-gemm-bench table (its header starts "
                       "'kernel,M,N,K,L,ours_ms,')");
  std::vector<Row> rows;
  for (int n = 2; std::getline(in, line); ++n) {
    if (line.empty())
      continue;
    std::vector<std::string> f = fields(line, 10);
    if (f.size() < 10)
      return errorf(csv, ":", n, ": ", f.size(), " columns, expected 10 or more");
    Row r;
    r.label = f[0] + "\\n" + f[1] + "x" + f[2] + "x" + f[3] +
              (f[4] == "1" ? "" : "x" + f[4]);
    char *end = nullptr;
    r.ours = std::strtod(f[6].c_str(), &end);
    if (f[6].empty() || *end)
      return errorf(csv, ":", n, ": ours_tflops '", f[6], "' is not a number");
    r.lib = f[8].empty() ? 0 : std::strtod(f[8].c_str(), nullptr);
    r.ratio = f[9].empty() ? 0 : std::strtod(f[9].c_str(), nullptr);
    rows.push_back(r);
  }
  if (rows.empty())
    return errorf(csv, ": no rows to plot");
  return rows;
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

Status plotCsv(const std::string &csv, const std::string &out) {
  std::string terminal;
  if (endsWith(out, ".png"))
    terminal = "pngcairo size 1200,600 font ',10'";
  else if (endsWith(out, ".svg"))
    terminal = "svg size 1200,600 dynamic font ',10'";
  else
    return errorf("--plot ", out, ": the file must end in .png or .svg");
  auto rows = readTable(csv);
  if (!rows)
    return rows.status();

  char dir[] = "/tmp/wsgemm-plot-XXXXXX";
  if (!mkdtemp(dir))
    return errorf("--plot: cannot create a temporary directory");
  std::string data = std::string(dir) + "/data", script = std::string(dir) + "/plot.gp";
  {
    std::ofstream d(data);
    for (const Row &r : *rows)
      d << "\"" << r.label << "\"\t" << r.ours << "\t" << r.lib << "\t"
        << r.ratio << "\n";
    std::ofstream g(script);
    g << "set terminal " << terminal << "\n"
      << "set output '" << out << "'\n"
      << "set title 'ws-gemm beside cuBLASLt: median TFLOP/s over rounds (above: median ratio ours/cuBLASLt)'\n"
      << "set ylabel 'TFLOP/s'\nset yrange [0:*]\nset grid ytics\n"
      << "set style data histograms\nset style histogram clustered gap 1\n"
      << "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
      << "set key top left\nset xtics rotate by -25 noenhanced\n"
      << "set bmargin 8\nset rmargin 22\nset xrange [-0.6:" << rows->size() - 0.4 << "]\n"
      << "set datafile separator '\\t'\n"
      << "plot '" << data << "' using 2:xtic(1) title 'ws-gemm' lc rgb '#1f77b4', "
      << "'' using 3 title 'cuBLASLt' lc rgb '#ff7f0e', "
      << "'' using 0:(($2 > $3 ? $2 : $3) * 1.03):($4 > 0 ? sprintf('%.2f', $4) : '') "
      << "with labels notitle\n";
  }
  pid_t pid = fork();
  if (pid == 0) {
    execlp("gnuplot", "gnuplot", script.c_str(), static_cast<char *>(nullptr));
    std::_Exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0)
    status = -1;
  std::remove(data.c_str());
  std::remove(script.c_str());
  rmdir(dir);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    return errorf("--plot: gnuplot not found (Debian: apt-get install "
                  "gnuplot-nox; or copy ", csv,
                  " to a machine with it and run ws-gemm-bench --csv ", csv,
                  " --plot ", out, ")");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return errorf("--plot: gnuplot failed drawing ", out);
  std::printf("plot: %s (%zu row(s) of %s)\n", out.c_str(), rows->size(),
              csv.c_str());
  return Status::success();
}

} // namespace wsgemm::bench
