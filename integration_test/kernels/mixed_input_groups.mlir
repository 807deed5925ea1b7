// Mixed-input GEMMs with scale groups of 32 and 64 along K (issue 29,
// docs/mixed-input.md; GPTQ's finer groups): a k-tile of 64 or 128 spans
// up to four groups, whose scale (and zero-point) rows the load warp
// stages together; the scales are [L][K / group][M] (extent [M, KG]).

// GPTQ int4 (ui4 zero points), group 32, bf16, decode 128x16x128 with
// split-K 4: four groups per k-tile.
wsgemm.gemm @mx_w4_g32_splitk4 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 32, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Symmetric int4, group 64, f16, batched pingpong 64x64x64 (one group per
// k-tile): bias per output channel, SiLU.
wsgemm.gemm @mx_w4_g64_pp_batched_f16 batched a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 64, zero = bias8>
    config #wsgemm.config<tile = [64, 64, 64], schedule = pingpong,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// int8, group 32, bf16, cooperative 256x32x128 with stream-K (two m64
// blocks per warpgroup, four groups per k-tile).
wsgemm.gemm @mx_w8_g32_streamk a(i8) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 32, zero = none>
    config #wsgemm.config<tile = [256, 32, 128], schedule = cooperative,
                          scheduler = stream_k, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// fp8 e4m3 weights, group 64, f16, warp_specialized 64x32x128.
wsgemm.gemm @mx_f8w_g64_ws_f16 a(f8E4M3FN) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 64, zero = none>
    config #wsgemm.config<tile = [64, 32, 128], schedule = warp_specialized,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Symmetric int4, group 64, f16, decode 128x16x64 with split-K 2: one
// group per k-tile, its scale applied to an f32 partial accumulator
// (scale_applied = accumulator) folded once per k-tile; bias per output
// channel, SiLU.
wsgemm.gemm @mx_w4_g64_acc_f16_silu a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 64, zero = bias8>
    config #wsgemm.config<tile = [128, 16, 64], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// GPTQ int4, group 128, bf16, the default family's 64-token member for
// 4096-row weights: 128x64x128 with split-K 4 (the scales on the weight:
// tile N 64).
wsgemm.gemm @mx_w4_t64_splitk4 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 64, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Groups of 64 in k-tiles of 256 (four a k-tile, scales on the weights;
// 16 k16 steps in 8 register slots), split-K 2.
wsgemm.gemm @mx_w4_g64_k256_splitk2 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 64, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 256], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched k-tiles of 256 with groups of 128 (two partials a k-tile; A and
// B one 4-D box each), f16: bias per output channel.
wsgemm.gemm @mx_w4_k256_batched_f16 batched a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 256], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// The default family's tiles of 128 and 192 tokens (FamilyMembers.cpp,
// tokens128_s2 / tokens192 / tokens192_s2), as the family builds them:
// D column-major (the tokens' outputs), direct stores.
wsgemm.gemm @mx_w4_t128_splitk2 a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 128, 128], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_w4_t192_splitk2 a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 192, 128], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @mx_w8_t192 a(i8) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 192, 128], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
