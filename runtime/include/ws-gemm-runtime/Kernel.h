//===- Kernel.h - Load a manifest's cubin and launch it ----------*- C++
//-*-===//
//
// Kernel owns a CUmodule and its CUfunction for one manifest, loaded into the
// calling thread's current context after checking the device (sm_90a needs
// compute capability 9.0 exactly) and raising the dynamic shared memory
// limit. A launch is two steps:
//   prepare(args, s)    validate, encode tensor maps, pack params, grid
//   launch(plan, s)     cuLaunchKernelEx on stream s (cluster attribute when
//                       the cluster is not 1x1x1; programmatic stream
//                       serialization when the manifest says pdl, unless
//                       WSGEMM_PDL=0)
// launch(args, s) does both through the kernel's plan cache (LaunchCache.h):
// arguments seen before are launched from their plan with no validation,
// encoding, allocation or driver call but cuLaunchKernelEx, so a steady
// state launch costs a few microseconds and can be captured in a CUDA graph.
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
#include "ws-gemm-runtime/LaunchCache.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace wsgemm::runtime {

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
  /// Clusters that can be co-resident on the device (of a kernel without
  /// clusters: CTAs, blocks per SM x SMs).
  int maxActiveClusters() const { return maxActiveClusters_; }
  /// Registers per thread and static shared memory, from the function.
  int numRegs() const { return numRegs_; }
  int staticSmemBytes() const { return staticSmem_; }

  /// A plan for launches of `args` on `stream` (validated, tensor maps
  /// encoded, parameters packed; a split-K / stream-K kernel given no
  /// workspace takes the kernel's for `stream`). Not cached.
  Expected<LaunchPlan> prepare(const GemmArgs &args,
                               CUstream stream = nullptr) const;
  Status launch(const LaunchPlan &plan, CUstream stream) const;
  /// The cached plan for `args` on `stream`, prepared on first use.
  Expected<std::shared_ptr<const LaunchPlan>> plan(const GemmArgs &args,
                                                   CUstream stream) const;
  /// The cached plan or null: no validation, no driver call.
  std::shared_ptr<const LaunchPlan> cachedPlan(const GemmArgs &args,
                                               CUstream stream) const;
  /// plan + launch.
  Status launch(const GemmArgs &args, CUstream stream) const;
  /// Plans cached and workspaces allocated so far.
  size_t cachedPlans() const { return plans_.size(); }
  size_t workspaces() const { return workspaces_.size(); }

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
  mutable PlanCache plans_;
  mutable WorkspacePool workspaces_;
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
