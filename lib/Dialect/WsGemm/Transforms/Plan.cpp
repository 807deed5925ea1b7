//===- Plan.cpp - Fill GEMM config defaults and check legality ------------===//
//
// --wsgemm-plan: a thin pass over the planning library (Planning.h). For each
// wsgemm.gemm it reads what the epilogue needs into a GemmDesc, fills the
// unset config knobs, checks legality, and writes back the complete config
// and the kernel's dynamic SMEM (`wsgemm.smem_bytes`). The translation
// between the op and the IR-free description lives here, nowhere else.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/Planning.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::wsgemm {
#define GEN_PASS_DEF_WSGEMMPLAN
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h.inc"
} // namespace mlir::wsgemm

using namespace mlir;
using namespace mlir::wsgemm;
namespace pl = mlir::wsgemm::planning;

//===----------------------------------------------------------------------===//
// Op <-> planning description
//===----------------------------------------------------------------------===//

static unsigned getBits(Type type) {
  return type && type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 0;
}

static pl::OperandMajor toPlanning(Major major) {
  switch (major) {
  case Major::k_major:
    return pl::OperandMajor::K;
  case Major::m_major:
    return pl::OperandMajor::M;
  case Major::n_major:
    return pl::OperandMajor::N;
  }
  llvm_unreachable("unknown layout");
}

static pl::KernelSchedule toPlanning(Schedule schedule) {
  switch (schedule) {
  case Schedule::warp_specialized:
    return pl::KernelSchedule::WarpSpecialized;
  case Schedule::cooperative:
    return pl::KernelSchedule::Cooperative;
  case Schedule::pingpong:
    return pl::KernelSchedule::Pingpong;
  }
  llvm_unreachable("unknown schedule");
}

static Schedule fromPlanning(pl::KernelSchedule schedule) {
  switch (schedule) {
  case pl::KernelSchedule::WarpSpecialized:
    return Schedule::warp_specialized;
  case pl::KernelSchedule::Cooperative:
    return Schedule::cooperative;
  case pl::KernelSchedule::Pingpong:
    return Schedule::pingpong;
  }
  llvm_unreachable("unknown schedule");
}

static pl::Raster toPlanning(RasterOrder raster) {
  switch (raster) {
  case RasterOrder::along_m:
    return pl::Raster::AlongM;
  case RasterOrder::along_n:
    return pl::Raster::AlongN;
  case RasterOrder::heuristic:
    return pl::Raster::Heuristic;
  }
  llvm_unreachable("unknown raster order");
}

static RasterOrder fromPlanning(pl::Raster raster) {
  switch (raster) {
  case pl::Raster::AlongM:
    return RasterOrder::along_m;
  case pl::Raster::AlongN:
    return RasterOrder::along_n;
  case pl::Raster::Heuristic:
    return RasterOrder::heuristic;
  }
  llvm_unreachable("unknown raster order");
}

template <size_t N>
static std::optional<std::array<int64_t, N>> toArray(ArrayRef<int64_t> list) {
  if (list.size() != N)
    return std::nullopt;
  std::array<int64_t, N> result;
  llvm::copy(list, result.begin());
  return result;
}

static pl::GemmConfig toPlanning(ConfigAttr attr) {
  pl::GemmConfig config;
  config.tile = toArray<3>(attr.getTile());
  config.cluster = toArray<3>(attr.getCluster());
  config.stages = attr.getStages();
  if (attr.getSchedule())
    config.schedule = toPlanning(*attr.getSchedule());
  config.persistent = attr.getPersistent();
  if (attr.getRaster())
    config.raster = toPlanning(*attr.getRaster());
  config.swizzle = attr.getSwizzle();
  config.epiTile = toArray<2>(attr.getEpiTile());
  config.stagesC = attr.getStagesC();
  config.stagesD = attr.getStagesD();
  config.fragmentSize = attr.getFragmentSize();
  config.reuseSmemC = attr.getReuseSmemC();
  config.delayTmaStore = attr.getDelayTmaStore();
  config.producerRegs = attr.getProducerRegs();
  config.consumerRegs = attr.getConsumerRegs();
  return config;
}

template <size_t N>
static ArrayRef<int64_t>
toList(const std::optional<std::array<int64_t, N>> &a) {
  return a ? ArrayRef<int64_t>(*a) : ArrayRef<int64_t>();
}

static ConfigAttr fromPlanning(MLIRContext *ctx, const pl::GemmConfig &c) {
  std::optional<Schedule> schedule;
  if (c.schedule)
    schedule = fromPlanning(*c.schedule);
  std::optional<RasterOrder> raster;
  if (c.raster)
    raster = fromPlanning(*c.raster);
  return ConfigAttr::get(ctx, toList(c.tile), toList(c.cluster), c.stages,
                         schedule, c.persistent, raster, c.swizzle,
                         toList(c.epiTile), c.stagesC, c.stagesD,
                         c.fragmentSize, c.reuseSmemC, c.delayTmaStore,
                         c.producerRegs, c.consumerRegs);
}

/// Records a named epilogue operand once per distinct name.
static void addOperand(std::vector<pl::EpilogueOperand> &list,
                       llvm::StringSet<> &seen, StringRef name, Type type) {
  if (seen.insert(name).second)
    list.push_back({name.str(), getBits(type)});
}

/// Describes `op` for the planner: operand widths and layouts, the static
/// shape, what the epilogue reads and writes, and the config as written.
static FailureOr<pl::GemmDesc> buildGemmDesc(GemmOp op) {
  pl::GemmDesc desc;
  desc.aBits = getBits(op.getAType());
  desc.bBits = getBits(op.getBType());
  desc.cBits = op.getCType() ? getBits(*op.getCType()) : 0;
  desc.dBits = getBits(op.getDType());
  desc.aMajor = toPlanning(op.getALayout());
  desc.bMajor = toPlanning(op.getBLayout());
  desc.batched = op.isBatched();
  if (op.hasStaticShape())
    desc.shape = {*op.getStaticM(), *op.getStaticN(), *op.getStaticK(),
                  *op.getStaticL()};

  // Walk the EVT. Names are deduplicated: two reads of one aux matrix share
  // its buffers.
  desc.storesD = false;
  llvm::StringSet<> auxLoads, auxStores, vecM, vecN, reduceM, reduceN,
      reduceScalar;
  for (Operation &nested : op.getEpilogue().front()) {
    if (auto preset = dyn_cast<epi::FusionOp>(nested))
      return preset.emitError()
             << "preset '" << epi::stringifyFusionKind(preset.getKind())
             << "' must be expanded before planning: run "
                "--epi-expand-presets before --wsgemm-plan";
    if (isa<epi::LoadSrcOp>(nested))
      desc.loadsC = true;
    else if (isa<epi::StoreOp>(nested))
      desc.storesD = true;
    else if (auto load = dyn_cast<epi::AuxLoadOp>(nested))
      addOperand(desc.auxLoads, auxLoads, load.getName(), load.getElemType());
    else if (auto store = dyn_cast<epi::AuxStoreOp>(nested))
      addOperand(desc.auxStores, auxStores, store.getName(),
                 store.getElemType());
    else if (auto vec = dyn_cast<epi::LoadVecMOp>(nested))
      addOperand(desc.vecM, vecM, vec.getName(), vec.getElemType());
    else if (auto vec = dyn_cast<epi::LoadVecNOp>(nested))
      addOperand(desc.vecN, vecN, vec.getName(), vec.getElemType());
    else if (auto red = dyn_cast<epi::ReduceToVecMOp>(nested))
      desc.numReduceVecM += reduceM.insert(red.getName()).second;
    else if (auto red = dyn_cast<epi::ReduceToVecNOp>(nested))
      desc.numReduceVecN += reduceN.insert(red.getName()).second;
    else if (auto red = dyn_cast<epi::ReduceToScalarOp>(nested))
      desc.numReduceScalar += reduceScalar.insert(red.getName()).second;
  }
  desc.config = toPlanning(op.getConfigOrEmpty());
  return desc;
}

//===----------------------------------------------------------------------===//
// The transform
//===----------------------------------------------------------------------===//

/// Completes and checks the config of `op`; on success writes back the
/// config and `wsgemm.smem_bytes`, on failure leaves the op unchanged.
static LogicalResult planGemm(GemmOp op, int64_t smemCapacity) {
  FailureOr<pl::GemmDesc> desc = buildGemmDesc(op);
  if (failed(desc))
    return failure();
  pl::fillDefaults(*desc, smemCapacity);

  std::vector<pl::PlanError> errors = pl::checkLegality(*desc, smemCapacity);
  for (const pl::PlanError &error : errors) {
    InFlightDiagnostic diag = op.emitError() << error.message;
    for (const std::string &note : error.notes)
      diag.attachNote() << note;
  }
  if (!errors.empty())
    return failure();

  op.setConfigAttr(fromPlanning(op.getContext(), desc->config));
  op.setPlannedSmemBytes(pl::computeSmemBudget(*desc).total);
  return success();
}

namespace {
struct WsGemmPlanPass : public wsgemm::impl::WsGemmPlanBase<WsGemmPlanPass> {
  using WsGemmPlanBase::WsGemmPlanBase;

  void runOnOperation() override {
    if (smemCapacity <= 0) {
      getOperation()->emitError()
          << "--wsgemm-plan smem-capacity must be positive, got "
          << smemCapacity;
      return signalPassFailure();
    }
    bool failedAny = false;
    getOperation()->walk(
        [&](GemmOp op) { failedAny |= failed(planGemm(op, smemCapacity)); });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
