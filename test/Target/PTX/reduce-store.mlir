// Reducing D stores (epi.store ... reduce, issue 31): with TMA stores the
// staged subtile is reduced into D by cp.reduce.async.bulk.tensor (add for
// f32, max for f16, min for bf16, batched: 3d), in the store's bulk group
// and with its waits; never a plain cp.async.bulk.tensor store of D. With
// store = direct each element is red.global.add (.f32, .noftz.f16,
// .noftz.bf16), no st.global. The manifest says operands.D.reduce.
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=all
// RUN: FileCheck %s --check-prefix=ADD32 --input-file=%t/rs_add_f32.ptx
// RUN: FileCheck %s --check-prefix=MAX16 --input-file=%t/rs_max_f16.ptx
// RUN: FileCheck %s --check-prefix=MIN --input-file=%t/rs_min_bf16_batched.ptx
// RUN: FileCheck %s --check-prefix=DIR32 --input-file=%t/rs_direct_f32.ptx
// RUN: FileCheck %s --check-prefix=DIR16 --input-file=%t/rs_direct_f16.ptx
// RUN: FileCheck %s --check-prefix=DIRBF --input-file=%t/rs_direct_bf16.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/rs_add_f32.json

// ADD32-LABEL: .entry rs_add_f32(
// ADD32-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// ADD32: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// ADD32: cp.async.bulk.commit_group;
// ADD32: cp.async.bulk.wait_group.read
// ADD32-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// ADD32: ret;

// MAX16-LABEL: .entry rs_max_f16(
// MAX16: cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group
// MAX16-NOT: cp.async.bulk.tensor.2d.global.shared::cta

// MIN-LABEL: .entry rs_min_bf16_batched(
// MIN: cp.reduce.async.bulk.tensor.3d.global.shared::cta.min.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]

// DIR32-LABEL: .entry rs_direct_f32(
// DIR32-NOT: st.global
// DIR32-NOT: cp.reduce.async.bulk
// DIR32: red.global.add.f32 [%rd{{[0-9]+}}], %{{r|f}}{{[0-9]+}};
// DIR32-NOT: st.global

// DIR16-LABEL: .entry rs_direct_f16(
// DIR16-NOT: st.global
// DIR16: red.global.add.noftz.f16 [%rd{{[0-9]+}}], %rs{{[0-9]+}};

// DIRBF-LABEL: .entry rs_direct_bf16(
// DIRBF-NOT: st.global
// DIRBF: red.global.add.noftz.bf16 [%rd{{[0-9]+}}], %rs{{[0-9]+}};

// MANIFEST: "D": {
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "layout": "n_major",
// MANIFEST-NEXT: "reduce": "add"

wsgemm.gemm @rs_add_f32 a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.store %z reduce add : f32
  epi.yield
}

wsgemm.gemm @rs_max_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc reduce max : f32
  epi.yield
}

wsgemm.gemm @rs_min_bf16_batched batched a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  epi.store %acc reduce min : f32
  epi.yield
}

wsgemm.gemm @rs_direct_f32 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

wsgemm.gemm @rs_direct_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

wsgemm.gemm @rs_direct_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}
