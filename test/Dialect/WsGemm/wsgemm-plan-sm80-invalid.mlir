// RUN: ws-gemm-opt %s -split-input-file --wsgemm-plan=chip=sm_80 -verify-diagnostics

// One case per sm_8x refusal of --wsgemm-plan (PlanningChip.cpp): what the
// chip lacks (TMA, clusters, setmaxnreg, wgmma's types) and what the sm_8x
// lowering does not implement yet, each naming the chip.

// expected-error @+1 {{sm_80 has no fp8 mma.sync (m16n8k32 on e4m3 or e5m2 is sm_89's): got a(f8e4m3) and b(f8e4m3); sm_80 kernels multiply f16 or bf16}}
wsgemm.gemm @fp8 a(f8E4M3FN) b(f8E4M3FN) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_80 has no thread block clusters (cluster = [2, 1, 1]; sm_90a has)}}
wsgemm.gemm @cluster a(f16) b(f16) d(f16) config #wsgemm.config<cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_80 has no TMA: load_a = tma; its operands are copied with cp.async (load_a = cp_async, the default there)}}
wsgemm.gemm @tma_a a(f16) b(f16) d(f16) config #wsgemm.config<load_a = tma> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{align_b = 2: sm_80 kernels copy 16, 8 or 4 bytes per cp.async (the 2-byte copy is implemented for sm_90a only)}}
wsgemm.gemm @align2 a(f16) b(f16) d(f16) config #wsgemm.config<load_b = cp_async, align_b = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_80 has no TMA store: store = tma; outputs are stored with st.global (store = direct, the default there)}}
wsgemm.gemm @tma_store a(f16) b(f16) d(f16) config #wsgemm.config<store = tma> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_80 has no setmaxnreg: producer_regs and consumer_regs are sm_90a knobs}}
wsgemm.gemm @regs a(f16) b(f16) d(f16) config #wsgemm.config<producer_regs = 40, consumer_regs = 232> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{schedule = pingpong is not implemented on sm_80 (warp_specialized, cooperative and multistage are)}}
wsgemm.gemm @pingpong a(f16) b(f16) d(f16) config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{split_k = 2 needs copy_out = mma: the load warps copy every tile out, where a split tile's last unit alone stores it}}
wsgemm.gemm @split a(f16) b(f16) d(f16) config #wsgemm.config<split_k = 2, schedule = warp_specialized, copy_out = load> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{an M-major operand is not implemented on sm_80 (its fragments need ldmatrix.trans); A and B must be K-major}}
wsgemm.gemm @mmajor a(f16, m_major) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The cooperative kernel's two warpgroups keep their own copy-out.
// expected-error @+1 {{copy_out = load is implemented for schedule = warp_specialized (one consumer warpgroup), not cooperative: its consumers copy their own outputs out (copy_out = mma)}}
wsgemm.gemm @cooperative_copy_out a(f16) b(f16) d(f16) config #wsgemm.config<schedule = cooperative, copy_out = load> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Multistage has no load warps to hand the copy-out to.
// expected-error @+1 {{copy_out = load needs load warps: schedule = multistage has none (its warps copy their own outputs out, copy_out = mma)}}
wsgemm.gemm @multistage_copy_out a(f16) b(f16) d(f16) config #wsgemm.config<schedule = multistage, copy_out = load> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{schedule = multistage does not read C or aux matrices (they are copied by the epilogue-load warp of the warp-specialized schedules: warp_specialized, cooperative)}}
wsgemm.gemm @with_c a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_80 tile K must be 64 (128 bytes of a 16-bit operand: one swizzled row), got 32}}
wsgemm.gemm @tile_k a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 128, 32]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_80 tile N must be a multiple of 16 up to 256 (one ldmatrix.x4 of B covers 16 columns), got 24}}
wsgemm.gemm @tile_n a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 24, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The cooperative kernel's 384 threads get 168 registers each (without a
// schedule the tile plans multistage: 256 threads of 255).
// expected-error @+1 {{a sm_80 consumer thread of tile [128, 256, 64] holds 128 f32 accumulators (32 rows x 128 columns per warp), which with 72 for fragments and addresses exceed the 168 registers a thread of a 384-thread block has: a smaller tile N fits}}
wsgemm.gemm @regs_tile a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Multistage splits the tile's rows across its 2 warpgroups, as
// cooperative does.
// expected-error @+1 {{schedule multistage splits tile M across 2 consumer warpgroups of 64 or 128 rows each (one or two m64 wgmma), so tile M must be 128 or 256, got 64}}
wsgemm.gemm @multistage_m64 a(f16) b(f16) d(f16) config #wsgemm.config<tile = [64, 128, 64], schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Multistage's block has 256 threads (255 registers each): 128x256 fits,
// 256x256 does not.
// expected-error @+1 {{a sm_80 consumer thread of tile [256, 256, 64] holds 256 f32 accumulators (64 rows x 128 columns per warp), which with 72 for fragments and addresses exceed the 255 registers a thread of a 256-thread block has: a smaller tile N fits}}
wsgemm.gemm @multistage_regs a(f16) b(f16) d(f16) config #wsgemm.config<tile = [256, 256, 64], schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_80 has no TMA: load_c = tma; its operands are copied with cp.async (load_c = cp_async, the default there)}}
wsgemm.gemm @tma_c a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<load_c = tma> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// expected-error @+1 {{align_c = 2: sm_80 kernels copy 16, 8 or 4 bytes per cp.async (the 2-byte copy is implemented for sm_90a only)}}
wsgemm.gemm @c_two_bytes a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<load_c = cp_async, align_c = 2> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// expected-error @+1 {{ctas_per_sm = 2 is implemented for sm_90a only (its register and shared-memory shares are sm_90's), not sm_80}}
wsgemm.gemm @two_ctas a(f16) b(f16) d(f16) config #wsgemm.config<ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Two columns of warps: B's ldmatrix.x4 covers 16 columns of each half.
// expected-error @+1 {{warp_columns = 2 needs tile N / 2 to be a multiple of 16 (each column of warps loads B with ldmatrix.x4, 16 columns at a time), got tile N 48}}
wsgemm.gemm @warp_columns_tile_n a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 48, 64], warp_columns = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{warp_columns = 2 needs epi N to divide tile N / 2 = 64 (a subtile's columns belong to one column of warps), got epi_tile = [128, 128]}}
wsgemm.gemm @warp_columns_epi_n a(f16) b(f16) d(f16) config #wsgemm.config<epi_tile = [128, 128], warp_columns = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{warp_columns = 4 needs tile N / 4 to be a multiple of 16 (each column of warps loads B with ldmatrix.x4, 16 columns at a time), got tile N 96}}
wsgemm.gemm @warp_columns_4_tile_n a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 96, 64], schedule = multistage, warp_columns = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{warp_columns = 4 needs epi N to divide tile N / 4 = 32 (a subtile's columns belong to one column of warps), got epi_tile = [128, 64]}}
wsgemm.gemm @warp_columns_4_epi_n a(f16) b(f16) d(f16) config #wsgemm.config<epi_tile = [128, 64], schedule = multistage, warp_columns = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A C read keeps the 128 x 256 tile off the multistage schedule (no
// epilogue-load warp): the cooperative kernel's registers refuse it.
// expected-error @+1 {{a sm_80 consumer thread of tile [128, 256, 64] holds 128 f32 accumulators}}
wsgemm.gemm @regs_tile_c a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<tile = [128, 256, 64]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %y = arith.addf %acc, %c : f32
  epi.store %y : f32
  epi.yield
}

// -----

// expected-error @+1 {{warp_columns = 4 is implemented for schedule = multistage, not warp_specialized (its warp-specialized kernels take 1 or 2)}}
wsgemm.gemm @warp_columns_4_ws a(f16) b(f16) d(f16) config #wsgemm.config<schedule = warp_specialized, warp_columns = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A 256-row tile without a schedule that reads C stays cooperative (the
// multistage kernel reads no C): refused by registers.
// expected-error @+1 {{a sm_80 consumer thread of tile [256, 128, 64] holds 128 f32 accumulators (32 rows x 128 columns per warp), which with 72 for fragments and addresses exceed the 168 registers a thread of a 384-thread block has: a smaller tile N fits}}
wsgemm.gemm @tall_tile_c a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<tile = [256, 128, 64]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}
