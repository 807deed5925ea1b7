//===- WarpSpecializeToNVVM.cpp - Warp roles to a warp dispatch
//------------===//
//
// Step 1 of --wsgemm-lower-pipelines: `wsgemm.warp_specialize` becomes a CTA
// barrier (the pipelines' barriers are initialized before it) and a
// dispatch on the warp index: warpgroup 0 holds the `load` (warp 0, or
// warps 0 to n - 1 for cp.async producers) and `epilogue_load` (the next
// warp) roles, the `mma` role the following warpgroups.
// `setmaxnreg` (dec for warpgroup 0, inc for `mma`) is run by every warp of
// the warpgroup, before the per-warp dispatch, as the instruction requires.
// Region arguments are replaced by the captured values.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/WsGemmToNVVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::wsgemm;

namespace {
constexpr int64_t kThreadsPerWarp = 32, kWarpsPerWarpgroup = 4;

Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// Inlines the single block of `region` before `point`, its arguments
/// replaced by `captures`; drops its role_end.
void inlineRole(RewriterBase &rewriter, Region &region, Operation *point,
                ValueRange captures) {
  Block &block = region.front();
  rewriter.eraseOp(block.getTerminator());
  rewriter.inlineBlockBefore(&block, point, captures);
}

/// Builds `if (cond) { body }` before the builder's point; returns the
/// then-block's terminator, before which the body goes.
Operation *emitIf(OpBuilder &b, Location loc, Value cond) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
  return ifOp.thenBlock()->getTerminator();
}

} // namespace

void mlir::wsgemm::lowerWarpSpecialize(WarpSpecializeOp ws) {
  IRRewriter rewriter(ws);
  Location loc = ws.getLoc();
  rewriter.setInsertionPoint(ws);
  // Every barrier was initialized by one thread; nobody may use one before.
  NVVM::Barrier0Op::create(rewriter, loc);
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  Value warp = arith::DivUIOp::create(rewriter, loc, tid,
                                      constI32(rewriter, loc, kThreadsPerWarp));
  Value wg = arith::DivUIOp::create(
      rewriter, loc, warp, constI32(rewriter, loc, kWarpsPerWarpgroup));
  auto eq = [&](Value x, int64_t v) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, x,
                                 constI32(rewriter, loc, v));
  };
  auto setRegs = [&](Role role, NVVM::SetMaxRegisterAction action) {
    if (std::optional<int32_t> regs = ws.getNumRegs(role))
      NVVM::SetMaxRegisterOp::create(rewriter, loc, *regs, action);
  };

  bool hasLoad = ws.getRoleRegion(Role::load) != nullptr;
  bool hasEpiLoad = ws.getRoleRegion(Role::epilogue_load) != nullptr;
  int64_t firstMmaWg = (hasLoad || hasEpiLoad) ? 1 : 0;
  int64_t mmaWgs = ws.getNumWarps(Role::mma) / kWarpsPerWarpgroup;
  SmallVector<Value> captures(ws.getCaptures());

  // The mma warpgroups; a CTA launched with more warps leaves the rest idle.
  auto emitMma = [&] {
    Value inMma =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, wg,
                              constI32(rewriter, loc, firstMmaWg + mmaWgs));
    Operation *mmaPoint = emitIf(rewriter, loc, inMma);
    rewriter.setInsertionPoint(mmaPoint);
    setRegs(Role::mma, NVVM::SetMaxRegisterAction::increase);
    inlineRole(rewriter, *ws.getRoleRegion(Role::mma), mmaPoint, captures);
  };
  if (!hasLoad && !hasEpiLoad) {
    emitMma();
    rewriter.eraseOp(ws);
    return;
  }
  // Warpgroup 0 shrinks its registers (all four warps), then the producer
  // warps run their roles and the other warps are done; the others are
  // the mma warpgroups. One if/else, so that no path joins the two register
  // budgets before the kernel exits.
  auto split = scf::IfOp::create(rewriter, loc, eq(wg, 0), /*withElse=*/true);
  Operation *inWg0 = split.thenBlock()->getTerminator();
  rewriter.setInsertionPoint(inWg0);
  Role first = hasLoad ? Role::load : Role::epilogue_load;
  setRegs(first, NVVM::SetMaxRegisterAction::decrease);
  // The load role takes warps [0, n) (one for TMA, up to four for cp.async
  // producers), epilogue_load the next one.
  static constexpr Role kProducerRoles[] = {Role::load, Role::epilogue_load};
  int64_t firstWarp = 0;
  for (Role role : kProducerRoles) {
    Region *region = ws.getRoleRegion(role);
    if (!region)
      continue;
    int64_t n = ws.getNumWarps(role);
    Value inRole =
        n == 1 ? Value(eq(warp, firstWarp))
               : arith::AndIOp::create(
                     rewriter, loc,
                     arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::uge, warp,
                                           constI32(rewriter, loc, firstWarp)),
                     arith::CmpIOp::create(
                         rewriter, loc, arith::CmpIPredicate::ult, warp,
                         constI32(rewriter, loc, firstWarp + n)));
    Operation *inWarp = emitIf(rewriter, loc, inRole);
    inlineRole(rewriter, *region, inWarp, captures);
    rewriter.setInsertionPoint(inWg0);
    firstWarp += n;
  }
  rewriter.setInsertionPoint(split.elseBlock()->getTerminator());
  emitMma();
  rewriter.eraseOp(ws);
}
