// RUN: ws-gemm-opt %s --wsgemm-lower-pipelines -split-input-file -verify-diagnostics

// The lowering takes barriers and byte counts from the pipeline's creator.
func.func @no_creator(%p: !wsgemm.pipeline<2, load -> mma>) {
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, load -> mma>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_acquire' op uses a pipeline that no 'wsgemm.pipeline_create' defines; the lowering takes its barriers and byte counts from there}}
    wsgemm.producer_acquire %a, %s : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0 of type '!wsgemm.pipeline_state<2>' is used, but pipelines and pipeline states are lowered within one function; create them in it}}
func.func @state_argument(%s: !wsgemm.pipeline_state<2>) {
  %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  wsgemm.warp_specialize (%p, %s : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %t: !wsgemm.pipeline_state<2>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %t: !wsgemm.pipeline_state<2>):
    wsgemm.consumer_wait %a, %t : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  }
  return
}
