// Failures are diagnostics with a location and a non-zero exit, and leave
// no output behind.

// RUN: rm -rf %t && split-file %s %t
// RUN: not ws-gemm-compile %t/smem.mlir -o %t/out1 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not ls %t/out1/too_big.json
// RUN: not ws-gemm-compile %t/empty.mlir -o %t/out2 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not ws-gemm-compile %t/gelu.mlir -o %t/out3 --emit=ptx --cuda-path=%t/no-cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not ls %t/out3/gelu.ptx
// RUN: not ws-gemm-compile %t/syntax.mlir -o %t/out4 2>&1 | FileCheck %s --check-prefix=SYNTAX

// SMEM: smem.mlir:1:1: error: needs 377968 bytes of shared memory, 232448 available: over by 145520; try stages = 4 or a smaller tile
// EMPTY: defines no wsgemm.gemm kernel
// CUDA: error: CUDA path: {{.*}}no-cuda does not exist or is not a directory
// SYNTAX: syntax.mlir:2:12: error: expected SSA operand

//--- smem.mlir
wsgemm.gemm @too_big a(f16) b(f16) d(f32) config #wsgemm.config<tile = [128, 256, 64], stages = 7> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- empty.mlir
func.func @nothing() {
  return
}

//--- gelu.mlir
wsgemm.gemm @gelu a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %g = epi.gelu %acc : f32
  epi.store %g : f32
  epi.yield
}

//--- syntax.mlir
wsgemm.gemm @broken a(f16) b(f16) d(f16) {
  epi.store : f32
}
