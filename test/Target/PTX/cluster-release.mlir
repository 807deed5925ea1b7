// A consumer of a 2x1 cluster frees a stage in both CTAs (the peer's
// multicast writes into it): mapa to each CTA's empty barrier, then a
// remote arrival with CUTLASS's semantics, release at CTA scope (the
// default of mbarrier.arrive.shared::cluster). A .release.cluster arrival
// is a GPU-wide fence per call (SASS MEMBAR.ALL.GPU) and made every 2x1
// kernel run at ~0.47x its 1x1 twin on an H100 (docs/perf-notes.md).
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --input-file=%t/cl21.ptx

// CHECK-LABEL: .entry cl21(
// CHECK: fence.mbarrier_init.release.cluster;
// Two consumer warpgroups' release sites, each to rank 1 and rank 0.
// CHECK-COUNT-2: mapa.shared::cluster.u64
// CHECK-COUNT-2: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-COUNT-2: mapa.shared::cluster.u64
// CHECK-COUNT-2: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-NOT: mbarrier.arrive.release.cluster

wsgemm.gemm @cl21 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [2, 1, 1], swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
