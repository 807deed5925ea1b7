//===- EpiAttributes.td - Epilogue enums and attributes ----*- tablegen -*-===//
//
// Enums of the epi dialect, their attribute forms, the properties ops store
// them in, and #epi.activation.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIATTRIBUTES_TD
#define WSGEMM_DIALECT_EPI_EPIATTRIBUTES_TD

include "ws-gemm/Dialect/Epi/EpiDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Epi_RoundingMode : I32EnumAttr<"RoundingMode",
    "IEEE rounding mode of a narrowing conversion", [
      I32EnumAttrCase<"rn", 0>,  // to nearest, ties to even (default)
      I32EnumAttrCase<"rz", 1>,  // toward zero
      I32EnumAttrCase<"rm", 2>,  // toward -inf
      I32EnumAttrCase<"rp", 3>,  // toward +inf
    ]> {
  let cppNamespace = "::mlir::epi";
  let genSpecializedAttr = 0;
}
def Epi_RoundingModeAttr : EnumAttr<Epi_Dialect, Epi_RoundingMode, "rounding">;

def Epi_ReduceKind : I32EnumAttr<"ReduceKind", "reduction operator", [
      I32EnumAttrCase<"sum", 0>,
      I32EnumAttrCase<"max", 1>,
      I32EnumAttrCase<"min", 2>,
      I32EnumAttrCase<"absmax", 3>,  // max |x|, the amax of fp8 scaling
    ]> {
  let cppNamespace = "::mlir::epi";
  let genSpecializedAttr = 0;
}
def Epi_ReduceKindAttr : EnumAttr<Epi_Dialect, Epi_ReduceKind, "reduce_kind">;

// How epi.store combines the value with D (PTX's reduction of a store:
// cp.reduce.async.bulk.tensor for TMA stores, red.global for direct ones).
def Epi_StoreReduceKind : I32EnumAttr<"StoreReduceKind",
    "how a D store combines with D's old value", [
      I32EnumAttrCase<"none", 0>,  // a plain store (default)
      I32EnumAttrCase<"add", 1>,   // D += value
      I32EnumAttrCase<"min", 2>,   // D = min(D, value)
      I32EnumAttrCase<"max", 3>,   // D = max(D, value)
    ]> {
  let cppNamespace = "::mlir::epi";
  let genSpecializedAttr = 0;
}
def Epi_StoreReduceKindAttr : EnumAttr<Epi_Dialect, Epi_StoreReduceKind,
                                       "store_reduce"> {
  let assemblyFormat = "`<` $value `>`";
}

def Epi_ScalarSource : I32EnumAttr<"ScalarSource",
    "where an epilogue scalar comes from", [
      I32EnumAttrCase<"attr", 0>,   // a compile-time constant on the op
      I32EnumAttrCase<"param", 1>,  // an f32 kernel parameter, by value
      I32EnumAttrCase<"ptr", 2>,    // an f32 in device memory, read once
    ]> {
  let cppNamespace = "::mlir::epi";
  let genSpecializedAttr = 0;
}
def Epi_ScalarSourceAttr : EnumAttr<Epi_Dialect, Epi_ScalarSource, "scalar_source">;

def Epi_ActivationKind : I32EnumAttr<"ActivationKind",
    "named activation function", [
      I32EnumAttrCase<"identity", 0>,
      I32EnumAttrCase<"relu", 1>,
      I32EnumAttrCase<"clamp", 2>,
      I32EnumAttrCase<"leaky_relu", 3>,
      I32EnumAttrCase<"threshold_relu", 4>,
      I32EnumAttrCase<"gelu", 5>,
      I32EnumAttrCase<"gelu_taylor", 6>,
      I32EnumAttrCase<"silu", 7>,
      I32EnumAttrCase<"sigmoid", 8>,
      I32EnumAttrCase<"tanh", 9>,
      I32EnumAttrCase<"hardswish", 10>,
    ]> {
  let cppNamespace = "::mlir::epi";
  let genSpecializedAttr = 0;
}

def Epi_FusionKind : I32EnumAttr<"FusionKind",
    "a CUTLASS SM90 FusionOperation", [
      I32EnumAttrCase<"ScaledAcc", 0>,
      I32EnumAttrCase<"LinearCombination", 1>,
      I32EnumAttrCase<"LinCombEltAct", 2>,
      I32EnumAttrCase<"LinCombPerRowBias", 3>,
      I32EnumAttrCase<"LinCombPerColBias", 4>,
      I32EnumAttrCase<"LinCombPerRowBiasEltAct", 5>,
      I32EnumAttrCase<"LinCombPerColBiasEltAct", 6>,
      I32EnumAttrCase<"LinCombPerRowBiasEltActAux", 7>,
      I32EnumAttrCase<"LinCombPerColBiasEltActAux", 8>,
      I32EnumAttrCase<"PerRowLinCombPerRowBiasEltAct", 9>,
      I32EnumAttrCase<"PerColLinCombPerColBiasEltAct", 10>,
      I32EnumAttrCase<"PerColResAddPerColBiasEltAct", 11>,
      I32EnumAttrCase<"ScaledLinCombPerRowBiasEltAct", 12>,
      I32EnumAttrCase<"ScaledLinCombPerColBiasEltAct", 13>,
      I32EnumAttrCase<"ScaledLinCombPerRowBiasEltActAmaxAux", 14>,
      I32EnumAttrCase<"ScaledLinCombPerColBiasEltActAmaxAux", 15>,
    ]> {
  let cppNamespace = "::mlir::epi";
  let genSpecializedAttr = 0;
}
def Epi_FusionKindAttr : EnumAttr<Epi_Dialect, Epi_FusionKind, "fusion_kind">;

//===----------------------------------------------------------------------===//
// Enum properties
//===----------------------------------------------------------------------===//

// Ops store enums as properties: they print as a bare keyword (`max`, `rz`,
// `param`), parse as an optional keyword where the format makes them optional,
// and keep the #epi.<enum> attribute as their generic (attribute) form.
class Epi_EnumProp<EnumInfo info, Attr attrForm>
    : EnumPropWithAttrForm<info, attrForm> {
  let storeInCustomAttribute = 1;
}

def Epi_RoundingModeProp : Epi_EnumProp<Epi_RoundingMode, Epi_RoundingModeAttr>;
def Epi_ReduceKindProp : Epi_EnumProp<Epi_ReduceKind, Epi_ReduceKindAttr>;
def Epi_ScalarSourceProp : Epi_EnumProp<Epi_ScalarSource, Epi_ScalarSourceAttr>;
def Epi_StoreReduceKindProp
    : Epi_EnumProp<Epi_StoreReduceKind, Epi_StoreReduceKindAttr>;
def Epi_FusionKindProp : Epi_EnumProp<Epi_FusionKind, Epi_FusionKindAttr>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Epi_ActivationAttr : AttrDef<Epi_Dialect, "Activation"> {
  let mnemonic = "activation";
  let summary = "a named activation and its parameters";
  let description = [{
    Names an activation for presets and for front ends that carry one as data.
    Parameters, by kind (names follow the `epi` op keywords, which follow
    CUTLASS's `Arguments` fields):
      clamp:          lower, upper            (CUTLASS lower_bound, upper_bound)
      leaky_relu:     leaky_alpha
      threshold_relu: threshold, optional upper_bound
    every other kind takes none. Each value is a float (a compile-time
    constant) or an `#epi.scalar<param|ptr "name">` (a launch-time kernel
    parameter of that name). `buildActivation` turns the attribute into the
    matching `epi` op, with an `epi.scalar` operand for each launch-time
    parameter.

    ```mlir
    #epi.activation<relu>
    #epi.activation<clamp {lower = 0.0, upper = 6.0}>
    #epi.activation<threshold_relu {threshold = 0.5}>
    #epi.activation<leaky_relu {leaky_alpha = #epi.scalar<param "slope">}>
    ```
  }];
  let parameters = (ins EnumParameter<Epi_ActivationKind>:$kind,
                        OptionalParameter<"::mlir::DictionaryAttr">:$params);
  // `<` kind dictionary? `>`, hand-written: the declarative form cannot make
  // a bare dictionary optional.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Epi_ScalarRefAttr : AttrDef<Epi_Dialect, "ScalarRef"> {
  let mnemonic = "scalar";
  let summary = "a launch-time scalar named in an attribute";
  let description = [{
    Names an f32 kernel parameter by value (`param`) or in device memory
    (`ptr`), as `epi.scalar param|ptr` does, where a value must be given as
    an attribute: a launch-time parameter of an `#epi.activation` in a
    preset. The name becomes a `scalar` (`scalar_pointer`) parameter of
    the kernel's manifest.

    ```mlir
    #epi.scalar<param "clamp_upper">
    #epi.scalar<ptr "slope">
    ```
  }];
  let parameters = (ins EnumParameter<Epi_ScalarSource>:$source,
                        StringRefParameter<"the parameter's name">:$name);
  let assemblyFormat = "`<` $source $name `>`";
  let genVerifyDecl = 1;
}

#endif // WSGEMM_DIALECT_EPI_EPIATTRIBUTES_TD
