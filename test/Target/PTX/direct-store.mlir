// store = direct: D and the aux store reach global memory through
// st.global (2-byte elements for f16, 4-byte for f32: element alignment
// only), read back from the staged subtile with ld.shared, or where the
// output's base, ld and batch stride put every row on 16 bytes (checked
// in the kernel) 16 bytes at a time, ld.shared.v4 + st.global.v4; no TMA store
// (cp.async.bulk.tensor ... global.shared::cta) and no bulk-group waits.
// The kernel takes each output as a 24-byte by-value parameter {address,
// ld, batch stride}; the manifest calls it a `matrix` (docs/manifest.md).
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=all
// RUN: FileCheck %s --input-file=%t/ds.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/ds.json
// RUN: FileCheck %s --check-prefix=ODD-PIECES --input-file=%t/ds_epi96.ptx

// CHECK-LABEL: .entry ds(
// CHECK: .param .align 8 .b8 ds_param_{{[0-9]+}}[24]
// CHECK-NOT: cp.async.bulk.tensor.{{[0-9]}}d.global.shared::cta
// CHECK-NOT: cp.async.bulk.wait_group
// CHECK-DAG: st.global.b32
// CHECK-DAG: st.global.b16
// CHECK-DAG: and.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 15;
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: st.global.v4.b32
// CHECK: ret;

// MANIFEST: "kind": "matrix",
// MANIFEST-NEXT: "name": "D",
// MANIFEST-NEXT: "operand": "D"
// MANIFEST: "kind": "matrix",
// MANIFEST-NEXT: "name": "pre",
// MANIFEST-NEXT: "operand": "pre"

wsgemm.gemm @ds a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %acc, %zero : f32
  epi.store %r : f32
  epi.yield
}

// Subtile rows of 96 f16 elements are 12 16-byte pieces, which do not
// divide the warpgroup's 128 threads: element stores only.
// ODD-PIECES-LABEL: .entry ds_epi96(
// ODD-PIECES-NOT: st.global.v4
// ODD-PIECES: st.global.b16
// ODD-PIECES-NOT: st.global.v4
wsgemm.gemm @ds_epi96 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 192, 64], schedule = cooperative,
                          epi_tile = [128, 96], store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
