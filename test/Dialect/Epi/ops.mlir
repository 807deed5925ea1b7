// RUN: ws-gemm-opt %s | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --mlir-print-op-generic | ws-gemm-opt | FileCheck %s

// Round trip of every epi op and attribute form, custom and generic.

// CHECK-LABEL: wsgemm.gemm @leaves
// CHECK-SAME: c(f16)
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: epi.scalar param ["alpha"] : f32
// CHECK-NEXT: epi.scalar param ["alpha", "beta"] : f32
// CHECK-NEXT: epi.scalar ptr ["scale_a", "scale_b"] : f32
// CHECK-NEXT: epi.scalar attr 2.500000e+00 : f32
// CHECK-NEXT: epi.scalar attr -1.000000e+00 : f16
// CHECK-NEXT: epi.scalar attr 0xFFF0000000000000 : f32
// CHECK-NEXT: epi.load_src : f32
// CHECK-NEXT: epi.load_src : bf16
// CHECK-NEXT: epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: epi.load_vec_n "colbias" : bf16 -> f32
// CHECK-NEXT: epi.load_vec_n "scales" : f8E4M3FN -> f16
// CHECK-NEXT: epi.aux_load "res" : f16 -> f32
// CHECK-NEXT: epi.aux_load "res8" : f8E5M2 -> f32
// CHECK-NEXT: epi.store %[[ACC]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @leaves a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %0 = epi.scalar param ["alpha"] : f32
  %1 = epi.scalar param ["alpha", "beta"] : f32
  %2 = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %3 = epi.scalar attr 2.5 : f32
  %4 = epi.scalar attr -1.0 : f16
  %5 = epi.scalar attr 0xFFF0000000000000 : f32
  %6 = epi.load_src : f32
  %7 = epi.load_src : bf16
  %8 = epi.load_src skip_if_zero "beta" : f32
  %9 = epi.load_vec_m "bias" : f16 -> f32
  %10 = epi.load_vec_n "colbias" : bf16 -> f32
  %11 = epi.load_vec_n "scales" : f8E4M3FN -> f16
  %12 = epi.aux_load "res" : f16 -> f32
  %13 = epi.aux_load "res8" : f8E5M2 -> f32
  epi.store %acc : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @compute
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ID:.+]] = epi.identity %[[ACC]] : f32
// CHECK-NEXT: epi.relu %[[ID]] : f32
// CHECK-NEXT: epi.clamp %[[ACC]] lower 0.000000e+00 upper 6.000000e+00 : f32
// CHECK-NEXT: epi.leaky_relu %[[ACC]] leaky_alpha 1.000000e-01 : f32
// CHECK-NEXT: epi.threshold_relu %[[ACC]] threshold 5.000000e-01 : f32
// CHECK-NEXT: epi.threshold_relu %[[ACC]] threshold 0.000000e+00 upper_bound 6.000000e+00 : f32
// CHECK-NEXT: epi.gelu %[[ACC]] : f32
// CHECK-NEXT: epi.gelu_taylor %[[ACC]] : f32
// CHECK-NEXT: epi.silu %[[ACC]] : f32
// CHECK-NEXT: epi.sigmoid %[[ACC]] : f32
// CHECK-NEXT: epi.tanh %[[ACC]] : f32
// CHECK-NEXT: %[[HS:.+]] = epi.hardswish %[[ACC]] : f32
// CHECK-NEXT: %[[H:.+]] = epi.convert %[[HS]] : f32 -> f16
// CHECK-NEXT: epi.convert %[[HS]] rz : f32 -> bf16
// CHECK-NEXT: epi.convert %[[HS]] rm : f32 -> f16
// CHECK-NEXT: epi.convert %[[H]] rp : f16 -> f32
// CHECK-NEXT: epi.convert %[[HS]] : f32 -> f8E4M3FN
// CHECK-NEXT: %[[R:.+]] = epi.relu %[[H]] : f16
// CHECK-NEXT: epi.gelu %[[R]] : f16
// CHECK-NEXT: arith.addf
// CHECK-NEXT: math.exp
// CHECK-NEXT: epi.silu %[[ACC]] fastmath<afn> : f32
// CHECK-NEXT: epi.gelu %[[ACC]] fastmath<fast> : f32
// CHECK-NEXT: epi.tanh %[[R]] fastmath<afn> : f16
// CHECK-NEXT: epi.sigmoid %[[ACC]] : f32
// CHECK-NEXT: epi.store %[[HS]] rz : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @compute a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %0 = epi.identity %acc : f32
  %1 = epi.relu %0 : f32
  %2 = epi.clamp %acc lower 0.0 upper 6.0 : f32
  %3 = epi.leaky_relu %acc leaky_alpha 0.1 : f32
  %4 = epi.threshold_relu %acc threshold 0.5 : f32
  %5 = epi.threshold_relu %acc threshold 0.0 upper_bound 6.0 : f32
  %6 = epi.gelu %acc : f32
  %7 = epi.gelu_taylor %acc : f32
  %8 = epi.silu %acc : f32
  %9 = epi.sigmoid %acc : f32
  %10 = epi.tanh %acc : f32
  %11 = epi.hardswish %acc : f32
  %12 = epi.convert %11 : f32 -> f16
  %13 = epi.convert %11 rz : f32 -> bf16
  %14 = epi.convert %11 rm : f32 -> f16
  %15 = epi.convert %12 rp : f16 -> f32
  %16 = epi.convert %11 rn : f32 -> f8E4M3FN
  %17 = epi.relu %12 : f16
  %18 = epi.gelu %17 : f16
  %19 = arith.addf %acc, %acc : f32
  %20 = math.exp %19 : f32
  %21 = epi.silu %acc fastmath<afn> : f32
  %22 = epi.gelu %acc fastmath<fast> : f32
  %23 = epi.tanh %17 fastmath<afn> : f16
  %24 = epi.sigmoid %acc fastmath<none> : f32
  epi.store %11 rz : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @outputs
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: epi.aux_store %[[ACC]], "pre" : f32 -> f16
// CHECK-NEXT: epi.aux_store %[[ACC]], "pre8" : f32 -> f8E4M3FN
// CHECK-NEXT: epi.reduce_to_vec_m max %[[ACC]], "rowmax" : f32
// CHECK-NEXT: epi.reduce_to_vec_m min %[[ACC]], "rowmin" : f32
// CHECK-NEXT: epi.reduce_to_vec_n sum %[[ACC]], "colsum" : f32
// CHECK-NEXT: epi.reduce_to_vec_n absmax %[[ACC]], "colamax" : f32
// CHECK-NEXT: epi.reduce_to_scalar absmax %[[ACC]], "amax" : f32
// CHECK-NEXT: epi.reduce_to_scalar sum %[[ACC]], "total" : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @outputs a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> f16
  epi.aux_store %acc, "pre8" : f32 -> f8E4M3FN
  epi.reduce_to_vec_m max %acc, "rowmax" : f32
  epi.reduce_to_vec_m min %acc, "rowmin" : f32
  epi.reduce_to_vec_n sum %acc, "colsum" : f32
  epi.reduce_to_vec_n absmax %acc, "colamax" : f32
  epi.reduce_to_scalar absmax %acc, "amax" : f32
  epi.reduce_to_scalar sum %acc, "total" : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @fusion_plain
// CHECK: epi.fusion LinearCombination %{{.+}} : f32
wsgemm.gemm @fusion_plain a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinearCombination %acc : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @fusion_act
// CHECK: epi.fusion LinCombEltAct %{{.+}} activation #epi.activation<relu> : f32
wsgemm.gemm @fusion_act a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombEltAct %acc activation #epi.activation<relu> : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @fusion_params
// CHECK: epi.fusion LinCombPerRowBiasEltAct %{{.+}} activation #epi.activation<clamp {lower = 0.000000e+00 : f64, upper = 6.000000e+00 : f64}> bias bf16 : f32
wsgemm.gemm @fusion_params a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<clamp {lower = 0.0, upper = 6.0}> bias bf16 : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @fusion_aux
// CHECK: epi.fusion ScaledLinCombPerColBiasEltActAmaxAux %{{.+}} activation #epi.activation<threshold_relu {threshold = 5.000000e-01 : f64}> bias f16 aux f8E4M3FN {note = "kept"} : f32
wsgemm.gemm @fusion_aux a(f16) b(f16) c(f16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltActAmaxAux %acc activation #epi.activation<threshold_relu {threshold = 0.5}> bias f16 aux f8E4M3FN {note = "kept"} : f32
  epi.yield
}

// An activation attribute through an alias, and every activation kind.
#act = #epi.activation<leaky_relu {leaky_alpha = 0.2}>
// CHECK-LABEL: wsgemm.gemm @fusion_alias
// CHECK: epi.fusion LinCombPerColBiasEltActAux %{{.+}} activation #epi.activation<leaky_relu {leaky_alpha = 2.000000e-01 : f64}> aux bf16 : f32
wsgemm.gemm @fusion_alias a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerColBiasEltActAux %acc activation #act aux bf16 : f32
  epi.yield
}

// Activation parameters at launch: operands instead of attributes, alone
// or mixed with constants (issue 31), and #epi.scalar in presets.
// CHECK-LABEL: wsgemm.gemm @activation_params
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[LO:.+]] = epi.scalar param ["lower"] : f32
// CHECK-NEXT: %[[HI:.+]] = epi.scalar ptr ["upper"] : f32
// CHECK-NEXT: epi.clamp %[[ACC]] lower %[[LO]] upper %[[HI]] : f32
// CHECK-NEXT: epi.clamp %[[ACC]] lower 0.000000e+00 upper %[[HI]] : f32
// CHECK-NEXT: epi.clamp %[[ACC]] lower %[[LO]] upper 6.000000e+00 : f32
// CHECK-NEXT: epi.leaky_relu %[[ACC]] leaky_alpha %[[LO]] : f32
// CHECK-NEXT: epi.threshold_relu %[[ACC]] threshold %[[LO]] : f32
// CHECK-NEXT: epi.threshold_relu %[[ACC]] threshold %[[LO]] upper_bound %[[HI]] : f32
// CHECK-NEXT: epi.threshold_relu %[[ACC]] threshold 5.000000e-01 upper_bound %[[HI]] : f32
// CHECK-NEXT: epi.threshold_relu %[[ACC]] threshold %[[LO]] upper_bound 6.000000e+00 : f32
// CHECK-NEXT: epi.fusion LinCombEltAct %[[ACC]] activation #epi.activation<clamp {lower = 0.000000e+00 : f64, upper = #epi.scalar<param "clamp_upper">}> : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @activation_params a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %lo = epi.scalar param ["lower"] : f32
  %hi = epi.scalar ptr ["upper"] : f32
  %0 = epi.clamp %acc lower %lo upper %hi : f32
  %1 = epi.clamp %acc lower 0.0 upper %hi : f32
  %2 = epi.clamp %acc lower %lo upper 6.0 : f32
  %3 = epi.leaky_relu %acc leaky_alpha %lo : f32
  %4 = epi.threshold_relu %acc threshold %lo : f32
  %5 = epi.threshold_relu %acc threshold %lo upper_bound %hi : f32
  %6 = epi.threshold_relu %acc threshold 0.5 upper_bound %hi : f32
  %7 = epi.threshold_relu %acc threshold %lo upper_bound 6.0 : f32
  epi.fusion LinCombEltAct %acc activation #epi.activation<clamp {lower = 0.0, upper = #epi.scalar<param "clamp_upper">}> : f32
  epi.yield
}

// Launch-time parameters work outside epilogues too (any value of the
// operand's type), and #epi.scalar round-trips.
// CHECK-LABEL: func.func @activation_params_anywhere
// CHECK-SAME: #epi.activation<leaky_relu {leaky_alpha = #epi.scalar<ptr "slope">}>
// CHECK-SAME: #epi.activation<threshold_relu {threshold = #epi.scalar<param "t">, upper_bound = 2.000000e+00 : f64}>
// CHECK-SAME: #epi.scalar<param "a">
// CHECK-SAME: #epi.scalar<ptr "b">
// CHECK: epi.leaky_relu %{{.+}} leaky_alpha %{{.+}} : bf16
// CHECK: epi.clamp %{{.+}} lower %{{.+}} upper %{{.+}} : f64
func.func @activation_params_anywhere(%x: bf16, %a: bf16, %y: f64, %b: f64) -> (bf16, f64) attributes {
    refs = [#epi.scalar<param "a">, #epi.scalar<ptr "b">],
    acts = [#epi.activation<leaky_relu {leaky_alpha = #epi.scalar<ptr "slope">}>,
            #epi.activation<threshold_relu {threshold = #epi.scalar<param "t">, upper_bound = 2.0}>]} {
  %0 = epi.leaky_relu %x leaky_alpha %a : bf16
  %1 = epi.clamp %y lower %b upper %b : f64
  return %0, %1 : bf16, f64
}

// CHECK-LABEL: func.func @activation_attrs
// CHECK-SAME: #epi.activation<identity>
// CHECK-SAME: #epi.activation<gelu>
// CHECK-SAME: #epi.activation<gelu_taylor>
// CHECK-SAME: #epi.activation<silu>
// CHECK-SAME: #epi.activation<sigmoid>
// CHECK-SAME: #epi.activation<tanh>
// CHECK-SAME: #epi.activation<hardswish>
// CHECK-SAME: #epi.activation<threshold_relu {threshold = 1.000000e+00 : f64, upper_bound = 2.000000e+00 : f64}>
// CHECK-SAME: #epi<rounding rz>
// CHECK-SAME: #epi<reduce_kind absmax>
// CHECK-SAME: #epi<scalar_source ptr>
// CHECK-SAME: #epi<fusion_kind ScaledAcc>
// Activations are scalar math: they work outside epilogues too.
// CHECK: epi.sigmoid %{{.+}} : f64
// CHECK: epi.tanh %{{.+}} : bf16
func.func @activation_attrs(%x: f64, %y: bf16) -> (f64, bf16) attributes {
    acts = [#epi.activation<identity>, #epi.activation<gelu>,
            #epi.activation<gelu_taylor>, #epi.activation<silu>,
            #epi.activation<sigmoid>, #epi.activation<tanh>,
            #epi.activation<hardswish>,
            #epi.activation<threshold_relu {threshold = 1.0, upper_bound = 2.0}>],
    enums = [#epi<rounding rz>, #epi<reduce_kind absmax>,
             #epi<scalar_source ptr>, #epi<fusion_kind ScaledAcc>]} {
  %0 = epi.sigmoid %x : f64
  %1 = epi.tanh %y : bf16
  return %0, %1 : f64, bf16
}

// epi.visit round-trips, with and without sources.
// CHECK-LABEL: func.func @visit
// CHECK: epi.visit %{{.*}} : vector<2xf32> sources(%{{.*}}, %{{.*}} : vector<2xf32>, f32) names ["C", "alpha"] outputs ["D", "m"] d_type f16 c_type f16 -> vector<2xf32>, vector<2xf32> {
// CHECK: epi.visit %{{.*}} : vector<2xf32> sources() names [] outputs ["D"] d_type bf16 -> vector<2xf32> {
func.func @visit(%acc: vector<2xf32>, %c: vector<2xf32>, %alpha: f32) {
  %d, %m = epi.visit %acc : vector<2xf32> sources(%c, %alpha : vector<2xf32>, f32)
      names ["C", "alpha"] outputs ["D", "m"] d_type f16 c_type f16
      -> vector<2xf32>, vector<2xf32> {
  ^bb0(%x: f32):
    %a = epi.scalar param ["alpha"] : f32
    %s = epi.load_src : f32
    %y = arith.mulf %a, %x : f32
    %z = arith.addf %y, %s : f32
    epi.store %z : f32
    epi.reduce_to_vec_m max %z, "m" : f32
    epi.yield
  }
  %e = epi.visit %acc : vector<2xf32> sources() names [] outputs ["D"]
      d_type bf16 -> vector<2xf32> {
  ^bb0(%x: f32):
    epi.store %x : f32
    epi.yield
  }
  return
}

// Reducing D stores: `reduce` before the rounding mode; none is the
// default and prints nothing.
// CHECK-LABEL: wsgemm.gemm @store_reduce_add
// CHECK: epi.store %{{.+}} reduce add : f32
wsgemm.gemm @store_reduce_add a(bf16) b(bf16) d(f32) {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @store_reduce_max_rz
// CHECK: epi.store %{{.+}} reduce max rz : f32
wsgemm.gemm @store_reduce_max_rz a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc reduce max rz : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @store_reduce_none
// CHECK: epi.store %{{.+}} : f32
wsgemm.gemm @store_reduce_none a(f16) b(f16) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc reduce none : f32
  epi.yield
}
