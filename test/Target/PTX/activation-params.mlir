// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=PARAMS --input-file=%t/clamp_params.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/clamp_params.ptx
// RUN: FileCheck %s --check-prefix=MIXED --input-file=%t/leaky_threshold_mixed.json
// RUN: FileCheck %s --check-prefix=PRESET --input-file=%t/preset_leaky.json
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t/clamp_const.ptx

// Activation parameters at launch (issue 31): each `epi.scalar` operand of
// an activation is a scalar (or scalar_pointer) kernel parameter the runtime
// asks for by name, and the EVT node reads it from an argument
// (`{"arg": i}`); a constant stays a number in the node and an immediate in
// the PTX.

// The manifest: the two bounds are named scalar parameters of the kernel,
// and the clamp node takes them as its arguments 1 and 2.
// PARAMS:      "op": "acc"
// PARAMS:      "id": 1,
// PARAMS-NEXT: "names": [
// PARAMS-NEXT:   "clamp_lo"
// PARAMS-NEXT: ],
// PARAMS-NEXT: "op": "scalar",
// PARAMS-NEXT: "source": "param"
// PARAMS:      "id": 2,
// PARAMS-NEXT: "names": [
// PARAMS-NEXT:   "clamp_hi"
// PARAMS:      "args": [
// PARAMS-NEXT:   0,
// PARAMS-NEXT:   1,
// PARAMS-NEXT:   2
// PARAMS-NEXT: ],
// PARAMS-NEXT: "id": 3,
// PARAMS-NEXT: "lower": {
// PARAMS-NEXT:   "arg": 1
// PARAMS-NEXT: },
// PARAMS-NEXT: "op": "clamp",
// PARAMS-NEXT: "upper": {
// PARAMS-NEXT:   "arg": 2
// PARAMS-NEXT: }
// PARAMS:      "kind": "scalar",
// PARAMS-NEXT: "name": "clamp_lo"
// PARAMS:      "kind": "scalar",
// PARAMS-NEXT: "name": "clamp_hi"

// In the PTX, two f32 kernel parameters, max.NaN / min.NaN against registers.
// PTX:     .param .f32 clamp_params_param_3,
// PTX:     .param .f32 clamp_params_param_4,
// PTX-DAG: ld.param.b32 {{.*}}[clamp_params_param_3]
// PTX-DAG: ld.param.b32 {{.*}}[clamp_params_param_4]
// PTX-DAG: max.NaN.f32 {{.*}}, %r{{[0-9]+}};
// PTX-DAG: min.NaN.f32 {{.*}}, %r{{[0-9]+}};
wsgemm.gemm @clamp_params a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %lo = epi.scalar param ["clamp_lo"] : f32
  %hi = epi.scalar param ["clamp_hi"] : f32
  %r = epi.clamp %acc lower %lo upper %hi : f32
  epi.store %r : f32
  epi.yield
}

// Constants fold as before: immediates, no scalar parameter.
// CONST-NOT: .param .f32
// CONST:     max.NaN.f32 {{.*}}, 0f00000000;
// CONST:     min.NaN.f32 {{.*}}, 0f40C00000;
wsgemm.gemm @clamp_const a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %r = epi.clamp %acc lower 0.0 upper 6.0 : f32
  epi.store %r : f32
  epi.yield
}

// A pointer parameter and constants mixed: leaky_relu's alpha from device
// memory, threshold_relu's threshold constant and its bound at launch.
// MIXED:      "names": [
// MIXED-NEXT:   "slope"
// MIXED-NEXT: ],
// MIXED-NEXT: "op": "scalar",
// MIXED-NEXT: "source": "ptr"
// MIXED:      "alpha": {
// MIXED-NEXT:   "arg": 1
// MIXED-NEXT: },
// MIXED-NEXT: "args": [
// MIXED-NEXT:   0,
// MIXED-NEXT:   1
// MIXED-NEXT: ],
// MIXED-NEXT: "id": 2,
// MIXED-NEXT: "op": "leaky_relu"
// MIXED:      "args": [
// MIXED-NEXT:   2,
// MIXED-NEXT:   3
// MIXED-NEXT: ],
// MIXED-NEXT: "id": 4,
// MIXED-NEXT: "op": "threshold_relu",
// MIXED-NEXT: "threshold": 0.25,
// MIXED-NEXT: "upper_bound": {
// MIXED-NEXT:   "arg": 1
// MIXED-NEXT: }
// MIXED:      "kind": "scalar_pointer",
// MIXED-NEXT: "name": "slope"
// MIXED:      "kind": "scalar",
// MIXED-NEXT: "name": "cap"
wsgemm.gemm @leaky_threshold_mixed a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %s = epi.scalar ptr ["slope"] : f32
  %l = epi.leaky_relu %acc leaky_alpha %s : f32
  %cap = epi.scalar param ["cap"] : f32
  %t = epi.threshold_relu %l threshold 0.25 upper_bound %cap : f32
  epi.store %t : f32
  epi.yield
}

// A preset's launch-time activation parameter is a scalar like alpha.
// PRESET:      "op": "leaky_relu"
// PRESET:      "kind": "scalar",
// PRESET-NEXT: "name": "alpha"
// PRESET:      "kind": "scalar",
// PRESET-NEXT: "name": "beta"
// PRESET:      "kind": "scalar",
// PRESET-NEXT: "name": "leaky_alpha"
wsgemm.gemm @preset_leaky a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc
      activation #epi.activation<leaky_relu {
          leaky_alpha = #epi.scalar<param "leaky_alpha">}>
      bias f16 : f32
  epi.yield
}
