// load_c = cp_async (issue 28, Hopper): the epilogue-load warp's 32 lanes
// copy C and the aux loads into the subtile layout TMA would write
// (Epilogue.cpp), align_c bytes at a time, and arrive on the epilogue
// pipeline's full barrier when their copies land; the mainloop stays TMA.
// C becomes a 24-byte {address, ld, batch stride} matrix parameter with the
// manifest's align_bytes, and the producer warpgroup keeps 96 registers
// (the copies spilled at 56-80).
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=all
// RUN: FileCheck %s --check-prefix=C16 --input-file=%t/cpc16.ptx
// RUN: FileCheck %s --check-prefix=C2 --input-file=%t/cpc2.ptx
// RUN: FileCheck %s --check-prefix=C8 --input-file=%t/cpc8.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/cpc2.json
// RUN: FileCheck %s --check-prefix=MANIFEST8 --input-file=%t/cpc8.json

// 16-byte copies: cp.async.cg and the non-counting arrival; A and B by TMA.
// C16-LABEL: .entry cpc16(
// C16: .param .align 8 .b8 cpc16_param_2[24]
// C16-DAG: setmaxnreg.dec.sync.aligned.u32 96;
// C16-DAG: setmaxnreg.inc.sync.aligned.u32 200;
// C16-DAG: cp.async.cg.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 16, {{%r[0-9]+}};
// C16-DAG: cp.async.mbarrier.arrive.noinc.shared{{(::cta)?}}.b64
// C16-DAG: cp.async.bulk.tensor.2d.shared::cluster.global
// C16-NOT: cp.async.ca.shared
// C16: ret;
wsgemm.gemm @cpc16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_c = cp_async, align_c = 16> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// 2-byte copies (an odd N): 4-byte words realigned in registers
// (ld.global.b32, prmt, st.shared.v4), or ld.global.v4 where C turns out
// 16-byte aligned; then a plain arrival; no cp.async copies of C.
// C2-LABEL: .entry cpc2(
// C2-NOT: cp.async.cg.shared
// C2-NOT: cp.async.ca.shared
// C2-NOT: cp.async.mbarrier.arrive
// C2-NOT: ld.global.{{(u|b)}}16
// C2-DAG: ld.global.{{(u|b)}}32
// C2-DAG: prmt.b32.f4e
// C2-DAG: st.shared.v4.b32
// C2-DAG: ld.global.v4.{{(u|b)}}32
// C2-DAG: mbarrier.arrive.shared{{(::cta)?}}.b64
// C2: ret;
wsgemm.gemm @cpc2 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          load_c = cp_async, align_c = 2, store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// An f32 C and an f16 aux load, 8 bytes at a time (cp.async.ca), in the
// warp_specialized schedule (no setmaxnreg).
// C8-LABEL: .entry cpc8(
// C8-NOT: setmaxnreg
// C8-DAG: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 8, {{%r[0-9]+}};
// C8-DAG: cp.async.mbarrier.arrive.noinc.shared{{(::cta)?}}.b64
// C8-NOT: cp.async.cg.shared
// C8: ret;
wsgemm.gemm @cpc8 a(f16) b(f16) c(f32) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          load_c = cp_async, align_c = 8> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %res = epi.aux_load "residual" : f16 -> f32
  %z = arith.addf %acc, %c : f32
  %r = arith.addf %z, %res : f32
  epi.store %r : f32
  epi.yield
}

// C as a matrix parameter (no tensor map) with its alignment.
// MANIFEST: "align_bytes": 2,
// MANIFEST-NEXT: "dims": [
// MANIFEST-NEXT: "N",
// MANIFEST-NEXT: "M"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "dtype": "f16",
// MANIFEST-NEXT: "kind": "matrix",
// MANIFEST-NEXT: "name": "C",
// MANIFEST8: "align_bytes": 8,
// MANIFEST8: "kind": "matrix",
// MANIFEST8-NEXT: "name": "C",
// MANIFEST8: "align_bytes": 8,
// MANIFEST8: "kind": "matrix",
// MANIFEST8-NEXT: "name": "residual",
