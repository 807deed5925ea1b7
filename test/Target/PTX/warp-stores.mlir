// warp_stores (the planner's default for an 8-bit D): each warp's lane 0
// waits for its own earlier store to have read the staging slice, the warp
// writes it, fences it for the async proxy and issues its own TMA store of
// 16 rows; no warpgroup barrier (bar.sync) in the epilogue. Without it,
// one thread per warpgroup stores 64 rows between two bar.sync.
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=WARP --input-file=%t/f8_d8.ptx
// RUN: FileCheck %s --check-prefix=WG --input-file=%t/f16_wg.ptx
// RUN: FileCheck %s --check-prefix=BOX16 --input-file=%t/f8_d8.json
// RUN: FileCheck %s --check-prefix=BOX64 --input-file=%t/f16_wg.json

// WARP-LABEL: .entry f8_d8(
// WARP: setmaxnreg.inc
// WARP-NOT: bar.sync
// WARP: cp.async.bulk.wait_group.read
// WARP-NEXT: $L__BB
// WARP-NOT: bar.sync
// WARP: bar.warp.sync -1;
// WARP-NOT: bar.sync
// WARP: fence.proxy.async.shared::cta;
// WARP-NEXT: bar.warp.sync -1;
// WARP-NOT: bar.sync
// WARP: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// WARP-NOT: bar.sync
// WARP: ret;

// WG-LABEL: .entry f16_wg(
// WG-NOT: bar.warp.sync
// WG: cp.async.bulk.wait_group.read
// WG: bar.sync {{%r[0-9]+}}, 128;
// WG: fence.proxy.async.shared::cta;
// WG-NEXT: bar.sync {{%r[0-9]+}}, 128;
// WG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// WG-NOT: bar.warp.sync

// The D store box: 64 columns x 16 rows (one warp's), 32 x 64 without.
// BOX16: "name": "B"
// BOX16: "box": [
// BOX16-NEXT: 64,
// BOX16-NEXT: 16
// BOX16-NEXT: ],
// BOX16: "name": "D"
// BOX64: "name": "B"
// BOX64: "box": [
// BOX64-NEXT: 32,
// BOX64-NEXT: 64
// BOX64-NEXT: ],
// BOX64: "name": "D"

wsgemm.gemm @f8_d8 a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative> {
^bb0(%acc: f32):
  %sd = epi.scalar ptr ["scale_d"] : f32
  %d = arith.mulf %acc, %sd : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f16_wg a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
