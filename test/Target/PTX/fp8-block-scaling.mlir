// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=COOP --input-file=%t/fp8_block_coop_bias.ptx
// RUN: FileCheck %s --check-prefix=NARROW --input-file=%t/fp8_block_pp_n64.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fp8_block_coop_bias.json
// RUN: %ptxas -arch=sm_90a -v %t/fp8_block_coop_bias.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/fp8_block_pp_n64.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// fp8 block-wise scaling (DeepSeek-V3's recipe, docs/fp8.md): every k-tile
// of 128 is promoted as total = fma(partial, scale_a * scale_b, total).
// Each consumer thread loads its rows' A scales and its column block's B
// scale with read-only global loads (ld.global.nc.b32), one k-tile ahead.

// Cooperative 128x128x128, e4m3 x e4m3 -> bf16 with a bias along M: each
// warpgroup holds one m64 block, so a thread loads 2 A scales (rows r and
// r + 8) and 1 B scale per k-tile: 3 before the k loop and 3 at the top
// of its body, before the wait for the stage (for the next k-tile). A
// promotion (after the drain, wait_group 0) multiplies the scales (2
// products, one per row) and adds the 64 partial elements into the totals
// with fma.rn.f32; then the partial restarts from zero.
// COOP: .entry fp8_block_coop_bias(
// COOP: .param .u64 {{.*}}fp8_block_coop_bias_param_3,
// COOP-NEXT: .param .u64 {{.*}}fp8_block_coop_bias_param_4,
// COOP-COUNT-3: ld.global.nc.b32
// COOP-COUNT-3: ld.global.nc.b32
// COOP: mbarrier.try_wait.parity
// COOP: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// COOP: wgmma.wait_group.sync.aligned 0;
// COOP-NEXT: mul.rn.f32
// COOP-NEXT: mul.rn.f32
// COOP-COUNT-64: fma.rn.f32

// The manifest: the scale tensors follow the tensor maps, as pointers with
// their extents (KB = ceil(K/128) blocks, NB = ceil(N/128)) and the operand
// they scale.
// MANIFEST: "block_scale": "A",
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "extent": [
// MANIFEST-NEXT: "M",
// MANIFEST-NEXT: "KB"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "kind": "pointer",
// MANIFEST-NEXT: "name": "block_scale_a"
// MANIFEST: "block_scale": "B",
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "extent": [
// MANIFEST-NEXT: "KB",
// MANIFEST-NEXT: "NB"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "kind": "pointer",
// MANIFEST-NEXT: "name": "block_scale_b"

// Pingpong 64x64x128, e4m3 x e5m2 -> f32: tile N 64 lies within one
// 128-column scale block of B (column block n0 / 128); 32 fma per promotion.
// NARROW: .entry fp8_block_pp_n64(
// NARROW: ld.global.nc.b32
// NARROW: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2
// NARROW-COUNT-32: fma.rn.f32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

wsgemm.gemm @fp8_block_coop_bias a(f8E4M3FN) b(f8E4M3FN) d(bf16) config #wsgemm.config<block_scaling = true> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %d = arith.addf %acc, %bias : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @fp8_block_pp_n64 a(f8E4M3FN) b(f8E5M2) d(f32) config #wsgemm.config<tile = [64, 64, 128], schedule = pingpong, block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
