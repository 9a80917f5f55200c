// caveman/status.h — the one error vocabulary of the project.
//
// Status is a value: kOk, or a Code plus a stable error code (caveman/base/codes.h, listed in
// docs/errors.md) and a human message.
// Result<T> holds either a T or a non-ok Status. Both are cheap to move, immutable once made,
// and safe to pass between threads. Expected failures (bad input, store miss, budget, upstream
// errors) are Status values; violated invariants are asserts. Nothing here throws.
#ifndef CAVEMAN_STATUS_H_
#define CAVEMAN_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace caveman {

enum class Code {
  kOk,
  kInvalidArgument,    // the caller's input is malformed or out of range
  kNotFound,           // a handle, id or file does not exist
  kCorrupt,            // stored data fails its own checks
  kUnavailable,        // a dependency (store, upstream, browser) cannot be used now
  kIo,                 // a filesystem or database operation failed
  kResourceExhausted,  // a budget or size cap was hit
  kInternal,           // a bug or an unexpected library exception
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // ok

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string_view error_code, std::string message) {
    return Status(Code::kInvalidArgument, error_code, std::move(message));
  }
  static Status NotFound(std::string_view error_code, std::string message) {
    return Status(Code::kNotFound, error_code, std::move(message));
  }
  static Status Corrupt(std::string_view error_code, std::string message) {
    return Status(Code::kCorrupt, error_code, std::move(message));
  }
  static Status Unavailable(std::string_view error_code, std::string message) {
    return Status(Code::kUnavailable, error_code, std::move(message));
  }
  static Status Io(std::string_view error_code, std::string message) {
    return Status(Code::kIo, error_code, std::move(message));
  }
  static Status ResourceExhausted(std::string_view error_code, std::string message) {
    return Status(Code::kResourceExhausted, error_code, std::move(message));
  }
  static Status Internal(std::string_view error_code, std::string message) {
    return Status(Code::kInternal, error_code, std::move(message));
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  // Stable machine-readable code such as codes::kUnknownHandle (caveman/base/codes.h); empty
  // when ok.
  const std::string& error_code() const { return error_code_; }
  const std::string& message() const { return message_; }

  // "<error code>: message", or "ok".
  std::string ToString() const {
    if (ok()) return "ok";
    if (message_.empty()) return error_code_;
    return error_code_ + ": " + message_;
  }

 private:
  Status(Code code, std::string_view error_code, std::string message)
      : code_(code), error_code_(error_code), message_(std::move(message)) {
    assert(code_ != Code::kOk);
  }

  Code code_ = Code::kOk;
  std::string error_code_;
  std::string message_;
};

// Either a value or a non-ok Status. Accessing value() of an error is a bug (asserted).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}                                    // NOLINT
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }   // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace caveman

// Returns early from the enclosing function when `expr` yields a non-ok Status.
#define CAVEMAN_RETURN_IF_ERROR(expr)            \
  do {                                           \
    ::caveman::Status caveman_status_ = (expr);  \
    if (!caveman_status_.ok()) return caveman_status_; \
  } while (0)

#define CAVEMAN_CONCAT_INNER_(a, b) a##b
#define CAVEMAN_CONCAT_(a, b) CAVEMAN_CONCAT_INNER_(a, b)

// CAVEMAN_ASSIGN_OR_RETURN(auto x, MakeResult()) — binds the value or returns the Status.
#define CAVEMAN_ASSIGN_OR_RETURN(lhs, expr)                                   \
  auto CAVEMAN_CONCAT_(caveman_result_, __LINE__) = (expr);                   \
  if (!CAVEMAN_CONCAT_(caveman_result_, __LINE__).ok())                       \
    return CAVEMAN_CONCAT_(caveman_result_, __LINE__).status();               \
  lhs = std::move(CAVEMAN_CONCAT_(caveman_result_, __LINE__)).value()

#endif  // CAVEMAN_STATUS_H_
