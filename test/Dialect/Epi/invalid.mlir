// RUN: ws-gemm-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the epi dialect.

//===----------------------------------------------------------------------===//
// Leaves, outputs, presets and yield only directly inside an epilogue
//===----------------------------------------------------------------------===//

func.func @load_src_in_func() {
  // expected-error @below {{'epi.load_src' op must be directly inside an epilogue region}}
  %c = epi.load_src : f32
  return
}

// -----

func.func @store_in_func(%x: f32) {
  // expected-error @below {{'epi.store' op must be directly inside an epilogue region}}
  epi.store %x : f32
  return
}

// -----

func.func @scalar_in_func() {
  // expected-error @below {{'epi.scalar' op must be directly inside an epilogue region}}
  %a = epi.scalar param ["alpha"] : f32
  return
}

// -----

func.func @reduce_in_func(%x: f32) {
  // expected-error @below {{'epi.reduce_to_scalar' op must be directly inside an epilogue region}}
  epi.reduce_to_scalar absmax %x, "amax" : f32
  return
}

// -----

func.func @fusion_in_func(%x: f32) {
  // expected-error @below {{'epi.fusion' op must be directly inside an epilogue region}}
  epi.fusion LinearCombination %x : f32
  return
}

// -----

func.func @yield_in_func() {
  // expected-error @below {{'epi.yield' op must be directly inside an epilogue region}}
  epi.yield
}

//===----------------------------------------------------------------------===//
// Epilogue region rules
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{'wsgemm.gemm' op epilogue has no output: it needs an epi.store, epi.aux_store, a reduction or an epi.fusion preset}}
wsgemm.gemm @no_output a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %r = epi.relu %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @two_d_stores a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first D store here}}
  epi.store %acc : f32
  // expected-error @below {{'epi.store' op stores D a second time; an epilogue has at most one D store (epi.store or epi.fusion)}}
  epi.store %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @store_and_preset a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first D store here}}
  epi.fusion LinearCombination %acc : f32
  // expected-error @below {{'epi.store' op stores D a second time}}
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @below {{'wsgemm.gemm' op epilogue region must have exactly one f32 block argument (the accumulator element), got 1 argument(s)}}
wsgemm.gemm @f16_block_arg a(f16) b(f16) d(f16) {
^bb0(%acc: f16):
  epi.reduce_to_scalar sum %acc, "s" : f16
  epi.yield
}

// -----

// expected-error @below {{'wsgemm.gemm' op epilogue region must have exactly one f32 block argument (the accumulator element), got 2 argument(s)}}
wsgemm.gemm @two_block_args a(f16) b(f16) d(f16) {
^bb0(%acc: f32, %other: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @foreign_op a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'func.constant' op is not allowed in an epilogue: only epi, arith and math ops on scalars may appear there}}
  %f = func.constant @callee : () -> ()
  epi.store %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @vector_value a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'arith.constant' op uses a value of type 'vector<4xf32>'; epilogue values are scalars (one output element)}}
  %v = arith.constant dense<1.0> : vector<4xf32>
  epi.store %acc : f32
  epi.yield
}

//===----------------------------------------------------------------------===//
// Manifest names: one kind and one type per name, outputs written once
//===----------------------------------------------------------------------===//

// -----

wsgemm.gemm @name_param_vs_vector a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  %a = epi.scalar param ["x"] : f32
  // expected-error @below {{'epi.load_vec_m' op uses the name 'x' as a vector indexed by m (epi.load_vec_m) of 'f16', but it already denotes a scalar kernel parameter (epi.scalar param) of 'f32'; each name is one manifest parameter of one kind and type}}
  %v = epi.load_vec_m "x" : f16 -> f32
  epi.store %v : f32
  epi.yield
}

// -----

wsgemm.gemm @name_param_vs_ptr a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  %a = epi.scalar param ["s"] : f32
  // expected-error @below {{'epi.scalar' op uses the name 's' as a scalar device pointer (epi.scalar ptr) of 'f32', but it already denotes a scalar kernel parameter (epi.scalar param) of 'f32'}}
  %b = epi.scalar ptr ["s"] : f32
  epi.store %b : f32
  epi.yield
}

// -----

wsgemm.gemm @name_other_type a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  %a = epi.load_vec_m "bias" : f16 -> f32
  // expected-error @below {{'epi.load_vec_m' op uses the name 'bias' as a vector indexed by m (epi.load_vec_m) of 'bf16', but it already denotes a vector indexed by m (epi.load_vec_m) of 'f16'}}
  %b = epi.load_vec_m "bias" : bf16 -> f32
  epi.store %b : f32
  epi.yield
}

// -----

wsgemm.gemm @name_vec_m_vs_vec_n a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  %a = epi.load_vec_m "bias" : f16 -> f32
  // expected-error @below {{'epi.load_vec_n' op uses the name 'bias' as a vector indexed by n (epi.load_vec_n) of 'f16'}}
  %b = epi.load_vec_n "bias" : f16 -> f32
  epi.store %b : f32
  epi.yield
}

// -----

wsgemm.gemm @aux_load_and_store_share_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  %r = epi.aux_load "res" : f16 -> f32
  // expected-error @below {{'epi.aux_store' op uses the name 'res' as an aux output matrix (epi.aux_store) of 'f16', but it already denotes an aux input matrix (epi.aux_load) of 'f16'}}
  epi.aux_store %r, "res" : f32 -> f16
  epi.yield
}

// -----

wsgemm.gemm @aux_store_twice a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  epi.aux_store %acc, "pre" : f32 -> f16
  // expected-error @below {{'epi.aux_store' op writes the output 'pre' a second time; each output name is written once}}
  epi.aux_store %acc, "pre" : f32 -> f16
  epi.yield
}

// -----

wsgemm.gemm @reduce_twice a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  epi.reduce_to_vec_m max %acc, "r" : f32
  // expected-error @below {{'epi.reduce_to_vec_m' op writes the output 'r' a second time}}
  epi.reduce_to_vec_m max %acc, "r" : f32
  epi.yield
}

// -----

wsgemm.gemm @reduce_row_vs_col a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  epi.reduce_to_vec_m sum %acc, "r" : f32
  // expected-error @below {{'epi.reduce_to_vec_n' op uses the name 'r' as a reduction to a vector indexed by n (epi.reduce_to_vec_n) of 'f32', but it already denotes a reduction to a vector indexed by m (epi.reduce_to_vec_m) of 'f32'}}
  epi.reduce_to_vec_n sum %acc, "r" : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_aux_name_taken a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  epi.aux_store %acc, "aux" : f32 -> f16
  // expected-error @below {{'epi.fusion' op writes the output 'aux' a second time}}
  epi.fusion LinCombPerRowBiasEltActAux %acc activation #epi.activation<relu> : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_alpha_kind a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  %a = epi.load_vec_m "alpha" : f32 -> f32
  epi.aux_store %a, "out" : f32 -> f16
  // expected-error @below {{'epi.fusion' op uses the name 'alpha' as a scalar kernel parameter (epi.scalar param) of 'f32', but it already denotes a vector indexed by m (epi.load_vec_m) of 'f32'}}
  epi.fusion LinearCombination %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_bias_type a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  epi.fusion PerColLinCombPerColBiasEltAct %acc activation #epi.activation<relu> : f32
  // expected-error @below {{'epi.load_vec_n' op uses the name 'bias' as a vector indexed by n (epi.load_vec_n) of 'bf16', but it already denotes a vector indexed by n (epi.load_vec_n) of 'f16'}}
  %b = epi.load_vec_n "bias" : bf16 -> f32
  epi.reduce_to_scalar sum %b, "s" : f32
  epi.yield
}

//===----------------------------------------------------------------------===//
// Leaves
//===----------------------------------------------------------------------===//

// -----

wsgemm.gemm @load_src_without_c a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.load_src' op reads the source matrix C, but the enclosing 'wsgemm.gemm' declares no C operand}}
  %c = epi.load_src : f32
  epi.store %c : f32
  epi.yield
}

// -----

wsgemm.gemm @skip_if_zero_ptr a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %beta = epi.scalar ptr ["beta"] : f32
  // expected-error @below {{'epi.load_src' op skip_if_zero names 'beta', which an 'epi.scalar ptr' reads from device memory: only a by-value kernel parameter is known before C is loaded}}
  %c = epi.load_src skip_if_zero "beta" : f32
  %d = arith.mulf %beta, %c : f32
  epi.store %d : f32
  epi.yield
}

// -----

wsgemm.gemm @skip_if_zero_empty a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.load_src' op needs a non-empty name: names become kernel parameters in the manifest}}
  %c = epi.load_src skip_if_zero "" : f32
  epi.store %c : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_attr_no_value a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op with source 'attr' needs a value and no names}}
  %k = epi.scalar attr : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_attr_with_names a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op with source 'attr' needs a value and no names}}
  %k = epi.scalar attr ["k"] 1.0 : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_attr_overflow a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op value 1.000000e+10 must be representable in the result type 'f16', but it overflows}}
  %k = epi.scalar attr 1.0e10 : f16
  %x = arith.extf %k : f16 to f32
  epi.store %x : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_param_with_value a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op with source 'param' takes names, not a value}}
  %k = epi.scalar param ["alpha"] 1.0 : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_param_no_names a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op with source 'param' needs at least one name}}
  %k = epi.scalar param : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_ptr_empty_names a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op with source 'ptr' needs at least one name}}
  %k = epi.scalar ptr [] : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_name_twice a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op names scalar 'scale_a' twice}}
  %k = epi.scalar ptr ["scale_a", "scale_a"] : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.scalar' op needs a non-empty name}}
  %k = epi.scalar param [""] : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @scalar_bad_source a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{expected one of [attr, param, ptr]}}
  // expected-error @below {{invalid value for property source}}
  %k = epi.scalar register ["x"] : f32
  epi.store %k : f32
  epi.yield
}

// -----

wsgemm.gemm @vec_m_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.load_vec_m' op needs a non-empty name}}
  %v = epi.load_vec_m "" : f16 -> f32
  epi.store %v : f32
  epi.yield
}

// -----

wsgemm.gemm @vec_n_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.load_vec_n' op needs a non-empty name}}
  %v = epi.load_vec_n "" : f16 -> f32
  epi.store %v : f32
  epi.yield
}

// -----

wsgemm.gemm @aux_load_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.aux_load' op needs a non-empty name}}
  %v = epi.aux_load "" : f16 -> f32
  epi.store %v : f32
  epi.yield
}

// -----

wsgemm.gemm @vec_bad_elem_type a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.load_vec_m' op attribute 'elem_type' failed to satisfy constraint}}
  %v = epi.load_vec_m "v" : i8 -> f32
  epi.store %v : f32
  epi.yield
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

// -----

func.func @clamp_bounds(%x: f32) -> f32 {
  // expected-error @below {{'epi.clamp' op needs lower <= upper, got lower = 6.000000e+00 and upper = 0.000000e+00}}
  %y = epi.clamp %x lower 6.0 upper 0.0 : f32
  return %y : f32
}

// -----

func.func @activation_int(%x: i32) -> i32 {
  // expected-error @below {{'epi.relu' op operand #0 must be 16-bit float or bfloat16 type or 32-bit float or 64-bit float, but got 'i32'}}
  %y = epi.relu %x : i32
  return %y : i32
}

// -----

func.func @activation_fp8(%x: f8E4M3FN) -> f8E4M3FN {
  // expected-error @below {{'epi.gelu' op operand #0 must be 16-bit float or bfloat16 type or 32-bit float or 64-bit float, but got 'f8E4M3FN'}}
  %y = epi.gelu %x : f8E4M3FN
  return %y : f8E4M3FN
}

// -----

func.func @convert_fp8_rz(%x: f32) -> f8E4M3FN {
  // expected-error @below {{'epi.convert' op conversion to 'f8E4M3FN' supports only 'rn' rounding (PTX cvt.rn.satfinite), got 'rz'}}
  %y = epi.convert %x rz : f32 -> f8E4M3FN
  return %y : f8E4M3FN
}

// -----

func.func @convert_bad_rounding(%x: f32) -> f16 {
  // expected-error @below {{expected one of [rn, rz, rm, rp] for IEEE rounding mode of a narrowing conversion, got: ru}}
  %y = epi.convert %x ru : f32 -> f16
  return %y : f16
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

// -----

wsgemm.gemm @store_fp8_rz a(f16) b(f16) d(f8E5M2) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.store' op conversion to 'f8E5M2' supports only 'rn' rounding (PTX cvt.rn.satfinite), got 'rm'}}
  epi.store %acc rm : f32
  epi.yield
}

// -----

wsgemm.gemm @aux_store_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.aux_store' op needs a non-empty name}}
  epi.aux_store %acc, "" : f32 -> f16
  epi.yield
}

// -----

wsgemm.gemm @reduce_vec_m_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.reduce_to_vec_m' op needs a non-empty name}}
  epi.reduce_to_vec_m max %acc, "" : f32
  epi.yield
}

// -----

wsgemm.gemm @reduce_vec_n_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.reduce_to_vec_n' op needs a non-empty name}}
  epi.reduce_to_vec_n max %acc, "" : f32
  epi.yield
}

// -----

wsgemm.gemm @reduce_scalar_empty_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.reduce_to_scalar' op needs a non-empty name}}
  epi.reduce_to_scalar max %acc, "" : f32
  epi.yield
}

// -----

wsgemm.gemm @reduce_bad_kind a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{expected one of [sum, max, min, absmax]}}
  // expected-error @below {{invalid value for property kind}}
  epi.reduce_to_scalar prod %acc, "p" : f32
  epi.yield
}

//===----------------------------------------------------------------------===//
// Presets
//===----------------------------------------------------------------------===//

// -----

wsgemm.gemm @preset_needs_activation a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.fusion' op preset LinCombPerRowBiasEltAct needs an activation (its name has EltAct)}}
  epi.fusion LinCombPerRowBiasEltAct %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_takes_no_activation a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.fusion' op preset LinearCombination takes no activation, got relu}}
  epi.fusion LinearCombination %acc activation #epi.activation<relu> : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_takes_no_bias a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.fusion' op preset LinCombEltAct has no bias vector, so it takes no bias type}}
  epi.fusion LinCombEltAct %acc activation #epi.activation<relu> bias f16 : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_takes_no_aux a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.fusion' op preset ScaledLinCombPerRowBiasEltAct has no aux output, so it takes no aux type}}
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<relu> aux f8E4M3FN : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_operand_f16 a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %h = arith.truncf %acc : f32 to f16
  // expected-error @below {{'epi.fusion' op operand #0 must be 32-bit float, but got 'f16'}}
  epi.fusion LinearCombination %h : f16
  epi.yield
}

// -----

wsgemm.gemm @preset_bad_bias_type a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.fusion' op attribute 'bias_type' failed to satisfy constraint}}
  epi.fusion LinCombPerRowBias %acc bias i32 : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_unknown a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{expected one of [ScaledAcc, LinearCombination}}
  epi.fusion LinCombSoftmax %acc : f32
  epi.yield
}

// -----

wsgemm.gemm @preset_activation_not_attr a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{expected an #epi.activation attribute, got 1.000000e+00 : f32}}
  epi.fusion LinCombEltAct %acc activation 1.0 : f32
  epi.yield
}

//===----------------------------------------------------------------------===//
// #epi.activation parameters
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{activation 'clamp' needs parameter 'upper'}}
func.func @act_missing_param() attributes {a = #epi.activation<clamp {lower = 0.0}>} {
  return
}

// -----

// expected-error @below {{activation parameter 'leaky_alpha' must be a float (a compile-time constant) or an #epi.scalar<param|ptr "name"> (a launch-time value), got 1 : i32}}
func.func @act_param_not_float() attributes {a = #epi.activation<leaky_relu {leaky_alpha = 1 : i32}>} {
  return
}

// -----

// expected-error @below {{activation 'relu' takes no parameter 'alpha'}}
func.func @act_unknown_param() attributes {a = #epi.activation<relu {alpha = 1.0}>} {
  return
}

// -----

// expected-error @below {{activation 'threshold_relu' takes no parameter 'value'}}
func.func @act_old_param_name() attributes {a = #epi.activation<threshold_relu {threshold = 0.0, value = 1.0}>} {
  return
}

// -----

// expected-error @below {{activation 'clamp' needs lower <= upper, got lower = 1.000000e+00 and upper = 0.000000e+00}}
func.func @act_clamp_bounds() attributes {a = #epi.activation<clamp {lower = 1.0, upper = 0.0}>} {
  return
}

// -----

// expected-error @below {{expected one of [identity, relu, clamp, leaky_relu, threshold_relu, gelu, gelu_taylor, silu, sigmoid, tanh, hardswish]}}
func.func @act_unknown_kind() attributes {a = #epi.activation<swish>} {
  return
}

// -----

wsgemm.gemm @preset_activation_params a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{activation 'leaky_relu' needs parameter 'leaky_alpha'}}
  epi.fusion LinCombEltAct %acc activation #epi.activation<leaky_relu> : f32
  epi.yield
}

// -----

func.func @visit_names(%acc: vector<2xf32>, %c: vector<2xf32>) {
  // expected-error @below {{'epi.visit' op names 0 sources but has 1: each source needs exactly one name}}
  %d = epi.visit %acc : vector<2xf32> sources(%c : vector<2xf32>) names []
      outputs ["D"] d_type f16 -> vector<2xf32> {
  ^bb0(%x: f32):
    epi.store %x : f32
    epi.yield
  }
  return
}

// -----

func.func @visit_sizes(%acc: vector<2xf32>, %c: vector<4xf32>) {
  // expected-error @below {{'epi.visit' op has a fragment of 4 elements beside an accumulator fragment of 2: every fragment holds the same elements}}
  %d = epi.visit %acc : vector<2xf32> sources(%c : vector<4xf32>) names ["C"]
      outputs ["D"] d_type f16 -> vector<2xf32> {
  ^bb0(%x: f32):
    epi.store %x : f32
    epi.yield
  }
  return
}

//===----------------------------------------------------------------------===//
// Reducing D stores (epi.store ... reduce): what PTX reduces into global
// memory (cp.reduce.async.bulk.tensor, red.global)
//===----------------------------------------------------------------------===//

// -----

wsgemm.gemm @reduce_into_fp8 a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.store' op 'reduce add' into D of type 'f8E4M3FN': PTX reduces into global memory only f32, f16 and bf16 (cp.reduce.async.bulk.tensor, red.global), not 8-bit floats}}
  epi.store %acc reduce add : f32
  epi.yield
}

// -----

wsgemm.gemm @reduce_max_f32 a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.store' op 'reduce max' into f32 D: PTX has min and max reductions for f16 and bf16 only (f32 has add)}}
  epi.store %acc reduce max : f32
  epi.yield
}

// -----

wsgemm.gemm @reduce_min_f32 a(bf16) b(bf16) d(f32) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.store' op 'reduce min' into f32 D: PTX has min and max reductions for f16 and bf16 only (f32 has add)}}
  epi.store %acc reduce min : f32
  epi.yield
}

// -----

wsgemm.gemm @reduce_bad_kind a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error-re @below {{{{.*}}how a D store combines with D's old value{{.*}}}}
  epi.store %acc reduce sum : f32
  epi.yield
}

//===----------------------------------------------------------------------===//
// Activation parameters at launch
//===----------------------------------------------------------------------===//

// -----

func.func @clamp_both(%x: f32, %p: f32) -> f32 {
  // expected-error @below {{'epi.clamp' op gives 'lower' both as an attribute and as an operand; an activation parameter is either a compile-time constant (attribute) or a launch-time value (operand), not both}}
  %y = "epi.clamp"(%x, %p) <{lower = 0.0 : f64, upper = 6.0 : f64, operandSegmentSizes = array<i32: 1, 1, 0>}> : (f32, f32) -> f32
  return %y : f32
}

// -----

func.func @clamp_neither(%x: f32) -> f32 {
  // expected-error @below {{'epi.clamp' op needs 'upper', as a compile-time constant (attribute) or a launch-time value (operand)}}
  %y = "epi.clamp"(%x) <{lower = 0.0 : f64, operandSegmentSizes = array<i32: 1, 0, 0>}> : (f32) -> f32
  return %y : f32
}

// -----

func.func @leaky_relu_neither(%x: f32) -> f32 {
  // expected-error @below {{'epi.leaky_relu' op needs 'leaky_alpha', as a compile-time constant (attribute) or a launch-time value (operand)}}
  %y = "epi.leaky_relu"(%x) : (f32) -> f32
  return %y : f32
}

// -----

func.func @threshold_relu_bound_both(%x: f32, %p: f32) -> f32 {
  // expected-error @below {{'epi.threshold_relu' op gives 'upper_bound' both as an attribute and as an operand}}
  %y = "epi.threshold_relu"(%x, %p) <{threshold = 0.0 : f64, upper_bound = 6.0 : f64, operandSegmentSizes = array<i32: 1, 0, 1>}> : (f32, f32) -> f32
  return %y : f32
}

// -----

func.func @threshold_relu_neither(%x: f32, %p: f32) -> f32 {
  // expected-error @below {{'epi.threshold_relu' op needs 'threshold', as a compile-time constant (attribute) or a launch-time value (operand)}}
  %y = "epi.threshold_relu"(%x, %p) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (f32, f32) -> f32
  return %y : f32
}

// -----

// A launch-time parameter has the operand's type, like the constant.
func.func @clamp_param_type(%x: f32, %p: f16) -> f32 {
  // expected-error @below {{'epi.clamp' op requires the same type for all operands and results}}
  %y = "epi.clamp"(%x, %p) <{upper = 6.0 : f64, operandSegmentSizes = array<i32: 1, 1, 0>}> : (f32, f16) -> f32
  return %y : f32
}

// -----

// Launch-time bounds are not compared: only two constants are.
func.func @clamp_param_bounds_unchecked(%x: f32, %p: f32) -> f32 {
  %y = epi.clamp %x lower %p upper -1.0e30 : f32
  return %y : f32
}

// -----

// expected-error @below {{#epi.scalar names a launch-time value: its source is 'param' or 'ptr', not 'attr' (write the constant itself)}}
func.func @scalar_ref_attr() attributes {a = #epi.scalar<attr "x">} {
  return
}

// -----

// expected-error @below {{#epi.scalar needs a non-empty name: names become kernel parameters in the manifest}}
func.func @scalar_ref_empty() attributes {a = #epi.scalar<param "">} {
  return
}

// -----

// A preset's launch-time activation parameter is a manifest name like the
// preset's own: it may not reuse one of another kind.
wsgemm.gemm @preset_param_name_clash a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.fusion' op uses the name 'bias' as a scalar kernel parameter (epi.scalar param) of 'f32', but it already denotes a vector indexed by m (epi.load_vec_m) of 'f16'; each name is one manifest parameter of one kind and type}}
  // expected-note @below {{first used here}}
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<leaky_relu {leaky_alpha = #epi.scalar<param "bias">}> bias f16 : f32
  epi.yield
}

// -----

// ... nor one the rest of the epilogue uses with another kind.
wsgemm.gemm @preset_param_ptr_clash a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-note @below {{first used here}}
  %s = epi.scalar ptr ["cap"] : f32
  %x = arith.mulf %s, %acc : f32
  epi.reduce_to_scalar max %x, "m" : f32
  // expected-error @below {{'epi.fusion' op uses the name 'cap' as a scalar kernel parameter (epi.scalar param) of 'f32', but it already denotes a scalar device pointer (epi.scalar ptr) of 'f32'}}
  epi.fusion LinCombEltAct %acc activation #epi.activation<clamp {lower = 0.0, upper = #epi.scalar<param "cap">}> : f32
  epi.yield
}
