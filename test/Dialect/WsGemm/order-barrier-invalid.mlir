// RUN: ws-gemm-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the order barriers.

// expected-error @+1 {{an order barrier orders at least 2 groups, got 1}}
func.func @one_group(%o: !wsgemm.order_barrier<1>) {
  return
}

// -----

func.func @no_arrivals() {
  // expected-error @+1 {{arrivals must be in [1, 1048575] because it is an mbarrier's expected arrival count, got 0}}
  %o = wsgemm.order_barrier_create {arrivals = 0} : !wsgemm.order_barrier<2>
  return
}

// -----

func.func @created_in_role() {
  wsgemm.warp_specialize () roles [mma] warps [4] {
    // expected-error @+1 {{must not be nested in 'wsgemm.warp_specialize' because the barriers are initialized before the roles split}}
    %o = wsgemm.order_barrier_create {arrivals = 128} : !wsgemm.order_barrier<2>
    wsgemm.role_end
  }
  return
}

// -----

func.func @wait_outside_role(%o: !wsgemm.order_barrier<2>, %g: i32, %t: i32) {
  // expected-error @+1 {{must be nested in a role region of 'wsgemm.warp_specialize' because the groups it orders are threads of a role}}
  wsgemm.order_wait %o, %g, %t : !wsgemm.order_barrier<2>
  return
}

// -----

func.func @arrive_outside_role(%o: !wsgemm.order_barrier<2>, %g: i32) {
  // expected-error @+1 {{must be nested in a role region of 'wsgemm.warp_specialize' because the groups it orders are threads of a role}}
  wsgemm.order_arrive %o, %g : !wsgemm.order_barrier<2>
  return
}
