// REQUIRES: ptxas
// The C API with cubins (ptxas from the configured CUDA, as ws-gemm-compile):
// the cubin is an ELF image and comes with no diagnostics.
// RUN: ws-gemm-capi-test compile-all %examples/gemm_relu.mlir | FileCheck %s

// CHECK: succeeded: 1
// CHECK-NEXT: kernel gemm_bias_relu: manifest {{[0-9]+}} bytes, names it; ptx {{[0-9]+}} bytes, wgmma yes; cubin {{[1-9][0-9]*}} bytes (ELF)
// CHECK-NEXT: diagnostics: 0
