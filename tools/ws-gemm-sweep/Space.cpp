//===- Space.cpp - ws-gemm-sweep's config space ---------------------------===//
//
// Axes, their defaults and shorthand spellings, and the cross product
// merged over the source op's config. Values stay text in the
// #wsgemm.config syntax: the dialect's own parser reads each merged config
// (Variants.cpp), so every knob the attribute has, today's and any added
// later, can be swept with --axis without changing this tool, and the
// planner alone decides what is legal.
//
//===----------------------------------------------------------------------===//

#include "Sweep.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

namespace wsgemm::sweep {

using llvm::StringRef;

namespace {

std::string list(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// "128x256" -> {128, 256}; false unless every part is a positive integer.
bool parseDims(StringRef text, std::vector<int64_t> &out) {
  out.clear();
  llvm::SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t v;
    if (p.getAsInteger(10, v) || v <= 0)
      return false;
    out.push_back(v);
  }
  return true;
}

bool error(const std::string &flag, const std::string &msg) {
  llvm::errs() << "ws-gemm-sweep: error: --" << flag << ": " << msg << "\n";
  return false;
}

} // namespace

std::vector<Axis> defaultAxes(int64_t tileK) {
  auto tile = [&](int64_t m, int64_t n) { return list({m, n, tileK}); };
  return {
      {"tile",
       {tile(128, 128), tile(128, 256), tile(256, 128), tile(64, 128),
        tile(64, 256)}},
      {"schedule", {"cooperative", "pingpong", "warp_specialized"}},
      {"cluster", {"[1, 1, 1]", "[2, 1, 1]", "[1, 2, 1]"}},
      {"swizzle", {"", "4"}},
  };
}

bool parseAxisFlag(const std::string &flag, const std::string &value,
                   int64_t tileK, Axis &out) {
  out = Axis();
  out.fromUser = true;
  if (flag == "axis") {
    size_t eq = value.find('=');
    if (eq == std::string::npos || eq == 0)
      return error(flag, "wants KNOB=V1|V2|..., got '" + value + "'");
    out.knob = value.substr(0, eq);
    llvm::SmallVector<StringRef> parts;
    StringRef(value).substr(eq + 1).split(parts, '|');
    for (StringRef p : parts) {
      p = p.trim();
      out.values.push_back(p == "auto" ? "" : p.str());
    }
    if (StringRef(value).substr(eq + 1).trim().empty())
      return error(flag, "'" + out.knob + "' has no values");
    return true;
  }
  static const std::map<std::string, std::string> knobs = {
      {"tiles", "tile"},         {"schedules", "schedule"},
      {"clusters", "cluster"},   {"stages", "stages"},
      {"epi-tiles", "epi_tile"}, {"rasters", "raster"},
      {"swizzles", "swizzle"},   {"persistent", "persistent"},
      {"fragment-sizes", "fragment_size"}};
  auto it = knobs.find(flag);
  if (it == knobs.end())
    return error(flag, "not an axis flag");
  out.knob = it->second;
  llvm::SmallVector<StringRef> parts;
  StringRef(value).split(parts, ',');
  for (StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      return error(flag, "empty value in '" + value + "'");
    if (p == "auto") {
      out.values.push_back("");
      continue;
    }
    std::vector<int64_t> dims;
    if (out.knob == "tile") {
      if (!parseDims(p, dims) || dims.size() < 2 || dims.size() > 3)
        return error(flag, "'" + p.str() + "' is not MxN or MxNxK");
      if (dims.size() == 2)
        dims.push_back(tileK);
      out.values.push_back(list(dims));
    } else if (out.knob == "cluster") {
      if (!parseDims(p, dims) || dims.size() < 2 || dims.size() > 3)
        return error(flag, "'" + p.str() + "' is not MxN or MxNxK");
      if (dims.size() == 2)
        dims.push_back(1);
      out.values.push_back(list(dims));
    } else if (out.knob == "epi_tile") {
      if (!parseDims(p, dims) || dims.size() != 2)
        return error(flag, "'" + p.str() + "' is not MxN");
      out.values.push_back(list(dims));
    } else {
      // Keywords and integers: the config parser checks them.
      out.values.push_back(p.str());
    }
  }
  return true;
}

std::vector<KnobList> enumerate(const KnobList &base,
                                const std::vector<Axis> &axes) {
  std::vector<KnobList> out;
  std::vector<size_t> pick(axes.size(), 0);
  while (true) {
    KnobList knobs = base;
    for (size_t a = 0; a < axes.size(); ++a) {
      const std::string &knob = axes[a].knob;
      const std::string &value = axes[a].values[pick[a]];
      auto it = std::find_if(knobs.begin(), knobs.end(),
                             [&](const auto &kv) { return kv.first == knob; });
      if (value.empty()) {
        if (it != knobs.end())
          knobs.erase(it);
      } else if (it != knobs.end()) {
        it->second = value;
      } else {
        knobs.emplace_back(knob, value);
      }
    }
    out.push_back(std::move(knobs));
    // Odometer: the last axis varies fastest.
    size_t a = axes.size();
    while (a > 0) {
      --a;
      if (++pick[a] < axes[a].values.size())
        break;
      pick[a] = 0;
      if (a == 0)
        return out;
    }
    if (axes.empty())
      return out;
  }
}

} // namespace wsgemm::sweep
