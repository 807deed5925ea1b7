//===- Launch.h - Grid rule, parameter packing, device checks ----*- C++
//-*-===//
//
// The GPU-free parts of a launch:
//   - computeLaunchGeometry(): the grid from the manifest's rule
//     (docs/manifest.md, "Grid"), and the tile order of a kernel that takes
//     it at launch (TileOrder.h);
//   - KernelParams / packParams(): the void** array cuLaunchKernelEx takes,
//     one 64-byte aligned slot per parameter in manifest order (tensor maps
//     by value, 128 bytes);
//   - checkDevice(): refuse a device the cubin cannot run on, or one with too
//     little shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_LAUNCH_H
#define WSGEMM_RUNTIME_LAUNCH_H

#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/StreamKRule.h"

#include <cuda.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wsgemm::runtime {

struct LaunchGeometry {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  std::array<uint32_t, 3> cluster{1, 1, 1};
  uint32_t smemBytes = 0;
  int64_t tilesM = 0, tilesN = 0, tiles = 0; // tiles = tilesM*tilesN*L
  /// Split-K / stream-K: the units dealt to CTAs (tiles x splits, or the
  /// CTA count for stream-K), the stream-K tiles chosen, the tiles whose
  /// partials meet in the workspace and its bytes (0 without one).
  int64_t units = 0, streamKTiles = 0, splitTiles = 0;
  uint64_t workspaceBytes = 0;
  /// Kernels with a tile_order parameter: the runtime's choice
  /// (chooseTileOrder), unless the geometry was computed from arguments
  /// that force one (GemmArgs::tileOrder).
  std::optional<TileOrder> tileOrder;
  bool clustered() const { return cluster[0] * cluster[1] * cluster[2] > 1; }
};

/// Workspace bytes a split-K / stream-K kernel needs for a problem (0 for
/// a data-parallel kernel): split tiles x (tile_bytes + flag_bytes), the
/// split tiles being every tile (split_k) or the stream-K tiles.
uint64_t requiredWorkspaceBytes(const Manifest &m, const LaunchGeometry &g);

/// Refuses a caller's workspace that is too small or misaligned, naming
/// the sizes: "workspace: 4096 bytes given, the kernel needs 1048608 (32
/// split tiles x (32768 + 8) bytes)".
Status checkWorkspace(const Manifest &m, const LaunchGeometry &g,
                      const GemmArgs &args);

/// Grid for problem M x N (x L) on a device with `smCount` SMs.
/// `maxActiveClusters` (cuOccupancyMaxActiveClusters, or for a kernel
/// without clusters its resident CTAs; 0 = unknown) caps the persistent
/// grid. Split-K and
/// stream-K kernels also need K (k-tiles per tile) and take an optional
/// stream-K tile count (`streamKTiles` < 0: the heuristic's).
Expected<LaunchGeometry> computeLaunchGeometry(const Manifest &m, int64_t M,
                                               int64_t N, int64_t L,
                                               int smCount,
                                               int maxActiveClusters = 0,
                                               int64_t K = 1,
                                               int64_t streamKTiles = -1);
/// The same from `args`: their sizes, stream-K tile count and tile order.
Expected<LaunchGeometry> computeLaunchGeometry(const Manifest &m,
                                               const GemmArgs &args,
                                               int smCount,
                                               int maxActiveClusters = 0);

/// The tile order a launch of `m` packs: args.tileOrder when set, else the
/// geometry's choice, else CUTLASS's raster rule with swizzle 1 (a
/// geometry computed without one).
TileOrder launchTileOrder(const Manifest &m, const GemmArgs &args,
                          const LaunchGeometry &g);

/// Owned, 64-byte aligned storage for the kernel parameters and the void**
/// array pointing into it. Movable; the pointers stay valid after a move.
class KernelParams {
public:
  struct alignas(64) Slot {
    unsigned char bytes[128];
  };
  /// Appends a parameter of `size` bytes (<= 128) copied from `data`.
  void push(const void *data, size_t size);
  /// The array cuLaunchKernelEx takes (it does not write through it).
  void **data() const { return pointers_.data(); }
  size_t size() const { return pointers_.size(); }
  const void *slot(size_t i) const { return pointers_[i]; }
  size_t slotSize(size_t i) const { return sizes_[i]; }

private:
  std::vector<std::unique_ptr<Slot>> slots_;
  mutable std::vector<void *> pointers_;
  std::vector<size_t> sizes_;
};

/// Packs the parameters in manifest order. `maps` holds one encoded
/// CUtensorMap per tensor_map parameter, in the order they appear;
/// `workspace` fills that parameter, and the geometry's stream-K tile count
/// and tile order (launchTileOrder) theirs, when the kernel has them.
Expected<KernelParams> packParams(const Manifest &m, const GemmArgs &args,
                                  const std::vector<CUtensorMap> &maps,
                                  const LaunchGeometry &g,
                                  CUdeviceptr workspace = 0);
/// The same without a geometry: `streamKTiles` as given, the tile order
/// args.tileOrder or CUTLASS's raster rule with swizzle 1.
Expected<KernelParams> packParams(const Manifest &m, const GemmArgs &args,
                                  const std::vector<CUtensorMap> &maps,
                                  CUdeviceptr workspace = 0,
                                  int64_t streamKTiles = 0);

/// What the runtime needs to know about a device.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  int maxSmemOptin = 0; // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
  int l2Bytes = 0;
};

/// The chip ws-gemm compiles for to run on `d` (the compiler's `chip`
/// option): sm_90a on compute capability 9.0, sm_80 on 8.0 and 8.7 (the
/// same instruction set and 163 KiB of shared memory a block), sm_86,
/// sm_89; none on others (an sm_90a cubin runs on 9.0 alone, sm_8x ones on
/// 8.x).
std::optional<std::string> chipFor(const DeviceInfo &d);

/// Refuses a device whose compute capability cannot run the cubin
/// ("cubin built for sm_90a, device is sm_80") or whose opt-in shared memory
/// per block is below the kernel's smem_bytes.
Status checkDevice(const Manifest &m, const DeviceInfo &d);

/// The value a reduction output must hold before launch: 0 for sum and
/// absmax, -inf for max, +inf for min.
float reductionIdentity(ReduceKind r);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_LAUNCH_H
