//===- ScalarFlags.h - Check --scalar names against a manifest --*- C++ -*-===//
//
// `--scalar NAME=VALUE` must name a scalar or scalar_pointer parameter of
// the kernel; ws-gemm-run and ws-gemm-bench refuse any other name as soon
// as the manifest is read, naming the flag and the kernel's scalars:
//   error: --scalar gamma=1: the kernel has no scalar parameter 'gamma'
//   (its scalars: alpha, beta)
// Header-only; needs the runtime's Manifest.h (no MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_COMMON_SCALARFLAGS_H
#define WSGEMM_TOOLS_COMMON_SCALARFLAGS_H

#include "ws-gemm-runtime/Manifest.h"

#include <cstdio>
#include <map>
#include <string>

namespace wsgemm::tools {

/// False (with a message on stderr) when a name in `scalars` is not a
/// scalar or scalar_pointer parameter of `m`.
inline bool checkScalarFlags(const runtime::Manifest &m,
                             const std::map<std::string, float> &scalars) {
  using runtime::ParamKind;
  for (const auto &[name, value] : scalars) {
    const runtime::Param *p = m.findParam(name);
    if (p && (p->kind == ParamKind::Scalar ||
              p->kind == ParamKind::ScalarPointer))
      continue;
    std::string known;
    for (const runtime::Param &q : m.params)
      if (q.kind == ParamKind::Scalar || q.kind == ParamKind::ScalarPointer)
        known += (known.empty() ? "" : ", ") + q.name;
    std::fprintf(stderr,
                 "error: --scalar %s=%g: the kernel has no scalar parameter "
                 "'%s' (its scalars: %s)\n",
                 name.c_str(), double(value), name.c_str(),
                 known.empty() ? "none" : known.c_str());
    return false;
  }
  return true;
}

} // namespace wsgemm::tools

#endif // WSGEMM_TOOLS_COMMON_SCALARFLAGS_H
