// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_80 | FileCheck %s

// Who copies the sm_8x one-warpgroup kernel's output out (PlanningChip.cpp,
// finishChipDefaults). The load warps (copy_out = load, a store ring of
// the tile's 8 subtiles of 64 x 32) for a static K up to 1024, where that
// ring costs no mainloop stage: sm_80 keeps its 4 stages (sm_86 its 2:
// wsgemm-plan-sm80.mlir).
// CHECK-LABEL: @short_k
// CHECK-SAME: stages = 4
// CHECK-SAME: stages_d = 8
// CHECK-SAME: copy_out = load>
// CHECK-SAME: wsgemm.smem_bytes = 165056
wsgemm.gemm @short_k a(f16) b(f16) d(f16) shape [8192, 8192, 1024] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A longer static K (the load warps' copy-out ran 0.94-0.97x at 8192^3)
// and a K known only at launch: the consumers copy (copy_out = mma, two
// subtile buffers).
// CHECK-LABEL: @long_k
// CHECK-SAME: stages_d = 2
// CHECK-SAME: copy_out = mma>
// CHECK-LABEL: @dynamic_k
// CHECK-SAME: stages_d = 2
// CHECK-SAME: copy_out = mma>
wsgemm.gemm @long_k a(f16) b(f16) d(f16) shape [8192, 8192, 4096] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @dynamic_k a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// An f32 D's whole-tile ring (64 KiB) would leave 3 stages where the
// consumers' two buffers leave 4: the consumers copy it out. Written, the
// load warps do, with 3 stages. copy_out = mma written keeps two buffers,
// and so does a written stage count (the planner does not trade it for
// the ring).
// CHECK-LABEL: @f32_d
// CHECK-SAME: stages = 4
// CHECK-SAME: stages_d = 2
// CHECK-SAME: copy_out = mma>
// CHECK-LABEL: @f32_d_load
// CHECK-SAME: stages = 3
// CHECK-SAME: stages_d = 8
// CHECK-SAME: copy_out = load>
// CHECK-LABEL: @mma_written
// CHECK-SAME: stages_d = 2
// CHECK-SAME: copy_out = mma>
// CHECK-LABEL: @stages_written
// CHECK-SAME: stages = 2
// CHECK-SAME: stages_d = 2
// CHECK-SAME: copy_out = mma>
wsgemm.gemm @f32_d a(f16) b(f16) d(f32) shape [8192, 8192, 1024] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @f32_d_load a(f16) b(f16) d(f32)
    config #wsgemm.config<copy_out = load> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @mma_written a(f16) b(f16) d(f16) shape [8192, 8192, 1024]
    config #wsgemm.config<copy_out = mma> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @stages_written a(f16) b(f16) d(f16) shape [8192, 8192, 1024]
    config #wsgemm.config<stages = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Split tiles (split-K, stream-K): the cooperative schedule without a
// written one (two warpgroups of 64 accumulators a thread beside the
// fixup's pointers), and the consumers' copy-out even for a short static
// K (the last unit of a tile alone stores it).
// CHECK-LABEL: @split_short_k
// CHECK-SAME: schedule = cooperative
// CHECK-SAME: split_k = 2
// CHECK-SAME: copy_out = mma>
// CHECK-LABEL: @stream_k
// CHECK-SAME: schedule = cooperative
// CHECK-SAME: scheduler = stream_k
// CHECK-SAME: copy_out = mma>
wsgemm.gemm @split_short_k a(f16) b(f16) d(f16) shape [1024, 1024, 1024]
    config #wsgemm.config<split_k = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @stream_k a(f16) b(f16) d(f16)
    config #wsgemm.config<scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
