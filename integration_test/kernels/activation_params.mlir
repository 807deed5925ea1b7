// Activation parameters given at launch (issue 31, part 2): clamp's
// bounds, leaky_relu's alpha, threshold_relu's threshold and upper bound
// as `epi.scalar param` (and one `ptr`) operands, and presets whose
// #epi.activation names #epi.scalar<param "..."> parameters. Each becomes
// a scalar (scalar_pointer) parameter of the manifest; ws-gemm-run sets
// it with --scalar and its reference evaluates the formula with that
// value. The run/ap_*.test files run each kernel at several values, some
// inside the data's range (so the parameter decides the result).

// Both bounds at launch, bf16, planner defaults (cooperative).
wsgemm.gemm @ap_clamp_bf16 a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %lo = epi.scalar param ["lower"] : f32
  %hi = epi.scalar param ["upper"] : f32
  %r = epi.clamp %acc lower %lo upper %hi : f32
  epi.store %r : f32
  epi.yield
}

// A constant lower bound and an upper bound read from device memory, after
// alpha * acc + C, warp_specialized.
wsgemm.gemm @ap_clamp_ptr_c_ws a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %c = epi.load_src : f32
  %z = math.fma %alpha, %acc, %c : f32
  %hi = epi.scalar ptr ["clamp_upper"] : f32
  %r = epi.clamp %z lower 0.0 upper %hi : f32
  epi.store %r : f32
  epi.yield
}

// alpha at launch after a per-column bias, N-major B, f16.
wsgemm.gemm @ap_leaky_relu_f16 a(f16) b(f16, n_major) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %slope = epi.scalar param ["slope"] : f32
  %r = epi.leaky_relu %z leaky_alpha %slope : f32
  epi.store %r : f32
  epi.yield
}

// threshold and upper_bound at launch, f32 D, pingpong 64x128.
wsgemm.gemm @ap_threshold_relu_pp_f32 a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %t = epi.scalar param ["threshold"] : f32
  %u = epi.scalar param ["cap"] : f32
  %r = epi.threshold_relu %acc threshold %t upper_bound %u : f32
  epi.store %r : f32
  epi.yield
}

// LinCombPerRowBiasEltAct<LeakyReLU> with leaky_alpha at launch.
wsgemm.gemm @ap_preset_rowbias_leaky a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc
      activation #epi.activation<leaky_relu {
          leaky_alpha = #epi.scalar<param "leaky_alpha">}>
      bias f16 : f32
  epi.yield
}

// LinCombEltAct<Clamp> with both bounds at launch, bf16.
wsgemm.gemm @ap_preset_lincomb_clamp a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.fusion LinCombEltAct %acc
      activation #epi.activation<clamp {
          lower = #epi.scalar<param "clamp_lower">,
          upper = #epi.scalar<param "clamp_upper">}> : f32
  epi.yield
}
