// RUN: ws-gemm-opt %s -split-input-file --wsgemm-plan -verify-diagnostics | FileCheck %s

// Split-K and stream-K under --wsgemm-plan (docs/stream-k.md): the planner
// makes them persistent, picks stream-K for a static shape with a partial
// last wave (132 SMs assumed), and refuses what the lowering does not do.

// CHECK-LABEL: wsgemm.gemm @split_ws
// CHECK-SAME: persistent = true
// CHECK-SAME: split_k = 4
wsgemm.gemm @split_ws a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = warp_specialized, split_k = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// 1024 x 1024 in 128 x 128 tiles: 64 tiles on 132 SMs, K = 16384 is 256
// k-tiles: stream-K.
// CHECK-LABEL: wsgemm.gemm @picked_stream_k
// CHECK-SAME: scheduler = stream_k
wsgemm.gemm @picked_stream_k a(f16) b(f16) d(f16) shape [1024, 1024, 16384] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// 4224 x 4224 in 128 x 128 tiles: 33 x 33 = 1089 tiles, 9 waves where
// 8.25 would do: under the 10% stream-K needs, data-parallel.
// CHECK-LABEL: wsgemm.gemm @small_gain
// CHECK-NOT: scheduler
// CHECK: epi.store
wsgemm.gemm @small_gain a(f16) b(f16) d(f16) shape [4224, 4224, 4096] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// 1056 x 2048 in 128 x 128 tiles: 9 x 16 = 144 = 132 + 12 tiles, but K = 64
// is a single k-tile: nothing to split, data-parallel (no scheduler knob).
// CHECK-LABEL: wsgemm.gemm @single_k_tile
// CHECK-NOT: scheduler
// CHECK: epi.store
wsgemm.gemm @single_k_tile a(f16) b(f16) d(f16) shape [1056, 2048, 64] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// 8448 x 256: 66 x 2 = 132 tiles, one full wave: data-parallel.
// CHECK-LABEL: wsgemm.gemm @full_wave
// CHECK-NOT: scheduler
// CHECK: epi.store
wsgemm.gemm @full_wave a(f16) b(f16) d(f16) shape [8448, 256, 4096] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A static shape under pingpong (tile M 64): stream-K is not lowered there,
// so the planner keeps data-parallel.
// CHECK-LABEL: wsgemm.gemm @pingpong_keeps_dp
// CHECK-NOT: scheduler
// CHECK: epi.store
wsgemm.gemm @pingpong_keeps_dp a(f16) b(f16) d(f16) shape [4224, 4224, 4096]
    config #wsgemm.config<tile = [64, 128, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{split_k = 2 needs persistent = true: a tile's K splits wait for each other, which only a grid of co-resident CTAs (one per SM) guarantees to finish}}
wsgemm.gemm @split_tiles_grid a(f16) b(f16) d(f16)
    config #wsgemm.config<persistent = false, split_k = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{scheduler = stream_k is not lowered for schedule = pingpong (its two warpgroups take alternate whole tiles in turns); use cooperative or warp_specialized}}
wsgemm.gemm @stream_k_pingpong a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = pingpong, scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Split-K in a cluster: the cluster's CTAs take the same (group, split)
// units, so the same K range.
// CHECK-LABEL: wsgemm.gemm @split_cluster
// CHECK-SAME: cluster = [1, 2, 1]
// CHECK-SAME: split_k = 2
wsgemm.gemm @split_cluster a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], cluster = [1, 2, 1], split_k = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{scheduler = stream_k is not lowered with cluster = [2, 1, 1] (the cluster's CTAs share operand tiles, so they must walk the same K ranges, and stream-K's ranges differ per CTA); use cluster = [1, 1, 1] or split_k}}
wsgemm.gemm @stream_k_cluster a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], cluster = [2, 1, 1], scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{scheduler = stream_k takes a kernel parameter named 'workspace': rename the epilogue operand 'workspace'}}
wsgemm.gemm @name_clash a(f16) b(f16) d(f16)
    config #wsgemm.config<scheduler = stream_k> {
^bb0(%acc: f32):
  %w = epi.load_vec_m "workspace" : f16 -> f32
  %z = arith.addf %acc, %w : f32
  epi.store %z : f32
  epi.yield
}
