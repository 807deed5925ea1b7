// Kernels built for two resident CTAs per SM (config ctas_per_sm = 2:
// .minnctapersm 2, 80 registers per thread at launch, setmaxnreg 40 / 96,
// stages in 113 KiB of shared memory; the runtime launches a persistent
// grid of two CTAs per SM). Each is checked on the GPU against the CPU
// reference (run/ctas2_*.test) and under the sanitizers
// (sanitizer-two-ctas.test): split-K and stream-K units of one tile on
// the two CTAs of one SM, and more units than resident CTAs.

// The mixed-input decode tile of the default family (FamilyMembers.cpp):
// GPTQ int4, split-K 4, bias per output channel and SiLU.
wsgemm.gemm @ctas2_w4_splitk4_silu a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct, ctas_per_sm = 2> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// int8 per channel, stream-K, f32 D.
wsgemm.gemm @ctas2_w8_streamk_f32 a(i8) b(bf16) d(f32)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          scheduler = stream_k, store = direct,
                          ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 16-bit: cooperative 128x64, split-K 2, alpha * acc + beta * C.
wsgemm.gemm @ctas2_f16_splitk2_lincomb a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 64, 64], split_k = 2,
                          ctas_per_sm = 2> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %a = arith.mulf %alpha, %acc : f32
  %b = arith.mulf %beta, %c : f32
  %r = arith.addf %a, %b : f32
  epi.store %r : f32
  epi.yield
}

// 16-bit pingpong 64x64 (two consumer warpgroups on two tiles), bf16,
// row sums beside D.
wsgemm.gemm @ctas2_bf16_pp_rowsum a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [64, 64, 64], schedule = pingpong,
                          ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.reduce_to_vec_m sum %acc, "row_sum" : f32
  epi.store %acc : f32
  epi.yield
}

// The default family's v11 (FamilyMembers.cpp, decode_stream_k2): GPTQ
// int4 decode 128x16, stream-K over two CTAs per SM, D m_major (Y as
// torch returns it), picked for weights of 132-264 tiles of 128 rows;
// with nn.Linear's bias (per output channel).
wsgemm.gemm @ctas2_w4_streamk_bias a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          scheduler = stream_k, store = direct,
                          ctas_per_sm = 2> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// The same with k-tiles of 256 (the family's v11 for a 4-bit weight with
// groups of 128): two groups per k-tile, each on its own f32 partial, B's
// four 64-K blocks in one box; with bias and SiLU.
wsgemm.gemm @ctas2_w4_streamk_k256 a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 256], schedule = cooperative,
                          scheduler = stream_k, store = direct,
                          ctas_per_sm = 2> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// The default family's v15 (FamilyMembers.cpp, decode_s2): GPTQ int4
// decode 128x16, split-K 2 over two CTAs per SM, D m_major, picked for
// weights of 48-128 tiles of 128 rows; with nn.Linear's bias.
wsgemm.gemm @ctas2_w4_splitk2_bias a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 2, store = direct, ctas_per_sm = 2> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
