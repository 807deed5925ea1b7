// RUN: ws-gemm-opt %s --pass-pipeline='builtin.module(func.func(wsgemm-lower-pipelines))' | FileCheck %s

// Run on a function, a pipeline without storage still lowers: it becomes
// nvgpu.mbarrier.create, whose global convert-nvgpu-to-nvvm places later.
// CHECK-LABEL: func.func @nested()
// CHECK: %[[G:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: nvgpu.mbarrier.init %[[G]][%c0], %c1
// CHECK: nvgpu.mbarrier.init %[[G]][%c2], %c1
// CHECK-NOT: wsgemm.
func.func @nested() {
  %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  return
}
