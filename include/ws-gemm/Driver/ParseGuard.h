//===- ParseGuard.h - Refuse input that crashes MLIR 22's parser -*- C++ -*-===//
//
// MLIR 22's linalg parser crashes (a null attribute set after a failed
// parse, llvm/llvm-project#132747) when the integer list of linalg.reduce's
// or linalg.broadcast's `dimensions = [...]` or linalg.transpose's
// `permutation = [...]` does not parse. No hook of ours runs inside that
// parse, so every tool of ours that parses text looks for such a list
// first and refuses the input with an error at the list, as the parser
// would had it not crashed.
//
// The scan follows MLIR's lexer (comments, strings, whitespace and NUL
// bytes) and checks the custom-form keyword only, not an attribute
// dictionary's entry of the same name (which parses safely).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DRIVER_PARSEGUARD_H
#define WSGEMM_DRIVER_PARSEGUARD_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;

namespace wsgemm {

/// A place in MLIR text that MLIR 22's parser would crash on.
struct ParserHazard {
  /// Byte offset into the text of what is wrong.
  size_t offset;
  /// Byte offset of the list's keyword (`dimensions`, `permutation`).
  size_t keywordOffset;
  /// What is wrong there, as an error message.
  std::string message;
};

/// The first hazard in `text`, if any. Bytecode is not text: no hazard.
std::optional<ParserHazard> findParserHazard(StringRef text);

/// Every hazard in `text`, in order.
std::vector<ParserHazard> findParserHazards(StringRef text);

/// `text` with each hazard's keyword capitalized (`Permutation`): the
/// parser then fails cleanly on the keyword it expected, at the same place,
/// and every offset, line and column of the text stays as it was. For
/// tools that must parse anyway (the language server).
std::string neutralizeParserHazards(StringRef text,
                                    ArrayRef<ParserHazard> hazards);

/// Emits the first hazard of `sourceMgr`'s buffer `bufferId` as an error
/// at its file:line:col through `context`'s diagnostics and fails; succeeds
/// when there is none.
LogicalResult refuseParserHazards(const llvm::SourceMgr &sourceMgr,
                                  unsigned bufferId, MLIRContext &context);

} // namespace wsgemm
} // namespace mlir

#endif // WSGEMM_DRIVER_PARSEGUARD_H
