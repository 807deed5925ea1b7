// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=all
// RUN: FileCheck %s --input-file=%t/bias_relu.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/bias_relu.json
// RUN: %ptxas -arch=sm_90a -v %t/bias_relu.ptx -o %t/check.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: test -s %t/bias_relu.cubin

// CHECK: .target sm_90a
// CHECK: .entry bias_relu(
// CHECK: .param .align 64 .b8 bias_relu_param_0[128]
// CHECK: .maxntid 384, 1, 1
// CHECK-DAG: mbarrier.init.shared.b64
// CHECK-DAG: elect.sync
// CHECK-DAG: mbarrier.try_wait.parity.shared.b64
// CHECK-DAG: mbarrier.arrive.expect_tx.shared.b64
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: wgmma.fence.sync.aligned
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK-DAG: wgmma.commit_group.sync.aligned
// CHECK-DAG: wgmma.wait_group.sync.aligned 1
// The EVT: alpha * acc and beta * C (no contraction into fma), the sums,
// C and the bias widened from f16, relu as a NaN-propagating max, and D
// packed to f16x2 with round-to-nearest-even.
// CHECK-DAG: mul.rn.f32
// CHECK-DAG: add.rn.f32
// CHECK-DAG: cvt.f32.f16
// CHECK-DAG: max.NaN.f32
// CHECK-DAG: cvt.rn.f16x2.f32
// CHECK-DAG: stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: fence.proxy.async.shared::cta
// CHECK-DAG: bar.sync{{[[:space:]]+}}{{%r[0-9]+|[1-9]}}, 128;
// CHECK-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-DAG: cp.async.bulk.commit_group
// The planner picks ReuseSmemC with StagesC = 4 here: before D overwrites
// a C buffer, the store that last read it (4 subtiles ago) must be done.
// CHECK-DAG: cp.async.bulk.wait_group.read{{[[:space:]]+}}3;
// CHECK-DAG: cp.async.bulk.wait_group{{[[:space:]]+}}0;

// MANIFEST: "kernel": "bias_relu"
// MANIFEST: "smem_bytes":

// PTXAS: Compiling entry function 'bias_relu' for 'sm_90a'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

wsgemm.gemm @bias_relu a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %x = arith.mulf %acc, %alpha : f32
  %y = arith.mulf %c, %beta : f32
  %z = arith.addf %x, %y : f32
  %w = arith.addf %z, %bias : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %w, %zero : f32
  epi.store %r : f32
  epi.yield
}
