#pragma once
// Error values for everything an agent or operator can cause. Untrusted input
// yields an Error (code, message naming what was written, FIX, position); a
// broken invariant is an assert. Exceptions never cross a stage boundary.
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "common/error_code.hpp"

namespace qg {

struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;          // names what the caller wrote
  std::string fix;              // the exact next step, with real names
  std::optional<int> position;  // byte offset in the caller's SQL, when known
};

inline Error make_error(ErrorCode code, std::string message, std::string fix = {},
                        std::optional<int> position = std::nullopt) {
  return Error{code, std::move(message), std::move(fix), position};
}

// A value or an Error. Small on purpose: has_value / value / error, and `*`/`->`.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const& { return std::get<1>(v_); }
  Error&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

// Result<void>: success or an Error.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : e_(std::move(error)) {}  // NOLINT
  bool has_value() const { return !e_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const Error& error() const& { return *e_; }
  Error&& error() && { return std::move(*e_); }

 private:
  std::optional<Error> e_;
};

using Status = Result<void>;

}  // namespace qg
