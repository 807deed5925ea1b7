//===- ManifestReader.h - Reading manifest JSON, with key paths -*- C++ -*-===//
//
// Private to the runtime library. A small recursive reader over
// nlohmann::json that keeps the key path of what it is reading
// ("params[2].box") so every error names its key and the rule broken.
// A failure throws ManifestError; parseManifest() turns it into a Status, so
// nothing escapes the API. The manifest is read in three parts, one per
// file:
//   Manifest.cpp          the top-level keys, operands and params;
//   EvtGraph.cpp          the "evt" section, node by node;
//   ManifestValidate.cpp  the rules that tie operands, params and the EVT
//                         together (names, dtypes, dims, extents).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_LIB_MANIFESTREADER_H
#define WSGEMM_RUNTIME_LIB_MANIFESTREADER_H

#include "ws-gemm-runtime/Manifest.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace wsgemm::runtime::detail {

using json = nlohmann::json;

struct ManifestError {
  std::string message;
};

/// Throws ManifestError "key: rule".
[[noreturn]] void fail(const std::string &key, const std::string &rule);

std::string join(const std::vector<std::string> &items);

/// Key paths: sub("evt", "nodes") is "evt.nodes", idx("params", 2) is
/// "params[2]".
std::string sub(const std::string &key, const std::string &field);
std::string idx(const std::string &key, size_t i);

/// The member `field` of object `obj` (at `key`), required.
const json &need(const json &obj, const std::string &key,
                 const std::string &field);
/// The member `field`, or nullptr when absent or null.
const json *maybe(const json &obj, const std::string &field);

std::string getString(const json &j, const std::string &key);
int64_t getInt(const json &j, const std::string &key);
int64_t getPositive(const json &j, const std::string &key);
/// A number; also accepts the strings "inf", "-inf" and "nan", which JSON
/// cannot spell.
double getNumber(const json &j, const std::string &key);
bool getBool(const json &j, const std::string &key);
const json &getArray(const json &j, const std::string &key);
const json &getObject(const json &j, const std::string &key);

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

DType getDType(const json &j, const std::string &key);
Rounding getRounding(const json &j, const std::string &key);
ReduceKind getReduce(const json &j, const std::string &key);
Dim getDim(const json &j, const std::string &key);
/// A list of distinct dimensions.
std::vector<Dim> getDims(const json &j, const std::string &key);
/// "[K, M, L]".
std::string dimsString(const std::vector<Dim> &dims);

/// Reads `evt.nodes` (EvtGraph.cpp): every node's op, arguments and fields,
/// with the graph's own rules (topological order, arity, no use of an
/// output).
std::vector<EvtNode> parseEvt(const json &root);

/// The rules across sections (ManifestValidate.cpp): run once everything
/// is read.
void validateManifest(const Manifest &m);

} // namespace wsgemm::runtime::detail

#endif // WSGEMM_RUNTIME_LIB_MANIFESTREADER_H
