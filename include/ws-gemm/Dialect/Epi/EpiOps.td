//===- EpiOps.td - Epilogue Visitor Tree ops ---------------*- tablegen -*-===//
//
// Leaves, compute, outputs and presets of an Epilogue Visitor Tree. Every op
// here is scalar: it describes the computation for one output element; the
// lowering maps it onto the accumulator fragments of each thread.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIOPS_TD
#define WSGEMM_DIALECT_EPI_EPIOPS_TD

include "ws-gemm/Dialect/Epi/EpiDialect.td"
include "ws-gemm/Dialect/Epi/EpiAttributes.td"
include "ws-gemm/Dialect/Epi/EpiInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Dialect/Arith/IR/ArithBase.td"
include "mlir/Dialect/Arith/IR/ArithOpsInterfaces.td"

// Ops with this trait must sit directly in an EpilogueOpInterface region.
def Epi_InEpilogue : NativeOpTrait<"InEpilogue"> {
  let cppNamespace = "::mlir::epi";
}

// The resource written by epilogue outputs (D, aux matrices, reductions).
def Epi_OutputResource : Resource<"::mlir::epi::OutputResource">;

class Epi_Op<string mnemonic, list<Trait> traits = []>
    : Op<Epi_Dialect, mnemonic, traits>;

// Leaves, outputs and presets: only meaningful inside an epilogue.
class Epi_EpilogueOp<string mnemonic, list<Trait> traits = []>
    : Epi_Op<mnemonic, traits # [Epi_InEpilogue]>;

// Memory element types a leaf may read or an output may write.
def Epi_MemElementType : AnyTypeOf<[F16, BF16, F32, F8E4M3FN, F8E5M2]>;
def Epi_ComputeType : AnyTypeOf<[F16, BF16, F32]>;
// Types the named activations accept (scalar float math anywhere).
def Epi_ActivationType : AnyTypeOf<[F16, BF16, F32, F64]>;

//===----------------------------------------------------------------------===//
// Leaves
//===----------------------------------------------------------------------===//

def Epi_LoadSrcOp : Epi_EpilogueOp<"load_src", [Pure]> {
  let summary = "read the source matrix C at (m, n, l) [Sm90SrcFetch]";
  let description = [{
    Reads C's element at the current output coordinate and converts it to the
    result (compute) type. C's element type is the enclosing op's C type; the
    enclosing op must declare a C operand.

    With `skip_if_zero "name"` the read is gated by the f32 kernel parameter
    `name` (an `epi.scalar param` name of the same epilogue): when that
    parameter is 0 at run time, C is not read at all (no TMA load, no SMEM
    traffic) and the op yields 0. This is CUTLASS's beta == 0 fast path
    (`is_C_load_needed`), and also avoids 0 * NaN when C is uninitialised.

    ```mlir
    %c  = epi.load_src : f32
    %c2 = epi.load_src skip_if_zero "beta" : f32
    ```
    Lowers to an SMEM read of the TMA-loaded C subtile (StagesC ring).
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$skip_if_zero);
  let results = (outs Epi_ComputeType:$result);
  let builders = [
    // An ungated read of C.
    OpBuilder<(ins "::mlir::Type":$result), [{
      build($_builder, $_state, result, ::mlir::StringAttr());
    }]>
  ];
  let assemblyFormat = [{
    (`skip_if_zero` $skip_if_zero^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Epi_ScalarOp : Epi_EpilogueOp<"scalar", [Pure]> {
  let summary = "a scalar broadcast to every element [Sm90ScalarBroadcast]";
  let description = [{
    A scalar from a compile-time attribute (`attr`), from f32 kernel parameters
    passed by value (`param`), or from f32 values in device memory (`ptr`). With
    several names the scalars are multiplied left to right, as fp8 scaling
    needs (scale_a * scale_b), like CUTLASS's multi-scalar broadcast. Names
    become parameters in the kernel's manifest. An `attr` value must fit the
    result type.

    ```mlir
    %alpha = epi.scalar param ["alpha"] : f32
    %s     = epi.scalar ptr ["scale_a", "scale_b"] : f32
    %two   = epi.scalar attr 2.0 : f32
    ```
  }];
  let arguments = (ins Epi_ScalarSourceProp:$source,
                       OptionalAttr<StrArrayAttr>:$names,
                       OptionalAttr<F64Attr>:$value);
  let results = (outs Epi_ComputeType:$result);
  let assemblyFormat = [{
    $source ($names^)? ($value^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

class Epi_VectorLeafOp<string mnemonic, string index, string cutlass>
    : Epi_EpilogueOp<mnemonic, [Pure]> {
  let summary = "read a vector indexed by " # index # " [" # cutlass # "]";
  let arguments = (ins StrAttr:$name, TypeAttrOf<Epi_MemElementType>:$elem_type);
  let results = (outs Epi_ComputeType:$result);
  let assemblyFormat = "$name attr-dict `:` $elem_type `->` type($result)";
  let hasVerifier = 1;
}

def Epi_LoadVecMOp : Epi_VectorLeafOp<"load_vec_m", "m",
                                      "Sm90ColBroadcast"> {
  let description = [{
    Reads element m of a vector of length M (per batch when the GEMM is
    batched): one value per row of D, broadcast along n. This is what CUTLASS
    calls a column broadcast and uses for its "PerRowBias".

    ```mlir
    %bias = epi.load_vec_m "bias" : f16 -> f32
    ```
  }];
}

def Epi_LoadVecNOp : Epi_VectorLeafOp<"load_vec_n", "n",
                                      "Sm90RowBroadcast"> {
  let description = [{
    Reads element n of a vector of length N (per batch when batched): one value
    per column of D, broadcast along m. CUTLASS calls this a row broadcast and
    uses it for its "PerColBias".

    ```mlir
    %bias = epi.load_vec_n "bias" : bf16 -> f32
    ```
  }];
}

def Epi_AuxLoadOp : Epi_EpilogueOp<"aux_load", [Pure]> {
  let summary = "read an auxiliary M x N matrix at (m, n, l) [Sm90AuxLoad]";
  let description = [{
    ```mlir
    %residual = epi.aux_load "residual" : f16 -> f32
    ```
    The matrix is row-major (n contiguous) with D's extents; it is loaded by TMA
    alongside C.
  }];
  let arguments = (ins StrAttr:$name, TypeAttrOf<Epi_MemElementType>:$elem_type);
  let results = (outs Epi_ComputeType:$result);
  let assemblyFormat = "$name attr-dict `:` $elem_type `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute: activations (lowered to arith/math by --epi-lower-activations)
//===----------------------------------------------------------------------===//

// Activations are plain scalar math: they may appear anywhere, not only in
// epilogues. --epi-lower-activations expands each into arith/math with
// CUTLASS's formula (include/cutlass/epilogue/thread/activation.h) in the
// operand's type; the per-op descriptions give the exact op sequence.
class Epi_ActivationOp<string mnemonic, string formula, list<Trait> traits = []>
    : Epi_Op<mnemonic, traits # [Pure, SameOperandsAndResultType]> {
  let summary = "activation: " # formula;
  let arguments = (ins Epi_ActivationType:$input);
  let results = (outs Epi_ActivationType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

// The activations built on exp, erf or tanh take arith's fastmath flags.
// With `afn` (approximate functions) --epi-lower-activations evaluates them
// in f32 with the hardware's approximate instructions instead of libdevice's
// sequences: sigmoid and silu with ex2.approx and rcp.approx (a few ulp),
// tanh, gelu_taylor and gelu (in the tanh form) with tanh.approx.f32
// (relative error about 2^-11). The manifest marks such nodes `approx` so
// the reference check allows for it. f64 ignores the flag.
class Epi_TranscendentalActivationOp<string mnemonic, string formula>
    : Epi_ActivationOp<mnemonic, formula,
                       [DeclareOpInterfaceMethods<ArithFastMathInterface>]> {
  let arguments = (ins Epi_ActivationType:$input,
                       DefaultValuedAttr<Arith_FastMathAttr,
                         "::mlir::arith::FastMathFlags::none">:$fastmath);
  let assemblyFormat = [{
    $input (`fastmath` `` $fastmath^)? attr-dict `:` type($result)
  }];
}

def Epi_IdentityOp : Epi_ActivationOp<"identity", "x"> {
  let description = [{
    CUTLASS `Identity`. Folds to its operand.
  }];
  let hasFolder = 1;
}

def Epi_ReluOp : Epi_ActivationOp<"relu", "max(x, 0), NaN-propagating"> {
  let description = [{
    CUTLASS `ReLu`: `maximum<T, PropagateNaN = true>(x, 0)` (PTX
    `max.NaN.f32`). Lowers to `arith.maximumf %x, 0`, which returns NaN for a
    NaN input like CUTLASS; `arith.maxnumf` would turn NaN into 0.
  }];
}

// An activation parameter (clamp's bounds, leaky_relu's alpha,
// threshold_relu's threshold and upper bound) is either a compile-time
// constant, an F64 attribute that folds into the formula, or a launch-time
// value, an operand of the operand's type (typically an `epi.scalar param`
// or `ptr`, CUTLASS's runtime `Arguments`). The custom<ActivationParam>
// directive prints and parses either: `lower 0.0` or `lower %lo`. Each
// parameter is given exactly once (the verifier refuses both or neither).
class Epi_ParamActivationOp<string mnemonic, string formula,
                            list<Trait> traits = []>
    : Epi_ActivationOp<mnemonic, formula, traits> {
  let hasVerifier = 1;
}

def Epi_ClampOp : Epi_ParamActivationOp<"clamp",
    "min(max(x, lower), upper), NaN-propagating", [AttrSizedOperandSegments]> {
  let description = [{
    CUTLASS `Clamp` (its `lower_bound`, `upper_bound`): NaN-propagating max
    then min. Lowers to `arith.minimumf (arith.maximumf %x, lower), upper`.

    Each bound is a constant (an attribute, folded into the code) or a
    value computed at launch (an operand of the operand's type, e.g. an
    `epi.scalar param`, which becomes a kernel parameter). Each is given
    once, as one or the other. The verifier requires lower <= upper when
    both are constants; launch-time bounds are not checked (with
    lower > upper the result is upper, as the formula says).

    ```mlir
    %y = epi.clamp %x lower 0.0 upper 6.0 : f32
    %hi = epi.scalar param ["clamp_hi"] : f32
    %z = epi.clamp %x lower 0.0 upper %hi : f32
    ```
  }];
  let arguments = (ins Epi_ActivationType:$input,
                       Optional<Epi_ActivationType>:$lower_operand,
                       Optional<Epi_ActivationType>:$upper_operand,
                       OptionalAttr<F64Attr>:$lower,
                       OptionalAttr<F64Attr>:$upper);
  let assemblyFormat = [{
    $input `lower` custom<ActivationParam>($lower_operand, $lower)
    `upper` custom<ActivationParam>($upper_operand, $upper) attr-dict
    `:` type($result)
  }];
}

def Epi_LeakyReluOp : Epi_ParamActivationOp<"leaky_relu",
    "x > 0 ? x : x * leaky_alpha"> {
  let description = [{
    CUTLASS `LeakyReLU` (its `leaky_alpha`). Lowers to `arith.cmpf ogt`,
    `arith.mulf` and `arith.select`; a NaN input yields NaN (NaN * alpha).
    `leaky_alpha` is a constant or a launch-time operand (see `epi.clamp`).

    ```mlir
    %y = epi.leaky_relu %x leaky_alpha 0.1 : f32
    %a = epi.scalar param ["leaky_alpha"] : f32
    %z = epi.leaky_relu %x leaky_alpha %a : f32
    ```
  }];
  let arguments = (ins Epi_ActivationType:$input,
                       Optional<Epi_ActivationType>:$leaky_alpha_operand,
                       OptionalAttr<F64Attr>:$leaky_alpha);
  let assemblyFormat = [{
    $input `leaky_alpha`
    custom<ActivationParam>($leaky_alpha_operand, $leaky_alpha) attr-dict
    `:` type($result)
  }];
}

def Epi_ThresholdReluOp : Epi_ParamActivationOp<"threshold_relu",
    "min(x <= threshold ? 0 : x, upper_bound)", [AttrSizedOperandSegments]> {
  let description = [{
    CUTLASS `ThresholdReLU`: values at or below `threshold` become 0, the
    rest are capped at `upper_bound` with a NaN-propagating minimum. Without
    `upper_bound` the cap is the largest finite value of the operand type
    (CUTLASS's default `numeric_limits<T>::max()`), so +inf still becomes
    that value. Lowers to `arith.cmpf ole`, `arith.select`, `arith.minimumf`.
    `threshold` and `upper_bound` are constants or launch-time operands
    (see `epi.clamp`).

    ```mlir
    %y = epi.threshold_relu %x threshold 0.5 : f32
    %z = epi.threshold_relu %x threshold 0.0 upper_bound 6.0 : f32
    %t = epi.scalar param ["threshold"] : f32
    %w = epi.threshold_relu %x threshold %t upper_bound 6.0 : f32
    ```
  }];
  let arguments = (ins Epi_ActivationType:$input,
                       Optional<Epi_ActivationType>:$threshold_operand,
                       Optional<Epi_ActivationType>:$upper_bound_operand,
                       OptionalAttr<F64Attr>:$threshold,
                       OptionalAttr<F64Attr>:$upper_bound);
  let assemblyFormat = [{
    $input `threshold` custom<ActivationParam>($threshold_operand, $threshold)
    (`upper_bound` custom<ActivationParam>($upper_bound_operand,
                                           $upper_bound)^)?
    attr-dict `:` type($result)
  }];
}

def Epi_GeluOp : Epi_TranscendentalActivationOp<"gelu",
    "0.5 x (1 + erf(x / sqrt(2)))"> {
  let description = [{
    CUTLASS `GELU` (erf form): `(0.5 * x) * (1 + erf(x * 0.70710678))`. For
    f16/bf16 operands erf is evaluated in f32 (CUTLASS calls `erff` on the
    widened value) and truncated back.

    With `fastmath<afn>`: the tanh form evaluated with `tanh.approx.f32`,
    `0.5 * fma(x, tanh(x * fma(k0*k1 * x, x, k0)), x)` (gelu_taylor's f32
    form); the tanh form differs from the erf form by at most 4.7e-4 (at
    x = -2.70), and tanh.approx adds up to 2^-11 |x| / 2.

    ```mlir
    %y = epi.gelu %x fastmath<afn> : f32
    ```
  }];
}

def Epi_GeluTaylorOp : Epi_TranscendentalActivationOp<"gelu_taylor",
    "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))"> {
  let description = [{
    CUTLASS `GELU_taylor` (tanh form, k0 = sqrt(2/pi) = 0.7978845608028654,
    k1 = 0.044715). For f32 it uses CUTLASS's fma form
    `0.5 * fma(x, tanh(x * fma(k0*k1 * x, x, k0)), x)`; for f16 its
    `Array<half_t>` form `(x * 0.5) * (1 + tanh((k0 * x) * fma(k1 * x, x, 1)))`;
    otherwise `(0.5 * x) * (1 + tanh((k0 * x) * (1 + (k1 * x) * x)))`.
  }];
}

def Epi_SiluOp : Epi_TranscendentalActivationOp<"silu",
    "x * sigmoid(x)"> {
  let description = [{
    CUTLASS `SiLu`: `x * (1 / (1 + exp(-x)))`. With `fastmath<afn>` the
    exp is `ex2.approx(-x * log2(e))` and the reciprocal `rcp.approx`:
    two MUFU instructions and two FP32 ones instead of libdevice's expf and
    an IEEE reciprocal.

    ```mlir
    %y = epi.silu %x fastmath<afn> : f32
    ```
  }];
}

def Epi_SigmoidOp : Epi_TranscendentalActivationOp<"sigmoid",
    "1 / (1 + exp(-x))"> {
  let description = [{
    CUTLASS `Sigmoid` (default form, not CUTLASS_USE_TANH_FOR_SIGMOID):
    `1 / (1 + exp(-x))`. With `fastmath<afn>`: the same formula with
    `ex2.approx` and `rcp.approx` (as silu).
  }];
}

def Epi_TanhOp : Epi_TranscendentalActivationOp<"tanh", "tanh(x)"> {
  let description = [{
    CUTLASS `Tanh` (`fast_tanh`): lowers to `math.tanh` (libdevice's
    `__nv_tanhf`); with `fastmath<afn>` to `tanh.approx.f32`, which is what
    CUTLASS's `fast_tanh` executes on sm_75 and later.
  }];
}

def Epi_HardSwishOp : Epi_ActivationOp<"hardswish",
    "x * min(max(x + 3, 0), 6) / 6"> {
  let description = [{
    CUTLASS `HardSwish`: relu6 = min(max(x + 3, 0), 6) with CUTLASS's
    non-NaN-propagating min/max (`fmaxf`/`fminf` for f32, hence
    `arith.maxnumf`/`arith.minnumf`; the `a < b ? b : a` select form for
    other types). Then `(x * relu6) * 0.16666667` for f32 and f16, and
    `(x * relu6) / 6` otherwise, as CUTLASS's specialisations do.
  }];
}

def Epi_ConvertOp : Epi_Op<"convert", [Pure]> {
  let summary = "float conversion with an explicit rounding mode";
  let description = [{
    Converts between float types with the given IEEE rounding mode (default
    `rn`). Narrowing to an 8-bit float saturates to the finite range.

    ```mlir
    %h = epi.convert %x rz : f32 -> f16
    ```
    PTX: `cvt.rz.f16.f32`.
  }];
  let arguments = (ins AnyFloat:$input,
                       DefaultValuedProp<Epi_RoundingModeProp,
                                         "::mlir::epi::RoundingMode::rn">:$rounding);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = [{
    $input ($rounding^)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

def Epi_StoreOp : Epi_EpilogueOp<"store",
    [MemoryEffects<[MemWrite<Epi_OutputResource>]>]> {
  let summary = "store D at (m, n, l), converting to D's element type";
  let description = [{
    The D output. The value is converted to the enclosing op's D element type
    with the rounding mode (default `rn`). At most one per epilogue.

    With `reduce add|min|max` the store combines with D's old value instead
    of overwriting it, `D = D op value` (value converted to D's type first),
    without D being read into the kernel: CUTLASS's TMA store with a
    ReductionOp. D is then an input and an output of the kernel. PTX has
    `add` for f32, f16 and bf16 D and `min`/`max` for f16 and bf16 only
    (as vectors, so not with `store = direct`); 8-bit D has no reduction.

    ```mlir
    epi.store %d : f32
    epi.store %d rz : f32
    epi.store %d reduce add : f32
    epi.store %d reduce max rz : f32
    ```
    Lowers to a conversion, R2S (stmatrix for 16-bit D), and a TMA store
    (`cp.async.bulk.tensor`), or with `reduce` a TMA reduction
    (`cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile`); with
    `store = direct`, per element `st.global` or `red.global.add.f32` /
    `red.global.add.noftz.bf16`.
  }];
  let arguments = (ins Epi_ComputeType:$value,
                       DefaultValuedProp<Epi_RoundingModeProp,
                                         "::mlir::epi::RoundingMode::rn">:$rounding,
                       DefaultValuedProp<Epi_StoreReduceKindProp,
                           "::mlir::epi::StoreReduceKind::none">:$reduce);
  let assemblyFormat = [{
    $value (`reduce` $reduce^)? ($rounding^)? attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the store combines with D's old value (`reduce` set).
    bool isReduce() {
      return getReduce() != ::mlir::epi::StoreReduceKind::none;
    }
  }];
}

def Epi_AuxStoreOp : Epi_EpilogueOp<"aux_store",
    [MemoryEffects<[MemWrite<Epi_OutputResource>]>]> {
  let summary = "store an auxiliary M x N matrix [Sm90AuxStore]";
  let description = [{
    ```mlir
    epi.aux_store %z, "preact" : f32 -> f16
    ```
    Row-major (n contiguous), D's extents, converted with `rn`.
  }];
  let arguments = (ins Epi_ComputeType:$value, StrAttr:$name,
                       TypeAttrOf<Epi_MemElementType>:$elem_type);
  let assemblyFormat = [{
    $value `,` $name attr-dict `:` type($value) `->` $elem_type
  }];
  let hasVerifier = 1;
}

class Epi_ReduceOp<string mnemonic, string resultShape, string cutlass>
    : Epi_EpilogueOp<mnemonic, [MemoryEffects<[MemWrite<Epi_OutputResource>]>]> {
  let summary = "reduce into " # resultShape # " [" # cutlass # "]";
  let arguments = (ins Epi_ReduceKindProp:$kind, Epi_ComputeType:$value,
                       StrAttr:$name);
  let assemblyFormat = "$kind $value `,` $name attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Epi_ReduceToVecMOp : Epi_ReduceOp<"reduce_to_vec_m",
    "a vector indexed by m (reducing across n)", "Sm90ColReduction"> {
  let description = [{
    One f32 per row m of D (per batch when batched): the reduction of the value
    over every n. The output vector must be initialised by the caller to the
    identity of the kind (0 for sum and absmax, -inf for max, +inf for min); the
    kernel combines into it.

    ```mlir
    epi.reduce_to_vec_m max %z, "row_max" : f32
    ```
  }];
}

def Epi_ReduceToVecNOp : Epi_ReduceOp<"reduce_to_vec_n",
    "a vector indexed by n (reducing across m)", "Sm90RowReduction"> {
  let description = [{
    One f32 per column n of D (per batch when batched): the reduction of the
    value over every m. Initialised by the caller as for `reduce_to_vec_m`.

    ```mlir
    epi.reduce_to_vec_n sum %z, "col_sum" : f32
    ```
  }];
}

def Epi_ReduceToScalarOp : Epi_ReduceOp<"reduce_to_scalar",
    "one scalar", "Sm90ScalarReduction"> {
  let description = [{
    One f32 for the whole problem (all m, n and l), e.g. the amax of fp8
    scaling. Initialised by the caller as for `reduce_to_vec_m`.

    ```mlir
    epi.reduce_to_scalar absmax %d, "amax_d" : f32
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Presets
//===----------------------------------------------------------------------===//

def Epi_FusionOp : Epi_EpilogueOp<"fusion",
    [MemoryEffects<[MemWrite<Epi_OutputResource>]>]> {
  let summary = "a CUTLASS SM90 FusionOperation, expanded by --epi-expand-presets";
  let description = [{
    Names one of CUTLASS's fusion operations (include/cutlass/epilogue/fusion/
    operations.hpp) applied to the accumulator. `--epi-expand-presets` rewrites
    it into the equivalent EVT with exactly CUTLASS's semantics (see
    docs/epi.md for every preset's expansion). Parameters take CUTLASS's
    argument names: alpha, beta (kernel parameters, or per-row/per-column f32
    vectors for the PerRow/PerCol presets), scale_a, scale_b, scale_c,
    scale_d, scale_aux (device pointers), bias, aux, amax_d, amax_aux.

    `bias` and `aux` give the element types of the bias vector and the aux
    matrix; both default to the enclosing op's D type (CUTLASS's ElementBias
    and ElementAux default to ElementOutput). The operand must be f32.

    ```mlir
    epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<relu>
        bias f16 : f32
    ```
  }];
  let arguments = (ins Epi_FusionKindProp:$kind, F32:$acc,
                       OptionalAttr<Epi_ActivationAttr>:$activation,
                       OptionalAttr<TypeAttrOf<Epi_MemElementType>>:$bias_type,
                       OptionalAttr<TypeAttrOf<Epi_MemElementType>>:$aux_type);
  // Custom format: `$kind $acc (activation #epi.activation<..>)? (bias T)?
  // (aux T)? attr-dict : type($acc)`, written by hand because the generic
  // attribute parser would take the final `: f32` as the activation's type.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// The EVT on a fragment
//===----------------------------------------------------------------------===//

def Epi_FragmentType : VectorOfRankAndType<[1], [F32]>;

def Epi_VisitOp : Epi_Op<"visit", [
    SingleBlock,
    DeclareOpInterfaceMethods<Epi_EpilogueOpInterface>]> {
  let summary = "the EVT evaluated on one fragment of accumulator elements";
  let description = [{
    The epilogue of a kernel applied to a fragment: the elements of the wgmma
    accumulator one thread holds for (part of) an epilogue subtile. The body
    is the kernel's epilogue region unchanged; its leaves read the explicit
    operands instead of memory:
    - the region's block argument reads `$acc`;
    - `epi.load_src` reads the source named "C", `epi.load_vec_m` /
      `epi.load_vec_n` / `epi.aux_load` the source of their name, and
      `epi.scalar` with `param` or `pointer` source the product of the
      sources it names (`attr` scalars stay constants).
    A source is either a fragment (`vector<N x f32>`, element i belongs to
    accumulator element i: C and aux elements, broadcast vector elements at
    the element's row or column) or an `f32` that every element shares (a
    scalar). Each output op yields one fragment result, in `$output_names`
    order: "D" for `epi.store` (the f32 value, before D's conversion),
    the name of an `epi.aux_store` (before its conversion), the name of a
    reduction (the element's contribution, before masking and combining).

    The op knows nothing of shared memory, pipelines or warpgroups: the
    epilogue collective loads the sources and consumes the outputs, and
    `--epi-visit-fragments` turns the op into per-element code.

    ```mlir
    %d, %m = epi.visit %acc : vector<16xf32>
        sources(%c, %bias, %alpha : vector<16xf32>, vector<16xf32>, f32)
        names ["C", "bias", "alpha"] outputs ["D", "row_max"] d_type f16
        -> vector<16xf32>, vector<16xf32> {
    ^bb0(%a: f32):
      ...                       // the kernel's epi region
      epi.yield
    }
    ```
  }];
  let arguments = (ins Epi_FragmentType:$acc,
                       Variadic<AnyTypeOf<[F32, Epi_FragmentType]>>:$sources,
                       StrArrayAttr:$source_names,
                       StrArrayAttr:$output_names,
                       TypeAttr:$d_type,
                       OptionalAttr<TypeAttr>:$c_type);
  let results = (outs Variadic<Epi_FragmentType>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $acc `:` type($acc) `sources` `(` ($sources^ `:` type($sources))? `)`
    `names` $source_names `outputs` $output_names `d_type` $d_type
    (`c_type` $c_type^)? (`->` type($outputs)^)? attr-dict-with-keyword
    $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of accumulator elements the op visits.
    int64_t getFragmentSize() {
      return ::llvm::cast<::mlir::VectorType>(getAcc().getType())
          .getNumElements();
    }
    /// The source named `name`, or null.
    ::mlir::Value getSource(::llvm::StringRef name);
    /// The output named `name`, or null.
    ::mlir::Value getOutput(::llvm::StringRef name);
  }];
}

//===----------------------------------------------------------------------===//
// Terminator
//===----------------------------------------------------------------------===//

def Epi_YieldOp : Epi_EpilogueOp<"yield", [Pure, Terminator, ReturnLike]> {
  let summary = "terminates an epilogue region";
  let description = [{
    The last op of every epilogue region; it yields nothing (outputs are
    explicit ops).
  }];
  let assemblyFormat = "attr-dict";
}

#endif // WSGEMM_DIALECT_EPI_EPIOPS_TD
