//===- Family.cpp - C API: kernel families --------------------------------===//
//
// A family handle holds what KernelFamily (KernelFamily.h) holds, built
// from the GPU-free half (Family.h) so that loading and selection run
// without a driver when the caller gives the SM count: the family, its
// tuning table, and one kernel handle per variant (manifest + cubin read
// at load, the module loaded per context on first launch).
//
//===----------------------------------------------------------------------===//

#include "Handles.h"

#include <algorithm>
#include <exception>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::capi;

namespace {

/// The SM count the heuristic uses: the caller's, else the current
/// device's (asked once).
WsGemmRtStatus resolveSmCount(WsGemmRtFamily_ &f, int *smCount) {
  std::lock_guard<std::mutex> lock(f.mutex);
  if (f.smCount <= 0) {
    if (WsGemmRtStatus s = ensureContext(); s != WSGEMMRT_OK)
      return s;
    auto dev = queryCurrentDevice();
    if (!dev)
      return fail(WSGEMMRT_ERROR_CUDA, dev.message());
    f.smCount = dev->smCount;
  }
  *smCount = f.smCount;
  return ok();
}

WsGemmRtStatus select(WsGemmRtFamily_ &f, const Shape &shape,
                      Selection *out) {
  int smCount = 0;
  if (WsGemmRtStatus s = resolveSmCount(f, &smCount); s != WSGEMMRT_OK)
    return s;
  SelectOptions opts;
  opts.smCount = smCount;
  auto sel = selectVariant(f.family, f.table ? &*f.table : nullptr, shape,
                           opts);
  if (!sel)
    return fail(WSGEMMRT_ERROR_REFUSED, sel.message());
  *out = *sel;
  return ok();
}

thread_local std::string selectReason;

} // namespace

extern "C" {

WsGemmRtStatus wsgemmRtFamilyLoad(const char *familyPath,
                                  const char *tuningPath, int smCount,
                                  WsGemmRtFamily *out) {
  if (!familyPath || !out)
    return fail(WSGEMMRT_ERROR_INVALID_CALL,
                "wsgemmRtFamilyLoad: null path or out");
  *out = nullptr;
  try {
    auto f = std::make_unique<WsGemmRtFamily_>();
    auto family = loadFamily(familyPath);
    if (!family)
      return fail(WSGEMMRT_ERROR_MANIFEST, family.message());
    f->family = std::move(*family);
    if (tuningPath && *tuningPath) {
      auto table = loadTuningTable(tuningPath);
      if (!table)
        return fail(WSGEMMRT_ERROR_MANIFEST, table.message());
      if (Status s = checkTuningTable(f->family, *table); !s.ok())
        return fail(WSGEMMRT_ERROR_MANIFEST, s.message());
      f->table = std::move(*table);
    }
    f->smCount = smCount > 0 ? smCount : 0;
    for (const FamilyVariant &v : f->family.variants) {
      auto json = readFile(v.manifestPath);
      if (!json)
        return fail(WSGEMMRT_ERROR_MANIFEST,
                    Status(json.status()).prepend("variant " + v.id).message());
      auto cubin = readFile(v.manifest.cubinPath());
      if (!cubin)
        return fail(WSGEMMRT_ERROR_MANIFEST,
                    Status(cubin.status())
                        .prepend("variant " + v.id + ": cubin")
                        .message());
      f->kernels.push_back(makeKernel(v.manifest,
                                      std::string(json->begin(), json->end()),
                                      std::move(*cubin)));
    }
    *out = f.release();
    return ok();
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_MANIFEST, e.what());
  }
}

void wsgemmRtFamilyDestroy(WsGemmRtFamily family) { delete family; }

const char *wsgemmRtFamilyGetName(WsGemmRtFamily f) {
  return f ? f->family.name.c_str() : "";
}

intptr_t wsgemmRtFamilyGetNumVariants(WsGemmRtFamily f) {
  return f ? static_cast<intptr_t>(f->family.variants.size()) : 0;
}

const char *wsgemmRtFamilyGetVariantId(WsGemmRtFamily f, intptr_t index) {
  if (!f || index < 0 ||
      index >= static_cast<intptr_t>(f->family.variants.size()))
    return "";
  return f->family.variants[index].id.c_str();
}

WsGemmRtKernel wsgemmRtFamilyGetVariantKernel(WsGemmRtFamily f,
                                              intptr_t index) {
  if (!f || index < 0 || index >= static_cast<intptr_t>(f->kernels.size()))
    return nullptr;
  return f->kernels[index].get();
}

WsGemmRtStatus wsgemmRtFamilySelect(WsGemmRtFamily f, int64_t M, int64_t N,
                                    int64_t K, int64_t L, intptr_t *variant,
                                    int *tuned, const char **reason) {
  if (!f)
    return fail(WSGEMMRT_ERROR_INVALID_CALL,
                "wsgemmRtFamilySelect: null family");
  try {
    Selection sel;
    if (WsGemmRtStatus s = select(*f, Shape{M, N, K, L}, &sel);
        s != WSGEMMRT_OK)
      return s;
    selectReason = f->family.variants[sel.variant].id + ": " + sel.reason;
    if (variant)
      *variant = sel.variant;
    if (tuned)
      *tuned = sel.tuned;
    if (reason)
      *reason = selectReason.c_str();
    return ok();
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_INVALID_CALL, e.what());
  }
}

/// The rules a launch of `a` checks first: those of the first variant that
/// takes arrays with these strides (outputs a TMA store cannot write go to
/// a `store = direct` one, operands TMA cannot read to a copying one),
/// else of the first. Every variant takes the same arguments (parseFamily
/// checks).
static Status validateForFamily(const Family &family, const Shape &fs,
                                const GemmArgs &a) {
  int first = std::max(0, firstAcceptingVariant(family, fs));
  return validate(family.variants[first].manifest, a);
}

WsGemmRtStatus wsgemmRtFamilyValidate(WsGemmRtFamily f, WsGemmRtArgs args) {
  if (!f || !args)
    return fail(WSGEMMRT_ERROR_INVALID_CALL,
                "wsgemmRtFamilyValidate: null family or args");
  const GemmArgs &a = args->args;
  if (Status s = validateForFamily(f->family, familyShape(f->family, a), a);
      !s.ok())
    return fail(WSGEMMRT_ERROR_REFUSED, s.message());
  return ok();
}

WsGemmRtStatus wsgemmRtFamilyLaunch(WsGemmRtFamily f, WsGemmRtArgs args,
                                    void *stream, intptr_t *variant) {
  if (!f || !args)
    return fail(WSGEMMRT_ERROR_INVALID_CALL,
                "wsgemmRtFamilyLaunch: null family or args");
  try {
    const GemmArgs &a = args->args;
    const Shape fs = familyShape(f->family, a);
    const std::array<int64_t, 8> shape{fs.M,      fs.N,      fs.K,
                                       fs.L,      fs.directStores,
                                       fs.alignA, fs.alignB, fs.alignC};
    intptr_t chosen = -1;
    {
      std::shared_lock<std::shared_mutex> lock(f->chosenMutex);
      auto it = f->chosen.find(shape);
      if (it != f->chosen.end())
        chosen = it->second;
    }
    if (chosen < 0) {
      // Refuse bad arguments before a driver or a device is needed for
      // the selection.
      if (Status s = validateForFamily(f->family, fs, a); !s.ok())
        return fail(WSGEMMRT_ERROR_REFUSED, s.message());
      Selection sel;
      if (WsGemmRtStatus s = select(*f, fs, &sel); s != WSGEMMRT_OK)
        return s;
      chosen = static_cast<intptr_t>(sel.variant);
      std::unique_lock<std::shared_mutex> lock(f->chosenMutex);
      if (f->chosen.size() >= 4096)
        f->chosen.clear();
      f->chosen.emplace(shape, chosen);
    }
    if (variant)
      *variant = chosen;
    return launchKernel(*f->kernels[chosen], a, static_cast<CUstream>(stream));
  } catch (const std::exception &e) {
    return fail(WSGEMMRT_ERROR_CUDA, e.what());
  }
}

} // extern "C"
