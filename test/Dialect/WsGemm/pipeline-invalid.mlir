// RUN: ws-gemm-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the explicit level.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{pipeline stage count must be at least 1, got 0}}
func.func @pipeline_zero_stages(%p: !wsgemm.pipeline<0, load -> mma>) {
  return
}

// -----

// expected-error @+1 {{pipeline producer and consumer roles must differ because a pipeline synchronizes two roles, got 'mma' for both}}
func.func @pipeline_same_roles(%p: !wsgemm.pipeline<2, mma -> mma>) {
  return
}

// -----

// expected-error @+2 {{expected ::mlir::wsgemm::Role to be one of: load, epilogue_load, mma}}
// expected-error @+1 {{failed to parse WsGemm_PipelineType parameter 'producer'}}
func.func @pipeline_bad_role(%p: !wsgemm.pipeline<2, tma -> mma>) {
  return
}

// -----

// expected-error @+1 {{store pipeline stage count must be at least 1, got 0}}
func.func @store_pipeline_zero_stages(%p: !wsgemm.store_pipeline<0>) {
  return
}

// -----

// expected-error @+1 {{pipeline state stage count must be at least 1, got -2}}
func.func @state_negative_stages(%s: !wsgemm.pipeline_state<-2>) {
  return
}

//===----------------------------------------------------------------------===//
// pipeline_create
//===----------------------------------------------------------------------===//

// -----

func.func @tx_bytes_negative() {
  // expected-error @+1 {{tx_bytes must be in [0, 1048575] because an mbarrier transaction count has 20 bits, got -16}}
  %p = wsgemm.pipeline_create {tx_bytes = -16, consumer_arrivals = 2}
      : !wsgemm.pipeline<4, load -> mma>
  return
}

// -----

func.func @tx_bytes_too_large() {
  // expected-error @+1 {{tx_bytes must be in [0, 1048575] because an mbarrier transaction count has 20 bits, got 1048576}}
  %p = wsgemm.pipeline_create {tx_bytes = 1048576, consumer_arrivals = 2}
      : !wsgemm.pipeline<4, load -> mma>
  return
}

// -----

func.func @tx_bytes_unaligned() {
  // expected-error @+1 {{tx_bytes must be a multiple of 16 because TMA transfers whole 16-byte units, got 100}}
  %p = wsgemm.pipeline_create {tx_bytes = 100, consumer_arrivals = 2}
      : !wsgemm.pipeline<4, load -> mma>
  return
}

// -----

func.func @no_consumer_arrivals() {
  // expected-error @+1 {{consumer_arrivals must be in [1, 1048575] because it is an mbarrier's expected arrival count, got 0}}
  %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 0}
      : !wsgemm.pipeline<4, load -> mma>
  return
}

// -----

func.func @create_in_role() {
  wsgemm.warp_specialize () roles [mma] warps [4] {
    // expected-error @+1 {{must not be nested in 'wsgemm.warp_specialize' because the barriers are initialized before the roles split and both roles capture the pipeline}}
    %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
        : !wsgemm.pipeline<4, load -> mma>
    wsgemm.role_end
  }
  return
}

//===----------------------------------------------------------------------===//
// Pipeline state
//===----------------------------------------------------------------------===//

// -----

func.func @advance_backwards(%s: !wsgemm.pipeline_state<4>) {
  // expected-error @+1 {{advance amount must be non-negative because pipeline states only move forward, got -1}}
  %t = wsgemm.pipeline_state_advance %s by -1 : !wsgemm.pipeline_state<4>
  return
}

// -----

func.func @init_bad_agent() {
  // expected-error @+1 {{expected 'producer' or 'consumer', got 'reader'}}
  %s = wsgemm.pipeline_state_init reader : !wsgemm.pipeline_state<4>
  return
}

//===----------------------------------------------------------------------===//
// warp_specialize: shape of the per-role arrays and regions
//===----------------------------------------------------------------------===//

// -----

func.func @roles_count() {
  // expected-error @+1 {{must list one role per region: 'roles' has 2 entries but the op has 1 role regions}}
  wsgemm.warp_specialize () roles [load, mma] warps [1, 4] {
    wsgemm.role_end
  }
  return
}

// -----

func.func @warps_count() {
  // expected-error @+1 {{must give one warp count per role: 'warps' has 1 entries for 2 roles}}
  wsgemm.warp_specialize () roles [load, mma] warps [4] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @regs_count() {
  // expected-error @+1 {{must give one register budget per role: 'regs' has 1 entries for 2 roles}}
  wsgemm.warp_specialize () roles [load, mma] warps [1, 4] regs [232] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @duplicate_role() {
  // expected-error @+1 {{lists role 'mma' twice; each role must have exactly one region}}
  wsgemm.warp_specialize () roles [mma, mma] warps [4, 4] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @no_mma_role() {
  // expected-error @+1 {{must have an 'mma' role because the consumer warpgroups run the wgmma and the epilogue}}
  wsgemm.warp_specialize () roles [load] warps [1] {
    wsgemm.role_end
  }
  return
}

// -----

func.func @bad_role_keyword() {
  // expected-error @+1 {{expected a warp role (load, epilogue_load, mma), got 'store'}}
  wsgemm.warp_specialize () roles [store] warps [1] {
    wsgemm.role_end
  }
  return
}

// -----

func.func @no_regions() {
  // expected-error @+2 {{expected one region per warp role}}
  wsgemm.warp_specialize () roles [mma] warps [4]
  return
}

// -----

func.func @block_arg_count(%x: index) {
  // expected-error @+1 {{region #0 (role 'mma') must take the 1 captured values as block arguments because role regions are isolated from above, got 0 arguments}}
  wsgemm.warp_specialize (%x : index) roles [mma] warps [4] {
    wsgemm.role_end
  }
  return
}

// -----

func.func @block_arg_type(%x: index) {
  // expected-error @+1 {{region #0 (role 'mma') argument #0 must have the type of capture #0 ('index'), got 'i32'}}
  wsgemm.warp_specialize (%x : index) roles [mma] warps [4] {
  ^bb0(%y: i32):
    wsgemm.role_end
  }
  return
}

// -----

func.func @isolated_from_above(%x: index) {
  // expected-note @+1 {{required by region isolation constraints}}
  wsgemm.warp_specialize () roles [mma] warps [4] {
    // expected-error @+1 {{using value defined outside the region}}
    %y = arith.addi %x, %x : index
    wsgemm.role_end
  }
  return
}

// -----

func.func @wrong_terminator() {
  // expected-error @+2 {{expects regions to end with 'wsgemm.role_end'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'wsgemm.role_end'}}
  wsgemm.warp_specialize () roles [mma] warps [4] {
    llvm.unreachable
  }
  return
}

// -----

func.func @nested_warp_specialize() {
  wsgemm.warp_specialize () roles [mma] warps [4] {
    // expected-error @+1 {{must not be nested in another 'wsgemm.warp_specialize' because the roles partition the warps of the CTA once}}
    wsgemm.warp_specialize () roles [mma] warps [4] {
      wsgemm.role_end
    }
    wsgemm.role_end
  }
  return
}

// -----

func.func @role_end_outside() {
  // expected-error @+1 {{expects parent op 'wsgemm.warp_specialize'}}
  wsgemm.role_end
}

//===----------------------------------------------------------------------===//
// warp_specialize: warps and registers
//===----------------------------------------------------------------------===//

// -----

func.func @mma_partial_warpgroup() {
  // expected-error @+1 {{role 'mma' must have a positive multiple of 4 warps because wgmma runs on whole warpgroups, got 6}}
  wsgemm.warp_specialize () roles [mma] warps [6] {
    wsgemm.role_end
  }
  return
}

// -----

func.func @load_five_warps() {
  // expected-error @+1 {{role 'load' must have 1 to 4 warps because the producer roles share warpgroup 0 (1 issues TMA loads, more copy with cp.async), got 5}}
  wsgemm.warp_specialize () roles [load, mma] warps [5, 4] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @producers_over_a_warpgroup() {
  // expected-error @+1 {{producer roles have 5 warps but share warpgroup 0 (4 warps)}}
  wsgemm.warp_specialize () roles [load, epilogue_load, mma] warps [4, 1, 4] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @epilogue_load_no_warps() {
  // expected-error @+1 {{role 'epilogue_load' must have exactly 1 warp because one elected thread issues its TMA loads and the producer roles share warpgroup 0, got 0}}
  wsgemm.warp_specialize () roles [epilogue_load, mma] warps [0, 4] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @too_many_warps() {
  // expected-error @+1 {{needs 36 warps (the producer roles fill one warpgroup) but a CTA has at most 32 warps}}
  wsgemm.warp_specialize () roles [load, mma] warps [1, 32] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @regs_not_multiple_of_8() {
  // expected-error @+1 {{register budget of role 'mma' must be a multiple of 8 in [24, 256] because setmaxnreg accepts no other, got 230}}
  wsgemm.warp_specialize () roles [mma] warps [4] regs [230] {
    wsgemm.role_end
  }
  return
}

// -----

func.func @regs_too_few() {
  // expected-error @+1 {{register budget of role 'load' must be a multiple of 8 in [24, 256] because setmaxnreg accepts no other, got 16}}
  wsgemm.warp_specialize () roles [load, mma] warps [1, 4] regs [16, 232] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @regs_too_many() {
  // expected-error @+1 {{register budget of role 'mma' must be a multiple of 8 in [24, 256] because setmaxnreg accepts no other, got 264}}
  wsgemm.warp_specialize () roles [mma] warps [4] regs [264] {
    wsgemm.role_end
  }
  return
}

// -----

func.func @producer_regs_differ() {
  // expected-error @+1 {{roles 'load' and 'epilogue_load' must have equal register budgets because they share warpgroup 0 and setmaxnreg applies to a whole warpgroup, got 40 and 56}}
  wsgemm.warp_specialize () roles [load, epilogue_load, mma] warps [1, 1, 8] regs [40, 56, 232] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

// -----

func.func @register_file_overflow() {
  // 128 * 40 + 256 * 240 = 66560 > 65536.
  // expected-error @+1 {{register budgets need 66560 registers but an SM has 65536}}
  wsgemm.warp_specialize () roles [load, mma] warps [1, 8] regs [40, 240] {
    wsgemm.role_end
  } {
    wsgemm.role_end
  }
  return
}

//===----------------------------------------------------------------------===//
// warp_specialize: captured pipelines
//===----------------------------------------------------------------------===//

// -----

func.func @pipeline_producer_missing(%p: !wsgemm.pipeline<2, epilogue_load -> mma>) {
  // expected-error @+1 {{capture #0 is a pipeline produced by role 'epilogue_load' but no region has that role, so it would deadlock}}
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, epilogue_load -> mma>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, epilogue_load -> mma>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, epilogue_load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

func.func @pipeline_consumer_missing(%x: index, %p: !wsgemm.pipeline<2, mma -> load>) {
  // expected-error @+1 {{capture #1 is a pipeline consumed by role 'load' but no region has that role, so it would deadlock}}
  wsgemm.warp_specialize (%x, %p : index, !wsgemm.pipeline<2, mma -> load>) roles [mma] warps [4] {
  ^bb0(%y: index, %a: !wsgemm.pipeline<2, mma -> load>):
    wsgemm.role_end
  }
  return
}

//===----------------------------------------------------------------------===//
// Producer / consumer ops
//===----------------------------------------------------------------------===//

// -----

func.func @stage_mismatch(%p: !wsgemm.pipeline<4, load -> mma>) {
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<4, load -> mma>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<3>
    // expected-error @+1 {{uses a pipeline_state of 3 stages with a pipeline of 4 stages; the state's stage count must equal the pipeline's}}
    wsgemm.producer_acquire %a, %s : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<3>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

func.func @acquire_in_consumer(%p: !wsgemm.pipeline<4, load -> mma>) {
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<4, load -> mma>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
    // expected-error @+1 {{'wsgemm.producer_acquire' op acquires a stage of a pipeline produced by role 'load' but runs in role 'mma'; only the pipeline's producer role may do so}}
    wsgemm.producer_acquire %a, %s : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    wsgemm.role_end
  }
  return
}

// -----

func.func @commit_in_other_producer(%p: !wsgemm.pipeline<4, load -> mma>) {
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<4, load -> mma>) roles [load, epilogue_load, mma] warps [1, 1, 4] {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
    // expected-error @+1 {{'wsgemm.producer_commit' op commits a stage of a pipeline produced by role 'load' but runs in role 'epilogue_load'; only the pipeline's producer role may do so}}
    wsgemm.producer_commit %a, %s : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

// The role is found through scf.for / scf.if nesting.
func.func @wait_in_producer(%p: !wsgemm.pipeline<4, load -> mma>, %n: index, %b: i1) {
  wsgemm.warp_specialize (%p, %n, %b : !wsgemm.pipeline<4, load -> mma>, index, i1) roles [load, mma] warps [1, 8] {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>, %m: index, %c: i1):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<4>
    scf.for %i = %c0 to %m step %c1 {
      scf.if %c {
        // expected-error @+1 {{'wsgemm.consumer_wait' op waits on a pipeline consumed by role 'mma' but runs in role 'load'; only the pipeline's consumer role may do so}}
        wsgemm.consumer_wait %a, %s : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      }
    }
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<4, load -> mma>, %m: index, %c: i1):
    wsgemm.role_end
  }
  return
}

// -----

func.func @release_in_producer(%p: !wsgemm.pipeline<2, epilogue_load -> mma>) {
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, epilogue_load -> mma>) roles [epilogue_load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, epilogue_load -> mma>):
    %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.consumer_release' op releases a stage of a pipeline consumed by role 'mma' but runs in role 'epilogue_load'; only the pipeline's consumer role may do so}}
    wsgemm.consumer_release %a, %s : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, epilogue_load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

func.func @wait_outside_roles(%p: !wsgemm.pipeline<4, load -> mma>, %s: !wsgemm.pipeline_state<4>) {
  // expected-error @+1 {{'wsgemm.consumer_wait' op must be nested in a role region of 'wsgemm.warp_specialize' because pipelines synchronize warp roles}}
  wsgemm.consumer_wait %p, %s : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
  return
}

// -----

func.func @wrong_operand_type(%p: !wsgemm.store_pipeline<4>, %s: !wsgemm.pipeline_state<4>) {
  // expected-error @+1 {{operand #0 must be an mbarrier pipeline of N stages between two warp roles, but got '!wsgemm.store_pipeline<4>'}}
  wsgemm.producer_acquire %p, %s : !wsgemm.store_pipeline<4>, !wsgemm.pipeline_state<4>
  return
}

//===----------------------------------------------------------------------===//
// TMA store pipeline ops
//===----------------------------------------------------------------------===//

// -----

func.func @store_commit_in_load(%sp: !wsgemm.store_pipeline<2>) {
  wsgemm.warp_specialize (%sp : !wsgemm.store_pipeline<2>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.store_pipeline<2>):
    // expected-error @+1 {{'wsgemm.store_commit' op runs in role 'load' but the TMA store pipeline belongs to role 'mma', whose elected thread issues the epilogue's TMA stores}}
    wsgemm.store_commit %a : !wsgemm.store_pipeline<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.store_pipeline<2>):
    wsgemm.role_end
  }
  return
}

// -----

func.func @store_tail_in_epilogue_load(%sp: !wsgemm.store_pipeline<2>) {
  wsgemm.warp_specialize (%sp : !wsgemm.store_pipeline<2>) roles [mma, epilogue_load] warps [4, 1] {
  ^bb0(%a: !wsgemm.store_pipeline<2>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.store_pipeline<2>):
    // expected-error @+1 {{'wsgemm.store_tail' op runs in role 'epilogue_load' but the TMA store pipeline belongs to role 'mma', whose elected thread issues the epilogue's TMA stores}}
    wsgemm.store_tail %a : !wsgemm.store_pipeline<2>
    wsgemm.role_end
  }
  return
}

// -----

func.func @store_acquire_outside_roles(%sp: !wsgemm.store_pipeline<2>) {
  // expected-error @+1 {{'wsgemm.store_acquire' op must be nested in a role region of 'wsgemm.warp_specialize' because pipelines synchronize warp roles}}
  wsgemm.store_acquire %sp : !wsgemm.store_pipeline<2>
  return
}

// -----

func.func @store_wait_too_many(%sp: !wsgemm.store_pipeline<2>) {
  wsgemm.warp_specialize (%sp : !wsgemm.store_pipeline<2>) roles [mma] warps [4] {
  ^bb0(%a: !wsgemm.store_pipeline<2>):
    // expected-error @+1 {{'wsgemm.store_wait' op pending must be in [0, 2) because at most stages - 1 store batches can be in flight while a buffer is written, got 2}}
    wsgemm.store_wait %a {pending = 2} : !wsgemm.store_pipeline<2>
    wsgemm.role_end
  }
  return
}

// -----

func.func @expect_tx_non_tma() {
  %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, load -> mma>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    %n = arith.constant 64 : i32
    // expected-error @+1 {{'wsgemm.producer_expect_tx' op needs a TMA pipeline (tx_bytes > 0) because only its full barriers count transactions}}
    wsgemm.producer_expect_tx %a, %s, %n : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

func.func @get_barrier_in_consumer(%p: !wsgemm.pipeline<2, load -> mma>) {
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, load -> mma>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_get_barrier' op takes a barrier of a pipeline produced by role 'load' but runs in role 'mma'; only the pipeline's producer role may do so}}
    %b = wsgemm.producer_get_barrier %a, %s : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  }
  return
}

// -----

!box2d = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tma_load_coordinates(%p: !wsgemm.pipeline<2, load -> mma>, %d: !box2d, %dst: !llvm.ptr<3>, %x: i32) {
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !box2d, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box2d, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op has 3 coordinates for a box of rank 2; TMA takes one coordinate per dimension}}
    wsgemm.producer_tma_load %ad[%ax, %ax, %ax] to %adst, %a[%s] : !box2d, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box2d, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!global = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 1>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tma_load_global_box(%p: !wsgemm.pipeline<2, load -> mma>, %d: !global, %dst: !llvm.ptr<3>, %x: i32) {
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !global, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !global, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op needs a descriptor whose box is in shared memory (the load's destination), got 'memref<128x64xf16, 1>'}}
    wsgemm.producer_tma_load %ad[%ax, %ax] to %adst, %a[%s] : !global, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !global, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tma_load_non_tma(%d: !box, %dst: !llvm.ptr<3>, %x: i32) {
  %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !box, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op needs a TMA pipeline (tx_bytes > 0) because its loads complete on the full barrier as transactions}}
    wsgemm.producer_tma_load %ad[%ax, %ax] to %adst, %a[%s] : !box, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tma_load_in_consumer(%p: !wsgemm.pipeline<2, load -> mma>, %d: !box, %dst: !llvm.ptr<3>, %x: i32) {
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !box, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op loads into a stage of a pipeline produced by role 'load' but runs in role 'mma'; only the pipeline's producer role may do so}}
    wsgemm.producer_tma_load %ad[%ax, %ax] to %adst, %a[%s] : !box, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @store_tma_in_load(%d: !box, %src: !llvm.ptr<3>, %x: i32) {
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  wsgemm.warp_specialize (%sp, %d, %src, %x : !wsgemm.store_pipeline<2>, !box, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%s: !wsgemm.store_pipeline<2>, %ad: !box, %asrc: !llvm.ptr<3>, %ax: i32):
    // expected-error @+1 {{'wsgemm.store_tma' op runs in role 'load' but the TMA store pipeline belongs to role 'mma', whose elected thread issues the epilogue's TMA stores}}
    wsgemm.store_tma %asrc to %ad[%ax, %ax] in %s : !box, !wsgemm.store_pipeline<2>
    wsgemm.role_end
  } {
  ^bb0(%s: !wsgemm.store_pipeline<2>, %ad: !box, %asrc: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @store_tma_coordinates(%d: !box, %src: !llvm.ptr<3>, %x: i32) {
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  wsgemm.warp_specialize (%sp, %d, %src, %x : !wsgemm.store_pipeline<2>, !box, !llvm.ptr<3>, i32) roles [mma] warps [4] {
  ^bb0(%s: !wsgemm.store_pipeline<2>, %ad: !box, %asrc: !llvm.ptr<3>, %ax: i32):
    // expected-error @+1 {{'wsgemm.store_tma' op has 1 coordinates for a box of rank 2; TMA takes one coordinate per dimension}}
    wsgemm.store_tma %asrc to %ad[%ax] in %s : !box, !wsgemm.store_pipeline<2>
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, strided<[64, 1], offset: 5>, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tma_box(%p: !wsgemm.pipeline<2, load -> mma>, %d: !box, %dst: !llvm.ptr<3>, %x: i32) {
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !box, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op needs a descriptor whose box is a static, contiguous memref of rank 1 to 5 (TMA's tensor ranks), got 'memref<128x64xf16, strided<[64, 1], offset: 5>, 3>'}}
    wsgemm.producer_tma_load %ad[%ax, %ax] to %adst, %a[%s] : !box, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<300x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tma_box(%p: !wsgemm.pipeline<2, load -> mma>, %d: !box, %dst: !llvm.ptr<3>, %x: i32) {
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !box, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op needs box dimensions of at most 256 elements (TMA's limit), got 'memref<300x64xf16, 3>'}}
    wsgemm.producer_tma_load %ad[%ax, %ax] to %adst, %a[%s] : !box, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tma_box(%p: !wsgemm.pipeline<2, load -> mma>, %d: !box, %dst: !llvm.ptr<3>, %x: i32) {
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !box, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op needs the box's innermost dimension to span the swizzle's 128 bytes (the rows the swizzle permutes), got 64 bytes in 'memref<64x32xf16, 3>'}}
    wsgemm.producer_tma_load %ad[%ax, %ax] to %adst, %a[%s] : !box, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<64x4xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @tma_box(%p: !wsgemm.pipeline<2, load -> mma>, %d: !box, %dst: !llvm.ptr<3>, %x: i32) {
  wsgemm.warp_specialize (%p, %d, %dst, %x : !wsgemm.pipeline<2, load -> mma>, !box, !llvm.ptr<3>, i32) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_tma_load' op needs the box's innermost dimension to span a multiple of 16 bytes (TMA's rule), got 8 bytes in 'memref<64x4xf16, 3>'}}
    wsgemm.producer_tma_load %ad[%ax, %ax] to %adst, %a[%s] : !box, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>, %ad: !box, %adst: !llvm.ptr<3>, %ax: i32):
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @store_tma_reduce_max_f32(%d: !box, %src: !llvm.ptr<3>, %x: i32) {
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  wsgemm.warp_specialize (%sp, %d, %src, %x : !wsgemm.store_pipeline<2>, !box, !llvm.ptr<3>, i32) roles [mma] warps [4] {
  ^bb0(%s: !wsgemm.store_pipeline<2>, %ad: !box, %asrc: !llvm.ptr<3>, %ax: i32):
    // expected-error @+1 {{'wsgemm.store_tma' op reduces 'max' into f32 elements: cp.reduce.async.bulk.tensor has min and max for f16 and bf16 only}}
    wsgemm.store_tma %asrc to %ad[%ax, %ax] reduce #epi.store_reduce<max> in %s : !box, !wsgemm.store_pipeline<2>
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf8E4M3FN, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @store_tma_reduce_fp8(%d: !box, %src: !llvm.ptr<3>, %x: i32) {
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  wsgemm.warp_specialize (%sp, %d, %src, %x : !wsgemm.store_pipeline<2>, !box, !llvm.ptr<3>, i32) roles [mma] warps [4] {
  ^bb0(%s: !wsgemm.store_pipeline<2>, %ad: !box, %asrc: !llvm.ptr<3>, %ax: i32):
    // expected-error @+1 {{'wsgemm.store_tma' op reduces 'add' into 'f8E4M3FN' elements: cp.reduce.async.bulk.tensor reduces floats of f32, f16 and bf16 only}}
    wsgemm.store_tma %asrc to %ad[%ax, %ax] reduce #epi.store_reduce<add> in %s : !box, !wsgemm.store_pipeline<2>
    wsgemm.role_end
  }
  return
}

// -----

!box = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @store_tma_reduce_none(%d: !box, %src: !llvm.ptr<3>, %x: i32) {
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  wsgemm.warp_specialize (%sp, %d, %src, %x : !wsgemm.store_pipeline<2>, !box, !llvm.ptr<3>, i32) roles [mma] warps [4] {
  ^bb0(%s: !wsgemm.store_pipeline<2>, %ad: !box, %asrc: !llvm.ptr<3>, %ax: i32):
    // expected-error @+1 {{'wsgemm.store_tma' op 'reduce none' is a plain store: omit 'reduce'}}
    wsgemm.store_tma %asrc to %ad[%ax, %ax] reduce #epi.store_reduce<none> in %s : !box, !wsgemm.store_pipeline<2>
    wsgemm.role_end
  }
  return
}

// -----

func.func @cp_async_commit_without_producer_arrivals() {
  %p = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, load -> mma>)
      roles [load, mma] warps [4, 4] {
  ^bb0(%q: !wsgemm.pipeline<2, load -> mma>):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_commit' op with cp_async needs a pipeline created with producer_arrivals (every producer thread arrives on the full barrier)}}
    wsgemm.producer_commit %q, %s cp_async
        : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%q: !wsgemm.pipeline<2, load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

func.func @tma_acquire_with_producer_arrivals() {
  %p = wsgemm.pipeline_create {tx_bytes = 8192, consumer_arrivals = 1,
                               producer_arrivals = 128}
      : !wsgemm.pipeline<2, load -> mma>
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, load -> mma>)
      roles [load, mma] warps [4, 4] {
  ^bb0(%q: !wsgemm.pipeline<2, load -> mma>):
    %s = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.producer_acquire' op without cp_async arrives once on a TMA pipeline (tx_bytes > 0), but its full barriers count 128 producer arrivals; use cp_async, or tx_bytes = 0 (every producer thread arrives in producer_commit)}}
    wsgemm.producer_acquire %q, %s
        : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%q: !wsgemm.pipeline<2, load -> mma>):
    wsgemm.role_end
  }
  return
}

// -----

func.func @predicated_release_to_peer(%p: !wsgemm.pipeline<2, load -> mma>, %rank: i32, %pred: i1) {
  wsgemm.warp_specialize (%p : !wsgemm.pipeline<2, load -> mma>) roles [load, mma] warps [1, 4] {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    wsgemm.role_end
  } {
  ^bb0(%a: !wsgemm.pipeline<2, load -> mma>):
    %s = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
    // expected-error @+1 {{'wsgemm.consumer_release' op a predicated release ('if') arrives in this CTA only: it cannot also name a peer CTA ('cta')}}
    wsgemm.consumer_release %a, %s cta %rank if %pred : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  }
  return
}
