// A wsgemm.gemm without a config: ws-gemm-compile writes its default kernel
// as DIR/<kernel>.* (as always) and, with --family=default, its default
// family in DIR/<kernel>/ (docs/tuning.md, "The default family"): the
// variants' ids, configs and manifests, the first variant the default
// kernel. A gemm with a config is exactly that kernel, with no family.
// PTX only (no ptxas needed): the runtime loads families with cubins.

// RUN: rm -rf %t
// RUN: ws-gemm-compile %s -o %t/one --emit=ptx
// RUN: ls %t/one | FileCheck %s --check-prefix=ONE
// RUN: ws-gemm-compile %s -o %t/fam --emit=ptx --family=default --jobs=2
// RUN: ls %t/fam | FileCheck %s --check-prefix=TOP
// RUN: ls %t/fam/plain_bf16 | FileCheck %s --check-prefix=DIRS
// RUN: FileCheck %s --check-prefix=FAMILY < %t/fam/plain_bf16/family.json
// RUN: cmp %t/one/plain_bf16.json %t/fam/plain_bf16.json
// RUN: cmp %t/fam/plain_bf16.json %t/fam/plain_bf16/v0.128x128x64.cooperative/plain_bf16.json
// RUN: cmp %t/one/explicit_f16.json %t/fam/explicit_f16.json
// RUN: not ws-gemm-compile %s -o %t/bad --family=all 2>&1 | FileCheck %s --check-prefix=BAD

// ONE-NOT: plain_bf16{{$}}
// ONE: explicit_f16.json
// ONE: plain_bf16.json
// ONE-NOT: plain_bf16{{$}}

// TOP: explicit_f16.json
// TOP-NOT: explicit_f16{{$}}
// TOP: plain_bf16{{$}}
// TOP-NEXT: plain_bf16.json

// DIRS:      family.json
// DIRS-NEXT: v0.128x128x64.cooperative
// DIRS-NEXT: v1.128x256x64.cooperative
// DIRS-NEXT: v2.128x256x64.cooperative.stream_k
// DIRS-NEXT: v3.128x224x64.cooperative
// DIRS-NEXT: v4.128x256x64.cooperative
// DIRS-NEXT: v5.128x128x64.cooperative
// DIRS-NEXT: v6.128x256x64.cooperative
// DIRS-NOT: v7

// FAMILY:      "format": "ws-gemm-family",
// FAMILY:      "name": "plain_bf16",
// FAMILY:      "id": "v0.128x128x64.cooperative",
// FAMILY-NEXT: "manifest": "v0.128x128x64.cooperative/plain_bf16.json",
// FAMILY-NEXT: "config": "#wsgemm.config<tile = [128, 128, 64], {{.*}}schedule = cooperative,
// FAMILY-NEXT: "requested": "",
// FAMILY:      "id": "v1.128x256x64.cooperative",
// FAMILY:      "requested": "#wsgemm.config<tile = [128, 256, 64]>",
// FAMILY:      "id": "v2.128x256x64.cooperative.stream_k",
// FAMILY:      "config": "#wsgemm.config<tile = [128, 256, 64], {{.*}}scheduler = stream_k
// FAMILY:      "id": "v3.128x224x64.cooperative",
// FAMILY:      "requested": "#wsgemm.config<tile = [128, 224, 64]>",
// For tensors TMA cannot describe (docs/tuning.md): outputs of any stride,
// then every operand copied at its element's alignment, then A alone.
// FAMILY:      "id": "v4.128x256x64.cooperative",
// FAMILY:      "config": "#wsgemm.config<tile = [128, 256, 64], {{.*}}store = direct,
// FAMILY:      "requested": "#wsgemm.config<tile = [128, 256, 64], store = direct>",
// FAMILY:      "id": "v5.128x128x64.cooperative",
// FAMILY:      "config": "{{.*}}store = direct, {{.*}}load_a = cp_async, load_b = cp_async, align_a = 2, align_b = 2>",
// FAMILY:      "requested": "#wsgemm.config<load_a = cp_async, load_b = cp_async, store = direct>",
// FAMILY:      "id": "v6.128x256x64.cooperative",
// FAMILY:      "config": "#wsgemm.config<tile = [128, 256, 64], {{.*}}store = direct, {{.*}}load_a = cp_async, align_a = 2>",
// FAMILY:      "requested": "#wsgemm.config<tile = [128, 256, 64], load_a = cp_async, store = direct>",
// FAMILY:      "refused": [],
// FAMILY-NEXT: "failed": []

// BAD: Cannot find option named 'all'

wsgemm.gemm @plain_bf16 a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @explicit_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
