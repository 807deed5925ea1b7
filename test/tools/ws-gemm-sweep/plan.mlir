// ws-gemm-sweep plans every config of its space in-process: refusals carry
// the planner's reason and are skipped (not errors), configs that plan alike
// are one variant, and --dry-run compiles and writes nothing. The refusals
// below are rules that stay (SMEM, wgmma N), not features not lowered yet.

// RUN: rm -rf %t
// RUN: ws-gemm-sweep %s --dry-run --no-default-axes --tiles 128x128,128x72 --stages auto,6,7 | FileCheck %s
// RUN: not ls %t

// CHECK: ws-gemm-sweep: @plain from {{.*}}plan.mlir: 6 config(s) over tile(2) stages(3)
// CHECK-NEXT: [  1/  6] plan {{.*}} v000.128x128x64.cooperative.c1x1x1.s6: planned, 214112 bytes SMEM
// CHECK-NEXT: [  2/  6] plan {{.*}} v001.128x128x64.cooperative.c1x1x1.s6: same plan as v000.128x128x64.cooperative.c1x1x1.s6
// CHECK-NEXT: [  3/  6] plan {{.*}} v002.128x128x64.cooperative.cauto.s7: refused: needs 246896 bytes of shared memory, 232448 available: over by 14448; try stages = 6 or a smaller tile; note: A stages: 114688 bytes
// CHECK-NEXT: [  4/  6] plan {{.*}} v003.128x72x64.cooperative.cauto.sauto: refused: tile N = 72 is not a wgmma N: it must be a multiple of 16 in [16, 256]
// CHECK-NEXT: [  5/  6] plan {{.*}} v004.128x72x64.cooperative.cauto.s6: refused: tile N = 72 is not a wgmma N
// CHECK-NEXT: [  6/  6] plan {{.*}} v005.128x72x64.cooperative.cauto.s7: refused: tile N = 72 is not a wgmma N
// CHECK-NEXT: planned: 1 to compile, 4 refused by the planner, 1 duplicate(s)

// Default axes fill in what the user did not sweep; the source's own
// config knobs stay unless an axis replaces them.
// RUN: ws-gemm-sweep %s --dry-run | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: @plain from {{.*}}: 90 config(s) over tile(5, default) schedule(3, default) cluster(3, default) swizzle(2, default)
// DEFAULT: planned: {{[1-9][0-9]*}} to compile

// Any knob of #wsgemm.config can be an axis, in the attribute's syntax.
// RUN: ws-gemm-sweep %s --dry-run --no-default-axes --axis 'epi_tile=[128, 32]|[128, 64]|auto' --axis 'delay_tma_store=true|false' | FileCheck %s --check-prefix=AXIS
// AXIS: 6 config(s) over epi_tile(3) delay_tma_store(2)
// AXIS: v000.128x128x64.cooperative.c1x1x1.s6.e128x32.delay_tma_storetrue: planned, 214112 bytes SMEM
// AXIS: v003.128x128x64.cooperative.c1x1x1.s6.e128x64.delay_tma_storefalse: planned, 230496 bytes SMEM
// AXIS: v004.128x128x64.cooperative.c1x1x1.s6.e128x32.delay_tma_storetrue: same plan as v000.
// AXIS: planned: 4 to compile, 0 refused by the planner, 2 duplicate(s)

// Knobs that each parse but break a rule of the attribute together (its
// verifier) are a refusal of that combination, not an error: a scheduler
// axis crossed with a split_k axis sweeps the legal pairs.
// RUN: ws-gemm-sweep %s --dry-run --no-default-axes --axis 'scheduler=data_parallel|stream_k' --axis 'split_k=auto|2' | FileCheck %s --check-prefix=RULE
// RULE: 4 config(s) over scheduler(2) split_k(2)
// RULE: v001.{{.*}}schedulerdata_parallel.split_k2: planned
// RULE: v002.{{.*}}schedulerstream_k.split_kauto: planned
// RULE: v003.{{.*}}schedulerstream_k.split_k2: refused: config split_k = 2 and scheduler = stream_k exclude each other
// RULE: planned: 3 to compile, 1 refused by the planner, 0 duplicate(s)

// Bad axes are errors before anything is planned.
// RUN: not ws-gemm-sweep %s --dry-run --schedules fastest 2>&1 | FileCheck %s --check-prefix=BADVAL
// BADVAL: ws-gemm-sweep: error: config #wsgemm.config<{{.*}}schedule = fastest{{.*}}> does not parse: expected one of warp_specialized, cooperative, pingpong, multistage, got 'fastest'
// RUN: not ws-gemm-sweep %s --dry-run --tiles 128xq 2>&1 | FileCheck %s --check-prefix=BADTILE
// BADTILE: ws-gemm-sweep: error: --tiles: '128xq' is not MxN or MxNxK
// RUN: not ws-gemm-sweep %s --dry-run --axis 'nonsense=1' 2>&1 | FileCheck %s --check-prefix=BADKNOB
// BADKNOB: ws-gemm-sweep: error: config #wsgemm.config<{{.*}}nonsense = 1{{.*}}> does not parse: duplicate or unknown struct parameter name: nonsense
// RUN: not ws-gemm-sweep %s --dry-run --axis 'stages=4' --stages 5 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: ws-gemm-sweep: error: knob 'stages' is swept twice
// RUN: not ws-gemm-sweep %s -o %t --compile=%t/none 2>&1 | FileCheck %s --check-prefix=NOCOMPILE
// NOCOMPILE: ws-gemm-sweep: error: cannot run ws-gemm-compile at {{.*}}none (--compile)

wsgemm.gemm @plain a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
