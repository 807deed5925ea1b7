// The named epilogue activations and explicit rounding modes, one
// kernel each, on small configs of both schedules. The manifest records
// each activation by name and the runtime's reference evaluates its
// formula independently of the compiler's lowering. activations.test runs
// them.

wsgemm.gemm @act_identity a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %r = epi.identity %acc : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_relu a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  %r = epi.relu %z : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_clamp a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %r = epi.clamp %acc lower 0.0 upper 6.0 : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_leaky_relu a(f16) b(f16, n_major) d(f16) {
^bb0(%acc: f32):
  %r = epi.leaky_relu %acc leaky_alpha 0.1 : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_threshold_relu a(bf16) b(bf16) d(f32) {
^bb0(%acc: f32):
  %r = epi.threshold_relu %acc threshold 0.5 upper_bound 2.0 : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_gelu a(bf16) b(bf16, n_major) d(bf16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %r = epi.gelu %z : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_gelu_taylor a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %r = epi.gelu_taylor %acc : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_silu a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %r = epi.silu %acc : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_sigmoid a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %r = epi.sigmoid %acc : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_tanh a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 64, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %r = epi.tanh %acc : f32
  epi.store %r : f32
  epi.yield
}

// fastmath<afn>: the approximate forms (ex2/rcp.approx for silu and
// sigmoid, tanh.approx for tanh, gelu_taylor and gelu's tanh form), checked
// against the exact formulas with the approx tolerance (the manifest marks
// the nodes). f32 D shows their error unrounded; the f16 operand of
// act_gelu_taylor_afn_f16 goes through the f32 widening.
wsgemm.gemm @act_silu_afn a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %r = epi.silu %acc fastmath<afn> : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_sigmoid_afn a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = epi.sigmoid %acc fastmath<afn> : f32
  %y = arith.mulf %r, %c : f32
  epi.store %y : f32
  epi.yield
}

wsgemm.gemm @act_gelu_afn a(bf16) b(bf16, n_major) d(f32) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %r = epi.gelu %z fastmath<afn> : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_tanh_afn a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 64, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %r = epi.tanh %acc fastmath<afn> : f32
  %m = math.tanh %r fastmath<afn> : f32
  epi.store %m : f32
  epi.yield
}

wsgemm.gemm @act_gelu_taylor_afn_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %h = arith.truncf %acc : f32 to f16
  %g = epi.gelu_taylor %h fastmath<afn> : f16
  %r = arith.extf %g : f16 to f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @act_hardswish a(bf16) b(bf16) d(f16) {
^bb0(%acc: f32):
  %r = epi.hardswish %acc : f32
  epi.store %r : f32
  epi.yield
}

// An activation feeding an aux store and a reduction.
wsgemm.gemm @act_silu_aux_amax a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.aux_store %z, "pre" : f32 -> f16
  %r = epi.silu %z : f32
  epi.reduce_to_scalar absmax %r, "amax" : f32
  epi.store %r : f32
  epi.yield
}

// Rounding modes: an explicit epi.convert toward zero, and D stored
// rounding toward zero (rm/rp are refused by the lowering:
// test/Conversion/WsGemmToNVVM/invalid.mlir).
wsgemm.gemm @conv_rz a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %h = epi.convert %acc rz : f32 -> bf16
  %x = epi.convert %h : bf16 -> f32
  epi.store %x : f32
  epi.yield
}

wsgemm.gemm @store_rz a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc rz : f32
  epi.yield
}
