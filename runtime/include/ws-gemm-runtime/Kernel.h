//===- Kernel.h - Load a manifest's cubin and launch it ----------*- C++
//-*-===//
//
// Kernel owns a CUmodule and its CUfunction for one manifest, loaded into the
// calling thread's current context after checking the device (sm_90a needs
// compute capability 9.0 exactly) and raising the dynamic shared memory
// limit. A launch is two steps:
//   prepare(args)       validate, encode tensor maps, pack params, grid
//   launch(plan, s)     cuLaunchKernelEx on stream s (cluster attribute when
//                       the cluster is not 1x1x1)
// so a benchmark can prepare once per buffer set and time launches only.
// ModuleCache shares loaded kernels between threads, keyed by manifest path
// and context.
//
//   auto ctx = Context::create(0);
//   auto k = ModuleCache::global().get("out/gemm.json");
//   GemmArgs a; a.M = ...; a.A.ptr = ...; a.scalars["alpha"] = 1.0f;
//   if (Status s = (*k)->launch(a, stream); !s.ok()) puts(s.message().c_str());
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_KERNEL_H
#define WSGEMM_RUNTIME_KERNEL_H

#include "ws-gemm-runtime/Driver.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace wsgemm::runtime {

/// Everything a launch needs, built by Kernel::prepare().
struct LaunchPlan {
  LaunchGeometry geometry;
  std::vector<TensorMapSpec> tensorMaps; // what was encoded, for messages
  KernelParams params;
  /// Split-K / stream-K without a caller's workspace: the plan's own,
  /// zeroed when allocated (each launch leaves it zeroed).
  DeviceBuffer workspace;
};

class Kernel {
public:
  /// Loads manifest + cubin into the current context.
  static Expected<std::shared_ptr<const Kernel>>
  load(const std::string &manifestPath);
  /// Same, from an already parsed manifest and the cubin bytes.
  static Expected<std::shared_ptr<const Kernel>>
  load(Manifest manifest, const std::vector<char> &cubin);

  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  ~Kernel();

  const Manifest &manifest() const { return manifest_; }
  const DeviceInfo &device() const { return device_; }
  CUfunction function() const { return function_; }
  CUcontext context() const { return context_; }
  /// Clusters that can be co-resident (0 when the kernel is not clustered).
  int maxActiveClusters() const { return maxActiveClusters_; }
  /// Registers per thread and static shared memory, from the function.
  int numRegs() const { return numRegs_; }
  int staticSmemBytes() const { return staticSmem_; }

  Expected<LaunchPlan> prepare(const GemmArgs &args) const;
  Status launch(const LaunchPlan &plan, CUstream stream) const;
  /// prepare + launch.
  Status launch(const GemmArgs &args, CUstream stream) const;

private:
  Kernel() = default;
  Manifest manifest_;
  DeviceInfo device_;
  CUcontext context_ = nullptr;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  int maxActiveClusters_ = 0;
  int numRegs_ = 0;
  int staticSmem_ = 0;
};

/// Thread-safe cache of loaded kernels keyed by (manifest path, context).
class ModuleCache {
public:
  static ModuleCache &global();
  /// The kernel for `manifestPath` in the calling thread's current context,
  /// loading it on first use. Concurrent callers get the same Kernel.
  Expected<std::shared_ptr<const Kernel>> get(const std::string &manifestPath);
  size_t size() const;
  void clear();

private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, CUcontext>, std::shared_ptr<const Kernel>>
      kernels_;
};

/// Reads a whole file.
Expected<std::vector<char>> readFile(const std::string &path);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_KERNEL_H
