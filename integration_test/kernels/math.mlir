// Compute nodes of the EVT, written with arith and math (the named epi
// activations are in activations.mlir): sub, div, neg,
// fma, min, max, cmp + select, abs, exp, log, sqrt, rsqrt, tanh, erf, and
// explicit conversions (truncf/extf). The formulas are the activations the
// manifest names, so the reference checks them independently. math.test
// runs them.

// Arithmetic: ((acc - 1) / 3) * -1 fused with fma, then clamped to
// [-4, 4] with min/max (epi.clamp's formula).
wsgemm.gemm @m_arith a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %lo = arith.constant -4.0 : f32
  %hi = arith.constant 4.0 : f32
  %a = arith.subf %acc, %one : f32
  %b = arith.divf %a, %three : f32
  %c = arith.negf %b : f32
  %d = math.fma %c, %three, %acc : f32
  %e = arith.maximumf %d, %lo : f32
  %f = arith.minimumf %e, %hi : f32
  epi.store %f : f32
  epi.yield
}

// Leaky ReLU (x > 0 ? x : 0.1 x) and threshold ReLU with cmpf + select.
wsgemm.gemm @m_select a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %zero = arith.constant 0.0 : f32
  %slope = arith.constant 0.1 : f32
  %pos = arith.cmpf ogt, %acc, %zero : f32
  %neg = arith.mulf %acc, %slope : f32
  %leaky = arith.select %pos, %acc, %neg : f32
  %thr = arith.constant 0.5 : f32
  %keep = arith.cmpf oge, %leaky, %thr : f32
  %r = arith.select %keep, %leaky, %zero : f32
  epi.store %r : f32
  epi.yield
}

// GELU, erf form: 0.5 x (1 + erf(x / sqrt(2))).
wsgemm.gemm @m_gelu_erf a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678118654752 : f32
  %s = arith.mulf %acc, %rsqrt2 : f32
  %e = math.erf %s : f32
  %t = arith.addf %e, %one : f32
  %h = arith.mulf %acc, %half : f32
  %r = arith.mulf %h, %t : f32
  epi.store %r : f32
  epi.yield
}

// GELU, tanh form: 0.5 x (1 + tanh(0.7978845608 (x + 0.044715 x^3))),
// bf16, N-major B.
wsgemm.gemm @m_gelu_tanh a(bf16) b(bf16, n_major) d(bf16) {
^bb0(%acc: f32):
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.7978845608028654 : f32
  %k1 = arith.constant 0.044715 : f32
  %x2 = arith.mulf %acc, %acc : f32
  %x3 = arith.mulf %x2, %acc : f32
  %inner = math.fma %x3, %k1, %acc : f32
  %arg = arith.mulf %inner, %k0 : f32
  %t = math.tanh %arg : f32
  %p = arith.addf %t, %one : f32
  %h = arith.mulf %acc, %half : f32
  %r = arith.mulf %h, %p : f32
  epi.store %r : f32
  epi.yield
}

// SiLU = x * sigmoid(x), sigmoid = 1 / (1 + exp(-x)), f32 D.
wsgemm.gemm @m_silu a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %one = arith.constant 1.0 : f32
  %n = arith.negf %acc : f32
  %e = math.exp %n : f32
  %den = arith.addf %e, %one : f32
  %sig = arith.divf %one, %den : f32
  %r = arith.mulf %acc, %sig : f32
  epi.store %r : f32
  epi.yield
}

// HardSwish = x * min(max(x + 3, 0), 6) / 6.
wsgemm.gemm @m_hardswish a(bf16) b(bf16) d(f16) {
^bb0(%acc: f32):
  %zero = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %a = arith.addf %acc, %three : f32
  %b = arith.maximumf %a, %zero : f32
  %c = arith.minimumf %b, %six : f32
  %d = arith.mulf %acc, %c : f32
  %r = arith.divf %d, %six : f32
  epi.store %r : f32
  epi.yield
}

// abs, log, sqrt, rsqrt: log(1 + |x|) + sqrt(1 + |x|) * rsqrt(2 + |x|).
wsgemm.gemm @m_log_sqrt a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = math.absf %acc : f32
  %p1 = arith.addf %a, %one : f32
  %p2 = arith.addf %a, %two : f32
  %l = math.log %p1 : f32
  %s = math.sqrt %p1 : f32
  %q = math.rsqrt %p2 : f32
  %m = arith.mulf %s, %q : f32
  %r = arith.addf %l, %m : f32
  epi.store %r : f32
  epi.yield
}

// Explicit intermediate rounding: the value is rounded to bf16 and back
// before the bias is added (an EVT convert node), f32 D.
wsgemm.gemm @m_convert a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f32 -> f32
  %h = arith.truncf %acc : f32 to bf16
  %x = arith.extf %h : bf16 to f32
  %r = arith.addf %x, %bias : f32
  epi.store %r : f32
  epi.yield
}
