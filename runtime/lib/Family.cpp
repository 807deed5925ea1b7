//===- Family.cpp - Family manifests and tuning tables --------------------===//
//
// parseFamily() reads the family manifest (docs/tuning.md), loads each
// variant's kernel manifest and checks that all variants take the same
// arguments; the tuning table is read and written here too. Both readers
// use ManifestReader.h, so every error names its key and the rule.
// Selection is Select.cpp.
//
//===----------------------------------------------------------------------===//

#include "ManifestReader.h"

#include "ws-gemm-runtime/Family.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace wsgemm::runtime {

using namespace detail;

namespace {

Expected<std::string> readText(const std::string &what,
                               const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error(what + " " + path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string resolve(const std::string &dir, const std::string &file) {
  if (!file.empty() && file[0] == '/')
    return file;
  return (dir.empty() ? "." : dir) + "/" + file;
}

void checkFormat(const json &root, const char *format) {
  std::string f = getString(need(root, "", "format"), "format");
  if (f != format)
    fail("format", "expected \"" + std::string(format) + "\", got \"" + f +
                       "\"");
  int64_t version = getInt(need(root, "", "version"), "version");
  if (version != 1)
    fail("version", "unsupported version " + std::to_string(version) +
                        " (this runtime reads version 1)");
}

bool validId(const std::string &id) {
  if (id.empty())
    return false;
  for (char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' &&
        c != '-')
      return false;
  return true;
}

/// The first line where two interface descriptions differ, for messages.
std::string firstDifference(const std::string &a, const std::string &b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  while (true) {
    bool ga = static_cast<bool>(std::getline(sa, la));
    bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb)
      return "";
    if (!ga)
      la = "(nothing)";
    if (!gb)
      lb = "(nothing)";
    if (la != lb || !ga || !gb)
      return "'" + la + "' vs '" + lb + "'";
  }
}

Family parseFamilyRoot(const json &root, const std::string &path) {
  Family f;
  f.path = path;
  f.directory = path.empty() ? "." : directoryOf(path);
  checkFormat(root, "ws-gemm-family");
  f.name = getString(need(root, "", "name"), "name");
  if (f.name.empty())
    fail("name", "must not be empty");
  const json &variants = getArray(need(root, "", "variants"), "variants");
  if (variants.empty())
    fail("variants", "must list at least one variant (every config of the "
                     "sweep was refused or failed?)");
  std::set<std::string> ids;
  for (size_t i = 0; i < variants.size(); ++i) {
    std::string key = idx("variants", i);
    const json &v = getObject(variants[i], key);
    FamilyVariant fv;
    fv.id = getString(need(v, key, "id"), sub(key, "id"));
    if (!validId(fv.id))
      fail(sub(key, "id"), "'" + fv.id +
                               "' must be non-empty letters, digits, '.', "
                               "'_' or '-'");
    if (!ids.insert(fv.id).second)
      fail(sub(key, "id"), "duplicate variant id '" + fv.id + "'");
    std::string file =
        getString(need(v, key, "manifest"), sub(key, "manifest"));
    fv.manifestPath = resolve(f.directory, file);
    if (const json *c = maybe(v, "config"))
      fv.config = getString(*c, sub(key, "config"));
    Expected<Manifest> m = loadManifest(fv.manifestPath);
    if (!m)
      fail(key + " (" + fv.id + ")", m.message());
    fv.manifest = std::move(*m);
    f.variants.push_back(std::move(fv));
  }
  const std::string first = describeInterface(f.variants[0].manifest);
  for (size_t i = 1; i < f.variants.size(); ++i) {
    std::string other = describeInterface(f.variants[i].manifest);
    if (other != first)
      fail(idx("variants", i),
           "variant '" + f.variants[i].id + "' takes other arguments than '" +
               f.variants[0].id +
               "' (a family is one GEMM under several configs): " +
               firstDifference(first, other));
  }
  return f;
}

template <typename T, typename F>
Expected<T> parseWith(const std::string &what, const std::string &text,
                      const std::string &path, F body) {
  std::string where = what + (path.empty() ? "" : " " + path) + ": ";
  json root;
  try {
    root = json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/true,
                       /*ignore_comments=*/true);
  } catch (const json::exception &e) {
    return Status::error(where + "invalid JSON: " + e.what());
  }
  try {
    if (!root.is_object())
      fail("", "must be a JSON object, got " + std::string(root.type_name()));
    return body(root);
  } catch (const ManifestError &e) {
    return Status::error(where + e.message);
  } catch (const json::exception &e) {
    return Status::error(where + "internal JSON error: " + e.what());
  }
}

Shape getShape(const json &e, const std::string &key) {
  Shape s;
  s.M = getPositive(need(e, key, "m"), sub(key, "m"));
  s.N = getPositive(need(e, key, "n"), sub(key, "n"));
  s.K = getPositive(need(e, key, "k"), sub(key, "k"));
  if (const json *l = maybe(e, "l"))
    s.L = getPositive(*l, sub(key, "l"));
  return s;
}

double getNonNegative(const json &e, const std::string &key,
                      const std::string &field) {
  const json *v = maybe(e, field);
  if (!v)
    return 0;
  double x = getNumber(*v, sub(key, field));
  if (!(x >= 0) || !std::isfinite(x))
    fail(sub(key, field), "must be a finite number >= 0");
  return x;
}

bool sameShape(const Shape &a, const Shape &b) {
  return a.M == b.M && a.N == b.N && a.K == b.K && a.L == b.L;
}

TuningTable parseTableRoot(const json &root, const std::string &path) {
  TuningTable t;
  t.path = path;
  checkFormat(root, "ws-gemm-tuning");
  t.family = getString(need(root, "", "family"), "family");
  if (const json *d = maybe(root, "device"))
    t.device = getString(*d, "device");
  if (const json *s = maybe(root, "sms"))
    t.smCount = static_cast<int>(getPositive(*s, "sms"));
  const json &entries = getArray(need(root, "", "entries"), "entries");
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string key = idx("entries", i);
    const json &e = getObject(entries[i], key);
    TuningEntry te;
    te.shape = getShape(e, key);
    for (const TuningEntry &prev : t.entries)
      if (sameShape(prev.shape, te.shape))
        fail(key, "shape " + shapeString(te.shape) + " is listed twice");
    te.variant = getString(need(e, key, "variant"), sub(key, "variant"));
    te.ms = getNonNegative(e, key, "ms");
    te.tflops = getNonNegative(e, key, "tflops");
    te.mhz = getNonNegative(e, key, "sm_mhz");
    if (const json *c = maybe(e, "candidates")) {
      std::string ck = sub(key, "candidates");
      getArray(*c, ck);
      for (size_t j = 0; j < c->size(); ++j) {
        std::string k2 = idx(ck, j);
        const json &cj = getObject((*c)[j], k2);
        TunedCandidate tc;
        tc.variant = getString(need(cj, k2, "variant"), sub(k2, "variant"));
        tc.ms = getNonNegative(cj, k2, "ms");
        tc.tflops = getNonNegative(cj, k2, "tflops");
        tc.finalRatio = getNonNegative(cj, k2, "final_ratio");
        te.candidates.push_back(std::move(tc));
      }
    }
    t.entries.push_back(std::move(te));
  }
  return t;
}

} // namespace

int Family::find(const std::string &id) const {
  for (size_t i = 0; i < variants.size(); ++i)
    if (variants[i].id == id)
      return static_cast<int>(i);
  return -1;
}

std::string describeInterface(const Manifest &m) {
  std::ostringstream os;
  os << "arch " << m.arch << "\n";
  os << "batched " << (m.batched ? "true" : "false") << "\n";
  if (m.staticShape)
    os << "static_shape " << (*m.staticShape)[0] << "x" << (*m.staticShape)[1]
       << "x" << (*m.staticShape)[2] << "x" << (*m.staticShape)[3] << "\n";
  for (const auto &[name, op] : m.operands)
    os << "operand " << name << " " << dtypeName(op.dtype) << " "
       << layoutName(op.layout) << "\n";
  // Parameters by name, without what depends on the config (tensor map
  // boxes and swizzles, their order, whether outputs are stored with TMA
  // or directly (a matrix reads as a tensor map here), and the tile
  // scheduler's own parameters).
  std::vector<std::string> params;
  for (const Param &p : m.params) {
    // Sizes come from the problem; the split-K / stream-K workspace,
    // stream-K tile count and tile order from the variant's tile scheduler
    // (the launch fills them): a family may mix data-parallel and stream-K
    // variants, fixed and launch-time tile orders.
    if (p.kind == ParamKind::Size || p.kind == ParamKind::Workspace ||
        p.kind == ParamKind::StreamKTiles || p.kind == ParamKind::TileOrder)
      continue;
    bool matrix = p.kind == ParamKind::TensorMap || p.kind == ParamKind::Matrix;
    std::string s = std::string("param ") +
                    paramKindName(matrix ? ParamKind::TensorMap : p.kind) +
                    " " + (matrix ? p.operand : p.name) + " " +
                    dtypeName(p.dtype);
    if (p.kind == ParamKind::Pointer || p.kind == ParamKind::Reduction) {
      s += " [" + dimsString(p.extent) + "]";
      if (p.kind == ParamKind::Reduction)
        s += std::string(" ") + reduceName(p.reduce);
    }
    params.push_back(s);
  }
  std::sort(params.begin(), params.end());
  for (const std::string &p : params)
    os << p << "\n";
  for (const EvtNode &n : m.nodes) {
    os << "evt " << n.id << " " << evtOpName(n.op);
    for (int a : n.args)
      os << " %" << a;
    if (!n.name.empty())
      os << " " << n.name;
    for (const std::string &s : n.names)
      os << " " << s;
    os << "\n";
  }
  return os.str();
}

Expected<Family> parseFamily(const std::string &jsonText,
                             const std::string &path) {
  return parseWith<Family>("family", jsonText, path, [&](const json &root) {
    return parseFamilyRoot(root, path);
  });
}

Expected<Family> loadFamily(const std::string &path) {
  Expected<std::string> text = readText("family", path);
  if (!text)
    return text.status();
  return parseFamily(*text, path);
}

bool isFamilyFile(const std::string &path) {
  Expected<std::string> text = readText("family", path);
  if (!text)
    return false;
  json root = json::parse(*text, nullptr, /*allow_exceptions=*/false,
                          /*ignore_comments=*/true);
  if (!root.is_object())
    return false;
  auto it = root.find("format");
  return it != root.end() && it->is_string() &&
         it->get<std::string>() == "ws-gemm-family";
}

std::string shapeString(const Shape &s) {
  std::string out = std::to_string(s.M) + "x" + std::to_string(s.N) + "x" +
                    std::to_string(s.K);
  if (s.L != 1)
    out += "x" + std::to_string(s.L);
  return out;
}

TuningEntry *TuningTable::find(const Shape &s) {
  for (TuningEntry &e : entries)
    if (sameShape(e.shape, s))
      return &e;
  return nullptr;
}

Expected<TuningTable> parseTuningTable(const std::string &jsonText,
                                       const std::string &path) {
  return parseWith<TuningTable>(
      "tuning table", jsonText, path,
      [&](const json &root) { return parseTableRoot(root, path); });
}

Expected<TuningTable> loadTuningTable(const std::string &path) {
  Expected<std::string> text = readText("tuning table", path);
  if (!text)
    return text.status();
  return parseTuningTable(*text, path);
}

std::string writeTuningTable(const TuningTable &t) {
  std::vector<TuningEntry> entries = t.entries;
  std::sort(entries.begin(), entries.end(),
            [](const TuningEntry &a, const TuningEntry &b) {
              return std::tie(a.shape.L, a.shape.M, a.shape.N, a.shape.K) <
                     std::tie(b.shape.L, b.shape.M, b.shape.N, b.shape.K);
            });
  json root = json::object();
  root["format"] = "ws-gemm-tuning";
  root["version"] = 1;
  root["family"] = t.family;
  root["device"] = t.device;
  root["sms"] = t.smCount;
  json list = json::array();
  for (const TuningEntry &e : entries) {
    json j = json::object();
    j["m"] = e.shape.M;
    j["n"] = e.shape.N;
    j["k"] = e.shape.K;
    j["l"] = e.shape.L;
    j["variant"] = e.variant;
    j["ms"] = e.ms;
    j["tflops"] = e.tflops;
    if (e.mhz > 0)
      j["sm_mhz"] = e.mhz;
    json cands = json::array();
    for (const TunedCandidate &c : e.candidates) {
      json cj = {{"variant", c.variant}, {"ms", c.ms}, {"tflops", c.tflops}};
      if (c.finalRatio > 0)
        cj["final_ratio"] = c.finalRatio;
      cands.push_back(std::move(cj));
    }
    j["candidates"] = std::move(cands);
    list.push_back(std::move(j));
  }
  root["entries"] = std::move(list);
  return root.dump(2) + "\n";
}

Status checkTuningTable(const Family &f, const TuningTable &t) {
  std::string where =
      "tuning table" + (t.path.empty() ? "" : " " + t.path) + ": ";
  if (t.family != f.name)
    return Status::error(where + "family: tuned for '" + t.family +
                         "', the family is '" + f.name + "'");
  for (size_t i = 0; i < t.entries.size(); ++i)
    if (f.find(t.entries[i].variant) < 0)
      return Status::error(where + idx("entries", i) +
                           ".variant: the family has no variant '" +
                           t.entries[i].variant + "' (re-tune after a sweep)");
  return Status::success();
}

} // namespace wsgemm::runtime
