// load_a / load_b = cp_async (issue 28, Hopper): the producer warps copy
// the operand with cp.async into the same 128B-swizzled stages TMA fills
// (CpAsyncProducer.cpp), predicated with zero fill (the src-size operand),
// and each thread's arrival on the stage's full barrier counts when its
// copies land (cp.async.mbarrier.arrive.noinc). A copied operand takes a
// 24-byte {address, ld, batch stride} parameter and no tensor map; the
// other operand stays TMA (one thread's expect_tx and box loads).
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=all
// RUN: FileCheck %s --check-prefix=A16 --input-file=%t/cpa16.ptx
// RUN: FileCheck %s --check-prefix=A2 --input-file=%t/cpa2.ptx
// RUN: FileCheck %s --check-prefix=AB8 --input-file=%t/cpab8.ptx
// RUN: FileCheck %s --check-prefix=B4 --input-file=%t/cpb4.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/cpa2.json

// A copied 16 bytes at a time (cp.async.cg), B by TMA: one thread announces
// B's bytes (expect_tx) and loads its box. (The full barriers' counts, 128
// or 96 producer threads, are checked in Dialect/WsGemm/pipeline-ops.mlir.)
// A16-LABEL: .entry cpa16(
// A16: .param .align 8 .b8 cpa16_param_0[24]
// A16-DAG: cp.async.cg.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 16, {{%r[0-9]+}};
// A16-DAG: cp.async.mbarrier.arrive.noinc.shared{{(::cta)?}}.b64
// A16-DAG: mbarrier.expect_tx
// A16-DAG: cp.async.bulk.tensor.2d.shared::cluster.global
// A16-NOT: cp.async.ca.shared
// A16: ret;

// A M-major with 2-byte alignment (odd M): 16-byte pieces read as five
// 4-byte words, realigned by prmt (the funnel shift) and stored with one
// st.shared.v4, or, where A turns out 16-byte aligned, whole rounds by
// ld.global.v4; a proxy fence and a plain arrival; no cp.async for A.
// A2-LABEL: .entry cpa2(
// A2-NOT: cp.async.cg.shared
// A2-NOT: cp.async.ca.shared
// A2-NOT: cp.async.mbarrier.arrive
// A2-NOT: ld.global.{{(u|b)}}16
// A2-DAG: ld.global.{{(u|b)}}32
// A2-DAG: prmt.b32.f4e
// A2-DAG: st.shared.v4.b32
// A2-DAG: ld.global.v4.{{(u|b)}}32
// A2-DAG: fence.proxy.async.shared::cta
// A2-DAG: mbarrier.arrive.shared{{(::cta)?}}.b64
// A2: ret;

// Both copied 8 bytes at a time (cp.async.ca): no bytes announced (C's TMA
// loads arrive with expect_tx on their own pipeline); 96 producer threads
// beside the epilogue-load warp (C is read).
// AB8-LABEL: .entry cpab8(
// AB8-NOT: cp.async.cg.shared
// AB8-DAG: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 8, {{%r[0-9]+}};
// AB8-DAG: cp.async.mbarrier.arrive.noinc.shared{{(::cta)?}}.b64
// AB8-NOT: mbarrier.expect_tx
// AB8: ret;

// B N-major copied 4 bytes at a time, pingpong.
// B4-LABEL: .entry cpb4(
// B4-DAG: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4, {{%r[0-9]+}};
// B4-DAG: cp.async.mbarrier.arrive.noinc.shared{{(::cta)?}}.b64
// B4: ret;

// MANIFEST: "A": {
// MANIFEST-NEXT: "align_bytes": 2,
// MANIFEST-NEXT: "dtype": "f16",
// MANIFEST-NEXT: "layout": "m_major",
// MANIFEST-NEXT: "load": "cp_async"
// MANIFEST: "B": {
// MANIFEST-NEXT: "align_bytes": 16,
// MANIFEST-NEXT: "dtype": "f16",
// MANIFEST-NEXT: "layout": "k_major",
// MANIFEST-NEXT: "load": "tma"
// MANIFEST: "align_bytes": 2,
// MANIFEST-NEXT: "dims": [
// MANIFEST-NEXT: "M",
// MANIFEST-NEXT: "K"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "dtype": "f16",
// MANIFEST-NEXT: "kind": "matrix",
// MANIFEST-NEXT: "name": "A",
// MANIFEST-NEXT: "operand": "A"

wsgemm.gemm @cpa16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 16> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @cpa2 a(f16, m_major) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          load_a = cp_async> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @cpab8 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 8,
                          load_b = cp_async, align_b = 8> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %s = arith.addf %acc, %c : f32
  epi.store %s : f32
  epi.yield
}

wsgemm.gemm @cpb4 a(f16) b(f16, n_major) d(f16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong,
                          load_b = cp_async, align_b = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
