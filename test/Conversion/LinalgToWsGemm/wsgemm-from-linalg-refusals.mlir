// RUN: ws-gemm-opt %s --wsgemm-from-linalg -split-input-file -verify-diagnostics | FileCheck %s
// What the front end leaves in linalg, each with the remark that says why.

// CHECK-LABEL: func.func @on_memrefs
// CHECK:         linalg.matmul
func.func @on_memrefs(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
  // expected-remark @below {{not converted to wsgemm.gemm: it works on memrefs; the front end takes linalg on tensors}}
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x256xf16>) outs(%c : memref<128x256xf32>)
  return
}

// -----

func.func @f32_operands(%a: tensor<128x64xf32>, %b: tensor<64x256xf32>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  // expected-remark @below {{not converted to wsgemm.gemm: A and B are f32; ws-gemm's wgmma path takes f16 or bf16}}
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x256xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

func.func @mixed_operands(%a: tensor<128x64xf16>, %b: tensor<64x256xbf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  // expected-remark @below {{not converted to wsgemm.gemm: A is f16 but B is bf16; wgmma needs equal operand types}}
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xbf16>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

func.func @integer_matmul(%a: tensor<128x64xi8>, %b: tensor<64x256xi8>, %c: tensor<128x256xi32>) -> tensor<128x256xi32> {
  // expected-remark @below {{not converted to wsgemm.gemm: A and B are i8; ws-gemm's wgmma path takes f16 or bf16}}
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xi8>, tensor<64x256xi8>) outs(%c : tensor<128x256xi32>) -> tensor<128x256xi32>
  return %mm : tensor<128x256xi32>
}

// -----

// The kernel would break a planning rule: with N = 100, B's f16 rows (K x N,
// N contiguous) are 200 bytes, not a multiple of TMA's 16, and B is an
// input, loaded only with TMA (D's rows alone would be stored directly:
// wsgemm-from-linalg.mlir, @lm_head).
func.func @tma_rule(%a: tensor<128x64xf16>, %b: tensor<64x100xf16>, %c: tensor<128x100xf16>) -> tensor<128x100xf16> {
  // expected-remark @below {{not converted to wsgemm.gemm: the kernel would break a rule of --wsgemm-plan:}}
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x100xf16>) outs(%c : tensor<128x100xf16>) -> tensor<128x100xf16>
  return %mm : tensor<128x100xf16>
}

// -----

// A payload op the epilogue has no node for: the matmul becomes a kernel,
// the consumer stays.
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: wsgemm.gemm @powf_gemm0
// CHECK-LABEL: func.func @powf(
// CHECK:         %[[MM:.*]] = call @powf_gemm0_launch
// CHECK:         linalg.generic
// CHECK-SAME:    ins(%[[MM]] :
func.func @powf(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-remark @below {{not fused into @powf_gemm0: its payload has 'math.powf', which the epilogue has no node for}}
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x256xf32>) outs(%c : tensor<128x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.powf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<128x256xf32>
  return %p : tensor<128x256xf32>
}

// -----

// Reading the result transposed.
#id = affine_map<(m, n) -> (m, n)>
#t = affine_map<(m, n) -> (n, m)>
func.func @transposed_read(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  // expected-remark @below {{not fused into @transposed_read_gemm0: operand #0 reads the fused result through (d0, d1) -> (d1, d0)}}
  %p = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<128x128xf32>
  return %p : tensor<128x128xf32>
}

// -----

// A vector shared by every batch: the kernel reads one per batch.
#id3 = affine_map<(l, m, n) -> (l, m, n)>
#n3 = affine_map<(l, m, n) -> (n)>
func.func @shared_bias(%a: tensor<4x128x64xf16>, %b: tensor<4x64x256xf16>, %c: tensor<4x128x256xf32>, %bias: tensor<256xf32>) -> tensor<4x128x256xf32> {
  %mm = linalg.batch_matmul ins(%a, %b : tensor<4x128x64xf16>, tensor<4x64x256xf16>) outs(%c : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  // expected-remark @below {{not fused into @shared_bias_gemm0: operand #1 is a vector shared by every batch; the kernel reads one vector per batch (extent [M, L] or [N, L])}}
  %p = linalg.generic {indexing_maps = [#id3, #n3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<4x128x256xf32>, tensor<256xf32>) outs(%c : tensor<4x128x256xf32>) {
  ^bb0(%x: f32, %bv: f32, %o: f32):
    %y = arith.addf %x, %bv : f32
    linalg.yield %y : f32
  } -> tensor<4x128x256xf32>
  return %p : tensor<4x128x256xf32>
}

// -----

// A product reduction, and a reduction into f16.
func.func @bad_reductions(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %c: tensor<128x256xf32>,
                          %r32: tensor<128xf32>, %r16: tensor<128xf16>) -> (tensor<128xf32>, tensor<128xf16>) {
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-remark @below {{not fused into @bad_reductions_gemm0: its combiner is not a sum, max, min or max of absolute values}}
  %prod = linalg.reduce ins(%mm : tensor<128x256xf32>) outs(%r32 : tensor<128xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %m = arith.mulf %x, %y : f32
      linalg.yield %m : f32
    }
  // expected-remark @below {{not fused into @bad_reductions_gemm0: it comes after 'linalg.reduce', which reads the kernel's result and stays outside it}}
  %half = linalg.reduce ins(%mm : tensor<128x256xf32>) outs(%r16 : tensor<128xf16>) dimensions = [1]
    (%x: f32, %y: f16) {
      %t = arith.truncf %x : f32 to f16
      %m = arith.addf %t, %y : f16
      linalg.yield %m : f16
    }
  return %prod, %half : tensor<128xf32>, tensor<128xf16>
}

// -----

func.func @half_reduction(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %c: tensor<128x256xf32>,
                          %r16: tensor<128xf16>) -> tensor<128xf16> {
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-remark @below {{not fused into @half_reduction_gemm0: it reduces into f16; epilogue reductions produce f32}}
  %half = linalg.reduce ins(%mm : tensor<128x256xf32>) outs(%r16 : tensor<128xf16>) dimensions = [1]
    (%x: f32, %y: f16) {
      %t = arith.truncf %x : f32 to f16
      %m = arith.addf %t, %y : f16
      linalg.yield %m : f16
    }
  return %half : tensor<128xf16>
}

// -----

// A second matmul on the first one's result starts its own kernel (no
// remark: nothing is refused).
// CHECK-LABEL: func.func @two_matmuls(
// CHECK:         %[[H:.*]] = call @two_matmuls_gemm0_launch
// CHECK:         call @two_matmuls_gemm1_launch(%[[H]],
func.func @two_matmuls(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %b2: tensor<256x64xf16>,
                       %c: tensor<128x256xf16>, %c2: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f16
  %z = linalg.fill ins(%zero : f16) outs(%c : tensor<128x256xf16>) -> tensor<128x256xf16>
  %h = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%z : tensor<128x256xf16>) -> tensor<128x256xf16>
  %y = linalg.matmul ins(%h, %b2 : tensor<128x256xf16>, tensor<256x64xf16>) outs(%c2 : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %y : tensor<128x64xf32>
}

// -----

// The kernel with the add would read an f16 aux matrix whose rows (N = 4,
// 8 bytes) break TMA's 16-byte rule, though the bare matmul's f32 D is
// fine: the add is dropped with the rule, the matmul alone is the kernel.
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: wsgemm.gemm @drop_for_rule_gemm0 a(f16) b(f16) d(f32) shape [128, 4, 64] {
// CHECK-LABEL: func.func @drop_for_rule(
// CHECK:         %[[MM:.*]] = call @drop_for_rule_gemm0_launch
// CHECK:         linalg.generic
// CHECK-SAME:    ins(%[[MM]], %{{.*}} :
func.func @drop_for_rule(%a: tensor<128x64xf16>, %bt: tensor<4x64xf16>, %res: tensor<128x4xf16>,
                         %c: tensor<128x4xf32>) -> tensor<128x4xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%c : tensor<128x4xf32>) -> tensor<128x4xf32>
  %mm = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<128x64xf16>, tensor<4x64xf16>) outs(%acc : tensor<128x4xf32>) -> tensor<128x4xf32>
  // expected-remark @below {{not fused into @drop_for_rule_gemm0: with it the kernel would break a rule of --wsgemm-plan: TMA needs row strides that are multiples of 16 bytes}}
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %res : tensor<128x4xf32>, tensor<128x4xf16>) outs(%c : tensor<128x4xf32>) {
  ^bb0(%x: f32, %r: f16, %o: f32):
    %rf = arith.extf %r : f16 to f32
    %s = arith.addf %x, %rf : f32
    linalg.yield %s : f32
  } -> tensor<128x4xf32>
  return %y : tensor<128x4xf32>
}
