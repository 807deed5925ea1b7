// wsgemm-fuzz-pipeline, 2026-11-23: MLIR 22's linalg.reduce parser sets a null
// attribute on a malformed `dimensions` list and crashes (mlir-opt too;
// llvm/llvm-project#132747). Our tools refuse such input before parsing
// (ws-gemm/Driver/ParseGuard.h); this seed keeps that honest in every fuzz
// smoke.
func.func @f(%a: tensor<4x4xf32>, %r: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce ins(%a : tensor<4x4xf32>) outs(%r : tensor<4xf32>) dimensions = [1=]
    (%x: f32, %y: f32) {
      %m = arith.addf %x, %y : f32
      linalg.yield %m : f32
    }
  return %0 : tensor<4xf32>
}
