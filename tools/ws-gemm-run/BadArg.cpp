//===- BadArg.cpp - Broken and fake arguments for ws-gemm-run -------------===//
//
// --bad-arg breaks one argument of a valid launch on purpose (D misaligned,
// a block-scaled kernel's scale_a given a padded ld,
// D's row stride not a multiple of 16 bytes, A's dtype changed, D null);
// the runtime must refuse it before launching, with a message that says
// why. --dry-run gives every buffer a fake, aligned device address so the
// checks run without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-run.h"

#include "../common/FamilyChoice.h"

#include <algorithm>
#include <cstdio>

namespace wsgemm::runtool {

using namespace runtime;

std::string breakArgument(const Manifest &m, const std::string &mode,
                          GemmArgs &a) {
  DType d = m.operand("D").dtype;
  if (mode == "misaligned") {
    a.D.ptr += dtypeSize(d);
    return "not 16-byte aligned";
  }
  if (mode == "stride") {
    int64_t ld = a.N + 1;
    while ((ld * static_cast<int64_t>(dtypeSize(d))) % 16 == 0)
      ++ld;
    a.D.ld = ld;
    return "is not a multiple of 16";
  }
  if (mode == "scale-ld") {
    // A padded scale_a (DeepGEMM's M rounded up to 16 bytes).
    const Param *p = m.findBlockScale("A");
    if (!p)
      return "";
    a.named[p->name].ld = (a.M + 4) / 4 * 4;
    return "are read packed";
  }
  if (mode == "c-is-d") {
    // C read from D's buffer: refused for a kernel that reduces into D.
    if (!m.hasC())
      return "";
    a.C.ptr = a.D.ptr;
    a.C.ld = a.D.ld;
    return "overlaps D, which this kernel reduces into";
  }
  if (mode == "dtype") {
    DType A = m.operand("A").dtype;
    a.A.dtype = A == DType::F16 ? DType::BF16 : DType::F16;
    return "does not match the kernel's";
  }
  a.D.ptr = 0;
  return "null pointer";
}

int reportRefusal(const std::string &mode, const Status &s,
                  const std::string &expect) {
  if (s.ok()) {
    std::printf("bad-arg %s: NOT refused: the runtime accepted a broken "
                "argument\n",
                mode.c_str());
    return 1;
  }
  std::printf("bad-arg %s: refused: %s\n", mode.c_str(), s.message().c_str());
  if (s.message().find(expect) == std::string::npos) {
    std::printf("bad-arg %s: FAIL: expected the refusal to say '%s'\n",
                mode.c_str(), expect.c_str());
    return 1;
  }
  return 0;
}

GemmArgs fakeArgs(const Manifest &m, const Options &o) {
  GemmArgs a;
  a.M = o.M;
  a.N = o.N;
  a.K = o.K;
  a.L = o.L;
  setPlaceholderArgs(m, a);
  padLeadingDimensions(m, a, o.pad, o.alignLd);
  wsgemm::tools::applyInputPadding(m, a, o.padA, o.padB, o.padC, o.offsetA,
                                   o.offsetB, o.offsetC);
  for (const Param &p : m.params) {
    auto it = o.scalars.find(p.name);
    if (p.kind == ParamKind::Scalar && it != o.scalars.end())
      a.scalars[p.name] = it->second;
  }
  return a;
}

} // namespace wsgemm::runtool
