//===- Flags.h - Command-line flags of the runtime tools --------*- C++ -*-===//
//
// The flag values ws-gemm-run and ws-gemm-bench share: a cursor over argv
// that takes a flag's value, parses integers strictly, reads
// `--scalar NAME=VALUE` and the one positional argument, printing what is
// wrong on stderr. Header-only and
// free of MLIR, like the runtime the tools link.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_TOOLS_COMMON_FLAGS_H
#define WSGEMM_TOOLS_COMMON_FLAGS_H

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace wsgemm::tools {

/// Walks argv from argv[1]; `flag()` is the current argument and the
/// value readers consume the one after it.
class FlagCursor {
public:
  FlagCursor(int argc, char **argv) : argc(argc), argv(argv) {}

  bool done() const { return i >= argc; }
  const std::string &flag() const { return current; }
  /// Moves to the next argument; call once per loop iteration.
  void advance() { current = argv[i++]; }

  /// The flag's value, or null (with a message) when argv ends.
  const char *value() {
    if (i >= argc) {
      std::fprintf(stderr, "error: %s needs a value\n", current.c_str());
      return nullptr;
    }
    return argv[i++];
  }

  /// The flag's value as a base-10 integer: all of it, nothing else.
  template <typename T> bool integer(T &out) {
    const char *v = value();
    if (!v)
      return false;
    char *end = nullptr;
    long long x = std::strtoll(v, &end, 10);
    if (!end || *end || end == v) {
      std::fprintf(stderr, "error: %s: '%s' is not an integer\n",
                   current.c_str(), v);
      return false;
    }
    out = static_cast<T>(x);
    return true;
  }

  /// `NAME=VALUE` into `scalars`.
  bool scalar(std::map<std::string, float> &scalars) {
    const char *v = value();
    if (!v)
      return false;
    std::string s = v;
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "error: %s wants NAME=VALUE, got '%s'\n",
                   current.c_str(), v);
      return false;
    }
    // All of VALUE must be a finite number: "abc", "1x" and "" are refused
    // (strtof alone would read them as 0 or 1).
    const char *num = s.c_str() + eq + 1;
    char *end = nullptr;
    errno = 0;
    float x = std::strtof(num, &end);
    if (end == num || *end || errno == ERANGE || !std::isfinite(x)) {
      std::fprintf(stderr,
                   "error: %s %s: '%s' is not a finite number (a float "
                   "within f32's range)\n",
                   current.c_str(), v, num);
      return false;
    }
    scalars[s.substr(0, eq)] = x;
    return true;
  }

  /// An argument no flag matched: the tool's one positional argument, taken
  /// into `out` while it is empty; an unknown option or a second positional
  /// is an error.
  bool positional(std::string &out) {
    if (!current.empty() && current[0] == '-') {
      std::fprintf(stderr, "error: unknown option %s\n", current.c_str());
      return false;
    }
    if (!out.empty()) {
      std::fprintf(stderr, "error: unexpected argument %s\n", current.c_str());
      return false;
    }
    out = current;
    return true;
  }

private:
  int argc;
  char **argv;
  int i = 1;
  std::string current;
};

} // namespace wsgemm::tools

#endif // WSGEMM_TOOLS_COMMON_FLAGS_H
