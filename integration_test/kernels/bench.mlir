// The kernels run-on-gpu.sh times against cuBLASLt: a plain GEMM and
// CUTLASS's LinCombPerRowBiasEltAct<ReLU> as an explicit EVT, the tree
// its preset expands to (two multiply_adds, fma.rn as nvcc contracts them),
//   D = relu(fma(beta, C, fma(alpha, acc, bias[m]))),
// in f16 and bf16, all with one config (128x256 cooperative, persistent,
// tile-scheduler swizzle 4: docs/perf-notes.md has the swizzle sweep);
// and the same four as pingpong 128x128 (swizzle 4), which wins where the
// epilogue is a large share (docs/perf-notes.md, "Pingpong").
// integration tests also check them for correctness (bench.test).

wsgemm.gemm @bench_plain_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_plain_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_lincomb_relu_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @bench_lincomb_relu_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @bench_pp_plain_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_pp_plain_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_pp_lincomb_relu_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @bench_pp_lincomb_relu_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

// fp8 (issue 11): e4m3 x e4m3 with f32 accumulation, 128x256x128
// cooperative (tile K is 128 bytes, as for 16-bit), swizzle 4: a plain
// GEMM to bf16, and cuBLASLt's fp8 epilogue with scales and amax,
//   D = e4m3(scale_d * ((alpha * scale_a * scale_b) * acc)), amax_d = max |.|
// before scale_d (ws-gemm-bench --compare cublaslt times cuBLASLt's fp8
// matmul with the same scale pointers); and the latter as pingpong. The
// products allow reassociation, as cuBLASLt computes them: each element is
// multiplied once, by alpha * scale_a * scale_b * scale_d, and the amax
// takes |acc| times |alpha * scale_a * scale_b| (docs/epi.md, "Uniform
// factors"); without fastmath<reassoc> the EVT is evaluated as written.

wsgemm.gemm @bench_f8_plain_bf16 a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_f8_scaled_amax_e4m3 a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sab = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %sd = epi.scalar ptr ["scale_d"] : f32
  %s = arith.mulf %alpha, %sab fastmath<reassoc> : f32
  %z = arith.mulf %s, %acc fastmath<reassoc> : f32
  epi.reduce_to_scalar absmax %z, "amax_d" : f32
  %d = arith.mulf %z, %sd fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @bench_f8_pp_scaled_amax_e4m3 a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 128, 128], schedule = pingpong,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sab = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %sd = epi.scalar ptr ["scale_d"] : f32
  %s = arith.mulf %alpha, %sab fastmath<reassoc> : f32
  %z = arith.mulf %s, %acc fastmath<reassoc> : f32
  epi.reduce_to_scalar absmax %z, "amax_d" : f32
  %d = arith.mulf %z, %sd fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}

// The plain fp8 GEMM with promoted accumulation every k-tile (DeepGEMM's
// recipe), 128x128x128 cooperative (two accumulators do not fit 128x256).
wsgemm.gemm @bench_f8_promoted_bf16 a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [128, 128, 128], schedule = cooperative,
                          swizzle = 4, promotion_interval = 1> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Block-wise scaling (DeepSeek-V3's recipe, DeepGEMM's kernel): the
// promoted GEMM above with the scales of A (per row per 128 of K) and B
// (per 128 x 128 block) applied at each k-tile's promotion.
wsgemm.gemm @bench_f8_block_bf16 a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [128, 128, 128], schedule = cooperative,
                          swizzle = 4, block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Split-K and stream-K variants of the four cooperative 128x256 kernels
// (docs/stream-k.md), for the shapes with a partial last wave or few tiles
// (4224x4224x4096, 1024x1024x16384, 2048x2048x32768, 3456x5120x4096).
// Stream-K's tile count is the runtime's choice per shape. The fused
// stream-K kernels use swizzle 1: with swizzle 4's tile decode beside the
// stream-K unit decode, ptxas spilled 16 bytes (4 registers) of their
// consumer warpgroups (measured with ws-gemm-compile).

wsgemm.gemm @bench_sk_plain_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4, scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_sk_plain_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4, scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_sk_lincomb_relu_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 1, scheduler = stream_k> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @bench_sk_lincomb_relu_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 1, scheduler = stream_k> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @bench_split4_plain_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4, split_k = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_split4_plain_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4, split_k = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_split4_lincomb_relu_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4, split_k = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @bench_split4_lincomb_relu_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4, split_k = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %z = math.fma %beta, %c, %scaled : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}
