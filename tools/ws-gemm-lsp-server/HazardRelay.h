//===- HazardRelay.h - MLIR 22's parser crash kept out ----------*- C++ -*-===//
//
// MLIR's LSP main parses documents inside libMLIR, where no hook of ours
// runs, and MLIR 22's linalg parser crashes on a malformed `dimensions =`
// or `permutation =` list (ParseGuard.h). The relay sits between the editor
// and the server: the server runs in a child process and reads what the
// relay writes; the relay reads the editor's messages, keeps every open
// document's text, and when a document holds such a list it hands the
// server the text with the list's keyword capitalized (same length, so
// every position stays) and, on the way back, puts ParseGuard's message on
// the diagnostic the server reports there.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_LSP_HAZARDRELAY_H
#define WSGEMM_TOOLS_LSP_HAZARDRELAY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>

namespace mlir::wsgemm {

/// Runs `server` (MLIR's LSP main with `args`) in a child process behind
/// the relay and returns the exit status to give: the server's, or 1 when
/// it died of a signal. `args` are the server's arguments, read here for
/// the message style only (-lit-test, --input-style=delimited, --pretty).
int runBehindHazardRelay(llvm::ArrayRef<llvm::StringRef> args,
                         const std::function<int()> &server);

} // namespace mlir::wsgemm

#endif // WSGEMM_TOOLS_LSP_HAZARDRELAY_H
