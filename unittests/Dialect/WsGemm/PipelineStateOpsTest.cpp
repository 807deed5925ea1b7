//===- PipelineStateOpsTest.cpp - C++ API of the explicit level -----------===//
//
// Tests of the C++ entry points that --wsgemm-specialize and the pipeline
// lowering use: building a warp_specialize with its builder, finding the role
// of a nested op, finding the pipeline_create behind a role's block argument,
// and the per-role accessors.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::wsgemm;

namespace {

class PipelineOpsTest : public ::testing::Test {
protected:
  PipelineOpsTest() {
    ctx.loadDialect<WsGemmDialect, func::FuncDialect, arith::ArithDialect>();
  }
  MLIRContext ctx;
};

TEST_F(PipelineOpsTest, BuildVerifyAndQuery) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, loc, "kernel", b.getFunctionType({}, {}));
  b.setInsertionPointToEnd(func.addEntryBlock());

  auto pipeType = PipelineType::get(&ctx, 4, Role::load, Role::mma);
  auto create = PipelineCreateOp::create(b, loc, pipeType, /*barriers=*/Value(),
                                         32768, 2, IntegerAttr());
  auto ws =
      WarpSpecializeOp::create(b, loc, ValueRange{create.getResult()},
                               {Role::load, Role::mma}, {1, 8}, {40, 232});
  func::ReturnOp::create(b, loc);

  // The builder made one region per role, arguments typed like the captures,
  // each ending in role_end.
  ASSERT_EQ(ws.getNumRegions(), 2u);
  Region *mma = ws.getRoleRegion(Role::mma);
  ASSERT_NE(mma, nullptr);
  Block &mmaBlock = mma->front();
  ASSERT_EQ(mmaBlock.getNumArguments(), 1u);
  EXPECT_EQ(mmaBlock.getArgument(0).getType(), pipeType);
  EXPECT_TRUE(isa<RoleEndOp>(mmaBlock.back()));
  EXPECT_EQ(ws.getRoleRegion(Role::epilogue_load), nullptr);
  EXPECT_EQ(ws.getNumWarps(Role::mma), 8);
  EXPECT_EQ(ws.getNumWarps(Role::epilogue_load), 0);
  EXPECT_EQ(ws.getNumRegs(Role::load), std::optional<int32_t>(40));

  // A consumer wait in the mma role, inside the role's block.
  b.setInsertionPoint(mmaBlock.getTerminator());
  auto state = PipelineStateInitOp::create(
      b, loc, PipelineStateType::get(&ctx, 4),
      PipelineAgentAttr::get(&ctx, PipelineAgent::consumer));
  auto wait = ConsumerWaitOp::create(b, loc, mmaBlock.getArgument(0), state);
  EXPECT_TRUE(succeeded(verify(*module)));

  EXPECT_EQ(WarpSpecializeOp::getEnclosingRole(wait), Role::mma);
  EXPECT_EQ(WarpSpecializeOp::getEnclosingRole(create), std::nullopt);
  EXPECT_EQ(PipelineCreateOp::lookup(wait.getPipeline()), create);
  EXPECT_EQ(PipelineCreateOp::lookup(create.getResult()), create);
  EXPECT_EQ(create.getTxBytes(), 32768u);
}

TEST_F(PipelineOpsTest, WaitInProducerRoleFailsToVerify) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto pipeType = PipelineType::get(&ctx, 2, Role::load, Role::mma);
  auto func =
      func::FuncOp::create(b, loc, "kernel", b.getFunctionType({pipeType}, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  auto ws = WarpSpecializeOp::create(b, loc, ValueRange{entry->getArgument(0)},
                                     {Role::load, Role::mma}, {1, 4}, {});
  func::ReturnOp::create(b, loc);
  Block &loadBlock = ws.getRoleRegion(Role::load)->front();
  b.setInsertionPoint(loadBlock.getTerminator());
  auto state = PipelineStateInitOp::create(
      b, loc, PipelineStateType::get(&ctx, 2),
      PipelineAgentAttr::get(&ctx, PipelineAgent::consumer));
  ConsumerWaitOp::create(b, loc, loadBlock.getArgument(0), state);

  // A function argument is not a pipeline_create.
  EXPECT_FALSE(PipelineCreateOp::lookup(loadBlock.getArgument(0)));

  ctx.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(verify(*module)));
}

TEST_F(PipelineOpsTest, TypeVerifiersRejectBadParameters) {
  ctx.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  auto emitFn = [&] { return emitError(UnknownLoc::get(&ctx)); };
  function_ref<InFlightDiagnostic()> emit = emitFn;
  EXPECT_FALSE(
      PipelineType::getChecked(emit, &ctx, int64_t{0}, Role::load, Role::mma));
  EXPECT_FALSE(
      PipelineType::getChecked(emit, &ctx, int64_t{2}, Role::mma, Role::mma));
  EXPECT_FALSE(StorePipelineType::getChecked(emit, &ctx, int64_t{0}));
  EXPECT_FALSE(PipelineStateType::getChecked(emit, &ctx, int64_t{-1}));
  EXPECT_TRUE(PipelineStateType::getChecked(emit, &ctx, int64_t{7}));
}

} // namespace
