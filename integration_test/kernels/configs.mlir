// Builder knobs that lower today: CTA tiles 128x256, 256x128, 128x64,
// 64x128 and 128x48, stage counts 2/4/default, persistent on and off for
// both schedules, setmaxnreg budgets, explicit epilogue tiles and store
// stages. The epilogue is the plain store or a small lincomb so that a
// mismatch points at the knob. configs.test runs them.

// 128x256 cooperative (64 rows per consumer warpgroup), f16.
wsgemm.gemm @cfg_coop_128x256 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x256 cooperative, bf16, N-major B, 3 stages.
wsgemm.gemm @cfg_coop_128x256_nmajor a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], stages = 3,
                          schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 256x128 cooperative: 128 rows per consumer warpgroup.
wsgemm.gemm @cfg_coop_256x128 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 256x128 cooperative, bf16, N-major B, f32 D, 2 stages.
wsgemm.gemm @cfg_coop_256x128_nmajor_d32 a(bf16) b(bf16, n_major) d(f32)
    config #wsgemm.config<tile = [256, 128, 64], stages = 2,
                          schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x64 warp_specialized, 2 stages.
wsgemm.gemm @cfg_ws_128x64_s2 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 64, 64], stages = 2,
                          schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x64 cooperative (64 rows per warpgroup), N-major B, 4 stages.
wsgemm.gemm @cfg_coop_128x64_s4_nmajor a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 64, 64], stages = 4,
                          schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 64x128 warp_specialized (64 rows per warpgroup).
wsgemm.gemm @cfg_ws_64x128 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x48: tile N a multiple of 16 but not of 32 (epilogue tile N = 16).
wsgemm.gemm @cfg_ws_128x48 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 48, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// warp_specialized made persistent (its default is one CTA per tile).
wsgemm.gemm @cfg_ws_persistent a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          persistent = true> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %r = arith.mulf %alpha, %acc : f32
  epi.store %r : f32
  epi.yield
}

// cooperative made non-persistent (its default is persistent).
wsgemm.gemm @cfg_coop_tiles a(f16) b(f16, n_major) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          persistent = false> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %r = arith.mulf %alpha, %acc : f32
  epi.store %r : f32
  epi.yield
}

// warp_specialized with setmaxnreg budgets.
wsgemm.gemm @cfg_ws_regs a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          producer_regs = 40, consumer_regs = 232> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// cooperative with a wide epilogue tile (128x64) and 2 store stages.
wsgemm.gemm @cfg_coop_epi128x64 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          epi_tile = [128, 64], stages_c = 2, stages_d = 2> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// warp_specialized with a narrow epilogue tile (64x16), 4 store stages.
wsgemm.gemm @cfg_ws_epi64x16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          epi_tile = [64, 16], stages_d = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Tile-scheduler swizzle 2 (bands of 2 M rows walk N), with C through the
// epilogue-load warp, which decodes tiles the same way.
wsgemm.gemm @cfg_coop_swz2 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          swizzle = 2, raster = along_n> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %d = arith.addf %x, %y : f32
  epi.store %d : f32
  epi.yield
}

// Swizzle 4 rastering along M (bands of 4 N columns walk M), persistent
// warp_specialized, bf16.
wsgemm.gemm @cfg_ws_swz4_along_m a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          persistent = true, swizzle = 4, raster = along_m> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %r = arith.mulf %alpha, %acc : f32
  epi.store %r : f32
  epi.yield
}

// Swizzle 8 with the run-time raster heuristic, 128x256 tiles.
wsgemm.gemm @cfg_coop_swz8_heuristic a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 8, raster = heuristic> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %r = arith.mulf %alpha, %acc : f32
  epi.store %r : f32
  epi.yield
}
