//===- ManifestReader.cpp - Reading manifest JSON, with key paths ---------===//
//
// The typed getters of ManifestReader.h: each checks the JSON type (and the
// range, for integers) and fails with the key path and what it expected.
//
//===----------------------------------------------------------------------===//

#include "ManifestReader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wsgemm::runtime::detail {

namespace {
std::string typeName(const json &j) { return j.type_name(); }
} // namespace

[[noreturn]] void fail(const std::string &key, const std::string &rule) {
  throw ManifestError{key + ": " + rule};
}

std::string join(const std::vector<std::string> &items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + items[i];
  return out;
}

std::string sub(const std::string &key, const std::string &field) {
  return key.empty() ? field : key + "." + field;
}
std::string idx(const std::string &key, size_t i) {
  return key + "[" + std::to_string(i) + "]";
}

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
      {{"M", Dim::M},
       {"N", Dim::N},
       {"K", Dim::K},
       {"L", Dim::L},
       {"KB", Dim::KB},
       {"NB", Dim::NB},
       {"KG", Dim::KG}});
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

} // namespace wsgemm::runtime::detail
