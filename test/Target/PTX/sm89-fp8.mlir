// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx --chip=sm_89
// RUN: FileCheck %s --input-file=%t/s89_e4m3_e5m2.ptx
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t/s89_e4m3_e5m2.ptx
// RUN: FileCheck %s --check-prefix=MS --input-file=%t/s89_e5m2_ms.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/s89_e4m3_e5m2.json

// sm_89 fp8 (issue 28): e4m3 / e5m2 rows of 128 elements (128 bytes)
// copied by cp.async, read with the 16-bit kernels' ldmatrix.x4 (the
// fragments' bytes are the same), multiplied with mma.sync.m16n8k32 at f32;
// PTX ISA 8.4 (fp8 mma.sync), none of sm_90's instructions.

// CHECK: .version 8.4
// CHECK: .target sm_89
// CHECK-DAG: cp.async.cg.shared.global
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32
// NEG-NOT: mma.sync.aligned.m16n8k16
// NEG-NOT: wgmma
// NEG-NOT: cp.async.bulk
// NEG-NOT: griddepcontrol

// MS: .target sm_89
// MS: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32
// MS: cp.async.wait_group

// MANIFEST: "arch": "sm_89"
// MANIFEST: "A": {
// MANIFEST-NEXT: "align_bytes": 16,
// MANIFEST-NEXT: "dtype": "f8e4m3",
// MANIFEST: "tile": [
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 128

wsgemm.gemm @s89_e4m3_e5m2 a(f8E4M3FN) b(f8E5M2) d(bf16) {
^bb0(%acc: f32):
  %s = epi.scalar param ["scale"] : f32
  %y = arith.mulf %acc, %s : f32
  epi.store %y : f32
  epi.yield
}

wsgemm.gemm @s89_e5m2_ms a(f8E5M2) b(f8E4M3FN) d(f32)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
