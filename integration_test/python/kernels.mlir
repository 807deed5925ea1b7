// Kernels of the Python package's GPU test (integration_test/
// python-torch.test, python/torch_gemm.py), compiled at build time into
// <build>/integration_test/kernels/python/ and staged with the suite. The
// test compares each with torch.matmul + the same epilogue in torch.

// nn.Linear + ReLU: relu(x @ W^T + b), W stored N x K (B k_major, as
// nn.Linear keeps its weight), bias along N. f16.
wsgemm.gemm @py_linear_relu_f16 a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

// CUTLASS's LinearCombination in bf16 (torch reaches bf16 through DLPack
// only): alpha * A @ B + beta * C, B stored K x N (n_major).
wsgemm.gemm @py_lincomb_bf16 a(bf16) b(bf16, n_major) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %r = arith.addf %x, %y : f32
  epi.store %r : f32
  epi.yield
}

// Batched, with a per-row bias per batch and an f32 D: torch.bmm.
wsgemm.gemm @py_batched_rowbias_f32 batched a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "rowbias" : f32 -> f32
  %r = arith.addf %acc, %bias : f32
  epi.store %r : f32
  epi.yield
}
