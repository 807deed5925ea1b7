// A consumer of a cluster frees a stage in every CTA whose multicast fills
// it: mapa to that CTA's empty barrier, then a remote arrival with
// CUTLASS's semantics, release at CTA scope (the default of
// mbarrier.arrive.shared::cluster). A .release.cluster arrival is a
// GPU-wide fence per call (SASS MEMBAR.ALL.GPU) and made every 2x1 kernel
// run at ~0.47x its 1x1 twin on an H100 (docs/perf-notes.md). The
// warpgroup's first thread issues every arrival of a release, at two sites:
// the k-loop's and the tile's last k-tile's.
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --input-file=%t/cl21.ptx
// RUN: FileCheck %s --check-prefix=CL22 --input-file=%t/cl22.ptx

// CHECK-LABEL: .entry cl21(
// CHECK: .reqnctapercluster 2, 1, 1
// Each stage's empty barrier counts 2 warpgroups x 2 CTAs.
// CHECK: mov.b32 [[EMPTY:%r[0-9]+]], 4;
// CHECK-NEXT: mbarrier.init.shared.b64 [%rd{{[0-9]+}}+{{[0-9]+}}], [[EMPTY]];
// CHECK: fence.mbarrier_init.release.cluster;
// B is shared: multicast with a mask.
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// Two release sites, each to rank 0 and rank 1.
// CHECK-COUNT-2: mapa.shared::cluster.u64
// CHECK-COUNT-2: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-COUNT-2: mapa.shared::cluster.u64
// CHECK-COUNT-2: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-NOT: mapa.shared::cluster.u64
// CHECK-NOT: mbarrier.arrive.release.cluster

// A 2x2 cluster shares A along its rows and B along its columns: two
// multicast loads, and 2 warpgroups x 3 CTAs (its own, its row's other, its
// column's other) free each stage.
// CL22-LABEL: .entry cl22(
// CL22: .reqnctapercluster 4, 1, 1
// CL22: mov.b32 [[EMPTY:%r[0-9]+]], 6;
// CL22-NEXT: mbarrier.init.shared.b64 [%rd{{[0-9]+}}+{{[0-9]+}}], [[EMPTY]];
// CL22: fence.mbarrier_init.release.cluster;
// CL22-COUNT-2: bytes.multicast::cluster
// Each release site tries ranks 0-3, each under "same ctaM or same ctaN".
// CL22-COUNT-8: mapa.shared::cluster.u64
// CL22-NOT: mapa.shared::cluster.u64
// CL22-NOT: mbarrier.arrive.release.cluster

wsgemm.gemm @cl21 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [2, 1, 1], swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @cl22 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [2, 2, 1], swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
