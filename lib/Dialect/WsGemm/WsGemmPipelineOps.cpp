//===- WsGemmPipelineOps.cpp - Warp roles and pipelines -------------------===//
//
// Verifiers, custom assembly and folding of the explicit level of the wsgemm
// dialect: pipeline types, the pipeline-state ops' syntax (their arithmetic,
// folds and canonicalizations are PipelineStateOps.cpp) and the role
// discipline of `wsgemm.warp_specialize`: every pipeline op runs
// in a role region, producer ops in the pipeline's producer role, consumer ops
// in its consumer role, TMA store ops in the `mma` role. The hand-written
// parts of wsgemm.warp_specialize are in WarpSpecializeOp.cpp.
//
//===----------------------------------------------------------------------===//

#include "BarrierVerify.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "ws-gemm/Dialect/WsGemm/PipelineState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::wsgemm;

//===----------------------------------------------------------------------===//
// Limits of the hardware the verifiers check against
//===----------------------------------------------------------------------===//

using mlir::wsgemm::detail::kMaxMbarrierCount;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult PipelineType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t stages, Role producer,
                                   Role consumer) {
  if (stages < 1)
    return emitError() << "pipeline stage count must be at least 1, got "
                       << stages;
  if (producer == consumer)
    return emitError() << "pipeline producer and consumer roles must differ "
                          "because a pipeline synchronizes two roles, got '"
                       << stringifyRole(producer) << "' for both";
  return success();
}

LogicalResult
StorePipelineType::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t stages) {
  if (stages < 1)
    return emitError() << "store pipeline stage count must be at least 1, got "
                       << stages;
  return success();
}

LogicalResult
PipelineStateType::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t stages) {
  if (stages < 1)
    return emitError() << "pipeline state stage count must be at least 1, got "
                       << stages;
  return success();
}

/// Checks that `op` runs in a role region and returns that role.
static FailureOr<Role> verifyInRoleRegion(Operation *op) {
  std::optional<Role> role = WarpSpecializeOp::getEnclosingRole(op);
  if (!role)
    return op->emitOpError()
           << "must be nested in a role region of 'wsgemm.warp_specialize' "
              "because pipelines synchronize warp roles";
  return *role;
}

//===----------------------------------------------------------------------===//
// Custom directives of warp_specialize
//===----------------------------------------------------------------------===//

/// role-list ::= `[` (role (`,` role)*)? `]`
static ParseResult parseRoleList(OpAsmParser &parser, ArrayAttr &roles) {
  SmallVector<Attribute> elements;
  MLIRContext *ctx = parser.getContext();
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<Role> role = symbolizeRole(keyword);
    if (!role)
      return parser.emitError(loc)
             << "expected a warp role (load, epilogue_load, mma), got '"
             << keyword << "'";
    elements.push_back(RoleAttr::get(ctx, *role));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  roles = ArrayAttr::get(ctx, elements);
  return success();
}

static void printRoleList(OpAsmPrinter &printer, Operation *, ArrayAttr roles) {
  printer << '[';
  llvm::interleaveComma(roles, printer, [&](Attribute attr) {
    if (auto role = dyn_cast<RoleAttr>(attr))
      printer << stringifyRole(role.getValue());
    else
      printer.printAttribute(attr);
  });
  printer << ']';
}

/// role-regions ::= region+ (no separator). A region whose block does not end
/// in a terminator gets an implicit `wsgemm.role_end`.
static ParseResult
parseRoleRegions(OpAsmParser &parser,
                 SmallVectorImpl<std::unique_ptr<Region>> &regions) {
  do {
    auto region = std::make_unique<Region>();
    SMLoc loc = parser.getCurrentLocation();
    OptionalParseResult parsed = parser.parseOptionalRegion(*region);
    if (!parsed.has_value())
      break;
    if (failed(*parsed))
      return failure();
    WarpSpecializeOp::ensureTerminator(*region, parser.getBuilder(),
                                       parser.getEncodedSourceLoc(loc));
    regions.push_back(std::move(region));
  } while (true);
  if (regions.empty())
    return parser.emitError(parser.getCurrentLocation())
           << "expected one region per warp role";
  return success();
}

static void printRoleRegions(OpAsmPrinter &printer, Operation *,
                             MutableArrayRef<Region> regions) {
  llvm::interleave(
      regions, printer,
      [&](Region &region) {
        printer.printRegion(region, /*printEntryBlockArgs=*/true,
                            /*printBlockTerminators=*/true);
      },
      " ");
}

//===----------------------------------------------------------------------===//
// Creation ops
//===----------------------------------------------------------------------===//

PipelineCreateOp PipelineCreateOp::lookup(Value pipeline) {
  while (pipeline) {
    if (auto create = pipeline.getDefiningOp<PipelineCreateOp>())
      return create;
    auto arg = dyn_cast<BlockArgument>(pipeline);
    if (!arg || !arg.getOwner()->isEntryBlock())
      return {};
    auto ws = dyn_cast_or_null<WarpSpecializeOp>(arg.getOwner()->getParentOp());
    if (!ws || arg.getArgNumber() >= ws.getCaptures().size())
      return {};
    pipeline = ws.getCaptures()[arg.getArgNumber()];
  }
  return {};
}

LogicalResult PipelineCreateOp::verify() {
  int64_t txBytes = getTxBytesAttr().getInt();
  int64_t arrivals = getConsumerArrivalsAttr().getInt();
  if (txBytes < 0 || txBytes > kMaxMbarrierCount)
    return emitOpError() << "tx_bytes must be in [0, " << kMaxMbarrierCount
                         << "] because an mbarrier transaction count has 20 "
                            "bits, got "
                         << txBytes;
  if (txBytes % 16 != 0)
    return emitOpError() << "tx_bytes must be a multiple of 16 because TMA "
                            "transfers whole 16-byte units, got "
                         << txBytes;
  if (failed(wsgemm::detail::verifyArrivalCount(*this, "consumer_arrivals",
                                                arrivals)))
    return failure();
  if (std::optional<int64_t> producers = getProducerArrivals())
    if (failed(wsgemm::detail::verifyArrivalCount(*this, "producer_arrivals",
                                                  *producers)))
      return failure();
  return wsgemm::detail::verifyBeforeRoles(
      *this, " and both roles capture the pipeline");
}

//===----------------------------------------------------------------------===//
// Pipeline state
//===----------------------------------------------------------------------===//

/// agent ::= `producer` | `consumer` (the bare keyword of PipelineAgentAttr).
static ParseResult parsePipelineAgent(OpAsmParser &parser,
                                      PipelineAgentAttr &agent) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<PipelineAgent> value = symbolizePipelineAgent(keyword);
  if (!value)
    return parser.emitError(loc)
           << "expected 'producer' or 'consumer', got '" << keyword << "'";
  agent = PipelineAgentAttr::get(parser.getContext(), *value);
  return success();
}

static void printPipelineAgent(OpAsmPrinter &printer, Operation *,
                               PipelineAgentAttr agent) {
  printer << stringifyPipelineAgent(agent.getValue());
}

//===----------------------------------------------------------------------===//
// Producer / consumer ops
//===----------------------------------------------------------------------===//

/// Shared verifier: stage counts agree and the op runs in the role of the
/// pipeline's `producer` (or consumer) side. `verb` completes "'op' <verb> a
/// pipeline produced/consumed by role ...".
static LogicalResult verifyPipelineSync(Operation *op, PipelineType pipeline,
                                        PipelineStateType state,
                                        bool producerSide, StringRef verb) {
  if (pipeline.getStages() != state.getStages())
    return op->emitOpError()
           << "uses a pipeline_state of " << state.getStages()
           << " stages with a pipeline of " << pipeline.getStages()
           << " stages; the state's stage count must equal the pipeline's";
  FailureOr<Role> role = verifyInRoleRegion(op);
  if (failed(role))
    return failure();
  Role expected =
      producerSide ? pipeline.getProducer() : pipeline.getConsumer();
  if (*role != expected)
    return op->emitOpError()
           << verb << " a pipeline " << (producerSide ? "produced" : "consumed")
           << " by role '" << stringifyRole(expected) << "' but runs in role '"
           << stringifyRole(*role) << "'; only the pipeline's "
           << (producerSide ? "producer" : "consumer") << " role may do so";
  return success();
}

/// A cp.async acquire or commit runs in every producer thread, each of
/// which the full barriers count: the pipeline needs producer_arrivals.
static LogicalResult verifyCpAsyncProducer(Operation *op, Value pipeline,
                                           StringRef what) {
  PipelineCreateOp create = PipelineCreateOp::lookup(pipeline);
  if (create && !create.getProducerArrivals())
    return op->emitOpError()
           << "with " << what
           << " needs a pipeline created with producer_arrivals (every "
              "producer thread arrives on the full barrier)";
  return success();
}

LogicalResult ProducerAcquireOp::verify() {
  if (failed(verifyPipelineSync(*this, getPipeline().getType(),
                                getState().getType(), /*producerSide=*/true,
                                "acquires a stage of")))
    return failure();
  if (getCpAsync())
    return verifyCpAsyncProducer(*this, getPipeline(), "cp_async");
  // A TMA acquire arrives once; counting more arrivals would never fill.
  // Without TMA bytes the acquire only waits and every producer thread
  // arrives in producer_commit (the sm_8x copy-out pipeline, copy_out =
  // load: the consumers' staged output subtiles).
  if (PipelineCreateOp create = PipelineCreateOp::lookup(getPipeline()))
    if (create.getTxBytes() > 0 &&
        create.getProducerArrivals().value_or(1) != 1)
      return emitOpError() << "without cp_async arrives once on a TMA "
                              "pipeline (tx_bytes > 0), but its full "
                              "barriers count "
                           << *create.getProducerArrivals()
                           << " producer arrivals; use cp_async, or tx_bytes "
                              "= 0 (every producer thread arrives in "
                              "producer_commit)";
  return success();
}

LogicalResult ProducerCommitOp::verify() {
  if (failed(verifyPipelineSync(*this, getPipeline().getType(),
                                getState().getType(), /*producerSide=*/true,
                                "commits a stage of")))
    return failure();
  if (getCpAsync() || getStores())
    return verifyCpAsyncProducer(*this, getPipeline(),
                                 getCpAsync() ? "cp_async" : "stores");
  return success();
}

LogicalResult ConsumerWaitOp::verify() {
  return verifyPipelineSync(*this, getPipeline().getType(),
                            getState().getType(), /*producerSide=*/false,
                            "waits on");
}

LogicalResult ConsumerReleaseOp::verify() {
  if (getPred() && getCta())
    return emitOpError("a predicated release ('if') arrives in this CTA "
                       "only: it cannot also name a peer CTA ('cta')");
  return verifyPipelineSync(*this, getPipeline().getType(),
                            getState().getType(), /*producerSide=*/false,
                            "releases a stage of");
}

LogicalResult ProducerGetBarrierOp::verify() {
  return verifyPipelineSync(*this, getPipeline().getType(),
                            getState().getType(), /*producerSide=*/true,
                            "takes a barrier of");
}

LogicalResult ProducerExpectTxOp::verify() {
  if (failed(verifyPipelineSync(*this, getPipeline().getType(),
                                getState().getType(), /*producerSide=*/true,
                                "announces transactions on")))
    return failure();
  if (PipelineCreateOp create = PipelineCreateOp::lookup(getPipeline()))
    if (create.getTxBytesAttr().getInt() == 0)
      return emitOpError() << "needs a TMA pipeline (tx_bytes > 0) because "
                              "only its full barriers count transactions";
  return success();
}

/// The TMA box rules shared by producer_tma_load and store_tma: what
/// cp.async.bulk.tensor and nvgpu's TMA ops accept.
static LogicalResult verifyTmaBox(Operation *op, Type descType,
                                  size_t coordinates, StringRef buffer) {
  auto desc = cast<nvgpu::TensorMapDescriptorType>(descType);
  MemRefType box = desc.getTensor();
  if (box.getRank() < 1 || box.getRank() > 5 || !box.hasStaticShape() ||
      !box.getLayout().isIdentity())
    return op->emitOpError()
           << "needs a descriptor whose box is a static, contiguous memref of "
              "rank 1 to 5 (TMA's tensor ranks), got "
           << box;
  if (llvm::any_of(box.getShape(), [](int64_t d) { return d > 256; }))
    return op->emitOpError()
           << "needs box dimensions of at most 256 elements (TMA's limit), got "
           << box;
  if (desc.getInterleave() != nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE)
    return op->emitOpError() << "needs a descriptor without interleave (the "
                                "lowering supports tiled boxes only)";
  int64_t innerBytes =
      box.getShape().back() * llvm::divideCeil(box.getElementTypeBitWidth(), 8);
  if (innerBytes % 16 != 0)
    return op->emitOpError()
           << "needs the box's innermost dimension to span a multiple of 16 "
              "bytes (TMA's rule), got "
           << innerBytes << " bytes in " << box;
  int64_t swizzleBytes = 0;
  switch (desc.getSwizzle()) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE:
    break;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    swizzleBytes = 32;
    break;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    swizzleBytes = 64;
    break;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    swizzleBytes = 128;
    break;
  }
  if (swizzleBytes && innerBytes != swizzleBytes)
    return op->emitOpError()
           << "needs the box's innermost dimension to span the swizzle's "
           << swizzleBytes << " bytes (the rows the swizzle permutes), got "
           << innerBytes << " bytes in " << box;
  if (static_cast<int64_t>(coordinates) != box.getRank())
    return op->emitOpError()
           << "has " << coordinates << " coordinates for a box of rank "
           << box.getRank() << "; TMA takes one coordinate per dimension";
  if (!nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(box))
    return op->emitOpError()
           << "needs a descriptor whose box is in shared memory (the " << buffer
           << "), got " << box;
  return success();
}

LogicalResult ProducerTmaLoadOp::verify() {
  if (failed(verifyPipelineSync(*this, getPipeline().getType(),
                                getState().getType(), /*producerSide=*/true,
                                "loads into a stage of")))
    return failure();
  if (PipelineCreateOp create = PipelineCreateOp::lookup(getPipeline()))
    if (create.getTxBytesAttr().getInt() == 0)
      return emitOpError() << "needs a TMA pipeline (tx_bytes > 0) because "
                              "its loads complete on the full barrier as "
                              "transactions";
  return verifyTmaBox(*this, getTensorMap().getType(), getCoordinates().size(),
                      "load's destination");
}

//===----------------------------------------------------------------------===//
// TMA store pipeline ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyStorePipelineOp(Operation *op) {
  FailureOr<Role> role = verifyInRoleRegion(op);
  if (failed(role))
    return failure();
  if (*role != Role::mma)
    return op->emitOpError()
           << "runs in role '" << stringifyRole(*role)
           << "' but the TMA store pipeline belongs to role 'mma', whose "
              "elected thread issues the epilogue's TMA stores";
  return success();
}

LogicalResult StoreCommitOp::verify() { return verifyStorePipelineOp(*this); }
LogicalResult StoreAcquireOp::verify() { return verifyStorePipelineOp(*this); }
LogicalResult StoreTailOp::verify() { return verifyStorePipelineOp(*this); }

LogicalResult StoreTmaOp::verify() {
  if (failed(verifyStorePipelineOp(*this)))
    return failure();
  if (failed(verifyTmaBox(*this, getTensorMap().getType(),
                          getCoordinates().size(), "store's source")))
    return failure();
  std::optional<epi::StoreReduceKind> reduce = getReduce();
  if (!reduce)
    return success();
  // cp.reduce.async.bulk.tensor's floating-point reductions: add for f32,
  // f16 and bf16; min and max for f16 and bf16.
  Type elem = cast<nvgpu::TensorMapDescriptorType>(getTensorMap().getType())
                  .getTensor()
                  .getElementType();
  StringRef kind = epi::stringifyStoreReduceKind(*reduce);
  if (*reduce == epi::StoreReduceKind::none)
    return emitOpError() << "'reduce none' is a plain store: omit 'reduce'";
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return emitOpError() << "reduces '" << kind << "' into " << elem
                         << " elements: cp.reduce.async.bulk.tensor reduces "
                            "floats of f32, f16 and bf16 only";
  if (elem.isF32() && *reduce != epi::StoreReduceKind::add)
    return emitOpError() << "reduces '" << kind
                         << "' into f32 elements: cp.reduce.async.bulk.tensor "
                            "has min and max for f16 and bf16 only";
  return success();
}

LogicalResult StoreWaitOp::verify() {
  if (failed(verifyStorePipelineOp(*this)))
    return failure();
  int64_t stages = getPipeline().getType().getStages();
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0 || pending >= stages)
    return emitOpError() << "pending must be in [0, " << stages
                         << ") because at most stages - 1 store batches can "
                            "be in flight while a buffer is written, got "
                         << pending;
  return success();
}

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmPipelineOps.cpp.inc"
