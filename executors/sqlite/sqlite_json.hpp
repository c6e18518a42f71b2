#pragma once
// jsonb's output form for the SQLite functions of sqlite_json.cpp (also read by
// their unit tests): a JSON text parsed and printed as PostgreSQL's jsonb prints it.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qg::exec::sqlite::json_out {

enum class Kind { Null, True, False, Number, String, Array, Object };

struct Member;

struct Value {
  Kind kind = Kind::Null;
  std::string text;  // a string's characters; a number as numeric prints it
  std::vector<Value> array;
  std::vector<Member> object;  // jsonb's key order, each key once
};

// An object's member. A struct of its own, not std::pair: a pair of an incomplete Value is ill-formed
// (clang refuses it; the fuzz build is clang's).
struct Member {
  std::string first;  // the key
  Value second;
};

// A JSON number as PostgreSQL's numeric prints it: no exponent, the scale written
// (1.50, 1e2 → 100, 1.5e-3 → 0.0015, -0 → 0); nullopt for no number.
std::optional<std::string> numeric_text(std::string_view number);

// The JSON text parsed as jsonb reads it; nullopt when it is not JSON.
std::optional<Value> parse(std::string_view text);

// The value as jsonb prints it: {"a": 1, "bb": [1, 2]}.
std::string jsonb_text(const Value& v);

}  // namespace qg::exec::sqlite::json_out
