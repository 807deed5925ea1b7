// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=SILU --input-file=%t/silu_afn.ptx
// RUN: FileCheck %s --check-prefix=EXACT --input-file=%t/silu_exact.ptx
// RUN: FileCheck %s --check-prefix=GELU --input-file=%t/gelu_afn.ptx
// RUN: FileCheck %s --check-prefix=MAN --input-file=%t/gelu_afn.json
// RUN: FileCheck %s --check-prefix=MAN-EXACT --input-file=%t/silu_exact.json

// fastmath<afn> on an activation: the hardware's approximate instructions
// in place of libdevice's sequences (docs/epi.md, "Approximate
// activations"), and the manifest marks the node for the reference check.

// silu: ex2.approx of -x log2(e) and rcp.approx, no IEEE reciprocal.
// SILU: ex2.approx.f32
// SILU: rcp.approx.f32
// SILU-NOT: rcp.rn.f32
wsgemm.gemm @silu_afn a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %r = epi.silu %acc fastmath<afn> : f32
  epi.store %r : f32
  epi.yield
}

// Without the flag: libdevice's expf (ex2.approx.ftz after its range
// reduction) and the IEEE reciprocal.
// EXACT: ex2.approx.ftz.f32
// EXACT: rcp.rn.f32
// EXACT-NOT: rcp.approx
wsgemm.gemm @silu_exact a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %r = epi.silu %acc : f32
  epi.store %r : f32
  epi.yield
}

// gelu: the tanh form on tanh.approx.f32; no erf polynomial (whose
// coefficient selects are selp.f32) and no exponential.
// GELU: tanh.approx.f32
// GELU-NOT: ex2.approx
// GELU-NOT: selp.f32
wsgemm.gemm @gelu_afn a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %r = epi.gelu %acc fastmath<afn> : f32
  epi.store %r : f32
  epi.yield
}

// MAN: "approx": true
// MAN: "op": "gelu"
// MAN-EXACT-NOT: "approx"
