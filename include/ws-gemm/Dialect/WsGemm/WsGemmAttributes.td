//===- WsGemmAttributes.td - GEMM config attributes --------*- tablegen -*-===//
//
// Enums and the `#wsgemm.config` attribute of the declarative level: the
// knobs of CUTLASS's SM90 collective builders, every one optional. The
// `--wsgemm-plan` pass fills the unset ones (see Planning.h).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMATTRIBUTES_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMATTRIBUTES_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def WsGemm_Major : I32EnumAttr<"Major", "the contiguous dimension of an operand", [
      I32EnumAttrCase<"k_major", 0>,
      I32EnumAttrCase<"m_major", 1>,
      I32EnumAttrCase<"n_major", 2>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}
def WsGemm_MajorAttr : EnumAttr<WsGemm_Dialect, WsGemm_Major, "major">;

def WsGemm_Schedule : I32EnumAttr<"Schedule",
    "kernel schedule: how consumer warpgroups share CTA tiles", [
      // One consumer warpgroup per CTA tile (KernelTmaWarpSpecialized).
      I32EnumAttrCase<"warp_specialized", 0>,
      // Two consumer warpgroups split the tile's M (KernelTmaWarpSpecialized-
      // Cooperative).
      I32EnumAttrCase<"cooperative", 1>,
      // Two consumer warpgroups own alternate tiles and take turns in the
      // mainloop and the epilogue (KernelTmaWarpSpecializedPingpong).
      I32EnumAttrCase<"pingpong", 2>,
      // sm_8x only: no producer; every warp of two warpgroups copies the
      // stage k + S - 1 with cp.async, waits for stage k with
      // cp.async.wait_group + bar.sync and multiplies it (CUTLASS 2.x's
      // MmaMultistage, the non-warp-specialized baseline).
      I32EnumAttrCase<"multistage", 3>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}

def WsGemm_RasterOrder : I32EnumAttr<"RasterOrder",
    "order in which the tile scheduler walks output tiles", [
      I32EnumAttrCase<"along_m", 0>,
      I32EnumAttrCase<"along_n", 1>,
      // CUTLASS's RasterOrderOptions::Heuristic: along_m when there are more
      // tiles along N than along M, else along_n.
      I32EnumAttrCase<"heuristic", 2>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}

def WsGemm_TileSchedulerKind : I32EnumAttr<"TileSchedulerKind",
    "how output tiles and their K ranges are dealt to persistent CTAs", [
      // Each CTA owns whole output tiles (CUTLASS's PersistentScheduler).
      I32EnumAttrCase<"data_parallel", 0>,
      // CUTLASS's hybrid stream-K: full waves of whole tiles, the remaining
      // tiles' MAC iterations shared equally by all CTAs, partial tiles
      // reduced through a global workspace (PersistentTileSchedulerSm90StreamK).
      I32EnumAttrCase<"stream_k", 1>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}

def WsGemm_OutputStore : I32EnumAttr<"OutputStore",
    "how the epilogue writes D and aux matrices to global memory", [
      // One thread per warpgroup issues a TMA bulk store of each staged
      // subtile (CUTLASS's SM90 TMA epilogue).
      I32EnumAttrCase<"tma", 0>,
      // Every epilogue thread copies its share of the staged subtile with
      // bounds-checked st.global: any row stride, any base address aligned
      // to the element.
      I32EnumAttrCase<"direct", 1>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}

def WsGemm_OperandLoad : I32EnumAttr<"OperandLoad",
    "how a producer brings an input matrix (A, B, C, aux) to shared memory", [
      // One elected thread issues TMA loads of whole boxes (CUTLASS's
      // KernelTmaWarpSpecialized*): 16-byte aligned bases and row strides.
      I32EnumAttrCase<"tma", 0>,
      // The producer warps copy the tile with cp.async (CUTLASS's
      // KernelCpAsyncWarpSpecialized*), `align_a`/`align_b` bytes at a time:
      // any base and row stride aligned to that many bytes.
      I32EnumAttrCase<"cp_async", 1>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}

def WsGemm_CopyOut : I32EnumAttr<"CopyOut",
    "which warps copy the epilogue's staged subtiles out with st.global "
    "(direct stores)", [
      // The consumer warpgroups, after each subtile's shared-memory writes.
      I32EnumAttrCase<"mma", 0>,
      // The load warps (sm_8x warp-specialized): the consumers stage a
      // tile's subtiles and go on to the next tile's mainloop; the load
      // warps copy them out once they have issued that tile's k-tiles.
      I32EnumAttrCase<"load", 1>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Config parameters: every knob is optional and prints only when set.
//===----------------------------------------------------------------------===//

// A bracketed list of integers, `[128, 256, 64]`; empty when unset.
class WsGemm_IntListParameter<string desc>
    : OptionalArrayRefParameter<"int64_t", desc> {
  let parser = [{ parseIntList($_parser) }];
  let printer = [{ printIntList($_printer, $_self) }];
}

class WsGemm_OptIntParameter<string desc>
    : OptionalParameter<"std::optional<int64_t>", desc> {
  let parser = [{ parseInt($_parser) }];
  let printer = [{ $_printer << *$_self }];
}

class WsGemm_OptBoolParameter<string desc>
    : OptionalParameter<"std::optional<bool>", desc> {
  let parser = [{ parseBool($_parser) }];
  let printer = [{ $_printer << (*$_self ? "true" : "false") }];
}

class WsGemm_OptEnumParameter<EnumAttrInfo enumInfo, string desc>
    : OptionalParameter<"std::optional<" # enumInfo.cppNamespace # "::"
                        # enumInfo.className # ">", desc> {
  let parser = "parseEnumKeyword<" # enumInfo.cppNamespace
               # "::" # enumInfo.className # ">($_parser, "
               # enumInfo.cppNamespace # "::" # enumInfo.stringToSymbolFnName
               # ", \"" # !interleave(!foreach(c, enumInfo.enumerants, c.str), ", ")
               # "\")";
  let printer = "$_printer << " # enumInfo.cppNamespace # "::"
                # enumInfo.symbolToStringFnName # "(*$_self)";
}

def WsGemm_ConfigAttr : AttrDef<WsGemm_Dialect, "Config"> {
  let mnemonic = "config";
  let summary = "CUTLASS builder knobs of a warp-specialized GEMM";
  let description = [{
    Every knob is optional; `--wsgemm-plan` fills the unset ones with
    CUTLASS's builder defaults and checks the result (Planning.h lists each
    default and where it comes from). Knobs, in CUTLASS terms:

    - `tile = [M, N, K]`: CTA tile (TileShape_MNK).
    - `cluster = [M, N, K]`: cluster shape; only `[1, 1, 1]` for now.
    - `stages`: mainloop (A/B) pipeline stages (StageCount).
    - `schedule`: `warp_specialized` | `cooperative` | `pingpong` |
      `multistage` (sm_8x: no producer warps; every warp copies and
      multiplies, the tile's rows split as cooperative's).
    - `persistent`: persistent tile scheduler (one CTA per SM loops over tiles).
    - `raster`: `along_m` | `along_n` | `heuristic` tile order.
    - `swizzle`: max_swizzle_size of the tile scheduler (1, 2, 4 or 8).
      A persistent kernel that sets neither `raster` nor `swizzle` takes
      both at launch, in its `tile_order` parameter (docs/manifest.md): the
      runtime picks them per problem shape.
    - `epi_tile = [M, N]`: epilogue subtile (EpilogueTile_MN).
    - `stages_c`, `stages_d`: epilogue load (C, aux) and store (D) buffers.
    - `fragment_size`: accumulator elements visited per EVT step per thread.
    - `reuse_smem_c`: D's SMEM buffers alias C's (ReuseSmemC).
    - `delay_tma_store`: issue each subtile's TMA store one subtile late.
    - `producer_regs`, `consumer_regs`: setmaxnreg budgets of the producer
      and consumer warpgroups (absent: no setmaxnreg).
    - `promotion_interval`: fp8 only. Absent or 0: fast accumulation, wgmma
      accumulates the whole K in its accumulator registers (CUTLASS's
      FP8FastAccum schedules). N >= 1: promoted accumulation, wgmma
      accumulates N k-tiles into a partial accumulator, which is then added
      into a second f32 accumulator and cleared (CUTLASS's
      mma_promotion_interval, DeepGEMM's per-k-block promotion): Hopper's
      fp8 wgmma keeps fewer bits of its running sum than f32, so long K
      loses accuracy without it. Costs a second accumulator's registers
      and a wgmma drain per promotion.
    - `block_scaling = true`: fp8 only, DeepSeek-V3's block-wise scaling
      along K. The kernel takes two more f32 tensors: `block_scale_a`, one
      scale per row of A per 128 of K, stored ceil(K/128) x M (M
      contiguous), and `block_scale_b`, one per 128 x 128 block of B,
      stored ceil(N/128) x ceil(K/128) (K blocks contiguous). Every k-tile
      (tile K = 128) is promoted: total += partial * scale_a[kb][row] *
      scale_b[col / 128][kb]. Implies `promotion_interval = 1`
      (docs/fp8.md).
    - `split_k = S`: each output tile's K range is split S ways over CTAs;
      the partial accumulators are summed in split order through a global
      f32 workspace (serial reduction), and the last split runs the
      epilogue once (absent: 1, no split). docs/stream-k.md.
    - `scheduler`: `data_parallel` | `stream_k` tile scheduler (absent:
      data_parallel, unless the gemm has a static shape and the planner's
      heuristic picks stream_k for it; docs/stream-k.md).
    - `store`: `tma` | `direct`, how D and aux matrices reach global
      memory (absent: tma, except that the planner picks direct for a static
      shape whose output rows TMA cannot store). `tma`: one thread issues a
      TMA bulk store of
      each staged subtile. `direct`: every epilogue thread copies its share
      of the staged subtile with bounds-checked `st.global`, so an output's
      rows may have any stride and its base need only be aligned to the
      element: what TMA cannot store, such as an f16 LM head with N =
      50257 (rows of 100514 bytes). Excludes `reuse_smem_c` and
      `delay_tma_store` (both order TMA stores); docs/manifest.md, "matrix".
    - `warp_stores`: with `store = tma`, each warp stores the 16 rows of a
      subtile it holds, from its own slice of the staging buffer, with no
      warpgroup barrier around the write and the store (NVIDIA's own fp8
      kernels do so); false: one thread stores the warpgroup's 64 rows
      after two warpgroup barriers per subtile (CUTLASS). Absent: true for
      an 8-bit D, where it measured +2% at 8192 x 8192 x 1024, else false
      (a 16-bit D lost up to 1%: docs/perf-notes.md). Excludes
      `reuse_smem_c` (a C stage goes back after the warpgroup's store) and
      `store = direct`.
    - `load_a`, `load_b`: `tma` | `cp_async`, how the mainloop's producer
      loads A and B (absent: tma). `cp_async`: the producer warps copy the
      tile into the same 128B-swizzled stages with `cp.async` (zero fill
      past M, N and K), each stage's full barrier completed by every
      producer thread's `cp.async.mbarrier.arrive.noinc`
      (CpAsyncProducer.cpp): operands TMA cannot describe, such as an
      M-major A with an odd M, a leading dimension that is not a multiple
      of 16 bytes or a base address inside a row (a slice). Not with a
      cluster that multicasts the operand; 16-bit operands only.
    - `align_a`, `align_b`: with `load_* = cp_async`, the alignment in
      bytes (2, 4, 8 or 16) that the operand's base address, leading
      dimension and batch stride must have; the copies are that wide
      (16: `cp.async.cg`, 8 and 4: `cp.async.ca`, 2: `ld.global` +
      `st.shared`). Absent: the element size (any 16-bit operand). The
      runtime refuses a tensor that breaks it before launch.
    - `load_c`: `tma` | `cp_async`, how the epilogue-load warp brings C and
      every `aux_load` matrix to shared memory (absent: tma on sm_90a,
      cp_async on sm_8x, which has no TMA). `cp_async`: its 32 lanes copy
      each subtile into the layout TMA would write (zero fill past M and
      N) and arrive with `cp.async.mbarrier.arrive.noinc` (EpilogueLoads.cpp):
      a C or aux matrix whose row stride is not a multiple of 16 bytes
      (an LM head's odd N), or a slice.
    - `align_c`: with `load_c = cp_async`, the alignment in bytes (2, 4, 8
      or 16) of C's and every aux load's base, leading dimension and
      batch stride, and the copies' width. Absent: the largest element
      size among them on sm_90a, 16 on sm_8x.
    - `ctas_per_sm`: 1 or 2, the CTAs the kernel is built to keep resident
      on one SM (absent: 1). 2 halves what a CTA may take: shared memory
      (the stage count the planner picks fits 113 KiB) and registers (80
      per thread at launch for 384 threads; the default setmaxnreg budgets
      split them: 40 for the producer, 96 for each consumer). The kernel is compiled with `.minnctapersm 2` and its manifest
      says `grid.ctas_per_sm = 2`: a persistent grid launches two CTAs per
      SM. sm_90a only. What it is for: latency-bound kernels that one CTA
      cannot keep busy, such as the mixed-input decode tiles, whose two
      resident CTAs overlap each other's prologue, split-K hand-off and
      epilogue (docs/mixed-input.md).
    - `warp_columns`: sm_8x only, 1, 2 or 4: how a consumer warpgroup's
      four warps share its rows x tile N of accumulators. 1: wgmma's
      layout, warp w holds rows 16 w .. 16 w + 15 of every 64 rows, all
      columns (a 32 x 128 warp tile in a 128 x 128 warpgroup). 2: two
      columns of two warps, each holding half the columns (64 x 64 in that
      warpgroup, 32 x 64 in a cooperative one), as CUTLASS's sm_80 warp
      tiles: fewer ldmatrix per mma.sync (docs/perf-notes.md). 4: four
      columns of one warp, each holding all the warpgroup's rows and a
      quarter of the columns (64 x 64 in a 64-row warpgroup of a 128 x 256
      multistage tile, CUTLASS's own there; multistage only). Absent: the
      planner's pick (docs/limits.md). 2 and 4 need tile N / warp_columns
      a multiple of 16 and of epi N.
    - `copy_out`: sm_8x, schedule = warp_specialized only: which warps copy
      the staged output subtiles (D, aux stores) to global memory. `mma`:
      the consumer warpgroup, after each subtile. `load`: the load warps,
      so the consumers stage the whole tile and start the next tile's
      mainloop at once; each subtile slot has a full/empty mbarrier pair,
      and the load warps copy a tile out once they have issued the next
      tile's k-tiles (while the ring holds `stages` k-tiles of work for the
      consumers). Needs a store ring (`stages_d`) of the tile's subtiles
      for the consumers not to wait. Absent: the planner's pick, `load` for
      a static K up to 1024 (docs/limits.md).

    ```mlir
    #wsgemm.config<tile = [128, 256, 64], load_a = cp_async, align_a = 2>
    ```

    ```mlir
    #wsgemm.config<tile = [128, 256, 64], cluster = [1, 1, 1], stages = 4,
                   schedule = cooperative, persistent = true, raster = along_n,
                   swizzle = 1, epi_tile = [128, 32], stages_c = 4,
                   stages_d = 2, fragment_size = 16, reuse_smem_c = false,
                   delay_tma_store = true, producer_regs = 40,
                   consumer_regs = 232>
    ```
  }];
  let parameters = (ins
    WsGemm_IntListParameter<"CTA tile [M, N, K]">:$tile,
    WsGemm_IntListParameter<"cluster shape [M, N, K]">:$cluster,
    WsGemm_OptIntParameter<"mainloop pipeline stages">:$stages,
    WsGemm_OptEnumParameter<WsGemm_Schedule, "kernel schedule">:$schedule,
    WsGemm_OptBoolParameter<"persistent tile scheduler">:$persistent,
    WsGemm_OptEnumParameter<WsGemm_RasterOrder, "raster order">:$raster,
    WsGemm_OptIntParameter<"tile scheduler swizzle">:$swizzle,
    WsGemm_IntListParameter<"epilogue subtile [M, N]">:$epi_tile,
    WsGemm_OptIntParameter<"epilogue load stages">:$stages_c,
    WsGemm_OptIntParameter<"epilogue store stages">:$stages_d,
    WsGemm_OptIntParameter<"EVT fragment size">:$fragment_size,
    WsGemm_OptBoolParameter<"D reuses C's SMEM">:$reuse_smem_c,
    WsGemm_OptBoolParameter<"delay TMA stores by one subtile">:$delay_tma_store,
    WsGemm_OptIntParameter<"producer warpgroup registers">:$producer_regs,
    WsGemm_OptIntParameter<"consumer warpgroup registers">:$consumer_regs,
    WsGemm_OptIntParameter<"fp8 accumulation promotion interval (k-tiles)">:$promotion_interval,
    WsGemm_OptIntParameter<"K splits per output tile">:$split_k,
    WsGemm_OptEnumParameter<WsGemm_TileSchedulerKind, "tile scheduler">:$scheduler,
    WsGemm_OptBoolParameter<"fp8 block-wise scaling along K">:$block_scaling,
    WsGemm_OptEnumParameter<WsGemm_OutputStore, "how outputs are stored">:$store,
    WsGemm_OptBoolParameter<"each warp stores its own rows">:$warp_stores,
    WsGemm_OptEnumParameter<WsGemm_OperandLoad, "how A is loaded">:$load_a,
    WsGemm_OptEnumParameter<WsGemm_OperandLoad, "how B is loaded">:$load_b,
    WsGemm_OptIntParameter<"A's alignment in bytes (cp_async)">:$align_a,
    WsGemm_OptIntParameter<"B's alignment in bytes (cp_async)">:$align_b,
    WsGemm_OptEnumParameter<WsGemm_OperandLoad, "how C and aux matrices are loaded">:$load_c,
    WsGemm_OptIntParameter<"C's and aux loads' alignment in bytes (cp_async)">:$align_c,
    WsGemm_OptIntParameter<"CTAs resident per SM">:$ctas_per_sm,
    WsGemm_OptIntParameter<"sm_8x: consumer warps of a warpgroup along N">:$warp_columns,
    WsGemm_OptEnumParameter<WsGemm_CopyOut, "sm_8x: warps that copy staged outputs out">:$copy_out
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True when every knob is set, except the register budgets, which stay
    /// unset for schedules that do not rebalance registers, and raster and
    /// swizzle, which a persistent kernel may leave to the launch.
    bool isComplete() const;

    // Parameter parsers and printers used by the generated struct format.
    static ::mlir::FailureOr<::llvm::SmallVector<int64_t>>
    parseIntList(::mlir::AsmParser &parser);
    static void printIntList(::mlir::AsmPrinter &printer,
                             ::llvm::ArrayRef<int64_t> values);
    static ::mlir::FailureOr<std::optional<int64_t>>
    parseInt(::mlir::AsmParser &parser);
    static ::mlir::FailureOr<std::optional<bool>>
    parseBool(::mlir::AsmParser &parser);
    template <typename EnumT>
    static ::mlir::FailureOr<std::optional<EnumT>>
    parseEnumKeyword(::mlir::AsmParser &parser,
                     std::optional<EnumT> (*symbolize)(::llvm::StringRef),
                     ::llvm::StringRef expected) {
      ::llvm::SMLoc loc = parser.getCurrentLocation();
      ::llvm::StringRef keyword;
      if (parser.parseKeyword(&keyword))
        return ::mlir::failure();
      if (std::optional<EnumT> value = symbolize(keyword))
        return std::optional<EnumT>(*value);
      return parser.emitError(loc)
             << "expected one of " << expected << ", got '" << keyword << "'";
    }
  }];
}

//===----------------------------------------------------------------------===//
// Mixed-input GEMMs: a quantized A dequantized on its way into wgmma
//===----------------------------------------------------------------------===//

def WsGemm_ZeroPoint : I32EnumAttr<"ZeroPoint",
    "the integer subtracted from a quantized value before its scale", [
      // Signed values, no zero point: w = q * s (int8 per channel).
      I32EnumAttrCase<"none", 0>,
      // Unsigned 4-bit values with the fixed zero 8 ("b8 bias", symmetric
      // int4): w = (q - 8) * s.
      I32EnumAttrCase<"bias8", 1>,
      // Unsigned 4-bit values with a 4-bit zero point per (group, row)
      // (GPTQ / AWQ): w = (q - z[g][m]) * s[g][m].
      I32EnumAttrCase<"ui4", 2>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}

def WsGemm_DequantAttr : AttrDef<WsGemm_Dialect, "Dequant"> {
  let mnemonic = "dequant";
  let summary = "how a quantized A becomes the MMA's 16-bit type";
  let description = [{
    A mixed-input GEMM's quantized operand is A (the weight, M x K, K-major)
    and B (the activations) is f16 or bf16, the MMA type. Each element is
    dequantized in registers as `w = round(mma_type, (q - z) * s)`: the
    subtraction is exact (a small integer), the product is one rounded
    multiply (`mul.rn.bf16x2` / `mul.rn.f16x2`); the GEMM then accumulates
    `w * b` in f32 as any other (docs/mixed-input.md). With one scale per
    row (`group = 0`) the scale is the row's for all of K and multiplies
    the f32 accumulator after the K loop instead: `s * sum(q * b)`, the
    products exact and accumulated in f32, no rounding of the weight.

    - `scale`: the scales' type, equal to B's (bf16 or f16).
    - `group`: elements of K sharing one scale (and zero point) per row
      (0: one per row, "per channel"); the lowering takes 32, 64 and 128
      (GPTQ's and AWQ's) and, for 8-bit weights, 0.
    - `zero`: `ui4` (a 4-bit zero point per group and row, GPTQ/AWQ),
      `bias8` (the fixed zero 8: symmetric int4) or `none` (the signed
      i8 and f8E4M3FN weights: `w = round(mma_type, q * s)`, or `q` and
      the scale on the accumulator with `group = 0`).

    ```mlir
    wsgemm.gemm @w4 a(i4) b(bf16) d(bf16)
        dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> { ... }
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$scale,
    "int64_t":$group,
    EnumParameter<WsGemm_ZeroPoint>:$zero
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

include "ws-gemm/Dialect/WsGemm/WsGemmPipelineAttributes.td"

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMATTRIBUTES_TD
