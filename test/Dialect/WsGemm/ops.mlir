// RUN: ws-gemm-opt %s | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --mlir-print-op-generic | ws-gemm-opt | FileCheck %s

// Round trip of every form of wsgemm.gemm and #wsgemm.config.

// The contract form: default layouts, C, no config.
// CHECK-LABEL: wsgemm.gemm @contract a(f16) b(f16) c(f16) d(f16) {
// CHECK-NEXT:  ^bb0(%[[ACC:.+]]: f32):
// CHECK-NEXT:    %[[C:.+]] = epi.load_src : f32
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[ACC]], %[[C]] : f32
// CHECK-NEXT:    epi.store %[[S]] : f32
// CHECK-NEXT:    epi.yield
wsgemm.gemm @contract a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %s = arith.addf %acc, %c : f32
  epi.store %s : f32
  epi.yield
}

// No C; f32 D.
// CHECK-LABEL: wsgemm.gemm @no_c a(bf16) b(bf16) d(f32) {
wsgemm.gemm @no_c a(bf16) b(bf16) d(f32) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Explicit default layouts print implicitly.
// CHECK-LABEL: wsgemm.gemm @default_layouts a(f16) b(f16) d(f16) {
wsgemm.gemm @default_layouts a(f16, k_major) b(f16, k_major) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Non-default layouts.
// CHECK-LABEL: wsgemm.gemm @layouts a(f16, m_major) b(f16, n_major) c(f32) d(bf16) {
wsgemm.gemm @layouts a(f16, m_major) b(f16, n_major) c(f32) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched with a dynamic shape.
// CHECK-LABEL: wsgemm.gemm @batched batched a(f16) b(f16, n_major) d(f16) {
wsgemm.gemm @batched batched a(f16) b(f16, n_major) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Static shapes: [M, N, K] and, batched, [M, N, K, L].
// CHECK-LABEL: wsgemm.gemm @static a(f16) b(f16) d(f16) shape [4096, 2048, 1024] {
wsgemm.gemm @static a(f16) b(f16) d(f16) shape [4096, 2048, 1024] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
// CHECK-LABEL: wsgemm.gemm @static_batched batched a(bf16) b(bf16) d(bf16) shape [256, 512, 128, 8] {
wsgemm.gemm @static_batched batched a(bf16) b(bf16) d(bf16) shape [256, 512, 128, 8] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// An empty config.
// CHECK-LABEL: wsgemm.gemm @empty_config a(f16) b(f16) d(f16) config #wsgemm.config<> {
wsgemm.gemm @empty_config a(f16) b(f16) d(f16) config #wsgemm.config<> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Every knob, written out of order: prints in declaration order.
// CHECK-LABEL: wsgemm.gemm @full_config
// CHECK-SAME: config #wsgemm.config<tile = [128, 256, 64], cluster = [1, 1, 1], stages = 4, schedule = cooperative, persistent = true, raster = along_n, swizzle = 2, epi_tile = [128, 32], stages_c = 4, stages_d = 2, fragment_size = 16, reuse_smem_c = false, delay_tma_store = true, producer_regs = 40, consumer_regs = 232> {
wsgemm.gemm @full_config a(f16) b(f16) d(f16)
    config #wsgemm.config<consumer_regs = 232, producer_regs = 40,
        delay_tma_store = true, reuse_smem_c = false, fragment_size = 16,
        stages_d = 2, stages_c = 4, epi_tile = [128, 32], swizzle = 2,
        raster = along_n, persistent = true, schedule = cooperative,
        stages = 4, cluster = [1, 1, 1], tile = [128, 256, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Every enum value, each in a partial config.
// CHECK-LABEL: wsgemm.gemm @ws
// CHECK-SAME: config #wsgemm.config<schedule = warp_specialized, persistent = false, raster = along_m>
wsgemm.gemm @ws a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = warp_specialized, persistent = false, raster = along_m> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
// CHECK-LABEL: wsgemm.gemm @pingpong
// CHECK-SAME: config #wsgemm.config<tile = [64, 256, 64], schedule = pingpong, raster = heuristic, reuse_smem_c = true>
wsgemm.gemm @pingpong a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [64, 256, 64], schedule = pingpong, raster = heuristic, reuse_smem_c = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %s = arith.addf %acc, %c : f32
  epi.store %s : f32
  epi.yield
}

// Everything at once, with extra attributes (wsgemm.smem_bytes included).
// CHECK-LABEL: wsgemm.gemm @everything batched a(bf16, m_major) b(bf16, n_major) c(bf16) d(f32) shape [128, 128, 64, 2]
// CHECK-SAME: config #wsgemm.config<stages = 3>
// CHECK-SAME: attributes {note = "kept", wsgemm.smem_bytes = 1024 : i64} {
wsgemm.gemm @everything batched a(bf16, m_major) b(bf16, n_major) c(bf16) d(f32)
    shape [128, 128, 64, 2] config #wsgemm.config<stages = 3>
    attributes {note = "kept", wsgemm.smem_bytes = 1024 : i64} {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.aux_store %z, "pre" : f32 -> f16
  epi.reduce_to_scalar absmax %z, "amax" : f32
  epi.store %z : f32
  epi.yield
}

// A gemm nested in another symbol table, and the config attribute on its own.
// CHECK-LABEL: module @kernels
// CHECK-SAME: attributes {test.cfg = #wsgemm.config<tile = [64, 64, 64], stages_c = 1>}
// CHECK: wsgemm.gemm @nested a(f16) b(f16) d(f16)
module @kernels attributes {test.cfg = #wsgemm.config<tile = [64, 64, 64], stages_c = 1>} {
  wsgemm.gemm @nested a(f16) b(f16) d(f16) {
  ^bb0(%acc: f32):
    epi.store %acc : f32
    epi.yield
  }
}

// fp8 block-wise scaling: a boolean knob, printed when set.
// CHECK-LABEL: wsgemm.gemm @block_scaled a(f8E4M3FN) b(f8E5M2) d(bf16)
// CHECK-SAME: config #wsgemm.config<promotion_interval = 1, block_scaling = true>
wsgemm.gemm @block_scaled a(f8E4M3FN) b(f8E5M2) d(bf16) config #wsgemm.config<promotion_interval = 1, block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// cp.async operand loads (issue 28): the load kind per operand and its
// alignment in bytes, printed when set.
// CHECK-LABEL: wsgemm.gemm @cp_async a(f16, m_major) b(f16) d(f16)
// CHECK-SAME: config #wsgemm.config<tile = [128, 128, 64], load_a = cp_async, load_b = tma, align_a = 2>
wsgemm.gemm @cp_async a(f16, m_major) b(f16) d(f16) config #wsgemm.config<tile = [128, 128, 64], load_a = cp_async, load_b = tma, align_a = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A column-major D (M contiguous): the layout prints when not n_major.
// CHECK-LABEL: wsgemm.gemm @d_m_major a(bf16) b(bf16) d(bf16, m_major)
// CHECK-LABEL: wsgemm.gemm @d_n_major a(bf16) b(bf16) d(bf16) {
wsgemm.gemm @d_m_major a(bf16) b(bf16) d(bf16, m_major) config #wsgemm.config<store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @d_n_major a(bf16) b(bf16) d(bf16, n_major) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
