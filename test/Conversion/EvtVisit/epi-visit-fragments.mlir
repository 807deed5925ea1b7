// RUN: ws-gemm-opt %s --epi-visit-fragments -split-input-file | FileCheck %s

// The EVT visit: each epi.visit becomes one copy of its epilogue region per
// fragment element, leaves reading the element of the source they name,
// outputs replacing the element-wise reads of the result they name.

// CHECK-LABEL: func.func @two_elements(
// CHECK-SAME: %[[A0:[^:]*]]: f32, %[[A1:[^:]*]]: f32, %[[C0:[^:]*]]: f32, %[[C1:[^:]*]]: f32, %[[B0:[^:]*]]: f32, %[[B1:[^:]*]]: f32, %[[ALPHA:[^:]*]]: f32, %[[BETA:[^:]*]]: f32)
// Element 0: alpha * beta * acc + C + bias (several scalar names multiply).
// CHECK: %[[S0:.*]] = arith.mulf %[[ALPHA]], %[[BETA]] : f32
// CHECK: %[[X0:.*]] = arith.mulf %[[S0]], %[[A0]] : f32
// CHECK: %[[Y0:.*]] = arith.addf %[[X0]], %[[C0]] : f32
// CHECK: %[[Z0:.*]] = arith.addf %[[Y0]], %[[B0]] : f32
// CHECK: %[[R0:.*]] = epi.relu %[[Z0]] : f32
// Element 1 reads the other elements.
// CHECK: %[[S1:.*]] = arith.mulf %[[ALPHA]], %[[BETA]] : f32
// CHECK: %[[X1:.*]] = arith.mulf %[[S1]], %[[A1]] : f32
// CHECK: %[[Y1:.*]] = arith.addf %[[X1]], %[[C1]] : f32
// CHECK: %[[Z1:.*]] = arith.addf %[[Y1]], %[[B1]] : f32
// CHECK: %[[R1:.*]] = epi.relu %[[Z1]] : f32
// Results: D is the relu, the row max reads the pre-activation value; no
// vector or visit op is left.
// CHECK-NOT: vector.
// CHECK-NOT: epi.visit
// CHECK: return %[[R0]], %[[R1]], %[[Z0]], %[[Z1]]
func.func @two_elements(%a0: f32, %a1: f32, %c0: f32, %c1: f32, %b0: f32,
                        %b1: f32, %alpha: f32, %beta: f32)
    -> (f32, f32, f32, f32) {
  %acc = vector.from_elements %a0, %a1 : vector<2xf32>
  %c = vector.from_elements %c0, %c1 : vector<2xf32>
  %bias = vector.from_elements %b0, %b1 : vector<2xf32>
  %d, %m = epi.visit %acc : vector<2xf32>
      sources(%c, %bias, %alpha, %beta : vector<2xf32>, vector<2xf32>, f32, f32)
      names ["C", "bias", "alpha", "beta"] outputs ["D", "rowmax"]
      d_type f16 c_type f16 -> vector<2xf32>, vector<2xf32> {
  ^bb0(%x: f32):
    %s = epi.scalar param ["alpha", "beta"] : f32
    %ax = arith.mulf %s, %x : f32
    %src = epi.load_src : f32
    %y = arith.addf %ax, %src : f32
    %v = epi.load_vec_m "bias" : f16 -> f32
    %z = arith.addf %y, %v : f32
    %r = epi.relu %z : f32
    epi.store %r : f32
    epi.reduce_to_vec_m max %z, "rowmax" : f32
    epi.yield
  }
  %d0 = vector.extract %d[0] : f32 from vector<2xf32>
  %d1 = vector.extract %d[1] : f32 from vector<2xf32>
  %m0 = vector.extract %m[0] : f32 from vector<2xf32>
  %m1 = vector.extract %m[1] : f32 from vector<2xf32>
  return %d0, %d1, %m0, %m1 : f32, f32, f32, f32
}

// -----

// Sources that are not built element by element are read with
// vector.extract; epi.convert narrows with PTX's packed cvt (rz here);
// attribute scalars become constants.

// CHECK-LABEL: func.func @extracts(
// CHECK-SAME: %[[ACC:.*]]: vector<1xf32>, %[[AUX:.*]]: vector<1xf32>)
// CHECK-DAG: %[[A:.*]] = vector.extract %[[ACC]][0] : f32 from vector<1xf32>
// CHECK-DAG: %[[X:.*]] = vector.extract %[[AUX]][0] : f32 from vector<1xf32>
// CHECK-DAG: %[[K:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[Y:.*]] = arith.mulf %[[A]], %[[K]] : f32
// CHECK: %[[Z:.*]] = arith.addf %[[Y]], %[[X]] : f32
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f16x2 %[[Z]], %[[Z]] {rnd = #nvvm.fp_rnd_mode<rz>}
// CHECK: %[[H:.*]] = llvm.extractelement %[[P]]
// CHECK: %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK: return %[[W]]
func.func @extracts(%acc: vector<1xf32>, %aux: vector<1xf32>) -> f32 {
  %d = epi.visit %acc : vector<1xf32> sources(%aux : vector<1xf32>)
      names ["res"] outputs ["D"] d_type f32 -> vector<1xf32> {
  ^bb0(%x: f32):
    %k = epi.scalar attr 0.25 : f32
    %r = epi.aux_load "res" : f16 -> f32
    %y = arith.mulf %x, %k : f32
    %z = arith.addf %y, %r : f32
    %h = epi.convert %z rz : f32 -> f16
    %w = epi.convert %h : f16 -> f32
    epi.store %w : f32
    epi.yield
  }
  %d0 = vector.extract %d[0] : f32 from vector<1xf32>
  return %d0 : f32
}
