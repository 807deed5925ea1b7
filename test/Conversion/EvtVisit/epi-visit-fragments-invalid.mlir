// RUN: ws-gemm-opt %s --epi-visit-fragments -split-input-file -verify-diagnostics

// A leaf whose source the visit does not carry is refused at the leaf.
func.func @missing_source(%acc: vector<2xf32>) -> f32 {
  %d = epi.visit %acc : vector<2xf32> sources() names [] outputs ["D"]
      d_type f16 c_type f16 -> vector<2xf32> {
  ^bb0(%x: f32):
    // expected-error @below {{'epi.aux_load' op reads 'res', which the enclosing epi.visit does not carry as a source}}
    %r = epi.aux_load "res" : f16 -> f32
    %y = arith.addf %x, %r : f32
    epi.store %y : f32
    epi.yield
  }
  %d0 = vector.extract %d[0] : f32 from vector<2xf32>
  return %d0 : f32
}

// -----

// An output the region does not produce.
func.func @missing_output(%acc: vector<2xf32>) -> f32 {
  // expected-error @below {{'epi.visit' op names output 'rowmax', which its epilogue region does not produce}}
  %d, %m = epi.visit %acc : vector<2xf32> sources() names []
      outputs ["D", "rowmax"] d_type f16 -> vector<2xf32>, vector<2xf32> {
  ^bb0(%x: f32):
    epi.store %x : f32
    epi.yield
  }
  %d0 = vector.extract %d[0] : f32 from vector<2xf32>
  return %d0 : f32
}
