// Mixed-input GEMMs (issue 29, docs/mixed-input.md): A is a pre-packed i4
// weight (N_out x K), dequantized in registers into B's type and fed to
// wgmma's register-A form; B is the activations (tokens x K), D = Y^T
// (weight rows x tokens). GPTQ/AWQ-style zero points (ui4) and symmetric
// int4 (bias8), group 128, f16 and bf16, every schedule, split-K and
// stream-K, batched, EVT epilogues (bias per output channel, SiLU, C).
// gen_run_tests.py runs them with M a multiple of 64, K of 128 and ragged
// N (tokens): 1, 7, 16, 100, 777.

// GPTQ int4, bf16, cooperative 128x16 (decode tile), plain store.
wsgemm.gemm @mx_w4_coop_bf16 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Symmetric int4 (bias8), f16, warp_specialized 64x32: bias per output
// channel (load_vec_m) and SiLU.
wsgemm.gemm @mx_w4_b8_ws_f16_silu a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = bias8>
    config #wsgemm.config<tile = [64, 32, 64], schedule = warp_specialized,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// GPTQ int4, bf16, cooperative 256x64 (two m64 blocks per warpgroup):
// bias, SiLU and a residual C, TMA stores.
wsgemm.gemm @mx_w4_coop256_evt a(i4) b(bf16) c(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [256, 64, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  %c = epi.load_src : f32
  %r = arith.addf %s, %c : f32
  epi.store %r : f32
  epi.yield
}

// Pingpong 64x64, bf16, GPTQ int4; k-tiles of 128 (two packed units, B
// in two 64-K boxes per stage).
wsgemm.gemm @mx_w4_pp_bf16 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [64, 64, 128], schedule = pingpong,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Decode with split-K: 4 splits of K per 128x16 tile, k-tiles of 128.
wsgemm.gemm @mx_w4_splitk4 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Stream-K, cooperative 128x32, f32 D.
wsgemm.gemm @mx_w4_streamk_f32 a(i4) b(bf16) d(f32)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 32, 64], schedule = cooperative,
                          scheduler = stream_k, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched (L weights), bias8, bf16.
wsgemm.gemm @mx_w4_batched batched a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = bias8>
    config #wsgemm.config<tile = [128, 32, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Benchmarked (integration_test/utils/mixed_input_bench.sh): decode
// 128x16x128 with split-K 4, prefill 128x128 and compute-bound 128x256.
wsgemm.gemm @mx_bench_w4_n16 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_bench_w4_n128 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_bench_w4_n256 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Benchmarked decode variants: 256x16x128 tiles (two m64 blocks per consumer
// warpgroup: half the k-tile iterations per weight byte) and
// warp_specialized 64-row tiles (twice the CTAs of 128-row ones).
wsgemm.gemm @mx_bench_w4_m256_n16 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [256, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_bench_w4_ws64_n16 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [64, 16, 64], schedule = warp_specialized,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// GPTQ int4 (ui4 zero points) with f16 activations: each word's high
// nibbles (1024 + 16 q under f16's magic) times 1/16 plus -(64 + z) by one
// fma. Decode 128x16x128 split-K 4 (the scales on the accumulator) and
// 128x64x128 split-K 2 (on the weight).
wsgemm.gemm @mx_w4_ui4_f16_splitk4 a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_w4_ui4_f16_t64 a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 64, 128], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
