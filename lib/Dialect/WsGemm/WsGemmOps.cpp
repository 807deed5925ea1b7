//===- WsGemmOps.cpp - Declarative GEMM ops -------------------------------===//
//
// The `#wsgemm.config` attribute (parameter syntax and structural checks) and
// the `wsgemm.gemm` op: custom syntax, builder, verifier and helpers. The
// hardware rules on a config (wgmma shapes, SMEM, TMA alignment) belong to
// --wsgemm-plan (Planning.h), which needs the whole kernel to check them.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"
#include "ws-gemm/Dialect/WsGemm/KernelName.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::wsgemm;

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>> ConfigAttr::parseIntList(AsmParser &parser) {
  SmallVector<int64_t> values;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  if (values.empty())
    return parser.emitError(loc, "expected a non-empty list of integers");
  return values;
}

void ConfigAttr::printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

FailureOr<std::optional<int64_t>> ConfigAttr::parseInt(AsmParser &parser) {
  int64_t value;
  if (parser.parseInteger(value))
    return failure();
  return std::optional<int64_t>(value);
}

FailureOr<std::optional<bool>> ConfigAttr::parseBool(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (keyword == "true" || keyword == "false")
    return std::optional<bool>(keyword == "true");
  return parser.emitError(loc)
         << "expected true or false, got '" << keyword << "'";
}

bool ConfigAttr::isComplete() const {
  // A persistent kernel may leave raster and swizzle to the launch (both
  // unset: the tile_order parameter).
  bool tileOrder =
      (getRaster() && getSwizzle()) ||
      (!getRaster() && !getSwizzle() && getPersistent() && *getPersistent());
  return !getTile().empty() && !getCluster().empty() && getStages() &&
         getSchedule() && getPersistent() && tileOrder &&
         !getEpiTile().empty() && getStagesC() && getStagesD() &&
         getFragmentSize() && getReuseSmemC() && getDelayTmaStore() &&
         getWarpStores();
}

/// Bound on every integer knob, so that the planner's byte counts cannot
/// overflow (no knob is anywhere near it on real hardware).
static constexpr int64_t kMaxKnob = 1 << 16;
/// Bound on split_k: each split is a CTA of the persistent grid (at most one
/// per SM) that waits for the one before it.
static constexpr int64_t kMaxSplitK = 64;

/// Checks that an integer-list knob has `arity` entries in [1, kMaxKnob].
static LogicalResult verifyIntList(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef name, ArrayRef<int64_t> values,
                                   size_t arity, StringRef dims) {
  if (values.empty())
    return success();
  if (values.size() != arity)
    return emitError() << "config " << name << " must have " << arity
                       << " entries (" << dims << "), got " << values.size();
  if (llvm::any_of(values, [](int64_t v) { return v <= 0 || v > kMaxKnob; }))
    return emitError() << "config " << name
                       << " entries must be positive and at most " << kMaxKnob
                       << ", got [" << values << "]";
  return success();
}

LogicalResult ConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> tile,
    ArrayRef<int64_t> cluster, std::optional<int64_t> stages,
    std::optional<Schedule> schedule, std::optional<bool> persistent,
    std::optional<RasterOrder> raster, std::optional<int64_t> swizzle,
    ArrayRef<int64_t> epiTile, std::optional<int64_t> stagesC,
    std::optional<int64_t> stagesD, std::optional<int64_t> fragmentSize,
    std::optional<bool> reuseSmemC, std::optional<bool> delayTmaStore,
    std::optional<int64_t> producerRegs, std::optional<int64_t> consumerRegs,
    std::optional<int64_t> promotionInterval, std::optional<int64_t> splitK,
    std::optional<TileSchedulerKind> scheduler,
    std::optional<bool> blockScaling, std::optional<OutputStore> store,
    std::optional<bool> warpStores, std::optional<OperandLoad> loadA,
    std::optional<OperandLoad> loadB, std::optional<int64_t> alignA,
    std::optional<int64_t> alignB, std::optional<OperandLoad> loadC,
    std::optional<int64_t> alignC, std::optional<int64_t> ctasPerSm,
    std::optional<int64_t> warpColumns, std::optional<CopyOut> copyOut) {
  if (failed(verifyIntList(emitError, "tile", tile, 3, "M, N, K")) ||
      failed(verifyIntList(emitError, "cluster", cluster, 3, "M, N, K")) ||
      failed(verifyIntList(emitError, "epi_tile", epiTile, 2, "M, N")))
    return failure();
  // Counts must be positive for the planner's arithmetic; whether a value
  // works on the hardware is --wsgemm-plan's business.
  std::pair<StringRef, std::optional<int64_t>> counts[] = {
      {"stages", stages},
      {"swizzle", swizzle},
      {"stages_c", stagesC},
      {"stages_d", stagesD},
      {"fragment_size", fragmentSize},
      {"producer_regs", producerRegs},
      {"consumer_regs", consumerRegs},
      {"split_k", splitK}};
  for (auto [name, value] : counts)
    if (value && (*value <= 0 || *value > kMaxKnob))
      return emitError() << "config " << name
                         << " must be positive and at most " << kMaxKnob
                         << ", got " << *value;
  // A cp.async operand's copies are 2, 4, 8 or 16 bytes wide; the
  // alignment says which, so it belongs to a cp.async load.
  std::pair<StringRef, std::pair<std::optional<OperandLoad>,
                                 std::optional<int64_t>>>
      aligns[] = {{"a", {loadA, alignA}},
                  {"b", {loadB, alignB}},
                  {"c", {loadC, alignC}}};
  for (auto [name, la] : aligns) {
    auto [load, align] = la;
    if (!align)
      continue;
    if (load != OperandLoad::cp_async)
      return emitError() << "config align_" << name
                         << " needs load_" << name
                         << " = cp_async (TMA needs 16-byte alignment)";
    if (*align != 2 && *align != 4 && *align != 8 && *align != 16)
      return emitError() << "config align_" << name
                         << " must be 2, 4, 8 or 16 bytes (the cp.async "
                            "copy width), got "
                         << *align;
  }
  // 0 spells out the default (fast accumulation); a promotion every N
  // k-tiles needs N >= 1.
  if (promotionInterval &&
      (*promotionInterval < 0 || *promotionInterval > kMaxKnob))
    return emitError() << "config promotion_interval must be 0 (fast "
                          "accumulation) or a number of k-tiles in [1, "
                       << kMaxKnob << "], got " << *promotionInterval;
  // A tile's K range is dealt out in whole k-tiles, one split per CTA.
  if (splitK && (*splitK < 1 || *splitK > kMaxSplitK))
    return emitError() << "config split_k must be in [1, " << kMaxSplitK
                       << "] (K splits per output tile), got " << *splitK;
  // Stream-K already splits tiles' K ranges, by MAC iterations.
  if (splitK && *splitK > 1 && scheduler == TileSchedulerKind::stream_k)
    return emitError() << "config split_k = " << *splitK
                       << " and scheduler = stream_k exclude each other: "
                          "stream-K splits K ranges itself";
  // Each resident CTA takes its share of the SM's registers and shared
  // memory; one and two per SM are what the planner and the tests cover.
  if (ctasPerSm && (*ctasPerSm < 1 || *ctasPerSm > 2))
    return emitError() << "config ctas_per_sm must be 1 or 2 (CTAs "
                          "resident per SM, each with that share of its "
                          "shared memory and registers), got "
                       << *ctasPerSm;
  // A warpgroup's four warps side by side along N: one column of four, or
  // two of two (Legality.cpp checks the chip and the tile).
  if (warpColumns && *warpColumns != 1 && *warpColumns != 2 &&
      *warpColumns != 4)
    return emitError() << "config warp_columns must be 1, 2 or 4 (a consumer "
                          "warpgroup's warps along N), got "
                       << *warpColumns;
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp: syntax
//===----------------------------------------------------------------------===//
//
//   wsgemm.gemm @name [batched] a(T[, layout]) b(T[, layout]) [c(T)] d(T[, layout])
//       [dequant_a #wsgemm.dequant<...>]
//       [shape [M, N, K(, L)]] [config #wsgemm.config<...>]
//       [attributes {...}] { ^bb0(%acc: f32): ... epi.yield }

/// Parses `name(T[, layout])`; the layout is optional (and only allowed)
/// when `layout` is non-null.
static ParseResult parseOperandSpec(OpAsmParser &parser, StringRef name,
                                    Type &type, Major *layout) {
  if (parser.parseKeyword(name) || parser.parseLParen() ||
      parser.parseType(type))
    return failure();
  if (layout && succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<Major> major = symbolizeMajor(keyword);
    if (!major)
      return parser.emitError(loc) << "expected a layout (k_major, m_major or "
                                      "n_major), got '"
                                   << keyword << "'";
    *layout = *major;
  }
  return parser.parseRParen();
}

ParseResult GemmOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  OperationName opName = result.name;

  StringAttr symName;
  if (parser.parseSymbolName(symName, getSymNameAttrName(opName),
                             result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("batched")))
    result.addAttribute(getBatchedAttrName(opName), b.getUnitAttr());

  Type aType, bType, cType, dType;
  Major aLayout = Major::k_major, bLayout = Major::k_major,
        dLayout = Major::n_major;
  if (parseOperandSpec(parser, "a", aType, &aLayout) ||
      parseOperandSpec(parser, "b", bType, &bLayout))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("c"))) {
    if (parser.parseLParen() || parser.parseType(cType) || parser.parseRParen())
      return failure();
  }
  if (parseOperandSpec(parser, "d", dType, &dLayout))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("dequant_a"))) {
    SMLoc loc = parser.getCurrentLocation();
    Attribute dequant;
    if (parser.parseAttribute(dequant))
      return failure();
    if (!isa<DequantAttr>(dequant))
      return parser.emitError(loc)
             << "expected a #wsgemm.dequant<...> attribute, got " << dequant;
    result.addAttribute(getDequantAAttrName(opName), dequant);
  }
  result.addAttribute(getATypeAttrName(opName), TypeAttr::get(aType));
  result.addAttribute(getBTypeAttrName(opName), TypeAttr::get(bType));
  if (cType)
    result.addAttribute(getCTypeAttrName(opName), TypeAttr::get(cType));
  result.addAttribute(getDTypeAttrName(opName), TypeAttr::get(dType));
  // Default layouts are left implicit so that they print implicitly.
  if (aLayout != Major::k_major)
    result.addAttribute(getALayoutAttrName(opName),
                        MajorAttr::get(b.getContext(), aLayout));
  if (bLayout != Major::k_major)
    result.addAttribute(getBLayoutAttrName(opName),
                        MajorAttr::get(b.getContext(), bLayout));
  if (dLayout != Major::n_major)
    result.addAttribute(getDLayoutAttrName(opName),
                        MajorAttr::get(b.getContext(), dLayout));

  if (succeeded(parser.parseOptionalKeyword("shape"))) {
    SmallVector<int64_t> dims;
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          return parser.parseInteger(dims.emplace_back());
        }))
      return failure();
    result.addAttribute(getShapeAttrName(opName), b.getDenseI64ArrayAttr(dims));
  }
  if (succeeded(parser.parseOptionalKeyword("config"))) {
    SMLoc loc = parser.getCurrentLocation();
    Attribute config;
    if (parser.parseAttribute(config))
      return failure();
    if (!isa<ConfigAttr>(config))
      return parser.emitError(loc)
             << "expected a #wsgemm.config<...> attribute, got " << config;
    result.addAttribute(getConfigAttrName(opName), config);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, /*arguments=*/{});
}

void GemmOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  if (isBatched())
    p << " batched";
  p << " a(" << getAType();
  if (getALayout() != Major::k_major)
    p << ", " << stringifyMajor(getALayout());
  p << ") b(" << getBType();
  if (getBLayout() != Major::k_major)
    p << ", " << stringifyMajor(getBLayout());
  p << ")";
  if (std::optional<Type> cType = getCType())
    p << " c(" << *cType << ")";
  p << " d(" << getDType();
  if (getDLayout() != Major::n_major)
    p << ", " << stringifyMajor(getDLayout());
  p << ")";
  if (DequantAttr dequant = getDequantAAttr()) {
    p << " dequant_a ";
    p.printAttribute(dequant);
  }
  if (std::optional<ArrayRef<int64_t>> shape = getShape()) {
    p << " shape [";
    llvm::interleaveComma(*shape, p);
    p << "]";
  }
  if (ConfigAttr config = getConfigAttr()) {
    p << " config ";
    p.printAttribute(config);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), getAttributeNames());
  p << ' ';
  p.printRegion(getEpilogue(), /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
}

//===----------------------------------------------------------------------===//
// GemmOp: builder and helpers
//===----------------------------------------------------------------------===//

void GemmOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   Type aType, Type bType, Type cType, Type dType,
                   ConfigAttr config) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getATypeAttrName(state.name), TypeAttr::get(aType));
  state.addAttribute(getBTypeAttrName(state.name), TypeAttr::get(bType));
  if (cType)
    state.addAttribute(getCTypeAttrName(state.name), TypeAttr::get(cType));
  state.addAttribute(getDTypeAttrName(state.name), TypeAttr::get(dType));
  if (config)
    state.addAttribute(getConfigAttrName(state.name), config);
  Region *region = state.addRegion();
  Block *block = new Block();
  block->addArgument(builder.getF32Type(), state.location);
  region->push_back(block);
}

std::optional<int64_t> GemmOp::getPlannedSmemBytes() {
  if (auto attr = (*this)->getAttrOfType<IntegerAttr>(getSmemBytesAttrName()))
    return attr.getInt();
  return std::nullopt;
}

void GemmOp::setPlannedSmemBytes(int64_t bytes) {
  (*this)->setAttr(getSmemBytesAttrName(),
                   IntegerAttr::get(IntegerType::get(getContext(), 64), bytes));
}

std::optional<int64_t> GemmOp::getStaticDim(unsigned index) {
  std::optional<ArrayRef<int64_t>> shape = getShape();
  if (!shape || index >= shape->size())
    return std::nullopt;
  return (*shape)[index];
}

ConfigAttr GemmOp::getConfigOrEmpty() {
  if (ConfigAttr config = getConfigAttr())
    return config;
  return ConfigAttr::get(getContext(), {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                         {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                         {}, {}, {}, {}, {}, {}, {});
}

//===----------------------------------------------------------------------===//
// GemmOp: EpilogueOpInterface and verification
//===----------------------------------------------------------------------===//

Region &GemmOp::getEpilogueRegion() { return getEpilogue(); }
Type GemmOp::getDElementType() { return getDType(); }
Type GemmOp::getCElementType() {
  if (auto c = getCType())
    return *c;
  return {};
}

LogicalResult GemmOp::verify() {
  // The name reaches NVPTX and the file system (KernelName.h).
  if (std::optional<std::string> why = checkKernelName(getSymName()))
    return emitOpError() << "symbol " << *why;
  Type a = getAType(), b = getBType(), d = getDType();
  auto isFp8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  auto isOperand = [&](Type t) { return t.isF16() || t.isBF16() || isFp8(t); };
  auto isStorable = [](Type t) { return t.isF16() || t.isBF16() || t.isF32(); };
  // A quantized A follows the mixed-input rules (MixedInput.cpp).
  if (getDequantAAttr() || isa<IntegerType>(a)) {
    if (failed(verifyMixedInput(*this)))
      return failure();
  } else {
    if (!isOperand(a))
      return emitOpError() << "A element type must be f16, bf16, f8E4M3FN or "
                              "f8E5M2 because the mainloop issues wgmma on "
                              "those with f32 accumulation, got "
                           << a;
    if (!isOperand(b))
      return emitOpError() << "B element type must be f16, bf16, f8E4M3FN or "
                              "f8E5M2 because the mainloop issues wgmma on "
                              "those with f32 accumulation, got "
                           << b;
    // wgmma's 8-bit forms take any pair of e4m3 and e5m2.
    if (a != b && !(isFp8(a) && isFp8(b)))
      return emitOpError() << "A and B element types must be equal, or both "
                              "8-bit floats, because one wgmma reads both, got "
                           << a << " and " << b;
  }
  if (std::optional<Type> c = getCType();
      c && !isStorable(*c) && !isFp8(*c))
    return emitOpError()
           << "C element type must be f16, bf16, f32, f8E4M3FN or f8E5M2 "
              "because the epilogue loads it with TMA and converts it to "
              "f32, got "
           << *c;
  // fp8 D is expressible (CUTLASS's scaled fp8-output epilogues); the
  // planner decides what a kernel can be built for.
  if (!isStorable(d) && !isa<Float8E4M3FNType, Float8E5M2Type>(d))
    return emitOpError()
           << "D element type must be f16, bf16, f32, f8E4M3FN or f8E5M2 "
              "because the epilogue converts its f32 result to it and "
              "stores it with TMA, got "
           << d;
  if (getALayout() == Major::n_major)
    return emitOpError() << "A layout must be k_major or m_major because A is "
                            "M x K, got n_major";
  if (getBLayout() == Major::m_major)
    return emitOpError() << "B layout must be k_major or n_major because B is "
                            "K x N, got m_major";
  if (getDLayout() == Major::k_major)
    return emitOpError() << "D layout must be n_major or m_major because D is "
                            "M x N, got k_major";
  if (std::optional<ArrayRef<int64_t>> shape = getShape()) {
    size_t rank = isBatched() ? 4 : 3;
    if (shape->size() != rank)
      return emitOpError() << "shape must be [M, N, K"
                           << (isBatched() ? ", L] because the gemm is batched"
                                           : "] because the gemm is not "
                                             "batched (add 'batched' for L)")
                           << ", got " << shape->size() << " sizes";
    // 2^48 elements per dimension keeps byte strides far from overflow.
    constexpr int64_t kMaxDim = int64_t(1) << 48;
    if (llvm::any_of(*shape, [&](int64_t v) { return v <= 0 || v > kMaxDim; }))
      return emitOpError() << "shape sizes must be positive and at most "
                           << kMaxDim << " (2^48), got [" << *shape << "]";
  }
  if (Attribute smem = (*this)->getAttr(getSmemBytesAttrName())) {
    auto bytes = dyn_cast<IntegerAttr>(smem);
    if (!bytes || !bytes.getType().isInteger(64) || bytes.getInt() <= 0)
      return emitOpError() << "'" << getSmemBytesAttrName()
                           << "' must be a positive i64 (the planned dynamic "
                              "SMEM in bytes), got "
                           << smem;
  }
  return success();
}

LogicalResult GemmOp::verifyRegions() {
  return epi::verifyEpilogueRegion(*this);
}

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.cpp.inc"
