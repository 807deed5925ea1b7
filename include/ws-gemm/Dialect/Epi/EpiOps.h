//===- EpiOps.h - Epilogue Visitor Tree ops ---------------------*- C++ -*-===//

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

/// Verifies the body of an epilogue region: a single block with one f32
/// argument, only scalar epi/arith/math ops, at most one epi.store, at least
/// one output, terminated by epi.yield. Called by owners of the interface.
LogicalResult verifyEpilogueRegion(EpilogueOpInterface owner);

} // namespace mlir::epi

#define GET_OP_CLASSES
#include "ws-gemm/Dialect/Epi/EpiOps.h.inc"

#endif // WSGEMM_DIALECT_EPI_EPIOPS_H
