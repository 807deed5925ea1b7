//===- Select.cpp - Choose a family's variant for a problem ---------------===//
//
// selectVariant() of Family.h: the tuning table's nearest shape (log
// distance, same L), else a wave-quantization estimate per variant
// (docs/tuning.md, "Selection", gives the formulas).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Family.h"
#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/StreamKRule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace wsgemm::runtime {

namespace {

/// Shared memory of one H100 SM (228 KiB), of which a resident CTA also
/// takes 1 KiB for the system: bounds how many CTAs of a one-tile-per-CTA
/// kernel share an SM.
constexpr int64_t kSmemPerSm = 233472;
constexpr int64_t kSmemReservedPerCta = 1024;
constexpr int64_t kThreadsPerSm = 2048;

/// What a split tile's fixup adds to its units' work (docs/tuning.md,
/// "Selection"), fitted to the H100 runs of docs/perf-notes.md ("Fitted
/// tiles and tuned tile schedulers"): each split beyond the first adds a
/// partial written and read, split-K's units side by side, stream-K's
/// spread over a tile's CTAs.
constexpr double kSplitKFixupPerSplit = 0.10;
constexpr double kStreamKFixupPerUnit = 0.15;
/// A stream-K region of more tiles than CTAs whose A and B panels do not
/// fit in L2: its units, each CTA's spanning tiles at drifting k offsets,
/// lose the L2 reuse a data-parallel wave gets from tiles walking K
/// together. Measured on H100 at M = 512 (4 M tiles,
/// docs/perf-notes.md, "The default family at M = 512"): 1.16x and 1.67x
/// the data-parallel time where the estimate above said 0.94x and 1.05x.
/// Such a region is priced at the data-parallel cost times this, the
/// smaller of the two.
constexpr double kStreamKOverL2Penalty = 1.15;
/// Two co-resident CTAs of a kernel built for them (ctas_per_sm = 2) take
/// this times twice one CTA's time: each hides the other's prologue,
/// split-K hand-off and epilogue. Measured on the mixed-input decode
/// kernels (docs/mixed-input.md, "Two CTAs per SM"; one H200): a pair of
/// 128x16 split-K units 0.79-0.90 of the same two run one after the other.
constexpr double kCoResidentPair = 0.90;
/// Where each CTA of a pair streams at least this many k-tiles of 128 (2048
/// of K) of a stream-K region, one's hand-off hides behind the other's
/// mainloop: only the units beyond a tile's first add a fixup, as split-K's
/// splits beyond the first do. Measured on the mixed-input decode kernels
/// (docs/mixed-input.md, "Two splits over two CTAs per SM"; one H200): at
/// 28672 x 16 x 8192 (54 k-tiles a CTA) the two-CTA stream-K kernel ran
/// 1.13-1.17x faster than the two-CTA split-K 2 kernel, whose busiest CTAs
/// stream 64, where the full fixup priced it 2% slower; at 11008 x 16 x
/// 4096 (10 a CTA) and 8960 x 16 x 1536 (3) it ran 0.93-0.95x and 0.65x
/// the speed of the one-CTA stream-K kernel, as the full fixup says.
constexpr int64_t kPairHidesFixupKTiles128 = 16;
} // namespace

/// What a variant that copies A, B, C or an aux load with cp.async costs
/// over its TMA twin, the product over its copied operands
/// (docs/perf-notes.md,
/// "cp.async producers (issue 28, Hopper)"; 8192^3 f16 cooperative
/// 128x256 on an H200): 16-byte copies (and C or aux loads alone) 1.10;
/// 8- or 4-byte 1.26 (2.16 against 1.71 ms); 2-byte copies realigned in
/// registers 2.35 (3.9-4.0 ms for an odd lda against TMA's 1.65-1.71 ms on
/// aligned data). TMA is preferred wherever it fits; among copying
/// variants the faster copies.
double copyPenalty(const Manifest &m) {
  // One factor per copied operand (a kernel copying A and B through its
  // producer's registers pays for both), and one for copied C / aux loads.
  double penalty = 1.0;
  for (const char *name : {"A", "B"}) {
    if (m.operand(name).load != OperandLoad::CpAsync)
      continue;
    uint32_t align = m.requiredAlignment(name);
    penalty *= align >= 16 ? 1.10 : align >= 4 ? 1.26 : 2.35;
  }
  for (const std::string &name : m.epilogueLoads())
    if (m.findMatrix(name)->kind == ParamKind::Matrix)
      return penalty * 1.10;
  return penalty;
}

namespace {

/// The bytes (full K) of the A and B panels that two or more of `sk`
/// consecutive tiles in raster order share, for the raster that touches
/// fewer: along M, min(sk, tilesM) rows and ceil(sk / tilesM) columns;
/// along N the other way round. A panel only one of the tiles reads has
/// no reuse to lose: in a region of one tile column (a decode GEMM's few
/// tokens are one tile N) only B's panel counts.
int64_t streamKRegionBytes(const Manifest &m, const Shape &s, int64_t sk) {
  const int64_t tm = m.tile[0], tn = m.tile[1];
  const int64_t tilesM = std::max<int64_t>(1, (s.M + tm - 1) / tm);
  const int64_t tilesN = std::max<int64_t>(1, (s.N + tn - 1) / tn);
  const int64_t panelA = tm * s.K * int64_t(dtypeSize(m.operand("A").dtype));
  const int64_t panelB = tn * s.K * int64_t(dtypeSize(m.operand("B").dtype));
  auto bytes = [&](int64_t rows, int64_t cols) {
    return (cols > 1 ? rows * panelA : 0) + (rows > 1 ? cols * panelB : 0);
  };
  int64_t alongM = bytes(std::min(sk, tilesM), (sk + tilesM - 1) / tilesM);
  int64_t alongN = bytes((sk + tilesN - 1) / tilesN, std::min(sk, tilesN));
  return std::min(alongM, alongN);
}

/// Multiply-accumulates per element loaded: how well a tile of the
/// mainloop hides its loads.
double intensity(int64_t tm, int64_t tn) {
  return double(tm) * double(tn) / double(tm + tn);
}

bool fits(const Manifest &m, const Shape &s) {
  if (s.directStores && !m.directStores())
    return false;
  if (int64_t(m.requiredAlignment("A")) > s.alignA ||
      int64_t(m.requiredAlignment("B")) > s.alignB)
    return false;
  for (const std::string &name : m.epilogueLoads())
    if (int64_t(m.requiredAlignment(name)) > s.alignC)
      return false;
  if (!m.staticShape)
    return true;
  const auto &st = *m.staticShape;
  return st[0] == s.M && st[1] == s.N && st[2] == s.K && st[3] == s.L;
}

std::string fmt(const char *f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

} // namespace

double shapeDistance(const Shape &a, const Shape &b) {
  auto d = [](int64_t x, int64_t y) {
    return std::fabs(std::log(double(std::max<int64_t>(x, 1)) /
                              double(std::max<int64_t>(y, 1))));
  };
  return d(a.M, b.M) + d(a.N, b.N) + d(a.K, b.K);
}

HeuristicEstimate estimateVariant(const Manifest &m, const Shape &s,
                                  int smCount, int activeClusters,
                                  int64_t l2Bytes) {
  HeuristicEstimate e;
  const int64_t tm = m.tile[0], tn = m.tile[1];
  e.tiles = ((s.M + tm - 1) / tm) * ((s.N + tn - 1) / tn) * s.L;
  int64_t perSm = 1;
  if (m.grid.kind == GridKind::Persistent) {
    perSm = std::max(1, m.grid.ctasPerSm);
    // As many as are resident (activeClusters counts CTAs without
    // clusters: Kernel::maxActiveClusters).
    if (m.cluster[0] * m.cluster[1] * m.cluster[2] == 1 &&
        activeClusters > 0 && smCount > 0)
      perSm = std::clamp<int64_t>(activeClusters / smCount, 1, perSm);
  } else {
    int64_t threads = int64_t(m.block[0]) * m.block[1] * m.block[2];
    perSm = std::min(kSmemPerSm / (int64_t(m.smemBytes) + kSmemReservedPerCta),
                     kThreadsPerSm / std::max<int64_t>(threads, 1));
    perSm = std::max<int64_t>(perSm, 1);
  }
  const int64_t cluster = int64_t(m.cluster[0]) * m.cluster[1] * m.cluster[2];
  int64_t clusters = int64_t(smCount) * perSm / cluster;
  if (activeClusters > 0)
    clusters = std::min<int64_t>(clusters, activeClusters);
  e.slots = std::max<int64_t>(clusters, 1) * cluster;
  e.units = e.tiles;
  e.waves = (e.tiles + e.slots - 1) / e.slots;
  e.efficiency = std::min(1.0, intensity(tm, tn) / intensity(128, 256));
  // A wave's time, in one tile's: perSm tiles share each SM. A kernel
  // built for two per SM runs a pair in kCoResidentPair of twice one's
  // time, and a last wave of at most one unit per SM alone.
  const bool pairs = m.grid.kind == GridKind::Persistent && perSm == 2;
  const double areaCost = double(tm) * double(tn) / e.efficiency;
  const double tileCost =
      double(perSm) * areaCost * (pairs ? kCoResidentPair : 1.0);
  auto wavesCost = [&](int64_t units, int64_t waves) {
    if (!pairs)
      return double(waves) * tileCost;
    int64_t last = units - (waves - 1) * e.slots;
    return double(waves - 1) * tileCost +
           (last * 2 <= e.slots ? areaCost : tileCost);
  };
  e.cost = wavesCost(e.units, e.waves);
  const int64_t tk = std::max<int64_t>(1, m.tile[2]);
  const int64_t kTiles = std::max<int64_t>(1, (s.K + tk - 1) / tk);
  if (m.scheduler.kind == SchedulerKind::SplitK && m.scheduler.splitK > 1) {
    // tiles x S units of ceil(kt / S) k-tiles each.
    const int64_t S = m.scheduler.splitK;
    e.units = e.tiles * S;
    e.waves = (e.units + e.slots - 1) / e.slots;
    double share = double((kTiles + S - 1) / S) / double(kTiles);
    // Over pairs, a later wave costs a paired wave too, as if its units
    // shared SMs as the first's do (which SMs hold the CTAs that take them
    // was not measured): the two-CTA
    // split-K 2 kernel at 24576 x 16 x 8192 (384 units on 264 CTAs) ran
    // 1.8x its one-wave time at 16384 x 16 x 8192 (256 units), where a
    // lone last wave would make it 1.55x (docs/mixed-input.md, "Two splits
    // over two CTAs per SM").
    double waves = pairs && e.waves > 1 ? double(e.waves) * tileCost
                                        : wavesCost(e.units, e.waves);
    e.cost = waves * share * (1 + kSplitKFixupPerSplit * double(S - 1));
  } else if (m.scheduler.kind == SchedulerKind::StreamK) {
    // The runtime's rule; its stream-K tiles are shared by every CTA, each
    // tile by about 1 + CTAs / stream-K tiles units.
    int64_t sk = chooseStreamKTiles(e.tiles, kTiles, e.slots);
    if (sk > 0) {
      e.streamKTiles = sk;
      e.streamKBytes = streamKRegionBytes(m, s, sk);
      // Only where a CTA's units span tiles (sk > slots): then the units of
      // tiles sharing a panel drift apart in k. With sk <= slots every
      // tile's units start together at fixed k offsets and keep the reuse
      // (1024 x 1024 x 16384: stream-K 1.13x the best data-parallel tile).
      e.streamKOverL2 =
          l2Bytes > 0 && sk > e.slots && e.streamKBytes > l2Bytes;
      double dpWaves = double((e.tiles - sk) / e.slots);
      double unitsPerTile = 1 + double(e.slots) / double(sk);
      double ctaKTiles128 = double(sk) * double(kTiles) * double(tk) /
                            (128.0 * double(e.slots));
      double fixedUnits =
          pairs && ctaKTiles128 >= kPairHidesFixupKTiles128 ? unitsPerTile - 1
                                                            : unitsPerTile;
      if (e.streamKOverL2)
        e.cost *= kStreamKOverL2Penalty; // the data-parallel cost above
      else
        e.cost = (dpWaves + double(sk) / double(e.slots) *
                                (1 + kStreamKFixupPerUnit * fixedUnits)) *
                 tileCost;
    }
  }
  return e;
}

Shape familyShape(const Family &f, const GemmArgs &args) {
  Shape s{args.M, args.N, args.K, args.L};
  if (f.variants.empty())
    return s;
  const Manifest &m = f.variants[0].manifest;
  s.directStores = outputsNeedDirectStore(m, args);
  s.alignA = operandAlignment(m, "A", args);
  s.alignB = operandAlignment(m, "B", args);
  for (const std::string &name : m.epilogueLoads())
    s.alignC = std::min(s.alignC, operandAlignment(m, name, args));
  return s;
}

int firstAcceptingVariant(const Family &f, const Shape &s) {
  for (size_t i = 0; i < f.variants.size(); ++i)
    if (fits(f.variants[i].manifest, s))
      return static_cast<int>(i);
  return -1;
}

Expected<Selection> selectVariant(const Family &f, const TuningTable *table,
                                  const Shape &s, const SelectOptions &opts) {
  Selection sel;
  std::string untunedWhy = "no tuning table";
  if (table) {
    const TuningEntry *best = nullptr;
    double bestD = std::numeric_limits<double>::infinity();
    int bestIndex = -1;
    bool sameL = false;
    for (const TuningEntry &e : table->entries) {
      if (e.shape.L != s.L)
        continue;
      sameL = true;
      int v = f.find(e.variant);
      if (v < 0 || !fits(f.variants[v].manifest, s))
        continue;
      double d = shapeDistance(e.shape, s);
      if (d < bestD) {
        best = &e;
        bestD = d;
        bestIndex = v;
      }
    }
    if (best && bestD <= opts.maxDistance) {
      sel.variant = bestIndex;
      sel.tuned = true;
      sel.distance = bestD;
      sel.tunedShape = best->shape;
      sel.reason = "tuned: nearest table entry " + shapeString(best->shape) +
                   " (distance " + fmt("%.2f", bestD) + ")";
      if (best->ms > 0)
        sel.reason += ", measured " + fmt("%.4f ms", best->ms) + " " +
                      fmt("%.1f TFLOP/s", best->tflops);
      return sel;
    }
    if (best)
      untunedWhy = "nearest table entry " + shapeString(best->shape) +
                   " is at distance " + fmt("%.2f", bestD) + " > " +
                   fmt("%.2f", opts.maxDistance);
    else if (!sameL)
      untunedWhy = "no table entry with L = " + std::to_string(s.L);
    else
      untunedWhy = "no usable table entry";
  }

  HeuristicEstimate bestE;
  int eligible = 0;
  for (size_t i = 0; i < f.variants.size(); ++i) {
    const Manifest &m = f.variants[i].manifest;
    if (!fits(m, s) || (i < opts.activeClusters.size() &&
                        opts.activeClusters[i] < 0))
      continue;
    ++eligible;
    HeuristicEstimate e = estimateVariant(
        m, s, opts.smCount,
        i < opts.activeClusters.size() ? opts.activeClusters[i] : 0,
        opts.l2Bytes);
    e.cost *= copyPenalty(m);
    // Strictly lower: ties keep the earlier variant.
    if (sel.variant < 0 || e.cost < bestE.cost * (1 - 1e-9)) {
      sel.variant = static_cast<int>(i);
      bestE = e;
    }
  }
  if (sel.variant < 0)
    return Status::error(
        "family " + f.name + ": no variant accepts problem " +
        shapeString(s) +
        (s.alignA < 16 || s.alignB < 16 || s.alignC < 16
             ? " with A aligned to " + std::to_string(s.alignA) +
                   ", B to " + std::to_string(s.alignB) + " and C (aux "
                   "loads) to " + std::to_string(s.alignC) +
                   " bytes (TMA needs 16; no variant loads them with "
                   "cp.async at that alignment, load_a/load_b/load_c = "
                   "cp_async with align_a/align_b/align_c)"
         : s.directStores
             ? std::string(" with its outputs' strides (they break TMA's "
                           "16-byte rules and no variant has store = direct "
                           "and a matching static_shape)")
             : std::string(" (every variant has another static_shape)")));
  const Manifest &m = f.variants[sel.variant].manifest;
  double full = double(bestE.units) / double(bestE.waves * bestE.slots);
  std::string scheduler;
  if (m.scheduler.kind == SchedulerKind::SplitK)
    scheduler = " split_k " + std::to_string(m.scheduler.splitK) + " (" +
                std::to_string(bestE.units) + " units)";
  else if (m.scheduler.kind == SchedulerKind::StreamK)
    scheduler = " stream-K";
  sel.reason =
      "untuned (" + untunedWhy + "): heuristic: tile " +
      std::to_string(m.tile[0]) + "x" + std::to_string(m.tile[1]) + scheduler +
      ", " + std::to_string(bestE.tiles) + " tiles on " +
      std::to_string(bestE.slots) + " slots (" + std::to_string(opts.smCount) +
      " SMs) = " + std::to_string(bestE.waves) + " wave(s), " +
      (bestE.streamKOverL2
           ? "stream-K's " + std::to_string(bestE.streamKTiles) +
                 " shared tiles read " +
                 fmt("%.0f MiB", double(bestE.streamKBytes) / (1 << 20)) +
                 " of panels (over L2: priced without reuse)"
       : bestE.streamKTiles > 0
           ? "the last " + std::to_string(bestE.streamKTiles) +
                 " tiles shared by every CTA"
           : "last " + fmt("%.0f%%", 100 * full) + " full on average") +
      ", efficiency " + fmt("%.2f", bestE.efficiency) +
      "; lowest estimated cost of " + std::to_string(eligible) + " variant(s)";
  return sel;
}

} // namespace wsgemm::runtime
