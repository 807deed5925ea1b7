//===- TestUtil.h - Helpers for the runtime unit tests ---------*- C++ -*-===//
//
// Loading the sample manifests of data/ and building variants of them: a
// test edits the JSON (nlohmann::json) and checks parseManifest's message.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_UNITTESTS_RUNTIME_TESTUTIL_H
#define WSGEMM_UNITTESTS_RUNTIME_TESTUTIL_H

#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/Manifest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace wsgemm::runtime::test {

/// Writes `text` to `name` in gtest's temporary directory; returns its path.
inline std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream out(path);
  EXPECT_TRUE(out.good()) << path;
  out << text;
  return path;
}

inline std::string dataPath(const std::string &name) {
  return std::string(WSGEMM_RUNTIME_TEST_DATA) + "/" + name;
}

inline nlohmann::json loadJson(const std::string &name) {
  std::ifstream in(dataPath(name));
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str(), nullptr, true, true);
}

inline Manifest parseOrDie(const nlohmann::json &j) {
  auto m = parseManifest(j.dump(), "t.json");
  EXPECT_TRUE(m.ok()) << m.message();
  return m.ok() ? *m : Manifest();
}

inline Manifest loadOrDie(const std::string &name) {
  auto m = loadManifest(dataPath(name));
  EXPECT_TRUE(m.ok()) << m.message();
  return m.ok() ? *m : Manifest();
}

/// The error parseManifest gives for j (empty if it parses).
inline std::string manifestError(const nlohmann::json &j) {
  auto m = parseManifest(j.dump(), "t.json");
  return m.ok() ? std::string() : m.message();
}

/// The error validate gives for arguments `a` of kernel `m` (empty if
/// they pass).
inline std::string argsError(const Manifest &m, const GemmArgs &a) {
  Status s = validate(m, a);
  return s.ok() ? std::string() : s.message();
}

/// A problem's sizes with fake, 16-byte aligned device addresses for A, B
/// and D.
inline GemmArgs fakeArgs(int64_t M, int64_t N, int64_t K, int64_t L) {
  GemmArgs a;
  a.M = M;
  a.N = N;
  a.K = K;
  a.L = L;
  a.A.ptr = 0x10000000;
  a.B.ptr = 0x20000000;
  a.D.ptr = 0x40000000;
  return a;
}

/// Valid arguments for data/gemm_bias_relu.json (256 x 512 x 128 unless
/// given): fake, 16-byte aligned device addresses, packed matrices.
inline GemmArgs validBiasRelu(int64_t M = 256, int64_t N = 512, int64_t K = 128,
                              int64_t L = 1) {
  GemmArgs a = fakeArgs(M, N, K, L);
  a.C.ptr = 0x30000000;
  a.named["bias"].ptr = 0x50000000;
  a.scalars["alpha"] = 1.0f;
  a.scalars["beta"] = 0.5f;
  return a;
}

/// Valid arguments for data/mixed_input_w4.json (zeroPoints) or
/// mixed_input_w8.json: a pre-packed A, dense, and 16-byte aligned scales
/// (and zero points).
inline GemmArgs validMixedInput(int64_t M = 256, int64_t N = 7, int64_t K = 384,
                                int64_t L = 1, bool zeroPoints = false) {
  GemmArgs a = fakeArgs(M, N, K, L);
  a.named["dequant_scale_a"].ptr = 0x50000000;
  if (zeroPoints)
    a.named["dequant_zero_a"].ptr = 0x60000000;
  return a;
}

} // namespace wsgemm::runtime::test

#endif // WSGEMM_UNITTESTS_RUNTIME_TESTUTIL_H
