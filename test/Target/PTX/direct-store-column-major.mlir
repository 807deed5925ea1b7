// A column-major D (`d(T, m_major)`): stored by the direct stores, a
// warp's 32 st.global at consecutive rows of one column (M contiguous);
// the manifest's D is m_major with dims [M, N] (ld counted along M), and
// the aux store beside it stays row-major ([N, M]). No TMA store.
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=all
// RUN: FileCheck %s --input-file=%t/dcm.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/dcm.json

// CHECK-LABEL: .entry dcm(
// CHECK-NOT: cp.async.bulk.tensor.{{[0-9]}}d.global.shared::cta
// CHECK-NOT: cp.async.bulk.wait_group
// CHECK-DAG: st.global.b16
// CHECK-DAG: st.global.b32
// CHECK: ret;

// MANIFEST: "D": {
// MANIFEST-NEXT: "dtype": "bf16",
// MANIFEST-NEXT: "layout": "m_major"
// MANIFEST: "operand": "B",
// MANIFEST: "dims": [
// MANIFEST-NEXT: "M",
// MANIFEST-NEXT: "N"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "dtype": "bf16",
// MANIFEST-NEXT: "kind": "matrix",
// MANIFEST-NEXT: "name": "D",
// MANIFEST: "dims": [
// MANIFEST-NEXT: "N",
// MANIFEST-NEXT: "M"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "kind": "matrix",
// MANIFEST-NEXT: "name": "pre",

wsgemm.gemm @dcm a(bf16) b(bf16) d(bf16, m_major)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
