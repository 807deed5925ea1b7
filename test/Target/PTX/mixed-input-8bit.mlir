// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=I8BF16 --input-file=%t/w8_bf16.ptx
// RUN: not grep -q cp.async.cg %t/w8_bf16.ptx
// RUN: FileCheck %s --check-prefix=I8JSON --input-file=%t/w8_bf16.json
// RUN: FileCheck %s --check-prefix=I8F16 --input-file=%t/w8_f16_g128.ptx
// RUN: FileCheck %s --check-prefix=G128JSON --input-file=%t/w8_f16_g128.json
// RUN: FileCheck %s --check-prefix=F8BF16 --input-file=%t/f8w_bf16.ptx
// RUN: FileCheck %s --check-prefix=F8F16 --input-file=%t/f8w_f16.ptx
// RUN: FileCheck %s --check-prefix=G32 --input-file=%t/w4_g32.ptx
// RUN: FileCheck %s --check-prefix=G32JSON --input-file=%t/w4_g32.json

// 8-bit weights (docs/mixed-input.md): i8 and f8E4M3FN A, pre-packed as
// wsgemm.b8.m64k64.v1 (units of two 2048-byte halves), dequantized in
// registers into B's type and multiplied by wgmma's register-A form.

// i8 into bf16, one scale per row: one 3-D box of both halves of both
// units per stage; each consumer thread reads a half with one
// ld.shared.v4 (its 16 bytes at t * 16, the halves 2048 bytes apart);
// each byte in the low byte of its half by one prmt with 0 (selector
// 0x4040 + bytes = 16704..), under bf16's 0x43004300 (1124090624) masked
// to its low 7 bits (0x007f007f: 128 + low7) and to its sign bit
// (0x00800080: 128 or 256) by two lop3, their difference q itself, no xor.
// One scale per row is not applied per element: no scale rows travel with
// the stages (no cp.async beside the TMA boxes anywhere in the kernel: the
// grep), each consumer thread reads its rows' two scales (ld.global.nc)
// before the mainloop and multiplies its 8 accumulators by them after it.
// I8BF16-LABEL: .entry w8_bf16(
// I8BF16-NOT: cp.async.cg
// I8BF16: cp.async.bulk.tensor.3d.shared::cluster.global
// I8BF16-NOT: cp.async.cg
// I8BF16: ld.global.nc.b16
// I8BF16: ld.global.nc.b16
// I8BF16: ld.shared.v4.b32 {{.*}}, [%rd[[A:[0-9]+]]];
// I8BF16-NEXT: ld.shared.v4.b32 {{.*}}, [%rd[[A]]+2048];
// I8BF16-NOT: xor.b32 {{.*}}, -2139062144;
// I8BF16: prmt.b32 %r[[X:[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}, 16704;
// I8BF16: lop3.b32 %r[[LO:[0-9]+]], %r[[X]], 0x007f007f, 1124090624, 0xea;
// I8BF16: lop3.b32 %r[[HI:[0-9]+]], %r[[X]], 0x00800080, 1124090624, 0xea;
// I8BF16: sub.rn.bf16x2 %r{{[0-9]+}}, %r[[LO]], %r[[HI]];
// I8BF16-NOT: add.rn.f32
// I8BF16-NOT: mul.rn.bf16x2
// I8BF16: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// I8BF16-NOT: mul.rn.bf16x2
// I8BF16: wgmma.wait_group.sync.aligned 0;
// I8BF16-COUNT-8: mul.rn.f32
wsgemm.gemm @w8_bf16 a(i8) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The manifest: the b8 packing, its logical box [tile K, tile M], one
// scale per row ([M]) on the accumulator.
// I8JSON: "dequant": {
// I8JSON-NEXT: "group": 0,
// I8JSON-NEXT: "packing": "wsgemm.b8.m64k64.v1",
// I8JSON-NEXT: "scale": "bf16",
// I8JSON-NEXT: "scale_applied": "accumulator",
// I8JSON-NEXT: "zero": "none"
// I8JSON: "dtype": "i8",
// I8JSON: "box": [
// I8JSON-NEXT: 128,
// I8JSON-NEXT: 128
// I8JSON: "packing": "wsgemm.b8.m64k64.v1",
// I8JSON: "dequant": "A",
// I8JSON-NEXT: "dtype": "bf16",
// I8JSON-NEXT: "extent": [
// I8JSON-NEXT: "M"
// I8JSON-NEXT: ],
// I8JSON-NEXT: "kind": "pointer",
// I8JSON-NEXT: "name": "dequant_scale_a"

// i8 into f16, scales per 128 of K, batched: f16's magic 0x64 under each
// byte by one prmt (selectors 0x4140 = 16704, 0x4342 = 17218), minus
// 1024 + 128 (0x64806480), times the scale; no f32 detour.
// I8F16-LABEL: .entry w8_f16_g128(
// I8F16: cp.async.bulk.tensor.4d.shared::cluster.global
// I8F16: 1686135936
// I8F16: prmt.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 16704;
// I8F16: sub.rn.f16x2
// I8F16: mul.rn.f16x2
// I8F16: prmt.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 17218;
// I8F16: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// I8F16-NOT: add.rn.f32
// G128JSON: "extent": [
// G128JSON-NEXT: "M",
// G128JSON-NEXT: "KB",
// G128JSON-NEXT: "L"
// G128JSON-NEXT: ],
// G128JSON-NEXT: "kind": "pointer",
// G128JSON-NEXT: "name": "dequant_scale_a"
wsgemm.gemm @w8_f16_g128 batched a(i8) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = none>
    config #wsgemm.config<tile = [64, 64, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// e4m3 into bf16: each byte in the high byte of its half, the low one's
// sign replicated in byte 2 (selector 0x1804 = 6148), shifted right by 4
// with the sign and masked (0x87f087f0 = -2014279696): each sign stays in
// bit 15 of its half, the other 7 bits under bf16's exponent and mantissa,
// v * 2^-120; times 2^120 (bf16 0x7B80, the pair 2072017792); its one
// scale per row multiplies the accumulators after the mainloop (16 per
// thread at 128x32).
// F8BF16-LABEL: .entry f8w_bf16(
// F8BF16: prmt.b32 %r[[X:[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}, 6148;
// F8BF16-NOT: and.b32 {{.*}}, -2147450880;
// F8BF16: shr.s32 %r[[S:[0-9]+]], %r[[X]], 4;
// F8BF16: and.b32 {{.*}}, %r[[S]], -2014279696;
// F8BF16: mov.b32 %r{{[0-9]+}}, 2072017792;
// F8BF16: mul.rn.bf16x2
// F8BF16-NEXT: end inline asm
// F8BF16-NEXT: begin inline asm
// F8BF16-NEXT: prmt.b32
// F8BF16: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// F8BF16: wgmma.wait_group.sync.aligned 0;
// F8BF16-COUNT-16: mul.rn.f32
wsgemm.gemm @f8w_bf16 a(f8E4M3FN) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none>
    config #wsgemm.config<tile = [128, 32, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// e4m3 into f16: the hardware conversion, one per register.
// F8F16-LABEL: .entry f8w_f16(
// F8F16: cvt.rn.f16x2.e4m3x2 %r{{[0-9]+}}, lo;
// F8F16: mul.rn.f16x2
// F8F16: cvt.rn.f16x2.e4m3x2 %r{{[0-9]+}}, hi;
// F8F16: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
wsgemm.gemm @f8w_f16 a(f8E4M3FN) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = none>
    config #wsgemm.config<tile = [128, 64, 128], schedule = pingpong> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Groups smaller than a k-tile (GPTQ's 32 and 64): the stage holds the
// rows of each group the k-tile spans (4 of 32 in 128 of K, scales then
// zero points: 4 x 2 x 256 bytes, 4 16-byte cp.async per lane), and the
// scales' extent is [M, KG] (KG = K / group).
// G32: .entry w4_g32(
// G32-COUNT-4: cp.async.cg.shared.global
// G32-NOT: cp.async.cg.shared.global
// G32: wgmma.mma_async
// G32JSON: "dequant": {
// G32JSON-NEXT: "group": 32,
// G32JSON: "extent": [
// G32JSON-NEXT: "M",
// G32JSON-NEXT: "KG"
// G32JSON-NEXT: ],
// G32JSON-NEXT: "kind": "pointer",
// G32JSON-NEXT: "name": "dequant_scale_a"
wsgemm.gemm @w4_g32 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 32, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
