// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx --chip=sm_80
// RUN: FileCheck %s --input-file=%t/s80_plain.ptx
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t/s80_plain.ptx
// RUN: FileCheck %s --check-prefix=SPREAD --input-file=%t/s80_coop.ptx
// RUN: FileCheck %s --check-prefix=LOOKAHEAD --input-file=%t/s80_plain.ptx
// RUN: FileCheck %s --check-prefix=DEFAULT --input-file=%t/s80_plain.json
// RUN: FileCheck %s --check-prefix=BF16 --input-file=%t/s80_ws_bf16_bias.ptx
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t/s80_ws_bf16_bias.ptx
// RUN: FileCheck %s --check-prefix=LOOKAHEAD --input-file=%t/s80_ws_bf16_bias.ptx
// RUN: FileCheck %s --check-prefix=IN-ORDER --input-file=%t/s80_coop.ptx
// RUN: FileCheck %s --check-prefix=WARPS --input-file=%t/s80_coop.ptx
// RUN: FileCheck %s --check-prefix=WARPS-ONE --input-file=%t/s80_lincomb_c.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/s80_plain.json
// RUN: FileCheck %s --check-prefix=NO-PDL --input-file=%t/s80_plain.json
// RUN: FileCheck %s --check-prefix=RED --input-file=%t/s80_aux_reductions.ptx
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t/s80_aux_reductions.ptx
// RUN: FileCheck %s --check-prefix=RS --input-file=%t/s80_reduce_store.ptx
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t/s80_reduce_store.ptx
// RUN: FileCheck %s --check-prefix=LOADC --input-file=%t/s80_lincomb_c.ptx
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t/s80_lincomb_c.ptx
// RUN: FileCheck %s --check-prefix=LOADC-MANIFEST --input-file=%t/s80_lincomb_c.json
// RUN: rm -rf %t90 && ws-gemm-compile %s -o %t90 --emit=ptx --chip=sm_80 --sass-arch=sm_90a
// RUN: FileCheck %s --check-prefix=RETARGET --input-file=%t90/s80_plain.json

// sm_80 kernels (issue 28): cp.async producers into the swizzled ring with
// full barriers counting their cp.async.mbarrier.arrive.noinc, consumers
// spinning on mbarrier.test_wait.parity, ldmatrix.x4 fragments and
// mma.sync m16n8k16 with f32 accumulators, D through st.shared and
// st.global; none of sm_90's instructions.

// CHECK: .target sm_80
// CHECK-DAG: mbarrier.init.shared.b64
// CHECK-DAG: cp.async.cg.shared.global
// CHECK-DAG: cp.async.mbarrier.arrive.noinc.shared.b64
// CHECK-DAG: mbarrier.test_wait.parity.shared.b64
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-DAG: mbarrier.arrive.shared{{(::cta)?}}.b64
// CHECK-DAG: st.shared.b32
// CHECK-DAG: st.global.b16
// NEG-NOT: wgmma
// NEG-NOT: cp.async.bulk
// NEG-NOT: setmaxnreg
// NEG-NOT: stmatrix
// NEG-NOT: fence.proxy.async
// NEG-NOT: griddepcontrol
// NO-PDL: "pdl": false,
// NEG-NOT: elect.sync
// NEG-NOT: try_wait
// NEG-NOT: fence.mbarrier_init
// NEG-NOT: mapa
//
// The waits back off between tries (producers 128 ns, consumers 32 ns).
// CHECK-DAG: nanosleep.u32 128;
// CHECK-DAG: nanosleep.u32 32;
// The defaults: one consumer warpgroup (the LOOKAHEAD checks below),
// persistent, its tile order taken at launch.
// DEFAULT: "grid": {
// DEFAULT-NEXT: "kind": "persistent",
// DEFAULT: "schedule": "warp_specialized"
wsgemm.gemm @s80_plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The cooperative producer keeps every copy edge-checked (a src-size
// operand); see s80_ws_bf16_bias for the straight-line copies.
// SPREAD: cp.async.cg.shared.global {{\[.*\]}}, {{\[.*\]}}, 16, %r
// SPREAD-NOT: cp.async.cg.shared.global {{\[.*\]}}, {{\[.*\]}}, 16;
wsgemm.gemm @s80_coop a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// One consumer warpgroup: the k-tile loop waits for the next k-tile's
// stage at its top, releases its own stage by a predicated arrival before
// reading the next stage's first fragments, a second predicated arrival
// (the last k-tile, which reads its own stage again) after them, and only
// then runs the last k-step's mma.sync.
// LOOKAHEAD: mbarrier.test_wait.parity.shared.b64
// LOOKAHEAD: @p mbarrier.arrive.shared::cta.b64 _, [%rd[[EMPTY:[0-9]+]]];
// LOOKAHEAD-NOT: mma.sync
// LOOKAHEAD: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// LOOKAHEAD-NOT: mma.sync
// LOOKAHEAD: @p mbarrier.arrive.shared::cta.b64 _, [%rd[[EMPTY]]];
// LOOKAHEAD-NEXT: // end inline asm
// LOOKAHEAD-NEXT: mma.sync.aligned.m16n8k16.row.col.f32.{{bf16.bf16|f16.f16}}.f32
//
// Two consumer warpgroups (168 registers a thread) keep the in-order loop:
// one unpredicated arrival per k-tile, after all of its mma.sync.
// IN-ORDER-NOT: @p mbarrier.arrive
// IN-ORDER: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// IN-ORDER: mbarrier.arrive.shared.b64
//
// Their warps in two columns of two (warp_columns = 2, the default): a 32 x
// 64 warp tile reads 2 A and 4 B ldmatrix.x4 per k16 step, 24 per k-tile of
// 64 (wgmma's layout, 16 x 128: 36), for 16 mma.sync per step, then the
// stage's release.
// WARPS-COUNT-24: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// WARPS-NOT: ldmatrix
// WARPS: mbarrier.arrive.shared.b64
// With C read (warp_columns = 1): 1 + 8 per step, then the stage's release
// (C's ldmatrix come later, in the epilogue).
// WARPS-ONE-COUNT-36: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// WARPS-ONE-NOT: ldmatrix
// WARPS-ONE: mbarrier.arrive.shared.b64
// One consumer warpgroup: tiles inside the matrix are copied straight-line,
// one address per thread stepped by 16 rows (2048 bytes of the stage) per
// round, no src-size; the edge-checked copies beside them.
// BF16: cp.async.cg.shared.global [%rd[[TO:[0-9]+]]], [%rd{{[0-9]+}}], 16;
// BF16-NEXT: add.s64
// BF16-NEXT: cp.async.cg.shared.global [%rd[[TO]]+2048], [%rd{{[0-9]+}}], 16;
// BF16: cp.async.cg.shared.global {{\[.*\]}}, {{\[.*\]}}, 16, %r
// BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// BF16: st.global.b32
wsgemm.gemm @s80_ws_bf16_bias a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [64, 128, 64]> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// The planner's sm_80 defaults in the manifest: both operands copied with
// 16-byte cp.async, direct stores.
// MANIFEST: "arch": "sm_80"
// MANIFEST: "A": {
// MANIFEST: "align_bytes": 16
// MANIFEST: "load": "cp_async"

// Assembled for sm_90a (to run on an H100): the manifest's arch is the
// cubin's, its chip the code's.
// RETARGET: "arch": "sm_90a"
// RETARGET: "chip": "sm_80"

// The epilogue's other outputs need no TMA on sm_8x: an aux store with
// st.global, row / column / scalar reductions with atomics (f32 sum by
// atom.global.add.f32, max by the ordered-integer atom.global.max/min),
// a reduce-store by red.global.add.f32.
// RED-DAG: atom.global.add.f32
// RED-DAG: atom.global.max.s32
// RED-DAG: atom.global.min.u32
// RED-DAG: st.global.b16
wsgemm.gemm @s80_aux_reductions a(f16) b(f16) d(f16)
    config #wsgemm.config<epi_tile = [128, 16]> {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> f16
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n max %acc, "colmax" : f32
  epi.reduce_to_scalar absmax %acc, "amax" : f32
  %r = epi.relu %acc : f32
  epi.store %r : f32
  epi.yield
}

// RS: red.global.add.f32
wsgemm.gemm @s80_reduce_store a(bf16) b(bf16) d(f32) {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// C and aux matrices without TMA: the epilogue-load warp's 32 threads
// each wait on the empty C stage, copy 16-byte pieces of the subtile with
// cp.async (zero-filled past M and N by src-size) and arrive as they land,
// a second noinc arrival site beside the mainloop producer's. C is a
// matrix parameter with 16-byte alignment, not a tensor map.
// LOADC: .entry s80_lincomb_c
// LOADC-COUNT-2: cp.async.mbarrier.arrive.noinc.shared.b64
// LOADC-MANIFEST: "name": "B",
// LOADC-MANIFEST: "align_bytes": 16,
// LOADC-MANIFEST-NEXT: "dims": [
// LOADC-MANIFEST-NEXT: "N",
// LOADC-MANIFEST-NEXT: "M"
// LOADC-MANIFEST-NEXT: ],
// LOADC-MANIFEST-NEXT: "dtype": "f16",
// LOADC-MANIFEST-NEXT: "kind": "matrix",
// LOADC-MANIFEST-NEXT: "name": "C",
// LOADC-MANIFEST-NOT: tensor_map
wsgemm.gemm @s80_lincomb_c a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %acc, %y : f32
  epi.store %z : f32
  epi.yield
}
