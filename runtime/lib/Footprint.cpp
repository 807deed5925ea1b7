//===- Footprint.cpp - Memory a test problem needs ------------------------===//
//
// Mirrors TestProblem::create buffer by buffer (Problem.cpp): matrices span
// (batches - 1) * batchStride + (rows - 1) * ld + cols elements, vectors and
// reductions their extent, scalar pointers 256 bytes; each is rounded up to
// 256 bytes after a guard. The host side counts what ws-gemm-run holds at
// once: per input matrix or vector its staged bytes plus a double per
// element, per output the downloaded bytes plus a double per element, and
// the reference's f32 copies of A and B.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Footprint.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace wsgemm::runtime {
namespace {

using u128 = unsigned __int128;

u128 roundUp(u128 a, u128 b) { return (a + b - 1) / b * b; }

/// Elements a matrix spans, in 128 bits.
u128 span(const MatrixGeometry &g) {
  if (g.rows <= 0 || g.cols <= 0 || g.batches <= 0)
    return 0;
  return u128(g.batches - 1) * u128(g.batchStride) +
         u128(g.rows - 1) * u128(g.ld) + u128(g.cols);
}

u128 extent(const std::vector<Dim> &dims, const GemmArgs &args,
            const Manifest &m) {
  u128 n = 1;
  for (Dim d : dims)
    n *= u128(std::max<int64_t>(0, dimValue(d, args, m)));
  return n;
}

} // namespace

std::string ProblemFootprint::describe(size_t count) const {
  std::ostringstream os;
  for (size_t i = 0; i < buffers.size() && i < count; ++i)
    os << (i ? ", " : "") << buffers[i].first << " " << buffers[i].second;
  if (buffers.size() > count)
    os << ", ...";
  return os.str();
}

Expected<ProblemFootprint> problemFootprint(const Manifest &m,
                                            const GemmArgs &args,
                                            uint64_t guardBytes) {
  const u128 limit = u128(UINT64_MAX);
  u128 device = 0, host = 0;
  std::vector<std::pair<std::string, u128>> buffers;
  std::vector<std::string> auxStores;
  for (const EvtNode &n : m.nodes)
    if (n.op == EvtOp::AuxStore)
      auxStores.push_back(n.name);
  auto add = [&](const std::string &name, u128 bytes, u128 hostBytes) {
    u128 b = roundUp(bytes + guardBytes, 256);
    device += b;
    host += hostBytes;
    buffers.emplace_back(name, b);
  };
  for (const Param &p : m.params) {
    const u128 es = dtypeSize(p.dtype);
    switch (p.kind) {
    case ParamKind::TensorMap:
    case ParamKind::Matrix: {
      u128 n = span(matrixGeometry(m, p.operand, args));
      bool output = p.operand == "D" ||
                    std::count(auxStores.begin(), auxStores.end(), p.operand);
      // Inputs: staged bytes (guard included) + decoded doubles; outputs:
      // downloaded bytes + decoded doubles. A D the kernel reduces into is
      // both: its seed (guard included) and decoded doubles as well.
      bool seeded = p.operand == "D" && m.dReduce() != StoreReduce::None;
      add(p.operand, n * es,
          n * es + n * 8 + (output ? 0 : guardBytes) +
              (seeded ? n * es + guardBytes + n * 8 : 0));
      break;
    }
    case ParamKind::Pointer: {
      u128 n = extent(p.extent, args, m);
      add(p.name, n * es, n * es + n * 8 + guardBytes);
      break;
    }
    case ParamKind::Reduction: {
      u128 n = extent(p.extent, args, m);
      add(p.name, n * 4, n * 4 + n * 8);
      break;
    }
    case ParamKind::ScalarPointer:
      add(p.name, 0, 0);
      break;
    case ParamKind::Workspace: {
      // The launch plan's workspace, at most one partial per tile (all of
      // them for split-K; stream-K uses the stream-K tiles only).
      u128 tiles = u128((args.M + m.tile[0] - 1) / m.tile[0]) *
                   u128((args.N + m.tile[1] - 1) / m.tile[1]) * u128(args.L);
      u128 perTile = m.workspace
                         ? u128(m.workspace->tileBytes + m.workspace->flagBytes)
                         : 0;
      add(p.name, tiles * perTile, 0);
      break;
    }
    case ParamKind::Scalar:
    case ParamKind::Size:
    case ParamKind::StreamKTiles:
    case ParamKind::TileOrder:
      break;
    }
    if (device > limit || host > limit)
      return errorf("problem ", args.M, " x ", args.N, " x ", args.K, " x ",
                    args.L, ": buffer ",
                    p.kind == ParamKind::TensorMap ||
                            p.kind == ParamKind::Matrix
                        ? p.operand
                        : p.name,
                    " overflows 64-bit byte counts");
  }
  // The reference packs A and B as f32 ([l][m][k] and [l][n][k]).
  host += u128(std::max<int64_t>(args.L, 1)) *
          (u128(std::max<int64_t>(args.M, 0)) +
           u128(std::max<int64_t>(args.N, 0))) *
          u128(std::max<int64_t>(args.K, 0)) * 4;
  if (host > limit)
    return errorf("problem ", args.M, " x ", args.N, " x ", args.K, " x ",
                  args.L, ": host bytes overflow 64 bits");
  std::stable_sort(buffers.begin(), buffers.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  ProblemFootprint f;
  f.deviceBytes = uint64_t(device);
  f.hostBytes = uint64_t(host);
  for (const auto &[name, b] : buffers)
    f.buffers.emplace_back(name, uint64_t(b));
  return f;
}

Status checkFootprint(const ProblemFootprint &f, uint64_t deviceFree,
                      uint64_t deviceTotal, uint64_t hostAvailable) {
  if (f.deviceBytes > deviceFree)
    return errorf("problem needs ", f.deviceBytes,
                  " bytes of device memory (", f.describe(),
                  "), more than the ", deviceFree, " bytes free of ",
                  deviceTotal, ": use a smaller M, N, K or L");
  if (hostAvailable && f.hostBytes > hostAvailable)
    return errorf("problem needs ", f.hostBytes,
                  " bytes of host memory for its inputs, outputs and the CPU "
                  "reference, more than the ",
                  hostAvailable,
                  " bytes available (MemAvailable): use a smaller M, N, K or "
                  "L");
  return Status::success();
}

uint64_t hostAvailableBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t value = 0;
  std::string unit;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "MemAvailable:")
      return value * 1024; // kB
  }
  return 0;
}

} // namespace wsgemm::runtime
