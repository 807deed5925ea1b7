// RUN: ws-gemm-opt %s --split-input-file --wsgemm-plan --verify-diagnostics | FileCheck %s

// The epilogue's registers beside the accumulator (RegisterBudget.cpp):
// per element of a subtile, in quarter registers, 5 per aux matrix or
// vector read, 8 per aux store, 4 per long-latency op, 2 per reduction,
// 1 per scalar pointer (C is free);
// plus the first subtile's reduction partials. The default epi_tile N is
// narrowed until the estimate fits the consumer's budget; a config the
// user fixed that does not fit is refused, naming the budget.

// Five aux stores: 5 x 8 = 40 quarters = 10 per element. Cooperative
// 128x128: accumulator 64x128 / 128 = 64, + 40. The default epi_tile
// [128, 32] has 16 elements per thread: 64 + 40 + 160 = 264 > 232;
// [128, 16] has 8: 64 + 40 + 80 = 184 fits, and is chosen
// (fragment_size 128 * 16 / 256 = 8).
// CHECK-LABEL: wsgemm.gemm @narrowed
// CHECK-SAME: epi_tile = [128, 16]
// CHECK-SAME: fragment_size = 8
wsgemm.gemm @narrowed a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.aux_store %acc, "x0" : f32 -> f16
  epi.aux_store %acc, "x1" : f32 -> f16
  epi.aux_store %acc, "x2" : f32 -> f16
  epi.aux_store %acc, "x3" : f32 -> f16
  epi.aux_store %acc, "x4" : f32 -> f16
  epi.store %acc : f32
  epi.yield
}

// -----

// D = acc + C costs nothing per element: the CUTLASS default stays, at the
// largest accumulator that fits (192 + 40 = 232).
// CHECK-LABEL: wsgemm.gemm @plain
// CHECK-SAME: epi_tile = [128, 32]
wsgemm.gemm @plain a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<tile = [256, 192, 64]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// A fixed epi_tile that does not fit (random EVT seed 31 of
// evt-spills.test, which spilled 188 bytes): silu and divf, 2 x 4 quarters
// = 2 per element, 128x128 / 256 = 64 elements, accumulator 128:
// 128 + 40 + 128 = 296 > 232.
// expected-error @+1 {{the epilogue would spill registers: each consumer thread needs about 296 (accumulator 128 + 40 + reduction partials 0 + 64 elements per 128x128 subtile x 2.0 for the EVT's sources and outputs), more than its budget of 232 (consumer_regs): use a smaller epi_tile N or tile N, or a simpler epilogue}}
wsgemm.gemm @fixed_epi a(f16) b(f16) c(f16) d(f16) config #wsgemm.config<tile = [256, 128, 64], epi_tile = [128, 128]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %s = epi.silu %acc : f32
  %q = arith.divf %s, %c : f32
  epi.store %q : f32
  epi.yield
}

// -----

// Column partials: cooperative 128x256 with aux stores and a column sum
// (random EVT seed 38 spilled even at epi N 16). Accumulator
// 64 x 256 / 128 = 128; narrowed to [128, 16]: partials 16 / 4 = 4; with
// three aux stores 8 elements x (24 + 2) / 4 = 6.5 -> 52:
// 128 + 40 + 4 + 52 = 224 fits; a fourth (8.5 per element, 68) does not:
// 240 > 232.
// expected-error @+1 {{the epilogue would spill registers: each consumer thread needs about 240 (accumulator 128 + 40 + reduction partials 4 + 8 elements per 128x16 subtile x 8.50 for the EVT's sources and outputs), more than its budget of 232 (consumer_regs): use a smaller epi_tile N or tile N, or a simpler epilogue}}
wsgemm.gemm @partials a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 256, 64]> {
^bb0(%acc: f32):
  epi.aux_store %acc, "x0" : f32 -> f16
  epi.aux_store %acc, "x1" : f32 -> f16
  epi.aux_store %acc, "x2" : f32 -> f16
  epi.aux_store %acc, "x3" : f32 -> f16
  epi.reduce_to_vec_n sum %acc, "colsum" : f32
  epi.store %acc : f32
  epi.yield
}

// -----

// The epilogue-load warp (producer_regs 40): 4 subtiles (cooperative
// 128x64, epi [128, 16]) and a C ring of 4 stages put every subtile in the
// same stage in every tile, and LLVM keeps each stage's shared addresses
// (2 boxes per source, 2 barriers; 64 bits each) live across the
// persistent loop: C alone is 2 x 4 x (2 + 2) = 32 <= 40 - 8, so the
// CUTLASS default of 4 stays.
// CHECK-LABEL: wsgemm.gemm @c_ring_fits
// CHECK-SAME: epi_tile = [128, 16]
// CHECK-SAME: stages_c = 4
wsgemm.gemm @c_ring_fits a(f16) b(f16) c(f32) d(f16) config #wsgemm.config<tile = [128, 64, 64], schedule = cooperative, epi_tile = [128, 16]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// -----

// C and an aux matrix: 2 x 4 x (4 + 2) = 48 > 32 (ptxas spilled 12 bytes:
// evt-spills.test's seed 1), and 2 stages would be 24; 3 stages do not
// divide the 4 subtiles, so nothing is hoisted: 3.
// CHECK-LABEL: wsgemm.gemm @c_ring_narrowed
// CHECK-SAME: stages_c = 3
wsgemm.gemm @c_ring_narrowed a(f16) b(f16) c(f32) d(f16) config #wsgemm.config<tile = [128, 64, 64], schedule = cooperative, epi_tile = [128, 16]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %x = epi.aux_load "x" : f32 -> f32
  %s = arith.addf %acc, %c : f32
  %r = arith.addf %s, %x : f32
  epi.store %r : f32
  epi.yield
}

// -----

// Two subtiles (epi [128, 32]) with C and two aux matrices: 2 stages would
// be 2 x 2 x (6 + 2) = 32 and fit; kept.
// CHECK-LABEL: wsgemm.gemm @c_ring_two_subtiles
// CHECK-SAME: epi_tile = [128, 32]
// CHECK-SAME: stages_c = 2
wsgemm.gemm @c_ring_two_subtiles a(f16) b(f16) c(f32) d(f16) config #wsgemm.config<tile = [128, 64, 64], schedule = cooperative, epi_tile = [128, 32]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %x = epi.aux_load "x" : f16 -> f32
  %y = epi.aux_load "y" : f16 -> f32
  %s = arith.addf %acc, %c : f32
  %t = arith.addf %s, %x : f32
  %r = arith.addf %t, %y : f32
  epi.store %r : f32
  epi.yield
}

// -----

// ctas_per_sm = 2 (a mixed-input decode tile): the consumers get what the
// producer's 40 leave of the CTA's 384 x 80 (96 each), and the stages fit
// its 115712 bytes of shared memory (8 of 12800 bytes beside the rest).
// CHECK-LABEL: wsgemm.gemm @two_ctas
// CHECK-SAME: stages = 8
// CHECK-SAME: producer_regs = 40, consumer_regs = 96
// CHECK-SAME: ctas_per_sm = 2
// CHECK-SAME: wsgemm.smem_bytes = 107648
wsgemm.gemm @two_ctas a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], split_k = 4, store = direct,
                          ctas_per_sm = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
