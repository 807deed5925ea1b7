// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/no_config.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/no_config.json
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/explicit_swizzle.ptx
// RUN: FileCheck %s --check-prefix=FIXEDM --input-file=%t/explicit_swizzle.json
// RUN: FileCheck %s --check-prefix=HEUR --input-file=%t/heuristic.json
// RUN: FileCheck %s --check-prefix=TILES --input-file=%t/tiles_grid.json
// RUN: %ptxas -arch=sm_90a -v %t/no_config.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A persistent kernel whose config names neither raster nor swizzle takes
// both at launch: an i32 tile_order = swizzle * 2 + (along M ? 1 : 0)
// before the sizes (docs/manifest.md, "Grid"). The kernel reads along M
// from bit 0 and the swizzle from the rest (0 counts as 1), and walks
// bands of that many rows, the last band's height from min.
// PTX: .entry no_config(
// PTX: .param .align 64 .b8 no_config_param_2[128],
// PTX-NEXT: .param .u32 no_config_param_3,
// PTX-NEXT: .param .u32 no_config_param_4,
// PTX: .param .u32 no_config_param_7
// PTX-NEXT: )
// PTX: ld.param.b32 [[ORDER:%r[0-9]+]], [no_config_param_3];
// PTX: and.b32 {{%r[0-9]+}}, [[ORDER]], 1;
// PTX: shr.u32 [[HALF:%r[0-9]+]], [[ORDER]], 1;
// PTX-NEXT: max.u32 {{%r[0-9]+}}, [[HALF]], 1;
// PTX: min.u32
// PTX: div.u32
// PTX: rem.u32

// MANIFEST: "grid": {
// MANIFEST-NEXT: "kind": "persistent",
// MANIFEST-NEXT: "raster": "runtime",
// MANIFEST-NEXT: "swizzle": "runtime"
// MANIFEST: "kind": "tile_order",
// MANIFEST-NEXT: "name": "tile_order"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "dim": "M",

// Fits the 168 registers of a 384-thread CTA without spilling.
// PTXAS-NOT: bytes spill stores
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
wsgemm.gemm @no_config a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// An explicit swizzle (or raster) is exactly that kernel: constants, no
// tile_order parameter (the raster unset takes the heuristic).
// FIXED: .entry explicit_swizzle(
// FIXED: .param .u32 explicit_swizzle_param_6
// FIXED-NEXT: )
// FIXEDM: "grid": {
// FIXEDM-NEXT: "kind": "persistent",
// FIXEDM-NEXT: "raster": "heuristic",
// FIXEDM-NEXT: "swizzle": 4
// FIXEDM-NOT: tile_order
wsgemm.gemm @explicit_swizzle a(f16) b(f16) d(f16)
    config #wsgemm.config<swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// CUTLASS's heuristic, decided in a persistent kernel, is labelled so.
// HEUR: "raster": "heuristic",
// HEUR-NEXT: "swizzle": 1
// HEUR-NOT: tile_order
wsgemm.gemm @heuristic a(f16) b(f16) d(f16)
    config #wsgemm.config<raster = heuristic> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A "tiles" grid keeps a compile-time raster (its shape follows it); the
// heuristic is along N there.
// TILES: "grid": {
// TILES-NEXT: "kind": "tiles",
// TILES-NEXT: "raster": "along_n",
// TILES-NEXT: "swizzle": 1
// TILES-NOT: tile_order
wsgemm.gemm @tiles_grid a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
