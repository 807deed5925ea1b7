// REQUIRES: ptxas
// A kernel whose registers spill is never accepted silently: ws-gemm-compile
// assembles each kernel with ptxas -v and reports spills with the register
// count; --spills=error refuses the kernel (nothing written), the default
// warns and writes it, --spills=allow says nothing. (Generated EVT seed 89,
// integration_test/utils/gen_evt.py: cooperative 256x64 with a 9-op EVT,
// C and an aux matrix in 4 subtiles. With the planner's stages_c it no
// longer spills (RegisterBudget.cpp: 3 stages); the 4 C stages fixed here
// spill 16 bytes in the epilogue-load warp. When the lowering stops
// spilling on it, this test says so.)

// RUN: rm -rf %t
// RUN: not ws-gemm-compile %s -o %t/err --spills=error 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not ls %t/err/evt_89.json
// RUN: ws-gemm-compile %s -o %t/warn 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: test -s %t/warn/evt_89.cubin
// RUN: ws-gemm-compile %s -o %t/allow --spills=allow 2>&1 | count 0

// The report is a diagnostic at the kernel's wsgemm.gemm (the driver is a
// library now, shared with the C API, and reports nothing on stderr itself).
// ERROR: spills.mlir:24:1: error: kernel 'evt_89' spills registers to local memory ({{[0-9]+}} bytes stored, {{[0-9]+}} loaded; {{[0-9]+}} registers): {{.*}}a smaller stages_c fits
// WARN: spills.mlir:24:1: warning: kernel 'evt_89' spills registers to local memory

wsgemm.gemm @evt_89 batched a(f16) b(f16, n_major) c(f16) d(f32)
    config #wsgemm.config<tile = [256, 64, 64], schedule = cooperative, stages_c = 4> {
^bb0(%acc: f32):
  %v1 = epi.scalar param ["alpha"] : f32
  %v2 = math.fma %acc, %acc, %v1 : f32
  %v3 = epi.aux_load "auxin0" : bf16 -> f32
  %v4 = epi.load_vec_m "rowv0" : f16 -> f32
  %v5 = epi.load_src : f32
  %v6 = arith.subf %v4, %v5 : f32
  %v7 = arith.maximumf %v2, %v6 : f32
  %v8 = arith.addf %v7, %v3 : f32
  epi.store %v8 : f32
  epi.yield
}
