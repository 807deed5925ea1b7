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

// The launch path's kernel kinds (python/torch_launch.py): CUDA-graph
// capture and the custom op under torch.compile.
// RMSNorm statistics after a residual add: D = acc + C, and the per-row
// sum of squares of D (a reduction), bf16, no config.
wsgemm.gemm @py_residual_rowsumsq_bf16 a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  %sq = arith.mulf %z, %z : f32
  epi.reduce_to_vec_m sum %sq, "rowsumsq" : f32
  epi.store %z : f32
  epi.yield
}

// Split-K 3 (a workspace), bias along N, f16.
wsgemm.gemm @py_splitk_bias_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          split_k = 3> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// Stream-K with C scaled by beta, bf16.
wsgemm.gemm @py_streamk_lincomb_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %y = arith.mulf %beta, %c : f32
  %r = arith.addf %acc, %y : f32
  epi.store %r : f32
  epi.yield
}

// A 2x1 cluster (TMA multicast of B), GELU, bf16.
wsgemm.gemm @py_cluster21_gelu_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  %d = epi.gelu %acc : f32
  epi.store %d : f32
  epi.yield
}

// Mixed input (docs/mixed-input.md): a pre-packed GPTQ int4 weight as A
// (torch.uint8, M x K/2 from ws_gemm.prepack_i4), bf16 activations as B,
// a per-output-channel bias, decode tiling with stream-K.
wsgemm.gemm @py_w4_decode_bias_bf16 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 64], schedule = cooperative,
                          scheduler = stream_k, store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
