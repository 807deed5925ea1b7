// A heavy epilogue (40 ops: tanh, silu, mul and add on C) that the planner
// refuses at the default tile for its registers. Without a config the
// driver falls back to the first smaller config the planner accepts
// (defaultFallbacks, Family.cpp) and says so in a remark; its family keeps
// the members that plan, on that tile (its stream-K twin). With an explicit config it is
// refused as written: an explicit config is never changed.

// RUN: rm -rf %t
// RUN: ws-gemm-compile %s -o %t/one --emit=ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=TILE < %t/one/heavy_chain.json
// RUN: ws-gemm-compile %s -o %t/fam --emit=ptx --family=default 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: ls %t/fam/heavy_chain | FileCheck %s --check-prefix=DIRS
// RUN: sed -e 's/d(f16) {/d(f16) config #wsgemm.config<tile = [128, 128, 64]> {/' %s > %t/explicit.mlir
// RUN: not ws-gemm-compile %t/explicit.mlir -o %t/explicit --emit=ptx 2>&1 | FileCheck %s --check-prefix=EXPLICIT

// REMARK: heavy-epilogue.mlir:{{[0-9]+}}:1: remark: no config given and the planner refuses its default (the epilogue would spill registers: {{.*}}): compiled with #wsgemm.config<tile = [128, 64, 64]>
// TILE: "tile": [
// TILE-NEXT: 128,
// TILE-NEXT: 64,
// DIRS:      family.json
// DIRS-NEXT: v0.128x64x64.cooperative
// DIRS-NEXT: v2.128x64x64.cooperative.stream_k
// DIRS-NOT: v3
// EXPLICIT: error: the epilogue would spill registers
// EXPLICIT-NOT: remark

wsgemm.gemm @heavy_chain a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %t0 = epi.tanh %acc : f32
  %s0 = epi.silu %t0 : f32
  %m0 = arith.mulf %s0, %c : f32
  %a0 = arith.addf %m0, %acc : f32
  %t1 = epi.tanh %a0 : f32
  %s1 = epi.silu %t1 : f32
  %m1 = arith.mulf %s1, %c : f32
  %a1 = arith.addf %m1, %a0 : f32
  %t2 = epi.tanh %a1 : f32
  %s2 = epi.silu %t2 : f32
  %m2 = arith.mulf %s2, %c : f32
  %a2 = arith.addf %m2, %a1 : f32
  %t3 = epi.tanh %a2 : f32
  %s3 = epi.silu %t3 : f32
  %m3 = arith.mulf %s3, %c : f32
  %a3 = arith.addf %m3, %a2 : f32
  %t4 = epi.tanh %a3 : f32
  %s4 = epi.silu %t4 : f32
  %m4 = arith.mulf %s4, %c : f32
  %a4 = arith.addf %m4, %a3 : f32
  %t5 = epi.tanh %a4 : f32
  %s5 = epi.silu %t5 : f32
  %m5 = arith.mulf %s5, %c : f32
  %a5 = arith.addf %m5, %a4 : f32
  %t6 = epi.tanh %a5 : f32
  %s6 = epi.silu %t6 : f32
  %m6 = arith.mulf %s6, %c : f32
  %a6 = arith.addf %m6, %a5 : f32
  %t7 = epi.tanh %a6 : f32
  %s7 = epi.silu %t7 : f32
  %m7 = arith.mulf %s7, %c : f32
  %a7 = arith.addf %m7, %a6 : f32
  %t8 = epi.tanh %a7 : f32
  %s8 = epi.silu %t8 : f32
  %m8 = arith.mulf %s8, %c : f32
  %a8 = arith.addf %m8, %a7 : f32
  %t9 = epi.tanh %a8 : f32
  %s9 = epi.silu %t9 : f32
  %m9 = arith.mulf %s9, %c : f32
  %a9 = arith.addf %m9, %a8 : f32
  epi.store %a9 : f32
  epi.yield
}
