//===- KernelFamily.cpp - Select and launch a family's variant ------------===//

#include "ws-gemm-runtime/KernelFamily.h"

namespace wsgemm::runtime {

Expected<std::shared_ptr<const KernelFamily>>
KernelFamily::load(const std::string &familyPath, const std::string &tablePath,
                   SelectOptions opts) {
  std::shared_ptr<KernelFamily> f(new KernelFamily());
  auto family = loadFamily(familyPath);
  if (!family)
    return family.status();
  f->family_ = std::move(*family);
  if (!tablePath.empty()) {
    auto table = loadTuningTable(tablePath);
    if (!table)
      return table.status();
    WSGEMM_TRY(checkTuningTable(f->family_, *table));
    f->table_ = std::move(*table);
  }
  if (opts.smCount <= 0) {
    auto dev = queryCurrentDevice();
    if (!dev)
      return dev.status();
    opts.smCount = dev->smCount;
    if (dev->l2Bytes > 0)
      opts.l2Bytes = dev->l2Bytes;
    // On this GPU: how many clusters of each clustered variant run at once
    // (a cluster fills SMs of one GPC only), and how many CTAs of a
    // persistent variant built for two per SM are resident, for the
    // untuned heuristic. Loads those variants' cubins now rather than on
    // first use; one that does not load or fit here (say a cluster too
    // large for the device) is passed over by the heuristic, and says why
    // if a table names it.
    opts.activeClusters.assign(f->family_.variants.size(), 0);
    for (size_t i = 0; i < f->family_.variants.size(); ++i) {
      const Manifest &m = f->family_.variants[i].manifest;
      bool pairs = m.grid.kind == GridKind::Persistent && m.grid.ctasPerSm > 1;
      if (m.cluster[0] * m.cluster[1] * m.cluster[2] == 1 && !pairs)
        continue;
      auto k = f->kernel(static_cast<int>(i));
      opts.activeClusters[i] = k ? (*k)->maxActiveClusters() : -1;
    }
  }
  f->options_ = opts;
  return std::shared_ptr<const KernelFamily>(std::move(f));
}

Expected<Selection> KernelFamily::select(const Shape &s) const {
  return selectVariant(family_, table(), s, options_);
}

Expected<std::shared_ptr<const Kernel>> KernelFamily::kernel(int index) const {
  if (index < 0 || index >= static_cast<int>(family_.variants.size()))
    return Status::error("family " + family_.name + ": no variant #" +
                         std::to_string(index));
  return ModuleCache::global().get(family_.variants[index].manifestPath);
}

Status KernelFamily::launch(const GemmArgs &args, CUstream stream) const {
  auto sel = select(familyShape(family_, args));
  if (!sel)
    return sel.status();
  auto k = kernel(sel->variant);
  if (!k)
    return k.status();
  return (*k)->launch(
      argsForVariant(family_.variants[sel->variant].manifest, args), stream);
}

} // namespace wsgemm::runtime
