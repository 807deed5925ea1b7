// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=DECODE --input-file=%t/two_ctas_w4.ptx
// RUN: FileCheck %s --check-prefix=PLAIN --input-file=%t/two_ctas_f16.ptx
// RUN: FileCheck %s --check-prefix=ONE --input-file=%t/one_cta.ptx
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/two_ctas_w4.json
// RUN: FileCheck %s --check-prefix=JSON1 --input-file=%t/one_cta.json

// ctas_per_sm = 2: .minnctapersm 2 caps ptxas at 65536 / 2 / 384 = 80
// registers per thread; the producer gives back down to 40 and the
// consumers take 96 of the CTA's 384 x 80 (Planning.cpp); the manifest
// says ctas_per_sm so that the runtime's persistent grid is two CTAs per SM.

// DECODE-LABEL: .entry two_ctas_w4(
// DECODE: .maxntid 384, 1, 1
// DECODE-NEXT: .minnctapersm 2
// DECODE: setmaxnreg.dec.sync.aligned.u32 40;
// DECODE: setmaxnreg.inc.sync.aligned.u32 96;
// JSON: "grid": {
// JSON: "ctas_per_sm": 2,
// JSON: "kind": "persistent",
// JSON: "smem_bytes": 107648,
wsgemm.gemm @two_ctas_w4 a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct, ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A 16-bit kernel takes it too.
// PLAIN-LABEL: .entry two_ctas_f16(
// PLAIN: .minnctapersm 2
// PLAIN: setmaxnreg.inc.sync.aligned.u32 96;
wsgemm.gemm @two_ctas_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 64, 64], ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The default: one CTA per SM, no ctas_per_sm in the manifest.
// ONE: .minnctapersm 1
// ONE: setmaxnreg.inc.sync.aligned.u32 232;
// JSON1: "grid": {
// JSON1-NOT: ctas_per_sm
// JSON1: "kind": "persistent",
wsgemm.gemm @one_cta a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 64, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
