//===- Family.cpp - Configs planned in-process, kernel families -----------===//
//
// The planning of one gemm under one config (ws-gemm-sweep's and the
// driver's), family.json, and the default family of a gemm without a
// config: its members (FamilyMembers.cpp) planned, the fallback to smaller
// configs when the planner refuses the default one, the members compiled
// in parallel, each in a context of its own, beside the main module, and
// written (stale variants of an earlier compile removed).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/Family.h"
#include "Names.h"
#include "Ptxas.h"
#include "ws-gemm/Conversion/LinalgToWsGemm.h"
#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"
#include "ws-gemm/Dialect/WsGemm/KernelName.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"
#include "ws-gemm/Pipelines/Pipelines.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <set>
#include <thread>

using namespace mlir;
using namespace mlir::wsgemm;

DiagnosticCollector::DiagnosticCollector(MLIRContext *ctx)
    : handler(ctx, [this](Diagnostic &d) {
        std::string line = d.str();
        for (Diagnostic &note : d.getNotes())
          line += "; note: " + note.str();
        text += (text.empty() ? "" : " | ") + line;
        return success();
      }) {}

static std::string printAttr(Attribute a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  a.print(os);
  return s;
}

PlannedConfig wsgemm::planGemm(ModuleOp module, StringRef name,
                               Attribute config, StringRef chip) {
  PlannedConfig out;
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> clone = module.clone();
  GemmOp mine;
  SmallVector<GemmOp> others;
  clone->walk([&](GemmOp g) {
    if (g.getSymName() == name)
      mine = g;
    else
      others.push_back(g);
  });
  if (!mine) {
    out.reason = ("no wsgemm.gemm @" + name).str();
    return out;
  }
  for (GemmOp g : others)
    g.erase();
  if (auto c = dyn_cast_or_null<ConfigAttr>(config))
    mine.setConfigAttr(c);
  llvm::raw_string_ostream os(out.mlir);
  clone->print(os);

  DiagnosticCollector diags(ctx);
  PassManager pm(ctx);
  PipelineOptions popts;
  popts.chip = chip.str();
  buildPreparePipeline(pm, popts);
  if (failed(pm.run(*clone))) {
    out.reason = diags.text.empty() ? "refused without a diagnostic"
                                    : diags.text;
    return out;
  }
  clone->walk([&](GemmOp g) {
    out.planned = printAttr(g.getConfigOrEmpty());
    out.smemBytes = g.getPlannedSmemBytes().value_or(0);
  });
  out.accepted = true;
  return out;
}

KnobList wsgemm::splitConfig(StringRef printed) {
  KnobList knobs;
  size_t open = printed.find('<');
  if (open == StringRef::npos || !printed.ends_with(">"))
    return knobs;
  StringRef body = printed.slice(open + 1, printed.size() - 1);
  int depth = 0;
  size_t start = 0;
  auto flush = [&](size_t end) {
    StringRef item = body.slice(start, end).trim();
    if (item.empty())
      return;
    auto [k, v] = item.split('=');
    knobs.emplace_back(k.trim().str(), v.trim().str());
  };
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '[' || c == '<' || c == '(')
      ++depth;
    else if (c == ']' || c == '>' || c == ')')
      --depth;
    else if (c == ',' && depth == 0) {
      flush(i);
      start = i + 1;
    }
  }
  flush(body.size());
  return knobs;
}

std::string wsgemm::joinConfig(const KnobList &knobs) {
  std::string s = "#wsgemm.config<";
  for (size_t i = 0; i < knobs.size(); ++i)
    s += (i ? ", " : "") + knobs[i].first + " = " + knobs[i].second;
  return s + ">";
}

std::string wsgemm::knobOf(StringRef printed, StringRef knob) {
  for (const auto &[k, v] : splitConfig(printed))
    if (k == knob)
      return v;
  return "";
}

std::string wsgemm::printFamilyManifest(const FamilyManifest &family) {
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    llvm::json::OStream j(os, 2);
    auto others = [&](const std::vector<FamilyEntry> &list) {
      j.array([&] {
        for (const FamilyEntry &e : list)
          j.object([&] {
            j.attribute("id", e.id);
            j.attribute("config", e.config);
            j.attribute("reason", e.reason);
          });
      });
    };
    j.object([&] {
      j.attribute("format", "ws-gemm-family");
      j.attribute("version", 1);
      j.attribute("name", family.name);
      j.attribute("source", family.source);
      j.attribute("command", family.command);
      j.attributeArray("variants", [&] {
        for (const FamilyEntry &v : family.variants)
          j.object([&] {
            j.attribute("id", v.id);
            j.attribute("manifest", v.manifest);
            j.attribute("config", v.config);
            j.attribute("requested", v.requested);
            j.attribute("smem_bytes", v.smemBytes);
            if (v.spillBytes >= 0)
              j.attribute("spill_bytes", v.spillBytes);
          });
      });
      j.attributeBegin("refused");
      others(family.refused);
      j.attributeEnd();
      j.attributeBegin("failed");
      others(family.failed);
      j.attributeEnd();
    });
  }
  os << "\n";
  return text;
}

static int64_t tileKOf(GemmOp gemm) {
  // A quantized A packs 64 of K per unit: its k-tile is 64 or 128
  // elements whatever its bits (LegalityMixedInput.cpp).
  if (gemm.getDequantAAttr())
    return 64;
  Type a = gemm.getAType();
  unsigned bits = a.isIntOrFloat() ? a.getIntOrFloatBitWidth() : 16;
  return 1024 / std::max(1u, bits);
}

static std::string firstLine(StringRef text) {
  return text.split(" | ").first.split("; note:").first.str();
}

/// The gemms without a config after the linalg front end, by name.
static FailureOr<SmallVector<std::string>> unconfigured(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createWsGemmFromLinalg());
  if (failed(pm.run(module)))
    return failure();
  SmallVector<std::string> names;
  module.walk([&](GemmOp g) {
    if (!g.getConfigAttr())
      names.push_back(g.getSymName().str());
  });
  return names;
}

static LogicalResult resolve(ModuleOp module, ArrayRef<std::string> names,
                             StringRef chip) {
  MLIRContext *ctx = module.getContext();
  for (const std::string &name : names) {
    GemmOp gemm;
    module.walk([&](GemmOp g) {
      if (g.getSymName() == name)
        gemm = g;
    });
    PlannedConfig first = planGemm(module, name, nullptr, chip);
    if (first.accepted)
      continue;
    for (const std::string &text : defaultFallbacks(tileKOf(gemm))) {
      auto config = dyn_cast_or_null<ConfigAttr>(parseAttribute(text, ctx));
      if (!config || !planGemm(module, name, config, chip).accepted)
        continue;
      gemm.setConfigAttr(config);
      emitRemark(gemm.getLoc())
          << "no config given and the planner refuses its default ("
          << firstLine(first.reason) << "): compiled with " << text;
      break;
    }
  }
  return success();
}

LogicalResult wsgemm::resolveDefaultConfigs(ModuleOp module, StringRef chip) {
  FailureOr<SmallVector<std::string>> names = unconfigured(module);
  if (failed(names))
    return failure();
  return resolve(module, *names, chip);
}

namespace {
/// A family variant other than the first, compiled on a worker.
struct Job {
  size_t family, member;
  FamilyVariant variant;
  std::string mlir;
  bool ok = false;
  std::string reason;
};
} // namespace

/// Compiles one job's module in a context of its own; spills are refusals.
static void runJob(Job &job, const CompileOptions &options) {
  MLIRContext ctx(compilerRegistry(), MLIRContext::Threading::DISABLED);
  ctx.printOpOnDiagnostic(false);
  DiagnosticCollector diags(&ctx);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(job.mlir, &ctx);
  CompileOptions o = options;
  o.spills = SpillPolicy::Error;
  FailureOr<SmallVector<CompiledKernel>> kernels = failure();
  if (module)
    kernels = driver::compileResolved(*module, o);
  if (succeeded(kernels) && kernels->size() == 1) {
    job.variant.kernel = std::move(kernels->front());
    job.ok = true;
    return;
  }
  job.reason = diags.text.empty() ? "failed without a diagnostic" : diags.text;
}

static std::string tileTag(StringRef planned) {
  std::string tile;
  for (char c : knobOf(planned, "tile"))
    if (std::isdigit(static_cast<unsigned char>(c)))
      tile += c;
    else if (c == ',')
      tile += 'x';
  std::string id = tile + "." + knobOf(planned, "schedule");
  std::string splitK = knobOf(planned, "split_k");
  if (!splitK.empty() && splitK != "1")
    id += ".split_k" + splitK;
  if (knobOf(planned, "scheduler") == "stream_k")
    id += ".stream_k";
  std::string ctas = knobOf(planned, "ctas_per_sm");
  if (!ctas.empty() && ctas != "1")
    id += ".ctas" + ctas;
  return id;
}

static int64_t spillBytes(StringRef report) {
  llvm::Regex spill("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  SmallVector<StringRef> m;
  if (!spill.match(report, &m))
    return -1;
  int64_t stores = 0, loads = 0;
  m[1].getAsInteger(10, stores);
  m[2].getAsInteger(10, loads);
  return stores + loads;
}

FailureOr<CompileOutput>
wsgemm::compileWithFamilies(ModuleOp module, const CompileOptions &options) {
  FailureOr<SmallVector<std::string>> names = unconfigured(module);
  if (failed(names) || failed(resolve(module, *names, options.chip)))
    return failure();
  CompileOutput out;
  if (options.family == FamilyMode::None) {
    auto kernels = driver::compileResolved(module, options);
    if (failed(kernels))
      return failure();
    out.kernels = std::move(*kernels);
    return out;
  }

  // Plan every member of every family; the first variant is the gemm's
  // kernel in the main module.
  MLIRContext *ctx = module.getContext();
  std::string source;
  if (auto loc = dyn_cast<FileLineColLoc>(module.getLoc()))
    source = loc.getFilename().str();
  std::vector<Job> jobs;
  std::vector<Location> locs;
  for (const std::string &name : *names) {
    GemmOp gemm;
    module.walk([&](GemmOp g) {
      if (g.getSymName() == name)
        gemm = g;
    });
    PlannedConfig first = planGemm(module, name, nullptr, options.chip);
    if (!first.accepted)
      continue; // the main compile reports the refusal
    CompiledFamily family;
    family.name = name;
    family.manifest.name = name;
    family.manifest.source = source;
    family.manifest.command = "the default family (docs/tuning.md)";
    FamilyVariant v0;
    v0.id = "v0." + tileTag(first.planned);
    v0.planned = first.planned;
    ConfigAttr own = gemm.getConfigAttr();
    v0.requested = own ? printAttr(own) : "";
    v0.smemBytes = first.smemBytes;
    family.variants.push_back(std::move(v0));
    std::set<std::string> seen = {first.planned};
    FailureOr<planning::GemmDesc> desc = describeGemm(gemm);
    std::vector<FamilyMember> members =
        gemm.getDequantAAttr()
            ? mixedInputFamilyMembers(succeeded(desc) ? &*desc : nullptr)
            : defaultFamilyMembers(tileKOf(gemm));
    if (succeeded(desc) && !desc->isMixedInput())
      llvm::append_range(members,
                         unalignedFamilyMembers(*desc, tileKOf(gemm)));
    for (size_t i = 1; i < members.size(); ++i) {
      auto config =
          dyn_cast_or_null<ConfigAttr>(parseAttribute(members[i].config, ctx));
      std::string requested = members[i].config;
      PlannedConfig p = planGemm(module, name, config, options.chip);
      if (!p.accepted) {
        // The default kernel's tile and epilogue tile, this member's
        // scheduler knobs.
        KnobList knobs = splitConfig(members[i].config);
        for (auto &[k, v] : knobs)
          if (k == "tile")
            v = knobOf(first.planned, "tile");
        knobs.emplace_back("epi_tile", knobOf(first.planned, "epi_tile"));
        std::string retry = joinConfig(knobs);
        auto again = dyn_cast_or_null<ConfigAttr>(parseAttribute(retry, ctx));
        PlannedConfig q = planGemm(module, name, again, options.chip);
        if (!q.accepted) {
          family.manifest.refused.push_back(
              {"v" + std::to_string(i) + "." + members[i].tag, "",
               members[i].config, "", p.reason});
          continue;
        }
        p = std::move(q);
        requested = retry;
      }
      if (!seen.insert(p.planned).second)
        continue; // plans like an earlier variant
      Job job;
      job.family = out.families.size();
      job.member = i;
      job.variant.id = "v" + std::to_string(i) + "." + tileTag(p.planned);
      job.variant.requested = requested;
      job.variant.planned = p.planned;
      job.variant.smemBytes = p.smemBytes;
      job.mlir = std::move(p.mlir);
      jobs.push_back(std::move(job));
    }
    locs.push_back(gemm.getLoc());
    out.families.push_back(std::move(family));
  }

  // The members on `jobs` threads, this one included once the main module
  // is compiled; the costliest first, so that they overlap the main one
  // (a split tile's fixup compiles the epilogue twice: about 1.4x the
  // compile time of its data-parallel twin, 2x the default's for a GELU).
  auto weight = [](const Job &j) {
    int64_t area = 1;
    // The knob's text outlives the loop (a temporary in the range-init
    // would not: ASan's stack-use-after-scope).
    std::string tile = knobOf(j.variant.planned, "tile");
    for (StringRef dim : llvm::split(StringRef(tile).trim("[]"), ','))
      if (int64_t v; !dim.trim().getAsInteger(10, v) && area < (1 << 20))
        area *= v;
    std::string splitK = knobOf(j.variant.planned, "split_k");
    bool split = knobOf(j.variant.planned, "scheduler") == "stream_k" ||
                 (!splitK.empty() && splitK != "1");
    return area * (split ? 2 : 1);
  };
  std::stable_sort(jobs.begin(), jobs.end(), [&](const Job &a, const Job &b) {
    return weight(a) > weight(b);
  });
  unsigned threads =
      options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k = next++; k < jobs.size(); k = next++)
      runJob(jobs[k], options);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t <= jobs.size(); ++t)
    pool.emplace_back(worker);
  auto kernels = driver::compileResolved(module, options);
  worker();
  for (std::thread &t : pool)
    t.join();
  if (failed(kernels))
    return failure();
  out.kernels = std::move(*kernels);
  // Back in the members' order: the heuristic's ties go to the earlier.
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job &a, const Job &b) {
    return a.member < b.member;
  });

  for (size_t f = 0; f < out.families.size(); ++f) {
    CompiledFamily &family = out.families[f];
    for (const CompiledKernel &k : out.kernels)
      if (k.name == family.name)
        family.variants[0].kernel = k;
    for (Job &job : jobs) {
      if (job.family != f)
        continue;
      if (job.ok) {
        family.variants.push_back(std::move(job.variant));
        continue;
      }
      bool spills = job.reason.find("spills registers") != std::string::npos;
      (spills ? family.manifest.refused : family.manifest.failed)
          .push_back({job.variant.id, "", job.variant.requested, "",
                      job.reason});
      if (!spills)
        emitWarning(locs[f]) << "default family of @" << family.name
                             << ": variant " << job.variant.id << " ("
                             << job.variant.requested
                             << ") failed to compile and is left out: "
                             << job.reason;
    }
    for (const FamilyVariant &v : family.variants)
      family.manifest.variants.push_back(
          {v.id, v.id + "/" + family.name + ".json", v.planned, v.requested,
           "", v.smemBytes, spillBytes(v.kernel.ptxasLog)});
    family.json = printFamilyManifest(family.manifest);
  }
  return out;
}

/// The variant ids of DIR/family.json as a previous compile wrote it
/// (none when there is none or it does not parse).
static std::vector<std::string> previousVariants(StringRef dir) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, "family.json");
  std::vector<std::string> ids;
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return ids;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse((*buf)->getBuffer());
  if (!v) {
    llvm::consumeError(v.takeError());
    return ids;
  }
  if (const llvm::json::Object *o = v->getAsObject())
    if (const llvm::json::Array *vs = o->getArray("variants"))
      for (const llvm::json::Value &e : *vs)
        if (const llvm::json::Object *eo = e.getAsObject())
          if (auto id = eo->getString("id"))
            ids.push_back(id->str());
  return ids;
}

/// Removes what an earlier compile wrote for variants this family no
/// longer has (a recompile after the members changed would otherwise
/// leave their directories beside the new ones): only the files it
/// writes (<kernel>.json, .ptx, .cubin), then the directory if that
/// emptied it; anything else there is left alone.
static void removeStaleVariants(const CompiledFamily &family, StringRef dir,
                                ArrayRef<std::string> previous) {
  std::set<std::string> current;
  for (const FamilyVariant &v : family.variants)
    current.insert(v.id);
  for (const std::string &id : previous) {
    if (current.count(id) || !driver::isSafePathComponent(id))
      continue;
    SmallString<256> sub(dir);
    llvm::sys::path::append(sub, id);
    for (const char *ext : {".json", ".ptx", ".cubin"}) {
      SmallString<256> file(sub);
      llvm::sys::path::append(file, family.name + ext);
      llvm::sys::fs::remove(file);
    }
    llvm::sys::fs::remove(sub); // only if empty
  }
}

llvm::Error wsgemm::writeFamily(const CompiledFamily &family, StringRef dir,
                                EmitKind emit) {
  std::vector<std::string> old = previousVariants(dir);
  // Each variant's id names a directory (Names.h).
  for (const FamilyVariant &v : family.variants)
    if (!driver::isSafePathComponent(v.id))
      return llvm::createStringError(
          "family %s: nothing written: variant id %s is no file name "
          "(letters, digits, '_', '.', '-'; not '.' or '..')",
          quoteName(family.name).c_str(), quoteName(v.id).c_str());
  for (const FamilyVariant &v : family.variants) {
    SmallString<256> sub(dir);
    llvm::sys::path::append(sub, v.id);
    if (llvm::Error err = writeKernels({v.kernel}, sub, emit))
      return err;
  }
  SmallString<256> path(dir);
  llvm::sys::path::append(path, "family.json");
  std::string temp = (path + ".tmp").str();
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(temp, ec);
    if (!ec)
      os << family.json;
  }
  if (!ec)
    ec = llvm::sys::fs::rename(temp, path);
  if (ec) {
    llvm::sys::fs::remove(temp);
    return llvm::createStringError(ec, "cannot write %s: %s",
                                   path.c_str(), ec.message().c_str());
  }
  removeStaleVariants(family, dir, old);
  return llvm::Error::success();
}
