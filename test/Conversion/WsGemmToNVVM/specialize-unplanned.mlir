// RUN: ws-gemm-opt %s --wsgemm-specialize -split-input-file -verify-diagnostics

// --wsgemm-specialize reads the plan back and decides nothing itself: an op
// that was never planned, or whose recorded SMEM no longer matches its
// config's layout, is refused rather than lowered with guesses.

// expected-error @below {{'wsgemm.gemm' op is not planned; run --wsgemm-plan before lowering}}
wsgemm.gemm @unplanned a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @below {{'wsgemm.gemm' op was planned for 1000 bytes of shared memory but its config lays out}}
wsgemm.gemm @stale a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1],
                          stages = 4, schedule = cooperative,
                          persistent = true, raster = heuristic, swizzle = 1,
                          epi_tile = [128, 32], stages_c = 4, stages_d = 2,
                          fragment_size = 16, reuse_smem_c = false,
                          delay_tma_store = true, producer_regs = 40,
                          consumer_regs = 232, warp_stores = false>
    attributes {wsgemm.smem_bytes = 1000 : i64} {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
