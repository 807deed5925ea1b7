// CUTLASS's LinCombPerRowBiasEltAct<ReLU> as a preset: the same kernel as
// examples/gemm_relu.mlir, D = relu(alpha * acc + beta * C + bias[m]).
// --epi-expand-presets rewrites the epi.fusion into that EVT (with C read
// only when beta != 0, as CUTLASS does).
//
//   build/bin/ws-gemm-opt --epi-expand-presets examples/gemm_relu_preset.mlir
//   build/bin/ws-gemm-compile examples/gemm_relu_preset.mlir -o out

wsgemm.gemm @gemm_bias_relu_preset a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<relu>
      bias f16 : f32
  epi.yield
}
