// RUN: ws-gemm-opt %s --pass-pipeline='builtin.module(func.func(wsgemm-lower-pipelines))' -verify-diagnostics

// Run on a function, the lowering may not add a global to the module.
func.func @nested() {
  // expected-error @+1 {{'wsgemm.pipeline_create' op has no barrier storage ('in(...)') and the lowering can only allocate it in a symbol table it runs on; run --wsgemm-lower-pipelines on the enclosing module}}
  %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  return
}
