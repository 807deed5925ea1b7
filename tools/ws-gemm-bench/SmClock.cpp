//===- SmClock.cpp - The SM clock through NVML ----------------------------===//

#include "SmClock.h"

#include "RoundStats.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace wsgemm::bench {

namespace {
constexpr int kNvmlSuccess = 0; // NVML_SUCCESS
constexpr int kNvmlClockSm = 1; // NVML_CLOCK_SM
constexpr const char *kNvmlLib = "libnvidia-ml.so.1";

/// The NVML index of CUDA ordinal `ordinal`. NVML numbers every GPU of the
/// machine (in PCI bus order) and ignores CUDA_VISIBLE_DEVICES; CUDA numbers
/// only the visible ones. Without CUDA_VISIBLE_DEVICES the ordinal is taken
/// as the index (exact on one GPU, and on several when the CUDA order is
/// the PCI one, CUDA_DEVICE_ORDER=PCI_BUS_ID). When CUDA_VISIBLE_DEVICES is
/// a list of indices the ordinal picks from it; when it holds UUIDs the
/// ordinal is used as is and `note` says the clock may be another GPU's.
unsigned nvmlIndexOf(int ordinal, std::string &note) {
  const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible || !*visible)
    return static_cast<unsigned>(ordinal);
  std::vector<std::string> items;
  std::stringstream ss(visible);
  for (std::string item; std::getline(ss, item, ',');)
    items.push_back(item);
  if (ordinal < static_cast<int>(items.size())) {
    const std::string &item = items[static_cast<size_t>(ordinal)];
    char *end = nullptr;
    long idx = std::strtol(item.c_str(), &end, 10);
    if (!item.empty() && end && *end == '\0' && idx >= 0)
      return static_cast<unsigned>(idx);
  }
  note = "CUDA_VISIBLE_DEVICES=" + std::string(visible) +
         " is not a list of indices: NVML index " + std::to_string(ordinal) +
         " assumed";
  return static_cast<unsigned>(ordinal);
}
} // namespace

SmClock::~SmClock() {
  if (shutdown_ && device_)
    shutdown_();
  if (lib_)
    dlclose(lib_);
}

bool SmClock::open(int cudaOrdinal) {
  lib_ = dlopen(kNvmlLib, RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    why_ = std::string(kNvmlLib) + " not found";
    return false;
  }
  auto init = reinterpret_cast<InitFn>(dlsym(lib_, "nvmlInit_v2"));
  auto byIndex = reinterpret_cast<HandleByIndexFn>(
      dlsym(lib_, "nvmlDeviceGetHandleByIndex_v2"));
  shutdown_ = reinterpret_cast<ShutdownFn>(dlsym(lib_, "nvmlShutdown"));
  clockInfo_ =
      reinterpret_cast<ClockInfoFn>(dlsym(lib_, "nvmlDeviceGetClockInfo"));
  if (!init || !byIndex || !shutdown_ || !clockInfo_) {
    why_ = std::string(kNvmlLib) + ": missing symbols";
    shutdown_ = nullptr;
    return false;
  }
  if (int rc = init(); rc != kNvmlSuccess) {
    why_ = "nvmlInit_v2 failed (" + std::to_string(rc) + ")";
    shutdown_ = nullptr;
    return false;
  }
  const unsigned index = nvmlIndexOf(cudaOrdinal, note_);
  void *dev = nullptr;
  if (int rc = byIndex(index, &dev); rc != kNvmlSuccess || !dev) {
    why_ = "nvmlDeviceGetHandleByIndex_v2(" + std::to_string(index) +
           ") failed (" + std::to_string(rc) + ")";
    shutdown_();
    shutdown_ = nullptr;
    return false;
  }
  device_ = dev;
  return true;
}

double SmClock::sampleMhz() const {
  if (!device_)
    return 0;
  unsigned mhz = 0;
  if (clockInfo_(device_, kNvmlClockSm, &mhz) != kNvmlSuccess)
    return 0;
  return static_cast<double>(mhz);
}

ClockWindow::ClockWindow(const SmClock &clock) : clock_(clock) {
  if (!clock_.available())
    return;
  thread_ = std::thread([this] {
    while (!done_.load(std::memory_order_relaxed)) {
      if (double f = clock_.sampleMhz(); f > 0)
        samples_.push_back(f);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
}

ClockWindow::~ClockWindow() { stop(); }

double ClockWindow::stop() {
  done_.store(true, std::memory_order_relaxed);
  if (thread_.joinable())
    thread_.join();
  return samples_.empty() ? 0 : median(samples_);
}

} // namespace wsgemm::bench
