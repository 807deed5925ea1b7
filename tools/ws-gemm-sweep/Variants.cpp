//===- Variants.cpp - Plan, compile and record a sweep's variants ---------===//
//
// For each config of the space: the source module with only the chosen
// wsgemm.gemm, its config replaced, is planned in-process by the
// --wsgemm-prepare pipeline. A refusal keeps the planner's diagnostic as
// the reason; two configs that plan to the same complete config are one
// variant. The accepted ones are written to DIR/<id>/<kernel>.mlir and
// compiled by ws-gemm-compile processes, --jobs at a time, each logging to
// DIR/<id>/compile.log. A compile failure of a planned config is a bug
// (the planner must refuse what cannot be lowered): reported as FAILED and
// the exit status is 1. DIR/family.json lists the compiled variants.
//
//===----------------------------------------------------------------------===//

#include "Sweep.h"

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

using namespace mlir;

namespace wsgemm::sweep {

namespace {

enum class State { Refused, Duplicate, Planned, Compiled, Failed };

struct Variant {
  std::string id, requested, planned, reason, mlir;
  State state = State::Planned;
  int64_t smemBytes = 0;
  int64_t spillBytes = -1; // -1: not reported (no ptxas run)
  int64_t registers = -1;
};

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string printAttr(Attribute a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  a.print(os);
  return s;
}

/// A short, file-name-safe spelling of one knob's value for variant ids.
std::string tagOf(const std::string &knob, const std::string &value) {
  std::string v;
  for (char c : value) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
      v += c;
    else if (c == ',')
      v += 'x';
  }
  if (knob == "tile" || knob == "schedule")
    return v;
  if (knob == "cluster")
    return "c" + v;
  if (knob == "stages")
    return "s" + v;
  if (knob == "swizzle")
    return "w" + v;
  if (knob == "epi_tile")
    return "e" + v;
  return knob + v;
}

std::string makeId(size_t index, const KnobList &knobs,
                   const std::vector<Axis> &axes) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "v%03zu", index);
  std::string id = buf;
  // tile, schedule, cluster and stages always; then every other swept knob.
  std::vector<std::string> names = {"tile", "schedule", "cluster", "stages"};
  for (const Axis &a : axes)
    if (std::find(names.begin(), names.end(), a.knob) == names.end())
      names.push_back(a.knob);
  for (const std::string &n : names) {
    auto it = std::find_if(knobs.begin(), knobs.end(),
                           [&](const auto &kv) { return kv.first == n; });
    id += "." + tagOf(n, it == knobs.end() ? "auto" : it->second);
  }
  return id;
}

using mlir::wsgemm::DiagnosticCollector;

/// Spill bytes and registers from ws-gemm-compile's spill warning; (0, -1)
/// when the log has none (ptxas ran and nothing spilled).
void readSpills(llvm::StringRef log, Variant &v) {
  llvm::Regex spill("spills registers to local memory \\(([0-9]+) bytes "
                    "stored, ([0-9]+) loaded; ([0-9]+) registers\\)");
  llvm::SmallVector<llvm::StringRef> m;
  v.spillBytes = 0;
  if (!spill.match(log, &m))
    return;
  int64_t stores = 0, loads = 0;
  m[1].getAsInteger(10, stores);
  m[2].getAsInteger(10, loads);
  m[3].getAsInteger(10, v.registers);
  v.spillBytes = stores + loads;
}

std::string firstLines(llvm::StringRef text, unsigned n) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.trim().split(lines, '\n');
  std::string out;
  for (unsigned i = 0; i < lines.size() && i < n; ++i)
    out += (i ? " | " : "") + lines[i].trim().str();
  return out;
}

/// Compiles one variant; returns its log.
std::string compileOne(const Options &o, const std::string &dir,
                       const std::string &mlirPath, int &rc) {
  std::string log = dir + "/compile.log";
  std::vector<std::string> args = {
      o.compile, mlirPath, "-o", dir,
      std::string("--emit=") + (o.emit == "ptx" ? "ptx" : "all")};
  args.insert(args.end(), o.compileFlags.begin(), o.compileFlags.end());
  llvm::SmallVector<llvm::StringRef> refs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt,
                                                llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::string error;
  rc = llvm::sys::ExecuteAndWait(o.compile, refs, std::nullopt, redirects, 0,
                                 0, &error);
  auto text = llvm::MemoryBuffer::getFile(log);
  std::string out = text ? (*text)->getBuffer().str() : "";
  if (!error.empty())
    out += "\n" + error;
  return out;
}

bool writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "ws-gemm-sweep: error: cannot write " << path << ": "
                 << ec.message() << "\n";
    return false;
  }
  os << text;
  return true;
}

} // namespace

int runSweep(const Options &o, ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  // The GEMM to sweep.
  SmallVector<mlir::wsgemm::GemmOp> gemms;
  module.walk([&](mlir::wsgemm::GemmOp g) { gemms.push_back(g); });
  mlir::wsgemm::GemmOp gemm;
  for (mlir::wsgemm::GemmOp g : gemms)
    if (o.kernel.empty() || g.getSymName() == o.kernel)
      gemm = gemm ? gemm : g;
  if (!gemm || (o.kernel.empty() && gemms.size() > 1)) {
    llvm::errs() << "ws-gemm-sweep: error: " << o.input;
    if (gemms.empty())
      llvm::errs() << " defines no wsgemm.gemm\n";
    else if (!gemm)
      llvm::errs() << " has no wsgemm.gemm @" << o.kernel << "\n";
    else
      llvm::errs() << " defines " << gemms.size()
                   << " wsgemm.gemm ops: choose one with --kernel\n";
    return 2;
  }
  const std::string name = gemm.getSymName().str();
  unsigned bits = gemm.getAType().getIntOrFloatBitWidth();
  int64_t tileK = 1024 / std::max(bits, 1u);

  // The axes: the user's, then the defaults of knobs the user left alone.
  std::vector<Axis> axes = o.axes;
  for (const Axis &d : defaultAxes(tileK))
    if (std::none_of(axes.begin(), axes.end(),
                     [&](const Axis &a) { return a.knob == d.knob; }) &&
        !o.noDefaults)
      axes.push_back(d);
  KnobList base = splitConfig(printAttr(gemm.getConfigOrEmpty()));
  std::vector<KnobList> space = enumerate(base, axes);

  llvm::outs() << "ws-gemm-sweep: @" << name << " from " << o.input << ": "
               << space.size() << " config(s) over";
  for (const Axis &a : axes)
    llvm::outs() << " " << a.knob << "(" << a.values.size()
                 << (a.fromUser ? "" : ", default") << ")";
  llvm::outs() << "\n";
  llvm::outs().flush();

  // Plan each config in-process.
  auto t0 = Clock::now();
  std::vector<Variant> variants(space.size());
  std::map<std::string, size_t> byPlan;
  auto report = [&](size_t i, const std::string &id,
                    const std::string &status) {
    char head[64];
    std::snprintf(head, sizeof head, "[%3zu/%3zu] plan %6.1fs ", i + 1,
                  space.size(), secondsSince(t0));
    llvm::outs() << head << id << ": " << status << "\n";
    llvm::outs().flush();
  };
  for (size_t i = 0; i < space.size(); ++i) {
    Variant &v = variants[i];
    v.requested = joinConfig(space[i]);
    Attribute attr;
    std::string verifierRule;
    {
      DiagnosticCollector diags(ctx);
      attr = parseAttribute(v.requested, ctx);
      if (!attr || !isa<mlir::wsgemm::ConfigAttr>(attr)) {
        // Knobs that each parse alone but not together break one of the
        // attribute's rules between knobs (split_k with stream_k, say):
        // that combination of the axes is refused like a planner refusal.
        // A knob that does not parse alone is the user's typo: an error.
        std::string text = diags.text;
        bool eachParses = true;
        for (const auto &knob : space[i]) {
          DiagnosticCollector one(ctx);
          KnobList alone{knob};
          if (!parseAttribute(joinConfig(alone), ctx))
            eachParses = false;
        }
        if (!eachParses) {
          llvm::errs() << "ws-gemm-sweep: error: config " << v.requested
                       << " does not parse: " << text << "\n";
          return 2;
        }
        verifierRule = text.empty() ? "the config's verifier rejects it" : text;
      }
    }
    if (!verifierRule.empty()) {
      v.state = State::Refused;
      v.reason = verifierRule;
      v.id = makeId(i, space[i], axes);
      report(i, v.id, "refused: " + v.reason);
      continue;
    }
    mlir::wsgemm::PlannedConfig plan =
        mlir::wsgemm::planGemm(module, name, attr, o.chip);
    v.mlir = std::move(plan.mlir);
    std::string status;
    if (!plan.accepted) {
      v.state = State::Refused;
      v.reason = std::move(plan.reason);
      v.id = makeId(i, space[i], axes);
      status = "refused: " + v.reason;
    } else {
      v.planned = std::move(plan.planned);
      v.smemBytes = plan.smemBytes;
      v.id = makeId(i, splitConfig(v.planned), axes);
      auto [it, fresh] = byPlan.emplace(v.planned, i);
      if (!fresh) {
        v.state = State::Duplicate;
        v.reason = "plans like " + variants[it->second].id;
        status = "same plan as " + variants[it->second].id;
      } else {
        status = "planned, " + std::to_string(v.smemBytes) + " bytes SMEM";
      }
    }
    report(i, v.id, status);
  }

  std::vector<size_t> todo;
  for (size_t i = 0; i < variants.size(); ++i)
    if (variants[i].state == State::Planned)
      todo.push_back(i);
  size_t refused = std::count_if(variants.begin(), variants.end(),
                                 [](const Variant &v) {
                                   return v.state == State::Refused;
                                 });
  llvm::outs() << "planned: " << todo.size() << " to compile, " << refused
               << " refused by the planner, "
               << variants.size() - todo.size() - refused << " duplicate(s)\n";
  if (o.dryRun)
    return todo.empty() ? 1 : 0;
  if (todo.empty()) {
    llvm::errs() << "ws-gemm-sweep: error: every config was refused; "
                    "nothing to compile (no family written)\n";
    return 1;
  }

  // Compile, --jobs at a time.
  if (std::error_code ec = llvm::sys::fs::create_directories(o.outDir)) {
    llvm::errs() << "ws-gemm-sweep: error: cannot create " << o.outDir << ": "
                 << ec.message() << "\n";
    return 2;
  }
  for (size_t i : todo) {
    Variant &v = variants[i];
    std::string dir = o.outDir + "/" + v.id;
    llvm::sys::fs::create_directories(dir);
    if (!writeFile(dir + "/" + name + ".mlir", v.mlir))
      return 2;
  }
  unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, todo.size());
  llvm::outs() << "compiling " << todo.size() << " variant(s) with " << jobs
               << " job(s): " << o.compile << "\n";
  llvm::outs().flush();
  auto t1 = Clock::now();
  std::atomic<size_t> next{0};
  std::mutex mu;
  size_t done = 0;
  auto worker = [&]() {
    while (true) {
      size_t k = next++;
      if (k >= todo.size())
        return;
      Variant &v = variants[todo[k]];
      std::string dir = o.outDir + "/" + v.id;
      auto start = Clock::now();
      int rc = 0;
      std::string log = compileOne(o, dir, dir + "/" + name + ".mlir", rc);
      double took = secondsSince(start);
      readSpills(log, v);
      std::string status;
      if (rc == 0) {
        v.state = State::Compiled;
        if (o.emit == "ptx")
          v.spillBytes = -1;
        status = v.spillBytes > 0
                     ? "compiled, SPILLS " + std::to_string(v.spillBytes) +
                           " bytes (" + std::to_string(v.registers) +
                           " registers)"
                     : (v.spillBytes == 0 ? "compiled, no spills"
                                          : "compiled (PTX only)");
      } else if (log.find("spills registers") != std::string::npos) {
        v.state = State::Refused;
        v.reason = firstLines(log, 1);
        status = "refused (--spills=error): " + v.reason;
      } else {
        v.state = State::Failed;
        v.reason = "ws-gemm-compile exit " + std::to_string(rc) + ": " +
                   firstLines(log, 3) + " (log: " + dir + "/compile.log)";
        status = "FAILED (the planner accepted it): " + v.reason;
      }
      std::lock_guard<std::mutex> lock(mu);
      char head[80];
      std::snprintf(head, sizeof head, "[%3zu/%3zu] %6.1fs (%.1fs) ", ++done,
                    todo.size(), secondsSince(t1), took);
      llvm::outs() << head << v.id << ": " << status << "\n";
      llvm::outs().flush();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < jobs; ++j)
    pool.emplace_back(worker);
  for (std::thread &t : pool)
    t.join();

  // The family manifest, keys in the order docs/tuning.md gives them.
  size_t compiled = 0, refusedTotal = 0, failedCount = 0, spilling = 0;
  for (const Variant &v : variants) {
    compiled += v.state == State::Compiled;
    refusedTotal += v.state == State::Refused;
    failedCount += v.state == State::Failed;
    spilling += v.state == State::Compiled && v.spillBytes > 0;
  }
  llvm::outs() << llvm::formatv(
      "done in {0:f1}s: {1} config(s): {2} compiled ({3} spill), {4} refused, "
      "{5} duplicate(s), {6} FAILED\n",
      secondsSince(t0), variants.size(), compiled, spilling, refusedTotal,
      variants.size() - todo.size() - refused, failedCount);
  if (compiled == 0) {
    llvm::errs() << "ws-gemm-sweep: error: no variant compiled (no family "
                    "written)\n";
    return 1;
  }
  std::string command;
  for (const std::string &a : o.argv)
    command += (command.empty() ? "" : " ") + a;
  mlir::wsgemm::FamilyManifest family;
  family.name = name;
  family.source = o.input;
  family.command = command;
  for (const Variant &v : variants) {
    if (v.state == State::Compiled)
      family.variants.push_back({v.id, v.id + "/" + name + ".json", v.planned,
                                 v.requested, "", v.smemBytes, v.spillBytes});
    else if (v.state == State::Refused || v.state == State::Failed)
      (v.state == State::Refused ? family.refused : family.failed)
          .push_back({v.id, "", v.requested, "", v.reason});
  }
  std::string text = mlir::wsgemm::printFamilyManifest(family);
  std::string familyPath = o.outDir + "/family.json";
  if (!writeFile(familyPath + ".tmp", text) ||
      llvm::sys::fs::rename(familyPath + ".tmp", familyPath))
    return 2;
  llvm::outs() << "family: " << familyPath << "\n";
  return failedCount ? 1 : 0;
}

} // namespace wsgemm::sweep
