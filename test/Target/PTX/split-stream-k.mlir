// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=SPLIT --input-file=%t/split3.ptx
// RUN: FileCheck %s --check-prefix=STREAM --input-file=%t/stream_ws.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/split3.json
// RUN: FileCheck %s --check-prefix=SMANIFEST --input-file=%t/stream_ws.json
// RUN: %ptxas -arch=sm_90a -v %t/split3.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/stream_ws.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// Split-K (docs/stream-k.md): the kernel takes the workspace after the
// epilogue's parameters (a global pointer, then M, N, K, L). The units of
// a tile reduce in parallel: a unit before the last stores its partial in
// its own slot (float4s, 2048 bytes apart: 128 threads x 16 bytes), meets
// its warpgroup's named barrier and counts itself in with a release fence
// and an atom.add; the last unit (index 2 of 3) spins with ld.acquire.gpu
// until the count is 2, meets the barrier, adds the slots in a loop over
// them, resets the flag with a plain store and runs the epilogue. No unit
// but the last ever waits.
// SPLIT: .entry split3(
// SPLIT: .param .u64 .ptr .global .align 1 split3_param_3,
// SPLIT-NEXT: .param .u32 split3_param_4,
// SPLIT: st.global.v4.b32 {{\[}}[[PART:%rd[0-9]+]]], {{.*}};
// SPLIT-NEXT: st.global.v4.b32 {{\[}}[[PART]]+2048], {{.*}};
// SPLIT: bar.sync [[BAR:%r[0-9]+]], 128;
// SPLIT: ld.acquire.gpu.global.b32 [[SEEN:%r[0-9]+]], {{\[}}[[FLAG:%rd[0-9]+]]];
// SPLIT-NEXT: setp.ne.b32 [[NE:%p[0-9]+]], [[SEEN]], 2;
// SPLIT-NEXT: @[[NE]] bra {{\$L__BB[0-9_]+}};
// SPLIT: bar.sync [[BAR]], 128;
// SPLIT: [[LOOP:\$L__BB[0-9_]+]]:
// SPLIT: ld.global.v4.b32 {{.*}}, {{\[}}[[SLOT:%rd[0-9]+]]];
// SPLIT-NEXT: add.rn.f32
// SPLIT: ld.global.v4.b32 {{.*}}, {{\[}}[[SLOT]]+2048];
// SPLIT: @{{%p[0-9]+}} bra [[LOOP]];
// SPLIT: st.global.b32 {{\[}}[[FLAG]]], 0;
// SPLIT: stmatrix.sync.aligned
// SPLIT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// SPLIT: fence.acq_rel.gpu;
// SPLIT-NEXT: atom.global.add.u32 {{%r[0-9]+}}, {{\[}}[[FLAG]]], 1;
// SPLIT-NOT: st.release.gpu

// Stream-K under warp_specialized: the workspace and the stream-K tile
// count (an i32 the runtime passes); its units chain through one partial:
// each waits for the flag to reach its index and publishes index + 1.
// STREAM: .entry stream_ws(
// STREAM: .param .u64 .ptr .global .align 1 stream_ws_param_3,
// STREAM-NEXT: .param .u32 stream_ws_param_4,
// STREAM: ld.acquire.gpu.global.b32
// STREAM: st.release.gpu.global.b32

// MANIFEST: "kind": "workspace",
// MANIFEST-NEXT: "name": "workspace"
// MANIFEST: "tile_scheduler": {
// MANIFEST-NEXT: "kind": "split_k",
// MANIFEST-NEXT: "split_k": 3
// MANIFEST: "workspace": {
// MANIFEST-NEXT: "flag_bytes": 8,
// Two slots of 128 x 256 f32 per tile (split_k - 1).
// MANIFEST-NEXT: "tile_bytes": 262144,
// MANIFEST-NEXT: "tiles": "all"

// SMANIFEST: "kind": "stream_k_tiles",
// SMANIFEST-NEXT: "name": "stream_k_tiles"
// SMANIFEST: "tile_scheduler": {
// SMANIFEST-NEXT: "kind": "stream_k",
// SMANIFEST-NEXT: "stream_k_tiles": "runtime"
// SMANIFEST: "workspace": {
// SMANIFEST-NEXT: "flag_bytes": 4,
// SMANIFEST-NEXT: "tile_bytes": 65536,
// SMANIFEST-NEXT: "tiles": "stream_k"

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers

wsgemm.gemm @split3 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          split_k = 3> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @stream_ws a(bf16) b(bf16, n_major) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
