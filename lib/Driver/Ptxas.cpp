//===- Ptxas.cpp - Assemble PTX with ptxas -v -----------------------------===//
//
// The cubin of a kernel comes from CUDA's ptxas run on its PTX with -v, so
// that the register and spill report can be read: a kernel that spills is
// never accepted silently (SpillPolicy says how it is reported). ptxas's
// input, output and report go through temporary files that are removed
// whatever happens.
//
//===----------------------------------------------------------------------===//

#include "Ptxas.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::wsgemm;

FailureOr<std::string> driver::assemble(Location loc, StringRef name,
                                        StringRef ptx,
                                        const CompileOptions &options,
                                        std::string &cubin) {
  SmallString<256> ptxas(options.cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!llvm::sys::fs::can_execute(ptxas))
    return emitError(loc) << "no ptxas at " << ptxas
                          << " (--cuda-path=" << options.cudaPath << ")";
  SmallString<128> in, out, log;
  int fd;
  // The name only labels the files: its first 64 bytes keep them within a
  // file name's 255.
  std::string prefix = ("wsgemm-" + name.take_front(64)).str();
  if (llvm::sys::fs::createTemporaryFile(prefix, "ptx", fd, in) ||
      llvm::sys::fs::createTemporaryFile(prefix, "cubin", out) ||
      llvm::sys::fs::createTemporaryFile(prefix, "log", log))
    return emitError(loc) << "cannot create temporary files for ptxas";
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  std::string arch =
      "-arch=" + (options.sassArch.empty() ? options.chip : options.sassArch);
  std::string opt = "-O" + std::to_string(std::min(options.optLevel, 3u));
  SmallVector<StringRef> args{ptxas, arch, opt, "-v", in, "-o", out};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &error);
  auto report = llvm::MemoryBuffer::getFile(log);
  auto binary = llvm::MemoryBuffer::getFile(out, /*IsText=*/false);
  std::string text = report ? (*report)->getBuffer().str() : "";
  if (rc == 0 && binary)
    cubin = (*binary)->getBuffer().str();
  for (StringRef path : {StringRef(in), StringRef(out), StringRef(log)})
    llvm::sys::fs::remove(path);
  if (rc != 0 || !binary)
    return emitError(loc) << "ptxas failed on kernel '" << name << "'"
                          << (error.empty() ? "" : ": " + error) << "\n"
                          << StringRef(text).rtrim();
  return text;
}

LogicalResult driver::checkSpills(Location loc, StringRef name,
                                  StringRef report, SpillPolicy policy) {
  llvm::Regex spill("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  llvm::Regex regs("Used ([0-9]+) registers");
  SmallVector<StringRef> s, r;
  if (!spill.match(report, &s) || !regs.match(report, &r))
    return success();
  unsigned stores = 0, loads = 0;
  s[1].getAsInteger(10, stores);
  s[2].getAsInteger(10, loads);
  if (stores + loads == 0 || policy == SpillPolicy::Allow)
    return success();
  InFlightDiagnostic diag =
      policy == SpillPolicy::Error ? emitError(loc) : emitWarning(loc);
  diag << "kernel '" << name << "' spills registers to local memory ("
       << stores << " bytes stored, " << loads << " loaded; " << r[1]
       << " registers): its epilogue needs more registers than the "
          "accumulator leaves (a smaller tile N, epi_tile N or "
          "fragment_size, or a simpler epilogue, fits), or its C/aux "
          "loads more than the producer's (a smaller stages_c fits)";
  return success(policy != SpillPolicy::Error);
}
