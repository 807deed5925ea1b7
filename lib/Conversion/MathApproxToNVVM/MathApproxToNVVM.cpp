//===- MathApproxToNVVM.cpp - fastmath<afn> math to PTX approx ------------===//
//
// `fastmath<afn>` allows an approximate implementation of a function.
// Upstream's --convert-gpu-to-nvvm honours it for exp (__nv_fast_expf:
// ex2.approx.ftz of x * log2(e)) and LLVM's NVPTX backend for fdiv
// (div.approx / rcp.approx), but it lowers math.tanh to libdevice's
// __nv_tanhf either way: an ex2.approx, an rcp.approx and a dozen FP32
// instructions. PTX has tanh.approx.f32 (sm_75+, one MUFU instruction,
// relative error about 2^-11), which is what CUTLASS's fast_tanh executes;
// this pass selects it for f32 math.tanh with `afn` (as llvm.intr.tanh with
// `afn`, which NVPTX selects as tanh.approx.f32). It runs before
// --convert-gpu-to-nvvm; every other op is left alone.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/MathApproxToNVVM.h"
#include "ws-gemm/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
#define GEN_PASS_DEF_CONVERTMATHAPPROXTONVVM
#include "ws-gemm/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;

/// Whether this pass rewrites `op`: an f32 tanh that allows an approximate
/// function.
static bool hasApproxTanh(math::TanhOp op) {
  return op.getType().isF32() &&
         arith::bitEnumContainsAny(op.getFastmath(), arith::FastMathFlags::afn);
}

namespace {
/// math.tanh f32 fastmath<afn> -> tanh.approx.f32.
struct TanhToApprox : public OpConversionPattern<math::TanhOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(math::TanhOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasApproxTanh(op))
      return rewriter.notifyMatchFailure(op, "not an f32 tanh with afn");
    // LLVM 22 spells it llvm.tanh.f32 with `afn` (the nvvm.tanh.approx
    // intrinsic was folded into it); NVPTX selects tanh.approx.f32 for it.
    auto tanh = LLVM::TanhOp::create(rewriter, op.getLoc(), op.getType(),
                                     adaptor.getOperand(),
                                     LLVM::FastmathFlags::afn);
    rewriter.replaceOp(op, tanh.getResult());
    return success();
  }
};
} // namespace

void mlir::populateMathApproxToNVVMConversionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<TanhToApprox>(patterns.getContext());
}

namespace {
struct ConvertMathApproxToNVVMPass
    : public impl::ConvertMathApproxToNVVMBase<ConvertMathApproxToNVVMPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addDynamicallyLegalOp<math::TanhOp>(
        [](math::TanhOp op) { return !hasApproxTanh(op); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(context);
    populateMathApproxToNVVMConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
