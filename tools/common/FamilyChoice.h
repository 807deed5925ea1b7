//===- FamilyChoice.h - A family manifest where a manifest is taken -*- C++ -*-===//
//
// ws-gemm-run and ws-gemm-bench take a kernel manifest or a family
// manifest (docs/tuning.md). For a family, chooseFromFamily() picks the
// variant for the problem (the tuning table's nearest shape, else the
// heuristic, on the device's SM count) and prints which and why; the tool
// then runs that variant's manifest. --variant ID forces one. Header-only
// and free of MLIR, like the runtime the tools link.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_COMMON_FAMILYCHOICE_H
#define WSGEMM_TOOLS_COMMON_FAMILYCHOICE_H

#include "ws-gemm-runtime/Driver.h"
#include "ws-gemm-runtime/KernelFamily.h"

#include <cstdio>
#include <optional>
#include <string>
#include <tuple>

namespace wsgemm::tools {

struct FamilyFlags {
  std::string tuning;  // --tuning TABLE
  std::string variant; // --variant ID
  /// The tool's --pad and --align-ld (elements, bytes), which set the
  /// outputs' row strides: rows TMA cannot store need a `store = direct`
  /// variant.
  int64_t pad = 0, alignLd = 0;
  /// --pad-a/--pad-b (extra elements in A's/B's ld) and --offset-a/
  /// --offset-b (elements into the allocation): A's and B's alignment,
  /// which TMA variants need at 16 bytes and cp.async ones at align_bytes.
  int64_t padA = 0, padB = 0, offsetA = 0, offsetB = 0;
  /// --pad-c/--offset-c: the same for C and the aux loads.
  int64_t padC = 0, offsetC = 0;
};

/// Placeholder arguments moved as the tools' --pad-a/-b/-c (extra elements
/// in the ld) and --offset-a/-b/-c (elements into the allocation) move the
/// real ones: A, B, and C with every aux load.
inline void applyInputPadding(const runtime::Manifest &m, runtime::GemmArgs &a,
                              int64_t padA, int64_t padB, int64_t padC,
                              int64_t offsetA, int64_t offsetB,
                              int64_t offsetC) {
  std::vector<std::tuple<std::string, int64_t, int64_t>> inputs{
      {"A", padA, offsetA}, {"B", padB, offsetB}};
  for (const std::string &name : m.epilogueLoads())
    inputs.emplace_back(name, padC, offsetC);
  for (auto [name, extra, offset] : inputs) {
    const runtime::Param *p = m.findMatrix(name);
    if (!p)
      continue;
    runtime::TensorArg &t = runtime::tensorArgFor(name, a);
    if (extra > 0)
      t.ld = runtime::matrixGeometry(m, name, a).ld + extra;
    t.ptr += offset * int64_t(runtime::dtypeSize(p->dtype));
  }
}

/// The SM count of device `ordinal` (no context needed), or 0 with `why`.
inline int deviceSmCount(int ordinal, std::string &why) {
  CUdevice dev = 0;
  runtime::Status s = runtime::cuCheck(cuInit(0), "cuInit");
  if (s.ok())
    s = runtime::cuCheck(cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  if (s.ok()) {
    auto info = runtime::queryDevice(dev);
    if (info)
      return info->smCount;
    s = info.status();
  }
  why = s.message();
  return 0;
}

/// For a family manifest on a GPU: the device's primary context, made
/// current, in which chooseFromFamily asks the device how many SMs it has
/// and how many clusters of each clustered variant run at once (a cluster
/// stays in one GPC). The tool keeps it until it exits; its own run
/// retains the same context again. Empty for a kernel manifest, a dry run,
/// or without a usable GPU (the choice then assumes the SM count and says
/// why).
inline std::optional<runtime::Context>
contextForChoice(const std::string &path, int device, bool dryRun) {
  if (dryRun || !runtime::isFamilyFile(path))
    return std::nullopt;
  auto c = runtime::Context::create(device);
  if (!c)
    return std::nullopt;
  return std::move(*c);
}

/// When `path` is a family manifest, replaces it with the chosen variant's
/// manifest path and prints the choice; a kernel manifest is left alone
/// (and --tuning/--variant are refused for it). `chosenId` receives the
/// variant's id. False (message printed) on a bad family, table or variant.
/// `onDevice`: a context is current (contextForChoice).
inline bool chooseFromFamily(std::string &path, const FamilyFlags &flags,
                             const runtime::Shape &shape, int device,
                             bool dryRun, std::string *chosenId = nullptr,
                             bool onDevice = false) {
  if (!runtime::isFamilyFile(path)) {
    if (!flags.tuning.empty() || !flags.variant.empty()) {
      std::fprintf(stderr, "error: --tuning and --variant need a family "
                           "manifest (\"format\": \"ws-gemm-family\"); %s is "
                           "not one\n",
                   path.c_str());
      return false;
    }
    return true;
  }
  runtime::SelectOptions opts;
  if (flags.variant.empty() && onDevice && !dryRun) {
    opts.smCount = 0; // KernelFamily::load asks the current device
  } else if (flags.variant.empty()) {
    std::string why;
    int sms = dryRun ? 0 : deviceSmCount(device, why);
    if (sms > 0)
      opts.smCount = sms;
    else
      std::printf("family: SM count unknown (%s): assuming %d\n",
                  dryRun ? "dry run" : why.c_str(), opts.smCount);
  }
  // KernelFamily reads the family (every variant's manifest) and the table,
  // and checks one against the other; on a device it loads the clustered
  // variants' cubins to ask how many of their clusters run at once. Those
  // modules go if the choice fails, while their context is still held.
  struct UnloadOnFailure {
    bool chosen = false;
    ~UnloadOnFailure() {
      if (!chosen)
        runtime::ModuleCache::global().clear();
    }
  } unload;
  auto loaded = runtime::KernelFamily::load(path, flags.tuning, opts);
  if (!loaded) {
    std::fprintf(stderr, "error: %s\n", loaded.message().c_str());
    return false;
  }
  const runtime::KernelFamily &kf = **loaded;
  const runtime::Family &f = kf.family();
  int index = -1;
  std::string reason;
  if (!flags.variant.empty()) {
    index = f.find(flags.variant);
    if (index < 0) {
      std::fprintf(stderr, "error: --variant: family %s has no variant '%s'\n",
                   f.name.c_str(), flags.variant.c_str());
      return false;
    }
    reason = "forced by --variant";
  } else {
    // The outputs the tool will pass (packed, or padded by --pad /
    // --align-ld; addresses aligned): may a TMA store write them? And the
    // inputs' alignment (--pad-a.., --offset-a..).
    const runtime::Manifest &m0 = f.variants.front().manifest;
    runtime::GemmArgs a;
    a.M = shape.M;
    a.N = shape.N;
    a.K = shape.K;
    a.L = shape.L;
    runtime::setPlaceholderArgs(m0, a);
    runtime::padLeadingDimensions(m0, a, flags.pad, flags.alignLd);
    applyInputPadding(m0, a, flags.padA, flags.padB, flags.padC,
                      flags.offsetA, flags.offsetB, flags.offsetC);
    runtime::Shape s = runtime::familyShape(f, a);
    auto sel = kf.select(s);
    if (!sel) {
      std::fprintf(stderr, "error: %s\n", sel.message().c_str());
      return false;
    }
    index = sel->variant;
    reason = sel->reason;
  }
  const runtime::FamilyVariant &v = f.variants[index];
  std::printf("family: %s, %zu variant(s)%s; chose %s: %s\n", f.name.c_str(),
              f.variants.size(),
              kf.table() ? (", table " + flags.tuning).c_str() : ", no table",
              v.id.c_str(), reason.c_str());
  if (!v.config.empty())
    std::printf("family: %s config %s\n", v.id.c_str(), v.config.c_str());
  path = v.manifestPath;
  if (chosenId)
    *chosenId = v.id;
  unload.chosen = true;
  return true;
}

} // namespace wsgemm::tools

#endif // WSGEMM_TOOLS_COMMON_FAMILYCHOICE_H
