//===- WsGemmPipelineOps.td - Warp roles and pipelines -----*- tablegen -*-===//
//
// The explicit level of the wsgemm dialect, produced by --wsgemm-specialize
// and consumed by the pipeline lowering: warp roles as the regions of
// `wsgemm.warp_specialize` (modelled on Triton's `ttg.warp_specialize`), and
// pipelines as SSA values (modelled on CUTLASS's PipelineTmaAsync and
// PipelineTmaStore, cutlass/pipeline/sm90_pipeline.hpp). Types are generated
// into WsGemmTypes.h.inc, ops into WsGemmPipelineOps.h.inc; the enums they use
// live in WsGemmPipelineAttributes.td.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEOPS_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEOPS_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "ws-gemm/Dialect/WsGemm/WsGemmPipelineAttributes.td"
include "ws-gemm/Dialect/Epi/EpiAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"

// The address of mbarriers or buffers in the CTA's shared memory.
def WsGemm_SharedPtr : LLVM_PointerInAddressSpace<3>;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class WsGemm_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<WsGemm_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def WsGemm_PipelineType : WsGemm_Type<"Pipeline", "pipeline"> {
  let summary = "an mbarrier pipeline of N stages between two warp roles";
  let description = [{
    A ring of `stages` shared-memory buffers guarded by two mbarrier arrays of
    `stages` entries each (CUTLASS PipelineTmaAsync / PipelineAsync):
    - full barriers: the consumer waits on them; they complete when the
      producer has arrived once and, for a TMA producer, when the announced
      transaction bytes have landed;
    - empty barriers: the producer waits on them; they complete when all
      consumer arrivals of that stage have happened.

    The producer and consumer roles are part of the type, so that an op can be
    checked against the warp role it runs in.

    ```mlir
    !wsgemm.pipeline<4, load -> mma>
    !wsgemm.pipeline<2, epilogue_load -> mma>
    ```
  }];
  let parameters = (ins "int64_t":$stages,
                        EnumParameter<WsGemm_Role>:$producer,
                        EnumParameter<WsGemm_Role>:$consumer);
  let assemblyFormat = "`<` $stages `,` $producer `->` $consumer `>`";
  let genVerifyDecl = 1;
}

def WsGemm_StorePipelineType : WsGemm_Type<"StorePipeline", "store_pipeline"> {
  let summary = "a TMA store pipeline of N stages (bulk async-groups)";
  let description = [{
    The ring of `stages` shared-memory staging buffers of the epilogue's TMA
    stores (CUTLASS PipelineTmaStore). It has no consumer agent and no
    mbarriers: the TMA unit is the consumer, and completion is tracked with the
    issuing thread's bulk async-groups (`cp.async.bulk.commit_group` /
    `cp.async.bulk.wait_group.read`). Only one elected thread of the `mma` role
    uses it; async-groups are per-thread state.

    ```mlir
    !wsgemm.store_pipeline<2>
    ```
  }];
  let parameters = (ins "int64_t":$stages);
  let assemblyFormat = "`<` $stages `>`";
  let genVerifyDecl = 1;
}

def WsGemm_PipelineStateType : WsGemm_Type<"PipelineState", "pipeline_state"> {
  let summary = "the (index, phase, count) iterator of an N-stage pipeline";
  let description = [{
    A value-semantic iterator over the stages of a pipeline (CUTLASS
    PipelineState): `index` in [0, N), the barrier `phase` parity to wait for,
    and `count`, the number of advances from the start state. Advancing past
    the last stage wraps the index and flips the phase. Loops carry states as
    iteration arguments. The arithmetic is `mlir::wsgemm::PipelineState`
    (PipelineState.h).

    ```mlir
    !wsgemm.pipeline_state<4>
    ```
  }];
  let parameters = (ins "int64_t":$stages);
  let assemblyFormat = "`<` $stages `>`";
  let genVerifyDecl = 1;
}

def WsGemm_OrderBarrierType : WsGemm_Type<"OrderBarrier", "order_barrier"> {
  let summary = "G groups of threads taking turns in a fixed cyclic order";
  let description = [{
    An ordered sequence barrier (CUTLASS OrderedSequenceBarrier): groups
    0, 1, ..., G - 1, 0, 1, ... each take one turn at a time. One mbarrier
    per group says "your turn": group g waits on barrier g and, when its turn
    ends, arrives on barrier (g + 1) mod G. Group 0's first turn needs no
    arrival. The pingpong kernel orders its two consumer warpgroups' mainloops
    with one such barrier and their epilogues with another, so that one
    warpgroup's epilogue runs beside the other's wgmma.

    ```mlir
    !wsgemm.order_barrier<2>
    ```
  }];
  let parameters = (ins "int64_t":$groups);
  let assemblyFormat = "`<` $groups `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Base class
//===----------------------------------------------------------------------===//

// Every explicit-level op; dialect-wide traits would be appended here.
class WsGemm_PipelineOp<string mnemonic, list<Trait> traits = []>
    : WsGemm_Op<mnemonic, traits>;

// The effects of an op that waits on or arrives at barriers (or bulk
// async-groups): it reads and writes memory, so nothing is moved across it,
// nothing is CSE'd and nothing is erased. Never Pure.
defvar BarrierEffects = MemoryEffects<[MemRead, MemWrite]>;

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

def WsGemm_PipelineCreateOp : WsGemm_PipelineOp<"pipeline_create",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "allocate and initialize the full/empty mbarriers of a pipeline";
  let description = [{
    Creates an N-stage pipeline (N from the result type). The lowering
    allocates `2 * N` mbarriers in shared memory; one thread initializes them
    and the CTA synchronizes before any role runs:
    - full barrier `i`: expects 1 producer arrival, plus `tx_bytes` bytes of
      TMA transactions announced by `producer_acquire` (arrive.expect_tx).
      `tx_bytes = 0` means a non-TMA producer that arrives with
      `producer_commit` instead;
    - empty barrier `i`: expects `consumer_arrivals` arrivals, one per
      consumer agent that releases the stage (CUTLASS: one elected thread per
      consumer warpgroup, times `cluster_m + cluster_n - 1` with multicast).

    `producer_arrivals` (absent: 1) is the full barriers' arrival count: a
    cp.async producer (CpAsyncProducer.cpp) has every one of its threads
    arrive when its copies land (`producer_commit {cp_async}`), so the count
    is its thread count; TMA bytes of an operand loaded beside the copies
    are announced by `producer_expect_tx`, without an arrival of their own.

    Must run before `wsgemm.warp_specialize` (the pipeline is one of its
    captures), never inside a role region.

    The barriers live at `barriers` when given (`2 * N` 8-byte slots: the
    full barriers, then the empty ones), so that a kernel that plans its own
    shared-memory layout places them; without it the lowering allocates a
    static shared-memory array for them.

    ```mlir
    %p = wsgemm.pipeline_create {tx_bytes = 32768, consumer_arrivals = 2}
        : !wsgemm.pipeline<4, load -> mma>
    %q = wsgemm.pipeline_create in(%bars : !llvm.ptr<3>)
        {tx_bytes = 8192, consumer_arrivals = 2}
        : !wsgemm.pipeline<2, epilogue_load -> mma>
    %r = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 2,
                                 producer_arrivals = 128}
        : !wsgemm.pipeline<4, load -> mma>
    ```
    becomes, for each stage `i`, by one elected thread:
    ```
    mbarrier.init.shared::cta.b64 [full + 8*i], 1;
    mbarrier.init.shared::cta.b64 [empty + 8*i], 2;
    fence.mbarrier_init.release.cluster;   // then a CTA-wide barrier.sync
    ```
  }];
  let arguments = (ins Optional<WsGemm_SharedPtr>:$barriers,
                       I64Attr:$tx_bytes, I64Attr:$consumer_arrivals,
                       OptionalAttr<I64Attr>:$producer_arrivals);
  let results = (outs Res<WsGemm_PipelineType, "", [MemAlloc]>:$pipeline);
  let extraClassDeclaration = [{
    /// The pipeline_create that defines `pipeline`, looking through the
    /// entry-block arguments of warp_specialize role regions to the captured
    /// operand; null when `pipeline` has another origin (e.g. a function
    /// argument). The lowering reads tx_bytes and consumer_arrivals here.
    static PipelineCreateOp lookup(::mlir::Value pipeline);
  }];
  let assemblyFormat = [{
    (`in` `(` $barriers^ `:` type($barriers) `)`)?
    ` ` `{` `tx_bytes` `=` $tx_bytes `,` `consumer_arrivals` `=` $consumer_arrivals
    (`,` `producer_arrivals` `=` $producer_arrivals^)?
    `}` attr-dict `:` qualified(type($pipeline))
  }];
  let hasVerifier = 1;
}

def WsGemm_StorePipelineCreateOp : WsGemm_PipelineOp<"store_pipeline_create"> {
  let summary = "create the TMA store pipeline of the epilogue";
  let description = [{
    Creates the handle of an N-stage TMA store pipeline. There are no
    barriers to initialize (the bulk async-groups are per-thread hardware
    state), so it lowers to nothing; the stage count parameterizes
    `store_acquire`. The result is a fresh handle (an allocation), so two
    creations are not merged; an unused one may be erased.

    ```mlir
    %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
    ```
  }];
  let results = (outs Res<WsGemm_StorePipelineType, "", [MemAlloc]>:$pipeline);
  let assemblyFormat = "attr-dict `:` qualified(type($pipeline))";
}

//===----------------------------------------------------------------------===//
// Pipeline state
//===----------------------------------------------------------------------===//

def WsGemm_PipelineStateInitOp : WsGemm_PipelineOp<"pipeline_state_init",
    [Pure]> {
  let summary = "the start state of a producer or consumer iterator";
  let description = [{
    `producer`: index 0, phase 1, count 0 (CUTLASS make_producer_start_state:
    the buffers start empty, so the first wait on each empty barrier, for the
    parity before its initial phase, succeeds at once). `consumer`: index 0,
    phase 0, count 0.

    ```mlir
    %w = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
    %r = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<4>
    ```
    becomes three registers: `index = 0; phase = 1 (or 0); count = 0`.
  }];
  let arguments = (ins WsGemm_PipelineAgentAttr:$agent);
  let results = (outs WsGemm_PipelineStateType:$state);
  let assemblyFormat = [{
    custom<PipelineAgent>($agent) attr-dict `:` qualified(type($state))
  }];
}

def WsGemm_PipelineStateAdvanceOp : WsGemm_PipelineOp<"pipeline_state_advance",
    [Pure, AllTypesMatch<["state", "result"]>]> {
  let summary = "advance a pipeline iterator by a static number of stages";
  let description = [{
    Returns `state` advanced by `by` (default 1, at least 0): the index wraps
    modulo the stage count, the phase flips once per wrap, the count grows by
    `by` (CUTLASS PipelineState::advance). Chains of advances fold into one;
    an advance by 0 folds away.

    ```mlir
    %s1 = wsgemm.pipeline_state_advance %s0 : !wsgemm.pipeline_state<4>
    %s5 = wsgemm.pipeline_state_advance %s1 by 4 : !wsgemm.pipeline_state<4>
    ```
    becomes, for `by = n` and `N` stages:
    ```
    sum = index + n % N;  wraps = n / N + (sum >= N);
    index' = sum >= N ? sum - N : sum;  phase' = phase ^ (wraps & 1);
    count' = count + n;
    ```
  }];
  let arguments = (ins WsGemm_PipelineStateType:$state,
                       DefaultValuedAttr<I64Attr, "1">:$by);
  let results = (outs WsGemm_PipelineStateType:$result);
  let assemblyFormat = [{
    $state (`by` $by^)? attr-dict `:` qualified(type($state))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def WsGemm_PipelineStateAdvanceByOp : WsGemm_PipelineOp<
    "pipeline_state_advance_by", [Pure, AllTypesMatch<["state", "result"]>]> {
  let summary = "advance a pipeline iterator by a run-time number of stages";
  let description = [{
    Returns `state` advanced by `amount` stages, an unsigned `i32` known only
    at run time (e.g. the k-tiles the producer already issued for earlier
    output tiles); otherwise as `wsgemm.pipeline_state_advance`. A kernel
    that counts its uses of a ring gets the state of use `g` as
    `advance_by(init, g)`.

    ```mlir
    %s = wsgemm.pipeline_state_advance_by %s0, %g : !wsgemm.pipeline_state<4>
    ```
    becomes, for `N` stages:
    ```
    sum = index + amount;  index' = sum % N;
    phase' = phase ^ ((sum / N) & 1);  count' = count + amount;
    ```
  }];
  let arguments = (ins WsGemm_PipelineStateType:$state, I32:$amount);
  let results = (outs WsGemm_PipelineStateType:$result);
  let assemblyFormat = [{
    $state `,` $amount attr-dict `:` qualified(type($state))
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

class WsGemm_PipelineStateAccessorOp<string mnemonic, string what,
                                      Type resultType>
    : WsGemm_PipelineOp<"pipeline_state_" # mnemonic, [Pure]> {
  let summary = "the " # what # " of a pipeline iterator";
  let arguments = (ins WsGemm_PipelineStateType:$state);
  let results = (outs resultType:$result);
  let assemblyFormat = "$state attr-dict `:` qualified(type($state))";
  let hasCanonicalizer = 1;
}

def WsGemm_PipelineStateIndexOp
    : WsGemm_PipelineStateAccessorOp<"index", "stage index", Index> {
  let description = [{
    The stage the iterator points at, in [0, stages): selects the buffer and
    the barrier of the stage. Folds to a constant when the state is a start
    state advanced by known amounts; the index after an advance by a multiple
    of the stage count is the index before it.

    ```mlir
    %i = wsgemm.pipeline_state_index %s : !wsgemm.pipeline_state<4>
    ```
  }];
}

def WsGemm_PipelineStatePhaseOp
    : WsGemm_PipelineStateAccessorOp<"phase", "barrier parity", I1> {
  let description = [{
    The parity a wait at the current stage waits for (operand of
    `mbarrier.try_wait.parity`). Folds to a constant when the state is known;
    the phase after an advance by a multiple of twice the stage count is the
    phase before it.

    ```mlir
    %ph = wsgemm.pipeline_state_phase %s : !wsgemm.pipeline_state<4>
    ```
  }];
}

def WsGemm_PipelineStateCountOp
    : WsGemm_PipelineStateAccessorOp<"count", "advance count", Index> {
  let description = [{
    How many times the iterator has advanced since its start state (CUTLASS
    uses it to skip the first store waits). Folds to a constant when the state
    is known.

    ```mlir
    %c = wsgemm.pipeline_state_count %s : !wsgemm.pipeline_state<4>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Producer / consumer ops of an mbarrier pipeline
//===----------------------------------------------------------------------===//

class WsGemm_PipelineSyncOp<string mnemonic>
    : WsGemm_PipelineOp<mnemonic, [BarrierEffects]> {
  let arguments = (ins WsGemm_PipelineType:$pipeline,
                       WsGemm_PipelineStateType:$state);
  let assemblyFormat = [{
    $pipeline `,` $state attr-dict `:` qualified(type($pipeline)) `,`
    qualified(type($state))
  }];
  let hasVerifier = 1;
}

def WsGemm_ProducerAcquireOp : WsGemm_PipelineSyncOp<"producer_acquire"> {
  let arguments = (ins WsGemm_PipelineType:$pipeline,
                       WsGemm_PipelineStateType:$state, UnitAttr:$cp_async);
  let summary = "wait until a stage is empty, then announce its transactions";
  let description = [{
    Runs in the pipeline's producer role. Waits on the empty barrier of stage
    `index(state)` for parity `phase(state)`; then, for a TMA pipeline
    (`tx_bytes > 0`), arrives on the stage's full barrier announcing
    `tx_bytes` bytes (CUTLASS PipelineTmaAsync::producer_acquire). The TMA
    loads issued next complete those transactions. The op arrives once per
    thread that runs it, so the producer runs it in one thread (e.g. under
    `nvvm.elect.sync`), as it issues the TMA loads.

    ```mlir
    wsgemm.producer_acquire %p, %s
        : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    ```
    becomes
    ```
    waitLoop: mbarrier.try_wait.parity.shared::cta.b64 p, [empty + 8*idx], phase;
              @!p bra waitLoop;
    mbarrier.arrive.expect_tx.shared::cta.b64 _, [full + 8*idx], 32768;
    ```

    With `cp_async`, every thread of a cp.async producer runs it and it only
    waits for the empty stage: the threads arrive in `producer_commit
    {cp_async}` when their copies land, and the bytes of a TMA operand
    loaded beside them are announced by one thread's `producer_expect_tx`
    (CUTLASS PipelineAsync::producer_acquire). Needs a pipeline created
    with `producer_arrivals`. On a pipeline without TMA bytes (`tx_bytes =
    0`) it only waits, in as many threads as the full barriers count
    (`producer_arrivals`): each arrives in `producer_commit`, after its
    `st.shared` writes (sm_8x `copy_out = load`: the consumers' staged
    output subtiles, which the load warps copy out).
  }];
  let assemblyFormat = [{
    $pipeline `,` $state (`cp_async` $cp_async^)? attr-dict `:`
    qualified(type($pipeline)) `,` qualified(type($state))
  }];
}

def WsGemm_ProducerCommitOp : WsGemm_PipelineSyncOp<"producer_commit"> {
  let arguments = (ins WsGemm_PipelineType:$pipeline,
                       WsGemm_PipelineStateType:$state, UnitAttr:$cp_async,
                       UnitAttr:$stores);
  let summary = "mark a stage as filled";
  let description = [{
    Runs in the pipeline's producer role after the stage's data was issued.
    For a TMA pipeline (`tx_bytes > 0`) it is a no-op: the producer arrived in
    `producer_acquire` and the TMA transactions complete the full barrier
    (CUTLASS PipelineTmaAsync::producer_commit). For a non-TMA producer
    (`tx_bytes = 0`) each thread that runs it arrives on the full barrier.

    ```mlir
    wsgemm.producer_commit %p, %s
        : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    ```
    becomes nothing (TMA), or `mbarrier.arrive.shared::cta.b64 _, [full + 8*idx];`

    A cp.async producer's threads each run it once per stage:
    - `cp_async`: the thread's arrival happens when all the cp.async copies
      it issued so far have landed:
      `cp.async.mbarrier.arrive.noinc.shared::cta.b64 [full + 8*idx];`
      (the pipeline's `producer_arrivals` counts these arrivals);
    - `stores`: the thread also wrote the stage with `st.shared` (2-byte
      copies): `fence.proxy.async.shared::cta` (wgmma reads through the
      async proxy), then a plain arrival with release semantics; with
      `cp_async` too, the cp.async arrive is the counting form
      (`cp.async.mbarrier.arrive.shared::cta.b64`, no `.noinc`: pending
      count + 1, then - 1 when the copies land), followed by that arrival.
  }];
  let assemblyFormat = [{
    $pipeline `,` $state (`cp_async` $cp_async^)? (`stores` $stores^)?
    attr-dict `:` qualified(type($pipeline)) `,` qualified(type($state))
  }];
}

def WsGemm_ConsumerWaitOp : WsGemm_PipelineSyncOp<"consumer_wait"> {
  let summary = "wait until a stage is full";
  let description = [{
    Runs in the pipeline's consumer role. Waits on the full barrier of stage
    `index(state)` for parity `phase(state)`: the producer arrived and all its
    transaction bytes landed in shared memory.

    ```mlir
    wsgemm.consumer_wait %p, %s
        : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    ```
    becomes
    ```
    waitLoop: mbarrier.try_wait.parity.shared::cta.b64 p, [full + 8*idx], phase;
              @!p bra waitLoop;
    ```
  }];
}

def WsGemm_ConsumerReleaseOp : WsGemm_PipelineOp<"consumer_release",
    [BarrierEffects, AttrSizedOperandSegments]> {
  let summary = "mark a stage as consumed";
  let description = [{
    Runs in the pipeline's consumer role once the stage's buffers are no
    longer read (for wgmma: after the wgmma group that read them retired).
    Each thread that runs it arrives once on the stage's empty barrier, so a
    consumer agent runs it in one thread (CUTLASS: one per consumer
    warpgroup); `consumer_arrivals` of the pipeline counts these agents.

    ```mlir
    wsgemm.consumer_release %p, %s
        : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    ```
    becomes `mbarrier.arrive.shared::cta.b64 _, [empty + 8*idx];`

    With `cta %rank` the arrival goes to the stage's empty barrier in CTA
    `rank` of the cluster (a peer whose multicast writes into this CTA's
    stage waits for it): `mapa` gives that barrier's shared::cluster
    address, `mbarrier.arrive.shared::cluster.b64` arrives with the
    instruction's default semantics, release at CTA scope (this CTA's reads
    of the stage come before the arrival), as CUTLASS's
    `ClusterBarrier::arrive(cta_id)`; `.release.cluster` would cost a
    GPU-wide fence per arrival.

    With `if %pred` (i1; not with `cta`) only the threads where it holds
    arrive, by a predicated instruction rather than a branch:
    `@p mbarrier.arrive.shared::cta.b64 _, [empty + 8*idx];`. A consumer
    that keeps wgmma groups in flight across the release needs it: ptxas
    serializes every wgmma of a function whose pipelined region holds a
    divergent branch around the arrival (C7513; docs/mixed-input.md).
  }];
  let arguments = (ins WsGemm_PipelineType:$pipeline,
                       WsGemm_PipelineStateType:$state, Optional<I32>:$cta,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $pipeline `,` $state (`cta` $cta^)? (`if` $pred^)? attr-dict `:`
    qualified(type($pipeline)) `,` qualified(type($state))
  }];
  let hasVerifier = 1;
}

def WsGemm_ProducerGetBarrierOp : WsGemm_PipelineOp<"producer_get_barrier",
    [Pure]> {
  let summary = "the full barrier of a stage, for the TMA loads that fill it";
  let description = [{
    Runs in the pipeline's producer role: the shared-memory address of the
    full barrier of stage `index(state)`, for asynchronous copies issued as
    NVVM ops that should complete on it (CUTLASS
    PipelineTmaAsync::producer_get_barrier). TMA loads of a tensor map use
    `producer_tma_load`, which names the barrier itself.

    ```mlir
    %bar = wsgemm.producer_get_barrier %p, %s
        : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    ```
    becomes `nvgpu.mbarrier.get %barriers[%index]` (`full + 8 * index`).
  }];
  let arguments = (ins WsGemm_PipelineType:$pipeline,
                       WsGemm_PipelineStateType:$state);
  let results = (outs WsGemm_SharedPtr:$barrier);
  let assemblyFormat = [{
    $pipeline `,` $state attr-dict `:` qualified(type($pipeline)) `,`
    qualified(type($state))
  }];
  let hasVerifier = 1;
}

def WsGemm_ProducerExpectTxOp : WsGemm_PipelineOp<"producer_expect_tx",
    [BarrierEffects]> {
  let summary = "announce transaction bytes beyond the pipeline's static ones";
  let description = [{
    Runs in a TMA pipeline's producer role (`tx_bytes > 0`), after
    `producer_acquire` and before the loads it announces: raises the
    transaction count of the stage's full barrier by `bytes`, for loads
    decided at run time (the epilogue loads C only when beta != 0; CUTLASS
    PipelineTmaAsync::producer_expect_transaction). Like every arrival it is
    done by each thread that runs it: run it in the producer's one thread.

    ```mlir
    wsgemm.producer_expect_tx %p, %s, %bytes
        : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
    ```
    becomes `mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [full + 8*idx], bytes;`
  }];
  let arguments = (ins WsGemm_PipelineType:$pipeline,
                       WsGemm_PipelineStateType:$state, I32:$bytes);
  let assemblyFormat = [{
    $pipeline `,` $state `,` $bytes attr-dict `:` qualified(type($pipeline))
    `,` qualified(type($state))
  }];
  let hasVerifier = 1;
}

def WsGemm_TmaDescriptor : Type<
    CPred<"::llvm::isa<::mlir::nvgpu::TensorMapDescriptorType>($_self)">,
    "!nvgpu.tensormap.descriptor", "::mlir::nvgpu::TensorMapDescriptorType">;

def WsGemm_ProducerTmaLoadOp : WsGemm_PipelineOp<"producer_tma_load",
    [BarrierEffects, AttrSizedOperandSegments]> {
  let summary = "TMA load of one box into a stage, completing on its full barrier";
  let description = [{
    Runs in a TMA pipeline's producer role (`tx_bytes > 0`), after
    `producer_acquire` announced the stage's bytes: loads the box of
    `tensor_map` at `coordinates` (innermost first, 32-bit, out of bounds
    zero-filled) into shared memory at `dst`, and completes its bytes on the
    full barrier of stage `index(state)` (CUTLASS: `copy(tma.with(*pipeline
    .producer_get_barrier(state)), ...)`). The box is the descriptor's
    `tensor` type, outermost first; `dst` must be aligned as its swizzle
    requires (1024 bytes for 128B).

    With `multicast %mask` (an i16 of CTA ranks in the cluster), the box
    lands at `dst` in every CTA of the mask and completes its bytes on the
    same stage's full barrier in each of them (CUTLASS's
    SM90_TMA_LOAD_MULTICAST): each CTA's full barrier then expects the bytes
    its peers send it too.

    ```mlir
    wsgemm.producer_tma_load %a[%k, %m] to %dst, %p[%s]
        : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>,
              swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero,
              interleave = none>,
          !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    ```
    becomes `nvgpu.tma.async.load %a[%k, %m], %barriers[%index] to %view`,
    `%view` the shared-memory buffer at `dst` as a memref of the box.
  }];
  let arguments = (ins WsGemm_TmaDescriptor:$tensor_map,
                       Variadic<I32>:$coordinates, WsGemm_SharedPtr:$dst,
                       WsGemm_PipelineType:$pipeline,
                       WsGemm_PipelineStateType:$state,
                       Optional<I16>:$multicast);
  let assemblyFormat = [{
    $tensor_map `[` $coordinates `]` `to` $dst `,` $pipeline `[` $state `]`
    (`multicast` $multicast^)?
    attr-dict `:` qualified(type($tensor_map)) `,` qualified(type($pipeline))
    `,` qualified(type($state))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA store pipeline ops
//===----------------------------------------------------------------------===//

class WsGemm_StorePipelineOp<string mnemonic>
    : WsGemm_PipelineOp<mnemonic, [BarrierEffects]> {
  let arguments = (ins WsGemm_StorePipelineType:$pipeline);
  let assemblyFormat = "$pipeline attr-dict `:` qualified(type($pipeline))";
  let hasVerifier = 1;
}

def WsGemm_StoreCommitOp : WsGemm_StorePipelineOp<"store_commit"> {
  let summary = "close the batch of TMA stores just issued";
  let description = [{
    Runs in the `mma` role, by the thread that issued the TMA stores of the
    current subtile: groups the bulk stores issued since the last commit
    (CUTLASS PipelineTmaStore::producer_commit).

    ```mlir
    wsgemm.store_commit %sp : !wsgemm.store_pipeline<2>
    ```
    becomes `cp.async.bulk.commit_group;`
  }];
}

def WsGemm_StoreTmaOp : WsGemm_PipelineOp<"store_tma", [BarrierEffects]> {
  let summary = "TMA store of one box, joining the store pipeline's open batch";
  let description = [{
    Runs in the `mma` role, by the one thread that issues the epilogue's TMA
    stores, after the shared-memory writes it reads were fenced
    (`fence.proxy.async.shared::cta`) and the writers synchronized: stores
    the box of `tensor_map` at `coordinates` (innermost first, 32-bit; out
    of bounds clipped) from shared memory at `src`. It joins the bulk group
    the next `store_commit` closes; `store_acquire` / `store_wait` wait for
    it to have read `src`.

    ```mlir
    wsgemm.store_tma %src to %d[%n, %m] in %sp
        : !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>,
              swizzle = none, l2promo = l2promo_128b, oob = zero,
              interleave = none>, !wsgemm.store_pipeline<2>
    ```
    becomes `nvgpu.tma.async.store %view to %d[%n, %m]`, `%view` the
    buffer at `src` as a memref of the box.

    With `reduce #epi.store_reduce<add>` (or `min`, `max`) the box is
    combined with global memory instead of overwriting it (CUTLASS's
    SM90_TMA_REDUCE_ADD), in the same bulk group:
    ```mlir
    wsgemm.store_tma %src to %d[%n, %m] reduce #epi.store_reduce<add> in %sp
        : !nvgpu.tensormap.descriptor<...>, !wsgemm.store_pipeline<2>
    ```
    becomes `nvvm.cp.async.bulk.tensor.reduce %d, %src, box[%n, %m]
    {redKind = #nvvm.tma_redux_kind<add>}`, in PTX
    `cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group`.
    The element type (f32, f16, bf16) is the tensor map's.
  }];
  let arguments = (ins WsGemm_SharedPtr:$src, WsGemm_TmaDescriptor:$tensor_map,
                       Variadic<I32>:$coordinates,
                       WsGemm_StorePipelineType:$pipeline,
                       OptionalAttr<Epi_StoreReduceKindAttr>:$reduce);
  let assemblyFormat = [{
    $src `to` $tensor_map `[` $coordinates `]`
    (`reduce` qualified($reduce)^)? `in` $pipeline attr-dict `:`
    qualified(type($tensor_map)) `,` qualified(type($pipeline))
  }];
  let hasVerifier = 1;
}

def WsGemm_StoreAcquireOp : WsGemm_StorePipelineOp<"store_acquire"> {
  let summary = "wait until the staging buffer about to be reused was read";
  let description = [{
    Runs in the `mma` role, by the storing thread: waits until at most
    `stages - 1` committed store batches still read shared memory, so the
    oldest staging buffer may be overwritten (CUTLASS
    PipelineTmaStore::producer_acquire). Waiting before `stages` batches were
    committed returns at once, so the lowering may always emit it.

    ```mlir
    wsgemm.store_acquire %sp : !wsgemm.store_pipeline<2>
    ```
    becomes `cp.async.bulk.wait_group.read 1;` (stages - 1)
  }];
}

def WsGemm_StoreWaitOp : WsGemm_PipelineOp<"store_wait", [BarrierEffects]> {
  let summary = "wait until at most `pending` store batches still read smem";
  let description = [{
    Runs in the `mma` role, by the storing thread: waits until at most
    `pending` committed store batches (the most recent ones) still read
    their shared-memory buffers. `store_acquire` is `pending = stages - 1`;
    kernels that hold a store back (DelayTmaStore) or hand a staging buffer
    to another pipeline (ReuseSmemC refills C's buffer after D's store read
    it) wait for a smaller count. `pending` is in [0, stages).

    ```mlir
    wsgemm.store_wait %sp {pending = 0} : !wsgemm.store_pipeline<2>
    ```
    becomes `cp.async.bulk.wait_group.read 0;`
  }];
  let arguments = (ins WsGemm_StorePipelineType:$pipeline, I32Attr:$pending);
  let assemblyFormat = [{
    $pipeline ` ` `{` `pending` `=` $pending `}` attr-dict `:`
    qualified(type($pipeline))
  }];
  let hasVerifier = 1;
}

def WsGemm_StoreTailOp : WsGemm_StorePipelineOp<"store_tail"> {
  let summary = "wait for all TMA stores before the kernel exits";
  let description = [{
    Runs in the `mma` role, by the storing thread, before it exits: waits
    until every committed bulk store completed (CUTLASS
    PipelineTmaStore::producer_tail), so shared memory is not released while
    the TMA unit still reads it.

    ```mlir
    wsgemm.store_tail %sp : !wsgemm.store_pipeline<2>
    ```
    becomes `cp.async.bulk.wait_group 0;`
  }];
}

//===----------------------------------------------------------------------===//
// Ordered sequence barriers
//===----------------------------------------------------------------------===//

def WsGemm_OrderBarrierCreateOp : WsGemm_PipelineOp<"order_barrier_create",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "allocate and initialize the mbarriers of an order barrier";
  let description = [{
    Creates an ordered sequence barrier of G groups (G from the result type):
    one mbarrier per group, each expecting `arrivals` arrivals (the threads of
    a group that run `wsgemm.order_arrive`: 128 for a warpgroup whose every
    thread arrives). Like `wsgemm.pipeline_create` it runs before
    `wsgemm.warp_specialize`, by one thread, and the barriers live at
    `barriers` (G 8-byte slots) when given.

    ```mlir
    %o = wsgemm.order_barrier_create in(%bars : !llvm.ptr<3>) {arrivals = 128}
        : !wsgemm.order_barrier<2>
    ```
    becomes, for each group `g`, by one thread:
    `mbarrier.init.shared::cta.b64 [bars + 8*g], 128;`
  }];
  let arguments = (ins Optional<WsGemm_SharedPtr>:$barriers, I64Attr:$arrivals);
  let results = (outs Res<WsGemm_OrderBarrierType, "", [MemAlloc]>:$barrier);
  let assemblyFormat = [{
    (`in` `(` $barriers^ `:` type($barriers) `)`)?
    ` ` `{` `arrivals` `=` $arrivals `}` attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def WsGemm_OrderWaitOp : WsGemm_PipelineOp<"order_wait", [BarrierEffects]> {
  let summary = "wait for a group's turn of an order barrier";
  let description = [{
    Waits until turn `turn` (0, 1, ...; an i32) of group `group` (an i32 in
    [0, G)) may start: for group 0 the previous group (G - 1) has ended its
    turn `turn - 1` (turn 0 starts at once), for group g > 0 group g - 1 has
    ended its turn `turn`. Every thread of the group runs it.

    ```mlir
    wsgemm.order_wait %o, %group, %turn : !wsgemm.order_barrier<2>
    ```
    becomes a try_wait.parity loop on barrier `group` for parity
    `(turn + (group == 0)) & 1`: the phases of barrier g complete once per
    turn of group g - 1, and before any arrival the phase of parity 1 counts
    as complete.
  }];
  let arguments = (ins WsGemm_OrderBarrierType:$barrier, I32:$group, I32:$turn);
  let assemblyFormat = [{
    $barrier `,` $group `,` $turn attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def WsGemm_OrderArriveOp : WsGemm_PipelineOp<"order_arrive", [BarrierEffects]> {
  let summary = "end a group's turn of an order barrier";
  let description = [{
    Ends the current turn of group `group` and hands the turn to the next
    group: each thread that runs it arrives once on barrier
    `(group + 1) mod G`, whose `arrivals` count these threads.

    ```mlir
    wsgemm.order_arrive %o, %group : !wsgemm.order_barrier<2>
    ```
    becomes `mbarrier.arrive.shared::cta.b64 _, [bars + 8*((group+1)%G)];`
  }];
  let arguments = (ins WsGemm_OrderBarrierType:$barrier, I32:$group);
  let assemblyFormat = [{
    $barrier `,` $group attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def WsGemm_WarpSpecializeOp : WsGemm_PipelineOp<"warp_specialize", [
    IsolatedFromAbove, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"RoleEndOp">]> {
  let summary = "run one region per warp role, concurrently";
  let description = [{
    The body of a warp-specialized kernel (like Triton's
    `ttg.warp_specialize`, CUTLASS's kernel-level role dispatch). Region `i`
    is the code of role `roles[i]`, run by `warps[i]` warps, which set their
    register budget to `regs[i]` (optional) on entry. Each region is isolated
    from above and receives the captured operands as block arguments of the
    same types.

    Warp layout the lowering produces (decided here, checked by the verifier):
    - the roles `load` and `epilogue_load` have exactly 1 warp each and share
      warpgroup 0 (warp 0: load, warp 1: epilogue_load, the other warps of
      that warpgroup idle), as in CUTLASS's producer warpgroup. Because
      `setmaxnreg` applies to a whole warpgroup, their `regs` must be equal;
    - the role `mma` is required and has a positive multiple of 4 warps (whole
      warpgroups, as wgmma needs); it takes warpgroups 1, 2, ... (warpgroup 0
      when there is no producer role);
    - the CTA has at most 32 warps (1024 threads), and with `regs` the total
      register budget fits the 65536 registers of an SM;
    - `regs` values are multiples of 8 in [24, 256] (setmaxnreg's range);
    - every captured `!wsgemm.pipeline` has both its producer and consumer
      role among `roles`.

    ```mlir
    wsgemm.warp_specialize (%p, %sp : !wsgemm.pipeline<4, load -> mma>,
                                     !wsgemm.store_pipeline<2>)
        roles [load, mma] warps [1, 8] regs [40, 232] {
    ^bb0(%lp: !wsgemm.pipeline<4, load -> mma>, %lsp: !wsgemm.store_pipeline<2>):
      ...
      wsgemm.role_end
    } {
    ^bb0(%cp: !wsgemm.pipeline<4, load -> mma>, %csp: !wsgemm.store_pipeline<2>):
      ...
      wsgemm.role_end
    }
    ```
    becomes a branch on `warp_id / 4` (and `warp_id % 4` in warpgroup 0),
    `setmaxnreg.dec.sync.aligned.u32 40;` / `setmaxnreg.inc.sync.aligned.u32
    232;` at the top of each role, and the regions' code.
  }];
  let arguments = (ins Variadic<AnyType>:$captures,
                       WsGemm_RoleArrayAttr:$roles,
                       DenseI32ArrayAttr:$warps,
                       OptionalAttr<DenseI32ArrayAttr>:$regs);
  let regions = (region VariadicRegion<SizedRegion<1>>:$partitions);
  let assemblyFormat = [{
    `(` ($captures^ `:` type($captures))? `)`
    `roles` custom<RoleList>($roles) `warps` $warps (`regs` $regs^)?
    attr-dict-with-keyword custom<RoleRegions>($partitions)
  }];
  let builders = [
    // Creates one region per role, each with one block whose arguments have
    // the captures' types and which ends in `wsgemm.role_end`. Pass an empty
    // `regs` for no register budgets.
    OpBuilder<(ins "::mlir::ValueRange":$captures,
                   "::llvm::ArrayRef<::mlir::wsgemm::Role>":$roles,
                   "::llvm::ArrayRef<int32_t>":$warps,
                   "::llvm::ArrayRef<int32_t>":$regs)>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The role of region `regionIndex`, if the op is well-formed there.
    std::optional<::mlir::wsgemm::Role> getRole(unsigned regionIndex);
    /// The region of `role`, or null.
    ::mlir::Region *getRoleRegion(::mlir::wsgemm::Role role);
    /// The warp count of `role`, or 0 if the op has no such role.
    int32_t getNumWarps(::mlir::wsgemm::Role role);
    /// The register budget of `role`, if any.
    std::optional<int32_t> getNumRegs(::mlir::wsgemm::Role role);

    /// Finds the warp_specialize region that (transitively) contains `op` and
    /// returns its role; std::nullopt when `op` is in no role region.
    static std::optional<::mlir::wsgemm::Role>
    getEnclosingRole(::mlir::Operation *op);
  }];
}

def WsGemm_RoleEndOp : WsGemm_PipelineOp<"role_end", [
    Pure, Terminator, HasParent<"WarpSpecializeOp">]> {
  let summary = "end of a warp role's code";
  let description = [{
    Terminates a role region of `wsgemm.warp_specialize`; the warps of the
    role are done (the lowering branches to the kernel's exit).

    ```mlir
    wsgemm.role_end
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEOPS_TD
