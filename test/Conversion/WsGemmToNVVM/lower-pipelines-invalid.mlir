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
