// REQUIRES: ptxas
// ws-gemm-sweep compiles the configs the planner accepts with
// ws-gemm-compile processes in parallel and writes the family manifest
// (docs/tuning.md): each variant's directory holds the kernel's .mlir (the
// exact input), its manifest, cubin, PTX and compile log; refusals are
// listed with the planner's reason.

// RUN: rm -rf %t
// RUN: ws-gemm-sweep %s -o %t/fam --no-default-axes --tiles 128x128,128x256 --stages auto,7 --jobs 2 | FileCheck %s
// CHECK: 4 config(s) over tile(2) stages(2)
// CHECK: planned: 2 to compile, 2 refused by the planner, 0 duplicate(s)
// CHECK: compiling 2 variant(s) with 2 job(s)
// CHECK-DAG: ] {{.*}} v000.128x128x64.cooperative.c1x1x1.s6: compiled, no spills
// CHECK-DAG: ] {{.*}} v002.128x256x64.cooperative.c1x1x1.s4: compiled, no spills
// CHECK: done in {{.*}}s: 4 config(s): 2 compiled (0 spill), 2 refused, 0 duplicate(s), 0 FAILED
// CHECK: family: {{.*}}fam/family.json

// RUN: FileCheck %s --check-prefix=FAMILY < %t/fam/family.json
// FAMILY: "format": "ws-gemm-family",
// FAMILY-NEXT: "version": 1,
// FAMILY-NEXT: "name": "bias",
// FAMILY: "variants": [
// FAMILY: "id": "v000.128x128x64.cooperative.c1x1x1.s6",
// FAMILY-NEXT: "manifest": "v000.128x128x64.cooperative.c1x1x1.s6/bias.json",
// FAMILY-NEXT: "config": "#wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1], stages = 6,
// FAMILY-NEXT: "requested": "#wsgemm.config<tile = [128, 128, 64]>",
// FAMILY-NEXT: "smem_bytes": {{[0-9]+}},
// FAMILY-NEXT: "spill_bytes": 0
// FAMILY: "id": "v002.128x256x64.cooperative.c1x1x1.s4",
// FAMILY: "refused": [
// FAMILY: "id": "v001.128x128x64.auto.cauto.s7",
// FAMILY-NEXT: "config": "#wsgemm.config<tile = [128, 128, 64], stages = 7>",
// FAMILY-NEXT: "reason": "{{.*}}bytes of shared memory, 232448 available
// FAMILY: "id": "v003.128x256x64.auto.cauto.s7",
// FAMILY: "failed": []

// RUN: test -s %t/fam/v000.128x128x64.cooperative.c1x1x1.s6/bias.cubin
// RUN: test -s %t/fam/v000.128x128x64.cooperative.c1x1x1.s6/bias.ptx
// RUN: FileCheck %s --check-prefix=VMLIR < %t/fam/v002.128x256x64.cooperative.c1x1x1.s4/bias.mlir
// VMLIR: wsgemm.gemm @bias {{.*}}config #wsgemm.config<tile = [128, 256, 64]>

// PTX only (no ptxas run, no spill report).
// RUN: ws-gemm-sweep %s -o %t/ptx --emit=ptx --no-default-axes --tiles 128x128 | FileCheck %s --check-prefix=PTX
// PTX: v000.128x128x64.cooperative.c1x1x1.s6: compiled (PTX only)
// RUN: not ls %t/ptx/v000.128x128x64.cooperative.c1x1x1.s6/bias.cubin

// A config the planner accepted that then fails to compile is a compiler
// bug: reported as FAILED with the log, exit 1; no family without variants.
// RUN: not ws-gemm-sweep %s -o %t/bad --compile=%S/Inputs/fail.sh --no-default-axes --tiles 128x128 > %t/bad.out 2>&1
// RUN: FileCheck %s --check-prefix=FAILED < %t/bad.out
// FAILED: v000.128x128x64.cooperative.c1x1x1.s6: FAILED (the planner accepted it): ws-gemm-compile exit 3: fail.sh: simulated lowering failure
// FAILED: ws-gemm-sweep: error: no variant compiled (no family written)
// RUN: not ls %t/bad/family.json

wsgemm.gemm @bias a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
