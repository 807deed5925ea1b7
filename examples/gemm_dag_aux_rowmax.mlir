// An epilogue DAG (not a tree: %z feeds three consumers) with an auxiliary
// output and a row reduction:
//
//   z       = alpha * acc + bias[m]
//   pre     = z                        (aux store, f16: kept for backward)
//   D       = relu(z) + residual       (f16)
//   rowmax  = max over n of relu(z)    (one f32 per row m)
//
// The residual is an f16 M x N auxiliary input.
//
//   ws-gemm-compile examples/gemm_dag_aux_rowmax.mlir -o out

wsgemm.gemm @gemm_dag_aux_rowmax a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %res = epi.aux_load "residual" : f16 -> f32
  %scaled = arith.mulf %alpha, %acc : f32
  %z = arith.addf %scaled, %bias : f32
  epi.aux_store %z, "pre" : f32 -> f16
  %zero = arith.constant 0.0 : f32
  %act = arith.maximumf %z, %zero : f32
  epi.reduce_to_vec_m max %act, "rowmax" : f32
  %d = arith.addf %act, %res : f32
  epi.store %d : f32
  epi.yield
}
