// CUTLASS's LinCombPerRowBiasEltAct<ReLU> written out as an explicit Epilogue
// Visitor Tree (what `epi.fusion LinCombPerRowBiasEltAct` stands for):
//
//   D = relu(alpha * acc + beta * C + bias[m])
//
// A and B are f16, the accumulator and all epilogue math f32, C and D f16, and
// the bias one f16 value per row m of D (CUTLASS: Sm90ColBroadcast). The
// arithmetic follows CUTLASS's tree, beta * C + (alpha * acc + bias).
// ReLU is written as max(z, 0) with arith.maximumf until the named
// activations lower; `epi.relu %z : f32` is the same node
// (integration_test/kernels/pending/gemm_relu_epi.mlir), and
// `epi.fusion LinCombPerRowBiasEltAct` the preset (pending/presets.mlir).
//
//   ws-gemm-opt --wsgemm-prepare examples/gemm_relu.mlir
//   ws-gemm-compile examples/gemm_relu.mlir -o out

wsgemm.gemm @gemm_bias_relu a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = arith.mulf %alpha, %acc : f32
  %biased = arith.addf %scaled, %bias : f32
  %beta_c = arith.mulf %beta, %c : f32
  %z = arith.addf %beta_c, %biased : f32
  %zero = arith.constant 0.0 : f32
  %d = arith.maximumf %z, %zero : f32
  epi.store %d : f32
  epi.yield
}
