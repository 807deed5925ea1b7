// RUN: ws-gemm-opt %s --wsgemm-from-linalg -split-input-file | FileCheck %s
// Kernel names made from function names (KernelName.h's legalKernelName):
// any function name gives a valid kernel name (docs/limits.md, "Kernel
// names"), and each kernel plans (the RUN line below verifies them).
// RUN: ws-gemm-opt %s --wsgemm-from-linalg -split-input-file | ws-gemm-opt --wsgemm-plan -split-input-file > /dev/null

// Space and slash become '_'; the launch in the function names the kernel.
// CHECK-LABEL: wsgemm.gemm @my_fn_1_gemm0 a(f16)
// CHECK:       func.func private @my_fn_1_gemm0_launch(
// CHECK-LABEL: func.func @"my fn/1"(
// CHECK:         call @my_fn_1_gemm0_launch(
func.func @"my fn/1"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// A path: dots and slashes become '_', and a name that does not start with
// a letter gets k_ in front.
// CHECK-LABEL: wsgemm.gemm @k____up_gemm0 a(f16)
// CHECK-LABEL: func.func @"../up"(
func.func @"../up"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// '%' and '$' become '_' (a kernel may have '$'; a generated name does not).
// CHECK-LABEL: wsgemm.gemm @k__x_y_gemm0 a(f16)
func.func @"%x$y"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// A digit first.
// CHECK-LABEL: wsgemm.gemm @k_2x_gemm0 a(f16)
func.func @"2x"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// Unicode: each byte becomes '_'.
// CHECK-LABEL: wsgemm.gemm @k___t___gemm0 a(f16)
func.func @"été"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// libdevice's prefix (a reserved kernel name) gets k_ in front.
// CHECK-LABEL: wsgemm.gemm @k___nv_expf_gemm0 a(f16)
func.func @__nv_expf(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// 300 characters: cut to 225, room for the suffix within 240.
// CHECK-LABEL: wsgemm.gemm @xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_gemm0 a(f16)
// CHECK:       func.func private @xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_gemm0_launch(
func.func @"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// Functions whose mapped names meet, and a symbol that differs only in
// case: each kernel gets the first free number, compared without case.
// CHECK-LABEL: func.func private @A_B_gemm0_launch
// CHECK-LABEL: wsgemm.gemm @a_b_gemm1 a(f16)
// CHECK-LABEL: func.func @"a b"(
// CHECK:         call @a_b_gemm1_launch(
// CHECK-LABEL: wsgemm.gemm @a_b_gemm2 a(f16)
// CHECK-LABEL: func.func @a.b(
// CHECK:         call @a_b_gemm2_launch(
func.func private @A_B_gemm0_launch()

func.func @"a b"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

func.func @a.b(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}
