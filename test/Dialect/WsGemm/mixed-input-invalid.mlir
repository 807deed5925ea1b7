// RUN: ws-gemm-opt %s -split-input-file --wsgemm-plan -verify-diagnostics

// The refusals of a mixed-input gemm (docs/mixed-input.md): the op
// verifier's structural rules, then --wsgemm-plan's (LegalityMixedInput.cpp).

// expected-error @+1 {{B element type must not be quantized, got 'i4': only A is dequantized on load (wgmma takes only A from registers); swap the operands (D^T = B^T A^T)}}
wsgemm.gemm @quantized_b a(i4) b(i4) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{A element type 'i4' is quantized, so the gemm needs dequant_a #wsgemm.dequant<...> (how it becomes B's type)}}
wsgemm.gemm @no_dequant a(i4) b(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{dequant_a needs a quantized A element type (i4, i8 or f8E4M3FN), got 'bf16'}}
wsgemm.gemm @dequant_16bit a(bf16) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{B element type must be f16 or bf16 when A is quantized (the MMA runs in B's type), got 'f8E4M3FN'}}
wsgemm.gemm @fp8_b a(i4) b(f8E4M3FN) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{dequant_a scale must be B's element type 'bf16', got 'f16'}}
wsgemm.gemm @scale_type a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{i4 A holds unsigned 4-bit values: dequant_a needs zero = ui4 or bias8, got none}}
wsgemm.gemm @i4_no_zero a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = none> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @scale_f32 a(i4) b(bf16) d(bf16)
    // expected-error @+1 {{dequant scale must be f16 or bf16 (the MMA type the weight is dequantized into), got 'f32'}}
    dequant_a #wsgemm.dequant<scale = f32, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{dequant_a group = 48 is not supported: the lowering takes group = 32, 64 or 128 (GPTQ/AWQ's: scales [M, K / group]) for an i4 A (docs/mixed-input.md)}}
wsgemm.gemm @group_48 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 48, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// An i8 weight takes one scale per row (group 0) or groups of 32, 64, 128.
// expected-error @+1 {{dequant_a group = 16 is not supported: the lowering takes group = 32, 64 or 128 (GPTQ/AWQ's: scales [M, K / group]) or 0 (one scale per row, [M]) for an i8 A (docs/mixed-input.md)}}
wsgemm.gemm @int8_group_16 a(i8) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 16, zero = none> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// i4 group 0 (per row) is not lowered: GPTQ/AWQ weights come in groups.
// expected-error @+1 {{i4 A needs dequant_a group > 0 (a scale per group of K per row)}}
wsgemm.gemm @int4_per_row a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = bias8> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{zero = bias8 is for an i4 A (unsigned 4-bit values); an 'i8' A is signed and takes zero = none}}
wsgemm.gemm @int8_bias8 a(i8) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = bias8> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{zero = ui4 is for an i4 A (unsigned 4-bit values); an 'f8E4M3FN' A is signed and takes zero = none}}
wsgemm.gemm @fp8_ui4 a(f8E4M3FN) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// e5m2 weights are not dequantized (only e4m3: wgmma reads e5m2 as such).
// expected-error @+1 {{dequant_a needs a quantized A element type (i4, i8 or f8E4M3FN), got 'f8E5M2'}}
wsgemm.gemm @fp8_e5m2 a(f8E5M2) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{K = 96 must be a multiple of 64 for an f8e4m3 A: the pre-packed weight comes in units of 64 of K}}
wsgemm.gemm @fp8_static_k a(f8E4M3FN) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    shape [128, 16, 96] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{tile K = 192 must be 64, 128 or 256 for an i4 A: a k-tile is one, two or four pre-packed units of 64 rows x 64 K (2048 bytes) per 64 rows}}
wsgemm.gemm @tile_k a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 64, 192]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{a mixed-input GEMM needs k_major A and B: the pre-packed A is K-major by construction, and B (the activations, tokens x K) is read K-major}}
wsgemm.gemm @b_nmajor a(i4) b(bf16, n_major) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{cluster = [2, 1, 1] is not supported with dequant_a: the pre-packed A is not multicast (use [1, 1, 1])}}
wsgemm.gemm @cluster a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{load_a / load_b = cp_async is not supported with dequant_a: the pre-packed A and B are loaded by TMA}}
wsgemm.gemm @cp_async a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<load_b = cp_async> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{load_c = cp_async is not implemented with dequant_a (its C and aux loads are TMA boxes: pass them with 16-byte aligned rows)}}
wsgemm.gemm @cp_async_c a(i4) b(bf16) c(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<load_c = cp_async> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// expected-error @+1 {{M = 100 must be a multiple of 64 for an i4 A: the pre-packed weight comes in units of 64 rows}}
wsgemm.gemm @static_m a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    shape [100, 16, 256] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{K = 192 must be a multiple of group = 128: every group has its scale}}
wsgemm.gemm @static_k a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    shape [128, 16, 192] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
