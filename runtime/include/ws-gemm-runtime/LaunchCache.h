//===- LaunchCache.h - Launch plans and workspaces kept between launches -*- C++ -*-===//
//
// What a kernel keeps so that a repeated launch does the launch and nothing
// else (DESIGN.md 5a; CUTLASS's adapter splits initialize() from run()):
//   - LaunchPlan: the validated, encoded form of one set of arguments (grid,
//     tensor maps, packed parameters);
//   - PlanCache: plans by launch key, the arguments' bytes. Equal arguments
//     give an equal key, so a plan found was validated for exactly these
//     arguments, and arguments that were refused never have one;
//   - WorkspacePool: split-K / stream-K workspaces, one set per stream
//     (launches on two streams may overlap; launches on one stream do not),
//     allocated and zeroed on first need and kept until the kernel goes,
//     since a captured CUDA graph holds their addresses.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_LAUNCHCACHE_H
#define WSGEMM_RUNTIME_LAUNCHCACHE_H

#include "ws-gemm-runtime/Driver.h"

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace wsgemm::runtime {

/// Everything a launch needs, built by Kernel::prepare().
struct LaunchPlan {
  LaunchGeometry geometry;
  std::vector<TensorMapSpec> tensorMaps; // what was encoded, for messages
  KernelParams params;
  /// The workspace the parameters point at (0: none): the caller's, or one
  /// of the kernel's WorkspacePool for the plan's stream.
  CUdeviceptr workspace = 0;
};

/// Appends the launch key of `args` to `key`: every field of GemmArgs, and
/// `stream` (pass null when the plan does not depend on it).
void appendLaunchKey(std::string &key, const GemmArgs &args, CUstream stream);

/// Plans by launch key; readers do not block each other. Bounded: past
/// kCapacity plans the cache starts over (plans in use stay alive through
/// their shared_ptr).
class PlanCache {
public:
  static constexpr size_t kCapacity = 1024;
  std::shared_ptr<const LaunchPlan> find(const std::string &key) const;
  void insert(const std::string &key, std::shared_ptr<const LaunchPlan> plan);
  size_t size() const;

private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const LaunchPlan>> plans_;
};

/// Zeroed device workspaces per stream. A kernel leaves its workspace zeroed
/// after every launch (docs/stream-k.md), so a buffer is zeroed once, when
/// it is allocated. Allocation switches the calling thread to relaxed
/// stream-capture mode, so a first launch inside a CUDA-graph capture works;
/// the zeroing runs on a non-blocking stream of its own and is waited for.
class WorkspacePool {
public:
  WorkspacePool() = default;
  WorkspacePool(const WorkspacePool &) = delete;
  WorkspacePool &operator=(const WorkspacePool &) = delete;
  /// A zeroed buffer of at least `bytes` (> 0) for launches on `stream`.
  Expected<CUdeviceptr> get(CUstream stream, uint64_t bytes);
  /// Buffers allocated so far (all streams).
  size_t size() const;

private:
  mutable std::mutex mutex_;
  std::map<CUstream, std::vector<DeviceBuffer>> buffers_;
};

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_LAUNCHCACHE_H
