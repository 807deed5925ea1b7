//===- Launch.cpp - Grid rule, parameter packing, device checks -----------===//
//
// Grid rule (docs/manifest.md, "Grid"):
//   tiles:      (tilesM, tilesN, L) for raster along_m, (tilesN, tilesM, L)
//               for along_n; x and y rounded up to the cluster shape.
//   persistent: (cluster.x * clusters, cluster.y, cluster.z) with
//               clusters = min(ceil(tiles / clusterSize), capacity) and
//               capacity = floor(SMs * ctas_per_sm / clusterSize), further
//               capped by what is resident when known (the kernel's
//               cuOccupancyMaxActiveClusters, or its blocks per SM x SMs
//               without clusters); split-K
//               counts tiles x splits units, stream-K with stream-K tiles
//               takes the whole capacity.
// Tile order (a tile_order parameter): chooseTileOrder on the problem's
// tiles, with the CTAs the grid runs at once (over the split count for
// split-K, whose consecutive units share a tile) as the wave. A cluster's
// kernel walks groups of tiles; the choice counts single tiles (the
// manifest does not say how a data-parallel cluster splits into M and N).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Launch.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace wsgemm::runtime {

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

uint64_t requiredWorkspaceBytes(const Manifest &m, const LaunchGeometry &g) {
  if (!m.workspace)
    return 0;
  return uint64_t(g.splitTiles) *
         (m.workspace->tileBytes + m.workspace->flagBytes);
}

Status checkWorkspace(const Manifest &m, const LaunchGeometry &g,
                      const GemmArgs &args) {
  if (!m.workspace) {
    if (args.workspace != 0)
      return errorf("workspace: the kernel's tile scheduler (",
                    schedulerKindName(m.scheduler.kind),
                    ") takes no workspace, but one was given");
    return Status::success();
  }
  if (args.workspace == 0)
    return Status::success(); // the launch plan allocates one
  if (args.workspace % 16 != 0)
    return errorf("workspace: address is not 16-byte aligned");
  if (args.workspaceBytes < g.workspaceBytes)
    return errorf("workspace: ", args.workspaceBytes,
                  " bytes given, the kernel needs ", g.workspaceBytes, " (",
                  g.splitTiles, " split tiles x (", m.workspace->tileBytes,
                  " + ", m.workspace->flagBytes, ") bytes)");
  return Status::success();
}

/// What chooseTileOrder looks at for `m` on `ctas` CTAs.
static TileOrderProblem tileOrderProblem(const Manifest &m,
                                         const LaunchGeometry &g, int64_t ctas,
                                         int64_t K) {
  TileOrderProblem p;
  p.tilesM = g.tilesM;
  p.tilesN = g.tilesN;
  p.wave = std::max<int64_t>(1, ctas / m.scheduler.splitK);
  p.tileM = m.tile[0];
  p.tileN = m.tile[1];
  p.K = std::max<int64_t>(K, 1);
  p.bytesA = int64_t(dtypeSize(m.operand("A").dtype));
  p.bytesB = int64_t(dtypeSize(m.operand("B").dtype));
  return p;
}

Expected<LaunchGeometry> computeLaunchGeometry(const Manifest &m, int64_t M,
                                               int64_t N, int64_t L,
                                               int smCount,
                                               int maxActiveClusters,
                                               int64_t K,
                                               int64_t streamKTiles) {
  if (M < 1 || N < 1 || L < 1)
    return errorf("grid: problem size must be >= 1, got M = ", M, ", N = ", N,
                  ", L = ", L);
  LaunchGeometry g;
  g.block = m.block;
  g.cluster = m.cluster;
  g.smemBytes = m.smemBytes;
  g.tilesM = ceilDiv(M, m.tile[0]);
  g.tilesN = ceilDiv(N, m.tile[1]);
  g.tiles = g.tilesM * g.tilesN * L;
  const int64_t cx = m.cluster[0], cy = m.cluster[1], cz = m.cluster[2];
  const int64_t csize = cx * cy * cz;
  int64_t x, y, z;
  if (m.grid.kind == GridKind::Tiles) {
    bool alongM = m.grid.raster == Raster::AlongM;
    x = roundUp(alongM ? g.tilesM : g.tilesN, cx);
    y = roundUp(alongM ? g.tilesN : g.tilesM, cy);
    z = roundUp(L, cz);
    const char *yWhat = alongM ? "N" : "M";
    if (y > 65535)
      return errorf("grid: ", y, " tiles along ", yWhat,
                    " exceed the grid y limit of 65535 (raster ",
                    alongM ? "along_m" : "along_n", " puts ", yWhat,
                    " tiles on y)");
    if (z > 65535)
      return errorf("grid: L = ", L, " exceeds the grid z limit of 65535");
    if (x > std::numeric_limits<int32_t>::max())
      return errorf("grid: ", x, " CTAs exceed the grid x limit of 2^31-1");
  } else {
    if (smCount < 1)
      return errorf("grid: a persistent kernel needs the SM count, got ",
                    smCount);
    int64_t capacity =
        std::max<int64_t>(1, int64_t(smCount) * m.grid.ctasPerSm / csize);
    if (maxActiveClusters > 0)
      capacity = std::min<int64_t>(capacity, maxActiveClusters);
    int64_t work = ceilDiv(g.tiles, csize);
    if (m.scheduler.kind == SchedulerKind::SplitK) {
      // Every (cluster group, split) unit is dealt like a tile; each tile of
      // a group, past the problem's edge too, has a workspace slot.
      int64_t cm = m.scheduler.clusterTilesM, cn = m.scheduler.clusterTilesN;
      int64_t groups = ceilDiv(g.tilesM, cm) * ceilDiv(g.tilesN, cn) * L;
      g.units = groups * m.scheduler.splitK;
      g.splitTiles = groups * cm * cn;
      work = g.units;
    } else if (m.scheduler.kind == SchedulerKind::StreamK) {
      // The stream-K region is shared by the whole persistent grid.
      int64_t kTiles = ceilDiv(std::max<int64_t>(K, 1), m.tile[2]);
      g.streamKTiles = streamKTiles >= 0
                           ? std::min(streamKTiles, g.tiles)
                           : chooseStreamKTiles(g.tiles, kTiles, capacity);
      g.splitTiles = g.streamKTiles;
      if (g.streamKTiles > 0)
        work = capacity;
      g.units = work;
    }
    int64_t clusters = std::min(work, capacity);
    x = cx * clusters;
    y = cy;
    z = cz;
    if (m.runtimeTileOrder())
      g.tileOrder = chooseTileOrder(tileOrderProblem(m, g, x * y * z, K));
  }
  g.grid = {static_cast<uint32_t>(x), static_cast<uint32_t>(y),
            static_cast<uint32_t>(z)};
  g.workspaceBytes = requiredWorkspaceBytes(m, g);
  return g;
}

Expected<LaunchGeometry> computeLaunchGeometry(const Manifest &m,
                                               const GemmArgs &args,
                                               int smCount,
                                               int maxActiveClusters) {
  auto g = computeLaunchGeometry(m, args.M, args.N, args.L, smCount,
                                 maxActiveClusters, args.K,
                                 args.streamKTiles.value_or(-1));
  if (g && args.tileOrder && m.runtimeTileOrder())
    g->tileOrder = args.tileOrder;
  return g;
}

TileOrder launchTileOrder(const Manifest &m, const GemmArgs &args,
                          const LaunchGeometry &g) {
  if (args.tileOrder)
    return *args.tileOrder;
  if (g.tileOrder)
    return *g.tileOrder;
  return TileOrder{g.tilesN > g.tilesM, 1};
}

void KernelParams::push(const void *data, size_t size) {
  auto slot = std::make_unique<Slot>();
  std::memset(slot->bytes, 0, sizeof slot->bytes);
  std::memcpy(slot->bytes, data, size);
  pointers_.push_back(slot->bytes);
  sizes_.push_back(size);
  slots_.push_back(std::move(slot));
}

Expected<KernelParams> packParams(const Manifest &m, const GemmArgs &args,
                                  const std::vector<CUtensorMap> &maps,
                                  CUdeviceptr workspace,
                                  int64_t streamKTiles) {
  LaunchGeometry g;
  g.tilesM = (args.M + m.tile[0] - 1) / m.tile[0];
  g.tilesN = (args.N + m.tile[1] - 1) / m.tile[1];
  g.streamKTiles = streamKTiles;
  return packParams(m, args, maps, g, workspace);
}

Expected<KernelParams> packParams(const Manifest &m, const GemmArgs &args,
                                  const std::vector<CUtensorMap> &maps,
                                  const LaunchGeometry &g,
                                  CUdeviceptr workspace) {
  static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");
  KernelParams out;
  size_t nextMap = 0;
  for (const Param &p : m.params) {
    switch (p.kind) {
    case ParamKind::TensorMap:
      if (nextMap >= maps.size())
        return errorf(p.name, ": no encoded tensor map (", maps.size(),
                      " given)");
      out.push(&maps[nextMap++], sizeof(CUtensorMap));
      break;
    case ParamKind::Pointer:
    case ParamKind::Reduction:
    case ParamKind::ScalarPointer: {
      auto it = args.named.find(p.name);
      if (it == args.named.end())
        return errorf(p.name, ": null pointer");
      CUdeviceptr ptr = it->second.ptr;
      out.push(&ptr, sizeof ptr);
      break;
    }
    case ParamKind::Matrix: {
      // {address, ld, batch stride}, strides in elements (docs/manifest.md).
      MatrixGeometry g = matrixGeometry(m, p.operand, args);
      const TensorArg *t = tensorArgFor(p.operand, args);
      int64_t value[3] = {static_cast<int64_t>(t ? t->ptr : 0), g.ld,
                          g.batchStride};
      out.push(value, sizeof value);
      break;
    }
    case ParamKind::Scalar: {
      auto it = args.scalars.find(p.name);
      if (it == args.scalars.end())
        return errorf(p.name, ": missing value for scalar parameter");
      float v = it->second;
      out.push(&v, sizeof v);
      break;
    }
    case ParamKind::Workspace:
      if (workspace == 0)
        return errorf(p.name, ": null pointer");
      out.push(&workspace, sizeof workspace);
      break;
    case ParamKind::StreamKTiles: {
      int32_t v = static_cast<int32_t>(g.streamKTiles);
      out.push(&v, sizeof v);
      break;
    }
    case ParamKind::TileOrder: {
      TileOrder order = launchTileOrder(m, args, g);
      WSGEMM_TRY(checkTileOrder(order));
      int32_t v = order.encode();
      out.push(&v, sizeof v);
      break;
    }
    case ParamKind::Size: {
      int64_t v = dimValue(p.dim, args, m);
      if (v < 1 || v > std::numeric_limits<int32_t>::max())
        return errorf(dimName(p.dim), ": ", v, " is outside the int32 range");
      int32_t i = static_cast<int32_t>(v);
      out.push(&i, sizeof i);
      break;
    }
    }
  }
  if (nextMap != maps.size())
    return errorf("params: ", maps.size(),
                  " tensor maps given, the kernel "
                  "takes ",
                  nextMap);
  return out;
}

std::optional<std::string> chipFor(const DeviceInfo &d) {
  if (d.ccMajor == 9 && d.ccMinor == 0)
    return std::string("sm_90a");
  if (d.ccMajor == 8 && (d.ccMinor == 0 || d.ccMinor == 7))
    return std::string("sm_80");
  if (d.ccMajor == 8 && (d.ccMinor == 6 || d.ccMinor == 9))
    return "sm_8" + std::to_string(d.ccMinor);
  return std::nullopt;
}

Status checkDevice(const Manifest &m, const DeviceInfo &d) {
  bool ok = m.archSpecific
                ? (d.ccMajor == m.archMajor && d.ccMinor == m.archMinor)
                : (d.ccMajor == m.archMajor && d.ccMinor >= m.archMinor);
  if (!ok)
    return errorf("cubin built for ", m.arch, ", device is sm_", d.ccMajor,
                  d.ccMinor, d.name.empty() ? "" : " (" + d.name + ")");
  if (static_cast<int64_t>(m.smemBytes) > d.maxSmemOptin)
    return errorf("smem_bytes: the kernel needs ", m.smemBytes,
                  " bytes of dynamic shared memory per CTA, the device allows "
                  "at most ",
                  d.maxSmemOptin, " (opt-in)");
  return Status::success();
}

float reductionIdentity(ReduceKind r) {
  switch (r) {
  case ReduceKind::Sum:
  case ReduceKind::AbsMax:
    return 0.0f;
  case ReduceKind::Max:
    return -INFINITY;
  case ReduceKind::Min:
    return INFINITY;
  }
  return 0.0f;
}

} // namespace wsgemm::runtime
