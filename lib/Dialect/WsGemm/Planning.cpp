//===- Planning.cpp - GEMM config defaults, SMEM budget, legality ---------===//
//
// Implements Planning.h: CUTLASS's SM90 builder defaults, the itemised SMEM
// layout of a kernel and its legality rules. No IR here; the pass
// (Transforms/Plan.cpp) translates between the op and a GemmDesc.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>

using namespace mlir::wsgemm::planning;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static int64_t bytesOf(unsigned bits) { return (bits + 7) / 8; }

static int64_t ceilDiv(int64_t a, int64_t b) {
  return b > 0 ? (a + b - 1) / b : 0;
}

static int64_t alignTo(int64_t value, int64_t align) {
  return (value + align - 1) / align * align;
}

static KernelSchedule getSchedule(const GemmDesc &desc) {
  return desc.config.schedule.value_or(KernelSchedule::Cooperative);
}

/// "[a, b, c]" for diagnostics.
template <size_t N>
static std::string listToString(const std::array<int64_t, N> &values) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << '[';
  for (size_t i = 0; i < N; ++i)
    os << (i ? ", " : "") << values[i];
  os << ']';
  return str;
}

const char *mlir::wsgemm::planning::toString(OperandMajor major) {
  switch (major) {
  case OperandMajor::K:
    return "k_major";
  case OperandMajor::M:
    return "m_major";
  case OperandMajor::N:
    return "n_major";
  }
  return "?";
}

const char *mlir::wsgemm::planning::toString(KernelSchedule schedule) {
  switch (schedule) {
  case KernelSchedule::WarpSpecialized:
    return "warp_specialized";
  case KernelSchedule::Cooperative:
    return "cooperative";
  case KernelSchedule::Pingpong:
    return "pingpong";
  }
  return "?";
}

const char *mlir::wsgemm::planning::toString(Raster raster) {
  switch (raster) {
  case Raster::AlongM:
    return "along_m";
  case Raster::AlongN:
    return "along_n";
  case Raster::Heuristic:
    return "heuristic";
  }
  return "?";
}

int64_t mlir::wsgemm::planning::getNumConsumerWarpgroups(KernelSchedule s) {
  return s == KernelSchedule::WarpSpecialized ? 1 : 2;
}

int64_t mlir::wsgemm::planning::getNumEpilogueThreads(KernelSchedule s) {
  return s == KernelSchedule::Cooperative ? 256 : 128;
}

int64_t mlir::wsgemm::planning::getStageBytes(const GemmDesc &desc) {
  std::array<int64_t, 3> tile =
      desc.config.tile.value_or(std::array<int64_t, 3>{0, 0, 0});
  return tile[0] * tile[2] * bytesOf(desc.aBits) +
         tile[1] * tile[2] * bytesOf(desc.bBits);
}

//===----------------------------------------------------------------------===//
// Defaults
//===----------------------------------------------------------------------===//

/// CUTLASS's StageCountAutoCarveout: (capacity - carveout) / (stage bytes +
/// 32), where the carveout is everything but the mainloop. Our barriers take
/// 16 bytes a stage, not 32, but alignment padding may take more, so the
/// count is lowered until the budget fits; it never goes below 2 (an
/// unfittable tile is reported by checkLegality).
static int64_t computeAutoStages(const GemmDesc &desc, int64_t capacity) {
  GemmDesc probe = desc;
  probe.config.stages = 0;
  int64_t carveout = computeSmemBudget(probe).total;
  int64_t perStage = getStageBytes(desc) + 32;
  int64_t stages = perStage > 32 ? (capacity - carveout) / perStage : 2;
  stages = std::max<int64_t>(stages, 2);
  for (; stages > 2; --stages) {
    probe.config.stages = stages;
    if (computeSmemBudget(probe).total <= capacity)
      break;
  }
  return stages;
}

void mlir::wsgemm::planning::fillDefaults(GemmDesc &desc, int64_t capacity) {
  GemmConfig &c = desc.config;
  if (!c.tile)
    c.tile = {128, 128, 64};
  if (!c.cluster)
    c.cluster = {1, 1, 1};
  auto [tileM, tileN, tileK] = *c.tile;
  // KernelScheduleAuto: pingpong for 64-row tiles, cooperative otherwise.
  if (!c.schedule)
    c.schedule =
        tileM == 64 ? KernelSchedule::Pingpong : KernelSchedule::Cooperative;
  KernelSchedule schedule = *c.schedule;
  bool cooperative = schedule == KernelSchedule::Cooperative;
  if (!c.persistent)
    c.persistent = schedule != KernelSchedule::WarpSpecialized;
  if (!c.raster) {
    c.raster = Raster::Heuristic;
    if (desc.shape && tileM > 0 && tileN > 0) {
      int64_t tilesM = ceilDiv((*desc.shape)[0], tileM);
      int64_t tilesN = ceilDiv((*desc.shape)[1], tileN);
      c.raster = tilesN > tilesM ? Raster::AlongM : Raster::AlongN;
    }
  }
  if (!c.swizzle)
    c.swizzle = 1;

  // sm90_compute_tile_shape_or_override (EpilogueTileAuto).
  if (!c.epiTile) {
    int64_t epiM = std::min<int64_t>(cooperative ? 128 : 64, tileM);
    int64_t epiN = std::gcd(std::min<int64_t>(32, tileN), tileN);
    c.epiTile = {epiM, epiN};
  }
  auto [epiM, epiN] = *c.epiTile;
  int64_t epiTiles = 1;
  if (epiM > 0 && epiN > 0)
    epiTiles = std::max<int64_t>(1, (tileM / epiM) * (tileN / epiN));

  // sm90_get_tma_dispatch_policy.
  if (!c.fragmentSize)
    c.fragmentSize =
        std::max<int64_t>(1, epiM * epiN / getNumEpilogueThreads(schedule));
  if (!c.reuseSmemC)
    c.reuseSmemC = desc.loadsC && desc.storesD && desc.cBits == desc.dBits &&
                   desc.dBits > 8;
  if (!c.delayTmaStore)
    c.delayTmaStore = !desc.loadsC;
  if (!c.stagesD)
    c.stagesD = std::min<int64_t>(epiTiles, 2);
  if (!c.stagesC) {
    int64_t stagesC = std::min<int64_t>(epiTiles, 4);
    c.stagesC =
        *c.reuseSmemC ? std::max<int64_t>(stagesC, *c.stagesD + 1) : stagesC;
  }

  // LoadRegisterRequirement / MmaRegisterRequirement of the cooperative and
  // pingpong kernels; the warp_specialized kernel keeps the launch budget.
  if (schedule != KernelSchedule::WarpSpecialized) {
    if (!c.producerRegs)
      c.producerRegs = 40;
    if (!c.consumerRegs)
      c.consumerRegs = 232;
  }

  // Last: the carveout depends on every epilogue knob above.
  if (!c.stages)
    c.stages = computeAutoStages(desc, capacity);
}

//===----------------------------------------------------------------------===//
// SMEM budget
//===----------------------------------------------------------------------===//

namespace {
/// Places regions one after another with their alignment, itemising bytes
/// per kind and the padding separately.
class SmemLayout {
public:
  /// Places `bytes` aligned to `align`; returns the bytes placed.
  int64_t place(int64_t bytes, int64_t align) {
    if (bytes <= 0)
      return 0;
    int64_t start = alignTo(offset, align);
    padding += start - offset;
    offset = start + bytes;
    return bytes;
  }

  void add(SmemKind kind, const char *name, int64_t bytes,
           std::string formula) {
    budget.items.push_back(
        {kind, name, bytes, bytes ? std::move(formula) : std::string()});
  }

  SmemBudget finish() {
    add(SmemKind::AlignmentPadding, "alignment padding", padding,
        "to 1024-byte (tiles), 16-byte (vectors) and 8-byte (barriers) "
        "boundaries");
    budget.total = offset;
    return std::move(budget);
  }

private:
  int64_t offset = 0;
  int64_t padding = 0;
  SmemBudget budget;
};
} // namespace

/// "S x RxC x B B" for one ring of tiles.
static std::string tileFormula(int64_t stages, int64_t rows, int64_t cols,
                               int64_t bytes) {
  std::string str;
  llvm::raw_string_ostream(str)
      << stages << " x " << rows << "x" << cols << " x " << bytes << " B";
  return str;
}

SmemBudget mlir::wsgemm::planning::computeSmemBudget(const GemmDesc &desc) {
  const GemmConfig &c = desc.config;
  auto [tileM, tileN, tileK] = c.tile.value_or(std::array<int64_t, 3>{0, 0, 0});
  auto [epiM, epiN] = c.epiTile.value_or(std::array<int64_t, 2>{0, 0});
  int64_t stages = c.stages.value_or(0);
  int64_t stagesC = c.stagesC.value_or(0);
  int64_t stagesD = c.stagesD.value_or(0);
  int64_t consumerWarps = 4 * getNumConsumerWarpgroups(getSchedule(desc));
  int64_t epiElems = epiM * epiN;
  constexpr int64_t kTileAlign = 1024, kSmallAlign = 16, kBarrierAlign = 8;

  SmemLayout layout;
  int64_t aBytes = bytesOf(desc.aBits), bBytes = bytesOf(desc.bBits);
  layout.add(SmemKind::AStages, "A stages",
             layout.place(stages * tileM * tileK * aBytes, kTileAlign),
             tileFormula(stages, tileM, tileK, aBytes));
  layout.add(SmemKind::BStages, "B stages",
             layout.place(stages * tileN * tileK * bBytes, kTileAlign),
             tileFormula(stages, tileN, tileK, bBytes));

  // C and D; with reuse_smem_c D's buffers live inside C's.
  bool reuse = c.reuseSmemC.value_or(false) && desc.loadsC && desc.storesD;
  int64_t cBytes = bytesOf(desc.cBits), dBytes = bytesOf(desc.dBits);
  int64_t cRegion = desc.loadsC ? stagesC * epiElems * cBytes : 0;
  int64_t dRegion = desc.storesD ? stagesD * epiElems * dBytes : 0;
  std::string cFormula = tileFormula(stagesC, epiM, epiN, cBytes);
  if (reuse && dRegion > cRegion) {
    cFormula = tileFormula(stagesD, epiM, epiN, dBytes) + " (D's, larger)";
    cRegion = dRegion;
  }
  layout.add(SmemKind::CBuffers, "C buffers", layout.place(cRegion, kTileAlign),
             cFormula);
  layout.add(SmemKind::DBuffers, "D buffers",
             reuse ? 0 : layout.place(dRegion, kTileAlign),
             tileFormula(stagesD, epiM, epiN, dBytes));

  // Aux matrices: one ring per distinct name.
  auto placeAux = [&](const std::vector<EpilogueOperand> &operands,
                      int64_t ringStages, std::string &formula) {
    int64_t total = 0;
    for (const EpilogueOperand &aux : operands) {
      total +=
          layout.place(ringStages * epiElems * bytesOf(aux.bits), kTileAlign);
      formula += (formula.empty() ? "" : " + ") + aux.name + ": " +
                 tileFormula(ringStages, epiM, epiN, bytesOf(aux.bits));
    }
    return total;
  };
  std::string auxLoadFormula, auxStoreFormula;
  int64_t auxLoadBytes = placeAux(desc.auxLoads, stagesC, auxLoadFormula);
  layout.add(SmemKind::AuxLoadBuffers, "aux load buffers", auxLoadBytes,
             auxLoadFormula);
  int64_t auxStoreBytes = placeAux(desc.auxStores, stagesD, auxStoreFormula);
  layout.add(SmemKind::AuxStoreBuffers, "aux store buffers", auxStoreBytes,
             auxStoreFormula);

  // vec_n broadcasts: the CTA tile's N slice of each vector.
  int64_t vecBytes = 0;
  std::string vecFormula;
  for (const EpilogueOperand &vec : desc.vecN) {
    vecBytes += layout.place(tileN * bytesOf(vec.bits), kSmallAlign);
    vecFormula += (vecFormula.empty() ? "" : " + ") + vec.name + ": " +
                  std::to_string(tileN) + " x " +
                  std::to_string(bytesOf(vec.bits)) + " B";
  }
  layout.add(SmemKind::VecNBuffers, "vec_n broadcast buffers", vecBytes,
             vecFormula);

  // Reduction scratch: per-warp f32 partials combined across warps.
  int64_t redBytes = 0;
  std::string redFormula;
  for (unsigned i = 0; i < desc.numReduceVecN; ++i)
    redBytes += layout.place(consumerWarps * epiN * 4, kSmallAlign);
  for (unsigned i = 0; i < desc.numReduceScalar; ++i)
    redBytes += layout.place(consumerWarps * 4, kSmallAlign);
  if (desc.numReduceVecN)
    redFormula = std::to_string(desc.numReduceVecN) + " reduce_to_vec_n x " +
                 std::to_string(consumerWarps) + " warps x " +
                 std::to_string(epiN) + " x 4 B";
  if (desc.numReduceScalar)
    redFormula += std::string(redFormula.empty() ? "" : " + ") +
                  std::to_string(desc.numReduceScalar) +
                  " reduce_to_scalar x " + std::to_string(consumerWarps) +
                  " warps x 4 B";
  layout.add(SmemKind::ReductionScratch, "reduction scratch", redBytes,
             redFormula);

  // mbarriers: a full and an empty barrier (8 bytes each) per stage.
  layout.add(SmemKind::MainloopBarriers, "mainloop barriers",
             layout.place(stages * 16, kBarrierAlign),
             std::to_string(stages) + " stages x 2 x 8 B");
  bool epiLoads = desc.loadsC || !desc.auxLoads.empty();
  layout.add(SmemKind::EpilogueBarriers, "epilogue barriers",
             layout.place(epiLoads ? stagesC * 16 : 0, kBarrierAlign),
             std::to_string(stagesC) + " stages_c x 2 x 8 B");
  return layout.finish();
}

int64_t SmemBudget::get(SmemKind kind) const {
  for (const SmemItem &item : items)
    if (item.kind == kind)
      return item.bytes;
  return 0;
}

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

namespace {
/// Collects errors; `error()` returns a stream for the message.
class ErrorList {
public:
  llvm::raw_string_ostream error() {
    errors.push_back({});
    return llvm::raw_string_ostream(errors.back().message);
  }
  size_t size() const { return errors.size(); }
  std::vector<PlanError> take() { return std::move(errors); }
  PlanError &back() { return errors.back(); }

private:
  std::vector<PlanError> errors;
};
} // namespace

/// Group 1: element types, layouts, cluster, tile shape and schedule.
static void checkShapeRules(const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  if (desc.aBits != 16 || desc.bBits != 16)
    errors.error() << "A and B must be 16-bit (f16 or bf16) because the "
                      "mainloop issues f16/bf16 wgmma with f32 accumulation, "
                      "got "
                   << desc.aBits << "-bit A and " << desc.bBits << "-bit B";
  if (desc.dBits != 16 && desc.dBits != 32)
    errors.error() << "D must be 16-bit (f16, bf16) or 32-bit (f32), got "
                   << desc.dBits << "-bit";
  if (desc.cBits != 0 && desc.cBits != 16 && desc.cBits != 32)
    errors.error() << "C must be 16-bit (f16, bf16) or 32-bit (f32), got "
                   << desc.cBits << "-bit";
  for (const auto *list :
       {&desc.auxLoads, &desc.auxStores, &desc.vecM, &desc.vecN})
    for (const EpilogueOperand &operand : *list)
      if (operand.bits != 8 && operand.bits != 16 && operand.bits != 32)
        errors.error() << "epilogue operand '" << operand.name
                       << "' must have 8-, 16- or 32-bit elements, got "
                       << operand.bits << "-bit";
  if (desc.aMajor == OperandMajor::N)
    errors.error() << "A must be k_major or m_major because it is M x K, got "
                      "n_major";
  if (desc.bMajor == OperandMajor::M)
    errors.error() << "B must be k_major or n_major because it is K x N, got "
                      "m_major";
  // Tile rules depend on the element widths: report types first.
  if (errors.size())
    return;

  auto tile = c.tile.value_or(std::array<int64_t, 3>{0, 0, 0});
  auto cluster = c.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  if (tile[0] <= 0 || tile[1] <= 0 || tile[2] <= 0) {
    errors.error() << "tile = " << listToString(tile)
                   << " must have positive M, N and K";
    return;
  }
  if (cluster != std::array<int64_t, 3>{1, 1, 1})
    errors.error() << "cluster = " << listToString(cluster)
                   << " needs TMA multicast across the cluster, which is not "
                      "implemented yet; use cluster = [1, 1, 1]";

  int64_t kBytes = tile[2] * bytesOf(desc.aBits);
  if (kBytes != 128)
    errors.error() << "tile K = " << tile[2] << " spans " << kBytes
                   << " bytes of " << desc.aBits
                   << "-bit A; it must span exactly 128 bytes (one row of the "
                      "128B swizzle, the only one warpgroup.generate."
                      "descriptor supports), so tile K must be "
                   << 128 / std::max<int64_t>(1, bytesOf(desc.aBits));
  if (tile[1] % 16 != 0 || tile[1] < 16 || tile[1] > 256)
    errors.error() << "tile N = " << tile[1]
                   << " is not a wgmma N: it must be a multiple of 16 in "
                      "[16, 256] (wgmma allows multiples of 8; we require 16)";

  KernelSchedule schedule = getSchedule(desc);
  switch (schedule) {
  case KernelSchedule::WarpSpecialized:
    if (tile[0] != 64 && tile[0] != 128)
      errors.error() << "schedule warp_specialized has one consumer "
                        "warpgroup per tile, owning 64 or 128 rows (one or "
                        "two m64 wgmma), so tile M must be 64 or 128, got "
                     << tile[0];
    break;
  case KernelSchedule::Cooperative:
    if (tile[0] != 128 && tile[0] != 256)
      errors.error() << "schedule cooperative splits tile M across 2 "
                        "consumer warpgroups of 64 or 128 rows each (one or "
                        "two m64 wgmma), so tile M must be 128 or 256, got "
                     << tile[0];
    break;
  case KernelSchedule::Pingpong:
    if (tile[0] != 64 && tile[0] != 128)
      errors.error() << "schedule pingpong gives each of its 2 consumer "
                        "warpgroups whole tiles of 64 or 128 rows (one or two "
                        "m64 wgmma), so tile M must be 64 or 128, got "
                     << tile[0];
    if (!c.persistent.value_or(true))
      errors.error() << "schedule pingpong needs persistent = true: its 2 "
                        "consumer warpgroups take alternate tiles from the "
                        "persistent tile scheduler";
    break;
  }
}

/// Reports a row stride that TMA cannot use.
static void checkRowStride(ErrorList &errors, const std::string &operand,
                           const char *dimName, int64_t dim, unsigned bits) {
  int64_t stride = dim * bytesOf(bits);
  if (stride % 16 == 0)
    return;
  errors.error() << "TMA needs row strides that are multiples of 16 bytes, "
                    "but "
                 << operand << " has a row stride of " << dimName << " x "
                 << bytesOf(bits) << " = " << stride << " bytes (" << dimName
                 << " = " << dim << ")";
}

/// Group 2: epilogue tile and buffers, pipeline knobs, registers, TMA.
static void checkKnobRules(const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  KernelSchedule schedule = getSchedule(desc);
  auto tile = *c.tile;
  auto epi = c.epiTile.value_or(std::array<int64_t, 2>{0, 0});

  if (epi[0] <= 0 || epi[1] <= 0) {
    errors.error() << "epi_tile = " << listToString(epi)
                   << " must have positive M and N";
  } else if (tile[0] % epi[0] != 0 || tile[1] % epi[1] != 0) {
    errors.error() << "epi_tile = " << listToString(epi)
                   << " must divide the CTA tile's M x N = " << tile[0] << " x "
                   << tile[1] << ", but " << tile[0] << " % " << epi[0] << " = "
                   << tile[0] % epi[0] << " and " << tile[1] << " % " << epi[1]
                   << " = " << tile[1] % epi[1];
  } else {
    int64_t wantM = schedule == KernelSchedule::Cooperative ? 128 : 64;
    if (epi[0] != wantM)
      errors.error() << "epi_tile M must be " << wantM << " for schedule "
                     << toString(schedule)
                     << (schedule == KernelSchedule::Cooperative
                             ? " (64 rows from each of the 2 consumer "
                               "warpgroups"
                             : " (the 64-row block of one m64 wgmma")
                     << ", as in CUTLASS's sm90_compute_tile_shape_or_"
                        "override), got "
                     << epi[0];
    if (epi[1] % 16 != 0)
      errors.error() << "epi_tile N = " << epi[1]
                     << " must be a multiple of 16 (stmatrix writes 16 "
                        "columns of the subtile per step)";
  }

  int64_t stages = c.stages.value_or(0);
  if (stages < 2)
    errors.error() << "stages = " << stages
                   << " must be at least 2 so that the TMA loads of the next "
                      "k-tile overlap the wgmma of the current one";
  auto atLeastOne = [&](const char *name, std::optional<int64_t> value) {
    if (value.value_or(0) < 1)
      errors.error() << name << " = " << value.value_or(0)
                     << " must be at least 1";
  };
  atLeastOne("stages_c", c.stagesC);
  atLeastOne("stages_d", c.stagesD);
  atLeastOne("fragment_size", c.fragmentSize);

  // The EVT visits each thread's subtile elements fragment_size at a time.
  int64_t threads = getNumEpilogueThreads(schedule);
  int64_t perThread = epi[0] * epi[1] / threads;
  int64_t fragment = c.fragmentSize.value_or(0);
  if (fragment >= 1 && epi[0] > 0 && epi[1] > 0 &&
      (perThread == 0 || perThread % fragment != 0))
    errors.error() << "fragment_size = " << fragment << " must divide the "
                   << perThread << " accumulator elements each of the "
                   << threads << " epilogue threads holds per " << epi[0] << "x"
                   << epi[1] << " subtile";

  if (c.reuseSmemC.value_or(false)) {
    if (!desc.loadsC || !desc.storesD)
      errors.error() << "reuse_smem_c = true needs an epilogue that loads C "
                        "(epi.load_src) and stores D (epi.store): D's buffers "
                        "alias C's";
    else if (desc.cBits != desc.dBits)
      errors.error() << "reuse_smem_c = true needs C and D of the same width "
                        "because D's buffers alias C's, got "
                     << desc.cBits << "-bit C and " << desc.dBits << "-bit D";
    else if (c.stagesD.value_or(0) > c.stagesC.value_or(0))
      errors.error() << "reuse_smem_c = true needs stages_d <= stages_c "
                        "because D's buffers live inside C's, got stages_d = "
                     << c.stagesD.value_or(0)
                     << " and stages_c = " << c.stagesC.value_or(0);
  }

  int64_t swizzle = c.swizzle.value_or(1);
  if (swizzle != 1 && swizzle != 2 && swizzle != 4 && swizzle != 8)
    errors.error() << "swizzle = " << swizzle
                   << " must be 1, 2, 4 or 8 (the tile scheduler's "
                      "max_swizzle_size)";

  // setmaxnreg takes a multiple of 8 in [24, 256].
  auto checkRegs = [&](const char *name, std::optional<int64_t> regs) {
    if (regs && (*regs < 24 || *regs > 256 || *regs % 8 != 0))
      errors.error() << name << " = " << *regs
                     << " must be a multiple of 8 in [24, 256] (setmaxnreg)";
  };
  int64_t groups = getNumConsumerWarpgroups(schedule);
  size_t before = errors.size();
  checkRegs("producer_regs", c.producerRegs);
  checkRegs("consumer_regs", c.consumerRegs);
  if (errors.size() == before && c.producerRegs && c.consumerRegs) {
    int64_t total = *c.producerRegs * 128 + groups * *c.consumerRegs * 128;
    if (total > kSm90RegistersPerSm)
      errors.error() << "register budgets need " << *c.producerRegs
                     << " x 128 + " << groups << " x " << *c.consumerRegs
                     << " x 128 = " << total << " registers, more than the "
                     << kSm90RegistersPerSm << " of an SM";
  }

  // Each consumer thread keeps its share of the warpgroup's f32 accumulator
  // tile in registers; it must at least fit in the thread's budget (the
  // configured consumer_regs, else the launch share: at most 255).
  int64_t wgRows =
      schedule == KernelSchedule::Cooperative ? tile[0] / 2 : tile[0];
  int64_t accRegs = wgRows * tile[1] / 128;
  int64_t budget = c.consumerRegs.value_or(std::min<int64_t>(
      255, kSm90RegistersPerSm / (128 * (groups + 1)) / 8 * 8));
  if (errors.size() == before && accRegs > budget)
    errors.error() << "each consumer thread holds its share of a " << wgRows
                   << "x" << tile[1] << " f32 accumulator in " << accRegs
                   << " registers, more than its budget of " << budget
                   << (c.consumerRegs ? " (consumer_regs)" : "")
                   << ": use a smaller tile N"
                   << (schedule == KernelSchedule::Cooperative
                           ? ""
                           : " or schedule cooperative");

  // TMA: every row stride of a tensor map is a multiple of 16 bytes.
  if (desc.shape) {
    auto [m, n, k, l] = *desc.shape;
    (void)l;
    if (desc.aMajor == OperandMajor::M)
      checkRowStride(errors, "A (m_major: K x M, M contiguous)", "M", m,
                     desc.aBits);
    else
      checkRowStride(errors, "A (k_major: M x K, K contiguous)", "K", k,
                     desc.aBits);
    if (desc.bMajor == OperandMajor::N)
      checkRowStride(errors, "B (n_major: K x N, N contiguous)", "N", n,
                     desc.bBits);
    else
      checkRowStride(errors, "B (k_major: N x K, K contiguous)", "K", k,
                     desc.bBits);
    if (desc.loadsC)
      checkRowStride(errors, "C (M x N, N contiguous)", "N", n, desc.cBits);
    if (desc.storesD)
      checkRowStride(errors, "D (M x N, N contiguous)", "N", n, desc.dBits);
    for (const auto *list : {&desc.auxLoads, &desc.auxStores})
      for (const EpilogueOperand &aux : *list)
        checkRowStride(errors, "aux matrix '" + aux.name + "' (M x N)", "N", n,
                       aux.bits);
  }
}

/// Group 3: the SMEM budget.
static void checkSmemBudget(const GemmDesc &desc, int64_t capacity,
                            ErrorList &errors) {
  SmemBudget budget = computeSmemBudget(desc);
  if (budget.total <= capacity)
    return;
  // The largest stage count (>= 2) below the current one that fits.
  int64_t stages = desc.config.stages.value_or(2);
  std::optional<int64_t> fits;
  GemmDesc probe = desc;
  int64_t atTwo = 0;
  for (int64_t s = stages - 1; s >= 2 && !fits; --s) {
    probe.config.stages = s;
    int64_t total = computeSmemBudget(probe).total;
    if (total <= capacity)
      fits = s;
  }
  probe.config.stages = 2;
  atTwo = computeSmemBudget(probe).total;

  auto os = errors.error();
  os << "needs " << budget.total << " bytes of shared memory, " << capacity
     << " available: over by " << budget.total - capacity << "; ";
  if (fits)
    os << "try stages = " << *fits << " or a smaller tile";
  else
    os << "even stages = 2 needs " << atTwo
       << " bytes: use a smaller tile or epilogue tile, or fewer epilogue "
          "buffers";
  os.flush();
  for (const SmemItem &item : budget.items) {
    if (!item.bytes)
      continue;
    std::string note;
    llvm::raw_string_ostream(note)
        << item.name << ": " << item.bytes << " bytes (" << item.formula << ")";
    errors.back().notes.push_back(std::move(note));
  }
}

std::vector<PlanError>
mlir::wsgemm::planning::checkLegality(const GemmDesc &desc, int64_t capacity) {
  ErrorList errors;
  checkShapeRules(desc, errors);
  if (errors.size())
    return errors.take();
  checkKnobRules(desc, errors);
  if (errors.size())
    return errors.take();
  checkSmemBudget(desc, capacity, errors);
  return errors.take();
}
