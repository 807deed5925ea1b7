//===- Specialize.cpp - wsgemm.gemm to warp-specialized kernels -----------===//
//
// --wsgemm-specialize: resolves each planned wsgemm.gemm into a KernelSpec
// and its parameter list, records the manifest (docs/manifest.md) the
// runtime needs, and emits the kernel with the KernelBuilder into a
// gpu.module targeting sm_90a, at the explicit level (warp roles and
// pipelines), which --wsgemm-lower-pipelines lowers to NVVM.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "ws-gemm/Conversion/Passes.h"
#include "ws-gemm/Dialect/Epi/EpiOps.h"
#include "ws-gemm/Dialect/Epi/EpiPasses.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace mlir {
#define GEN_PASS_DEF_WSGEMMSPECIALIZE
#include "ws-gemm/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::detail;

/// The attribute on each kernel's llvm.func holding its manifest JSON.
static constexpr StringLiteral kManifestAttr = "wsgemm.manifest";

static int64_t byteWidth(Type t) { return t.getIntOrFloatBitWidth() / 8; }

static std::string typeName(Type t) {
  if (!t)
    return "";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isF32())
    return "f32";
  if (isa<Float8E4M3FNType>(t))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(t))
    return "f8e5m2";
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// Kernel spec and parameters
//===----------------------------------------------------------------------===//

FailureOr<KernelSpec>
mlir::wsgemm::detail::resolveKernelSpec(GemmOp op,
                                        std::vector<KernelParam> &params) {
  KernelSpec spec;
  spec.name = op.getSymName().str();
  spec.aType = op.getAType();
  spec.bType = op.getBType();
  spec.dType = op.getDType();
  spec.bKMajor = op.getBLayout() == Major::k_major;
  spec.batched = op.isBatched();

  // Every knob comes from the planned config; an unplanned op is an error
  // rather than a silent default.
  ConfigAttr config = op.getConfigOrEmpty();
  if (config.getTile().size() != 3 || !config.getStages() ||
      !config.getSchedule() || config.getEpiTile().size() != 2 ||
      !config.getStagesC() || !config.getStagesD() || !config.getPersistent())
    return op.emitOpError() << "has an incomplete config; run --wsgemm-plan "
                               "before lowering";
  spec.tileM = config.getTile()[0];
  spec.tileN = config.getTile()[1];
  spec.tileK = config.getTile()[2];
  spec.stages = *config.getStages();
  spec.persistent = *config.getPersistent();
  spec.stagesC = *config.getStagesC();
  spec.stagesD = *config.getStagesD();
  RasterOrder raster = config.getRaster().value_or(RasterOrder::heuristic);
  spec.rasterAlongM = raster == RasterOrder::along_m;
  spec.rasterHeuristic = raster == RasterOrder::heuristic && spec.persistent;
  spec.reuseSmemC = config.getReuseSmemC().value_or(false);
  spec.delayTmaStore = config.getDelayTmaStore().value_or(false);
  spec.producerRegs = config.getProducerRegs().value_or(0);
  spec.consumerRegs = config.getConsumerRegs().value_or(0);
  if ((spec.producerRegs == 0) != (spec.consumerRegs == 0))
    return op.emitOpError()
           << "producer_regs and consumer_regs must be set together: "
              "setmaxnreg moves registers from the producer warpgroup to the "
              "consumer warpgroups";
  switch (*config.getSchedule()) {
  case Schedule::warp_specialized:
    spec.consumerWarpgroups = 1;
    break;
  case Schedule::cooperative:
    spec.consumerWarpgroups = 2;
    break;
  case Schedule::pingpong:
    return op.emitOpError() << "schedule 'pingpong' is not lowered yet; use "
                               "'cooperative' or 'warp_specialized'";
  }
  // The epilogue works on 64-row subtiles per consumer warpgroup; the
  // config's epilogue tile gives the columns.
  spec.epiN = config.getEpiTile()[1];
  int64_t epiM = config.getEpiTile()[0];
  if (epiM != spec.wgRows() * spec.consumerWarpgroups &&
      epiM != 64 * spec.consumerWarpgroups && epiM != spec.tileM)
    return op.emitOpError() << "lowering needs the epilogue tile to span "
                               "whole 64-row blocks of every consumer "
                               "warpgroup, got epi_tile M = "
                            << epiM;
  if (spec.epiN % 16 != 0 || spec.tileN % spec.epiN != 0)
    return op.emitOpError() << "lowering needs epilogue tile N a multiple of "
                               "16 dividing tile N, got "
                            << spec.epiN;
  if (config.getCluster().size() == 3 &&
      (config.getCluster()[0] != 1 || config.getCluster()[1] != 1 ||
       config.getCluster()[2] != 1))
    return op.emitOpError() << "clusters other than 1x1x1 (TMA multicast) are "
                               "not lowered yet";
  spec.tileSwizzle = config.getSwizzle().value_or(1);
  if (spec.tileSwizzle != 1 && !spec.persistent)
    return op.emitOpError()
           << "tile-scheduler swizzle " << spec.tileSwizzle
           << " needs the persistent grid (a 'tiles' grid gives each CTA the "
              "tile at its position); use swizzle = 1 or persistent = true";
  if (op.getALayout() != Major::k_major)
    return op.emitOpError() << "lowering supports only a K-major A";

  if (spec.aType != spec.bType || !(spec.aType.isF16() || spec.aType.isBF16()))
    return op.emitOpError() << "lowering supports A and B both f16 or both "
                               "bf16, got "
                            << spec.aType << " and " << spec.bType;
  if (!(spec.dType.isF16() || spec.dType.isBF16() || spec.dType.isF32()))
    return op.emitOpError()
           << "lowering supports D in f16, bf16 or f32, got " << spec.dType;
  if (spec.tileK != 64)
    return op.emitOpError() << "lowering needs tile K = 64 (one 128-byte "
                               "swizzled row of 16-bit elements), got "
                            << spec.tileK;
  if (spec.tileN % 16 != 0 || spec.tileN < 16 || spec.tileN > 256)
    return op.emitOpError() << "lowering needs tile N in [16, 256] and a "
                               "multiple of 16, got "
                            << spec.tileN;
  if (!spec.bKMajor && spec.tileN % 64 != 0)
    return op.emitOpError()
           << "lowering of an N-major B needs tile N a "
              "multiple of 64 (128-byte swizzled TMA boxes), got "
           << spec.tileN;
  if (spec.wgRows() % 64 != 0 || spec.wgRows() > 128)
    return op.emitOpError() << "lowering needs 64 or 128 rows per consumer "
                               "warpgroup, got "
                            << spec.wgRows();

  // What the epilogue reads and writes decides the rest of the parameters.
  Block &body = op.getEpilogue().front();
  bool readsC = false;
  body.walk([&](epi::LoadSrcOp) { readsC = true; });
  if (readsC)
    spec.cType = op.getCType() ? *op.getCType() : Type();

  auto tmap = [&](StringRef operand, Type elem, SmallVector<std::string> dims,
                  SmallVector<int64_t> box, int64_t swizzle) {
    KernelParam p;
    p.kind = KernelParam::Kind::TensorMap;
    p.name = operand.str();
    p.operand = operand.str();
    p.elemType = elem;
    if (spec.batched)
      dims.push_back("L");
    if (spec.batched)
      box.push_back(1);
    p.dims = std::move(dims);
    p.box = std::move(box);
    p.swizzleBytes = swizzle;
    params.push_back(std::move(p));
  };
  tmap("A", spec.aType, {"K", "M"}, {spec.tileK, spec.tileM}, 128);
  if (spec.bKMajor)
    tmap("B", spec.bType, {"K", "N"}, {spec.tileK, spec.tileN}, 128);
  else
    tmap("B", spec.bType, {"N", "K"}, {64, spec.tileK}, 128);
  if (spec.cType)
    tmap("C", spec.cType, {"N", "M"}, {spec.epiN, 64},
         spec.subtileSwizzle(spec.cType));
  tmap("D", spec.dType, {"N", "M"}, {spec.epiN, 64},
       spec.subtileSwizzle(spec.dType));
  // Aux matrices move through TMA like C and D, in 64 x epiN subtiles.
  for (Operation &inner : body) {
    if (auto aux = dyn_cast<epi::AuxLoadOp>(inner)) {
      if (llvm::any_of(spec.auxLoads, [&](const AuxStream &s) {
            return s.name == aux.getName();
          }))
        continue;
      spec.auxLoads.push_back({aux.getName().str(), aux.getElemType()});
      tmap(aux.getName(), aux.getElemType(), {"N", "M"}, {spec.epiN, 64},
           spec.subtileSwizzle(aux.getElemType()));
    } else if (auto aux = dyn_cast<epi::AuxStoreOp>(inner)) {
      spec.auxStores.push_back({aux.getName().str(), aux.getElemType()});
      tmap(aux.getName(), aux.getElemType(), {"N", "M"}, {spec.epiN, 64},
           spec.subtileSwizzle(aux.getElemType()));
    }
  }
  for (const AuxStream &aux :
       llvm::concat<const AuxStream>(spec.auxLoads, spec.auxStores))
    if (!(aux.elemType.isF16() || aux.elemType.isBF16() ||
          aux.elemType.isF32()))
      return op.emitOpError()
             << "aux matrix '" << aux.name << "' of type " << aux.elemType
             << " is not lowered yet (f16, bf16, f32 are)";

  llvm::StringSet<> seen;
  Type f32 = Float32Type::get(op.getContext());
  auto addParam = [&](KernelParam::Kind kind, StringRef name, Type elem,
                      SmallVector<std::string> extent,
                      std::string reduce = "") {
    if (!seen.insert(name).second)
      return;
    KernelParam p;
    p.kind = kind;
    p.name = name.str();
    p.elemType = elem;
    p.extent = std::move(extent);
    p.reduce = std::move(reduce);
    params.push_back(std::move(p));
  };
  for (Operation &inner : body) {
    if (auto scalar = dyn_cast<epi::ScalarOp>(inner)) {
      if (scalar.getSource() == epi::ScalarSource::attr)
        continue;
      for (Attribute name : scalar.getNamesAttr())
        addParam(scalar.getSource() == epi::ScalarSource::param
                     ? KernelParam::Kind::Scalar
                     : KernelParam::Kind::ScalarPointer,
                 cast<StringAttr>(name).getValue(), f32, {});
    } else if (auto vec = dyn_cast<epi::LoadVecMOp>(inner)) {
      addParam(KernelParam::Kind::Pointer, vec.getName(), vec.getElemType(),
               {"M", "L"});
    } else if (auto vec = dyn_cast<epi::LoadVecNOp>(inner)) {
      addParam(KernelParam::Kind::Pointer, vec.getName(), vec.getElemType(),
               {"N", "L"});
    } else if (auto red = dyn_cast<epi::ReduceToVecMOp>(inner)) {
      addParam(KernelParam::Kind::Reduction, red.getName(), f32, {"M", "L"},
               epi::stringifyReduceKind(red.getKind()).str());
    } else if (auto red = dyn_cast<epi::ReduceToVecNOp>(inner)) {
      addParam(KernelParam::Kind::Reduction, red.getName(), f32, {"N", "L"},
               epi::stringifyReduceKind(red.getKind()).str());
    } else if (auto red = dyn_cast<epi::ReduceToScalarOp>(inner)) {
      addParam(KernelParam::Kind::Reduction, red.getName(), f32, {},
               epi::stringifyReduceKind(red.getKind()).str());
    } else if (isa<epi::ConvertOp, epi::StoreOp>(inner)) {
      // PTX converts f32 to f16/bf16 (packed) with rn or rz only.
      auto rounding = isa<epi::StoreOp>(inner)
                          ? cast<epi::StoreOp>(inner).getRounding()
                          : cast<epi::ConvertOp>(inner).getRounding();
      Type to =
          isa<epi::StoreOp>(inner) ? spec.dType : inner.getResult(0).getType();
      bool narrowing = !to.isF32() && to != inner.getOperand(0).getType();
      if (narrowing && rounding != epi::RoundingMode::rn &&
          rounding != epi::RoundingMode::rz)
        return inner.emitOpError()
               << "rounding '" << epi::stringifyRoundingMode(rounding)
               << "' to " << to
               << " is not lowered (PTX packs f16/bf16 with rn or rz only)";
      if (narrowing && !(to.isF16() || to.isBF16()))
        return inner.emitOpError()
               << "conversion to " << to << " is not lowered yet";
    } else if (isa<epi::FusionOp>(inner)) {
      return op.emitOpError() << "has an unexpanded epi.fusion preset; run "
                                 "--epi-expand-presets first";
    }
  }
  for (StringRef dim : {"M", "N", "K", "L"}) {
    KernelParam p;
    p.kind = KernelParam::Kind::Size;
    p.name = dim.str();
    p.operand = dim.str();
    p.elemType = IntegerType::get(op.getContext(), 32);
    params.push_back(std::move(p));
  }

  // Shared memory layout: A and B rings, then C and D subtile rings per
  // consumer warpgroup, then the mbarriers; plus 1024 bytes of slack for
  // aligning the base to the 128B-swizzle atom.
  int64_t wgs = spec.consumerWarpgroups;
  spec.offA = 0;
  spec.offB = spec.offA + spec.stages * spec.bytesA();
  spec.offC = spec.offB + spec.stages * spec.bytesB();
  int64_t cBytes =
      spec.cType ? wgs * spec.stagesC * spec.subtileBytes(spec.cType) : 0;
  spec.offD = spec.offC + cBytes;
  if (!spec.cType)
    spec.reuseSmemC = false;
  if (spec.reuseSmemC && spec.delayTmaStore)
    return op.emitOpError() << "reuse_smem_c and delay_tma_store together are "
                               "not lowered";
  if (spec.reuseSmemC && byteWidth(spec.cType) != byteWidth(spec.dType))
    return op.emitOpError() << "reuse_smem_c needs C and D of one width";
  if (spec.delayTmaStore && spec.stagesD < 2)
    return op.emitOpError() << "delay_tma_store needs stages_d >= 2";
  int64_t dBytes =
      spec.reuseSmemC ? 0 : wgs * spec.stagesD * spec.subtileBytes(spec.dType);
  int64_t next = spec.offD + dBytes;
  for (AuxStream &aux : spec.auxLoads) {
    aux.offset = next;
    next += wgs * spec.stagesC * spec.subtileBytes(aux.elemType);
  }
  for (AuxStream &aux : spec.auxStores) {
    aux.offset = next;
    next += wgs * spec.storeRing() * spec.subtileBytes(aux.elemType);
  }
  spec.offBars = llvm::alignTo(next, 8);
  // Full and empty barriers of the mainloop and epilogue-load pipelines.
  int64_t bars = 2 * spec.stages + (spec.hasEpiLoads() ? 2 * spec.stagesC : 0);
  spec.smemBytes = spec.offBars + 8 * bars + 1024;
  if (spec.smemBytes > 232448)
    return op.emitOpError() << "needs " << spec.smemBytes
                            << " bytes of shared memory, 232448 available";
  return spec;
}

//===----------------------------------------------------------------------===//
// Manifest
//===----------------------------------------------------------------------===//

/// The manifest name of an op of the epilogue, or empty if it has none.
static StringRef evtOpName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case<arith::AddFOp>([](auto) { return "add"; })
      .Case<arith::SubFOp>([](auto) { return "sub"; })
      .Case<arith::MulFOp>([](auto) { return "mul"; })
      .Case<arith::DivFOp>([](auto) { return "div"; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([](auto) { return "max"; })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([](auto) { return "min"; })
      .Case<arith::NegFOp>([](auto) { return "neg"; })
      .Case<arith::SelectOp>([](auto) { return "select"; })
      .Case<arith::CmpFOp>([](auto) { return "cmp"; })
      .Case<arith::ConstantOp>([](auto) { return "const"; })
      .Case<arith::TruncFOp, arith::ExtFOp>([](auto) { return "convert"; })
      .Case<math::AbsFOp>([](auto) { return "abs"; })
      .Case<math::ExpOp>([](auto) { return "exp"; })
      .Case<math::LogOp>([](auto) { return "log"; })
      .Case<math::SqrtOp>([](auto) { return "sqrt"; })
      .Case<math::RsqrtOp>([](auto) { return "rsqrt"; })
      .Case<math::TanhOp>([](auto) { return "tanh"; })
      .Case<math::ErfOp>([](auto) { return "erf"; })
      .Case<math::FmaOp>([](auto) { return "fma"; })
      .Default([](Operation *op) -> StringRef {
        if (op->getDialect() && op->getDialect()->getNamespace() == "epi")
          return op->getName().stripDialect();
        return "";
      });
}

static FailureOr<llvm::json::Array> buildEvt(GemmOp op) {
  llvm::json::Array nodes;
  DenseMap<Value, int64_t> ids;
  Block &body = op.getEpilogue().front();
  ids[body.getArgument(0)] = 0;
  nodes.push_back(llvm::json::Object{{"id", 0}, {"op", "acc"}});
  for (Operation &inner : body.without_terminator()) {
    StringRef name = evtOpName(&inner);
    if (name.empty())
      return inner.emitOpError()
             << "has no manifest encoding; the runtime's reference could not "
                "evaluate it";
    llvm::json::Object node;
    int64_t id = nodes.size();
    node["id"] = id;
    node["op"] = name;
    llvm::json::Array args;
    for (Value v : inner.getOperands())
      args.push_back(ids.lookup(v));
    if (!args.empty())
      node["args"] = std::move(args);
    // The fields each node kind carries (docs/manifest.md, "The EVT graph").
    Operation *unencodable = nullptr;
    llvm::TypeSwitch<Operation *>(&inner)
        .Case([&](epi::ScalarOp scalar) {
          node["source"] = epi::stringifyScalarSource(scalar.getSource());
          if (ArrayAttr names = scalar.getNamesAttr()) {
            llvm::json::Array list;
            for (Attribute name : names)
              list.push_back(cast<StringAttr>(name).getValue());
            node["names"] = std::move(list);
          }
          if (std::optional<APFloat> value = scalar.getValue())
            node["value"] = value->convertToDouble();
        })
        .Case([&](epi::LoadSrcOp src) {
          if (std::optional<StringRef> gate = src.getSkipIfZero())
            node["skip_if_zero"] = *gate;
        })
        .Case<epi::LoadVecMOp, epi::LoadVecNOp, epi::AuxLoadOp,
              epi::AuxStoreOp>([&](auto leaf) {
          node["name"] = leaf.getName();
          node["dtype"] = typeName(leaf.getElemType());
        })
        .Case<epi::ReduceToVecMOp, epi::ReduceToVecNOp, epi::ReduceToScalarOp>(
            [&](auto red) {
              node["name"] = red.getName();
              node["reduce"] = epi::stringifyReduceKind(red.getKind());
            })
        .Case([&](epi::StoreOp store) {
          node["dtype"] = typeName(op.getDType());
          node["rounding"] = epi::stringifyRoundingMode(store.getRounding());
        })
        .Case([&](epi::ConvertOp convert) {
          node["dtype"] = typeName(convert.getType());
          node["rounding"] = epi::stringifyRoundingMode(convert.getRounding());
        })
        .Case([&](epi::ClampOp clamp) {
          node["lower"] = clamp.getLower().convertToDouble();
          node["upper"] = clamp.getUpper().convertToDouble();
        })
        .Case([&](epi::LeakyReluOp leaky) {
          node["alpha"] = leaky.getLeakyAlpha().convertToDouble();
        })
        .Case([&](epi::ThresholdReluOp relu) {
          node["threshold"] = relu.getThreshold().convertToDouble();
          if (std::optional<APFloat> upper = relu.getUpperBound())
            node["upper_bound"] = upper->convertToDouble();
        })
        .Case([&](arith::ConstantOp constant) {
          if (auto value = dyn_cast<FloatAttr>(constant.getValue()))
            node["value"] = value.getValueAsDouble();
          else
            unencodable = constant;
        })
        .Case([&](arith::CmpFOp cmp) {
          node["predicate"] = arith::stringifyCmpFPredicate(cmp.getPredicate());
        })
        .Case<arith::TruncFOp, arith::ExtFOp>([&](Operation *cast) {
          node["dtype"] = typeName(cast->getResult(0).getType());
          node["rounding"] = "rn";
        });
    if (unencodable)
      return unencodable->emitOpError()
             << "has no manifest encoding (only float constants do)";
    if (inner.getNumResults() == 1)
      ids[inner.getResult(0)] = id;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

static std::string buildManifest(GemmOp op, const KernelSpec &spec,
                                 ArrayRef<KernelParam> params,
                                 llvm::json::Array evt, StringRef chip) {
  llvm::json::Array plist;
  for (const KernelParam &p : params) {
    llvm::json::Object o{{"name", p.name}};
    switch (p.kind) {
    case KernelParam::Kind::TensorMap: {
      o["kind"] = "tensor_map";
      o["operand"] = p.operand;
      o["dtype"] = typeName(p.elemType);
      o["dims"] = llvm::json::Array(p.dims);
      o["box"] = llvm::json::Array(p.box);
      o["swizzle"] =
          p.swizzleBytes ? std::to_string(p.swizzleBytes) + "B" : "none";
      o["oob_fill"] = "zero";
      break;
    }
    case KernelParam::Kind::Pointer:
      o["kind"] = "pointer";
      o["dtype"] = typeName(p.elemType);
      o["extent"] = llvm::json::Array(p.extent);
      break;
    case KernelParam::Kind::Scalar:
      o["kind"] = "scalar";
      o["dtype"] = "f32";
      break;
    case KernelParam::Kind::ScalarPointer:
      o["kind"] = "scalar_pointer";
      o["dtype"] = "f32";
      break;
    case KernelParam::Kind::Reduction:
      o["kind"] = "reduction";
      o["reduce"] = p.reduce;
      o["extent"] = llvm::json::Array(p.extent);
      break;
    case KernelParam::Kind::Size:
      o["kind"] = "size";
      o["dim"] = p.operand;
      break;
    }
    plist.push_back(std::move(o));
  }
  llvm::json::Object operands{
      {"A", llvm::json::Object{{"dtype", typeName(spec.aType)},
                               {"layout", "k_major"}}},
      {"B",
       llvm::json::Object{{"dtype", typeName(spec.bType)},
                          {"layout", spec.bKMajor ? "k_major" : "n_major"}}},
      {"D", llvm::json::Object{{"dtype", typeName(spec.dType)},
                               {"layout", "n_major"}}}};
  if (spec.cType)
    operands["C"] = llvm::json::Object{{"dtype", typeName(spec.cType)},
                                       {"layout", "n_major"}};
  llvm::json::Object manifest{
      {"format", "ws-gemm-manifest"},
      {"version", 1},
      {"kernel", spec.name},
      {"cubin", spec.name + ".cubin"},
      {"arch", chip},
      {"block", llvm::json::Array{spec.threads(), 1, 1}},
      {"cluster", llvm::json::Array{1, 1, 1}},
      {"smem_bytes", spec.smemBytes},
      {"tile", llvm::json::Array{spec.tileM, spec.tileN, spec.tileK}},
      {"grid",
       llvm::json::Object{{"kind", spec.persistent ? "persistent" : "tiles"},
                          {"raster", spec.rasterAlongM ? "along_m" : "along_n"},
                          {"swizzle", spec.tileSwizzle}}},
      {"batched", spec.batched},
      {"static_shape", nullptr},
      {"operands", std::move(operands)},
      {"params", std::move(plist)},
      {"evt", llvm::json::Object{{"nodes", std::move(evt)}}}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)));
  return text;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct WsGemmSpecializePass
    : public impl::WsGemmSpecializeBase<WsGemmSpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<GemmOp> gemms(module.getOps<GemmOp>());
    if (gemms.empty())
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder builder(ctx);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    auto target = NVVM::NVVMTargetAttr::get(
        ctx, optLevel, "nvptx64-nvidia-cuda", chip, features);
    SmallVector<gpu::GPUModuleOp> kernels;
    for (GemmOp gemm : gemms) {
      std::vector<KernelParam> params;
      FailureOr<KernelSpec> spec = resolveKernelSpec(gemm, params);
      if (failed(spec))
        return signalPassFailure();
      FailureOr<llvm::json::Array> evt = buildEvt(gemm);
      if (failed(evt))
        return signalPassFailure();
      // One gpu.module (one cubin) per kernel, named after it.
      builder.setInsertionPoint(gemm);
      auto gpuModule = gpu::GPUModuleOp::create(builder, gemm.getLoc(),
                                                spec->name + "_module",
                                                builder.getArrayAttr({target}));
      builder.setInsertionPointToStart(gpuModule.getBody());
      LLVM::GlobalOp::create(builder, gemm.getLoc(),
                             LLVM::LLVMArrayType::get(builder.getI8Type(), 0),
                             /*isConstant=*/false, LLVM::Linkage::External,
                             "wsgemm_smem", Attribute(), /*alignment=*/1024,
                             /*addrSpace=*/3);
      if (failed(buildKernel(builder, gemm, *spec, params)))
        return signalPassFailure();
      auto func = gpuModule.lookupSymbol<LLVM::LLVMFuncOp>(spec->name);
      func->setAttr(kManifestAttr,
                    builder.getStringAttr(buildManifest(
                        gemm, *spec, params, std::move(*evt), chip)));
      gemm.erase();
      kernels.push_back(gpuModule);
    }

    // The cloned EVT may still hold named activations: lower them now that
    // the manifest recorded them by name.
    for (gpu::GPUModuleOp gpuModule : kernels)
      if (failed(epi::lowerActivations(gpuModule)))
        return signalPassFailure();
  }
};
} // namespace
