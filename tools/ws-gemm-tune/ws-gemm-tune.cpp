//===- ws-gemm-tune.cpp - Time a kernel family per shape, record winners -===//
//
// ws-gemm-tune FAMILY --shapes MxNxK[xL],... -o TABLE [--iters N]
//     [--warmup N] [--rounds R] [--finalists N] [--final-rounds R]
//     [--budget-s S] [--variants ID,...] [--seed S] [--scalar NAME=V]...
//     [--device D]
//
// For each shape: every variant of the family is checked once against the
// CPU reference (wrong ones are reported and never timed), then timed in
// alternating rounds as ws-gemm-bench times one kernel (Shape.cpp), and the
// --finalists fastest medians meet in a final of --final-rounds paired
// rounds (Final.h); its winner becomes the shape's entry in the tuning table
// TABLE (docs/tuning.md), which is updated in place (other shapes kept) and
// rewritten after every shape, so a run cut short keeps what it measured.
// Each variant is verified on the first shape it runs on (--verify all:
// on every shape; a wrong variant is never timed on any later shape).
// --budget-s bounds the whole run: once a shape is set up and verified, its
// timed rounds get an equal share of what is left, and a shape stops
// between timed blocks when the next would not fit; with no time left a
// shape is not set up at all. Exit: 0, 1 when a variant was wrong or a shape got no result, 2 on
// bad input or a CUDA error.
//
//===----------------------------------------------------------------------===//

#include "Tune.h"

#include "ws-gemm-runtime/Kernel.h"

#include "../common/Flags.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace wsgemm::runtime;
using namespace wsgemm::tune;

namespace {

void usage() {
  std::fprintf(
      stderr,
      "usage: ws-gemm-tune FAMILY --shapes MxNxK[xL],... -o TABLE\n"
      "         [--iters N] [--warmup N] [--rounds R] [--finalists N]\n"
      "         [--final-rounds R] [--budget-s S]\n"
      "         [--variants ID,...] [--verify first|all] [--seed S]\n"
      "         [--scalar NAME=V]... [--device D]\n"
      "  FAMILY      family.json written by ws-gemm-sweep\n"
      "  -o TABLE    tuning table to create or update (docs/tuning.md)\n"
      "  --iters/--warmup  timed/untimed launches per block (50/10)\n"
      "  --rounds    alternating rounds over the variants (3)\n"
      "  --finalists the fastest N (by median) meet in a final (3; < 2: none)\n"
      "  --final-rounds  the final's rounds, each variant's time over the\n"
      "              leader's in the same round, median wins (4; 0: none)\n"
      "  --budget-s  wall-clock bound of the whole run in seconds (480)\n"
      "  --verify    check each variant against the CPU reference on the\n"
      "              first shape it runs on (first, default) or on every\n"
      "              shape (all); list the smallest shape first\n");
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

bool parseShape(const std::string &text, Shape &s) {
  std::vector<int64_t> d;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, 'x')) {
    char *end = nullptr;
    long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end || v < 1)
      return false;
    d.push_back(v);
  }
  if (d.size() != 3 && d.size() != 4)
    return false;
  s = Shape{d[0], d[1], d[2], d.size() == 4 ? d[3] : 1};
  return true;
}

bool parseOptions(int argc, char **argv, Options &o) {
  wsgemm::tools::FlagCursor args(argc, argv);
  while (!args.done()) {
    args.advance();
    const std::string &a = args.flag();
    bool ok = true;
    if (a == "--shapes" || a == "--variants" || a == "-o" ||
        a == "--budget-s") {
      const char *v = args.value();
      if (!v)
        return false;
      if (a == "-o") {
        o.table = v;
      } else if (a == "--budget-s") {
        char *end = nullptr;
        o.budgetS = std::strtod(v, &end);
        if (*end || !(o.budgetS > 0)) {
          std::fprintf(stderr, "error: --budget-s wants seconds > 0\n");
          return false;
        }
      } else if (a == "--variants") {
        o.only = splitList(v);
      } else {
        for (const std::string &t : splitList(v)) {
          Shape s;
          if (!parseShape(t, s)) {
            std::fprintf(stderr, "error: --shapes: '%s' is not MxNxK or "
                                 "MxNxKxL (positive integers)\n",
                         t.c_str());
            return false;
          }
          o.shapes.push_back(s);
        }
      }
    } else if (a == "--verify") {
      const char *v = args.value();
      if (!v || (std::string(v) != "first" && std::string(v) != "all")) {
        std::fprintf(stderr, "error: --verify wants 'first' or 'all'\n");
        return false;
      }
      o.verifyAll = std::string(v) == "all";
    } else if (a == "--iters") {
      ok = args.integer(o.iters);
    } else if (a == "--warmup") {
      ok = args.integer(o.warmup);
    } else if (a == "--rounds") {
      ok = args.integer(o.rounds);
    } else if (a == "--finalists") {
      ok = args.integer(o.finalists);
    } else if (a == "--final-rounds") {
      ok = args.integer(o.finalRounds);
    } else if (a == "--device") {
      ok = args.integer(o.device);
    } else if (a == "--seed") {
      ok = args.integer(o.seed);
    } else if (a == "--scalar") {
      ok = args.scalar(o.scalars);
    } else if (a == "-h" || a == "--help") {
      usage();
      std::exit(0);
    } else {
      ok = args.positional(o.family);
    }
    if (!ok)
      return false;
  }
  if (o.family.empty() || o.table.empty() || o.shapes.empty() ||
      o.iters < 1 || o.warmup < 0 || o.rounds < 1 || o.finalists < 0 ||
      o.finalRounds < 0) {
    std::fprintf(stderr, "error: FAMILY, --shapes and -o are required; "
                         "--iters >= 1, --rounds >= 1, --finalists >= 0, "
                         "--final-rounds >= 0\n");
    return false;
  }
  return true;
}

int fail(const Status &s) {
  std::fprintf(stderr, "error: %s\n", s.message().c_str());
  return 2;
}

Status writeTable(const TuningTable &t, const std::string &path) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      return Status::error("cannot write " + tmp);
    out << writeTuningTable(t);
    if (!out)
      return Status::error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return Status::error("cannot rename " + tmp + " to " + path);
  return Status::success();
}

int run(const Options &o) {
  auto start = Clock::now();
  auto family = loadFamily(o.family);
  if (!family)
    return fail(family.status());
  const Family &f = *family;
  std::vector<int> candidates;
  if (o.only.empty()) {
    for (size_t i = 0; i < f.variants.size(); ++i)
      candidates.push_back(static_cast<int>(i));
  } else {
    for (const std::string &id : o.only) {
      int i = f.find(id);
      if (i < 0)
        return fail(Status::error("--variants: the family has no variant '" +
                                  id + "'"));
      candidates.push_back(i);
    }
  }

  // The table to update: an existing one must belong to this family.
  TuningTable table;
  table.family = f.name;
  if (std::ifstream(o.table).good()) {
    auto old = loadTuningTable(o.table);
    if (!old)
      return fail(old.status());
    if (Status s = checkTuningTable(f, *old); !s.ok())
      return fail(Status(s).prepend("refusing to update"));
    table = std::move(*old);
    std::printf("updating %s (%zu entr%s)\n", o.table.c_str(),
                table.entries.size(), table.entries.size() == 1 ? "y" : "ies");
  }

  auto ctx = Context::create(o.device);
  if (!ctx)
    return fail(ctx.status());
  struct CacheClear {
    ~CacheClear() { ModuleCache::global().clear(); }
  } cacheClear;
  auto dev = queryCurrentDevice();
  if (!dev)
    return fail(dev.status());
  table.device = dev->name;
  table.smCount = dev->smCount;
  std::printf("family %s: %zu variant(s), %zu to tune on %zu shape(s); "
              "device %s (%d SMs); budget %.0f s; %d round(s) x (%d warm-up "
              "+ %d timed)%s\n",
              f.name.c_str(), f.variants.size(), candidates.size(),
              o.shapes.size(), dev->name.c_str(), dev->smCount, o.budgetS,
              o.rounds, o.warmup, o.iters,
              o.finalists > 1 && o.finalRounds > 0
                  ? (", then a final of " + std::to_string(o.finalRounds) +
                     " round(s) for the " + std::to_string(o.finalists) +
                     " fastest")
                        .c_str()
                  : "");

  int exitCode = 0;
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(o.budgetS));
  std::vector<int> checked(f.variants.size(), 0);
  for (size_t i = 0; i < o.shapes.size(); ++i) {
    const Shape &s = o.shapes[i];
    if (Clock::now() >= deadline) {
      std::printf("shape %s: NOT TUNED (the %.0f s budget is spent)\n",
                  shapeString(s).c_str(), o.budgetS);
      exitCode = 1;
      continue;
    }
    auto result = tuneShape(o, f, candidates, s, start, deadline,
                            o.shapes.size() - i, checked);
    if (!result)
      return fail(result.status());
    if (result->wrong)
      exitCode = 1;
    if (result->entry.variant.empty()) {
      std::printf("shape %s: NO RESULT (%d wrong, %d skipped)\n",
                  shapeString(s).c_str(), result->wrong, result->skipped);
      exitCode = 1;
      continue;
    }
    const TuningEntry &e = result->entry;
    std::printf("shape %s: winner %s %.4f ms %.1f TFLOP/s over %d complete "
                "round(s) (%zu timed, %d wrong, %d skipped); %.1f s elapsed\n",
                shapeString(s).c_str(), e.variant.c_str(), e.ms, e.tflops,
                result->rounds, e.candidates.size(), result->wrong,
                result->skipped, secondsSince(start));
    if (TuningEntry *old = table.find(s))
      *old = e;
    else
      table.entries.push_back(e);
    if (Status st = writeTable(table, o.table); !st.ok())
      return fail(st);
  }
  std::printf("tuning table: %s (%zu entr%s); %.1f s\n", o.table.c_str(),
              table.entries.size(), table.entries.size() == 1 ? "y" : "ies",
              secondsSince(start));
  return exitCode;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    usage();
    return 2;
  }
  return run(o);
}
