//===- WsGemmToNVVM.h - Lower the explicit level to nvgpu/NVVM --*- C++ -*-===//
//
// The pieces of --wsgemm-lower-pipelines, for compilers that run them in
// their own pipelines: the lowering of wsgemm.warp_specialize to a warp
// dispatch, and the type conversion and conversion patterns that turn
// pipelines, pipeline states and their ops into nvgpu mbarrier groups, TMA
// and NVVM bulk async-groups (as upstream's NVGPUToNVVM exposes its own).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_CONVERSION_WSGEMMTONVVM_H
#define WSGEMM_CONVERSION_WSGEMMTONVVM_H

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::wsgemm {

/// What the lowering of an op that uses a pipeline needs from the
/// wsgemm.pipeline_create that made it: stages, the bytes a stage expects
/// and the consumer arrivals that empty it.
struct PipelineInfo {
  int64_t stages = 0, txBytes = 0, arrivals = 0;
};
using PipelineInfoMap = DenseMap<Operation *, PipelineInfo>;

/// Records, for every producer_acquire / producer_commit / consumer_release
/// under `root`, its pipeline's creator information; fails with a
/// diagnostic on a pipeline no pipeline_create defines. Run it before
/// lowering warp_specialize (the lookup sees through role arguments).
LogicalResult collectPipelineInfo(Operation *root, PipelineInfoMap &infos);

/// Replaces `ws` by a CTA barrier and a dispatch on the warp index, with
/// setmaxnreg run by whole warpgroups, the role regions inlined.
void lowerWarpSpecialize(WarpSpecializeOp ws);

/// !wsgemm.pipeline<N> -> !nvgpu.mbarrier.group of 2N barriers,
/// !wsgemm.pipeline_state<N> -> three i32 (index, phase, count),
/// !wsgemm.store_pipeline<N> -> nothing.
void populateWsGemmPipelineTypeConversions(TypeConverter &converter);

/// The patterns lowering pipeline, state and store-pipeline ops with
/// `converter` (see populateWsGemmPipelineTypeConversions); `llvmConverter`
/// builds memref descriptors of shared-memory buffers for nvgpu's TMA ops;
/// `infos` comes from collectPipelineInfo. The ops they lower are added to
/// `target` as illegal.
void populateWsGemmPipelinesToNVGPUConversionPatterns(
    const TypeConverter &converter, const LLVMTypeConverter &llvmConverter,
    const PipelineInfoMap &infos, RewritePatternSet &patterns,
    ConversionTarget &target);

} // namespace mlir::wsgemm

#endif // WSGEMM_CONVERSION_WSGEMMTONVVM_H
