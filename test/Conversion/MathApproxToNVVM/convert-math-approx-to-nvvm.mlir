// RUN: ws-gemm-opt %s --convert-math-approx-to-nvvm | FileCheck %s

// f32 tanh with afn (or fast, which includes it) -> llvm.intr.tanh with
// afn, which NVPTX selects as tanh.approx.f32.
// CHECK-LABEL: func.func @tanh_afn
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[T:.+]] = llvm.intr.tanh(%[[X]]) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// CHECK-NEXT: return %[[T]]
func.func @tanh_afn(%x: f32) -> f32 {
  %t = math.tanh %x fastmath<afn> : f32
  return %t : f32
}

// CHECK-LABEL: func.func @tanh_fast
// CHECK-NEXT: llvm.intr.tanh
func.func @tanh_fast(%x: f32) -> f32 {
  %t = math.tanh %x fastmath<fast> : f32
  return %t : f32
}

// Everything else stays for --convert-gpu-to-nvvm: no afn, other types,
// other math ops (exp with afn is upstream's __nv_fast_expf already).
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: math.tanh %{{.+}} : f32
// CHECK-NEXT: math.tanh %{{.+}} fastmath<nnan> : f32
// CHECK-NEXT: math.tanh %{{.+}} fastmath<afn> : f16
// CHECK-NEXT: math.tanh %{{.+}} fastmath<afn> : f64
// CHECK-NEXT: math.exp %{{.+}} fastmath<afn> : f32
// CHECK-NOT: llvm.intr.tanh
func.func @left_alone(%x: f32, %h: f16, %d: f64)
    -> (f32, f32, f16, f64, f32) {
  %a = math.tanh %x : f32
  %b = math.tanh %x fastmath<nnan> : f32
  %c = math.tanh %h fastmath<afn> : f16
  %e = math.tanh %d fastmath<afn> : f64
  %f = math.exp %x fastmath<afn> : f32
  return %a, %b, %c, %e, %f : f32, f32, f16, f64, f32
}
