// RUN: ws-gemm-opt %s --epi-regroup-uniform-factors | FileCheck %s

// fp8's scaled epilogue with reassociation allowed: the element is
// multiplied once, by (alpha * scale_a * scale_b) * scale_d; the product
// the amax reduces stays (the epilogue collective takes its factor).
// CHECK-LABEL: wsgemm.gemm @fp8_scaled
// CHECK: %[[ALPHA:.+]] = epi.scalar param ["alpha"]
// CHECK: %[[SAB:.+]] = epi.scalar ptr ["scale_a", "scale_b"]
// CHECK: %[[SD:.+]] = epi.scalar ptr ["scale_d"]
// CHECK: %[[S:.+]] = arith.mulf %[[ALPHA]], %[[SAB]] fastmath<reassoc>
// CHECK: %[[Z:.+]] = arith.mulf %[[S]], %[[ACC:.+]] fastmath<reassoc>
// CHECK: epi.reduce_to_scalar absmax %[[Z]], "amax_d"
// CHECK: %[[SSD:.+]] = arith.mulf %[[S]], %[[SD]] fastmath<reassoc>
// CHECK: %[[D:.+]] = arith.mulf %[[ACC]], %[[SSD]] fastmath<reassoc>
// CHECK: epi.store %[[D]]
wsgemm.gemm @fp8_scaled a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sab = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %sd = epi.scalar ptr ["scale_d"] : f32
  %s = arith.mulf %alpha, %sab fastmath<reassoc> : f32
  %z = arith.mulf %s, %acc fastmath<reassoc> : f32
  epi.reduce_to_scalar absmax %z, "amax_d" : f32
  %d = arith.mulf %z, %sd fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}

// A chain of three factors in either operand order becomes one product;
// the flags the products had in common carry over (fast includes reassoc).
// CHECK-LABEL: wsgemm.gemm @chain
// CHECK: ^bb0(%[[ACC:.+]]: f32):
// CHECK: %[[TWO:.+]] = arith.constant 2.0
// CHECK: %[[A:.+]] = epi.scalar param ["a"]
// CHECK: %[[B:.+]] = epi.scalar param ["b"]
// CHECK: %[[B2:.+]] = arith.mulf %[[B]], %[[TWO]] fastmath<reassoc> :
// CHECK: %[[AB2:.+]] = arith.mulf %[[A]], %[[B2]] fastmath<reassoc> :
// CHECK: %[[Y:.+]] = arith.mulf %[[ACC]], %[[AB2]] fastmath<reassoc> :
// CHECK-NEXT: epi.store %[[Y]]
wsgemm.gemm @chain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %a = epi.scalar param ["a"] : f32
  %b = epi.scalar param ["b"] : f32
  %two = arith.constant 2.0 : f32
  %x = arith.mulf %acc, %a fastmath<fast> : f32
  %y = arith.mulf %b, %x fastmath<reassoc> : f32
  %w = arith.mulf %y, %two fastmath<reassoc,nsz> : f32
  epi.store %w : f32
  epi.yield
}

// Left as written: one product without reassoc; a per-row vector is not
// uniform; a sum in between.
// CHECK-LABEL: wsgemm.gemm @as_written
// CHECK: %[[Z1:.+]] = arith.mulf %[[S1:.+]], %[[ACC:.+]] : f32
// CHECK: arith.mulf %[[Z1]], %{{.+}} fastmath<reassoc>
// CHECK: %[[Z2:.+]] = arith.mulf %[[ACC]], %[[S1]] fastmath<reassoc>
// CHECK: arith.mulf %[[Z2]], %[[ROW:.+]] fastmath<reassoc>
// CHECK: %[[Z3:.+]] = arith.addf
// CHECK: arith.mulf %[[Z3]], %[[S1]] fastmath<reassoc>
wsgemm.gemm @as_written a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %s = epi.scalar param ["s"] : f32
  %t = epi.scalar param ["t"] : f32
  %row = epi.load_vec_m "row" : f32 -> f32
  %z1 = arith.mulf %s, %acc : f32
  %d1 = arith.mulf %z1, %t fastmath<reassoc> : f32
  epi.aux_store %d1, "d1" : f32 -> f16
  %z2 = arith.mulf %acc, %s fastmath<reassoc> : f32
  %d2 = arith.mulf %z2, %row fastmath<reassoc> : f32
  epi.aux_store %d2, "d2" : f32 -> f16
  %z3 = arith.addf %z2, %t fastmath<reassoc> : f32
  %d3 = arith.mulf %z3, %s fastmath<reassoc> : f32
  epi.store %d3 : f32
  epi.yield
}
