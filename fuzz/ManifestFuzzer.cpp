//===- ManifestFuzzer.cpp - Fuzz the runtime's manifest and arguments -----===//
//
// wsgemm-fuzz-manifest: an input is manifest JSON, optionally followed by a
// NUL byte and argument bytes. The JSON goes through parseManifest (every
// rule of docs/manifest.md); a manifest it accepts gets GemmArgs, from the
// argument bytes when there are any (sizes, leading dimensions, batch
// strides, misaligned or null pointers, scalar values, stray names), else
// from a few fixed problem sizes, and those go through everything the
// runtime does before it touches a GPU: validate(), and for valid
// arguments the grid, every tensor map's geometry, the parameter packing,
// the device check, the problem's memory footprint, and (for problems of a
// few elements) the CPU reference of the EVT on every output element.
// Refusals are fine; a crash, a sanitizer report or a hang is a bug.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Footprint.h"
#include "ws-gemm-runtime/Launch.h"
#include "ws-gemm-runtime/Manifest.h"
#include "ws-gemm-runtime/Reference.h"
#include "ws-gemm-runtime/TensorMap.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace wsgemm::runtime;

namespace {

/// Reads the argument bytes front to back; zeros once they run out.
struct ByteReader {
  const uint8_t *p, *end;
  uint64_t take(unsigned bytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i)
      v = (v << 8) | (p < end ? *p++ : 0);
    return v;
  }
  bool more() const { return p < end; }
};

/// Bends well-formed arguments (setPlaceholderArgs) as the bytes say.
void mutateArgs(const Manifest &m, ByteReader &r, GemmArgs &a) {
  auto size = [&]() -> int64_t {
    // Mostly small, sometimes near the int32 limit or invalid.
    switch (r.take(1) % 8) {
    case 0:
      return int64_t(r.take(1)) - 8;
    case 1:
      return int64_t(r.take(4) & 0xFFFFFFFF);
    case 2:
      return int64_t(r.take(8));
    default:
      return int64_t(r.take(2) % 4096) + 1;
    }
  };
  a.M = size();
  a.N = size();
  a.K = size();
  a.L = r.take(1) % 4 ? 1 : size();
  while (r.more()) {
    uint64_t op = r.take(1);
    if (m.params.empty())
      break;
    const Param &p = m.params[r.take(1) % m.params.size()];
    std::string name = p.kind == ParamKind::TensorMap ? p.operand : p.name;
    switch (op % 8) {
    case 0:
      tensorArgFor(name, a).ld = int64_t(r.take(4)) - 16;
      break;
    case 1:
      tensorArgFor(name, a).batchStride = int64_t(r.take(8));
      break;
    case 2:
      tensorArgFor(name, a).ptr += r.take(1);
      break;
    case 3:
      tensorArgFor(name, a).ptr = 0;
      break;
    case 4:
      tensorArgFor(name, a).dtype = static_cast<DType>(r.take(1) % 5);
      break;
    case 5: {
      uint32_t bits = uint32_t(r.take(4));
      float f;
      std::memcpy(&f, &bits, 4);
      a.scalars[name] = f;
      break;
    }
    case 6:
      a.named["stray" + std::to_string(r.take(1) % 3)].ptr = 0x1000;
      break;
    case 7:
      a.scalars["gamma"] = 1.0f;
      break;
    }
  }
}

/// A host copy of every input, ones everywhere.
HostInputs onesFor(const Manifest &m, const GemmArgs &a) {
  HostInputs in;
  for (const Param &p : m.params) {
    if (p.kind == ParamKind::TensorMap) {
      HostMatrix h;
      h.geometry = matrixGeometry(m, p.operand, a);
      h.data.assign(static_cast<size_t>(h.geometry.spanElements()), 1.0);
      if (p.operand == "A")
        in.A = std::move(h);
      else if (p.operand == "B")
        in.B = std::move(h);
      else if (p.operand == "C")
        in.C = std::move(h);
      else
        in.aux[p.operand] = std::move(h);
    } else if (p.kind == ParamKind::Pointer) {
      in.vectors[p.name].assign(
          static_cast<size_t>(extentElements(p.extent, a, m)), 0.5);
    } else if (p.kind == ParamKind::Scalar ||
               p.kind == ParamKind::ScalarPointer) {
      in.scalars[p.name] = 1.0;
    }
  }
  return in;
}

/// Everything after validate(), for arguments it accepted.
void exercise(const Manifest &m, const GemmArgs &a) {
  auto geometry = computeLaunchGeometry(m, a.M, a.N, a.L, 132);
  (void)geometry;
  std::vector<CUtensorMap> maps;
  for (const Param &p : m.params) {
    if (p.kind != ParamKind::TensorMap)
      continue;
    auto spec = computeTensorMapSpec(m, p, a);
    if (spec)
      (void)describeTensorMapSpec(*spec);
    maps.emplace_back();
    std::memset(&maps.back(), 0, sizeof(CUtensorMap));
  }
  (void)packParams(m, a, maps);
  DeviceInfo h100;
  h100.name = "fuzz H100";
  h100.ccMajor = 9;
  h100.smCount = 132;
  h100.maxSmemOptin = 232448;
  h100.l2Bytes = 50 << 20;
  (void)checkDevice(m, h100);
  auto footprint = problemFootprint(m, a);
  if (footprint)
    (void)checkFootprint(*footprint, uint64_t(80) << 30, uint64_t(80) << 30,
                         uint64_t(1) << 36);
  // The reference, on problems small enough to evaluate whole.
  if (a.M * a.N * a.L > 64 || a.K > 64 || a.A.ld || a.B.ld || a.C.ld ||
      a.D.ld)
    return;
  auto ref = Reference::create(m, a, onesFor(m, a));
  if (!ref)
    return;
  ElementResult out;
  for (int64_t l = 0; l < a.L; ++l)
    for (int64_t i = 0; i < a.M; ++i)
      for (int64_t j = 0; j < a.N; ++j) {
        out = ref->evaluate(i, j, l);
        for (size_t r = 0; r < ref->reductions().size(); ++r)
          (void)ref->reductionIndex(r, i, j, l);
      }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul =
      static_cast<const uint8_t *>(std::memchr(data, 0, size));
  size_t jsonSize = nul ? size_t(nul - data) : size;
  auto manifest = parseManifest(
      std::string(reinterpret_cast<const char *>(data), jsonSize), "fuzz.json");
  if (!manifest)
    return 0;
  const Manifest &m = *manifest;
  if (nul) {
    ByteReader r{nul + 1, data + size};
    GemmArgs a;
    setPlaceholderArgs(m, a);
    mutateArgs(m, r, a);
    if (validate(m, a).ok())
      exercise(m, a);
    return 0;
  }
  const int64_t shapes[][4] = {
      {1, 8, 8, 1}, {4, 8, 16, 1}, {256, 256, 128, 1}, {777, 1032, 96, 3}};
  std::vector<std::array<int64_t, 4>> all;
  for (const auto &s : shapes)
    all.push_back({s[0], s[1], s[2], s[3]});
  if (m.staticShape)
    all.push_back(*m.staticShape);
  for (const auto &s : all) {
    GemmArgs a;
    a.M = s[0];
    a.N = s[1];
    a.K = s[2];
    a.L = s[3];
    setPlaceholderArgs(m, a);
    if (validate(m, a).ok())
      exercise(m, a);
  }
  return 0;
}
