// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --input-file=%t/evt_nodes.ptx
// RUN: FileCheck %s --check-prefix=PAIRS --input-file=%t/evt_nodes.ptx
// RUN: %ptxas -arch=sm_90a -v %t/evt_nodes.ptx -o %t/evt_nodes.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// What each EVT node kind becomes in PTX, on one kernel that uses them all.

// Register budgets of the cooperative schedule: producer 40, consumers 232.
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// epi.scalar ptr [scale_a, scale_b]: two f32 loads from device memory.
// CHECK-DAG: ld.global.b32
// epi.load_src skip_if_zero "beta": C is read only when beta != 0.
// CHECK-DAG: setp.neu.f32
// C and the aux matrix arrive by TMA on the epilogue barrier ring and are
// read from shared memory, four 8x8 matrices per ldmatrix (no per-element
// ld.shared); the column bias is a bf16 global load.
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PAIRS-NOT: ld.shared.b16
// CHECK-DAG: ld.global.b16
// CHECK-DAG: cvt.f32.bf16
// epi.aux_store: staged in shared memory, stored by TMA with D.
// CHECK-DAG: st.shared.b16
// CHECK-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// Reductions: butterfly shuffles, then f32 add atomics (sum), integer
// max/min atomics on the float bits (max, absmax).
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-DAG: atom.global.add.f32
// CHECK-DAG: atom.global.max.s32
// CHECK-DAG: atom.global.min.u32
// CHECK-DAG: atom.global.max.u32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

wsgemm.gemm @evt_nodes a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %beta = epi.scalar param ["beta"] : f32
  %vn = epi.load_vec_n "colbias" : bf16 -> f32
  %res = epi.aux_load "res" : f16 -> f32
  %x = arith.mulf %acc, %alpha : f32
  %bc = arith.mulf %c, %beta : f32
  %y = arith.addf %x, %bc : f32
  %z = arith.addf %y, %vn : f32
  %w = arith.addf %z, %res : f32
  epi.aux_store %w, "pre" : f32 -> bf16
  %g = epi.gelu %w : f32
  epi.reduce_to_vec_m max %g, "rowmax" : f32
  epi.reduce_to_vec_n sum %g, "colsum" : f32
  epi.reduce_to_scalar absmax %g, "amax" : f32
  epi.store %g : f32
  epi.yield
}
