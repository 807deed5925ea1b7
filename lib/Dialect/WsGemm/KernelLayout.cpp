//===- KernelLayout.cpp - Shared memory and parameters of a kernel --------===//
//
// Implements KernelLayout.h: places the kernel's shared-memory buffers in
// their documented order, itemising the budget as it goes, and lists the
// kernel parameters in launch order. No IR here.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir::wsgemm::planning;

static int64_t bytesOf(DType type) { return (getBits(type) + 7) / 8; }

static int64_t alignTo(int64_t value, int64_t align) {
  return (value + align - 1) / align * align;
}

int64_t KernelLayout::subtileBytes(DType type) const {
  return 64 * epiN * bytesOf(type);
}

int64_t KernelLayout::subtileSwizzle(DType type) const {
  int64_t rowBytes = epiN * bytesOf(type);
  return rowBytes == 32 || rowBytes == 64 || rowBytes == 128 ? rowBytes : 0;
}

int64_t SmemBudget::get(SmemKind kind) const {
  for (const SmemItem &item : items)
    if (item.kind == kind)
      return item.bytes;
  return 0;
}

namespace {
/// Places regions one after another with their alignment, itemising bytes
/// per kind and the padding separately.
class Placer {
public:
  /// Places `bytes` aligned to `align`; returns its offset (-1 when empty).
  int64_t place(int64_t bytes, int64_t align) {
    if (bytes <= 0)
      return -1;
    int64_t start = alignTo(offset, align);
    padding += start - offset;
    offset = start + bytes;
    return start;
  }

  void add(SmemKind kind, const char *name, int64_t bytes,
           std::string formula) {
    budget.items.push_back(
        {kind, name, bytes, bytes ? std::move(formula) : std::string()});
  }

  SmemBudget finish(int64_t baseAlignment) {
    add(SmemKind::AlignmentPadding, "alignment padding", padding,
        "to 1024-byte (tiles), 128-byte (dequantization rows) and 8-byte "
        "(barriers) boundaries");
    add(SmemKind::BaseAlignment, "base alignment", baseAlignment,
        "the kernel rounds the dynamic SMEM base up to 1024 bytes");
    budget.total = offset + baseAlignment;
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

/// The parameters in launch order: tensor maps (A, B, C when read, D, aux
/// matrices in EVT order; D and aux stores are matrices with `store =
/// direct`, C and aux loads on sm_8x), the block scales of A and B (block scaling),
/// then pointers, scalars and reductions in EVT
/// order, the workspace and stream-K tile count when the tile scheduler
/// splits K ranges, then the sizes M, N, K, L.
static std::vector<KernelParam> listParams(const GemmDesc &desc,
                                           const KernelLayout &layout) {
  using Kind = EpilogueOperand::Kind;
  std::vector<KernelParam> params;
  auto tensorMap = [&](const std::string &operand, DType type,
                       std::vector<std::string> dims, std::vector<int64_t> box,
                       int64_t swizzle) {
    KernelParam p;
    p.kind = KernelParam::Kind::TensorMap;
    p.name = p.operand = operand;
    p.type = type;
    if (desc.batched) {
      dims.push_back("L");
      box.push_back(1);
    }
    p.dims = std::move(dims);
    p.box = std::move(box);
    p.swizzleBytes = swizzle;
    params.push_back(std::move(p));
  };
  // A and B in 128B-swizzled boxes: K-major boxes are tile K (128 bytes)
  // wide; an M-major A and an N-major B move in 64-column blocks.
  // In a cluster, each CTA loads its share of the tile it multicasts (a
  // cluster along N shares A, one along M shares B).
  auto cluster = desc.config.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  // A cp.async operand is a plain matrix (same dims, no box): the producer
  // warps copy it into the same swizzled stages.
  auto copied = [&](const char *operand, DType type,
                    std::vector<std::string> dims, int64_t align) {
    KernelParam p;
    p.kind = KernelParam::Kind::Matrix;
    p.name = p.operand = operand;
    p.type = type;
    if (desc.batched)
      dims.push_back("L");
    p.dims = std::move(dims);
    p.alignBytes = align;
    params.push_back(std::move(p));
  };
  const GemmConfig &c = desc.config;
  // A pre-packed A (mixed input): halves of 2048 bytes (256 x u64), one
  // (i4) or two (8-bit) per unit, tile K / 64 units per 64-row block, tile
  // M / 64 blocks per box.
  if (desc.isMixedInput()) {
    tensorMap("A", desc.a, {"K", "M"},
              {256, layout.tileK / 64 * packedHalvesPerUnit(desc.a),
               layout.tileM / 64},
              0);
    params.back().packing = packingOf(desc.a);
  } else if (c.isCpAsyncA())
    copied("A", desc.a,
           desc.aMajor == OperandMajor::M ? std::vector<std::string>{"M", "K"}
                                          : std::vector<std::string>{"K", "M"},
           c.alignA.value_or(bytesOf(desc.a)));
  else if (desc.aMajor == OperandMajor::M)
    tensorMap("A", desc.a, {"M", "K"}, {64, layout.tileK}, 128);
  else
    tensorMap("A", desc.a, {"K", "M"},
              {layout.tileK, layout.tileM / std::max<int64_t>(1, cluster[1])},
              128);
  if (c.isCpAsyncB())
    copied("B", desc.b,
           desc.bMajor == OperandMajor::N ? std::vector<std::string>{"N", "K"}
                                          : std::vector<std::string>{"K", "N"},
           c.alignB.value_or(bytesOf(desc.b)));
  else if (desc.bMajor == OperandMajor::N)
    tensorMap("B", desc.b, {"N", "K"}, {64, layout.tileK}, 128);
  else {
    // A K-major box is at most 128 bytes of K (the swizzle span); a
    // mixed-input k-tile of 128 or 256 is two or four such blocks, which
    // one box loads (k_chunks: the runtime views K as [64, K / 64]): one
    // request instead of two or four (as fast as two boxes at k-tiles of
    // 128, docs/perf-notes.md).
    int64_t blockK = 128 / bytesOf(desc.b);
    tensorMap("B", desc.b, {"K", "N"},
              {std::min<int64_t>(layout.tileK, blockK),
               layout.tileN / std::max<int64_t>(1, cluster[0])},
              128);
    if (desc.isMixedInput() && layout.tileK > blockK)
      params.back().kChunks = layout.tileK / blockK;
  }
  // Epilogue matrices move in 64-row subtiles, loaded whole and stored a
  // warp's 16 rows at a time (storeBoxRows); with `store = direct` the
  // outputs are plain matrices every epilogue thread stores into.
  auto subtileMap = [&](const std::string &name, DType type, bool output) {
    if (output && desc.config.isDirectStore()) {
      KernelParam p;
      p.kind = KernelParam::Kind::Matrix;
      p.name = p.operand = name;
      p.type = type;
      // A column-major D (d(T, m_major)): M is its contiguous dimension.
      bool columnMajor = name == "D" && desc.dMajor == OperandMajor::M;
      p.dims = columnMajor ? std::vector<std::string>{"M", "N"}
                           : std::vector<std::string>{"N", "M"};
      if (desc.batched)
        p.dims.push_back("L");
      params.push_back(std::move(p));
      return;
    }
    // Without TMA (sm_8x, or load_c = cp_async) the epilogue-load warp
    // copies C and aux matrices align_c bytes at a time (EpilogueLoads.cpp).
    if (!output && desc.copiesEpilogueLoads()) {
      copied(name.c_str(), type, {"N", "M"}, desc.epilogueCopyBytes());
      return;
    }
    tensorMap(name, type, {"N", "M"},
              {layout.epiN, output ? layout.storeBoxRows() : 64},
              layout.subtileSwizzle(type));
  };
  if (desc.loadsC)
    subtileMap("C", desc.c, false);
  subtileMap("D", desc.d, true);
  for (const EpilogueOperand &operand : desc.operands)
    if (operand.kind == Kind::AuxLoad || operand.kind == Kind::AuxStore)
      subtileMap(operand.name, operand.type, operand.kind == Kind::AuxStore);
  // Block scaling: A's scales per row per 128 of K (KB = ceil(K / 128)
  // blocks of M, M contiguous), B's per 128 x 128 block (NB = ceil(N /
  // 128) rows of KB, K blocks contiguous).
  if (isBlockScaled(desc.config)) {
    auto blockScale = [&](const char *operand, std::vector<std::string> ext) {
      KernelParam p;
      p.kind = KernelParam::Kind::Pointer;
      p.name = std::string("block_scale_") + (operand[0] == 'A' ? "a" : "b");
      p.operand = operand;
      if (desc.batched)
        ext.push_back("L");
      p.extent = std::move(ext);
      params.push_back(std::move(p));
    };
    blockScale("A", {"M", "KB"});
    blockScale("B", {"KB", "NB"});
  }

  // Mixed input: A's scales, and its zero points with zero = ui4, per
  // (batch, group, row) in B's type, M contiguous: [M, KB(, L)] with KB =
  // K / 128 groups (group = 128), [M, KG(, L)] with KG = K / group (32,
  // 64: LegalityMixedInput.cpp), or [M(, L)] with one scale per row
  // (group = 0).
  if (desc.isMixedInput()) {
    for (const char *name : {"dequant_scale_a", "dequant_zero_a"}) {
      if (name[8] == 'z' && desc.dequantA->zero != ZeroPoint::Group)
        continue;
      KernelParam p;
      p.kind = KernelParam::Kind::Pointer;
      p.name = name;
      p.operand = "A";
      p.dequant = true;
      p.type = desc.dequantA->scale;
      // The load warp copies a stage's rows 16 bytes at a time.
      p.alignBytes = 16;
      p.extent = {"M"};
      if (desc.dequantA->group > 0)
        p.extent.push_back(desc.dequantA->group == 128 ? "KB" : "KG");
      if (desc.batched)
        p.extent.push_back("L");
      params.push_back(std::move(p));
    }
  }

  for (const EpilogueOperand &operand : desc.operands) {
    KernelParam p;
    p.name = operand.name;
    p.type = operand.type;
    p.reduce = operand.reduce;
    switch (operand.kind) {
    case Kind::AuxLoad:
    case Kind::AuxStore:
      continue;
    case Kind::VecM:
      p.kind = KernelParam::Kind::Pointer;
      p.extent = {"M", "L"};
      break;
    case Kind::VecN:
      p.kind = KernelParam::Kind::Pointer;
      p.extent = {"N", "L"};
      break;
    case Kind::Scalar:
      p.kind = KernelParam::Kind::Scalar;
      break;
    case Kind::ScalarPointer:
      p.kind = KernelParam::Kind::ScalarPointer;
      break;
    case Kind::ReduceVecM:
      p.kind = KernelParam::Kind::Reduction;
      p.extent = {"M", "L"};
      break;
    case Kind::ReduceVecN:
      p.kind = KernelParam::Kind::Reduction;
      p.extent = {"N", "L"};
      break;
    case Kind::ReduceScalar:
      p.kind = KernelParam::Kind::Reduction;
      break;
    }
    params.push_back(std::move(p));
  }
  // Split-K / stream-K: the workspace, and stream-K's tile count; the
  // launch's tile order.
  if (desc.config.hasWorkspace()) {
    KernelParam p;
    p.kind = KernelParam::Kind::Workspace;
    p.name = "workspace";
    params.push_back(std::move(p));
  }
  if (desc.config.isStreamK()) {
    KernelParam p;
    p.kind = KernelParam::Kind::StreamKTiles;
    p.name = "stream_k_tiles";
    p.type = DType::None;
    params.push_back(std::move(p));
  }
  if (desc.config.hasRuntimeTileOrder()) {
    KernelParam p;
    p.kind = KernelParam::Kind::TileOrder;
    p.name = "tile_order";
    p.type = DType::None;
    params.push_back(std::move(p));
  }
  for (const char *dim : {"M", "N", "K", "L"}) {
    KernelParam p;
    p.kind = KernelParam::Kind::Size;
    p.name = p.operand = dim;
    p.type = DType::None;
    params.push_back(std::move(p));
  }
  return params;
}

KernelLayout mlir::wsgemm::planning::computeKernelLayout(const GemmDesc &desc) {
  using Kind = EpilogueOperand::Kind;
  const GemmConfig &c = desc.config;
  KernelLayout layout;
  auto [tileM, tileN, tileK] = c.tile.value_or(std::array<int64_t, 3>{0, 0, 0});
  layout.tileM = tileM;
  layout.tileN = tileN;
  layout.tileK = tileK;
  KernelSchedule schedule = c.schedule.value_or(KernelSchedule::Cooperative);
  layout.consumerWarpgroups = getWarpgroupsPerTile(schedule);
  layout.mmaWarpgroups = getNumConsumerWarpgroups(schedule);
  layout.wgRows = tileM / layout.consumerWarpgroups;
  layout.epiN = c.epiTile ? (*c.epiTile)[1] : 0;
  layout.warpColumns = c.getWarpColumns();
  layout.stages = c.stages.value_or(0);
  layout.stagesC = c.stagesC.value_or(0);
  layout.stagesD = c.stagesD.value_or(0);
  layout.reuseSmemC =
      c.reuseSmemC.value_or(false) && desc.loadsC && desc.storesD;
  layout.storeRing = layout.reuseSmemC ? layout.stagesC : layout.stagesD;
  layout.warpStores =
      c.warpStores.value_or(false) && !layout.reuseSmemC && !c.isDirectStore();
  layout.stageBytesA = tileM * tileK * getBits(desc.a) / 8;
  layout.stageBytesB = tileN * tileK * bytesOf(desc.b);
  layout.stageBytesDequant = getDequantStageBytes(desc);

  // An epilogue ring holds `slots` 64-row subtiles per consumer warpgroup.
  int64_t subtileRows = 64 * layout.consumerWarpgroups;
  auto ringBytes = [&](int64_t slots, DType type) {
    return slots * layout.consumerWarpgroups * layout.subtileBytes(type);
  };
  constexpr int64_t kTileAlign = 1024, kBarrierAlign = 8;
  Placer placer;
  int64_t aBytes = bytesOf(desc.a), bBytes = bytesOf(desc.b);
  layout.offA = std::max<int64_t>(
      0, placer.place(layout.stages * layout.stageBytesA, kTileAlign));
  placer.add(SmemKind::AStages, "A stages", layout.stages * layout.stageBytesA,
             getBits(desc.a) == 4
                 ? tileFormula(layout.stages, tileM, tileK / 2, 1) + " (i4)"
                 : tileFormula(layout.stages, tileM, tileK, aBytes));
  layout.offB = placer.place(layout.stages * layout.stageBytesB, kTileAlign);
  placer.add(SmemKind::BStages, "B stages", layout.stages * layout.stageBytesB,
             tileFormula(layout.stages, tileN, tileK, bBytes));
  // A mixed-input A's scales and zero points, staged with its tiles: the
  // load warp copies them (16-byte cp.async) beside A's box.
  int64_t dequantBytes = layout.stages * layout.stageBytesDequant;
  layout.offDequant = placer.place(dequantBytes, /*align=*/128);
  placer.add(SmemKind::DequantStages, "A dequantization rows", dequantBytes,
             layout.stageBytesDequant == 0
                 ? std::string()
                 : std::to_string(layout.stages) + " x " +
                       std::to_string(layout.stageBytesDequant /
                                      bytesOf(desc.dequantA->scale)) +
                       " x " + std::to_string(bytesOf(desc.dequantA->scale)) +
                       " B");

  int64_t cBytes = desc.loadsC ? ringBytes(layout.stagesC, desc.c) : 0;
  layout.offC = placer.place(cBytes, kTileAlign);
  placer.add(
      SmemKind::CBuffers, "C buffers", cBytes,
      tileFormula(layout.stagesC, subtileRows, layout.epiN, bytesOf(desc.c)) +
          (layout.reuseSmemC ? "; D's subtiles inside" : ""));
  int64_t dBytes = desc.storesD && !layout.reuseSmemC
                       ? ringBytes(layout.stagesD, desc.d)
                       : 0;
  layout.offD =
      layout.reuseSmemC ? layout.offC : placer.place(dBytes, kTileAlign);
  placer.add(
      SmemKind::DBuffers, "D buffers", dBytes,
      tileFormula(layout.stagesD, subtileRows, layout.epiN, bytesOf(desc.d)));

  // Aux matrices: one ring per distinct name.
  auto placeAux = [&](Kind kind, int64_t slots, std::vector<AuxBuffer> &out,
                      SmemKind item, const char *itemName) {
    int64_t total = 0;
    std::string formula;
    for (const EpilogueOperand &aux : desc.operandsOf(kind)) {
      int64_t bytes = ringBytes(slots, aux.type);
      out.push_back({aux.name, aux.type, placer.place(bytes, kTileAlign)});
      total += bytes;
      formula +=
          (formula.empty() ? "" : " + ") + aux.name + ": " +
          tileFormula(slots, subtileRows, layout.epiN, bytesOf(aux.type));
    }
    placer.add(item, itemName, total, formula);
  };
  placeAux(Kind::AuxLoad, layout.stagesC, layout.auxLoads,
           SmemKind::AuxLoadBuffers, "aux load buffers");
  placeAux(Kind::AuxStore, layout.storeRing, layout.auxStores,
           SmemKind::AuxStoreBuffers, "aux store buffers");

  // mbarriers: a full and an empty barrier (8 bytes each) per stage.
  layout.offMainBarriers = placer.place(layout.stages * 16, kBarrierAlign);
  placer.add(SmemKind::MainloopBarriers, "mainloop barriers",
             layout.stages * 16,
             std::to_string(layout.stages) + " stages x 2 x 8 B");
  bool epiLoads = desc.loadsC || !desc.operandsOf(Kind::AuxLoad).empty();
  int64_t epiBarriers = epiLoads ? layout.stagesC * 16 : 0;
  layout.offEpiBarriers = placer.place(epiBarriers, kBarrierAlign);
  placer.add(SmemKind::EpilogueBarriers, "epilogue barriers", epiBarriers,
             std::to_string(layout.stagesC) + " stages_c x 2 x 8 B");
  int64_t orderBarriers = schedule == KernelSchedule::Pingpong ? 4 * 8 : 0;
  layout.offOrderBarriers = placer.place(orderBarriers, kBarrierAlign);
  placer.add(SmemKind::OrderBarriers, "order barriers", orderBarriers,
             "2 sequences x 2 warpgroups x 8 B");
  layout.copyOutByLoad = c.copiesOutByLoad();
  int64_t copyOutBarriers = layout.copyOutByLoad ? layout.storeRing * 16 : 0;
  layout.offCopyOutBarriers = placer.place(copyOutBarriers, kBarrierAlign);
  placer.add(SmemKind::CopyOutBarriers, "copy-out barriers", copyOutBarriers,
             std::to_string(layout.storeRing) + " stages_d x 2 x 8 B");
  layout.budget = placer.finish(/*baseAlignment=*/1024);
  layout.smemBytes = layout.budget.total;
  // Gathered split-K: the units but the last each write their own
  // partial (the last sums them); otherwise one running partial is handed
  // along (TileSchedulerFixup.cpp).
  int64_t accPerThread = layout.wgRows / 64 * tileN / 2;
  layout.gatherSplits = c.getSplitK() > 1 && accPerThread <= 64;
  if (c.hasWorkspace()) {
    layout.workspaceTileBytes =
        tileM * tileN * 4 * (layout.gatherSplits ? c.getSplitK() - 1 : 1);
    // One i32 per consumer warpgroup, padded so that the next tile's
    // partials stay 16-byte aligned (TileSchedulerFixup.cpp).
    layout.workspaceFlagBytes = 16;
  }
  layout.params = listParams(desc, layout);
  return layout;
}

SmemBudget mlir::wsgemm::planning::computeSmemBudget(const GemmDesc &desc) {
  return computeKernelLayout(desc).budget;
}
