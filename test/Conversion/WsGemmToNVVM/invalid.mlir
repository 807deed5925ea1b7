// RUN: ws-gemm-opt %s --wsgemm-plan --wsgemm-specialize -split-input-file -verify-diagnostics

// What the lowering cannot do is refused by the planner (every rule lives
// in Planning/Legality, GemmDesc for the EVT's ops), with the reason; the
// lowering refuses only ops that were not planned or whose plan is stale.

wsgemm.gemm @store_rp a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.store' op rounding 'rp' to 'bf16' is not lowered (PTX packs f16/bf16 with rn or rz only)}}
  epi.store %acc rp : f32
  epi.yield
}

// -----

wsgemm.gemm @convert_rm a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  // expected-error @below {{'epi.convert' op rounding 'rm' to 'f16' is not lowered (PTX packs f16/bf16 with rn or rz only)}}
  %h = epi.convert %acc rm : f32 -> f16
  %x = epi.convert %h : f16 -> f32
  epi.store %x : f32
  epi.yield
}

// -----

// expected-error @below {{swizzle = 2 needs persistent = true: a 'tiles' grid gives each CTA the tile at its position; use swizzle = 1 or persistent = true}}
wsgemm.gemm @swizzle a(f16) b(f16) d(f16) config #wsgemm.config<schedule = warp_specialized, persistent = false, swizzle = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @below {{producer_regs and consumer_regs must be set together: setmaxnreg moves registers from the producer warpgroup to the consumer warpgroups}}
wsgemm.gemm @half_regs a(f16) b(f16) d(f16) config #wsgemm.config<schedule = warp_specialized, producer_regs = 40> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

