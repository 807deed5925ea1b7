// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=COOP --input-file=%t/pdl_coop.ptx
// RUN: FileCheck %s --check-prefix=WSC --input-file=%t/pdl_ws_c.ptx
// RUN: FileCheck %s --check-prefix=CL --input-file=%t/pdl_cl21.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/pdl_coop.json

// Programmatic dependent launch (docs/manifest.md): an sm_90 kernel may be
// launched while the stream's previous kernel still runs. Each role's
// threads wait for the previous grid (griddepcontrol.wait) before their
// first global access, after the barrier inits and, in a cluster, after
// the cluster's first barrier; then they let the next kernel launch. No
// global access comes before the first wait; every role waits once.
// The tensor maps are kernel parameters, not global memory: the CTA's
// thread 0 prefetches each (A, B, D) before the waits and, in a cluster,
// before the cluster's first barrier.

// COOP-LABEL: .entry pdl_coop(
// COOP: mbarrier.init.shared.b64
// COOP-NOT: griddepcontrol.wait
// COOP-COUNT-3: prefetch.param.tensormap
// COOP-NOT: prefetch
// COOP-NOT: cp.async.bulk.tensor
// COOP-NOT: ld.global
// COOP-NOT: st.global
// COOP: griddepcontrol.wait;
// COOP-NEXT: griddepcontrol.launch_dependents;
// COOP: cp.async.bulk.tensor.2d.shared::cluster.global
// COOP: griddepcontrol.wait;
// COOP-NEXT: griddepcontrol.launch_dependents;
// COOP-NOT: griddepcontrol
// COOP: wgmma.mma_async
// COOP-NOT: griddepcontrol
// COOP: ret;

// The epilogue-load warp waits too (three roles).
// WSC-LABEL: .entry pdl_ws_c(
// WSC-COUNT-4: prefetch.param.tensormap
// WSC-NOT: prefetch
// WSC-NOT: cp.async.bulk.tensor
// WSC: griddepcontrol.wait;
// WSC-COUNT-2: griddepcontrol.wait;
// WSC-NOT: griddepcontrol.wait;
// WSC: ret;

// CL-LABEL: .entry pdl_cl21(
// CL-COUNT-3: prefetch.param.tensormap
// CL-NOT: prefetch
// CL: barrier.cluster.arrive
// CL-NEXT: barrier.cluster.wait
// CL-NEXT: griddepcontrol.wait;
// CL-NEXT: griddepcontrol.launch_dependents;

// MANIFEST: "pdl": true,

// sm_8x has no griddepcontrol (test/Target/PTX/sm80.mlir).

wsgemm.gemm @pdl_coop a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @pdl_ws_c a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %y = arith.mulf %beta, %c : f32
  %d = arith.addf %acc, %y : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @pdl_cl21 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
