//===- Family.h - Kernel families, tuning tables, variant choice -*- C++ -*-===//
//
// GPU-free half of per-shape kernel selection (docs/tuning.md):
//   - a kernel family: one GEMM compiled under several configs by
//     ws-gemm-sweep; its family manifest lists the variants, each a
//     per-kernel manifest (docs/manifest.md) + cubin. parseFamily() loads
//     every variant's manifest and refuses a family whose variants do not
//     take the same arguments (a caller passes one GemmArgs to whichever
//     variant is chosen);
//   - a tuning table: the winning variant per measured problem shape,
//     written by ws-gemm-tune;
//   - selectVariant(): the table's nearest shape (log distance in M, N, K,
//     same L), or, when untuned or too far, a wave-quantization heuristic
//     over the variants' tiles and the device's SM count. It says why.
// The driver half (KernelFamily, loads and launches the chosen variant) is
// KernelFamily.h.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_FAMILY_H
#define WSGEMM_RUNTIME_FAMILY_H

#include "ws-gemm-runtime/Manifest.h"
#include "ws-gemm-runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wsgemm::runtime {

/// One compiled config of the family's GEMM.
struct FamilyVariant {
  std::string id;           // unique in the family: [A-Za-z0-9._-]+
  std::string manifestPath; // resolved against the family's directory
  std::string config;       // the planned #wsgemm.config (informational)
  Manifest manifest;        // parsed and validated
};

struct Family {
  std::string path;      // the file it was read from ("" for strings)
  std::string directory; // for resolving variant manifests
  std::string name;      // the GEMM's name
  std::vector<FamilyVariant> variants;

  /// Index of the variant called `id`, or -1.
  int find(const std::string &id) const;
};

/// Parses a family manifest and loads (from disk, relative to the family's
/// directory) every variant's manifest. Refuses: a missing or unknown key
/// value, an empty variant list, a duplicate or malformed id, a variant
/// manifest that does not parse, and variants whose arguments differ (the
/// message names the two variants and what differs).
Expected<Family> parseFamily(const std::string &jsonText,
                             const std::string &path = "");
Expected<Family> loadFamily(const std::string &path);

/// True when the file at `path` is JSON with "format": "ws-gemm-family"
/// (so a tool can take a family or a single manifest); false for anything
/// else, including unreadable files (the manifest loader reports those).
bool isFamilyFile(const std::string &path);

/// What a variant's callers see: operands, batching, static shape,
/// arguments (vectors, aux, scalars, reductions) and the EVT; two variants
/// of a family must have equal interfaces.
std::string describeInterface(const Manifest &m);

//===----------------------------------------------------------------------===//
// Tuning table
//===----------------------------------------------------------------------===//

struct Shape {
  int64_t M = 1, N = 1, K = 1, L = 1;
  /// The outputs' addresses or strides break TMA's 16-byte rules
  /// (outputsNeedDirectStore, Args.h): only `store = direct` variants fit.
  bool directStores = false;
  /// The alignment in bytes of A's and B's base, ld and batch stride
  /// (operandAlignment, Args.h): a TMA variant needs 16, a cp.async one
  /// its align_bytes.
  int64_t alignA = 16, alignB = 16;
  /// The least alignment in bytes of C's and the aux loads' base, ld and
  /// batch stride: a TMA variant needs 16, a `load_c = cp_async` one its
  /// align_bytes.
  int64_t alignC = 16;
};
std::string shapeString(const Shape &s); // "4096x4096x4096" (+ "x3" if L>1)

/// One measured variant of a tuned shape.
struct TunedCandidate {
  std::string variant;
  double ms = 0, tflops = 0;
  /// In ws-gemm-tune's final (docs/tuning.md): the median over its rounds of
  /// this variant's time over the main-round leader's in the same round;
  /// 0 when it was not a finalist.
  double finalRatio = 0;
};

struct TuningEntry {
  Shape shape;
  std::string variant; // the winner
  double ms = 0, tflops = 0, mhz = 0;
  /// Every variant timed for this shape, fastest median of the main rounds
  /// first (informational; the final may have chosen another).
  std::vector<TunedCandidate> candidates;
};

struct TuningTable {
  std::string path;
  std::string family;  // Family::name it was tuned for
  std::string device;  // the GPU's name (informational)
  int smCount = 0;     // informational
  std::vector<TuningEntry> entries;

  /// The entry for exactly `s`, or nullptr.
  TuningEntry *find(const Shape &s);
};

Expected<TuningTable> parseTuningTable(const std::string &jsonText,
                                       const std::string &path = "");
Expected<TuningTable> loadTuningTable(const std::string &path);
/// The table as JSON text (docs/tuning.md), entries sorted by shape.
std::string writeTuningTable(const TuningTable &t);
/// Refuses a table tuned for another family or naming a variant the family
/// lacks.
Status checkTuningTable(const Family &f, const TuningTable &t);

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

/// sum over M, N, K of |ln(a / b)|: 0 for the same shape, ln 2 per
/// dimension that doubles. Shapes with different L are not comparable
/// (selectVariant only looks at entries with the problem's L).
double shapeDistance(const Shape &a, const Shape &b);

struct SelectOptions {
  int smCount = 132;
  /// Per family variant: how many of its clusters the device runs at once
  /// (cuOccupancyMaxActiveClusters; KernelFamily::load fills it on a GPU).
  /// A cluster lives in one GPC, so on an H100 SXM only 30 clusters of 4
  /// CTAs at one CTA per SM run (120 of 132 SMs). 0 or absent: SMs x CTAs
  /// per SM / cluster size; -1: the variant does not load or fit on this
  /// device, and the heuristic passes it over.
  std::vector<int> activeClusters;
  /// Table entries farther than this (shapeDistance) are ignored and the
  /// heuristic decides; default ln 8 (e.g. each of M, N, K within 2x).
  double maxDistance = 2.0794415416798357;
  /// The device's L2 bytes (KernelFamily::load fills it on a GPU): a
  /// stream-K region whose operand panels exceed it is priced as
  /// data-parallel plus a penalty (docs/tuning.md, "Selection").
  int64_t l2Bytes = 50ll << 20;
};

/// The heuristic's estimate for one variant on one problem.
struct HeuristicEstimate {
  int64_t tiles = 0;  // output tiles (ceil(M/tm) * ceil(N/tn) * L)
  int64_t slots = 0;  // tiles that run at once (SMs x CTAs per SM, whole
                      // clusters)
  int64_t units = 0;  // tiles, or tiles x S for split_k = S
  int64_t waves = 0;  // ceil(units / slots)
  int64_t streamKTiles = 0; // stream-K: the runtime rule's stream-K tiles
  int64_t streamKBytes = 0; // the A and B panels (full K) two or more of
                            // them share, the fewer of the two raster
                            // orders
  bool streamKOverL2 = false; // streamKBytes > L2: priced without reuse
  double efficiency = 0; // tile's mainloop efficiency relative to 128x256
  double cost = 0;       // waves * CTAs per SM * tm * tn / efficiency, for
                         // split-K and stream-K with their shares and fixups
                         // (docs/tuning.md, "Selection")
};
/// `activeClusters` > 0: at most that many of the variant's clusters run
/// at once (SelectOptions::activeClusters); `l2Bytes`: the device's L2.
HeuristicEstimate estimateVariant(const Manifest &m, const Shape &s,
                                  int smCount, int activeClusters = 0,
                                  int64_t l2Bytes = 50ll << 20);
/// The factor the heuristic multiplies a variant's cost by for its
/// cp.async copies (1: none): per copied operand 1.10 for 16-byte copies,
/// 1.26 for 8- or 4-byte, 2.35 for 2-byte, times 1.10 for copied C or aux
/// loads (measured, Select.cpp), so TMA variants win wherever they fit
/// and, among copying ones, those copying fewer and wider.
double copyPenalty(const Manifest &m);

struct Selection {
  int variant = -1;        // index into Family::variants
  bool tuned = false;      // from the table (else the heuristic)
  double distance = 0;     // to the entry used, when tuned
  Shape tunedShape;        // the entry used, when tuned
  std::string reason;      // one line: why this variant
};

/// The variant for `s`: the nearest table entry with the same L within
/// opts.maxDistance (ties: the first entry in table order), else the
/// variant with the lowest heuristic cost (ties: the first in family order).
/// `table` may be null. Only variants that accept `s` count: its static
/// shape, and `store = direct` when s.directStores. Fails when none does.
Expected<Selection> selectVariant(const Family &f, const TuningTable *table,
                                  const Shape &s, const SelectOptions &opts);

struct GemmArgs;
/// The shape a family selects on for `args`: the problem's sizes, whether
/// its outputs need direct stores and how A and B are aligned (read with
/// the first variant's manifest: every variant takes the same arguments).
Shape familyShape(const Family &f, const GemmArgs &args);
/// The first variant (family order) that accepts `s`, as selectVariant
/// counts them; -1 when none does.
int firstAcceptingVariant(const Family &f, const Shape &s);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_FAMILY_H
