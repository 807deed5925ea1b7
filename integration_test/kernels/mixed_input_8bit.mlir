// Mixed-input GEMMs with 8-bit weights (issue 29, docs/mixed-input.md): A
// is a pre-packed i8 or f8E4M3FN weight (N_out x K, wsgemm.b8.m64k64.v1),
// dequantized in registers into B's type (w = round(q * s)) and fed to
// wgmma's register-A form; B is the activations (tokens x K), D = Y^T.
// One scale per row (group 0, "per channel") or per 128 of K, f16 and
// bf16, every schedule, split-K and stream-K, batched, EVT epilogues.
// gen_run_tests.py runs them with M a multiple of 64, K of 128 and ragged
// N (tokens): 1, 7, 16, 100, 777.

// int8 per channel, bf16, decode 128x16x128 with split-K 4.
wsgemm.gemm @mx_w8_splitk4_bf16 a(i8) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// int8 with scales per 128 of K, f16, warp_specialized 64x32: bias per
// output channel and SiLU.
wsgemm.gemm @mx_w8_g128_ws_f16_silu a(i8) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = none>
    config #wsgemm.config<tile = [64, 32, 64], schedule = warp_specialized,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// int8 per channel, bf16, cooperative 256x64 (two m64 blocks per
// warpgroup): bias, SiLU and a residual C, TMA stores.
wsgemm.gemm @mx_w8_coop256_evt a(i8) b(bf16) c(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
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

// int8 per channel, f16, batched (L weights), pingpong 64x64x128.
wsgemm.gemm @mx_w8_pp_batched_f16 batched a(i8) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 0, zero = none>
    config #wsgemm.config<tile = [64, 64, 128], schedule = pingpong,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// fp8 e4m3 weights per channel, bf16, stream-K 128x32, f32 D.
wsgemm.gemm @mx_f8w_streamk_f32 a(f8E4M3FN) b(bf16) d(f32)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 32, 128], schedule = cooperative,
                          scheduler = stream_k, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// fp8 e4m3 weights with scales per 128 of K, f16 (the hardware
// conversion), cooperative 128x16, split-K 2.
wsgemm.gemm @mx_f8w_g128_f16 a(f8E4M3FN) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = none>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// fp8 e4m3 weights per channel, bf16, batched, cooperative 128x128x64 (the
// prefill tile), bias per output channel.
wsgemm.gemm @mx_f8w_batched_bias_bf16 batched a(f8E4M3FN) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// Benchmarked: decode 128x16x128 split-K 4 (int8 and fp8, per channel),
// and the compute-bound 128x256x64.
wsgemm.gemm @mx_bench_w8_n16 a(i8) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_bench_f8w_n16 a(f8E4M3FN) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_bench_w8_n256 a(i8) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// fp8 e4m3 weights into f16 with one scale per row (group 0): the
// conversion's cvt is each fragment register's last write (the scale
// multiplies the accumulators after the K loop), split-K 2, bias + SiLU.
wsgemm.gemm @mx_f8w_rowscale_f16 a(f8E4M3FN) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 32, 128], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}
