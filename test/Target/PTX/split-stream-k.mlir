// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=SPLIT --input-file=%t/split3.ptx
// RUN: FileCheck %s --check-prefix=STREAM --input-file=%t/stream_ws.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/split3.json
// RUN: FileCheck %s --check-prefix=SMANIFEST --input-file=%t/stream_ws.json
// RUN: %ptxas -arch=sm_90a -v %t/split3.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/stream_ws.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=GATHER --input-file=%t/split4_gather.ptx
// RUN: FileCheck %s --check-prefix=GMANIFEST --input-file=%t/split4_gather.json
// RUN: %ptxas -arch=sm_90a -v %t/split4_gather.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// Split-K (docs/stream-k.md): the kernel takes the workspace after the
// epilogue's parameters (a global pointer, then M, N, K, L). 128x256 with
// 128 accumulators per thread chains (KernelLayout::gatherSplits): the
// flag sits after the tile's partial (131072 bytes into its slot). A unit
// with earlier splits spins on its flag with ld.acquire.gpu, meets its
// warpgroup's named barrier, and adds the partial (float4s, 2048 bytes
// apart: 128 threads x 16 bytes); a unit that is not the last stores the
// sum, meets the barrier again and publishes flag = split + 1 with
// st.release.gpu; the last one resets the flag with a plain store.
// SPLIT: .entry split3(
// SPLIT: .param .u64 .ptr .global .align 1 split3_param_3,
// SPLIT-NEXT: .param .u32 split3_param_4,
// SPLIT: ld.acquire.gpu.global.b32 [[SEEN:%r[0-9]+]], {{\[}}[[FLAG:%rd[0-9]+\+131072]]];
// SPLIT-NEXT: setp.ne.b32 [[NE:%p[0-9]+]], [[SEEN]], [[SPLITIDX:%r[0-9]+]];
// SPLIT-NEXT: @[[NE]] bra {{\$L__BB[0-9_]+}};
// SPLIT: bar.sync [[BAR:%r[0-9]+]], 128;
// SPLIT-NEXT: ld.global.v4.b32 {{.*}}, {{\[}}[[PART:%rd[0-9]+]]];
// SPLIT: ld.global.v4.b32 {{.*}}, {{\[}}[[PART]]+2048];
// SPLIT: st.global.v4.b32 {{\[}}[[PART]]], {{.*}};
// SPLIT: bar.sync [[BAR]], 128;
// SPLIT: add.s32 [[NEXT:%r[0-9]+]], [[SPLITIDX]], 1;
// SPLIT-NEXT: st.release.gpu.global.b32 {{\[}}[[FLAG]]], [[NEXT]];
// The last split (index 2) resets the flag, then runs the epilogue.
// SPLIT: setp.ne.b32 {{%p[0-9]+}}, [[SPLITIDX]], 2;
// SPLIT: st.global.b32 {{\[}}[[FLAG]]], 0;
// SPLIT: stmatrix.sync.aligned
// SPLIT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group

// Stream-K under warp_specialized: the workspace and the stream-K tile
// count (an i32 the runtime passes), the same flag protocol.
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
// MANIFEST-NEXT: "flag_bytes": 16,
// MANIFEST-NEXT: "tile_bytes": 131072,
// MANIFEST-NEXT: "tiles": "all"

// SMANIFEST: "kind": "stream_k_tiles",
// SMANIFEST-NEXT: "name": "stream_k_tiles"
// SMANIFEST: "tile_scheduler": {
// SMANIFEST-NEXT: "kind": "stream_k",
// SMANIFEST-NEXT: "stream_k_tiles": "runtime"
// SMANIFEST: "workspace": {
// SMANIFEST-NEXT: "flag_bytes": 16,
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

// Split-K with few accumulators (128x32 split 4: 16 per thread) gathers
// instead (KernelLayout::gatherSplits): the last unit (split 3) spins until
// the three earlier units have arrived, meets the barrier, adds their
// partials into its accumulators (a loop LLVM unrolls at this size; each
// partial 128 x 32 x 4 = 16384 bytes on) and resets the flag; an earlier unit stores its own
// partial, meets the barrier and publishes it with red.release.gpu (no
// wait). Three partial slots per tile.
// GATHER-LABEL: .entry split4_gather(
// GATHER: ld.acquire.gpu.global.b32 [[SEEN:%r[0-9]+]], {{\[}}[[FLAG:%rd[0-9]+]]];
// GATHER-NEXT: setp.ne.b32 [[NE:%p[0-9]+]], [[SEEN]], 3;
// GATHER-NEXT: @[[NE]] bra {{\$L__BB[0-9_]+}};
// GATHER: bar.sync [[BAR:%r[0-9]+]], 128;
// GATHER: ld.global.v4.b32 {{.*}}, {{\[}}[[P:%rd[0-9]+]]];
// GATHER: add.rn.f32
// GATHER: ld.global.v4.b32 {{.*}}, {{\[}}[[P]]+16384];
// GATHER: ld.global.v4.b32 {{.*}}, {{\[}}[[P]]+32768];
// GATHER: st.global.b32 {{\[}}[[FLAG]]], 0;
// GATHER: st.global.v4.b32
// GATHER: bar.sync [[BAR]], 128;
// GATHER: red.release.gpu.global.add.u32 {{\[}}[[FLAG]]], 1;
// GATHER-NOT: st.release.gpu
// GMANIFEST: "workspace": {
// GMANIFEST-NEXT: "flag_bytes": 16,
// GMANIFEST-NEXT: "tile_bytes": 49152,
wsgemm.gemm @split4_gather a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 32, 64], schedule = cooperative,
                          split_k = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
