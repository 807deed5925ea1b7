// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/w4_bf16.ptx
// RUN: FileCheck %s --check-prefix=F16 --input-file=%t/w4_f16_b8.ptx
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/w4_bf16.json
// RUN: FileCheck %s --check-prefix=K128 --input-file=%t/w4_k128.ptx
// RUN: FileCheck %s --check-prefix=K128JSON --input-file=%t/w4_k128.json
// RUN: FileCheck %s --check-prefix=K256 --input-file=%t/w4_k256.ptx
// RUN: FileCheck %s --check-prefix=K256JSON --input-file=%t/w4_k256.json
// RUN: FileCheck %s --check-prefix=K256W --input-file=%t/w4_g64_k256.ptx
// RUN: FileCheck %s --check-prefix=K256B --input-file=%t/w4_k256_batched.ptx
// RUN: FileCheck %s --check-prefix=K128ONLY --input-file=%t/w4_k128.ptx --implicit-check-not=mul.rn.bf16x2
// RUN: FileCheck %s --check-prefix=G64 --input-file=%t/w4_g64_f16.ptx --implicit-check-not=mul.rn.f16x2
// RUN: FileCheck %s --check-prefix=G64W --input-file=%t/w4_g64_k128.ptx
// RUN: FileCheck %s --check-prefix=G64WJSON --input-file=%t/w4_g64_k128.json

// Mixed input (docs/mixed-input.md): the pre-packed i4 A comes by one TMA
// box per stage, each consumer thread reads its 16 bytes with
// ld.shared.v4, dequantizes with the bf16 magic number (0x43004300:
// 128 + q), sub.rn / mul.rn .bf16x2, and multiplies with wgmma's
// register-A form; no 16-bit weight is written to shared memory.

// The load warp: lane 0 announces the stage's bytes and issues the A and
// B boxes; the lanes copy the k-tile's scales and zero points into the
// stage with 16-byte cp.async (zero-filled past M) and arrive as they
// land.
// PTX-LABEL: .entry w4_bf16(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTX: cp.async.mbarrier.arrive.noinc.shared.b64
// PTX: mbarrier.expect_tx.relaxed.cta.shared.b64
// PTX: cp.async.bulk.tensor.4d.shared::cluster.global

// The consumers, per k-tile: the wait for the stage, its scales and zero
// points (ld.shared.b16: rows r and r + 8, then the zero points tile M =
// 128 values on), its packed A (ld.shared.v4), the zero points plus the
// magic number; then one wgmma group per k16 step, whose registers are
// rewritten after a wait_group 3 (the previous k-tile's same step
// retired; a nibble pair masked and under the magic number by one lop3:
// ptxas makes the two immediates of and + or two LOP3s); the stage goes
// back by a predicated arrival (no branch while groups are in flight, or
// ptxas serializes the wgmma).
// PTX: mbarrier.try_wait.parity
// PTX: ld.shared.b16 %r{{[0-9]+}}, [%rd[[S:[0-9]+]]+[[OFF:[0-9]+]]];
// PTX-NEXT: ld.shared.b16 %r{{[0-9]+}}, [%rd[[S]]+{{[0-9]+}}];
// PTX-NEXT: ld.shared.b16
// PTX-NEXT: ld.shared.b16
// PTX: ld.shared.v4.b32
// PTX: add.rn.bf16x2
// PTX: wgmma.wait_group.sync.aligned 3;
// PTX: lop3.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0x000f000f, 1124090624, 0xea;
// PTX-NOT: or.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 1124090624;
// PTX: sub.rn.bf16x2
// PTX: mul.rn.bf16x2
// PTX: wgmma.fence.sync.aligned;
// PTX: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1, 0;
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 3;
// PTX: @p mbarrier.arrive.shared::cta.b64 _,
// PTX-NOT: st.shared.v4.b32
// PTX-NOT: st.shared.b16
wsgemm.gemm @w4_bf16 batched a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 32, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// Symmetric int4 with f16: the f16 magic number 0x64006400 (1024 + q),
// the constant zero 1024 + 8 (0x64086408 = 1678271496), no zero-point
// loads, f16x2 arithmetic. f16 holds a nibble in bits 4-7 too, so a word
// takes one shift (by 8): registers 0 and 2 are the low nibbles minus
// 1024 + 8, 1 and 3 the high ones (1024 + 16 q) times 1/16 (0x2C002C00 =
// 738208768) plus -72 (0xD480D480) in one fma.
// F16-LABEL: .entry w4_f16_b8(
// F16: 1678271496
// F16: shr.u32 %r{{[0-9]+}}, %r[[Q:[0-9]+]], 8;
// F16-NOT: shr.u32 %r{{[0-9]+}}, %r[[Q]], {{4|12}};
// F16: lop3.b32 %r{{[0-9]+}}, %r[[Q]], 0x000f000f, 1677747200, 0xea;
// F16: sub.rn.f16x2
// F16: mul.rn.f16x2
// F16: lop3.b32 %r{{[0-9]+}}, %r[[Q]], 0x00f000f0, 1677747200, 0xea;
// F16: fma.rn.f16x2
// F16: mul.rn.f16x2
// F16: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// F16-NOT: add.rn.f16x2
wsgemm.gemm @w4_f16_b8 a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = bias8>
    config #wsgemm.config<tile = [64, 64, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The manifest: A's packing and dequantization (the scales multiply each
// register at tile N 32: scale_applied weight), the logical box, the
// scale and zero-point pointers [M, KB, L].
// JSON: "dequant": {
// JSON-NEXT: "group": 128,
// JSON-NEXT: "packing": "wsgemm.i4.m64k64.v1",
// JSON-NEXT: "scale": "bf16",
// JSON-NEXT: "scale_applied": "weight",
// JSON-NEXT: "zero": "ui4"
// JSON: "box": [
// JSON-NEXT: 64,
// JSON-NEXT: 128,
// JSON-NEXT: 1
// JSON: "dtype": "i4",
// JSON: "packing": "wsgemm.i4.m64k64.v1",
// JSON: "align_bytes": 16,
// JSON-NEXT: "dequant": "A",
// JSON: "name": "dequant_scale_a"
// JSON: "align_bytes": 16,
// JSON-NEXT: "dequant": "A",
// JSON: "name": "dequant_zero_a"

// k-tiles of 128: two pre-packed units per 64-row block (one 3-D box), B
// as two 64-K blocks of 128 bytes (the swizzle span) per stage in one 3-D
// box (k_chunks 2: the runtime views K as [64, K / 64]), 8 k16 steps in
// 4 wgmma groups of 2 (tile N 16: one fence, commit and wait per two
// steps), so a group's registers wait for wait_group 3; the second
// block's descriptor starts tile N x 128 = 2048 bytes (128 units) on.
//
// At tile N 16 the group's scale multiplies an f32 partial accumulator
// (scale_applied accumulator): no mul.rn; per k-tile, steps 0-1's
// registers after wait_group 3, then wait_group 0 (the previous k-tile's last step
// retired: its stage goes back, and its partial is folded into the total
// with 8 fma.rn.f32 and its scales, bf16 widened by a shift), then step 0
// overwrites the partial (scale-d 0) and steps 1-7 accumulate into it with
// no wait; after the loop, the last partial folded.
// K128-LABEL: .entry w4_k128(
// K128-COUNT-2: cp.async.bulk.tensor.3d.shared::cluster.global
// K128-NOT: cp.async.bulk.tensor
// K128: wgmma.wait_group.sync.aligned 3;
// K128: lop3.b32
// K128: sub.rn.bf16x2
// K128: wgmma.wait_group.sync.aligned 0;
// K128: @p mbarrier.arrive.shared::cta.b64 _,
// K128-COUNT-8: fma.rn.f32
// K128: wgmma.fence.sync.aligned;
// K128: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 0, 1, 1, 0;
// K128-NOT: wgmma.wait_group
// K128-COUNT-7: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 1, 1, 1, 0;
// K128: wgmma.wait_group.sync.aligned 0;
// K128-COUNT-8: fma.rn.f32
// K128ONLY: .entry w4_k128(
// K128-NOT: wgmma.wait_group.sync.aligned 7;
// K128JSON: "scale_applied": "accumulator",
// K128JSON: "box": [
// K128JSON-NEXT: 128,
// K128JSON-NEXT: 128
// K128JSON: "box": [
// K128JSON-NEXT: 64,
// K128JSON-NEXT: 16
// K128JSON: "k_chunks": 2,
wsgemm.gemm @w4_k128 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// k-tiles of 256 (groups of 128: two per k-tile): four units per 64-row
// block in the A box, B's four 64-K blocks in one box (k_chunks 4), 16 k16
// steps in 8 wgmma groups of 2 whose fragments take 8 register slots
// (steps s, s + 1 rewrite steps s - 8, s - 7's after wait_group 3). Each
// scale group accumulates into its own f32
// partial (steps 0 and 8 overwrite, scale-d 0); both partials are folded
// at the next k-tile's step 0, once everything retired (wait_group 0), 16
// fma.rn.f32, and after the loop.
// K256-LABEL: .entry w4_k256(
// K256-COUNT-2: cp.async.bulk.tensor.3d.shared::cluster.global
// K256-NOT: cp.async.bulk.tensor
// K256: wgmma.wait_group.sync.aligned 3;
// K256: wgmma.wait_group.sync.aligned 0;
// K256: @p mbarrier.arrive.shared::cta.b64 _,
// K256-COUNT-16: fma.rn.f32
// K256: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 0, 1, 1, 0;
// K256-NOT: wgmma.wait_group
// K256-COUNT-7: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 1, 1, 1, 0;
// K256: wgmma.wait_group.sync.aligned 3;
// K256: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 0, 1, 1, 0;
// K256-COUNT-7: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 1, 1, 1, 0;
// K256: wgmma.wait_group.sync.aligned 0;
// K256-COUNT-16: fma.rn.f32
// K256JSON: "scale_applied": "accumulator",
// K256JSON: "box": [
// K256JSON-NEXT: 256,
// K256JSON-NEXT: 128
// K256JSON: "box": [
// K256JSON-NEXT: 64,
// K256JSON-NEXT: 16
// K256JSON: "k_chunks": 4,
wsgemm.gemm @w4_k256 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 256], schedule = cooperative,
                          scheduler = stream_k, ctas_per_sm = 2,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Groups of 64 in k-tiles of 256 (four a k-tile): the scales multiply the
// weights (mul.rn), and every wgmma group of two steps waits for the one 8
// steps before it (wait_group 3, 8 a k-tile); the previous k-tile's stage
// goes back once its last step retired, after the fourth.
// K256W-LABEL: .entry w4_g64_k256(
// K256W: wgmma.wait_group.sync.aligned 3;
// K256W: mul.rn.bf16x2
// K256W-COUNT-3: wgmma.wait_group.sync.aligned 3;
// K256W: @p mbarrier.arrive.shared::cta.b64 _,
// K256W-COUNT-4: wgmma.wait_group.sync.aligned 3;
// K256W-NOT: wgmma.wait_group.sync.aligned 3;
// K256W: wgmma.wait_group.sync.aligned 0;
wsgemm.gemm @w4_g64_k256 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 64, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 256], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched: A and B each one 4-D box (B's blocks of K, then L).
// K256B-LABEL: .entry w4_k256_batched(
// K256B-COUNT-2: cp.async.bulk.tensor.4d.shared::cluster.global
// K256B-NOT: cp.async.bulk.tensor
wsgemm.gemm @w4_k256_batched batched a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 256], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// f16, symmetric, group 64 at k-tiles of 64: one group per k-tile, so
// the scales multiply a partial (4 steps in 2 wgmma groups: wait_group 1
// before steps 0-1's registers, then wait_group 0 for the fold); f16
// scales widened by cvt.
// G64-LABEL: .entry w4_g64_f16(
// G64: wgmma.wait_group.sync.aligned 1;
// G64: sub.rn.f16x2
// G64: wgmma.wait_group.sync.aligned 0;
// G64-COUNT-8: fma.rn.f32
// G64: cvt.f32.f16
// G64: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 0, 1, 1, 0;
// G64-NOT: wgmma.wait_group
// G64-COUNT-3: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 1, 1, 1, 0;
// G64: wgmma.wait_group.sync.aligned 0;
// G64-COUNT-8: fma.rn.f32
wsgemm.gemm @w4_g64_f16 a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 64, zero = bias8>
    config #wsgemm.config<tile = [128, 16, 64], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Two groups per k-tile (64 of a k-tile of 128) keep the scales on the
// weight: folding one group's partial while the other's wgmmas were in
// flight made ptxas serialize every wgmma of the kernel (C7514).
// G64W-LABEL: .entry w4_g64_k128(
// G64W: mul.rn.bf16x2
// G64W: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, 1, 1, 1, 0;
// G64WJSON: "scale_applied": "weight",
wsgemm.gemm @w4_g64_k128 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 64, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
