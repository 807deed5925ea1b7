// RUN: ws-gemm-opt %s -split-input-file --wsgemm-plan -verify-diagnostics

// One case per legality rule of --wsgemm-plan, with the numbers each message
// must carry (derived by hand in the comments; Planning.h has the rules).
// Rules that the op verifier already enforces (element types, layouts,
// positive sizes) are covered by PlanningTest.cpp.

// Clusters: [M, N, 1] only.
// expected-error @+1 {{cluster = [1, 1, 2] must be [M, N, 1] with M, N >= 1 and at most 16 CTAs (K is not split across a cluster)}}
wsgemm.gemm @cluster_k a(f16) b(f16) d(f16) config #wsgemm.config<cluster = [1, 1, 2]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Clusters of 2 and 4 CTAs are lowered, not 8 or 3.
// expected-error @+1 {{cluster = [4, 2, 1] is not lowered yet: clusters of 2 or 4 CTAs are ([2, 1, 1], [4, 1, 1] sharing B tiles; [1, 2, 1], [1, 4, 1] sharing A tiles; [2, 2, 1] sharing both)}}
wsgemm.gemm @cluster_8 a(f16) b(f16) d(f16) config #wsgemm.config<cluster = [4, 2, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{cluster = [3, 1, 1] is not lowered yet: clusters of 2 or 4 CTAs are}}
wsgemm.gemm @cluster_3 a(f16) b(f16) d(f16) config #wsgemm.config<cluster = [3, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{cluster = [2, 1, 1] needs persistent = true: the cluster's CTAs walk groups of tiles of the persistent tile scheduler}}
wsgemm.gemm @cluster_tiles a(f16) b(f16) d(f16) config #wsgemm.config<cluster = [2, 1, 1], persistent = false> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// An n_major B's 64-column blocks are split between the 2 CTAs.
// expected-error @+1 {{cluster = [2, 1, 1] splits the n_major B tile's 64-column blocks between 2 CTAs: tile N must be a multiple of 128, got 64}}
wsgemm.gemm @cluster_nmajor a(f16) b(f16, n_major) d(f16) config #wsgemm.config<tile = [128, 64, 64], cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{cluster = [1, 2, 1] splits the m_major A tile's 64-column blocks between 2 CTAs: tile M must be a multiple of 128, got 64}}
wsgemm.gemm @cluster_mmajor a(f16, m_major) b(f16) d(f16) config #wsgemm.config<tile = [64, 128, 64], cluster = [1, 2, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A 2x2 cluster splits B among the 2 CTAs of a column and A among the 2 of
// a row: an n_major B of tile N = 64 cannot be split.
// expected-error @+1 {{cluster = [2, 2, 1] splits the n_major B tile's 64-column blocks between 2 CTAs: tile N must be a multiple of 128, got 64}}
wsgemm.gemm @cluster_22_nmajor a(f16) b(f16, n_major) d(f16) config #wsgemm.config<tile = [128, 64, 64], cluster = [2, 2, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A k_major B tile of N = 176 in 4 parts is 44 rows each, not whole 8-row
// swizzle atoms (4 x 8 = 32 does not divide 176).
// expected-error @+1 {{cluster = [4, 1, 1] splits the k_major B tile in 8-row atoms between 4 CTAs: tile N must be a multiple of 32, got 176}}
wsgemm.gemm @cluster_41_atoms a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 176, 64], cluster = [4, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// tile K * sizeof(A) != 128: 32 x 2 B = 64 bytes.
// expected-error @+1 {{tile K = 32 spans 64 bytes of 16-bit A; it must span exactly 128 bytes (one row of the 128B swizzle, the only one warpgroup.generate.descriptor supports), so tile K must be 64}}
wsgemm.gemm @tile_k a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 128, 32]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// tile N not a multiple of 16.
// expected-error @+1 {{tile N = 120 is not a wgmma N: it must be a multiple of 16 in [16, 256] (wgmma allows multiples of 8; we require 16)}}
wsgemm.gemm @tile_n a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 120, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// tile N above 256.
// expected-error @+1 {{tile N = 512 is not a wgmma N}}
wsgemm.gemm @tile_n_large a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 512, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// warp_specialized: one consumer warpgroup of 64 or 128 rows.
// expected-error @+1 {{schedule warp_specialized has one consumer warpgroup per tile, owning 64 or 128 rows (one or two m64 wgmma), so tile M must be 64 or 128, got 256}}
wsgemm.gemm @ws_tile_m a(f16) b(f16) d(f16) config #wsgemm.config<tile = [256, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// cooperative: two warpgroups split M.
// expected-error @+1 {{schedule cooperative splits tile M across 2 consumer warpgroups of 64 or 128 rows each (one or two m64 wgmma), so tile M must be 128 or 256, got 64}}
wsgemm.gemm @coop_tile_m a(f16) b(f16) d(f16) config #wsgemm.config<tile = [64, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// pingpong: each warpgroup owns whole tiles.
// expected-error @+1 {{schedule pingpong gives each of its 2 consumer warpgroups whole tiles of 64 or 128 rows (one or two m64 wgmma), so tile M must be 64 or 128, got 256}}
wsgemm.gemm @pingpong_tile_m a(f16) b(f16) d(f16) config #wsgemm.config<tile = [256, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// pingpong needs the persistent tile scheduler.
// expected-error @+1 {{schedule pingpong needs persistent = true: its 2 consumer warpgroups take alternate tiles from the persistent tile scheduler}}
wsgemm.gemm @pingpong_persistent a(f16) b(f16) d(f16) config #wsgemm.config<schedule = pingpong, persistent = false> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The epilogue tile must divide the CTA tile: 128 % 48 = 32.
// expected-error @+1 {{epi_tile = [128, 48] must divide the CTA tile's M x N = 128 x 128, but 128 % 128 = 0 and 128 % 48 = 32}}
wsgemm.gemm @epi_divides a(f16) b(f16) d(f16) config #wsgemm.config<epi_tile = [128, 48]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// cooperative epilogue subtiles are 128 rows (64 from each warpgroup).
// expected-error @+1 {{epi_tile M must be 128 for schedule cooperative (64 rows from each of the 2 consumer warpgroups, as in CUTLASS's sm90_compute_tile_shape_or_override), got 64}}
wsgemm.gemm @epi_m_coop a(f16) b(f16) d(f16) config #wsgemm.config<epi_tile = [64, 32]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// warp_specialized and pingpong epilogue subtiles are 64 rows.
// expected-error @+1 {{epi_tile M must be 64 for schedule pingpong (the 64-row block of one m64 wgmma, as in CUTLASS's sm90_compute_tile_shape_or_override), got 128}}
wsgemm.gemm @epi_m_pingpong a(f16) b(f16) d(f16) config #wsgemm.config<schedule = pingpong, epi_tile = [128, 32]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{epi_tile N = 8 must be a multiple of 16 (stmatrix writes 16 columns of the subtile per step)}}
wsgemm.gemm @epi_n a(f16) b(f16) d(f16) config #wsgemm.config<epi_tile = [128, 8]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{stages = 1 must be at least 2 so that the TMA loads of the next k-tile overlap the wgmma of the current one}}
wsgemm.gemm @stages a(f16) b(f16) d(f16) config #wsgemm.config<stages = 1> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Cooperative 128x32 subtiles: 128*32 / 256 threads = 16 elements each;
// 16 % 12 != 0.
// expected-error @+1 {{fragment_size = 12 must divide the 16 accumulator elements each of the 256 epilogue threads holds per 128x32 subtile}}
wsgemm.gemm @fragment a(f16) b(f16) d(f16) config #wsgemm.config<fragment_size = 12> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// reuse_smem_c without a C load.
// expected-error @+1 {{reuse_smem_c = true needs an epilogue that loads C (epi.load_src) and stores D (epi.store): D's buffers alias C's}}
wsgemm.gemm @reuse_no_c a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<reuse_smem_c = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// reuse_smem_c with 16-bit C and 32-bit D.
// expected-error @+1 {{reuse_smem_c = true needs C and D of the same width because D's buffers alias C's, got 16-bit C and 32-bit D}}
wsgemm.gemm @reuse_widths a(f16) b(f16) c(f16) d(f32) config #wsgemm.config<reuse_smem_c = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}

// -----

// reuse_smem_c asked for with more D buffers than C buffers (left unset,
// the planner does not turn it on here: wsgemm-plan.mlir @small_c_ring).
// expected-error @+1 {{reuse_smem_c = true needs stages_d <= stages_c because D's buffers live inside C's, got stages_d = 3 and stages_c = 2}}
wsgemm.gemm @reuse_stages a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<stages_c = 2, stages_d = 3, reuse_smem_c = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}

// -----

// expected-error @+1 {{swizzle = 3 must be 1, 2, 4 or 8 (the tile scheduler's max_swizzle_size)}}
wsgemm.gemm @swizzle a(f16) b(f16) d(f16) config #wsgemm.config<swizzle = 3> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{producer_regs = 44 must be a multiple of 8 in [24, 256] (setmaxnreg)}}
wsgemm.gemm @producer_regs a(f16) b(f16) d(f16) config #wsgemm.config<producer_regs = 44> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{consumer_regs = 264 must be a multiple of 8 in [24, 256] (setmaxnreg)}}
wsgemm.gemm @consumer_regs a(f16) b(f16) d(f16) config #wsgemm.config<consumer_regs = 264> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// 40 x 128 + 2 x 240 x 128 = 5120 + 61440 = 66560 > 384 x 168 = 64512.
// expected-error @+1 {{register budgets need 40 x 128 + 2 x 240 x 128 = 66560 registers, more than the 64512 the CTA is launched with (384 threads x 168; setmaxnreg only moves registers between its warpgroups)}}
wsgemm.gemm @register_file a(f16) b(f16) d(f16) config #wsgemm.config<consumer_regs = 240> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// cooperative 256x208: each warpgroup holds 128x208 f32 = 26624 values over
// 128 threads = 208 registers each; with the epilogue's 40 that is 248, more
// than consumer_regs = 232 (ptxas spills this kernel). 256x192 (192 + 40 =
// 232) is accepted.
// expected-error @+1 {{each consumer thread holds its share of a 128x208 f32 accumulator in 208 registers, which with the 40 the epilogue needs is more than its budget of 232 (consumer_regs): use a smaller tile N}}
wsgemm.gemm @accumulator a(f16) b(f16) d(f16) config #wsgemm.config<tile = [256, 208, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// warp_specialized without setmaxnreg: 65536 / 256 threads = 256, capped at
// 255 registers per thread; 128x224 needs 224 + 40.
// expected-error @+1 {{each consumer thread holds its share of a 128x224 f32 accumulator in 224 registers, which with the 40 the epilogue needs is more than its budget of 255: use a smaller tile N or schedule cooperative}}
wsgemm.gemm @accumulator_ws a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 224, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// TMA strides: k_major A with K = 1001: 1001 x 2 = 2002 bytes; B (k_major)
// has the same K.
// expected-error @+2 {{TMA needs row strides that are multiples of 16 bytes, but A (k_major: M x K, K contiguous) has a row stride of K x 2 = 2002 bytes (K = 1001)}}
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but B (k_major: N x K, K contiguous) has a row stride of K x 2 = 2002 bytes (K = 1001)}}
wsgemm.gemm @tma_k a(f16) b(f16) d(f16) shape [1024, 1024, 1001] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// m_major A with M = 1004: 1004 x 2 = 2008 bytes (2008 % 16 = 8).
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but A (m_major: K x M, M contiguous) has a row stride of M x 2 = 2008 bytes (M = 1004)}}
wsgemm.gemm @tma_a_m_major a(bf16, m_major) b(bf16) d(bf16) shape [1004, 1024, 1024] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// n_major B and D share N = 1004: both 2008 bytes. The planner stores D
// directly (store = direct), but B is an input, loaded only with TMA.
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but B (n_major: K x N, N contiguous) has a row stride of N x 2 = 2008 bytes (N = 1004)}}
wsgemm.gemm @tma_b_n_major batched a(f16) b(f16, n_major) d(f16) shape [1024, 1004, 1024, 3] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// 16-bit C with N = 1004: 2008 bytes; f32 D: 4016 bytes is fine.
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but C (M x N, N contiguous) has a row stride of N x 2 = 2008 bytes (N = 1004)}}
wsgemm.gemm @tma_c a(f16) b(f16) c(f16) d(f32) shape [1024, 1004, 1024] {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}

// -----

// An 8-bit aux matrix with N = 1000: 1000 x 1 = 1000 bytes; D: 2000 is fine.
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but aux matrix 'mask' (M x N) has a row stride of N x 1 = 1000 bytes (N = 1000)}}
wsgemm.gemm @tma_aux a(f16) b(f16) d(f16) shape [1024, 1000, 1024] {
^bb0(%acc: f32):
  %m = epi.aux_load "mask" : f8E4M3FN -> f32
  %d = arith.mulf %acc, %m : f32
  epi.store %d : f32
  epi.yield
}

// -----

// SMEM over budget with an explicit stage count. 128x256x64 cooperative f16:
//   A stages  5 x 128x64 x 2 B = 81920
//   B stages  5 x 256x64 x 2 B = 163840
//   D buffers 2 x 128x32 x 2 B = 16384
//   mainloop barriers 5 x 16   = 80
//   base alignment             = 1024
// total 263248 = 232448 + 30800. With stages = 4: 4*49152 + 16384 + 64 +
// 1024 = 214080, which fits.
// expected-error @+6 {{needs 263248 bytes of shared memory, 232448 available: over by 30800; try stages = 4 or a smaller tile}}
// expected-note @+5 {{A stages: 81920 bytes (5 x 128x64 x 2 B)}}
// expected-note @+4 {{B stages: 163840 bytes (5 x 256x64 x 2 B)}}
// expected-note @+3 {{D buffers: 16384 bytes (2 x 128x32 x 2 B)}}
// expected-note @+2 {{mainloop barriers: 80 bytes (5 stages x 2 x 8 B)}}
// expected-note @+1 {{base alignment: 1024 bytes (the kernel rounds the dynamic SMEM base up to 1024 bytes)}}
wsgemm.gemm @smem_stages a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 256, 64], stages = 5> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// SMEM over budget even at 2 stages: f32 C (D reuses it) and two f32 aux
// loads, 128x256x64 cooperative: epi_tile [128, 32], EpiTiles 8,
// stages_c = max(min(8, 4), 3) = 4.
//   A stages   2 x 128x64 x 2 B            = 32768
//   B stages   2 x 256x64 x 2 B            = 65536
//   C buffers  4 x 128x32 x 4 B            = 65536
//   aux loads  2 x (4 x 128x32 x 4 B)      = 131072
//   mainloop barriers 2 x 16               = 32
//   epilogue barriers 4 x 16               = 64
//   base alignment                         = 1024
// Default stages = (232448 - 197696) / 49184 = 0, raised to 2;
// total 296032 = 232448 + 63584.
// expected-error @+8 {{needs 296032 bytes of shared memory, 232448 available: over by 63584; even stages = 2 needs 296032 bytes: use a smaller tile or epilogue tile, or fewer epilogue buffers}}
// expected-note @+7 {{A stages: 32768 bytes (2 x 128x64 x 2 B)}}
// expected-note @+6 {{B stages: 65536 bytes (2 x 256x64 x 2 B)}}
// expected-note @+5 {{C buffers: 65536 bytes (4 x 128x32 x 4 B; D's subtiles inside)}}
// expected-note @+4 {{aux load buffers: 131072 bytes (x: 4 x 128x32 x 4 B + y: 4 x 128x32 x 4 B)}}
// expected-note @+3 {{mainloop barriers: 32 bytes (2 stages x 2 x 8 B)}}
// expected-note @+2 {{epilogue barriers: 64 bytes (4 stages_c x 2 x 8 B)}}
// expected-note @+1 {{base alignment: 1024 bytes (the kernel rounds the dynamic SMEM base up to 1024 bytes)}}
wsgemm.gemm @smem_epilogue a(f16) b(f16) c(f32) d(f32) config #wsgemm.config<tile = [128, 256, 64]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %x = epi.aux_load "x" : f32 -> f32
  %y = epi.aux_load "y" : f32 -> f32
  %0 = arith.addf %acc, %c : f32
  %1 = arith.addf %0, %x : f32
  %d = arith.addf %1, %y : f32
  epi.store %d : f32
  epi.yield
}

// -----

// Presets must be expanded first.
wsgemm.gemm @preset a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  // expected-error @+1 {{preset 'ScaledAcc' must be expanded before planning: run --epi-expand-presets before --wsgemm-plan}}
  epi.fusion ScaledAcc %acc : f32
  epi.yield
}

// -----

// fp8: wgmma reads 8-bit operands only K-major, so an N-major B or an
// M-major A is refused with what to do instead.
// expected-error @+1 {{B of type f8e4m3 must be k_major: wgmma reads 8-bit operands only K-major (it transposes f16/bf16 only); store B as N x K with K contiguous (the TN layout cuBLASLt's fp8 GEMM also needs)}}
wsgemm.gemm @fp8_n_major_b a(f8E4M3FN) b(f8E4M3FN, n_major) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{A of type f8e5m2 must be k_major: wgmma reads 8-bit operands only K-major (it transposes f16/bf16 only); store A as M x K with K contiguous (transpose it before the GEMM)}}
wsgemm.gemm @fp8_m_major_a a(f8E5M2, m_major) b(f8E4M3FN) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// An fp8 tile K of 64 is 64 bytes: the 128B swizzle needs 128.
// expected-error @+1 {{tile K = 64 spans 64 bytes of 8-bit A; it must span exactly 128 bytes (one row of the 128B swizzle, the only one warpgroup.generate.descriptor supports), so tile K must be 128}}
wsgemm.gemm @fp8_tile_k a(f8E4M3FN) b(f8E4M3FN) d(f16) config #wsgemm.config<tile = [128, 128, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// An fp8 D row of N bytes stored with TMA: TMA needs a multiple of 16,
// N = 1000 is not (left unset, store would be direct).
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but D (M x N, N contiguous) has a row stride of N x 1 = 1000 bytes (N = 1000); set store = direct}}
wsgemm.gemm @fp8_d_stride a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN) shape [256, 1000, 128] config #wsgemm.config<store = tma> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Promoted accumulation works around fp8 wgmma's accumulator; 16-bit wgmma
// accumulates in f32 already.
// expected-error @+1 {{promotion_interval = 2 needs 8-bit A and B: it works around fp8 wgmma's reduced-precision accumulation, and bf16 wgmma accumulates in f32 already (drop it or use 0)}}
wsgemm.gemm @promote_bf16 a(bf16) b(bf16) d(bf16) config #wsgemm.config<promotion_interval = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Two accumulators of a 64x256 warpgroup share: 2 x 128 registers.
// expected-error @+1 {{each consumer thread holds its share of two (promoted accumulation) 64x256 f32 accumulators in 256 registers, which with the 40 the epilogue needs is more than its budget of 232 (consumer_regs): use a smaller tile N}}
wsgemm.gemm @promote_wide a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<tile = [128, 256, 128], promotion_interval = 1> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// An LM head (f16, N = 50257, bias along N; B stored N x K, K-major) told
// to store with TMA: only D's row stride (50257 x 2 = 100514 bytes) breaks
// TMA's rule, and the message names the knob that stores D without TMA
// (which the planner picks when `store` is left unset: wsgemm-plan.mlir).
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but D (M x N, N contiguous) has a row stride of N x 2 = 100514 bytes (N = 50257); set store = direct (every epilogue thread stores its elements with st.global, any row stride)}}
wsgemm.gemm @lm_head a(f16) b(f16) d(f16) shape [4096, 50257, 4096] config #wsgemm.config<store = tma> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// -----

// An input with such rows is loaded only with TMA: the fix is a padded
// leading dimension (N = 1001 f16: 2002 bytes -> 2016 = 1008 elements).
// expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but C (M x N, N contiguous) has a row stride of N x 2 = 2002 bytes (N = 1001); leave the shape dynamic and store the rows padded to a multiple of 16 bytes (leading dimension 1008), which the runtime takes as the operand's ld, or load it with cp.async (load_c = cp_async)}}
wsgemm.gemm @odd_c a(f16) b(f16) c(f16) d(f16) shape [256, 1001, 64] config #wsgemm.config<store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}

// -----

// Direct stores issue no TMA store to hold back.
// expected-error @+1 {{store = direct and delay_tma_store = true exclude each other: direct stores issue no TMA store to delay}}
wsgemm.gemm @direct_delay a(f16) b(f16) d(f16) config #wsgemm.config<store = direct, delay_tma_store = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{store = direct and reuse_smem_c = true are not lowered together: D is staged in its own buffers, copied out by every thread}}
wsgemm.gemm @direct_reuse a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<store = direct, reuse_smem_c = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}

// -----

// Block-wise scaling (DeepSeek-V3's fp8 recipe) undoes fp8 quantization; a
// 16-bit GEMM has none.
// expected-error @+1 {{block_scaling = true needs 8-bit A and B (f8E4M3FN, f8E5M2): its scales undo fp8 quantization, got bf16 A and bf16 B}}
wsgemm.gemm @block_scaled_bf16 a(bf16) b(bf16) d(bf16) config #wsgemm.config<block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The scales of a 128-wide K block apply when its partial is promoted:
// every k-tile.
// expected-error @+1 {{block_scaling = true needs promotion_interval = 1: each 128-wide K block's partial is scaled by that block's scales when it is promoted, got promotion_interval = 2}}
wsgemm.gemm @block_scaled_interval a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<block_scaling = true, promotion_interval = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Fast accumulation (promotion_interval = 0) has no promotion to scale at.
// expected-error @+1 {{block_scaling = true needs promotion_interval = 1: each 128-wide K block's partial is scaled by that block's scales when it is promoted, got promotion_interval = 0}}
wsgemm.gemm @block_scaled_fast a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<block_scaling = true, promotion_interval = 0> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A 192-column tile would straddle B's 128-column scale blocks unevenly.
// expected-error @+1 {{block_scaling = true needs tile N a multiple of 128 or a divisor of 128, so that a tile's columns lie in whole 128-column scale blocks of B or within one, got tile N = 192}}
wsgemm.gemm @block_scaled_tile_n a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<tile = [128, 192, 128], block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The kernel's scale tensors are parameters named block_scale_a/b.
// expected-error @+1 {{block_scaling = true takes a kernel parameter named 'block_scale_a': rename the epilogue operand 'block_scale_a'}}
wsgemm.gemm @block_scaled_name a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<block_scaling = true> {
^bb0(%acc: f32):
  %s = epi.load_vec_m "block_scale_a" : f32 -> f32
  %d = arith.mulf %acc, %s : f32
  epi.store %d : f32
  epi.yield
}

// -----

// Two 64x256 accumulators (partial and total) need 256 registers per
// consumer thread: no 256-wide tile fits beside the epilogue.
// expected-error @+1 {{each consumer thread holds its share of two (promoted accumulation) 64x256 f32 accumulators in 256 registers, which with the 40 the epilogue needs is more than its budget of 232 (consumer_regs): use a smaller tile N}}
wsgemm.gemm @block_scaled_wide a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<tile = [128, 256, 128], block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// D staged over C: the C stage goes back after the warpgroup's store.
// expected-error @+1 {{reuse_smem_c = true and warp_stores = true are not lowered together: a C stage goes back to the loader once the warpgroup's store of the D staged in it has read it}}
wsgemm.gemm @warp_stores_reuse a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<reuse_smem_c = true, warp_stores = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}

// -----

// expected-error @+1 {{store = direct and warp_stores = true exclude each other: direct stores issue no TMA store}}
wsgemm.gemm @warp_stores_direct a(f16) b(f16) d(f16) config #wsgemm.config<store = direct, warp_stores = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{d(bf16, m_major) is written by the direct stores only (the TMA store writes the staged subtile's rows along N): use store = direct, or leave store unset}}
wsgemm.gemm @d_m_major_tma a(bf16) b(bf16) d(bf16, m_major) config #wsgemm.config<store = tma> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A persistent kernel without raster or swizzle takes a parameter named
// tile_order (the launch's tile order); an explicit swizzle frees the name.
// expected-error @+1 {{a config without raster or swizzle takes a kernel parameter named 'tile_order': rename the epilogue operand 'tile_order'}}
wsgemm.gemm @tile_order_name a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %s = epi.load_vec_m "tile_order" : f16 -> f32
  %d = arith.mulf %acc, %s : f32
  epi.store %d : f32
  epi.yield
}

// -----

wsgemm.gemm @tile_order_name_fixed a(f16) b(f16) d(f16) config #wsgemm.config<swizzle = 2> {
^bb0(%acc: f32):
  %s = epi.load_vec_m "tile_order" : f16 -> f32
  %d = arith.mulf %acc, %s : f32
  epi.store %d : f32
  epi.yield
}

// -----

// A reducing D store with store = direct: red.global has 16-bit min/max
// only as vectors; add is lowered (red.global.add.noftz.f16).
// expected-error @+1 {{store = direct with 'reduce max' on D: PTX's red.global has max for f16 only as vectors of 2 to 8 elements, and direct stores write one element at any alignment; use store = tma (cp.reduce.async.bulk.tensor) or 'reduce add'}}
wsgemm.gemm @direct_reduce_max a(f16) b(f16) d(f16)
    config #wsgemm.config<store = direct> {
^bb0(%acc: f32):
  epi.store %acc reduce max : f32
  epi.yield
}

// -----

// The same for a static shape whose rows TMA cannot store: the planner
// keeps TMA for a min/max reduction (no direct fallback), and the stride
// rule says why.
// expected-error @+1 {{D (M x N, N contiguous)}}
wsgemm.gemm @rows_unaligned_reduce_min a(bf16) b(bf16) d(bf16)
    shape [256, 1001, 64] {
^bb0(%acc: f32):
  epi.store %acc reduce min : f32
  epi.yield
}

// -----

// cp.async producers (load_a / load_b = cp_async): 16-bit operands only.
// expected-error @+1 {{load_a = cp_async takes 16-bit operands (f16, bf16), but A is f8e4m3: load 8-bit operands with TMA (load_a = tma, the default)}}
wsgemm.gemm @cp_async_fp8 a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<load_a = cp_async> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A cluster shares its operand tiles by TMA multicast.
// expected-error @+1 {{cp.async producers (load_a/load_b = cp_async) are lowered for cluster = [1, 1, 1] only, got cluster = [2, 1, 1]: a cluster shares its operand tiles by TMA multicast, which cp.async copies cannot do}}
wsgemm.gemm @cp_async_cluster a(f16) b(f16) d(f16) config #wsgemm.config<cluster = [2, 1, 1], load_b = cp_async, align_b = 16> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A static stride answers to the alignment: M = 1001 M-major is 2002-byte
// rows, which 4-byte copies cannot read (TMA's 16-byte rule is not asked).
// expected-error @+1 {{A's row stride M x 2 = 2002 bytes (M = 1001) is not a multiple of align_a = 4 bytes; use align_a = 2}}
wsgemm.gemm @cp_async_stride a(f16, m_major) b(f16) d(f16) shape [1001, 1024, 1024] config #wsgemm.config<load_a = cp_async, align_a = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// load_c = cp_async (the epilogue-load warp's copies of C and the aux
// loads) needs something to copy.
// expected-error @+1 {{load_c = cp_async copies C and the aux loads, but the epilogue reads neither: drop load_c and align_c}}
wsgemm.gemm @load_c_nothing a(f16) b(f16) d(f16) config #wsgemm.config<load_c = cp_async> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// An f32 C is 4 bytes an element: 2-byte copies would split it.
// expected-error @+1 {{align_c = 2 bytes is less than C's element (f32, 4 bytes)}}
wsgemm.gemm @load_c_narrow a(f16) b(f16) c(f32) d(f32) config #wsgemm.config<load_c = cp_async, align_c = 2> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// A 2-byte copy moves one 16-bit element; an 8-bit aux load needs cp.async.
// expected-error @+1 {{align_c = 2 copies one 16-bit element at a time, but aux load 'q' is f8e4m3: use align_c = 4 or more (cp.async)}}
wsgemm.gemm @load_c_fp8_aux a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<load_c = cp_async, align_c = 2> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %q = epi.aux_load "q" : f8E4M3FN -> f32
  %r = arith.addf %acc, %c : f32
  %s = arith.addf %r, %q : f32
  epi.store %s : f32
  epi.yield
}

// -----

// A static C stride answers to align_c: N = 1001 f16 rows are 2002 bytes.
// expected-error @+1 {{C (M x N, N contiguous) has a row stride of N x 2 = 2002 bytes (N = 1001), not a multiple of align_c = 4 bytes (the epilogue's copy width); use align_c = 2}}
wsgemm.gemm @load_c_stride a(f16) b(f16) c(f16) d(f16) shape [1024, 1001, 1024] config #wsgemm.config<load_c = cp_async, align_c = 4, store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// 96 x 128 + 2 x 208 x 128 = 65536 fits an SM's register file but not the
// 384 x 168 = 64512 the CTA is launched with (the H100 deadlocked on it).
// expected-error @+1 {{register budgets need 96 x 128 + 2 x 208 x 128 = 65536 registers, more than the 64512 the CTA is launched with (384 threads x 168; setmaxnreg only moves registers between its warpgroups)}}
wsgemm.gemm @register_pool a(f16) b(f16) d(f16) config #wsgemm.config<producer_regs = 96, consumer_regs = 208> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{reuse_smem_c = true and align_c = 2 are not lowered together (D would be staged over C's stages, which the loader writes with st.shared); set reuse_smem_c = false}}
wsgemm.gemm @load_c_reuse a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<load_c = cp_async, align_c = 2, reuse_smem_c = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// ctas_per_sm = 2: a CTA's shared memory is 233472 / 2 - 1024 = 115712
// bytes. 128x64x64 f16 stages of 16384 + 8192 bytes: 6 need 164960 with
// the epilogue's buffers, 3 fit.
// expected-error @+6 {{needs 164960 bytes of shared memory, 115712 available (a CTA's share with ctas_per_sm = 2): over by 49248; try stages = 3 or a smaller tile}}
// expected-note @+5 {{A stages: 98304 bytes (6 x 128x64 x 2 B)}}
// expected-note @+4 {{B stages: 49152 bytes (6 x 64x64 x 2 B)}}
// expected-note @+3 {{D buffers: 16384 bytes (2 x 128x32 x 2 B)}}
// expected-note @+2 {{mainloop barriers: 96 bytes (6 stages x 2 x 8 B)}}
// expected-note @+1 {{base alignment: 1024 bytes}}
wsgemm.gemm @ctas_smem a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 64, 64], stages = 6, ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// ... and registers: 65536 / 2 / 384 = 85 -> 80 per thread at launch; the
// default budgets are 40 for the producer, (384 x 80 - 40 x 128) / 256 =
// 100 -> 96 for each consumer, under a 128x128 accumulator's 128 + 40.
// expected-error @+1 {{each consumer thread holds its share of a 128x128 f32 accumulator in 128 registers, which with the 40 the epilogue needs is more than its budget of 96 (consumer_regs) with ctas_per_sm = 2 (a CTA gets half the SM's registers): use a smaller tile N, or one CTA per SM}}
wsgemm.gemm @ctas_accumulator a(f16) b(f16) d(f16) config #wsgemm.config<tile = [256, 128, 64], ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// setmaxnreg moves registers within the CTA's half: 384 x 80 = 30720.
// expected-error @+1 {{register budgets need 40 x 128 + 2 x 232 x 128 = 64512 registers, more than the 30720 the CTA is launched with (384 threads x 80, its half of the SM's with ctas_per_sm = 2; setmaxnreg only moves registers between its warpgroups)}}
wsgemm.gemm @ctas_pool a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 64, 64], ctas_per_sm = 2, producer_regs = 40, consumer_regs = 232> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// warp_columns arranges mma.sync's warps; wgmma fixes each warp's rows.
// expected-error @+1 {{warp_columns = 2 is an sm_8x knob (mma.sync warp tiles); sm_90a's wgmma gives each warp 16 rows of every 64 and all the tile's columns}}
wsgemm.gemm @warp_columns_sm90 a(f16) b(f16) d(f16) config #wsgemm.config<warp_columns = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// copy_out = load gives the sm_8x load warps the direct stores' copy-out.
// expected-error @+1 {{copy_out = load is an sm_8x knob (the cp.async load warps copy the staged output out); sm_90a kernels store by TMA or from the consumer warpgroups (copy_out = mma)}}
wsgemm.gemm @copy_out_sm90 a(f16) b(f16) d(f16) config #wsgemm.config<copy_out = load> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
