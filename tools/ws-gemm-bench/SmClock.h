//===- SmClock.h - The SM clock through NVML, loaded at run time -*- C++
//-*-===//
//
// ws-gemm-bench logs the SM clock while it times, to put each throughput
// against the peak at that clock. NVML is dlopen'ed (libnvidia-ml.so.1,
// which the driver installs), never linked, as CublasLt.h does for
// cuBLASLt; the few declarations it needs are written out here, so no NVML
// header is needed either. A machine without NVML still benchmarks: the
// clock is then unknown.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_WSGEMMBENCH_SMCLOCK_H
#define WSGEMM_TOOLS_WSGEMMBENCH_SMCLOCK_H

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace wsgemm::bench {

class SmClock {
public:
  SmClock() = default;
  SmClock(const SmClock &) = delete;
  SmClock &operator=(const SmClock &) = delete;
  ~SmClock();

  /// Loads NVML and finds the device behind CUDA ordinal `cudaOrdinal`.
  /// False (with why() saying why) when NVML is missing or fails.
  bool open(int cudaOrdinal);
  bool available() const { return device_ != nullptr; }
  /// Why the clock is unavailable (empty when it is available).
  const std::string &why() const { return why_; }
  /// A note on how the device was found (empty when nothing to say).
  const std::string &note() const { return note_; }
  /// The current SM clock in MHz; 0 when unavailable or NVML fails.
  double sampleMhz() const;

private:
  using InitFn = int (*)();
  using ShutdownFn = int (*)();
  using HandleByIndexFn = int (*)(unsigned, void **);
  using ClockInfoFn = int (*)(void *, int, unsigned *);

  void *lib_ = nullptr;
  void *device_ = nullptr;
  ShutdownFn shutdown_ = nullptr;
  ClockInfoFn clockInfo_ = nullptr;
  std::string why_, note_;
};

/// The SM clock while a block of launches runs: a thread samples it every
/// millisecond from construction to stop(), which returns the median
/// (0 when the clock is unavailable or nothing was sampled). One reading
/// after the block would catch the clock of an idle GPU, not the block's.
class ClockWindow {
public:
  explicit ClockWindow(const SmClock &clock);
  ClockWindow(const ClockWindow &) = delete;
  ClockWindow &operator=(const ClockWindow &) = delete;
  ~ClockWindow();
  double stop();

private:
  const SmClock &clock_;
  std::atomic<bool> done_{false};
  std::vector<double> samples_;
  std::thread thread_;
};

} // namespace wsgemm::bench

#endif // WSGEMM_TOOLS_WSGEMMBENCH_SMCLOCK_H
