//===- WarpSpecializeOp.cpp - Warp roles of the explicit level ------------===//
//
// wsgemm.warp_specialize: its role lookup (which role a region or a nested
// op belongs to, its warps and register budget), its builder and its
// verifier (role regions, warp counts within a CTA, setmaxnreg budgets
// within an SM). The custom assembly directives stay with the generated
// op definitions in WsGemmPipelineOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::wsgemm;

//===----------------------------------------------------------------------===//
// Limits of the hardware the verifier checks against
//===----------------------------------------------------------------------===//

namespace {
/// setmaxnreg accepts multiples of 8 in [24, 256].
constexpr int32_t kMinRegs = 24, kMaxRegs = 256, kRegsGranule = 8;
/// Registers of one SM (and the most one CTA can hold).
constexpr int64_t kRegsPerSM = 65536;
/// A CTA has at most 1024 threads.
constexpr int64_t kMaxWarpsPerCTA = 32;
constexpr int64_t kWarpsPerWarpgroup = 4, kThreadsPerWarp = 32;
} // namespace

//===----------------------------------------------------------------------===//
// Role lookup
//===----------------------------------------------------------------------===//

std::optional<Role> WarpSpecializeOp::getRole(unsigned regionIndex) {
  ArrayAttr roles = getRolesAttr();
  if (!roles || regionIndex >= roles.size())
    return std::nullopt;
  if (auto role = dyn_cast<RoleAttr>(roles[regionIndex]))
    return role.getValue();
  return std::nullopt;
}

Region *WarpSpecializeOp::getRoleRegion(Role role) {
  for (unsigned i = 0, e = getNumRegions(); i < e; ++i)
    if (getRole(i) == role)
      return &getRegion(i);
  return nullptr;
}

int32_t WarpSpecializeOp::getNumWarps(Role role) {
  ArrayRef<int32_t> warps = getWarps();
  for (unsigned i = 0, e = getNumRegions(); i < e && i < warps.size(); ++i)
    if (getRole(i) == role)
      return warps[i];
  return 0;
}

std::optional<int32_t> WarpSpecializeOp::getNumRegs(Role role) {
  std::optional<ArrayRef<int32_t>> regs = getRegs();
  if (!regs)
    return std::nullopt;
  for (unsigned i = 0, e = getNumRegions(); i < e && i < regs->size(); ++i)
    if (getRole(i) == role)
      return (*regs)[i];
  return std::nullopt;
}

std::optional<Role> WarpSpecializeOp::getEnclosingRole(Operation *op) {
  // Walk up through any nesting (scf.for, scf.if, ...) to the first
  // warp_specialize; the region we came from is the role.
  for (Region *region = op->getParentRegion(); region;) {
    Operation *parent = region->getParentOp();
    if (!parent)
      return std::nullopt;
    if (auto ws = dyn_cast<WarpSpecializeOp>(parent))
      return ws.getRole(region->getRegionNumber());
    region = parent->getParentRegion();
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

void WarpSpecializeOp::build(OpBuilder &builder, OperationState &state,
                             ValueRange captures, ArrayRef<Role> roles,
                             ArrayRef<int32_t> warps, ArrayRef<int32_t> regs) {
  MLIRContext *ctx = builder.getContext();
  state.addOperands(captures);
  SmallVector<Attribute> roleAttrs = llvm::map_to_vector(
      roles, [&](Role role) -> Attribute { return RoleAttr::get(ctx, role); });
  Properties &props = state.getOrAddProperties<Properties>();
  props.roles = builder.getArrayAttr(roleAttrs);
  props.warps = builder.getDenseI32ArrayAttr(warps);
  if (!regs.empty())
    props.regs = builder.getDenseI32ArrayAttr(regs);
  SmallVector<Type> types(captures.getTypes());
  SmallVector<Location> locs(captures.size(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  for (size_t i = 0; i < roles.size(); ++i) {
    Region *region = state.addRegion();
    builder.createBlock(region, region->end(), types, locs);
    RoleEndOp::create(builder, state.location);
  }
}

LogicalResult WarpSpecializeOp::verify() {
  unsigned numRegions = getNumRegions();
  ArrayAttr roles = getRolesAttr();
  ArrayRef<int32_t> warps = getWarps();
  std::optional<ArrayRef<int32_t>> regs = getRegs();

  // Shape: one entry per region in every per-role array.
  if (roles.size() != numRegions)
    return emitOpError() << "must list one role per region: 'roles' has "
                         << roles.size() << " entries but the op has "
                         << numRegions << " role regions";
  if (warps.size() != numRegions)
    return emitOpError() << "must give one warp count per role: 'warps' has "
                         << warps.size() << " entries for " << numRegions
                         << " roles";
  if (regs && regs->size() != numRegions)
    return emitOpError() << "must give one register budget per role: 'regs' "
                            "has "
                         << regs->size() << " entries for " << numRegions
                         << " roles";

  // Roles partition the CTA once: no warp_specialize inside a role region.
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError() << "must not be nested in another "
                            "'wsgemm.warp_specialize' because the roles "
                            "partition the warps of the CTA once";

  // Each role at most once; mma required.
  llvm::SmallSet<Role, 4> seen;
  for (Attribute attr : roles) {
    Role role = cast<RoleAttr>(attr).getValue();
    if (!seen.insert(role).second)
      return emitOpError() << "lists role '" << stringifyRole(role)
                           << "' twice; each role must have exactly one region";
  }
  if (!seen.contains(Role::mma))
    return emitOpError() << "must have an 'mma' role because the consumer "
                            "warpgroups run the wgmma and the epilogue";

  // Regions take the captures as block arguments of the same types.
  for (unsigned i = 0; i < numRegions; ++i) {
    Region &region = getRegion(i);
    StringRef roleName = stringifyRole(*getRole(i));
    if (region.empty())
      continue; // SizedRegion<1> reports it.
    Block &entry = region.front();
    if (entry.getNumArguments() != getCaptures().size())
      return emitOpError() << "region #" << i << " (role '" << roleName
                           << "') must take the " << getCaptures().size()
                           << " captured values as block arguments because "
                              "role regions are isolated from above, got "
                           << entry.getNumArguments() << " arguments";
    for (auto [j, arg, capture] :
         llvm::enumerate(entry.getArguments(), getCaptures())) {
      if (arg.getType() != capture.getType())
        return emitOpError()
               << "region #" << i << " (role '" << roleName << "') argument #"
               << j << " must have the type of capture #" << j << " ("
               << capture.getType() << "), got " << arg.getType();
    }
  }

  // Warp counts.
  int64_t totalWarps = 0;
  bool hasProducerWarpgroup = false;
  int64_t producerWarps = 0;
  for (unsigned i = 0; i < numRegions; ++i) {
    Role role = *getRole(i);
    int32_t n = warps[i];
    if (role == Role::mma) {
      if (n <= 0 || n % kWarpsPerWarpgroup != 0)
        return emitOpError() << "role 'mma' must have a positive multiple of 4 "
                                "warps because wgmma runs on whole "
                                "warpgroups, got "
                             << n;
      totalWarps += n;
    } else if (role == Role::load) {
      // One elected thread issues TMA loads; cp.async producers copy with
      // up to the whole producer warpgroup (CpAsyncProducer.cpp).
      if (n < 1 || n > kWarpsPerWarpgroup)
        return emitOpError()
               << "role 'load' must have 1 to 4 warps because the producer "
                  "roles share warpgroup 0 (1 issues TMA loads, more copy "
                  "with cp.async), got "
               << n;
      producerWarps += n;
      hasProducerWarpgroup = true;
    } else {
      if (n != 1)
        return emitOpError()
               << "role '" << stringifyRole(role)
               << "' must have exactly 1 warp because one elected thread "
                  "issues its TMA loads and the producer roles share "
                  "warpgroup 0, got "
               << n;
      producerWarps += n;
      hasProducerWarpgroup = true;
    }
  }
  if (producerWarps > kWarpsPerWarpgroup)
    return emitOpError() << "producer roles have " << producerWarps
                         << " warps but share warpgroup 0 (4 warps)";
  if (hasProducerWarpgroup)
    totalWarps += kWarpsPerWarpgroup;
  if (totalWarps > kMaxWarpsPerCTA)
    return emitOpError() << "needs " << totalWarps
                         << " warps (the producer roles fill one warpgroup) "
                            "but a CTA has at most 32 warps";

  // Register budgets.
  if (regs) {
    std::optional<int32_t> producerRegs;
    int64_t totalRegs = 0;
    for (unsigned i = 0; i < numRegions; ++i) {
      Role role = *getRole(i);
      int32_t r = (*regs)[i];
      if (r < kMinRegs || r > kMaxRegs || r % kRegsGranule != 0)
        return emitOpError()
               << "register budget of role '" << stringifyRole(role)
               << "' must be a multiple of 8 in [24, 256] "
                  "because setmaxnreg accepts no other, got "
               << r;
      if (role == Role::mma) {
        totalRegs += int64_t(r) * warps[i] * kThreadsPerWarp;
        continue;
      }
      if (producerRegs && *producerRegs != r)
        return emitOpError()
               << "roles 'load' and 'epilogue_load' must have equal register "
                  "budgets because they share warpgroup 0 and setmaxnreg "
                  "applies to a whole warpgroup, got "
               << *producerRegs << " and " << r;
      producerRegs = r;
    }
    if (producerRegs)
      totalRegs +=
          int64_t(*producerRegs) * kWarpsPerWarpgroup * kThreadsPerWarp;
    if (totalRegs > kRegsPerSM)
      return emitOpError() << "register budgets need " << totalRegs
                           << " registers but an SM has " << kRegsPerSM;
  }

  // Captured pipelines must connect roles of this op.
  for (auto [i, capture] : llvm::enumerate(getCaptures())) {
    auto pipeline = dyn_cast<PipelineType>(capture.getType());
    if (!pipeline)
      continue;
    for (auto [what, role] :
         {std::pair<StringRef, Role>{"produced", pipeline.getProducer()},
          std::pair<StringRef, Role>{"consumed", pipeline.getConsumer()}}) {
      if (!seen.contains(role))
        return emitOpError() << "capture #" << i << " is a pipeline " << what
                             << " by role '" << stringifyRole(role)
                             << "' but no region has that role, so it would "
                                "deadlock";
    }
  }
  return success();
}
