//===- TileOrderFlags.h - --raster, --swizzle, --tile-orders ----*- C++ -*-===//
//
// The tools' flags for a kernel that takes its tile order at launch
// (runtime/include/ws-gemm-runtime/TileOrder.h):
//   --raster along_m|along_n   force the raster order
//   --swizzle 1|2|4|8          force the swizzle
// The half not forced is the runtime's choice for the shape. A kernel whose
// config fixes its tile order refuses either (GemmArgs::tileOrder).
// ws-gemm-bench also takes --tile-orders LIST (comma-separated
// `along_m:S`, `along_n:S`, `runtime`, or `all`: the runtime's choice,
// then every raster x swizzle) and times the cubin at each.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_COMMON_TILEORDERFLAGS_H
#define WSGEMM_TOOLS_COMMON_TILEORDERFLAGS_H

#include "Flags.h"

#include "ws-gemm-runtime/Launch.h"
#include "ws-gemm-runtime/TileOrder.h"

#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace wsgemm::tools {

/// A tile order from the command line: each half forced or left to the
/// runtime.
struct TileOrderChoice {
  std::optional<bool> alongM;
  std::optional<int> swizzle;

  bool forced() const { return alongM || swizzle; }
  /// `chosen` (the runtime's) with the forced halves replaced.
  runtime::TileOrder apply(runtime::TileOrder chosen) const {
    if (alongM)
      chosen.alongM = *alongM;
    if (swizzle)
      chosen.swizzle = *swizzle;
    return chosen;
  }
  /// "along_m, swizzle 8", with "(runtime)" for what was not forced.
  std::string describe(runtime::TileOrder order) const {
    std::string s = runtime::tileOrderName(order);
    if (!forced())
      return s + " (the runtime's choice)";
    if (!alongM || !swizzle)
      return s + " (partly forced)";
    return s + " (forced)";
  }
};

/// Parses "along_m" / "along_n" into `alongM`.
inline bool parseRaster(const std::string &flag, const std::string &v,
                        bool &alongM) {
  if (v != "along_m" && v != "along_n") {
    std::fprintf(stderr, "error: %s takes along_m or along_n, got '%s'\n",
                 flag.c_str(), v.c_str());
    return false;
  }
  alongM = v == "along_m";
  return true;
}

/// Parses a swizzle of 1, 2, 4 or 8.
inline bool parseSwizzle(const std::string &flag, const std::string &v,
                         int &swizzle) {
  if (v != "1" && v != "2" && v != "4" && v != "8") {
    std::fprintf(stderr, "error: %s takes 1, 2, 4 or 8, got '%s'\n",
                 flag.c_str(), v.c_str());
    return false;
  }
  swizzle = std::stoi(v);
  return true;
}

/// --raster or --swizzle at `args`: sets `handled` and reads the value into
/// `choice`; false on a bad value.
inline bool parseTileOrderFlag(FlagCursor &args, TileOrderChoice &choice,
                               bool &handled) {
  const std::string &flag = args.flag();
  handled = flag == "--raster" || flag == "--swizzle";
  if (!handled)
    return true;
  const char *v = args.value();
  if (!v)
    return false;
  if (flag == "--raster") {
    bool alongM = false;
    if (!parseRaster(flag, v, alongM))
      return false;
    choice.alongM = alongM;
    return true;
  }
  int swizzle = 1;
  if (!parseSwizzle(flag, v, swizzle))
    return false;
  choice.swizzle = swizzle;
  return true;
}

/// --tile-orders LIST: each entry a fully forced order or the runtime's
/// choice (an unforced TileOrderChoice).
inline bool parseTileOrderList(const std::string &list,
                               std::vector<TileOrderChoice> &out) {
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == "runtime") {
      out.push_back({});
      continue;
    }
    if (item == "all") {
      out.push_back({});
      for (bool alongM : {true, false})
        for (int s : {1, 2, 4, 8})
          out.push_back({alongM, s});
      continue;
    }
    size_t colon = item.find(':');
    bool alongM = false;
    int swizzle = 1;
    if (colon == std::string::npos ||
        !parseRaster("--tile-orders", item.substr(0, colon), alongM) ||
        !parseSwizzle("--tile-orders", item.substr(colon + 1), swizzle)) {
      std::fprintf(stderr,
                   "error: --tile-orders: '%s' is not along_m:S, along_n:S, "
                   "runtime or all\n",
                   item.c_str());
      return false;
    }
    out.push_back({alongM, swizzle});
  }
  return !out.empty();
}

/// Sets args.tileOrder to the order a launch of `m` with geometry `g`
/// packs, with `choice`'s forced halves: the order the tool reports is the
/// one the kernel gets. A kernel without a tile_order parameter is left
/// alone unless something was forced (validate() then refuses it). Returns
/// whether `args` changed (prepare again).
inline bool pinTileOrder(const runtime::Manifest &m,
                         const runtime::LaunchGeometry &g,
                         const TileOrderChoice &choice,
                         runtime::GemmArgs &args) {
  if (!m.runtimeTileOrder() && !choice.forced())
    return false;
  args.tileOrder = choice.apply(runtime::launchTileOrder(m, args, g));
  return true;
}

} // namespace wsgemm::tools

#endif // WSGEMM_TOOLS_COMMON_TILEORDERFLAGS_H
