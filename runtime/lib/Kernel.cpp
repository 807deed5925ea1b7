//===- Kernel.cpp - Module loading, launch preparation and launch ---------===//
//
// Load-time checks catch what would otherwise be an opaque launch failure on
// the first GPU run: wrong architecture, too much shared memory, a block the
// compiled kernel cannot run (registers), a cluster that cannot be resident.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Kernel.h"

#include "ws-gemm-runtime/Cubin.h"

#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace wsgemm::runtime {

Expected<std::vector<char>> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return errorf(path, ": cannot open file");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  if (bytes.empty())
    return errorf(path, ": empty file");
  return bytes;
}

Expected<std::shared_ptr<const Kernel>>
Kernel::load(const std::string &manifestPath) {
  auto m = loadManifest(manifestPath);
  if (!m)
    return m.status();
  auto cubin = readFile(m->cubinPath());
  if (!cubin)
    return Status(cubin.status()).prepend("cubin");
  return load(std::move(*m), *cubin);
}

Expected<std::shared_ptr<const Kernel>>
Kernel::load(Manifest manifest, const std::vector<char> &cubin) {
  auto dev = queryCurrentDevice();
  if (!dev)
    return dev.status();
  WSGEMM_TRY(checkDevice(manifest, *dev));

  std::shared_ptr<Kernel> k(new Kernel());
  k->manifest_ = std::move(manifest);
  k->device_ = *dev;
  const Manifest &m = k->manifest_;
  const std::string what = "kernel '" + m.kernel + "' (" + m.cubinPath() + ")";
  WSGEMM_TRY(cuCheck(cuCtxGetCurrent(&k->context_), "cuCtxGetCurrent"));
  // cuModuleLoadData takes no size: an incomplete image is refused here,
  // before the driver reads past its end.
  if (Status s = checkCubinImage(cubin.data(), cubin.size()); !s.ok())
    return s.prepend("cubin " + m.cubinPath() +
                     " (not passed to cuModuleLoadData)");
  WSGEMM_TRY(cuCheck(cuModuleLoadData(&k->module_, cubin.data()),
                     "cuModuleLoadData(" + m.cubinPath() + ")"));
  WSGEMM_TRY(cuCheck(
      cuModuleGetFunction(&k->function_, k->module_, m.kernel.c_str()),
      "cuModuleGetFunction: no kernel '" + m.kernel + "' in " + m.cubinPath()));

  // Resources of the compiled function.
  int maxThreads = 0;
  WSGEMM_TRY(
      cuCheck(cuFuncGetAttribute(&k->numRegs_, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                 k->function_),
              "cuFuncGetAttribute(NUM_REGS)"));
  WSGEMM_TRY(cuCheck(cuFuncGetAttribute(&k->staticSmem_,
                                        CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                        k->function_),
                     "cuFuncGetAttribute(SHARED_SIZE_BYTES)"));
  WSGEMM_TRY(cuCheck(cuFuncGetAttribute(&maxThreads,
                                        CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                        k->function_),
                     "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)"));
  const int threads = static_cast<int>(m.block[0] * m.block[1] * m.block[2]);
  if (threads > maxThreads)
    return errorf("block: ", what, " is launched with ", threads,
                  " threads per CTA, but the compiled kernel allows at most ",
                  maxThreads, " (", k->numRegs_, " registers per thread)");
  if (int64_t(m.smemBytes) + k->staticSmem_ > dev->maxSmemOptin)
    return errorf("smem_bytes: ", what, " needs ", m.smemBytes,
                  " bytes dynamic + ", k->staticSmem_,
                  " bytes static shared memory per CTA, the device allows at "
                  "most ",
                  dev->maxSmemOptin, " (opt-in)");
  WSGEMM_TRY(cuCheck(
      cuFuncSetAttribute(k->function_,
                         CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                         static_cast<int>(m.smemBytes)),
      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
          std::to_string(m.smemBytes) + ")"));
  // A kernel built for two CTAs per SM asks for the whole carveout as
  // shared memory, so that both fit whatever L1 split the driver would
  // otherwise pick (the occupancy below is queried with it).
  if (m.grid.ctasPerSm > 1)
    WSGEMM_TRY(cuCheck(
        cuFuncSetAttribute(k->function_,
                           CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                           CU_SHAREDMEM_CARVEOUT_MAX_SHARED),
        "cuFuncSetAttribute(PREFERRED_SHARED_MEMORY_CARVEOUT)"));

  // Residency: a kernel that cannot fit one CTA (or one cluster) would hang
  // or fail at launch with a less helpful error.
  const int csize =
      static_cast<int>(m.cluster[0] * m.cluster[1] * m.cluster[2]);
  if (csize > 8)
    WSGEMM_TRY(cuCheck(
        cuFuncSetAttribute(k->function_,
                           CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                           1),
        "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)"));
  if (csize > 1) {
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = m.cluster[0];
    attr.value.clusterDim.y = m.cluster[1];
    attr.value.clusterDim.z = m.cluster[2];
    CUlaunchConfig cfg{};
    cfg.gridDimX = m.cluster[0];
    cfg.gridDimY = m.cluster[1];
    cfg.gridDimZ = m.cluster[2];
    cfg.blockDimX = m.block[0];
    cfg.blockDimY = m.block[1];
    cfg.blockDimZ = m.block[2];
    cfg.sharedMemBytes = m.smemBytes;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    WSGEMM_TRY(cuCheck(cuOccupancyMaxActiveClusters(&k->maxActiveClusters_,
                                                    k->function_, &cfg),
                       "cuOccupancyMaxActiveClusters"));
    if (k->maxActiveClusters_ < 1)
      return errorf("cluster: ", what, " cannot be resident: no cluster of ",
                    csize, " CTAs with ", m.smemBytes,
                    " bytes of dynamic shared memory each fits on the device");
  } else {
    int blocks = 0;
    WSGEMM_TRY(cuCheck(cuOccupancyMaxActiveBlocksPerMultiprocessor(
                           &blocks, k->function_, threads, m.smemBytes),
                       "cuOccupancyMaxActiveBlocksPerMultiprocessor"));
    if (blocks < 1)
      return errorf("block: ", what, " cannot be resident: one CTA of ",
                    threads, " threads, ", k->numRegs_,
                    " registers per thread and ", m.smemBytes,
                    " bytes of shared memory does not fit on an SM");
    // A persistent grid of more CTAs than fit at once would leave some
    // waiting for a slot, and a split-K or stream-K unit spinning on a
    // partial that a waiting CTA owns (a manifest's ctas_per_sm = 2 on a
    // device or context that keeps one): its capacity is what is resident.
    k->maxActiveClusters_ = blocks * dev->smCount;
  }
  return std::shared_ptr<const Kernel>(std::move(k));
}

Kernel::~Kernel() {
  if (module_)
    (void)cuModuleUnload(module_);
}

Expected<LaunchPlan> Kernel::prepare(const GemmArgs &args,
                                     CUstream stream) const {
  const Manifest &m = manifest_;
  WSGEMM_TRY(validate(m, args));
  LaunchPlan plan;
  std::vector<CUtensorMap> maps;
  for (const Param &p : m.params) {
    if (p.kind != ParamKind::TensorMap)
      continue;
    auto spec = computeTensorMapSpec(m, p, args);
    if (!spec)
      return spec.status();
    CUtensorMap map;
    WSGEMM_TRY(encodeTensorMap(*spec, &map));
    maps.push_back(map);
    plan.tensorMaps.push_back(*spec);
  }
  // The grid, the stream-K tiles and the tile order for this problem.
  auto geom =
      computeLaunchGeometry(m, args, device_.smCount, maxActiveClusters_);
  if (!geom)
    return geom.status();
  plan.geometry = *geom;
  WSGEMM_TRY(checkWorkspace(m, *geom, args));
  plan.workspace = args.workspace;
  if (m.workspace && !plan.workspace && geom->workspaceBytes > 0) {
    auto buffer = workspaces_.get(stream, geom->workspaceBytes);
    if (!buffer)
      return buffer.status();
    plan.workspace = *buffer;
  }
  // A workspace no split tile uses (stream-K chose data-parallel) is never
  // dereferenced; any non-null address will do.
  CUdeviceptr workspace = plan.workspace;
  if (m.workspace && !workspace)
    workspace = 16;
  auto params = packParams(m, args, maps, *geom, workspace);
  if (!params)
    return params.status();
  plan.params = std::move(*params);
  return Expected<LaunchPlan>(std::move(plan));
}

/// The stream a plan of `m` for `args` is bound to: the stream whose
/// workspace it uses, else none (the plan serves every stream).
static CUstream planStream(const Manifest &m, const GemmArgs &args,
                           CUstream stream) {
  return m.workspace && !args.workspace ? stream : nullptr;
}

/// The calling thread's key buffer: its capacity stays, so building a key
/// allocates nothing in the steady state.
static std::string &keyBuffer(const GemmArgs &args, CUstream stream) {
  thread_local std::string key;
  key.clear();
  appendLaunchKey(key, args, stream);
  return key;
}

std::shared_ptr<const LaunchPlan> Kernel::cachedPlan(const GemmArgs &args,
                                                     CUstream stream) const {
  return plans_.find(keyBuffer(args, planStream(manifest_, args, stream)));
}

Expected<std::shared_ptr<const LaunchPlan>>
Kernel::plan(const GemmArgs &args, CUstream stream) const {
  CUstream bound = planStream(manifest_, args, stream);
  const std::string &key = keyBuffer(args, bound);
  if (auto found = plans_.find(key))
    return found;
  std::string missed = key; // a miss may allocate
  auto prepared = prepare(args, bound);
  if (!prepared)
    return prepared.status();
  auto shared = std::make_shared<const LaunchPlan>(std::move(*prepared));
  plans_.insert(missed, shared);
  return shared;
}

/// WSGEMM_PDL=0 launches every kernel without programmatic stream
/// serialization (to compare, or to rule it out); read once.
static bool programmaticLaunchAllowed() {
  static const bool allowed = [] {
    const char *v = std::getenv("WSGEMM_PDL");
    return !(v && std::string(v) == "0");
  }();
  return allowed;
}

Status Kernel::launch(const LaunchPlan &plan, CUstream stream) const {
  const LaunchGeometry &g = plan.geometry;
  CUlaunchAttribute attrs[2] = {};
  unsigned numAttrs = 0;
  CUlaunchConfig cfg{};
  cfg.gridDimX = g.grid[0];
  cfg.gridDimY = g.grid[1];
  cfg.gridDimZ = g.grid[2];
  cfg.blockDimX = g.block[0];
  cfg.blockDimY = g.block[1];
  cfg.blockDimZ = g.block[2];
  cfg.sharedMemBytes = g.smemBytes;
  cfg.hStream = stream;
  if (g.clustered()) {
    CUlaunchAttribute &attr = attrs[numAttrs++];
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = g.cluster[0];
    attr.value.clusterDim.y = g.cluster[1];
    attr.value.clusterDim.z = g.cluster[2];
  }
  // The kernel may start before the stream's previous kernel ends: it
  // waits for that kernel's memory itself (Manifest::pdl). A previous
  // kernel that never signals (not ours) releases it when it completes.
  if (manifest_.pdl && programmaticLaunchAllowed()) {
    CUlaunchAttribute &attr = attrs[numAttrs++];
    attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.programmaticStreamSerializationAllowed = 1;
  }
  if (numAttrs) {
    cfg.attrs = attrs;
    cfg.numAttrs = numAttrs;
  }
  CUresult r = cuLaunchKernelEx(&cfg, function_, plan.params.data(), nullptr);
  if (r != CUDA_SUCCESS)
    return errorf("cuLaunchKernelEx(", manifest_.kernel, ", grid ", g.grid[0],
                  "x", g.grid[1], "x", g.grid[2], ", block ", g.block[0], "x",
                  g.block[1], "x", g.block[2], ", cluster ", g.cluster[0], "x",
                  g.cluster[1], "x", g.cluster[2], ", smem ", g.smemBytes,
                  "): ", cuErrorMessage(r));
  return Status::success();
}

Status Kernel::launch(const GemmArgs &args, CUstream stream) const {
  auto p = plan(args, stream);
  if (!p)
    return p.status();
  return launch(**p, stream);
}

//===----------------------------------------------------------------------===//
// ModuleCache
//===----------------------------------------------------------------------===//

ModuleCache &ModuleCache::global() {
  static ModuleCache cache;
  return cache;
}

Expected<std::shared_ptr<const Kernel>>
ModuleCache::get(const std::string &manifestPath) {
  CUcontext ctx = nullptr;
  WSGEMM_TRY(cuCheck(cuCtxGetCurrent(&ctx), "cuCtxGetCurrent"));
  if (!ctx)
    return Status::error("no current CUDA context on this thread");
  char resolved[PATH_MAX];
  std::string key =
      realpath(manifestPath.c_str(), resolved) ? resolved : manifestPath;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = kernels_.find({key, ctx});
  if (it != kernels_.end())
    return it->second;
  auto k = Kernel::load(manifestPath);
  if (!k)
    return k.status();
  kernels_[{key, ctx}] = *k;
  return *k;
}

size_t ModuleCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kernels_.size();
}

void ModuleCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  kernels_.clear();
}

} // namespace wsgemm::runtime
