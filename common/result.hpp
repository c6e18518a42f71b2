#pragma once
// Error values for everything an agent or operator can cause. Untrusted input
// yields an Error (code, message naming what was written, FIX, position); a
// broken invariant is an assert. Exceptions never cross a stage boundary.
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/error_code.hpp"

namespace qg {

// A change of the statement's text: bytes [begin, end) become `text`.
struct TextEdit {
  int begin = 0;
  int end = 0;
  std::string text;
};

struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;          // names what the caller wrote
  std::string fix;              // the exact next step, with real names
  std::optional<int> position;  // byte offset in the caller's SQL, when known
  // Further problems admission found in the same statement (each with its own position and FIX);
  // admit() leaves them flat and in statement order, with this error first among them. Empty: one problem.
  std::vector<Error> problems;
  // The FIX as a change of the text admission read, when the FIX is that mechanical (admission's sites).
  std::optional<TextEdit> edit;
  // The whole statement with the FIX applied (the edits of every refusal on the way), admitted when
  // admit_statement checked it; empty: none.
  std::string suggested_sql;
};

inline Error make_error(ErrorCode code, std::string message, std::string fix = {},
                        std::optional<int> position = std::nullopt) {
  return Error{code, std::move(message), std::move(fix), position, {}, std::nullopt, {}};
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
