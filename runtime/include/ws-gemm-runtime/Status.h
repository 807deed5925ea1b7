//===- Status.h - Error reporting for the ws-gemm runtime ---------*- C++
//-*-===//
//
// Every fallible runtime call returns a Status (or an Expected<T>, a value or
// a Status). Nothing in the runtime aborts or throws across its API, so it can
// be used from code built with -fno-exceptions. A failed Status carries one
// human-readable message that names the argument or manifest key at fault and
// the rule it broke, e.g.
//   D: row stride N * 2 = 2002 bytes is not a multiple of 16 (TMA requirement)
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_STATUS_H
#define WSGEMM_RUNTIME_STATUS_H

#include <optional>
#include <sstream>
#include <string>
#include <utility>

namespace wsgemm::runtime {

/// Success, or failure with a message.
class [[nodiscard]] Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.failed_ = true;
    s.message_ = std::move(message);
    return s;
  }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string &message() const { return message_; }

  /// Prefixes the message with "context: " (keeps success unchanged).
  Status &prepend(const std::string &context) {
    if (failed_)
      message_ = context + ": " + message_;
    return *this;
  }

private:
  bool failed_ = false;
  std::string message_;
};

/// Builds a failed Status from streamed pieces: errorf("D: bad ", 3).
template <typename... Ts> Status errorf(const Ts &...pieces) {
  std::ostringstream os;
  (os << ... << pieces);
  return Status::error(os.str());
}

/// A T or the Status explaining why there is none.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  Expected(Status status) : status_(std::move(status)) {
    if (status_.ok())
      status_ = Status::error("internal error: Expected built from success");
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return status_; }
  const std::string &message() const { return status_.message(); }

  T &value() & { return *value_; }
  const T &value() const & { return *value_; }
  T &&value() && { return std::move(*value_); }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }
  T &operator*() & { return *value_; }
  const T &operator*() const & { return *value_; }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace wsgemm::runtime

/// Returns the Status of `expr` from the enclosing function when it failed.
#define WSGEMM_TRY(expr)                                                       \
  do {                                                                         \
    ::wsgemm::runtime::Status wsgemmTryStatus_ = (expr);                       \
    if (!wsgemmTryStatus_.ok())                                                \
      return wsgemmTryStatus_;                                                 \
  } while (false)

#endif // WSGEMM_RUNTIME_STATUS_H
