// RUN: ws-gemm-opt %s --epi-lower-activations | FileCheck %s

// Every named activation becomes CUTLASS's formula (activation.h) in the
// operand's type: exact op sequence, constants and NaN behaviour.

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: return %[[X]] : f32
func.func @identity(%x: f32) -> f32 {
  %y = epi.identity %x : f32
  return %y : f32
}

// ReLu propagates NaN: maximumf, not maxnumf.
// CHECK-LABEL: func.func @relu
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[Y:.+]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @relu(%x: f32) -> f32 {
  %y = epi.relu %x : f32
  return %y : f32
}

// CHECK-LABEL: func.func @relu_f16
// CHECK-SAME: (%[[X:.+]]: f16)
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[Y:.+]] = arith.maximumf %[[X]], %[[ZERO]] : f16
// CHECK-NEXT: return %[[Y]]
func.func @relu_f16(%x: f16) -> f16 {
  %y = epi.relu %x : f16
  return %y : f16
}

// CHECK-LABEL: func.func @clamp
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[LO:.+]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: %[[A:.+]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK-NEXT: %[[HI:.+]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %[[Y:.+]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @clamp(%x: f32) -> f32 {
  %y = epi.clamp %x lower -1.0 upper 6.0 : f32
  return %y : f32
}

// CHECK-LABEL: func.func @leaky_relu
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[POS:.+]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ALPHA:.+]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %[[LEAK:.+]] = arith.mulf %[[X]], %[[ALPHA]] : f32
// CHECK-NEXT: %[[Y:.+]] = arith.select %[[POS]], %[[X]], %[[LEAK]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @leaky_relu(%x: f32) -> f32 {
  %y = epi.leaky_relu %x leaky_alpha 0.1 : f32
  return %y : f32
}

// Without upper_bound the cap is numeric_limits<float>::max().
// CHECK-LABEL: func.func @threshold_relu
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[T:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[LE:.+]] = arith.cmpf ole, %[[X]], %[[T]] : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[CUT:.+]] = arith.select %[[LE]], %[[ZERO]], %[[X]] : f32
// CHECK-NEXT: %[[MAX:.+]] = arith.constant 3.40282347E+38 : f32
// CHECK-NEXT: %[[Y:.+]] = arith.minimumf %[[CUT]], %[[MAX]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @threshold_relu(%x: f32) -> f32 {
  %y = epi.threshold_relu %x threshold 0.5 : f32
  return %y : f32
}

// CHECK-LABEL: func.func @threshold_relu_bounded_f16
// CHECK-SAME: (%[[X:.+]]: f16)
// CHECK-NEXT: %[[T:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[LE:.+]] = arith.cmpf ole, %[[X]], %[[T]] : f16
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[CUT:.+]] = arith.select %[[LE]], %[[ZERO]], %[[X]] : f16
// CHECK-NEXT: %[[UB:.+]] = arith.constant 6.000000e+00 : f16
// CHECK-NEXT: %[[Y:.+]] = arith.minimumf %[[CUT]], %[[UB]] : f16
// CHECK-NEXT: return %[[Y]]
func.func @threshold_relu_bounded_f16(%x: f16) -> f16 {
  %y = epi.threshold_relu %x threshold 0.0 upper_bound 6.0 : f16
  return %y : f16
}

// CHECK-LABEL: func.func @threshold_relu_default_f16
// CHECK: %[[MAX:.+]] = arith.constant 6.550400e+04 : f16
// CHECK-NEXT: arith.minimumf %{{.+}}, %[[MAX]] : f16
func.func @threshold_relu_default_f16(%x: f16) -> f16 {
  %y = epi.threshold_relu %x threshold 0.0 : f16
  return %y : f16
}

// Launch-time parameters (operands) take the constants' places; the
// constant forms above are unchanged.
// CHECK-LABEL: func.func @clamp_params
// CHECK-SAME: (%[[X:.+]]: f32, %[[LO:.+]]: f32, %[[HI:.+]]: f32)
// CHECK-NEXT: %[[A:.+]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK-NEXT: %[[Y:.+]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK-NEXT: %[[C:.+]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: %[[B:.+]] = arith.maximumf %[[X]], %[[C]] : f32
// CHECK-NEXT: %[[Z:.+]] = arith.minimumf %[[B]], %[[HI]] : f32
// CHECK-NEXT: return %[[Y]], %[[Z]]
func.func @clamp_params(%x: f32, %lo: f32, %hi: f32) -> (f32, f32) {
  %y = epi.clamp %x lower %lo upper %hi : f32
  %z = epi.clamp %x lower -1.0 upper %hi : f32
  return %y, %z : f32, f32
}

// CHECK-LABEL: func.func @leaky_relu_param
// CHECK-SAME: (%[[X:.+]]: f32, %[[ALPHA:.+]]: f32)
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[POS:.+]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[LEAK:.+]] = arith.mulf %[[X]], %[[ALPHA]] : f32
// CHECK-NEXT: %[[Y:.+]] = arith.select %[[POS]], %[[X]], %[[LEAK]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @leaky_relu_param(%x: f32, %alpha: f32) -> f32 {
  %y = epi.leaky_relu %x leaky_alpha %alpha : f32
  return %y : f32
}

// CHECK-LABEL: func.func @threshold_relu_params_f16
// CHECK-SAME: (%[[X:.+]]: f16, %[[T:.+]]: f16, %[[U:.+]]: f16)
// CHECK-NEXT: %[[LE:.+]] = arith.cmpf ole, %[[X]], %[[T]] : f16
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[CUT:.+]] = arith.select %[[LE]], %[[ZERO]], %[[X]] : f16
// CHECK-NEXT: %[[Y:.+]] = arith.minimumf %[[CUT]], %[[U]] : f16
// CHECK-NEXT: %[[LE2:.+]] = arith.cmpf ole, %[[X]], %[[T]] : f16
// CHECK-NEXT: %[[ZERO2:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[CUT2:.+]] = arith.select %[[LE2]], %[[ZERO2]], %[[X]] : f16
// CHECK-NEXT: %[[MAX:.+]] = arith.constant 6.550400e+04 : f16
// CHECK-NEXT: %[[Z:.+]] = arith.minimumf %[[CUT2]], %[[MAX]] : f16
// CHECK-NEXT: return %[[Y]], %[[Z]]
func.func @threshold_relu_params_f16(%x: f16, %t: f16, %u: f16) -> (f16, f16) {
  %y = epi.threshold_relu %x threshold %t upper_bound %u : f16
  %z = epi.threshold_relu %x threshold %t : f16
  return %y, %z : f16, f16
}

// A parameter that is itself an activation's result: the lowered value.
// CHECK-LABEL: func.func @param_from_activation
// CHECK-SAME: (%[[X:.+]]: f32, %[[P:.+]]: f32)
// CHECK: %[[R:.+]] = arith.maximumf %[[P]], %{{.+}} : f32
// CHECK: arith.mulf %[[X]], %[[R]] : f32
// CHECK-NOT: epi.
func.func @param_from_activation(%x: f32, %p: f32) -> f32 {
  %r = epi.relu %p : f32
  %y = epi.leaky_relu %x leaky_alpha %r : f32
  return %y : f32
}

// GELU: (0.5 * x) * (1 + erf(x * half_root_two)).
// CHECK-LABEL: func.func @gelu
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[HX:.+]] = arith.mulf %[[HALF]], %[[X]] : f32
// CHECK-NEXT: %[[R2:.+]] = arith.constant 0.707106769 : f32
// CHECK-NEXT: %[[S:.+]] = arith.mulf %[[X]], %[[R2]] : f32
// CHECK-NEXT: %[[E:.+]] = math.erf %[[S]] : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[P:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[HX]], %[[P]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @gelu(%x: f32) -> f32 {
  %y = epi.gelu %x : f32
  return %y : f32
}

// For half_t CUTLASS computes erff on the widened value.
// CHECK-LABEL: func.func @gelu_f16
// CHECK-SAME: (%[[X:.+]]: f16)
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f16
// CHECK-NEXT: %[[HX:.+]] = arith.mulf %[[HALF]], %[[X]] : f16
// CHECK-NEXT: %[[R2:.+]] = arith.constant 7.070310e-01 : f16
// CHECK-NEXT: %[[S:.+]] = arith.mulf %[[X]], %[[R2]] : f16
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[S]] : f16 to f32
// CHECK-NEXT: %[[E:.+]] = math.erf %[[W]] : f32
// CHECK-NEXT: %[[N:.+]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT: %[[P:.+]] = arith.addf %[[ONE]], %[[N]] : f16
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[HX]], %[[P]] : f16
// CHECK-NEXT: return %[[Y]]
func.func @gelu_f16(%x: f16) -> f16 {
  %y = epi.gelu %x : f16
  return %y : f16
}

// CHECK-LABEL: func.func @gelu_f64
// CHECK: arith.constant 0.70710678118654757 : f64
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: math.erf %{{.+}} : f64
func.func @gelu_f64(%x: f64) -> f64 {
  %y = epi.gelu %x : f64
  return %y : f64
}

// GELU_taylor<float>: 0.5 * fma(x, tanh(x * fma(k0*k1 * x, x, k0)), x),
// k0 = 0.7978845608028654, k0*k1 = 0.7978845608028654f * 0.044715f.
// CHECK-LABEL: func.func @gelu_taylor
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[K01:.+]] = arith.constant 0.0356774069 : f32
// CHECK-NEXT: %[[V0:.+]] = arith.mulf %[[K01]], %[[X]] : f32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 0.797884583 : f32
// CHECK-NEXT: %[[V1:.+]] = math.fma %[[V0]], %[[X]], %[[K0]] : f32
// CHECK-NEXT: %[[V2:.+]] = arith.mulf %[[X]], %[[V1]] : f32
// CHECK-NEXT: %[[V3:.+]] = math.tanh %[[V2]] : f32
// CHECK-NEXT: %[[V4:.+]] = math.fma %[[X]], %[[V3]], %[[X]] : f32
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[HALF]], %[[V4]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @gelu_taylor(%x: f32) -> f32 {
  %y = epi.gelu_taylor %x : f32
  return %y : f32
}

// GELU_taylor<Array<half_t, N>>:
// (x * 0.5) * (1 + tanh((k0 * x) * fma(k1 * x, x, 1))).
// CHECK-LABEL: func.func @gelu_taylor_f16
// CHECK-SAME: (%[[X:.+]]: f16)
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT: %[[K0:.+]] = arith.constant 7.978520e-01 : f16
// CHECK-NEXT: %[[K0X:.+]] = arith.mulf %[[K0]], %[[X]] : f16
// CHECK-NEXT: %[[K1:.+]] = arith.constant 4.470830e-02 : f16
// CHECK-NEXT: %[[K1X:.+]] = arith.mulf %[[K1]], %[[X]] : f16
// CHECK-NEXT: %[[F:.+]] = math.fma %[[K1X]], %[[X]], %[[ONE]] : f16
// CHECK-NEXT: %[[U:.+]] = arith.mulf %[[K0X]], %[[F]] : f16
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f16
// CHECK-NEXT: %[[HX:.+]] = arith.mulf %[[X]], %[[HALF]] : f16
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[U]] : f16
// CHECK-NEXT: %[[P:.+]] = arith.addf %[[ONE]], %[[T]] : f16
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[HX]], %[[P]] : f16
// CHECK-NEXT: return %[[Y]]
func.func @gelu_taylor_f16(%x: f16) -> f16 {
  %y = epi.gelu_taylor %x : f16
  return %y : f16
}

// Generic GELU_taylor<T>:
// (0.5 * x) * (1 + tanh((k0 * x) * (1 + (k1 * x) * x))).
// CHECK-LABEL: func.func @gelu_taylor_bf16
// CHECK-SAME: (%[[X:.+]]: bf16)
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : bf16
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : bf16
// CHECK-NEXT: %[[HX:.+]] = arith.mulf %[[HALF]], %[[X]] : bf16
// CHECK-NEXT: %[[K0:.+]] = arith.constant 7.968750e-01 : bf16
// CHECK-NEXT: %[[K0X:.+]] = arith.mulf %[[K0]], %[[X]] : bf16
// CHECK-NEXT: %[[K1:.+]] = arith.constant 4.467770e-02 : bf16
// CHECK-NEXT: %[[K1X:.+]] = arith.mulf %[[K1]], %[[X]] : bf16
// CHECK-NEXT: %[[K1XX:.+]] = arith.mulf %[[K1X]], %[[X]] : bf16
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ONE]], %[[K1XX]] : bf16
// CHECK-NEXT: %[[U:.+]] = arith.mulf %[[K0X]], %[[S]] : bf16
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[U]] : bf16
// CHECK-NEXT: %[[P:.+]] = arith.addf %[[ONE]], %[[T]] : bf16
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[HX]], %[[P]] : bf16
// CHECK-NEXT: return %[[Y]]
func.func @gelu_taylor_bf16(%x: bf16) -> bf16 {
  %y = epi.gelu_taylor %x : bf16
  return %y : bf16
}

// CHECK-LABEL: func.func @sigmoid
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[Y:.+]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @sigmoid(%x: f32) -> f32 {
  %y = epi.sigmoid %x : f32
  return %y : f32
}

// CHECK-LABEL: func.func @silu
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @silu(%x: f32) -> f32 {
  %y = epi.silu %x : f32
  return %y : f32
}

// CHECK-LABEL: func.func @tanh
// CHECK-SAME: (%[[X:.+]]: bf16)
// CHECK-NEXT: %[[Y:.+]] = math.tanh %[[X]] : bf16
// CHECK-NEXT: return %[[Y]]
func.func @tanh(%x: bf16) -> bf16 {
  %y = epi.tanh %x : bf16
  return %y : bf16
}

// HardSwish<float>: fmaxf/fminf (NaN loses), then * 0.16666667f.
// CHECK-LABEL: func.func @hardswish
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[THREE:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %[[A:.+]] = arith.addf %[[X]], %[[THREE]] : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[B:.+]] = arith.maxnumf %[[A]], %[[ZERO]] : f32
// CHECK-NEXT: %[[SIX:.+]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %[[R6:.+]] = arith.minnumf %[[B]], %[[SIX]] : f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[X]], %[[R6]] : f32
// CHECK-NEXT: %[[K:.+]] = arith.constant 0.166666672 : f32
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[P]], %[[K]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @hardswish(%x: f32) -> f32 {
  %y = epi.hardswish %x : f32
  return %y : f32
}

// HardSwish<half_t>: `a < b ? b : a` min/max, then * half(0.16666667f).
// CHECK-LABEL: func.func @hardswish_f16
// CHECK-SAME: (%[[X:.+]]: f16)
// CHECK-NEXT: %[[THREE:.+]] = arith.constant 3.000000e+00 : f16
// CHECK-NEXT: %[[A:.+]] = arith.addf %[[X]], %[[THREE]] : f16
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[LT:.+]] = arith.cmpf olt, %[[A]], %[[ZERO]] : f16
// CHECK-NEXT: %[[B:.+]] = arith.select %[[LT]], %[[ZERO]], %[[A]] : f16
// CHECK-NEXT: %[[SIX:.+]] = arith.constant 6.000000e+00 : f16
// CHECK-NEXT: %[[GT:.+]] = arith.cmpf olt, %[[SIX]], %[[B]] : f16
// CHECK-NEXT: %[[R6:.+]] = arith.select %[[GT]], %[[SIX]], %[[B]] : f16
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[X]], %[[R6]] : f16
// CHECK-NEXT: %[[K:.+]] = arith.constant 1.666260e-01 : f16
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[P]], %[[K]] : f16
// CHECK-NEXT: return %[[Y]]
func.func @hardswish_f16(%x: f16) -> f16 {
  %y = epi.hardswish %x : f16
  return %y : f16
}

// Generic HardSwish<T>: (x * relu6) / 6.
// CHECK-LABEL: func.func @hardswish_bf16
// CHECK-SAME: (%[[X:.+]]: bf16)
// CHECK: %[[SIX:.+]] = arith.constant 6.000000e+00 : bf16
// CHECK: %[[P:.+]] = arith.mulf %[[X]], %{{.+}} : bf16
// CHECK-NEXT: %[[Y:.+]] = arith.divf %[[P]], %[[SIX]] : bf16
// CHECK-NEXT: return %[[Y]]
func.func @hardswish_bf16(%x: bf16) -> bf16 {
  %y = epi.hardswish %x : bf16
  return %y : bf16
}

// Inside an epilogue, only the activations change.
// CHECK-LABEL: wsgemm.gemm @in_epilogue
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[B:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[Z:.+]] = arith.addf %[[ACC]], %[[B]] : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[Z]], %[[ZERO]] : f32
// CHECK-NEXT: epi.store %[[R]] : f32
// CHECK-NEXT: epi.yield
// CHECK-NOT: epi.relu
wsgemm.gemm @in_epilogue a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %b = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %b : f32
  %r = epi.relu %z : f32
  epi.store %r : f32
  epi.yield
}

// fastmath<afn>: the same formulas in f32 with `afn` on exp, divide and
// tanh (ex2.approx, rcp.approx and tanh.approx after the NVVM lowering).
// CHECK-LABEL: func.func @silu_afn
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[N]] fastmath<afn> : f32
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[ONE]], %[[D]] fastmath<afn> : f32
// CHECK-NEXT: %[[Y:.+]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK-NEXT: return %[[Y]]
func.func @silu_afn(%x: f32) -> f32 {
  %y = epi.silu %x fastmath<afn> : f32
  return %y : f32
}

// gelu with afn takes GELU_taylor's f32 form.
// CHECK-LABEL: func.func @gelu_afn
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK: math.fma
// CHECK: math.tanh %{{.+}} fastmath<afn> : f32
// CHECK-NOT: math.erf
// CHECK: return
func.func @gelu_afn(%x: f32) -> f32 {
  %y = epi.gelu %x fastmath<afn> : f32
  return %y : f32
}

// `fast` includes `afn`.
// CHECK-LABEL: func.func @tanh_fast
// CHECK-NEXT: math.tanh %{{.+}} fastmath<afn> : f32
func.func @tanh_fast(%x: f32) -> f32 {
  %y = epi.tanh %x fastmath<fast> : f32
  return %y : f32
}

// 16-bit operands are evaluated in f32 and rounded back.
// CHECK-LABEL: func.func @sigmoid_afn_bf16
// CHECK-SAME: (%[[X:.+]]: bf16)
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK: math.exp %{{.+}} fastmath<afn> : f32
// CHECK: %[[S:.+]] = arith.divf %{{.+}}, %{{.+}} fastmath<afn> : f32
// CHECK-NEXT: %[[Y:.+]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT: return %[[Y]]
func.func @sigmoid_afn_bf16(%x: bf16) -> bf16 {
  %y = epi.sigmoid %x fastmath<afn> : bf16
  return %y : bf16
}

// f64 has no approximate instructions: the flag is ignored.
// CHECK-LABEL: func.func @tanh_afn_f64
// CHECK-NEXT: math.tanh %{{.+}} : f64
func.func @tanh_afn_f64(%x: f64) -> f64 {
  %y = epi.tanh %x fastmath<afn> : f64
  return %y : f64
}

// Other flags (no afn) keep the exact formulas.
// CHECK-LABEL: func.func @silu_nnan
// CHECK: math.exp %{{.+}} : f32
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
func.func @silu_nnan(%x: f32) -> f32 {
  %y = epi.silu %x fastmath<nnan> : f32
  return %y : f32
}
