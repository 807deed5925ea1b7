//===- EpiOps.h - Epilogue Visitor Tree ops ---------------------*- C++ -*-===//
//
// The epi ops, the InEpilogue trait, the epilogue-region verifier shared by
// every EpilogueOpInterface owner, and the table describing each preset.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIOPS_H
#define WSGEMM_DIALECT_EPI_EPIOPS_H

#include "ws-gemm/Dialect/Epi/EpiDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::epi {

/// The memory written by epilogue outputs (D, aux matrices, reductions).
struct OutputResource : public SideEffects::Resource::Base<OutputResource> {
  StringRef getName() final { return "epi::Output"; }
};

/// Verifies that an op sits directly inside an EpilogueOpInterface region.
LogicalResult verifyInEpilogue(Operation *op);

/// The epilogue-owning op directly enclosing `op`, or null.
EpilogueOpInterface getEnclosingEpilogue(Operation *op);

template <typename ConcreteType>
class InEpilogue : public OpTrait::TraitBase<ConcreteType, InEpilogue> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyInEpilogue(op);
  }
};

/// Builds the epi activation op named by `act` applied to `input`.
Value buildActivation(OpBuilder &builder, Location loc, ActivationAttr act,
                      Value input);

/// How a preset's alpha and beta are broadcast.
enum class PresetScale {
  Scalar, ///< kernel parameters "alpha" and "beta" (Sm90ScalarBroadcast)
  PerRow, ///< f32 vectors "alpha"/"beta" indexed by m (Sm90ColBroadcast)
  PerCol, ///< f32 vectors "alpha"/"beta" indexed by n (Sm90RowBroadcast)
};

/// Which index a preset's bias vector uses.
enum class PresetBias { None, PerRow, PerCol };

/// What one CUTLASS FusionOperation reads and writes, from operations.hpp.
/// The verifier and --epi-expand-presets share this table.
struct PresetInfo {
  PresetScale scale = PresetScale::Scalar;
  PresetBias bias = PresetBias::None;
  bool source = false;     ///< reads C (IsSourceSupported)
  bool residual = false;   ///< beta * C added after the activation
  bool activation = false; ///< IsEltActSupported
  bool aux = false;        ///< IsAuxOutSupported
  bool fp8Scaling = false; ///< IsScaleFactorSupported (scale_a/b/c/d)
  bool amax = false;       ///< IsAbsMaxSupported (amax_d, amax_aux)
};

/// The table entry for `kind`.
PresetInfo getPresetInfo(FusionKind kind);

/// Whether `type` is one of the 8-bit float types (e4m3fn, e5m2).
bool isFloat8Type(Type type);

/// Whether `v` has one value for every element of the epilogue: an
/// epi.scalar, a constant, or a side-effect-free op without regions whose
/// operands are all uniform. The accumulator, C, aux and vector elements
/// are not.
bool isUniform(Value v);

/// A product `factor * rest` (either operand order) with `fastmath<reassoc>`
/// whose `factor` is uniform and `rest` is not.
struct UniformFactor {
  Value factor, rest;
};
/// `v` as such a product, or nothing.
std::optional<UniformFactor> splitUniformFactor(Value v);

/// Verifies the body of an epilogue region: a single block with one f32
/// argument, only scalar epi/arith/math ops, at most one D store, at least
/// one output, consistent manifest names. (The epi.yield terminator is
/// checked by MLIR's terminator rules and the InEpilogue trait.) Called by
/// owners of the interface from their region verifier.
LogicalResult verifyEpilogueRegion(EpilogueOpInterface owner);

} // namespace mlir::epi

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/Epi/EpiOps.h.inc"

#endif // WSGEMM_DIALECT_EPI_EPIOPS_H
