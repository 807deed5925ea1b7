//===- LaunchCache.cpp - Launch keys and the plan cache (no driver) ------===//
//
// The launch key is the arguments' bytes, field by field (never a struct's
// padding), names with their terminating NUL so that no two argument sets
// run together into one key. The static_assert below trips when GemmArgs
// changes: a new field must join the key, or two launches that differ only
// in it would share a plan.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/LaunchCache.h"

#include <cstring>

namespace wsgemm::runtime {

namespace {
template <typename T> void put(std::string &key, const T &v) {
  key.append(reinterpret_cast<const char *>(&v), sizeof v);
}

void putName(std::string &key, const std::string &name) {
  key.append(name.c_str(), name.size() + 1);
}

void putTensor(std::string &key, const TensorArg &t) {
  put(key, t.ptr);
  put(key, t.dtype ? static_cast<int>(*t.dtype) : -1);
  put(key, t.ld);
  put(key, t.batchStride);
}
} // namespace

/// GemmArgs's fields as appendLaunchKey knows them: a field added to
/// GemmArgs (or TensorArg) and not here changes the size and trips the
/// assertions, until it joins the key (and this list).
struct KeyedTensorArg {
  CUdeviceptr ptr;
  std::optional<DType> dtype;
  int64_t ld, batchStride;
};
struct KeyedGemmArgs {
  int64_t M, N, K, L;
  TensorArg A, B, C, D;
  std::map<std::string, TensorArg> named;
  std::map<std::string, float> scalars;
  CUdeviceptr workspace;
  uint64_t workspaceBytes;
  std::optional<int64_t> streamKTiles;
  std::optional<TileOrder> tileOrder;
};
static_assert(sizeof(TensorArg) == sizeof(KeyedTensorArg),
              "TensorArg changed: add the new field to putTensor");
static_assert(sizeof(GemmArgs) == sizeof(KeyedGemmArgs),
              "GemmArgs changed: add the new field to appendLaunchKey");

void appendLaunchKey(std::string &key, const GemmArgs &args, CUstream stream) {
  put(key, args.M);
  put(key, args.N);
  put(key, args.K);
  put(key, args.L);
  for (const TensorArg *t : {&args.A, &args.B, &args.C, &args.D})
    putTensor(key, *t);
  put(key, args.named.size());
  for (const auto &[name, t] : args.named) {
    putName(key, name);
    putTensor(key, t);
  }
  put(key, args.scalars.size());
  for (const auto &[name, v] : args.scalars) {
    putName(key, name);
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits); // -0.0 and NaN payloads differ
    put(key, bits);
  }
  put(key, args.workspace);
  put(key, args.workspaceBytes);
  put(key, args.streamKTiles.value_or(-1));
  put(key, args.tileOrder ? args.tileOrder->encode() : -1);
  put(key, stream);
}

//===----------------------------------------------------------------------===//
// PlanCache
//===----------------------------------------------------------------------===//

std::shared_ptr<const LaunchPlan> PlanCache::find(const std::string &key) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = plans_.find(key);
  return it == plans_.end() ? nullptr : it->second;
}

void PlanCache::insert(const std::string &key,
                       std::shared_ptr<const LaunchPlan> plan) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  if (plans_.size() >= kCapacity)
    plans_.clear();
  plans_.emplace(key, std::move(plan));
}

size_t PlanCache::size() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return plans_.size();
}

} // namespace wsgemm::runtime
