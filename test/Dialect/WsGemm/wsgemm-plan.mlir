// RUN: ws-gemm-opt %s --wsgemm-plan | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-plan --wsgemm-plan | FileCheck %s

// --wsgemm-plan fills every unset knob with CUTLASS's defaults and records the
// dynamic SMEM. The second RUN line checks that planning twice changes
// nothing (wsgemm-plan-capacity.mlir plans for a smaller device). Every figure is derived by hand
// below (Planning.h documents the rules, KernelLayout.h the SMEM layout);
// "stage" is one A tile plus one B tile, and CUTLASS's stage count is
//   (capacity - epilogue carveout) / (stage + 32),
// where the carveout includes the 1024 bytes the kernel uses to align its
// SMEM base (counted in every total below).

// 128x128x64 f16, no C, no config. Tile M 128 -> cooperative (auto), so
// persistent, registers 40/232. epi_tile = (min(128, 128), gcd(min(32, 128),
// 128)) = [128, 32]; EpiTiles = (128/128) * (128/32) = 4;
// fragment_size = 128*32/256 = 16; no C: reuse_smem_c = false,
// delay_tma_store = true; stages_d = min(4, 2) = 2; stages_c = min(4, 4) = 4.
// Carveout: D 2 x 128x32 x 2 B = 16384 (no epilogue loads: no barriers)
// + 1024. stage = 128*64*2 + 128*64*2 = 32768;
// stages = (232448 - 17408) / 32800 = 6.
// SMEM = 6*32768 (A, B) + 16384 (D) + 6*16 (barriers) + 1024 = 214112.
// CHECK-LABEL: wsgemm.gemm @basic_f16 a(f16) b(f16) d(f16)
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1], stages = 6, schedule = cooperative, persistent = true, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = true, producer_regs = 40, consumer_regs = 232, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214112 : i64}
wsgemm.gemm @basic_f16 a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x256x64 cooperative bf16 with C: D = alpha * acc + beta * C.
// epi_tile [128, 32]; EpiTiles = 1 * 8 = 8; fragment_size = 16;
// C and D both 16-bit: reuse_smem_c = true, delay_tma_store = false;
// stages_d = min(8, 2) = 2; stages_c = max(min(8, 4), 2 + 1) = 4.
// Carveout: C 4 x 128x32 x 2 B = 32768 (D lives inside it) + epilogue
// barriers 4*16 = 64 + 1024 -> 33856. stage = 128*64*2 + 256*64*2 = 49152;
// stages = (232448 - 33856) / 49184 = 4.
// SMEM = 4*49152 + 32768 + 4*16 + 64 + 1024 = 230528.
// CHECK-LABEL: wsgemm.gemm @coop_bf16_c a(bf16) b(bf16) c(bf16) d(bf16)
// CHECK-SAME: config #wsgemm.config<tile = [128, 256, 64], cluster = [1, 1, 1], stages = 4, schedule = cooperative, persistent = true, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = true, delay_tma_store = false, producer_regs = 40, consumer_regs = 232, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 230528 : i64}
wsgemm.gemm @coop_bf16_c a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
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

// Tile M 64: CUTLASS's auto rule picks pingpong: persistent, registers
// rebalanced 40/232, and 32 bytes of order barriers; n_major B.
// epi_tile = (min(64, 64), gcd(min(32, 256), 256)) = [64, 32];
// EpiTiles = 1 * 8 = 8; fragment_size = 64*32/128 = 16; stages_d 2,
// stages_c 4. Carveout: D 2 x 64x32 x 2 B = 8192 + 1024.
// stage = 64*64*2 + 256*64*2 = 40960; stages = (232448 - 9216) / 40992 = 5.
// SMEM = 5*40960 + 8192 + 5*16 + 4*8 + 1024 = 214128.
// CHECK-LABEL: wsgemm.gemm @tile_m64_auto a(f16) b(f16, n_major) d(f16)
// CHECK-SAME: config #wsgemm.config<tile = [64, 256, 64], cluster = [1, 1, 1], stages = 5, schedule = pingpong, persistent = true, epi_tile = [64, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = true, producer_regs = 40, consumer_regs = 232, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214128 : i64}
wsgemm.gemm @tile_m64_auto a(f16) b(f16, n_major) d(f16)
    config #wsgemm.config<tile = [64, 256, 64]> {
^bb0(%acc: f32):
  %r = epi.relu %acc : f32
  epi.store %r : f32
  epi.yield
}

// warp_specialized with the default tile 128x128x64: one warpgroup owns
// all 128 rows; epi_tile [64, 32]; EpiTiles = 2 * 4 = 8;
// D 2 x 64x32 x 2 B = 8192; stages = (232448 - 9216) / 32800 = 6;
// SMEM = 6*32768 + 8192 + 96 + 1024 = 205920.
// CHECK-LABEL: wsgemm.gemm @warp_specialized
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1], stages = 6, schedule = warp_specialized, persistent = false, raster = heuristic, swizzle = 1, epi_tile = [64, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = true, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 205920 : i64}
wsgemm.gemm @warp_specialized a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Aux matrices, broadcasts and reductions, bf16 C and D, cooperative 128x128.
// epi_tile [128, 32], EpiTiles 4, reuse_smem_c = true (16-bit C and D),
// stages_d 2, stages_c = max(min(4, 4), 3) = 4. Epilogue, in layout order:
//   C buffers          4 x 128x32 x 2 B                 = 32768 (D inside)
//   aux load "res"     4 (stages_c) x 128x32 x 2 B      = 32768
//     (read twice, one buffer)
//   aux store "pre"    4 (the store ring: C's with
//                      reuse_smem_c) x 128x32 x 2 B     = 32768
//   (vectors are read from global memory into registers and reductions
//   combine with shuffles and atomics: no SMEM)
//   epilogue barriers  4 x 16                           =    64
//   base alignment                                      =  1024
// Carveout = 99392; stages = (232448 - 99392) / 32800 = 4.
// SMEM = 4*32768 + 99392 + 4*16 = 230528.
// CHECK-LABEL: wsgemm.gemm @aux_and_reductions
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1], stages = 4, schedule = cooperative, persistent = true, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = true, delay_tma_store = false, producer_regs = 40, consumer_regs = 232, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 230528 : i64}
wsgemm.gemm @aux_and_reductions a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %colbias = epi.load_vec_n "colbias" : bf16 -> f32
  %res = epi.aux_load "res" : f16 -> f32
  %res2 = epi.aux_load "res" : f16 -> f32
  %0 = arith.addf %acc, %c : f32
  %1 = arith.addf %0, %bias : f32
  %2 = arith.addf %1, %colbias : f32
  %3 = arith.addf %2, %res : f32
  %z = arith.addf %3, %res2 : f32
  epi.aux_store %z, "pre" : f32 -> f16
  %r = epi.relu %z : f32
  epi.reduce_to_vec_m max %r, "rowmax" : f32
  epi.reduce_to_vec_n sum %r, "colsum" : f32
  epi.reduce_to_scalar absmax %r, "amax" : f32
  epi.store %r : f32
  epi.yield
}

// 32-bit C and D also reuse (bits(C) == bits(D) > 8).
// C 4 x 128x32 x 4 B = 65536 + epilogue barriers 64 + 1024 -> carveout
// 66624; stages = (232448 - 66624) / 32800 = 5;
// SMEM = 5*32768 + 66624 + 80 = 230544.
// CHECK-LABEL: wsgemm.gemm @f32_c_d
// CHECK-SAME: stages = 5,
// CHECK-SAME: stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = true, delay_tma_store = false,
// CHECK-SAME: attributes {wsgemm.smem_bytes = 230544 : i64}
wsgemm.gemm @f32_c_d a(f16) b(f16) c(f32) d(f32) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}

// User knobs are kept: stages = 3 and reuse_smem_c = false with a C.
// Without reuse stages_c = min(4, 4) = 4 and D gets its own buffers:
// A, B 3*32768 = 98304; C 4 x 128x32 x 2 B = 32768; D 2 x 128x32 x 2 B =
// 16384; barriers 3*16 = 48 and 4*16 = 64; 1024. SMEM = 148592.
// CHECK-LABEL: wsgemm.gemm @user_knobs
// CHECK-SAME: stages = 3,
// CHECK-SAME: stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = false,
// CHECK-SAME: attributes {wsgemm.smem_bytes = 148592 : i64}
wsgemm.gemm @user_knobs a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<stages = 3, reuse_smem_c = false> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}

// No D store, only a reduction: no epilogue SMEM at all.
// stages = (232448 - 1024) / 32800 = 7; SMEM = 7*32768 + 7*16 + 1024 =
// 230512.
// CHECK-LABEL: wsgemm.gemm @reduction_only
// CHECK-SAME: stages = 7,
// CHECK-SAME: attributes {wsgemm.smem_bytes = 230512 : i64}
wsgemm.gemm @reduction_only a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.yield
}

// A persistent kernel whose config names neither raster nor swizzle
// leaves both unset: they are the launch's (the tile_order parameter),
// static shape or not.
// CHECK-LABEL: wsgemm.gemm @static_persistent a(f16) b(f16) d(f16) shape [4096, 1024, 512]
// CHECK-SAME: persistent = true, epi_tile
wsgemm.gemm @static_persistent a(f16) b(f16) d(f16) shape [4096, 1024, 512] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
// Naming one of them fixes both: the other takes its default.
// CHECK-LABEL: wsgemm.gemm @swizzle_only
// CHECK-SAME: persistent = true, raster = heuristic, swizzle = 4,
wsgemm.gemm @swizzle_only a(f16) b(f16) d(f16)
    config #wsgemm.config<swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
// CHECK-LABEL: wsgemm.gemm @raster_only
// CHECK-SAME: persistent = true, raster = along_m, swizzle = 1,
wsgemm.gemm @raster_only a(f16) b(f16) d(f16)
    config #wsgemm.config<raster = along_m> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A "tiles" grid's shape follows its raster, which is fixed at compile
// time: static shapes resolve the heuristic like CUTLASS's tile scheduler,
// along_m when tiles_n > tiles_m, else along_n.
// 4096 x 1024 with 128x128 tiles: tiles_m 32, tiles_n 8 -> along_n.
// CHECK-LABEL: wsgemm.gemm @tall a(f16) b(f16) d(f16) shape [4096, 1024, 512]
// CHECK-SAME: persistent = false, raster = along_n, swizzle = 1,
wsgemm.gemm @tall a(f16) b(f16) d(f16) shape [4096, 1024, 512]
    config #wsgemm.config<schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
// 4 x 16 batches of 512 x 8192: tiles_m 4, tiles_n 64 -> along_m.
// CHECK-LABEL: wsgemm.gemm @wide batched a(f16) b(f16) d(f16) shape [512, 8192, 512, 16]
// CHECK-SAME: persistent = false, raster = along_m, swizzle = 1,
wsgemm.gemm @wide batched a(f16) b(f16) d(f16) shape [512, 8192, 512, 16]
    config #wsgemm.config<schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Defaults never contradict each other or a knob the user set (each of
// these was refused by the planner's own rules before):
// - tile 128x32, no C: epi_tile [128, 32], EpiTiles 1, stages_d = 1, so no
//   delay_tma_store (the delayed store needs a second D buffer).
// CHECK-LABEL: wsgemm.gemm @one_epi_tile
// CHECK-SAME: stages_c = 1, stages_d = 1, fragment_size = 16, reuse_smem_c = false, delay_tma_store = false,
wsgemm.gemm @one_epi_tile a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 32, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// - delay_tma_store asked for with a C of D's width: no reuse_smem_c (the
//   two are not lowered together).
// CHECK-LABEL: wsgemm.gemm @delay_with_c
// CHECK-SAME: reuse_smem_c = false, delay_tma_store = true,
wsgemm.gemm @delay_with_c a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<delay_tma_store = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}

// - stages_c = 1 asked for with stages_d 2: D cannot live in C's ring.
// CHECK-LABEL: wsgemm.gemm @small_c_ring
// CHECK-SAME: stages_c = 1, stages_d = 2, fragment_size = 16, reuse_smem_c = false,
wsgemm.gemm @small_c_ring a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<stages_c = 1> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}

// fp8 (e4m3 x e5m2 -> e4m3), no config: tile K defaults to 128 (128 bytes
// of an 8-bit row, the 128B swizzle), so a stage is 128*128*1 + 128*128*1
// = 32768 bytes, as for 16-bit 128x128x64. D is 8-bit: epi_tile [128, 64]
// (64 columns for an 8-bit D), 2 subtiles so stages_c = 2 and fragments of
// 128*64/256 = 32; D 2 x 128x64 x 1 B = 16384; carveout 16384 + 1024 =
// 17408; stages = (232448 - 17408) / 32800 = 6.
// SMEM = 6*32768 + 16384 + 6*16 + 1024 = 214112.
// CHECK-LABEL: wsgemm.gemm @basic_fp8 a(f8E4M3FN) b(f8E5M2) d(f8E4M3FN)
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 128], cluster = [1, 1, 1], stages = 6, schedule = cooperative, persistent = true, epi_tile = [128, 64], stages_c = 2, stages_d = 2, fragment_size = 32, reuse_smem_c = false, delay_tma_store = true, producer_regs = 40, consumer_regs = 232, warp_stores = true>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214112 : i64}
wsgemm.gemm @basic_fp8 a(f8E4M3FN) b(f8E5M2) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Block-wise fp8 scaling: promotion_interval defaults to 1 (every k-tile is
// one 128-wide K block, promoted with its scales); the scales are read from
// global memory by the consumers, so the SMEM plan is that of the same
// kernel without them (bf16 D: 2 x 128x32 x 2 B = 16384 of D buffers).
// CHECK-LABEL: wsgemm.gemm @block_scaled_fp8 a(f8E4M3FN) b(f8E4M3FN) d(bf16)
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 128], cluster = [1, 1, 1], stages = 6, schedule = cooperative, persistent = true, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = true, producer_regs = 40, consumer_regs = 232, promotion_interval = 1, block_scaling = true, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214112 : i64}
wsgemm.gemm @block_scaled_fp8 a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A static LM head (f16, N = 50257): D's rows are 100514 bytes, which TMA
// cannot store, so the planner picks store = direct (every epilogue thread
// stores with st.global) and, with no TMA store, delay_tma_store = false.
// The SMEM plan is that of the TMA kernel.
// CHECK-LABEL: wsgemm.gemm @lm_head_static a(f16) b(f16) d(f16) shape [4096, 50257, 4096]
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1], stages = 6, schedule = cooperative, persistent = true, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = false, producer_regs = 40, consumer_regs = 232, store = direct, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214112 : i64}
wsgemm.gemm @lm_head_static a(f16) b(f16) d(f16) shape [4096, 50257, 4096] {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// store = direct with C: D gets its own buffers (reuse_smem_c = false, so
// stages drop to 5 for D's 2 x 128x32 x 2 B beside C's 4 stages).
// CHECK-LABEL: wsgemm.gemm @direct_c a(f16) b(f16) c(f16) d(f16)
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1], stages = 5, schedule = cooperative, persistent = true, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = false, producer_regs = 40, consumer_regs = 232, store = direct, warp_stores = false>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214160 : i64}
wsgemm.gemm @direct_c a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}

// A column-major D is written by the direct stores: the planner picks
// store = direct (and no delayed TMA store) when store is unset.
// CHECK-LABEL: wsgemm.gemm @d_m_major a(bf16) b(bf16) d(bf16, m_major)
// CHECK-SAME: delay_tma_store = false
// CHECK-SAME: store = direct
wsgemm.gemm @d_m_major a(bf16) b(bf16) d(bf16, m_major) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// cp.async producers (issue 28): a static odd M with an M-major A, which
// TMA cannot read, is planned with A's alignment filled in (its 2-byte
// element), the SMEM plan of the TMA kernel (same stages, same layout),
// and the cp.async producer's register budgets: 72 / 216 with one operand
// copied 2 bytes at a time (56 / 224 wider), 72 / 208 with both (80 / 208
// where one of them copies 2 bytes at a time).
// CHECK-LABEL: wsgemm.gemm @cp_async_odd_m a(f16, m_major) b(f16) d(f16) shape [4095, 4096, 4096]
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 1, 1], stages = 6, schedule = cooperative, persistent = true, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = true, producer_regs = 72, consumer_regs = 216, warp_stores = false, load_a = cp_async, align_a = 2>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214112 : i64}
wsgemm.gemm @cp_async_odd_m a(f16, m_major) b(f16) d(f16) shape [4095, 4096, 4096] config #wsgemm.config<load_a = cp_async> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @cp_async_both a(bf16) b(bf16, n_major) d(bf16)
// CHECK-SAME: producer_regs = 72, consumer_regs = 208, warp_stores = false, load_a = cp_async, load_b = cp_async, align_a = 8, align_b = 16>
// CHECK-SAME: attributes {wsgemm.smem_bytes = 214112 : i64}
wsgemm.gemm @cp_async_both a(bf16) b(bf16, n_major) d(bf16) config #wsgemm.config<load_a = cp_async, align_a = 8, load_b = cp_async, align_b = 16> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// CHECK-LABEL: wsgemm.gemm @cp_async_both_2byte a(f16, m_major) b(f16, n_major) d(f16)
// CHECK-SAME: producer_regs = 80, consumer_regs = 208, warp_stores = false, load_a = cp_async, load_b = cp_async, align_a = 2, align_b = 2>
wsgemm.gemm @cp_async_both_2byte a(f16, m_major) b(f16, n_major) d(f16) config #wsgemm.config<load_a = cp_async, load_b = cp_async> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// load_c = cp_async (issue 28): C and an aux load copied by the epilogue-
// load warp, at the widest element by default (the f32 aux load's 4
// bytes), with the register budgets its copies need beside the TMA
// mainloop (96 / 200: 128 x 96 + 256 x 200 = 63488 <= 384 x 168).
// CHECK-LABEL: wsgemm.gemm @copied_c a(f16) b(f16) c(f16) d(f16)
// CHECK-SAME: producer_regs = 96, consumer_regs = 200,
// CHECK-SAME: load_c = cp_async, align_c = 4>
wsgemm.gemm @copied_c a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<load_c = cp_async> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %x = epi.aux_load "x" : f32 -> f32
  %r = arith.addf %acc, %c : f32
  %s = arith.addf %r, %x : f32
  epi.store %s : f32
  epi.yield
}
