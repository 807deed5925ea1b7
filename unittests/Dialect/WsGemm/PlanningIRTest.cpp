//===- PlanningIRTest.cpp - wsgemm.gemm builder, helpers and plan pass ----===//
//
// Builds wsgemm.gemm ops from C++ (as front ends such as wsgemm-from-linalg
// do), checks the op's helpers, and runs --wsgemm-plan through a pass manager
// to check what it writes back.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::wsgemm;

namespace {

class PlanningIRTest : public ::testing::Test {
protected:
  PlanningIRTest() {
    context.loadDialect<WsGemmDialect, epi::EpiDialect, arith::ArithDialect,
                        math::MathDialect>();
    module = ModuleOp::create(UnknownLoc::get(&context));
  }

  /// A gemm whose epilogue stores the accumulator (and reads C when given).
  GemmOp buildGemm(StringRef name, Type cType, ConfigAttr config = {}) {
    OpBuilder builder(&context);
    builder.setInsertionPointToEnd(module->getBody());
    Location loc = builder.getUnknownLoc();
    Type f16 = builder.getF16Type();
    auto gemm =
        GemmOp::create(builder, loc, name, f16, f16, cType, f16, config);
    Block &body = gemm.getEpilogue().front();
    builder.setInsertionPointToStart(&body);
    Value value = body.getArgument(0);
    if (cType) {
      Value c = epi::LoadSrcOp::create(builder, loc, builder.getF32Type());
      value = arith::AddFOp::create(builder, loc, value, c);
    }
    epi::StoreOp::create(builder, loc, value);
    epi::YieldOp::create(builder, loc);
    return gemm;
  }

  LogicalResult plan() {
    PassManager pm(&context);
    pm.addPass(createWsGemmPlan());
    return pm.run(*module);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(PlanningIRTest, BuilderMakesAVerifiedGemm) {
  GemmOp gemm = buildGemm("g", /*cType=*/{});
  ASSERT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(gemm.getSymName(), "g");
  EXPECT_FALSE(gemm.hasC());
  EXPECT_FALSE(gemm.getCElementType());
  EXPECT_EQ(gemm.getALayout(), Major::k_major);
  EXPECT_EQ(gemm.getBLayout(), Major::k_major);
  EXPECT_FALSE(gemm.isBatched());
  EXPECT_FALSE(gemm.hasStaticShape());
  EXPECT_FALSE(gemm.getStaticL());
  EXPECT_FALSE(gemm.getPlannedSmemBytes());
  EXPECT_FALSE(gemm.getConfigOrEmpty().isComplete());
}

TEST_F(PlanningIRTest, StaticShapeHelpers) {
  GemmOp gemm = buildGemm("g", {});
  Builder b(&context);
  gemm.setShapeAttr(b.getDenseI64ArrayAttr({512, 256, 128}));
  EXPECT_EQ(gemm.getStaticM(), 512);
  EXPECT_EQ(gemm.getStaticN(), 256);
  EXPECT_EQ(gemm.getStaticK(), 128);
  EXPECT_EQ(gemm.getStaticL(), 1); // not batched
  gemm.setBatched(true);
  gemm.setShapeAttr(b.getDenseI64ArrayAttr({512, 256, 128, 7}));
  EXPECT_EQ(gemm.getStaticL(), 7);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(PlanningIRTest, PlanWritesConfigAndSmem) {
  // 128x128x64 cooperative f16 without C: 6 stages, 214112 bytes (see
  // PlanningTest.cpp, PlanningSmem.BasicItems).
  GemmOp basic = buildGemm("basic", {});
  // With an f16 C: reuse_smem_c, C 4 x 128x32 x 2 B = 32768 + barriers 64
  // + 1024 base alignment; stages = (232448 - 33856) / 32800 = 6;
  // 6*32768 + 33856 + 96 = 230560.
  GemmOp withC = buildGemm("with_c", Float16Type::get(&context));
  ASSERT_TRUE(succeeded(plan()));

  EXPECT_EQ(basic.getPlannedSmemBytes(), 214112);
  ConfigAttr config = basic.getConfigAttr();
  ASSERT_TRUE(config);
  EXPECT_TRUE(config.isComplete());
  EXPECT_EQ(config.getStages(), 6);
  EXPECT_EQ(config.getSchedule(), Schedule::cooperative);
  EXPECT_EQ(config.getEpiTile(), ArrayRef<int64_t>({128, 32}));

  EXPECT_EQ(withC.getPlannedSmemBytes(), 230560);
  EXPECT_EQ(withC.getConfigAttr().getReuseSmemC(), true);
  EXPECT_EQ(withC.getConfigAttr().getStagesC(), 4);
}

TEST_F(PlanningIRTest, PlanFailureLeavesOpUnchanged) {
  ConfigAttr bad =
      ConfigAttr::get(&context, /*tile=*/{128, 128, 32}, {}, {}, {}, {}, {}, {},
                      {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                      {}, {}, {}, {}, {}, {}, {}, {}, {});
  GemmOp gemm = buildGemm("bad", {}, bad);
  // Keep the diagnostics (tile K = 32) out of the test output.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(plan()));
  EXPECT_EQ(gemm.getConfigAttr(), bad);
  EXPECT_FALSE(gemm.getPlannedSmemBytes());
}

} // namespace
