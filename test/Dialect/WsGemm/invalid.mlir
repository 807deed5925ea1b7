// RUN: ws-gemm-opt %s -split-input-file -verify-diagnostics

// One case per rule of the wsgemm.gemm verifier, its syntax and the
// #wsgemm.config attribute.

// expected-error @+1 {{A element type must be f16, bf16, f8E4M3FN or f8E5M2 because the mainloop issues wgmma on those with f32 accumulation, got 'f32'}}
wsgemm.gemm @a_f32 a(f32) b(f32) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{B element type must be f16, bf16, f8E4M3FN or f8E5M2 because the mainloop issues wgmma on those with f32 accumulation, got 'i8'}}
wsgemm.gemm @b_i8 a(f16) b(i8) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// fp8 x f16 has no wgmma (any pair of e4m3 and e5m2 has).
// expected-error @+1 {{A and B element types must be equal, or both 8-bit floats, because one wgmma reads both, got 'f16' and 'f8E4M3FN'}}
wsgemm.gemm @b_f8 a(f16) b(f8E4M3FN) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{A and B element types must be equal, or both 8-bit floats, because one wgmma reads both, got 'f16' and 'bf16'}}
wsgemm.gemm @mixed a(f16) b(bf16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{C element type must be f16, bf16, f32, f8E4M3FN or f8E5M2 because the epilogue loads it with TMA and converts it to f32, got 'i8'}}
wsgemm.gemm @c_i8 a(f16) b(f16) c(i8) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{D element type must be f16, bf16, f32, f8E4M3FN or f8E5M2 because the epilogue converts its f32 result to it and stores it with TMA, got 'f64'}}
wsgemm.gemm @d_f64 a(f16) b(f16) d(f64) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{A layout must be k_major or m_major because A is M x K, got n_major}}
wsgemm.gemm @a_n_major a(f16, n_major) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{B layout must be k_major or n_major because B is K x N, got m_major}}
wsgemm.gemm @b_m_major a(f16) b(f16, m_major) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{D layout must be n_major or m_major because D is M x N, got k_major}}
wsgemm.gemm @d_k_major a(f16) b(f16) d(f16, k_major) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{shape must be [M, N, K] because the gemm is not batched (add 'batched' for L), got 4 sizes}}
wsgemm.gemm @shape_rank a(f16) b(f16) d(f16) shape [128, 128, 64, 2] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{shape must be [M, N, K, L] because the gemm is batched, got 3 sizes}}
wsgemm.gemm @shape_rank_batched batched a(f16) b(f16) d(f16) shape [128, 128, 64] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{shape sizes must be positive and at most 281474976710656 (2^48), got [128, 0, 64]}}
wsgemm.gemm @shape_zero a(f16) b(f16) d(f16) shape [128, 0, 64] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{'wsgemm.smem_bytes' must be a positive i64 (the planned dynamic SMEM in bytes), got 0 : i64}}
wsgemm.gemm @smem_zero a(f16) b(f16) d(f16) attributes {wsgemm.smem_bytes = 0 : i64} {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{'wsgemm.smem_bytes' must be a positive i64 (the planned dynamic SMEM in bytes), got "big"}}
wsgemm.gemm @smem_string a(f16) b(f16) d(f16) attributes {wsgemm.smem_bytes = "big"} {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The epilogue region rules come from epi::verifyEpilogueRegion.
// expected-error @+1 {{epilogue region must have exactly one f32 block argument (the accumulator element)}}
wsgemm.gemm @bad_block_arg a(f16) b(f16) d(f16) {
^bb0(%acc: f16):
  epi.yield
}

// -----

// expected-error @+1 {{epilogue has no output: it needs an epi.store, epi.aux_store, a reduction or an epi.fusion preset}}
wsgemm.gemm @no_output a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.yield
}

// -----

// expected-error @+1 {{region with 1 blocks}}
wsgemm.gemm @empty_region a(f16) b(f16) d(f16) {
}

// -----

// Syntax: an unknown layout keyword.
// expected-error @+1 {{expected a layout (k_major, m_major or n_major), got 'row_major'}}
wsgemm.gemm @bad_layout a(f16, row_major) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Syntax: a config that is not a #wsgemm.config.
// expected-error @+1 {{expected a #wsgemm.config<...> attribute, got [1, 2]}}
wsgemm.gemm @bad_config a(f16) b(f16) d(f16) config [1, 2] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Config: an integer list with the wrong number of entries.
// expected-error @+1 {{config tile must have 3 entries (M, N, K), got 2}}
wsgemm.gemm @tile_arity a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 128]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config cluster must have 3 entries (M, N, K), got 1}}
wsgemm.gemm @cluster_arity a(f16) b(f16) d(f16) config #wsgemm.config<cluster = [1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config epi_tile must have 2 entries (M, N), got 3}}
wsgemm.gemm @epi_tile_arity a(f16) b(f16) d(f16) config #wsgemm.config<epi_tile = [64, 32, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config tile entries must be positive and at most 65536, got [128, -128, 64]}}
wsgemm.gemm @tile_negative a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, -128, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{shape sizes must be positive and at most 281474976710656 (2^48), got [1, 281474976710657, 1]}}
wsgemm.gemm @shape_huge a(f16) b(f16) d(f16) shape [1, 281474976710657, 1] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config epi_tile entries must be positive and at most 65536, got [65537, 32]}}
wsgemm.gemm @epi_tile_huge a(f16) b(f16) d(f16) config #wsgemm.config<epi_tile = [65537, 32]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config stages must be positive and at most 65536, got 0}}
wsgemm.gemm @stages_zero a(f16) b(f16) d(f16) config #wsgemm.config<stages = 0> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config consumer_regs must be positive and at most 65536, got -8}}
wsgemm.gemm @regs_negative a(f16) b(f16) d(f16) config #wsgemm.config<consumer_regs = -8> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+2 {{expected a non-empty list of integers}}
// expected-error @+1 {{failed to parse WsGemm_ConfigAttr parameter 'tile'}}
wsgemm.gemm @empty_list a(f16) b(f16) d(f16) config #wsgemm.config<tile = []> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+2 {{expected one of warp_specialized, cooperative, pingpong, multistage, got 'stream_k'}}
// expected-error @+1 {{failed to parse WsGemm_ConfigAttr parameter 'schedule'}}
wsgemm.gemm @bad_schedule a(f16) b(f16) d(f16) config #wsgemm.config<schedule = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+2 {{expected one of along_m, along_n, heuristic, got 'diagonal'}}
// expected-error @+1 {{failed to parse WsGemm_ConfigAttr parameter 'raster'}}
wsgemm.gemm @bad_raster a(f16) b(f16) d(f16) config #wsgemm.config<raster = diagonal> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+2 {{expected true or false, got 'yes'}}
// expected-error @+1 {{failed to parse WsGemm_ConfigAttr parameter 'persistent'}}
wsgemm.gemm @bad_bool a(f16) b(f16) d(f16) config #wsgemm.config<persistent = yes> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: stages}}
wsgemm.gemm @duplicate_knob a(f16) b(f16) d(f16) config #wsgemm.config<stages = 3, stages = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: warps}}
wsgemm.gemm @unknown_knob a(f16) b(f16) d(f16) config #wsgemm.config<warps = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config promotion_interval must be 0 (fast accumulation) or a number of k-tiles in [1, 65536], got -1}}
wsgemm.gemm @promotion_negative a(f8E4M3FN) b(f8E4M3FN) d(f16) config #wsgemm.config<promotion_interval = -1> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config split_k must be in [1, 64] (K splits per output tile), got 65}}
wsgemm.gemm @split_k_huge a(f16) b(f16) d(f16) config #wsgemm.config<split_k = 65> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config split_k must be positive and at most 65536, got 0}}
wsgemm.gemm @split_k_zero a(f16) b(f16) d(f16) config #wsgemm.config<split_k = 0> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config split_k = 2 and scheduler = stream_k exclude each other: stream-K splits K ranges itself}}
wsgemm.gemm @split_and_stream a(f16) b(f16) d(f16) config #wsgemm.config<split_k = 2, scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+2 {{expected one of data_parallel, stream_k, got 'split_k'}}
// expected-error @+1 {{failed to parse}}
wsgemm.gemm @scheduler_unknown a(f16) b(f16) d(f16) config #wsgemm.config<scheduler = split_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config align_a needs load_a = cp_async (TMA needs 16-byte alignment)}}
wsgemm.gemm @align_without_cp_async a(f16) b(f16) d(f16) config #wsgemm.config<align_a = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config align_b must be 2, 4, 8 or 16 bytes (the cp.async copy width), got 32}}
wsgemm.gemm @align_too_wide a(f16) b(f16) d(f16) config #wsgemm.config<load_b = cp_async, align_b = 32> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+2 {{expected one of tma, cp_async, got 'ldg'}}
// expected-error @+1 {{failed to parse WsGemm_ConfigAttr parameter 'load_a'}}
wsgemm.gemm @bad_load a(f16) b(f16) d(f16) config #wsgemm.config<load_a = ldg> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config align_c needs load_c = cp_async (TMA needs 16-byte alignment)}}
wsgemm.gemm @align_c_without_cp_async a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<align_c = 4> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// expected-error @+1 {{config align_c must be 2, 4, 8 or 16 bytes (the cp.async copy width), got 3}}
wsgemm.gemm @align_c_odd a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<load_c = cp_async, align_c = 3> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// expected-error @+1 {{config ctas_per_sm must be 1 or 2 (CTAs resident per SM, each with that share of its shared memory and registers), got 3}}
wsgemm.gemm @ctas_per_sm_3 a(f16) b(f16) d(f16) config #wsgemm.config<ctas_per_sm = 3> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{config warp_columns must be 1, 2 or 4 (a consumer warpgroup's warps along N), got 3}}
wsgemm.gemm @warp_columns_3 a(f16) b(f16) d(f16) config #wsgemm.config<warp_columns = 3> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
