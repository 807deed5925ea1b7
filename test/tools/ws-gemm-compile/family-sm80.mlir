// The default family of a gemm without a config compiled for sm_80: its
// members are planned for the chip the kernels are compiled for (they
// were planned for sm_90a, which named them after sm_90's schedules and
// kept members that plan alike on sm_80 apart). The 128x256 members take
// the multistage schedule (256 threads of 255 registers hold their 128
// accumulators a thread; the cooperative kernel's 384 of 168 do not);
// store = direct and load_a = cp_async are sm_80's defaults already, so
// those members plan like v1 and v0 and are not compiled again. (With
// cubins, ptxas then finds v3, 128x224 multistage with one column of
// warps, spilling 16 bytes and the family lists it under "refused"; PTX
// alone does not run ptxas.)

// RUN: rm -rf %t
// RUN: ws-gemm-compile %s -o %t --emit=ptx --chip=sm_80 --family=default --jobs=2
// RUN: ls %t/plain | FileCheck %s --check-prefix=DIRS
// RUN: FileCheck %s --check-prefix=FAMILY < %t/plain/family.json
// RUN: FileCheck %s --check-prefix=V1 < %t/plain/v1.128x256x64.multistage/plain.json

// DIRS:      family.json
// DIRS-NEXT: v0.128x128x64.warp_specialized
// DIRS-NEXT: v1.128x256x64.multistage
// DIRS-NEXT: v2.128x256x64.multistage.stream_k
// DIRS-NEXT: v3.128x224x64.multistage
// DIRS-NOT: v{{[0-9]}}

// FAMILY: "id": "v0.128x128x64.warp_specialized",
// FAMILY: "config": "#wsgemm.config<tile = [128, 128, 64], {{.*}}schedule = warp_specialized
// FAMILY: "id": "v1.128x256x64.multistage",
// FAMILY: "config": "#wsgemm.config<tile = [128, 256, 64], {{.*}}stages = 3, schedule = multistage
// FAMILY: "id": "v2.128x256x64.multistage.stream_k",
// FAMILY: "id": "v3.128x224x64.multistage",

// V1: "arch": "sm_80",
// V1: "block": [
// V1-NEXT: 256,
// V1: "schedule": "multistage",

wsgemm.gemm @plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
