// RUN: ws-gemm-opt %s -canonicalize -split-input-file | FileCheck %s

// Folding of pipeline-state arithmetic: chains of advances, advances by 0,
// accessors of states known at compile time, accessors through whole cycles.

// CHECK-LABEL: func.func @advance_chain
// CHECK-SAME: (%[[S:.+]]: !wsgemm.pipeline_state<4>)
// CHECK-NEXT: %[[R:.+]] = wsgemm.pipeline_state_advance %[[S]] by 7 : !wsgemm.pipeline_state<4>
// CHECK-NEXT: return %[[R]]
func.func @advance_chain(%s: !wsgemm.pipeline_state<4>) -> !wsgemm.pipeline_state<4> {
  %a = wsgemm.pipeline_state_advance %s : !wsgemm.pipeline_state<4>
  %b = wsgemm.pipeline_state_advance %a by 2 : !wsgemm.pipeline_state<4>
  %c = wsgemm.pipeline_state_advance %b by 4 : !wsgemm.pipeline_state<4>
  return %c : !wsgemm.pipeline_state<4>
}

// -----

// The intermediate state keeps its own advance when it has another use.
// CHECK-LABEL: func.func @advance_chain_shared
// CHECK-SAME: (%[[S:.+]]: !wsgemm.pipeline_state<4>)
// CHECK-DAG: %[[A:.+]] = wsgemm.pipeline_state_advance %[[S]] by 3 : !wsgemm.pipeline_state<4>
// CHECK-DAG: %[[B:.+]] = wsgemm.pipeline_state_advance %[[S]] by 5 : !wsgemm.pipeline_state<4>
// CHECK: return %[[A]], %[[B]]
func.func @advance_chain_shared(%s: !wsgemm.pipeline_state<4>)
    -> (!wsgemm.pipeline_state<4>, !wsgemm.pipeline_state<4>) {
  %a = wsgemm.pipeline_state_advance %s by 3 : !wsgemm.pipeline_state<4>
  %b = wsgemm.pipeline_state_advance %a by 2 : !wsgemm.pipeline_state<4>
  return %a, %b : !wsgemm.pipeline_state<4>, !wsgemm.pipeline_state<4>
}

// -----

// CHECK-LABEL: func.func @advance_by_zero
// CHECK-SAME: (%[[S:.+]]: !wsgemm.pipeline_state<2>)
// CHECK-NEXT: return %[[S]]
func.func @advance_by_zero(%s: !wsgemm.pipeline_state<2>) -> !wsgemm.pipeline_state<2> {
  %a = wsgemm.pipeline_state_advance %s by 0 : !wsgemm.pipeline_state<2>
  return %a : !wsgemm.pipeline_state<2>
}

// -----

// Producer start (0, 1, 0) advanced by 5 over 4 stages: one wrap.
// CHECK-LABEL: func.func @producer_known
// CHECK-DAG: %[[I:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[P:.+]] = arith.constant false
// CHECK-DAG: %[[C:.+]] = arith.constant 5 : index
// CHECK-NOT: wsgemm.
// CHECK: return %[[I]], %[[P]], %[[C]]
func.func @producer_known() -> (index, i1, index) {
  %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
  %a = wsgemm.pipeline_state_advance %s by 3 : !wsgemm.pipeline_state<4>
  %b = wsgemm.pipeline_state_advance %a by 2 : !wsgemm.pipeline_state<4>
  %i = wsgemm.pipeline_state_index %b : !wsgemm.pipeline_state<4>
  %p = wsgemm.pipeline_state_phase %b : !wsgemm.pipeline_state<4>
  %c = wsgemm.pipeline_state_count %b : !wsgemm.pipeline_state<4>
  return %i, %p, %c : index, i1, index
}

// -----

// Consumer start (0, 0, 0) advanced by 9 over 3 stages: three wraps.
// CHECK-LABEL: func.func @consumer_known
// CHECK-DAG: %[[I:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[P:.+]] = arith.constant true
// CHECK-DAG: %[[C:.+]] = arith.constant 9 : index
// CHECK-NOT: wsgemm.
// CHECK: return %[[I]], %[[P]], %[[C]]
func.func @consumer_known() -> (index, i1, index) {
  %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<3>
  %a = wsgemm.pipeline_state_advance %s by 9 : !wsgemm.pipeline_state<3>
  %i = wsgemm.pipeline_state_index %a : !wsgemm.pipeline_state<3>
  %p = wsgemm.pipeline_state_phase %a : !wsgemm.pipeline_state<3>
  %c = wsgemm.pipeline_state_count %a : !wsgemm.pipeline_state<3>
  return %i, %p, %c : index, i1, index
}

// -----

// Start states themselves.
// CHECK-LABEL: func.func @start_states
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[T:.+]] = arith.constant true
// CHECK-DAG: %[[F:.+]] = arith.constant false
// CHECK: return %[[ZERO]], %[[T]], %[[F]]
func.func @start_states() -> (index, i1, i1) {
  %p = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
  %c = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
  %i = wsgemm.pipeline_state_index %p : !wsgemm.pipeline_state<2>
  %pp = wsgemm.pipeline_state_phase %p : !wsgemm.pipeline_state<2>
  %cp = wsgemm.pipeline_state_phase %c : !wsgemm.pipeline_state<2>
  return %i, %pp, %cp : index, i1, i1
}

// -----

// A 1-stage pipeline flips its phase on every advance.
// CHECK-LABEL: func.func @one_stage
// CHECK-DAG: %[[Z:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[T:.+]] = arith.constant true
// CHECK: return %[[Z]], %[[T]]
func.func @one_stage() -> (index, i1) {
  %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<1>
  %a = wsgemm.pipeline_state_advance %s by 3 : !wsgemm.pipeline_state<1>
  %i = wsgemm.pipeline_state_index %a : !wsgemm.pipeline_state<1>
  %p = wsgemm.pipeline_state_phase %a : !wsgemm.pipeline_state<1>
  return %i, %p : index, i1
}

// -----

// Unknown state: the index is unchanged by a whole number of cycles, the
// phase by an even number; the count is not folded.
// CHECK-LABEL: func.func @through_cycles
// CHECK-SAME: (%[[S:.+]]: !wsgemm.pipeline_state<4>)
// CHECK-DAG: %[[A:.+]] = wsgemm.pipeline_state_advance %[[S]] by 4 : !wsgemm.pipeline_state<4>
// CHECK-DAG: %[[B:.+]] = wsgemm.pipeline_state_advance %[[S]] by 8 : !wsgemm.pipeline_state<4>
// CHECK-DAG: %[[I:.+]] = wsgemm.pipeline_state_index %[[S]] : !wsgemm.pipeline_state<4>
// CHECK-DAG: %[[P1:.+]] = wsgemm.pipeline_state_phase %[[A]] : !wsgemm.pipeline_state<4>
// CHECK-DAG: %[[P2:.+]] = wsgemm.pipeline_state_phase %[[S]] : !wsgemm.pipeline_state<4>
// CHECK-DAG: %[[C:.+]] = wsgemm.pipeline_state_count %[[B]] : !wsgemm.pipeline_state<4>
// CHECK: return %[[I]], %[[P1]], %[[P2]], %[[C]]
func.func @through_cycles(%s: !wsgemm.pipeline_state<4>) -> (index, i1, i1, index) {
  %a = wsgemm.pipeline_state_advance %s by 4 : !wsgemm.pipeline_state<4>
  %b = wsgemm.pipeline_state_advance %s by 8 : !wsgemm.pipeline_state<4>
  %i = wsgemm.pipeline_state_index %a : !wsgemm.pipeline_state<4>
  %p1 = wsgemm.pipeline_state_phase %a : !wsgemm.pipeline_state<4>
  %p2 = wsgemm.pipeline_state_phase %b : !wsgemm.pipeline_state<4>
  %c = wsgemm.pipeline_state_count %b : !wsgemm.pipeline_state<4>
  return %i, %p1, %p2, %c : index, i1, i1, index
}

// -----

// Barrier ops are never erased or merged, even with identical operands; an
// unused store pipeline handle is.
// CHECK-LABEL: func.func @barriers_kept
// CHECK-NOT: wsgemm.store_pipeline_create
// CHECK: wsgemm.pipeline_create
// CHECK: wsgemm.warp_specialize
// CHECK-COUNT-2: wsgemm.consumer_wait
// CHECK: wsgemm.consumer_release
func.func @barriers_kept() {
  %p = wsgemm.pipeline_create {tx_bytes = 1024, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  %unused = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, load -> mma>)
      roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
    wsgemm.consumer_wait %a, %s : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.consumer_wait %a, %s : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.consumer_release %a, %s : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  }
  return
}

// -----

// A run-time advance by a constant becomes a static advance (which then
// folds into its neighbours); by a constant 0 it folds away.
// CHECK-LABEL: func.func @advance_by_constant
// CHECK-SAME: (%[[S:.+]]: !wsgemm.pipeline_state<4>, %[[N:.+]]: i32)
// CHECK-NEXT: %[[A:.+]] = wsgemm.pipeline_state_advance %[[S]] by 6 : !wsgemm.pipeline_state<4>
// CHECK-NEXT: %[[B:.+]] = wsgemm.pipeline_state_advance_by %[[S]], %[[N]] : !wsgemm.pipeline_state<4>
// CHECK-NEXT: return %[[A]], %[[B]], %[[S]]
func.func @advance_by_constant(%s: !wsgemm.pipeline_state<4>, %n: i32)
    -> (!wsgemm.pipeline_state<4>, !wsgemm.pipeline_state<4>,
        !wsgemm.pipeline_state<4>) {
  %c5 = arith.constant 5 : i32
  %c0 = arith.constant 0 : i32
  %a = wsgemm.pipeline_state_advance_by %s, %c5 : !wsgemm.pipeline_state<4>
  %a1 = wsgemm.pipeline_state_advance %a : !wsgemm.pipeline_state<4>
  %b = wsgemm.pipeline_state_advance_by %s, %n : !wsgemm.pipeline_state<4>
  %z = wsgemm.pipeline_state_advance_by %s, %c0 : !wsgemm.pipeline_state<4>
  return %a1, %b, %z : !wsgemm.pipeline_state<4>, !wsgemm.pipeline_state<4>,
      !wsgemm.pipeline_state<4>
}
