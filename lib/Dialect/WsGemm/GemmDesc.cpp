//===- GemmDesc.cpp - wsgemm.gemm <-> the planning description ------------===//
//
// Implements GemmDesc.h: the translation between a wsgemm.gemm and the
// IR-free GemmDesc, and the read-back of a planned op for the passes after
// --wsgemm-plan.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"

#include "ws-gemm/Dialect/Epi/EpiOps.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::wsgemm;
namespace pl = mlir::wsgemm::planning;

pl::DType mlir::wsgemm::toDType(Type type) {
  if (!type)
    return pl::DType::None;
  if (type.isF16())
    return pl::DType::F16;
  if (type.isBF16())
    return pl::DType::BF16;
  if (type.isF32())
    return pl::DType::F32;
  if (isa<Float8E4M3FNType>(type))
    return pl::DType::F8E4M3;
  if (isa<Float8E5M2Type>(type))
    return pl::DType::F8E5M2;
  if (type.isInteger(4))
    return pl::DType::I4;
  if (type.isInteger(8))
    return pl::DType::I8;
  return pl::DType::Other;
}

Type mlir::wsgemm::toMlirType(MLIRContext *ctx, pl::DType type) {
  switch (type) {
  case pl::DType::F16:
    return Float16Type::get(ctx);
  case pl::DType::BF16:
    return BFloat16Type::get(ctx);
  case pl::DType::F32:
    return Float32Type::get(ctx);
  case pl::DType::F8E4M3:
    return Float8E4M3FNType::get(ctx);
  case pl::DType::F8E5M2:
    return Float8E5M2Type::get(ctx);
  case pl::DType::I4:
    return IntegerType::get(ctx, 4);
  case pl::DType::I8:
    return IntegerType::get(ctx, 8);
  case pl::DType::None:
  case pl::DType::Other:
    return Type();
  }
  return Type();
}

//===----------------------------------------------------------------------===//
// Config
//===----------------------------------------------------------------------===//

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
  case Schedule::multistage:
    return pl::KernelSchedule::Multistage;
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
  case pl::KernelSchedule::Multistage:
    return Schedule::multistage;
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

pl::GemmConfig mlir::wsgemm::toPlanningConfig(ConfigAttr attr) {
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
  config.promotionInterval = attr.getPromotionInterval();
  config.splitK = attr.getSplitK();
  if (attr.getScheduler())
    config.scheduler = *attr.getScheduler() == TileSchedulerKind::stream_k
                           ? pl::TileSchedulerKind::StreamK
                           : pl::TileSchedulerKind::DataParallel;
  config.blockScaling = attr.getBlockScaling();
  if (attr.getStore())
    config.store = *attr.getStore() == OutputStore::direct
                       ? pl::OutputStore::Direct
                       : pl::OutputStore::Tma;
  config.warpStores = attr.getWarpStores();
  auto load = [](std::optional<OperandLoad> l) -> std::optional<pl::OperandLoad> {
    if (!l)
      return std::nullopt;
    return *l == OperandLoad::cp_async ? pl::OperandLoad::CpAsync
                                       : pl::OperandLoad::Tma;
  };
  config.loadA = load(attr.getLoadA());
  config.loadB = load(attr.getLoadB());
  config.alignA = attr.getAlignA();
  config.alignB = attr.getAlignB();
  config.loadC = load(attr.getLoadC());
  config.alignC = attr.getAlignC();
  config.ctasPerSm = attr.getCtasPerSm();
  config.warpColumns = attr.getWarpColumns();
  if (attr.getCopyOut())
    config.copyOut = *attr.getCopyOut() == CopyOut::load ? pl::CopyOut::Load
                                                         : pl::CopyOut::Mma;
  return config;
}

static std::optional<OperandLoad>
fromPlanning(std::optional<pl::OperandLoad> load) {
  if (!load)
    return std::nullopt;
  return *load == pl::OperandLoad::CpAsync ? OperandLoad::cp_async
                                           : OperandLoad::tma;
}

template <size_t N>
static ArrayRef<int64_t>
toList(const std::optional<std::array<int64_t, N>> &a) {
  return a ? ArrayRef<int64_t>(*a) : ArrayRef<int64_t>();
}

ConfigAttr mlir::wsgemm::fromPlanningConfig(MLIRContext *ctx,
                                            const pl::GemmConfig &c) {
  std::optional<Schedule> schedule;
  if (c.schedule)
    schedule = fromPlanning(*c.schedule);
  std::optional<RasterOrder> raster;
  if (c.raster)
    raster = fromPlanning(*c.raster);
  std::optional<TileSchedulerKind> scheduler;
  if (c.scheduler)
    scheduler = *c.scheduler == pl::TileSchedulerKind::StreamK
                    ? TileSchedulerKind::stream_k
                    : TileSchedulerKind::data_parallel;
  std::optional<OutputStore> store;
  if (c.store)
    store = *c.store == pl::OutputStore::Direct ? OutputStore::direct
                                                : OutputStore::tma;
  std::optional<CopyOut> copyOut;
  if (c.copyOut)
    copyOut = *c.copyOut == pl::CopyOut::Load ? CopyOut::load : CopyOut::mma;
  return ConfigAttr::get(
      ctx, toList(c.tile), toList(c.cluster), c.stages, schedule, c.persistent,
      raster, c.swizzle, toList(c.epiTile), c.stagesC, c.stagesD,
      c.fragmentSize, c.reuseSmemC, c.delayTmaStore, c.producerRegs,
      c.consumerRegs, c.promotionInterval, c.splitK, scheduler, c.blockScaling,
      store, c.warpStores, fromPlanning(c.loadA), fromPlanning(c.loadB),
      c.alignA, c.alignB, fromPlanning(c.loadC), c.alignC, c.ctasPerSm,
      c.warpColumns, copyOut);
}

//===----------------------------------------------------------------------===//
// The epilogue's needs
//===----------------------------------------------------------------------===//

/// PTX converts f32 to f16/bf16 (packed) with rn or rz only; nothing else
/// narrows yet.
static LogicalResult checkNarrowing(Operation *op, Type from, Type to,
                                    epi::RoundingMode rounding) {
  if (to.isF32() || to == from)
    return success();
  if (!(to.isF16() || to.isBF16()))
    return op->emitOpError() << "conversion to " << to << " is not lowered yet";
  if (rounding != epi::RoundingMode::rn && rounding != epi::RoundingMode::rz)
    return op->emitOpError()
           << "rounding '" << epi::stringifyRoundingMode(rounding) << "' to "
           << to << " is not lowered (PTX packs f16/bf16 with rn or rz only)";
  return success();
}

FailureOr<pl::GemmDesc> mlir::wsgemm::describeGemm(GemmOp op) {
  using Kind = pl::EpilogueOperand::Kind;
  pl::GemmDesc desc;
  desc.a = toDType(op.getAType());
  desc.b = toDType(op.getBType());
  desc.c = toDType(op.getCType() ? *op.getCType() : Type());
  desc.d = toDType(op.getDType());
  desc.aMajor = toPlanning(op.getALayout());
  desc.bMajor = toPlanning(op.getBLayout());
  desc.dMajor = toPlanning(op.getDLayout());
  desc.batched = op.isBatched();
  if (op.hasStaticShape())
    desc.shape = {*op.getStaticM(), *op.getStaticN(), *op.getStaticK(),
                  *op.getStaticL()};
  desc.config = toPlanningConfig(op.getConfigOrEmpty());
  if (auto chip = op->getAttrOfType<StringAttr>(kGemmChipAttrName)) {
    std::optional<pl::Chip> parsed = pl::parseChip(chip.getValue().str());
    if (!parsed)
      return op.emitOpError() << kGemmChipAttrName << " must be sm_80, sm_86, "
                              << "sm_89 or sm_90a, got " << chip;
    desc.chip = *parsed;
  }
  if (DequantAttr dq = op.getDequantAAttr()) {
    pl::Dequant d;
    d.scale = toDType(dq.getScale());
    d.group = dq.getGroup();
    d.zero = dq.getZero() == ZeroPoint::ui4     ? pl::ZeroPoint::Group
             : dq.getZero() == ZeroPoint::bias8 ? pl::ZeroPoint::Bias8
                                                : pl::ZeroPoint::None;
    desc.dequantA = d;
  }

  // One walk of the EVT. Names are deduplicated: two reads of one aux
  // matrix share its buffers, two uses of one scalar one parameter.
  desc.storesD = false;
  llvm::StringSet<> seen;
  auto add = [&](Kind kind, StringRef name, Type type, StringRef reduce = "") {
    if (seen.insert(name).second)
      desc.operands.push_back({kind, name.str(), toDType(type), reduce.str()});
  };
  Type f32 = Float32Type::get(op.getContext());
  // Ops whose expansion needs scratch registers (the register estimate).
  static const llvm::StringSet<> longLatency = {
      "math.exp",  "math.exp2",  "math.expm1",  "math.log",   "math.log2",
      "math.log1p", "math.erf",  "math.tanh",   "math.sqrt",  "math.rsqrt",
      "math.powf", "arith.divf", "epi.gelu",    "epi.gelu_taylor",
      "epi.silu",  "epi.sigmoid", "epi.tanh"};
  for (Operation &nested : op.getEpilogue().front()) {
    if (longLatency.contains(nested.getName().getStringRef()))
      ++desc.longLatencyOps;
    if (auto preset = dyn_cast<epi::FusionOp>(nested))
      return preset.emitError()
             << "preset '" << epi::stringifyFusionKind(preset.getKind())
             << "' must be expanded before planning: run "
                "--epi-expand-presets before --wsgemm-plan";
    LogicalResult ok =
        llvm::TypeSwitch<Operation *, LogicalResult>(&nested)
            .Case([&](epi::LoadSrcOp src) {
              desc.loadsC = true;
              // The gate is a by-value scalar parameter, read by an
              // epi.scalar param or on its own.
              if (std::optional<StringRef> gate = src.getSkipIfZero()) {
                desc.gatedC = true;
                add(Kind::Scalar, *gate, f32);
              }
              return success();
            })
            .Case([&](epi::StoreOp store) {
              desc.storesD = true;
              switch (store.getReduce()) {
              case epi::StoreReduceKind::none:
                break;
              case epi::StoreReduceKind::add:
                desc.dReduce = pl::StoreReduce::Add;
                break;
              case epi::StoreReduceKind::min:
                desc.dReduce = pl::StoreReduce::Min;
                break;
              case epi::StoreReduceKind::max:
                desc.dReduce = pl::StoreReduce::Max;
                break;
              }
              // D's own type rules are the planner's (Legality.cpp).
              Type d = op.getDType();
              if (!d.isF16() && !d.isBF16())
                return success();
              return checkNarrowing(store, store.getValue().getType(), d,
                                    store.getRounding());
            })
            .Case([&](epi::ConvertOp convert) {
              return checkNarrowing(convert, convert.getInput().getType(),
                                    convert.getType(), convert.getRounding());
            })
            .Case([&](epi::AuxLoadOp aux) {
              add(Kind::AuxLoad, aux.getName(), aux.getElemType());
              return success();
            })
            .Case([&](epi::AuxStoreOp aux) {
              add(Kind::AuxStore, aux.getName(), aux.getElemType());
              return success();
            })
            .Case([&](epi::LoadVecMOp vec) {
              add(Kind::VecM, vec.getName(), vec.getElemType());
              return success();
            })
            .Case([&](epi::LoadVecNOp vec) {
              add(Kind::VecN, vec.getName(), vec.getElemType());
              return success();
            })
            .Case([&](epi::ScalarOp scalar) {
              if (scalar.getSource() == epi::ScalarSource::attr)
                return success();
              Kind kind = scalar.getSource() == epi::ScalarSource::param
                              ? Kind::Scalar
                              : Kind::ScalarPointer;
              for (Attribute name : scalar.getNamesAttr())
                add(kind, cast<StringAttr>(name).getValue(), f32);
              return success();
            })
            .Case([&](epi::ReduceToVecMOp red) {
              add(Kind::ReduceVecM, red.getName(), f32,
                  epi::stringifyReduceKind(red.getKind()));
              return success();
            })
            .Case([&](epi::ReduceToVecNOp red) {
              add(Kind::ReduceVecN, red.getName(), f32,
                  epi::stringifyReduceKind(red.getKind()));
              return success();
            })
            .Case([&](epi::ReduceToScalarOp red) {
              add(Kind::ReduceScalar, red.getName(), f32,
                  epi::stringifyReduceKind(red.getKind()));
              return success();
            })
            .Default([](Operation *) { return success(); });
    if (failed(ok))
      return failure();
  }
  return desc;
}

//===----------------------------------------------------------------------===//
// Reading the plan back
//===----------------------------------------------------------------------===//

void mlir::wsgemm::setGemmChip(GemmOp op, pl::Chip chip) {
  if (pl::isSm8x(chip))
    op->setAttr(kGemmChipAttrName,
                StringAttr::get(op.getContext(), pl::toString(chip)));
  else
    op->removeAttr(kGemmChipAttrName);
}

FailureOr<PlannedGemm> mlir::wsgemm::getPlannedGemm(GemmOp op) {
  std::optional<int64_t> planned = op.getPlannedSmemBytes();
  if (!planned || !op.getConfigOrEmpty().isComplete())
    return op.emitOpError() << "is not planned; run --wsgemm-plan before "
                               "lowering";
  FailureOr<pl::GemmDesc> desc = describeGemm(op);
  if (failed(desc))
    return failure();
  // A planned op was legal when planned; one edited since is re-checked
  // rather than miscompiled.
  std::vector<pl::PlanError> errors = pl::checkChipLegality(*desc);
  if (errors.empty())
    errors = pl::checkLegality(*desc);
  if (!errors.empty())
    return op.emitOpError()
           << "has a config the planner refuses: " << errors.front().message;
  PlannedGemm plan{std::move(*desc), {}};
  plan.layout = pl::computeKernelLayout(plan.desc);
  if (plan.layout.smemBytes != *planned)
    return op.emitOpError()
           << "was planned for " << *planned
           << " bytes of shared memory but its config lays out "
           << plan.layout.smemBytes << "; re-run --wsgemm-plan";
  return plan;
}
