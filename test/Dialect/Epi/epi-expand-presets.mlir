// RUN: ws-gemm-opt %s -split-input-file --epi-expand-presets | FileCheck %s
// RUN: ws-gemm-opt %s -split-input-file --epi-expand-presets --epi-lower-activations | FileCheck %s --check-prefix=LOWER

// Every CUTLASS SM90 preset expanded into its EVT, op by op, following
// include/cutlass/epilogue/fusion/sm90_callbacks_tma_warpspecialized.hpp.

// ScaledAcc: D = alpha * acc. No C term, even with a C operand.
// CHECK-LABEL: wsgemm.gemm @scaled_acc
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[ACC]] : f32
// CHECK-NEXT: epi.store %[[T0]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_acc a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion ScaledAcc %acc : f32
  epi.yield
}

// -----

// LinearCombination (Sm90LinearCombination): D = beta * C + (alpha * acc).
// The multiply_add node is an fma; C is skipped when beta == 0.
// CHECK-LABEL: wsgemm.gemm @linear_combination
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[ACC]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: epi.store %[[T1]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @linear_combination a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinearCombination %acc : f32
  epi.yield
}

// -----

// LinCombEltAct: D = activation(beta * C + alpha * acc).
// CHECK-LABEL: wsgemm.gemm @lin_comb_elt_act
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[ACC]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T1]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @lin_comb_elt_act a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombEltAct %acc activation #epi.activation<relu> : f32
  epi.yield
}

// -----

// LinCombPerRowBias (Sm90ColBroadcast bias, indexed by m):
// D = beta * C + (alpha * acc + bias); ElementBias defaults to the D type.
// CHECK-LABEL: wsgemm.gemm @lin_comb_per_row_bias
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: epi.store %[[T1]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @lin_comb_per_row_bias a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBias %acc : f32
  epi.yield
}

// -----

// LinCombPerColBias (Sm90RowBroadcast bias, indexed by n).
// CHECK-LABEL: wsgemm.gemm @lin_comb_per_col_bias
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : bf16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: epi.store %[[T1]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @lin_comb_per_col_bias a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerColBias %acc bias bf16 : f32
  epi.yield
}

// -----

// LinCombPerRowBiasEltAct: D = activation(beta * C + (alpha * acc + bias)).
// CHECK-LABEL: wsgemm.gemm @lin_comb_per_row_bias_elt_act
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.gelu %[[T1]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @lin_comb_per_row_bias_elt_act a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<gelu> : f32
  epi.yield
}

// -----

// LinCombPerColBiasEltAct; the bias defaults to the D type (bf16 here).
// CHECK-LABEL: wsgemm.gemm @lin_comb_per_col_bias_elt_act
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : bf16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.silu %[[T1]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @lin_comb_per_col_bias_elt_act a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerColBiasEltAct %acc activation #epi.activation<silu> : f32
  epi.yield
}

// -----

// LinCombPerRowBiasEltActAux: Aux = Z is stored before the activation,
// D = activation(Z); ElementAux defaults to the D type.
// CHECK-LABEL: wsgemm.gemm @lin_comb_per_row_bias_elt_act_aux
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: epi.aux_store %[[T1]], "aux" : f32 -> f16
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T1]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @lin_comb_per_row_bias_elt_act_aux a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltActAux %acc activation #epi.activation<relu> : f32
  epi.yield
}

// -----

// LinCombPerColBiasEltActAux with explicit bias and aux types.
// CHECK-LABEL: wsgemm.gemm @lin_comb_per_col_bias_elt_act_aux
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : f32 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: epi.aux_store %[[T1]], "aux" : f32 -> f32
// CHECK-NEXT: %[[ACT:.+]] = epi.clamp %[[T1]] lower 0.000000e+00 upper 6.000000e+00 : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @lin_comb_per_col_bias_elt_act_aux a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerColBiasEltActAux %acc activation #epi.activation<clamp {lower = 0.0, upper = 6.0}> bias f32 aux f32 : f32
  epi.yield
}

// -----

// PerRowLinCombPerRowBiasEltAct: alpha and beta are f32 vectors by m;
// C is always read (no scalar beta to test).
// CHECK-LABEL: wsgemm.gemm @per_row_lin_comb
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.load_vec_m "alpha" : f32 -> f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.load_vec_m "beta" : f32 -> f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.tanh %[[T1]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @per_row_lin_comb a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion PerRowLinCombPerRowBiasEltAct %acc activation #epi.activation<tanh> : f32
  epi.yield
}

// -----

// PerColLinCombPerColBiasEltAct: alpha and beta are f32 vectors by n.
// CHECK-LABEL: wsgemm.gemm @per_col_lin_comb
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.load_vec_n "alpha" : f32 -> f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : f16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.load_vec_n "beta" : f32 -> f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.sigmoid %[[T1]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @per_col_lin_comb a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion PerColLinCombPerColBiasEltAct %acc activation #epi.activation<sigmoid> bias f16 : f32
  epi.yield
}

// -----

// PerColResAddPerColBiasEltAct: D = beta * C + activation(alpha * acc + bias),
// the residual C added after the activation.
// CHECK-LABEL: wsgemm.gemm @per_col_res_add
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.load_vec_n "alpha" : f32 -> f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : f16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.gelu_taylor %[[T0]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.load_vec_n "beta" : f32 -> f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[ACT]] : f32
// CHECK-NEXT: epi.store %[[T1]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @per_col_res_add a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion PerColResAddPerColBiasEltAct %acc activation #epi.activation<gelu_taylor> : f32
  epi.yield
}

// -----

// ScaledLinCombPerRowBiasEltAct, fp8 D: Z = (beta * scale_c) * C +
// ((alpha * scale_a) * scale_b) * acc + bias (Sm90ScalarBroadcast multiplies
// left to right), D = activation(Z) * scale_d.
// CHECK-LABEL: wsgemm.gemm @scaled_per_row_fp8_d
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[SCALE_A:.+]] = epi.scalar ptr ["scale_a"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[SCALE_A]] : f32
// CHECK-NEXT: %[[SCALE_B:.+]] = epi.scalar ptr ["scale_b"] : f32
// CHECK-NEXT: %[[T1:.+]] = arith.mulf %[[T0]], %[[SCALE_B]] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T2:.+]] = math.fma %[[T1]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[SCALE_C:.+]] = epi.scalar ptr ["scale_c"] : f32
// CHECK-NEXT: %[[T3:.+]] = arith.mulf %[[BETA]], %[[SCALE_C]] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T4:.+]] = math.fma %[[T3]], %[[C]], %[[T2]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T4]] : f32
// CHECK-NEXT: %[[SCALE_D:.+]] = epi.scalar ptr ["scale_d"] : f32
// CHECK-NEXT: %[[T5:.+]] = arith.mulf %[[ACT]], %[[SCALE_D]] : f32
// CHECK-NEXT: epi.store %[[T5]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_per_row_fp8_d a(f16) b(f16) c(f16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<relu> bias f16 : f32
  epi.yield
}

// -----

// ScaledLinCombPerColBiasEltAct, f16 D: ScaleOutOp is `first`, no scale_d.
// CHECK-LABEL: wsgemm.gemm @scaled_per_col_f16_d
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[SCALE_A:.+]] = epi.scalar ptr ["scale_a"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[SCALE_A]] : f32
// CHECK-NEXT: %[[SCALE_B:.+]] = epi.scalar ptr ["scale_b"] : f32
// CHECK-NEXT: %[[T1:.+]] = arith.mulf %[[T0]], %[[SCALE_B]] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : f16 -> f32
// CHECK-NEXT: %[[T2:.+]] = math.fma %[[T1]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[SCALE_C:.+]] = epi.scalar ptr ["scale_c"] : f32
// CHECK-NEXT: %[[T3:.+]] = arith.mulf %[[BETA]], %[[SCALE_C]] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T4:.+]] = math.fma %[[T3]], %[[C]], %[[T2]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.identity %[[T4]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_per_col_f16_d a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltAct %acc activation #epi.activation<identity> : f32
  epi.yield
}

// -----

// ScaledLinCombPerRowBiasEltActAmaxAux, fp8 D and fp8 aux (split tree):
// amax_aux = max|Z|, Aux = Z * scale_aux; amax_d = max|activation(Z)| before
// scale_d, D = activation(Z) * scale_d.
// CHECK-LABEL: wsgemm.gemm @scaled_amax_aux_fp8
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[SCALE_A:.+]] = epi.scalar ptr ["scale_a"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[SCALE_A]] : f32
// CHECK-NEXT: %[[SCALE_B:.+]] = epi.scalar ptr ["scale_b"] : f32
// CHECK-NEXT: %[[T1:.+]] = arith.mulf %[[T0]], %[[SCALE_B]] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T2:.+]] = math.fma %[[T1]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[SCALE_C:.+]] = epi.scalar ptr ["scale_c"] : f32
// CHECK-NEXT: %[[T3:.+]] = arith.mulf %[[BETA]], %[[SCALE_C]] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T4:.+]] = math.fma %[[T3]], %[[C]], %[[T2]] : f32
// CHECK-NEXT: epi.reduce_to_scalar absmax %[[T4]], "amax_aux" : f32
// CHECK-NEXT: %[[SCALE_AUX:.+]] = epi.scalar ptr ["scale_aux"] : f32
// CHECK-NEXT: %[[T5:.+]] = arith.mulf %[[T4]], %[[SCALE_AUX]] : f32
// CHECK-NEXT: epi.aux_store %[[T5]], "aux" : f32 -> f8E5M2
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T4]] : f32
// CHECK-NEXT: epi.reduce_to_scalar absmax %[[ACT]], "amax_d" : f32
// CHECK-NEXT: %[[SCALE_D:.+]] = epi.scalar ptr ["scale_d"] : f32
// CHECK-NEXT: %[[T6:.+]] = arith.mulf %[[ACT]], %[[SCALE_D]] : f32
// CHECK-NEXT: epi.store %[[T6]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_amax_aux_fp8 a(f16) b(f16) c(f16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltActAmaxAux %acc activation #epi.activation<relu> bias f16 aux f8E5M2 : f32
  epi.yield
}

// -----

// ScaledLinCombPerColBiasEltActAmaxAux, bf16 D and aux (NotFp8 tree):
// Aux = Z, no amax (amax_D_ptr is nulled for a non-fp8 D), no scale_d.
// CHECK-LABEL: wsgemm.gemm @scaled_amax_aux_not_fp8
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[SCALE_A:.+]] = epi.scalar ptr ["scale_a"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[SCALE_A]] : f32
// CHECK-NEXT: %[[SCALE_B:.+]] = epi.scalar ptr ["scale_b"] : f32
// CHECK-NEXT: %[[T1:.+]] = arith.mulf %[[T0]], %[[SCALE_B]] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : bf16 -> f32
// CHECK-NEXT: %[[T2:.+]] = math.fma %[[T1]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[SCALE_C:.+]] = epi.scalar ptr ["scale_c"] : f32
// CHECK-NEXT: %[[T3:.+]] = arith.mulf %[[BETA]], %[[SCALE_C]] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T4:.+]] = math.fma %[[T3]], %[[C]], %[[T2]] : f32
// CHECK-NEXT: epi.aux_store %[[T4]], "aux" : f32 -> bf16
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T4]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_amax_aux_not_fp8 a(f16) b(f16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltActAmaxAux %acc activation #epi.activation<relu> : f32
  epi.yield
}

// -----

// fp8 D, f16 aux: amax_d and scale_d, but Aux = Z without amax_aux.
// CHECK-LABEL: wsgemm.gemm @scaled_amax_aux_fp8_d_f16_aux
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[SCALE_A:.+]] = epi.scalar ptr ["scale_a"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[SCALE_A]] : f32
// CHECK-NEXT: %[[SCALE_B:.+]] = epi.scalar ptr ["scale_b"] : f32
// CHECK-NEXT: %[[T1:.+]] = arith.mulf %[[T0]], %[[SCALE_B]] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T2:.+]] = math.fma %[[T1]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[SCALE_C:.+]] = epi.scalar ptr ["scale_c"] : f32
// CHECK-NEXT: %[[T3:.+]] = arith.mulf %[[BETA]], %[[SCALE_C]] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T4:.+]] = math.fma %[[T3]], %[[C]], %[[T2]] : f32
// CHECK-NEXT: epi.aux_store %[[T4]], "aux" : f32 -> f16
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T4]] : f32
// CHECK-NEXT: epi.reduce_to_scalar absmax %[[ACT]], "amax_d" : f32
// CHECK-NEXT: %[[SCALE_D:.+]] = epi.scalar ptr ["scale_d"] : f32
// CHECK-NEXT: %[[T5:.+]] = arith.mulf %[[ACT]], %[[SCALE_D]] : f32
// CHECK-NEXT: epi.store %[[T5]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_amax_aux_fp8_d_f16_aux a(f16) b(f16) c(f16) d(f8E5M2) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltActAmaxAux %acc activation #epi.activation<relu> bias f16 aux f16 : f32
  epi.yield
}

// -----

// f16 D, fp8 aux: amax_aux and scale_aux, but no amax_d or scale_d.
// CHECK-LABEL: wsgemm.gemm @scaled_amax_aux_f16_d_fp8_aux
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[SCALE_A:.+]] = epi.scalar ptr ["scale_a"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[SCALE_A]] : f32
// CHECK-NEXT: %[[SCALE_B:.+]] = epi.scalar ptr ["scale_b"] : f32
// CHECK-NEXT: %[[T1:.+]] = arith.mulf %[[T0]], %[[SCALE_B]] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : f16 -> f32
// CHECK-NEXT: %[[T2:.+]] = math.fma %[[T1]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[SCALE_C:.+]] = epi.scalar ptr ["scale_c"] : f32
// CHECK-NEXT: %[[T3:.+]] = arith.mulf %[[BETA]], %[[SCALE_C]] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T4:.+]] = math.fma %[[T3]], %[[C]], %[[T2]] : f32
// CHECK-NEXT: epi.reduce_to_scalar absmax %[[T4]], "amax_aux" : f32
// CHECK-NEXT: %[[SCALE_AUX:.+]] = epi.scalar ptr ["scale_aux"] : f32
// CHECK-NEXT: %[[T5:.+]] = arith.mulf %[[T4]], %[[SCALE_AUX]] : f32
// CHECK-NEXT: epi.aux_store %[[T5]], "aux" : f32 -> f8E4M3FN
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T4]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_amax_aux_f16_d_fp8_aux a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltActAmaxAux %acc activation #epi.activation<relu> aux f8E4M3FN : f32
  epi.yield
}

// -----

// No C operand (CUTLASS void ElementC): the beta * C term is dropped.
// CHECK-LABEL: wsgemm.gemm @no_source
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK-NEXT: %[[T0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.hardswish %[[T0]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @no_source a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<hardswish> : f32
  epi.yield
}

// -----

// No C operand on a scaled preset: neither beta nor scale_c.
// CHECK-LABEL: wsgemm.gemm @scaled_no_source
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[SCALE_A:.+]] = epi.scalar ptr ["scale_a"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[SCALE_A]] : f32
// CHECK-NEXT: %[[SCALE_B:.+]] = epi.scalar ptr ["scale_b"] : f32
// CHECK-NEXT: %[[T1:.+]] = arith.mulf %[[T0]], %[[SCALE_B]] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_m "bias" : f8E4M3FN -> f32
// CHECK-NEXT: %[[T2:.+]] = math.fma %[[T1]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.relu %[[T2]] : f32
// CHECK-NEXT: %[[SCALE_D:.+]] = epi.scalar ptr ["scale_d"] : f32
// CHECK-NEXT: %[[T3:.+]] = arith.mulf %[[ACT]], %[[SCALE_D]] : f32
// CHECK-NEXT: epi.store %[[T3]] : f32
// CHECK-NEXT: epi.yield
wsgemm.gemm @scaled_no_source a(f16) b(f16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<relu> : f32
  epi.yield
}

// -----

// A preset mixed with user outputs: only the preset is replaced; the user's
// ops, their order around it and the shared "alpha" parameter stay.
// CHECK-LABEL: wsgemm.gemm @mixed
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[UA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[UX:.+]] = arith.mulf %[[UA]], %[[ACC]] : f32
// CHECK-NEXT: epi.reduce_to_vec_m max %[[UX]], "row_max" : f32
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[BIAS:.+]] = epi.load_vec_n "bias" : bf16 -> f32
// CHECK-NEXT: %[[Z0:.+]] = math.fma %[[ALPHA]], %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[Z:.+]] = math.fma %[[BETA]], %[[C]], %[[Z0]] : f32
// CHECK-NEXT: epi.aux_store %[[Z]], "aux" : f32 -> f16
// CHECK-NEXT: %[[ACT:.+]] = epi.gelu %[[Z]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.reduce_to_scalar absmax %[[ACC]], "acc_amax" : f32
// CHECK-NEXT: epi.yield
// LOWER-LABEL: wsgemm.gemm @mixed
// LOWER-NOT: epi.fusion
// LOWER-NOT: epi.gelu
// LOWER: epi.aux_store %{{.+}}, "aux" : f32 -> f16
// LOWER: math.erf
// LOWER: %[[G:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// LOWER-NEXT: epi.store %[[G]] : f32
// LOWER-NEXT: epi.reduce_to_scalar absmax
wsgemm.gemm @mixed a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %x = arith.mulf %alpha, %acc : f32
  epi.reduce_to_vec_m max %x, "row_max" : f32
  epi.fusion LinCombPerColBiasEltActAux %acc activation #epi.activation<gelu> bias bf16 : f32
  epi.reduce_to_scalar absmax %acc, "acc_amax" : f32
  epi.yield
}

// -----

// An activation with launch-time parameters (#epi.scalar): an epi.scalar
// per parameter feeds the activation; constants stay attributes.
// CHECK-LABEL: wsgemm.gemm @lin_comb_clamp_params
// CHECK-NEXT: ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = epi.scalar param ["alpha"] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[ACC]] : f32
// CHECK-NEXT: %[[BETA:.+]] = epi.scalar param ["beta"] : f32
// CHECK-NEXT: %[[C:.+]] = epi.load_src skip_if_zero "beta" : f32
// CHECK-NEXT: %[[T1:.+]] = math.fma %[[BETA]], %[[C]], %[[T0]] : f32
// CHECK-NEXT: %[[HI:.+]] = epi.scalar param ["clamp_upper"] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.clamp %[[T1]] lower 0.000000e+00 upper %[[HI]] : f32
// CHECK-NEXT: epi.store %[[ACT]] : f32
// CHECK-NEXT: epi.yield
// LOWER-LABEL: wsgemm.gemm @lin_comb_clamp_params
// LOWER: %[[HI:.+]] = epi.scalar param ["clamp_upper"] : f32
// LOWER-NEXT: %[[LO:.+]] = arith.constant 0.000000e+00 : f32
// LOWER-NEXT: %[[A:.+]] = arith.maximumf %{{.+}}, %[[LO]] : f32
// LOWER-NEXT: %[[D:.+]] = arith.minimumf %[[A]], %[[HI]] : f32
// LOWER-NEXT: epi.store %[[D]] : f32
wsgemm.gemm @lin_comb_clamp_params a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombEltAct %acc activation #epi.activation<clamp {lower = 0.0, upper = #epi.scalar<param "clamp_upper">}> : f32
  epi.yield
}

// -----

// leaky_alpha from device memory, threshold and bound at launch, in the
// scaled fp8 presets.
// CHECK-LABEL: wsgemm.gemm @scaled_leaky_ptr
// CHECK: %[[S:.+]] = epi.scalar ptr ["slope"] : f32
// CHECK-NEXT: %[[ACT:.+]] = epi.leaky_relu %{{.+}} leaky_alpha %[[S]] : f32
// CHECK: epi.store
wsgemm.gemm @scaled_leaky_ptr a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<leaky_relu {leaky_alpha = #epi.scalar<ptr "slope">}> : f32
  epi.yield
}

// -----

// CHECK-LABEL: wsgemm.gemm @threshold_params
// CHECK: %[[T:.+]] = epi.scalar param ["threshold"] : f32
// CHECK-NEXT: %[[U:.+]] = epi.scalar param ["cap"] : f32
// CHECK-NEXT: epi.threshold_relu %{{.+}} threshold %[[T]] upper_bound %[[U]] : f32
wsgemm.gemm @threshold_params a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerColBiasEltAct %acc activation #epi.activation<threshold_relu {threshold = #epi.scalar<param "threshold">, upper_bound = #epi.scalar<param "cap">}> : f32
  epi.yield
}
