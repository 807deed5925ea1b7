//===- Manifest.cpp - Parse and validate the kernel manifest --------------===//
//
// A small recursive reader over nlohmann::json that keeps the key path of
// what it is reading ("params[2].box") so every error names its key and the
// rule broken. Internally a failure throws ManifestError; parseManifest()
// turns it into a Status, so nothing escapes the API.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Manifest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

using json = nlohmann::json;

namespace wsgemm::runtime {

//===----------------------------------------------------------------------===//
// Names of enumerators
//===----------------------------------------------------------------------===//

const char *dimName(Dim d) {
  switch (d) {
  case Dim::M:
    return "M";
  case Dim::N:
    return "N";
  case Dim::K:
    return "K";
  case Dim::L:
    return "L";
  }
  return "?";
}

const char *layoutName(Layout l) {
  switch (l) {
  case Layout::KMajor:
    return "k_major";
  case Layout::MMajor:
    return "m_major";
  case Layout::NMajor:
    return "n_major";
  }
  return "?";
}

unsigned swizzleBytes(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return 0;
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
    return 128;
  }
  return 0;
}

const char *swizzleName(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return "none";
  case Swizzle::B32:
    return "32B";
  case Swizzle::B64:
    return "64B";
  case Swizzle::B128:
    return "128B";
  }
  return "?";
}

const char *reduceName(ReduceKind r) {
  switch (r) {
  case ReduceKind::Sum:
    return "sum";
  case ReduceKind::Max:
    return "max";
  case ReduceKind::Min:
    return "min";
  case ReduceKind::AbsMax:
    return "absmax";
  }
  return "?";
}

const char *paramKindName(ParamKind k) {
  switch (k) {
  case ParamKind::TensorMap:
    return "tensor_map";
  case ParamKind::Pointer:
    return "pointer";
  case ParamKind::Scalar:
    return "scalar";
  case ParamKind::ScalarPointer:
    return "scalar_pointer";
  case ParamKind::Reduction:
    return "reduction";
  case ParamKind::Size:
    return "size";
  }
  return "?";
}

namespace {

struct OpInfo {
  EvtOp op;
  const char *name;
  int arity; // -1: leaf (no args)
};

// Every op of the EVT table with its argument count.
const OpInfo kOps[] = {
    {EvtOp::Acc, "acc", -1},
    {EvtOp::LoadSrc, "load_src", -1},
    {EvtOp::Scalar, "scalar", -1},
    {EvtOp::LoadVecM, "load_vec_m", -1},
    {EvtOp::LoadVecN, "load_vec_n", -1},
    {EvtOp::AuxLoad, "aux_load", -1},
    {EvtOp::Const, "const", -1},
    {EvtOp::Add, "add", 2},
    {EvtOp::Sub, "sub", 2},
    {EvtOp::Mul, "mul", 2},
    {EvtOp::Div, "div", 2},
    {EvtOp::Max, "max", 2},
    {EvtOp::Min, "min", 2},
    {EvtOp::Neg, "neg", 1},
    {EvtOp::Abs, "abs", 1},
    {EvtOp::Exp, "exp", 1},
    {EvtOp::Log, "log", 1},
    {EvtOp::Sqrt, "sqrt", 1},
    {EvtOp::Rsqrt, "rsqrt", 1},
    {EvtOp::Tanh, "tanh", 1},
    {EvtOp::Erf, "erf", 1},
    {EvtOp::Fma, "fma", 3},
    {EvtOp::Select, "select", 3},
    {EvtOp::Cmp, "cmp", 2},
    {EvtOp::Identity, "identity", 1},
    {EvtOp::Relu, "relu", 1},
    {EvtOp::Clamp, "clamp", 1},
    {EvtOp::LeakyRelu, "leaky_relu", 1},
    {EvtOp::ThresholdRelu, "threshold_relu", 1},
    {EvtOp::Gelu, "gelu", 1},
    {EvtOp::GeluTaylor, "gelu_taylor", 1},
    {EvtOp::Silu, "silu", 1},
    {EvtOp::Sigmoid, "sigmoid", 1},
    {EvtOp::Hardswish, "hardswish", 1},
    {EvtOp::Convert, "convert", 1},
    {EvtOp::Store, "store", 1},
    {EvtOp::AuxStore, "aux_store", 1},
    {EvtOp::ReduceToVecM, "reduce_to_vec_m", 1},
    {EvtOp::ReduceToVecN, "reduce_to_vec_n", 1},
    {EvtOp::ReduceToScalar, "reduce_to_scalar", 1},
};

const OpInfo &opInfo(EvtOp op) {
  for (const OpInfo &i : kOps)
    if (i.op == op)
      return i;
  return kOps[0];
}

bool isOutputOp(EvtOp op) {
  return op == EvtOp::Store || op == EvtOp::AuxStore ||
         op == EvtOp::ReduceToVecM || op == EvtOp::ReduceToVecN ||
         op == EvtOp::ReduceToScalar;
}

} // namespace

const char *evtOpName(EvtOp op) { return opInfo(op).name; }

//===----------------------------------------------------------------------===//
// Manifest helpers
//===----------------------------------------------------------------------===//

const Param *Manifest::findParam(const std::string &name) const {
  for (const Param &p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

const Param *Manifest::findTensorMap(const std::string &op) const {
  for (const Param &p : params)
    if (p.kind == ParamKind::TensorMap && p.operand == op)
      return &p;
  return nullptr;
}

const EvtNode &Manifest::storeNode() const {
  for (const EvtNode &n : nodes)
    if (n.op == EvtOp::Store)
      return n;
  return nodes.front(); // unreachable for a validated manifest
}

std::string Manifest::cubinPath() const {
  if (!cubin.empty() && cubin.front() == '/')
    return cubin;
  if (directory.empty())
    return cubin;
  return directory + "/" + cubin;
}

//===----------------------------------------------------------------------===//
// The reader
//===----------------------------------------------------------------------===//

namespace {

struct ManifestError {
  std::string message;
};

[[noreturn]] void fail(const std::string &key, const std::string &rule) {
  throw ManifestError{key + ": " + rule};
}

std::string join(const std::vector<std::string> &items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + items[i];
  return out;
}

std::string typeName(const json &j) { return j.type_name(); }

std::string sub(const std::string &key, const std::string &field) {
  return key.empty() ? field : key + "." + field;
}
std::string idx(const std::string &key, size_t i) {
  return key + "[" + std::to_string(i) + "]";
}

/// The member `field` of object `obj` (at `key`), required.
const json &need(const json &obj, const std::string &key,
                 const std::string &field) {
  auto it = obj.find(field);
  if (it == obj.end())
    fail(sub(key, field), "missing required field");
  return *it;
}

const json *maybe(const json &obj, const std::string &field) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null())
    return nullptr;
  return &*it;
}

std::string getString(const json &j, const std::string &key) {
  if (!j.is_string())
    fail(key, "must be a string, got " + typeName(j));
  return j.get<std::string>();
}

int64_t getInt(const json &j, const std::string &key) {
  if (!j.is_number_integer())
    fail(key, "must be an integer, got " + typeName(j) +
                  (j.is_number() ? " " + j.dump() : ""));
  if (j.is_number_unsigned() &&
      j.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
    fail(key, "integer out of range");
  return j.get<int64_t>();
}

int64_t getPositive(const json &j, const std::string &key) {
  int64_t v = getInt(j, key);
  if (v < 1)
    fail(key, "must be >= 1, got " + std::to_string(v));
  return v;
}

/// A number; also accepts the strings "inf", "-inf" and "nan", which JSON
/// cannot spell.
double getNumber(const json &j, const std::string &key) {
  if (j.is_number())
    return j.get<double>();
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s == "inf" || s == "+inf")
      return INFINITY;
    if (s == "-inf")
      return -INFINITY;
    if (s == "nan")
      return NAN;
  }
  fail(key,
       "must be a number (or \"inf\", \"-inf\", \"nan\"), got " + j.dump());
}

bool getBool(const json &j, const std::string &key) {
  if (!j.is_boolean())
    fail(key, "must be true or false, got " + j.dump());
  return j.get<bool>();
}

const json &getArray(const json &j, const std::string &key) {
  if (!j.is_array())
    fail(key, "must be an array, got " + typeName(j));
  return j;
}

const json &getObject(const json &j, const std::string &key) {
  if (!j.is_object())
    fail(key, "must be an object, got " + typeName(j));
  return j;
}

/// Matches a string against a fixed set of names.
template <typename E>
E getEnum(const json &j, const std::string &key, const char *what,
          const std::vector<std::pair<const char *, E>> &table) {
  std::string s = getString(j, key);
  std::vector<std::string> names;
  for (const auto &[name, value] : table) {
    if (s == name)
      return value;
    names.push_back(name);
  }
  fail(key, std::string("unknown ") + what + " '" + s + "' (expected one of " +
                join(names) + ")");
}

DType getDType(const json &j, const std::string &key) {
  std::string s = getString(j, key);
  if (auto t = parseDType(s))
    return *t;
  fail(key, "bad dtype '" + s +
                "' (expected one of f16, bf16, f32, f8e4m3, "
                "f8e5m2)");
}

Rounding getRounding(const json &j, const std::string &key) {
  return getEnum<Rounding>(j, key, "rounding",
                           {{"rn", Rounding::RN},
                            {"rz", Rounding::RZ},
                            {"rm", Rounding::RM},
                            {"rp", Rounding::RP}});
}

ReduceKind getReduce(const json &j, const std::string &key) {
  return getEnum<ReduceKind>(j, key, "reduction",
                             {{"sum", ReduceKind::Sum},
                              {"max", ReduceKind::Max},
                              {"min", ReduceKind::Min},
                              {"absmax", ReduceKind::AbsMax}});
}

Dim getDim(const json &j, const std::string &key) {
  return getEnum<Dim>(
      j, key, "dimension",
      {{"M", Dim::M}, {"N", Dim::N}, {"K", Dim::K}, {"L", Dim::L}});
}

std::vector<Dim> getDims(const json &j, const std::string &key) {
  getArray(j, key);
  std::vector<Dim> dims;
  for (size_t i = 0; i < j.size(); ++i) {
    Dim d = getDim(j[i], idx(key, i));
    if (std::find(dims.begin(), dims.end(), d) != dims.end())
      fail(idx(key, i),
           std::string("dimension ") + dimName(d) + " appears twice");
    dims.push_back(d);
  }
  return dims;
}

std::string dimsString(const std::vector<Dim> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += std::string(i ? ", " : "") + dimName(dims[i]);
  return s + "]";
}

template <size_t N>
std::array<uint32_t, N> getPositiveTriple(const json &j,
                                          const std::string &key) {
  getArray(j, key);
  if (j.size() != N)
    fail(key, "must have " + std::to_string(N) + " entries, got " +
                  std::to_string(j.size()));
  std::array<uint32_t, N> out{};
  for (size_t i = 0; i < N; ++i) {
    int64_t v = getPositive(j[i], idx(key, i));
    if (v > std::numeric_limits<int32_t>::max())
      fail(idx(key, i), "exceeds the int32 range");
    out[i] = static_cast<uint32_t>(v);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Sections
//===----------------------------------------------------------------------===//

void parseArch(Manifest &m, const json &root) {
  m.arch = getString(need(root, "", "arch"), "arch");
  const std::string &a = m.arch;
  size_t end = a.size();
  bool specific = end > 3 && a[end - 1] == 'a';
  if (specific)
    --end;
  std::string digits = a.size() > 3 ? a.substr(3, end - 3) : "";
  bool ok = a.rfind("sm_", 0) == 0 && digits.size() >= 2 &&
            std::all_of(digits.begin(), digits.end(),
                        [](char c) { return c >= '0' && c <= '9'; });
  if (!ok)
    fail("arch", "must look like sm_90a or sm_90, got '" + a + "'");
  int cc = std::stoi(digits);
  m.archMajor = cc / 10;
  m.archMinor = cc % 10;
  m.archSpecific = specific;
}

void parseGrid(Manifest &m, const json &root) {
  const json &g = getObject(need(root, "", "grid"), "grid");
  m.grid.kind = getEnum<GridKind>(
      need(g, "grid", "kind"), "grid.kind", "grid kind",
      {{"tiles", GridKind::Tiles}, {"persistent", GridKind::Persistent}});
  if (const json *r = maybe(g, "raster"))
    m.grid.raster = getEnum<Raster>(
        *r, "grid.raster", "raster order",
        {{"along_m", Raster::AlongM}, {"along_n", Raster::AlongN}});
  if (const json *s = maybe(g, "swizzle")) {
    int64_t v = getPositive(*s, "grid.swizzle");
    if (v != 1 && v != 2 && v != 4 && v != 8)
      fail("grid.swizzle", "must be 1, 2, 4 or 8, got " + std::to_string(v));
    if (m.grid.kind == GridKind::Tiles && v != 1)
      fail("grid.swizzle", "must be 1 for grid kind 'tiles' (tile swizzling "
                           "belongs to the persistent scheduler), got " +
                               std::to_string(v));
    m.grid.swizzle = static_cast<int>(v);
  }
  if (const json *c = maybe(g, "ctas_per_sm")) {
    int64_t v = getPositive(*c, "grid.ctas_per_sm");
    if (v > 32)
      fail("grid.ctas_per_sm", "must be <= 32, got " + std::to_string(v));
    m.grid.ctasPerSm = static_cast<int>(v);
  }
}

void parseOperands(Manifest &m, const json &root) {
  const json &ops = getObject(need(root, "", "operands"), "operands");
  for (auto it = ops.begin(); it != ops.end(); ++it) {
    const std::string &name = it.key();
    std::string key = "operands." + name;
    if (name != "A" && name != "B" && name != "C" && name != "D")
      fail(key, "unknown operand (expected A, B, C or D; auxiliary matrices "
                "are declared by evt aux_load/aux_store nodes)");
    const json &o = getObject(it.value(), key);
    OperandInfo info;
    info.dtype = getDType(need(o, key, "dtype"), key + ".dtype");
    std::vector<std::pair<const char *, Layout>> allowed;
    if (name == "A")
      allowed = {{"k_major", Layout::KMajor}, {"m_major", Layout::MMajor}};
    else if (name == "B")
      allowed = {{"k_major", Layout::KMajor}, {"n_major", Layout::NMajor}};
    else
      allowed = {{"n_major", Layout::NMajor}};
    info.layout = getEnum<Layout>(need(o, key, "layout"), key + ".layout",
                                  ("layout for " + name).c_str(), allowed);
    m.operands[name] = info;
  }
  for (const char *req : {"A", "B", "D"})
    if (!m.operands.count(req))
      fail(std::string("operands.") + req, "missing required field");
}

Param parseParam(const json &j, const std::string &key) {
  getObject(j, key);
  Param p;
  p.name = getString(need(j, key, "name"), key + ".name");
  if (p.name.empty())
    fail(key + ".name", "must not be empty");
  p.kind = getEnum<ParamKind>(need(j, key, "kind"), key + ".kind", "kind",
                              {{"tensor_map", ParamKind::TensorMap},
                               {"pointer", ParamKind::Pointer},
                               {"scalar", ParamKind::Scalar},
                               {"scalar_pointer", ParamKind::ScalarPointer},
                               {"reduction", ParamKind::Reduction},
                               {"size", ParamKind::Size}});
  switch (p.kind) {
  case ParamKind::TensorMap: {
    p.operand = getString(need(j, key, "operand"), key + ".operand");
    p.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    p.dims = getDims(need(j, key, "dims"), key + ".dims");
    if (p.dims.empty() || p.dims.size() > 5)
      fail(key + ".dims", "must have 1 to 5 dimensions (TMA rank), got " +
                              std::to_string(p.dims.size()));
    const json &box = getArray(need(j, key, "box"), key + ".box");
    if (box.size() != p.dims.size())
      fail(key + ".box", "must have one entry per dimension (" +
                             std::to_string(p.dims.size()) + "), got " +
                             std::to_string(box.size()));
    for (size_t i = 0; i < box.size(); ++i) {
      int64_t v = getPositive(box[i], idx(key + ".box", i));
      if (v > 256)
        fail(idx(key + ".box", i),
             "must be <= 256 (TMA box limit), got " + std::to_string(v));
      p.box.push_back(static_cast<uint32_t>(v));
    }
    p.swizzle =
        getEnum<Swizzle>(need(j, key, "swizzle"), key + ".swizzle", "swizzle",
                         {{"none", Swizzle::None},
                          {"32B", Swizzle::B32},
                          {"64B", Swizzle::B64},
                          {"128B", Swizzle::B128}});
    getEnum<int>(need(j, key, "oob_fill"), key + ".oob_fill", "oob_fill",
                 {{"zero", 0}});
    if (const json *l2 = maybe(j, "l2_promotion"))
      p.l2Promotion =
          getEnum<L2Promotion>(*l2, key + ".l2_promotion", "l2_promotion",
                               {{"none", L2Promotion::None},
                                {"64B", L2Promotion::B64},
                                {"128B", L2Promotion::B128},
                                {"256B", L2Promotion::B256}});
    size_t innerBytes = p.box[0] * dtypeSize(p.dtype);
    if (innerBytes % 16 != 0)
      fail(key + ".box", "inner box " + std::to_string(innerBytes) +
                             " bytes (box[0] = " + std::to_string(p.box[0]) +
                             " x " + std::to_string(dtypeSize(p.dtype)) +
                             " bytes) is not a multiple of 16 (TMA "
                             "requirement)");
    if (p.swizzle != Swizzle::None && innerBytes > swizzleBytes(p.swizzle))
      fail(key + ".box", "inner box " + std::to_string(innerBytes) +
                             " bytes exceeds the " + swizzleName(p.swizzle) +
                             " swizzle span (TMA requirement)");
    break;
  }
  case ParamKind::Pointer:
    p.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    p.extent = getDims(need(j, key, "extent"), key + ".extent");
    break;
  case ParamKind::Scalar:
  case ParamKind::ScalarPointer:
    p.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    if (p.dtype != DType::F32)
      fail(key + ".dtype", std::string(paramKindName(p.kind)) +
                               " parameters must be f32, got " +
                               dtypeName(p.dtype));
    break;
  case ParamKind::Reduction:
    p.reduce = getReduce(need(j, key, "reduce"), key + ".reduce");
    p.extent = getDims(need(j, key, "extent"), key + ".extent");
    p.dtype = DType::F32;
    if (const json *d = maybe(j, "dtype")) {
      p.dtype = getDType(*d, key + ".dtype");
      if (p.dtype != DType::F32)
        fail(key + ".dtype", std::string("reduction outputs must be f32, "
                                         "got ") +
                                 dtypeName(p.dtype));
    }
    break;
  case ParamKind::Size:
    p.dim = getDim(need(j, key, "dim"), key + ".dim");
    break;
  }
  return p;
}

EvtNode parseNode(const json &j, const std::string &key, size_t index,
                  const std::vector<EvtNode> &before) {
  getObject(j, key);
  EvtNode n;
  n.id = static_cast<int>(index);
  if (const json *id = maybe(j, "id")) {
    int64_t v = getInt(*id, key + ".id");
    if (v != static_cast<int64_t>(index))
      fail(key + ".id", "must equal its position " + std::to_string(index) +
                            " (nodes are listed in topological order), got " +
                            std::to_string(v));
  }
  {
    std::string op = getString(need(j, key, "op"), key + ".op");
    bool found = false;
    for (const OpInfo &i : kOps)
      if (op == i.name) {
        n.op = i.op;
        found = true;
      }
    if (!found)
      fail(key + ".op", "unknown op '" + op + "'");
  }
  const OpInfo &info = opInfo(n.op);
  const json *args = maybe(j, "args");
  if (info.arity < 0) {
    if (args && !(args->is_array() && args->empty()))
      fail(key + ".args", std::string(info.name) + " is a leaf and takes no "
                                                   "arguments");
  } else {
    if (!args)
      fail(key + ".args", "missing required field");
    getArray(*args, key + ".args");
    if (static_cast<int>(args->size()) != info.arity)
      fail(key + ".args", std::string(info.name) + " takes " +
                              std::to_string(info.arity) + " argument" +
                              (info.arity == 1 ? "" : "s") + ", got " +
                              std::to_string(args->size()));
    for (size_t a = 0; a < args->size(); ++a) {
      std::string akey = idx(key + ".args", a);
      int64_t v = getInt((*args)[a], akey);
      if (v < 0 || v >= static_cast<int64_t>(index))
        fail(akey, "node " + std::to_string(v) +
                       " is not defined before "
                       "node " +
                       std::to_string(index) +
                       " (nodes must be in topological order)");
      if (isOutputOp(before[v].op))
        fail(akey, "node " + std::to_string(v) + " (" +
                       evtOpName(before[v].op) + ") produces no value");
      n.args.push_back(static_cast<int>(v));
    }
  }

  switch (n.op) {
  case EvtOp::LoadSrc:
    if (const json *s = maybe(j, "skip_if_zero"))
      n.skipIfZero = getString(*s, key + ".skip_if_zero");
    break;
  case EvtOp::Scalar: {
    n.source = getEnum<ScalarSource>(need(j, key, "source"), key + ".source",
                                     "scalar source",
                                     {{"attr", ScalarSource::Attr},
                                      {"param", ScalarSource::Param},
                                      {"ptr", ScalarSource::Ptr}});
    if (n.source == ScalarSource::Attr) {
      n.value = getNumber(need(j, key, "value"), key + ".value");
    } else {
      const json &names = getArray(need(j, key, "names"), key + ".names");
      if (names.empty())
        fail(key + ".names", "must name at least one scalar");
      for (size_t i = 0; i < names.size(); ++i)
        n.names.push_back(getString(names[i], idx(key + ".names", i)));
    }
    break;
  }
  case EvtOp::LoadVecM:
  case EvtOp::LoadVecN:
  case EvtOp::AuxLoad:
    n.name = getString(need(j, key, "name"), key + ".name");
    n.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    break;
  case EvtOp::Const:
    n.value = getNumber(need(j, key, "value"), key + ".value");
    break;
  case EvtOp::Cmp:
    n.predicate = getEnum<CmpPredicate>(
        need(j, key, "predicate"), key + ".predicate", "predicate",
        {{"oeq", CmpPredicate::OEQ}, {"ogt", CmpPredicate::OGT},
         {"oge", CmpPredicate::OGE}, {"olt", CmpPredicate::OLT},
         {"ole", CmpPredicate::OLE}, {"one", CmpPredicate::ONE},
         {"ord", CmpPredicate::ORD}, {"ueq", CmpPredicate::UEQ},
         {"ugt", CmpPredicate::UGT}, {"uge", CmpPredicate::UGE},
         {"ult", CmpPredicate::ULT}, {"ule", CmpPredicate::ULE},
         {"une", CmpPredicate::UNE}, {"uno", CmpPredicate::UNO},
         {"eq", CmpPredicate::OEQ},  {"ne", CmpPredicate::UNE},
         {"lt", CmpPredicate::OLT},  {"le", CmpPredicate::OLE},
         {"gt", CmpPredicate::OGT},  {"ge", CmpPredicate::OGE}});
    break;
  case EvtOp::Clamp:
    n.lower = getNumber(need(j, key, "lower"), key + ".lower");
    n.upper = getNumber(need(j, key, "upper"), key + ".upper");
    if (!(n.lower <= n.upper))
      fail(key, "clamp needs lower <= upper");
    break;
  case EvtOp::LeakyRelu:
    n.alpha = getNumber(need(j, key, "alpha"), key + ".alpha");
    break;
  case EvtOp::ThresholdRelu:
    n.threshold = getNumber(need(j, key, "threshold"), key + ".threshold");
    // CUTLASS's ThresholdReLU: min(x <= threshold ? 0 : x, upper_bound).
    n.upperBound = std::numeric_limits<double>::infinity();
    if (const json *u = maybe(j, "upper_bound"))
      n.upperBound = getNumber(*u, key + ".upper_bound");
    break;
  case EvtOp::Convert:
  case EvtOp::Store:
    n.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    if (const json *r = maybe(j, "rounding"))
      n.rounding = getRounding(*r, key + ".rounding");
    break;
  case EvtOp::AuxStore:
    n.name = getString(need(j, key, "name"), key + ".name");
    n.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    if (const json *r = maybe(j, "rounding"))
      n.rounding = getRounding(*r, key + ".rounding");
    break;
  case EvtOp::ReduceToVecM:
  case EvtOp::ReduceToVecN:
  case EvtOp::ReduceToScalar:
    n.name = getString(need(j, key, "name"), key + ".name");
    n.reduce = getReduce(need(j, key, "reduce"), key + ".reduce");
    break;
  default:
    break;
  }
  return n;
}

//===----------------------------------------------------------------------===//
// Cross-checks between operands, params and the EVT
//===----------------------------------------------------------------------===//

std::string paramKey(const Manifest &m, const Param *p) {
  return idx("params", static_cast<size_t>(p - m.params.data()));
}

/// Expected tensor map dims (without L) for an operand.
std::vector<Dim> matrixDims(const Manifest &m, const std::string &operand) {
  if (operand == "A")
    return m.operand("A").layout == Layout::KMajor
               ? std::vector<Dim>{Dim::K, Dim::M}
               : std::vector<Dim>{Dim::M, Dim::K};
  if (operand == "B")
    return m.operand("B").layout == Layout::KMajor
               ? std::vector<Dim>{Dim::K, Dim::N}
               : std::vector<Dim>{Dim::N, Dim::K};
  return {Dim::N, Dim::M}; // C, D and aux matrices
}

void checkTensorMap(const Manifest &m, const Param &p,
                    const std::map<std::string, const EvtNode *> &auxNodes) {
  std::string key = paramKey(m, &p);
  bool isMain = p.operand == "A" || p.operand == "B" || p.operand == "C" ||
                p.operand == "D";
  std::string what;
  if (isMain) {
    if (!m.operands.count(p.operand))
      fail(key + ".operand",
           "operand " + p.operand + " is not declared in operands");
    const OperandInfo &o = m.operand(p.operand);
    if (o.dtype != p.dtype)
      fail(key + ".dtype", std::string("must equal operands.") + p.operand +
                               ".dtype (" + dtypeName(o.dtype) + "), got " +
                               dtypeName(p.dtype));
    what = p.operand + " (" + layoutName(o.layout) + ")";
  } else {
    auto it = auxNodes.find(p.operand);
    if (it == auxNodes.end())
      fail(key + ".operand", "'" + p.operand +
                                 "' is neither A, B, C, D nor "
                                 "the name of an evt aux_load/aux_store");
    if (it->second->dtype != p.dtype)
      fail(key + ".dtype", std::string("must equal the dtype of evt node ") +
                               std::to_string(it->second->id) + " (" +
                               dtypeName(it->second->dtype) + "), got " +
                               dtypeName(p.dtype));
    what = "aux matrix '" + p.operand + "'";
  }
  std::vector<Dim> want = matrixDims(m, p.operand);
  std::vector<Dim> wantL = want;
  wantL.push_back(Dim::L);
  if (m.batched ? p.dims != wantL : (p.dims != want && p.dims != wantL))
    fail(key + ".dims", "must be " + dimsString(m.batched ? wantL : want) +
                            (m.batched ? "" : " or " + dimsString(wantL)) +
                            " for " + what +
                            (m.batched ? " in a batched kernel" : "") +
                            ", got " + dimsString(p.dims));
}

void crossCheck(Manifest &m) {
  // Names are unique among params.
  for (size_t i = 0; i < m.params.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (m.params[i].name == m.params[k].name)
        fail(idx("params", i) + ".name", "duplicate parameter name '" +
                                             m.params[i].name + "' (also " +
                                             idx("params", k) + ")");

  // Index the EVT by name and check node-local rules.
  std::map<std::string, const EvtNode *> auxNodes, vecNodes, redNodes;
  int stores = 0;
  for (const EvtNode &n : m.nodes) {
    std::string key = idx("evt.nodes", static_cast<size_t>(n.id));
    auto claim = [&](std::map<std::string, const EvtNode *> &table,
                     const char *what) {
      auto [it, inserted] = table.emplace(n.name, &n);
      if (!inserted)
        fail(key + ".name", std::string("duplicate ") + what + " name '" +
                                n.name + "' (also evt.nodes[" +
                                std::to_string(it->second->id) + "])");
    };
    switch (n.op) {
    case EvtOp::Store:
      ++stores;
      if (n.dtype != m.operand("D").dtype)
        fail(key + ".dtype", std::string("store must convert to D's dtype (") +
                                 dtypeName(m.operand("D").dtype) + "), got " +
                                 dtypeName(n.dtype));
      break;
    case EvtOp::LoadSrc:
      if (!m.hasC())
        fail(key, "load_src reads C, but operands has no C");
      if (!n.skipIfZero.empty()) {
        const Param *p = m.findParam(n.skipIfZero);
        if (!p || (p->kind != ParamKind::Scalar &&
                   p->kind != ParamKind::ScalarPointer))
          fail(key + ".skip_if_zero", "'" + n.skipIfZero +
                                          "' is not a scalar or "
                                          "scalar_pointer parameter");
      }
      break;
    case EvtOp::Scalar:
      for (size_t i = 0; i < n.names.size(); ++i) {
        const Param *p = m.findParam(n.names[i]);
        ParamKind want = n.source == ScalarSource::Param
                             ? ParamKind::Scalar
                             : ParamKind::ScalarPointer;
        if (!p || p->kind != want)
          fail(idx(key + ".names", i), "'" + n.names[i] + "' is not a " +
                                           paramKindName(want) + " parameter");
      }
      break;
    case EvtOp::AuxLoad:
    case EvtOp::AuxStore:
      claim(auxNodes, "aux");
      break;
    case EvtOp::LoadVecM:
    case EvtOp::LoadVecN:
      claim(vecNodes, "vector");
      break;
    case EvtOp::ReduceToVecM:
    case EvtOp::ReduceToVecN:
    case EvtOp::ReduceToScalar:
      claim(redNodes, "reduction");
      break;
    default:
      break;
    }
  }
  if (stores != 1)
    fail("evt.nodes", "must contain exactly one store (the D output), got " +
                          std::to_string(stores));

  // Params against operands and the EVT.
  std::set<std::string> mapped;
  for (const Param &p : m.params) {
    std::string key = paramKey(m, &p);
    switch (p.kind) {
    case ParamKind::TensorMap:
      checkTensorMap(m, p, auxNodes);
      if (!mapped.insert(p.operand).second)
        fail(key + ".operand",
             "operand " + p.operand + " already has a tensor_map");
      break;
    case ParamKind::Pointer: {
      auto it = vecNodes.find(p.name);
      if (it == vecNodes.end())
        fail(key + ".name",
             "pointer '" + p.name +
                 "' is not read by any evt load_vec_m/load_vec_n");
      const EvtNode &n = *it->second;
      Dim d = n.op == EvtOp::LoadVecM ? Dim::M : Dim::N;
      if (p.extent != std::vector<Dim>{d} &&
          p.extent != std::vector<Dim>{d, Dim::L})
        fail(key + ".extent", std::string("must be [") + dimName(d) + "] or [" +
                                  dimName(d) + ", L] for a vector read by " +
                                  evtOpName(n.op) + ", got " +
                                  dimsString(p.extent));
      if (p.dtype != n.dtype)
        fail(key + ".dtype", std::string("must equal the dtype of evt node ") +
                                 std::to_string(n.id) + " (" +
                                 dtypeName(n.dtype) + "), got " +
                                 dtypeName(p.dtype));
      break;
    }
    case ParamKind::Reduction: {
      auto it = redNodes.find(p.name);
      if (it == redNodes.end())
        fail(key + ".name", "reduction '" + p.name +
                                "' is not written by any evt reduce node");
      const EvtNode &n = *it->second;
      if (n.reduce != p.reduce)
        fail(key + ".reduce", std::string("must equal evt node ") +
                                  std::to_string(n.id) + "'s reduction (" +
                                  reduceName(n.reduce) + "), got " +
                                  reduceName(p.reduce));
      std::vector<std::vector<Dim>> ok;
      if (n.op == EvtOp::ReduceToVecM)
        ok = {{Dim::M}, {Dim::M, Dim::L}};
      else if (n.op == EvtOp::ReduceToVecN)
        ok = {{Dim::N}, {Dim::N, Dim::L}};
      else
        ok = {{}, {Dim::L}};
      if (std::find(ok.begin(), ok.end(), p.extent) == ok.end())
        fail(key + ".extent",
             "must be " + dimsString(ok[0]) + " or " + dimsString(ok[1]) +
                 " for " + evtOpName(n.op) + ", got " + dimsString(p.extent));
      break;
    }
    default:
      break;
    }
  }
  for (const char *op : {"A", "B", "D"})
    if (!mapped.count(op))
      fail("params", std::string("no tensor_map for operand ") + op);
  if (m.hasC() && !mapped.count("C"))
    fail("params", "operands declares C but no tensor_map reads it");
  for (const auto &[name, node] : auxNodes)
    if (!mapped.count(name))
      fail(idx("evt.nodes", static_cast<size_t>(node->id)) + ".name",
           "aux matrix '" + name + "' has no tensor_map parameter");
  for (const auto &[name, node] : vecNodes) {
    const Param *p = m.findParam(name);
    if (!p || p->kind != ParamKind::Pointer)
      fail(idx("evt.nodes", static_cast<size_t>(node->id)) + ".name",
           "vector '" + name + "' has no pointer parameter");
  }
  for (const auto &[name, node] : redNodes) {
    const Param *p = m.findParam(name);
    if (!p || p->kind != ParamKind::Reduction)
      fail(idx("evt.nodes", static_cast<size_t>(node->id)) + ".name",
           "reduction '" + name + "' has no reduction parameter");
  }
}

Manifest parseRoot(const json &root, const std::string &path) {
  getObject(root, "(root)");
  Manifest m;
  m.path = path;
  size_t slash = path.find_last_of('/');
  m.directory = slash == std::string::npos ? "" : path.substr(0, slash);
  if (slash == 0)
    m.directory = "/";

  std::string format = getString(need(root, "", "format"), "format");
  if (format != "ws-gemm-manifest")
    fail("format", "must be \"ws-gemm-manifest\", got \"" + format + "\"");
  int64_t version = getInt(need(root, "", "version"), "version");
  if (version != 1)
    fail("version", "unsupported version " + std::to_string(version) +
                        " (this runtime reads version 1)");
  m.kernel = getString(need(root, "", "kernel"), "kernel");
  if (m.kernel.empty())
    fail("kernel", "must not be empty");
  m.cubin = getString(need(root, "", "cubin"), "cubin");
  if (m.cubin.empty())
    fail("cubin", "must not be empty");
  parseArch(m, root);
  m.block = getPositiveTriple<3>(need(root, "", "block"), "block");
  uint64_t threads = uint64_t(m.block[0]) * m.block[1] * m.block[2];
  if (threads > 1024)
    fail("block",
         std::to_string(threads) + " threads per CTA exceed the limit of 1024");
  m.cluster = getPositiveTriple<3>(need(root, "", "cluster"), "cluster");
  uint64_t ctas = uint64_t(m.cluster[0]) * m.cluster[1] * m.cluster[2];
  if (ctas > 16)
    fail("cluster",
         std::to_string(ctas) + " CTAs per cluster exceed the limit of 16");
  int64_t smem = getInt(need(root, "", "smem_bytes"), "smem_bytes");
  if (smem < 0 || smem > std::numeric_limits<int32_t>::max())
    fail("smem_bytes", "must be in [0, 2^31), got " + std::to_string(smem));
  m.smemBytes = static_cast<uint32_t>(smem);
  auto tile = getPositiveTriple<3>(need(root, "", "tile"), "tile");
  for (int i = 0; i < 3; ++i)
    m.tile[i] = tile[i];
  parseGrid(m, root);
  m.batched = getBool(need(root, "", "batched"), "batched");
  if (const json *s = maybe(root, "static_shape")) {
    getArray(*s, "static_shape");
    if (s->size() != 4)
      fail("static_shape", "must be null or [M, N, K, L], got " +
                               std::to_string(s->size()) + " entries");
    std::array<int64_t, 4> shape{};
    for (size_t i = 0; i < 4; ++i)
      shape[i] = getPositive((*s)[i], idx("static_shape", i));
    if (!m.batched && shape[3] != 1)
      fail("static_shape[3]", "L must be 1 for a kernel that is not batched, "
                              "got " +
                                  std::to_string(shape[3]));
    m.staticShape = shape;
  }
  parseOperands(m, root);

  const json &params = getArray(need(root, "", "params"), "params");
  for (size_t i = 0; i < params.size(); ++i)
    m.params.push_back(parseParam(params[i], idx("params", i)));

  const json &evt = getObject(need(root, "", "evt"), "evt");
  const json &nodes = getArray(need(evt, "evt", "nodes"), "evt.nodes");
  if (nodes.empty())
    fail("evt.nodes", "must not be empty");
  for (size_t i = 0; i < nodes.size(); ++i)
    m.nodes.push_back(parseNode(nodes[i], idx("evt.nodes", i), i, m.nodes));

  crossCheck(m);
  return m;
}

} // namespace

Expected<Manifest> parseManifest(const std::string &jsonText,
                                 const std::string &path) {
  std::string where = "manifest" + (path.empty() ? "" : " " + path) + ": ";
  json root;
  try {
    root = json::parse(jsonText, /*cb=*/nullptr, /*allow_exceptions=*/true,
                       /*ignore_comments=*/true);
  } catch (const json::exception &e) {
    return Status::error(where + "invalid JSON: " + e.what());
  }
  try {
    return parseRoot(root, path);
  } catch (const ManifestError &e) {
    return Status::error(where + e.message);
  } catch (const json::exception &e) {
    return Status::error(where + "internal JSON error: " + e.what());
  }
}

Expected<Manifest> loadManifest(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("manifest " + path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseManifest(ss.str(), path);
}

} // namespace wsgemm::runtime
