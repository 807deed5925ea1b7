//===- EmitManifest.cpp - The runtime's contract of each kernel -----------===//
//
// --wsgemm-emit-manifest: writes the manifest of each planned wsgemm.gemm
// (docs/manifest.md) as its `wsgemm.manifest` attribute, from the plan's
// KernelLayout (the parameter list and shared memory the kernel is built
// with) and the EVT as an expression graph the runtime's CPU reference
// evaluates. Runs before --wsgemm-specialize, which moves the attribute to
// the kernel function, while the EVT still names its activations.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/Passes.h"
#include "ws-gemm/Dialect/Epi/EpiOps.h"
#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace mlir {
#define GEN_PASS_DEF_WSGEMMEMITMANIFEST
#include "ws-gemm/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::wsgemm;
namespace pl = mlir::wsgemm::planning;

//===----------------------------------------------------------------------===//
// The EVT graph
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

/// The number of arguments the runtime expects of manifest op `name`, from
/// the one list of EVT ops the runtime's parser and reference read too; none
/// when the runtime does not know the op.
static std::optional<unsigned> getEvtArity(StringRef name) {
  return llvm::StringSwitch<std::optional<unsigned>>(name)
#define WSGEMM_EVT_OP(Enum, Name, Arity) .Case(Name, Arity)
#include "ws-gemm-runtime/EvtOps.def"
      .Default(std::nullopt);
}

/// An activation parameter's field: the constant, or `{"arg": i}` when the
/// parameter is the op's operand i (ODS operand group `group`), a value
/// the reference reads from the node's i-th argument; absent when neither.
template <typename OpTy>
static void setParam(llvm::json::Object &node, StringRef key, OpTy op,
                     unsigned group, std::optional<APFloat> constant) {
  auto [index, length] = op.getODSOperandIndexAndLength(group);
  if (length == 1)
    node[key] = llvm::json::Object{{"arg", index}};
  else if (constant)
    node[key] = constant->convertToDouble();
}

static FailureOr<llvm::json::Array> buildEvt(GemmOp op) {
  llvm::json::Array nodes;
  DenseMap<Value, int64_t> ids;
  Block &body = op.getEpilogue().front();
  ids[body.getArgument(0)] = 0;
  nodes.push_back(llvm::json::Object{{"id", 0}, {"op", "acc"}});
  for (Operation &inner : body.without_terminator()) {
    StringRef name = evtOpName(&inner);
    std::optional<unsigned> arity = getEvtArity(name);
    if (name.empty() || !arity)
      return inner.emitOpError()
             << "has no manifest encoding ('" << name
             << "' is not in runtime/include/ws-gemm-runtime/EvtOps.def); "
                "the runtime's reference could not evaluate it";
    // An activation's launch-time parameters follow its operand in args.
    unsigned expected = *arity;
    if (isa<epi::ClampOp, epi::LeakyReluOp, epi::ThresholdReluOp>(inner))
      expected += inner.getNumOperands() - 1;
    if (expected != inner.getNumOperands())
      return inner.emitOpError()
             << "has " << inner.getNumOperands() << " operands but the "
             << "manifest op '" << name << "' takes " << *arity
             << " (runtime/include/ws-gemm-runtime/EvtOps.def)";
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
          node["dtype"] = pl::toString(toDType(leaf.getElemType()));
        })
        .Case<epi::ReduceToVecMOp, epi::ReduceToVecNOp, epi::ReduceToScalarOp>(
            [&](auto red) {
              node["name"] = red.getName();
              node["reduce"] = epi::stringifyReduceKind(red.getKind());
            })
        .Case([&](epi::StoreOp store) {
          node["dtype"] = pl::toString(toDType(op.getDType()));
          node["rounding"] = epi::stringifyRoundingMode(store.getRounding());
        })
        .Case([&](epi::ConvertOp convert) {
          node["dtype"] = pl::toString(toDType(convert.getType()));
          node["rounding"] = epi::stringifyRoundingMode(convert.getRounding());
        })
        .Case([&](epi::ClampOp clamp) {
          setParam(node, "lower", clamp, 1, clamp.getLower());
          setParam(node, "upper", clamp, 2, clamp.getUpper());
        })
        .Case([&](epi::LeakyReluOp leaky) {
          setParam(node, "alpha", leaky, 1, leaky.getLeakyAlpha());
        })
        .Case([&](epi::ThresholdReluOp relu) {
          setParam(node, "threshold", relu, 1, relu.getThreshold());
          setParam(node, "upper_bound", relu, 2, relu.getUpperBound());
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
          node["dtype"] = pl::toString(toDType(cast->getResult(0).getType()));
          node["rounding"] = "rn";
        });
    // fastmath<afn> (activations, math, divides): approximate instructions
    // on the GPU, so the reference check allows their error.
    if (auto fm = dyn_cast<arith::ArithFastMathInterface>(&inner))
      if (arith::FastMathFlagsAttr flags = fm.getFastMathFlagsAttr();
          flags && arith::bitEnumContainsAny(flags.getValue(),
                                             arith::FastMathFlags::afn))
        node["approx"] = true;
    if (unencodable)
      return unencodable->emitOpError()
             << "has no manifest encoding (only float constants do)";
    if (inner.getNumResults() == 1)
      ids[inner.getResult(0)] = id;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

//===----------------------------------------------------------------------===//
// The manifest
//===----------------------------------------------------------------------===//

/// The tile scheduler: data_parallel, split_k with its split count (and,
/// clustered, the tiles of a cluster group along M and N, which size the
/// workspace), or stream_k, whose count of stream-K tiles the runtime
/// chooses per launch.
static llvm::json::Object buildTileScheduler(const pl::GemmConfig &config) {
  if (config.isStreamK())
    return llvm::json::Object{{"kind", "stream_k"},
                              {"stream_k_tiles", "runtime"}};
  if (config.getSplitK() > 1) {
    llvm::json::Object o{{"kind", "split_k"}, {"split_k", config.getSplitK()}};
    auto cluster = config.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
    if (cluster[0] * cluster[1] > 1)
      o["cluster_tiles"] = llvm::json::Array{cluster[0], cluster[1]};
    return o;
  }
  return llvm::json::Object{{"kind", "data_parallel"}};
}

/// The grid rule: its kind, raster order and swizzle. A "tiles" grid's
/// raster is along_m or along_n (its shape depends on it; the kernel reads
/// a heuristic raster as along_n there); a persistent kernel's is one of
/// those, "heuristic" (CUTLASS's rule, decided in the kernel) or "runtime"
/// with swizzle "runtime" (both in the tile_order parameter).
/// A persistent kernel built for two CTAs per SM says so (`ctas_per_sm`):
/// the runtime sizes its grid by it.
static llvm::json::Object buildGrid(const pl::GemmConfig &config) {
  bool persistent = config.persistent.value_or(true);
  llvm::json::Object grid;
  if (config.hasRuntimeTileOrder()) {
    grid = llvm::json::Object{
        {"kind", "persistent"}, {"raster", "runtime"}, {"swizzle", "runtime"}};
  } else {
    pl::Raster raster = config.raster.value_or(pl::Raster::Heuristic);
    if (!persistent && raster == pl::Raster::Heuristic)
      raster = pl::Raster::AlongN;
    grid = llvm::json::Object{{"kind", persistent ? "persistent" : "tiles"},
                              {"raster", pl::toString(raster)},
                              {"swizzle", config.swizzle.value_or(1)}};
  }
  if (persistent && config.getCtasPerSm() > 1)
    grid["ctas_per_sm"] = config.getCtasPerSm();
  return grid;
}

/// The manifest of `op` (docs/manifest.md): everything the runtime needs
/// and nothing it must guess, from the plan the kernel is built from.
static std::string buildManifest(GemmOp op, const PlannedGemm &plan,
                                 llvm::json::Array evt, StringRef chip) {
  const pl::GemmDesc &desc = plan.desc;
  const pl::KernelLayout &layout = plan.layout;
  llvm::json::Array plist;
  for (const pl::KernelParam &p : layout.params) {
    llvm::json::Object o{{"name", p.name}};
    switch (p.kind) {
    case pl::KernelParam::Kind::TensorMap:
      o["kind"] = "tensor_map";
      o["operand"] = p.operand;
      o["dtype"] = pl::toString(p.type);
      o["dims"] = llvm::json::Array(p.dims);
      o["box"] = llvm::json::Array(p.box);
      // A packed operand's box in its logical elements (K, M(, L)); the
      // runtime derives the packed one (runtime/lib/TensorMap.cpp).
      if (!p.packing.empty()) {
        std::vector<int64_t> logical{
            p.box[1] / pl::packedHalvesPerUnit(desc.a) * 64, p.box[2] * 64};
        if (p.box.size() > 3)
          logical.push_back(1);
        o["box"] = llvm::json::Array(logical);
      }
      o["swizzle"] =
          p.swizzleBytes ? std::to_string(p.swizzleBytes) + "B" : "none";
      o["oob_fill"] = "zero";
      if (!p.packing.empty())
        o["packing"] = p.packing;
      if (p.kChunks > 0)
        o["k_chunks"] = p.kChunks;
      break;
    case pl::KernelParam::Kind::Matrix:
      o["kind"] = "matrix";
      o["operand"] = p.operand;
      o["dtype"] = pl::toString(p.type);
      o["dims"] = llvm::json::Array(p.dims);
      // A or B read with cp.async: the alignment of base, ld, batch stride.
      if (p.alignBytes > 0)
        o["align_bytes"] = p.alignBytes;
      break;
    case pl::KernelParam::Kind::Pointer:
      o["kind"] = "pointer";
      o["dtype"] = pl::toString(p.type);
      o["extent"] = llvm::json::Array(p.extent);
      // The mainloop's block scales of A or B (docs/manifest.md).
      if (!p.operand.empty())
        o[p.dequant ? "dequant" : "block_scale"] = p.operand;
      // A mixed-input A's scales and zero points: copied 16 bytes at a time.
      if (p.alignBytes > 0)
        o["align_bytes"] = p.alignBytes;
      break;
    case pl::KernelParam::Kind::Scalar:
      o["kind"] = "scalar";
      o["dtype"] = "f32";
      break;
    case pl::KernelParam::Kind::ScalarPointer:
      o["kind"] = "scalar_pointer";
      o["dtype"] = "f32";
      break;
    case pl::KernelParam::Kind::Reduction:
      o["kind"] = "reduction";
      o["reduce"] = p.reduce;
      o["extent"] = llvm::json::Array(p.extent);
      break;
    case pl::KernelParam::Kind::Size:
      o["kind"] = "size";
      o["dim"] = p.operand;
      break;
    case pl::KernelParam::Kind::Workspace:
      o["kind"] = "workspace";
      break;
    case pl::KernelParam::Kind::StreamKTiles:
      o["kind"] = "stream_k_tiles";
      break;
    case pl::KernelParam::Kind::TileOrder:
      o["kind"] = "tile_order";
      break;
    }
    plist.push_back(std::move(o));
  }
  llvm::json::Object operands{
      {"A", llvm::json::Object{{"dtype", pl::toString(desc.a)},
                               {"layout", pl::toString(desc.aMajor)}}},
      {"B", llvm::json::Object{{"dtype", pl::toString(desc.b)},
                               {"layout", pl::toString(desc.bMajor)}}},
      {"D", llvm::json::Object{{"dtype", pl::toString(desc.d)},
                               {"layout", pl::toString(desc.dMajor)}}}};
  // D reduced into (epi.store ... reduce): the runtime treats it as an
  // input and an output.
  if (desc.dReduce != pl::StoreReduce::None)
    (*operands.getObject("D"))["reduce"] = pl::toString(desc.dReduce);
  // A quantized A: how it is dequantized (docs/mixed-input.md).
  if (const std::optional<pl::Dequant> &dq = desc.dequantA)
    (*operands.getObject("A"))["dequant"] = llvm::json::Object{
        {"scale", pl::toString(dq->scale)},
        {"group", dq->group},
        {"zero", pl::toString(dq->zero)},
        {"packing", pl::packingOf(desc.a)},
        {"scale_applied", pl::scalesDequantAccumulator(desc) ? "accumulator"
                                                             : "weight"}};
  if (desc.loadsC)
    operands["C"] = llvm::json::Object{{"dtype", pl::toString(desc.c)},
                                       {"layout", "n_major"}};
  // How A and B are loaded, and the alignment (bytes of base, ld and batch
  // stride) each needs: TMA's 16, or a cp.async operand's copy width.
  {
    const pl::GemmConfig &c = desc.config;
    auto loadOf = [&](const char *name, bool cpAsync, std::optional<int64_t> a,
                      pl::DType type) {
      llvm::json::Object &o = *operands.getObject(name);
      o["load"] = pl::toString(cpAsync ? pl::OperandLoad::CpAsync
                                       : pl::OperandLoad::Tma);
      o["align_bytes"] = cpAsync ? a.value_or(pl::getBits(type) / 8) : 16;
    };
    loadOf("A", c.isCpAsyncA(), c.alignA, desc.a);
    loadOf("B", c.isCpAsyncB(), c.alignB, desc.b);
  }
  const pl::GemmConfig &config = desc.config;
  int64_t threads = pl::getBlockThreads(
      config.schedule.value_or(pl::KernelSchedule::Cooperative));
  // A cluster's CTAs are launched consecutively along grid x.
  auto cluster = config.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  int64_t clusterCtas = cluster[0] * cluster[1] * cluster[2];
  llvm::json::Object manifest{
      {"format", "ws-gemm-manifest"},
      {"version", 1},
      {"kernel", op.getSymName()},
      {"cubin", (op.getSymName() + ".cubin").str()},
      {"arch", chip},
      {"block", llvm::json::Array{threads, 1, 1}},
      {"cluster", llvm::json::Array{clusterCtas, 1, 1}},
      {"smem_bytes", layout.smemBytes},
      // Every sm_90 role waits on griddepcontrol before touching global
      // memory (KernelSchedule.cpp): the kernel may be launched early.
      {"pdl", !pl::isSm8x(desc.chip)},
      {"tile", llvm::json::Array{layout.tileM, layout.tileN, layout.tileK}},
      {"schedule",
       pl::toString(config.schedule.value_or(pl::KernelSchedule::Cooperative))},
      {"grid", buildGrid(config)},
      {"tile_scheduler", buildTileScheduler(config)},
      {"batched", desc.batched},
      {"static_shape", nullptr},
      {"operands", std::move(operands)},
      {"params", std::move(plist)},
      {"evt", llvm::json::Object{{"nodes", std::move(evt)}}}};
  // Split tiles' partials, then their flags: the runtime sizes and zeroes
  // the workspace from these (docs/stream-k.md).
  if (config.hasWorkspace())
    manifest["workspace"] = llvm::json::Object{
        {"tile_bytes", layout.workspaceTileBytes},
        {"flag_bytes", layout.workspaceFlagBytes},
        {"tiles", config.isStreamK() ? "stream_k" : "all"}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)));
  return text;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct WsGemmEmitManifestPass
    : public impl::WsGemmEmitManifestBase<WsGemmEmitManifestPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](GemmOp op) {
      FailureOr<PlannedGemm> plan = getPlannedGemm(op);
      FailureOr<llvm::json::Array> evt =
          failed(plan) ? FailureOr<llvm::json::Array>(failure()) : buildEvt(op);
      if (failed(evt)) {
        failedAny = true;
        return;
      }
      op->setAttr(
          GemmOp::getManifestAttrName(),
          StringAttr::get(op.getContext(),
                          buildManifest(op, *plan, std::move(*evt), chip)));
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
