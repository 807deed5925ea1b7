// A mixed-input gemm without a config (docs/mixed-input.md, "The default
// family"): its family has members of its own, the planner's default
// (k-tiles of 128 for a quantized A), decode tilings of 16, 32 and 64
// tokens with split-K or stream-K and direct stores, 128x256 for prefill,
// and (last, so that the others keep their ids) 128x64 split-K 4,
// 128x16 stream-K over two CTAs per SM, tiles of 128 and 192 tokens
// for 65-400 of them, and 128x16 split-K 2 over two CTAs per SM. A
// recompile into the same directory removes what it wrote for
// variants the family no longer lists (their kernel files, then the
// directory if that emptied it) and leaves other files alone.
// PTX only (no ptxas needed).

// RUN: rm -rf %t
// RUN: ws-gemm-compile %s -o %t --emit=ptx --family=default --jobs=2
// RUN: ls %t/w4 | FileCheck %s --check-prefix=DIRS
// RUN: FileCheck %s --check-prefix=FAMILY < %t/w4/family.json
// RUN: mkdir %t/w4/v20.old %t/w4/v21.old
// RUN: cp %t/w4/v1.128x16x128.cooperative.split_k4.ctas2/w4.ptx %t/w4/v20.old/w4.ptx
// RUN: cp %t/w4/v1.128x16x128.cooperative.split_k4.ctas2/w4.json %t/w4/v21.old/w4.json
// RUN: echo mine > %t/w4/v21.old/notes.txt
// RUN: sed -i -e 's/"v8.128x64x128.cooperative.stream_k"/"v20.old"/' -e 's/"v9.128x256x64.cooperative"/"v21.old"/' %t/w4/family.json
// RUN: ws-gemm-compile %s -o %t --emit=ptx --family=default --jobs=2
// RUN: ls %t/w4 | FileCheck %s --check-prefix=AFTER
// RUN: ls %t/w4/v21.old | FileCheck %s --check-prefix=KEPT

// DIRS:      family.json
// DIRS-NEXT: v0.128x128x128.cooperative
// DIRS-NEXT: v1.128x16x128.cooperative.split_k4.ctas2
// DIRS-NEXT: v10.128x64x128.cooperative.split_k4
// DIRS-NEXT: v11.128x16x256.cooperative.stream_k.ctas2
// DIRS-NEXT: v12.128x128x128.cooperative.split_k2
// DIRS-NEXT: v13.128x192x128.cooperative
// DIRS-NEXT: v14.128x192x128.cooperative.split_k2
// DIRS-NEXT: v15.128x16x128.cooperative.split_k2.ctas2
// DIRS-NEXT: v2.256x16x128.cooperative.split_k4
// DIRS-NEXT: v3.256x16x128.cooperative.split_k2
// DIRS-NEXT: v4.128x16x128.cooperative.stream_k
// DIRS-NEXT: v5.128x32x128.cooperative.split_k4
// DIRS-NEXT: v6.128x32x128.cooperative.stream_k
// DIRS-NEXT: v7.128x64x128.cooperative.split_k2
// DIRS-NEXT: v8.128x64x128.cooperative.stream_k
// DIRS-NEXT: v9.128x256x64.cooperative
// DIRS-NOT:  v16

// FAMILY: "id": "v1.128x16x128.cooperative.split_k4.ctas2",
// FAMILY: "config": "#wsgemm.config<tile = [128, 16, 128], {{.*}}stages = 8, schedule = cooperative{{.*}}producer_regs = 40, consumer_regs = 96, split_k = 4{{.*}}store = direct{{.*}}ctas_per_sm = 2>"
// FAMILY: "id": "v4.128x16x128.cooperative.stream_k",
// FAMILY: "config": "#wsgemm.config<tile = [128, 16, 128], {{.*}}scheduler = stream_k{{.*}}store = direct
// FAMILY: "id": "v11.128x16x256.cooperative.stream_k.ctas2",
// FAMILY: "config": "#wsgemm.config<tile = [128, 16, 256], {{.*}}scheduler = stream_k{{.*}}store = direct{{.*}}ctas_per_sm = 2>"
// FAMILY: "id": "v12.128x128x128.cooperative.split_k2",
// FAMILY: "config": "#wsgemm.config<tile = [128, 128, 128], {{.*}}split_k = 2{{.*}}store = direct
// FAMILY: "id": "v14.128x192x128.cooperative.split_k2",
// FAMILY: "config": "#wsgemm.config<tile = [128, 192, 128], {{.*}}split_k = 2{{.*}}store = direct
// FAMILY: "id": "v15.128x16x128.cooperative.split_k2.ctas2",
// FAMILY: "config": "#wsgemm.config<tile = [128, 16, 128], {{.*}}split_k = 2{{.*}}store = direct{{.*}}ctas_per_sm = 2>"
// FAMILY: "refused": [],
// FAMILY: "failed": []

// AFTER-NOT: v20.old
// AFTER:     v21.old
// AFTER:     v9.128x256x64.cooperative
// AFTER-NOT: v20.old

// KEPT:     notes.txt
// KEPT-NOT: w4.json

wsgemm.gemm @w4 a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
