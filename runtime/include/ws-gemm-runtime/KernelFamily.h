//===- KernelFamily.h - Launch "the GEMM": a family's best variant -*- C++ -*-===//
//
// A KernelFamily is a family manifest (Family.h), an optional tuning table
// and the device's SM count. launch(args) picks the variant for the
// problem's shape (the table's nearest shape, else the heuristic), loads it
// through ModuleCache on first use, and launches it:
//
//   auto ctx = Context::create(0);
//   auto fam = KernelFamily::load("sweep/family.json", "tuning.json");
//   Status s = (*fam)->launch(args, stream);   // any M, N, K
//
// select() says which variant and why without launching. Like Kernel, a
// KernelFamily is const and thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_KERNELFAMILY_H
#define WSGEMM_RUNTIME_KERNELFAMILY_H

#include "ws-gemm-runtime/Family.h"
#include "ws-gemm-runtime/Kernel.h"

#include <memory>
#include <optional>
#include <string>

namespace wsgemm::runtime {

class KernelFamily {
public:
  /// Loads the family (every variant's manifest; cubins load on first
  /// use) and, when `tablePath` is not empty, the tuning table, checked
  /// against the family. `opts.smCount` <= 0 means the current device's,
  /// and then the clustered variants' cubins load now, to ask the device
  /// how many of their clusters run at once (opts.activeClusters, for the
  /// heuristic).
  static Expected<std::shared_ptr<const KernelFamily>>
  load(const std::string &familyPath, const std::string &tablePath = "",
       SelectOptions opts = {0});

  const Family &family() const { return family_; }
  /// The tuning table, or nullptr when none was given.
  const TuningTable *table() const { return table_ ? &*table_ : nullptr; }
  const SelectOptions &options() const { return options_; }

  /// The variant for this problem shape, and why.
  Expected<Selection> select(const Shape &s) const;
  /// The loaded kernel of variant `index` (ModuleCache: loaded once per
  /// context).
  Expected<std::shared_ptr<const Kernel>> kernel(int index) const;
  /// select() for args' M, N, K, L, then Kernel::launch.
  Status launch(const GemmArgs &args, CUstream stream) const;

private:
  Family family_;
  std::optional<TuningTable> table_;
  SelectOptions options_;
};

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_KERNELFAMILY_H
