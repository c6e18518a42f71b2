// pg_number(x, type): PostgreSQL's cast of a value to a number type, checked,
// for SQLite. SQLite's CAST reads the number at the start of a text and
// ignores the rest ('31b6…' becomes 31, 'Alpha' becomes 0) where PostgreSQL
// raises "invalid input syntax"; admission wraps the argument of such a cast in
// this function (admit/dialect.cpp, cast_on_sqlite), which passes what
// PostgreSQL accepts and fails the statement on what it refuses. The error
// never quotes the value: it may be text an end user wrote.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "common/number_text.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

enum class Target { Int2, Int4, Int8, Float4, Float8, Numeric };

bool target_of(std::string_view name, Target& t) {
  if (name == "int2")
    t = Target::Int2;
  else if (name == "int4")
    t = Target::Int4;
  else if (name == "int8")
    t = Target::Int8;
  else if (name == "float4")
    t = Target::Float4;
  else if (name == "float8")
    t = Target::Float8;
  else if (name == "numeric")
    t = Target::Numeric;
  else
    return false;
  return true;
}

const char* type_name(Target t) {
  switch (t) {
    case Target::Int2:
      return "smallint";
    case Target::Int4:
      return "integer";
    case Target::Int8:
      return "bigint";
    case Target::Float4:
      return "real";
    case Target::Float8:
      return "double precision";
    case Target::Numeric:
      return "numeric";
  }
  return "number";
}

bool integer_target(Target t) {
  return t == Target::Int2 || t == Target::Int4 || t == Target::Int8;
}

bool in_range(std::int64_t v, Target t) {
  if (t == Target::Int2)
    return v >= std::numeric_limits<std::int16_t>::min() && v <= std::numeric_limits<std::int16_t>::max();
  if (t == Target::Int4)
    return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
  return true;
}

void fail(sqlite3_context* ctx, const std::string& message) {
  sqlite3_result_error(ctx, message.c_str(), -1);
}

void invalid(sqlite3_context* ctx, Target t) {
  // No quote characters: the executor withholds what follows one as a possible value from the data.
  fail(ctx, std::string("querygate: invalid input syntax for type ") + type_name(t) +
                " (PostgreSQL refuses this text as a number, where SQLite would read the number at its start or 0)");
}

void out_of_range(sqlite3_context* ctx, Target t) {
  fail(ctx, std::string("querygate: value out of range for type ") + type_name(t) +
                " (PostgreSQL raises this error; SQLite would not)");
}

bool space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// [+-]? digits — PostgreSQL 15's integer input (no underscores, no 0x prefix).
bool parse_integer(std::string_view s, std::int64_t& out, bool& overflow) {
  overflow = false;
  if (!integer_text(s)) return false;
  bool negative = false;
  if (s.front() == '+' || s.front() == '-') negative = s.front() == '-', s.remove_prefix(1);
  // Accumulate negatively, so INT64_MIN fits.
  std::int64_t v = 0;
  for (char c : s) {
    const int d = c - '0';
    if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10) return overflow = true, true;
    v = v * 10 - d;
  }
  if (!negative) {
    if (v == std::numeric_limits<std::int64_t>::min()) return overflow = true, true;
    v = -v;
  }
  out = v;
  return true;
}

bool special_float(std::string_view s) {
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) s.remove_prefix(1);
  return equals_ignoring_case(s, "nan") || equals_ignoring_case(s, "infinity") || equals_ignoring_case(s, "inf");
}

void from_text(sqlite3_context* ctx, std::string_view text, Target t) {
  const std::string_view s = trimmed(text);
  if (integer_target(t)) {
    std::int64_t v = 0;
    bool overflow = false;
    if (!parse_integer(s, v, overflow)) return invalid(ctx, t);
    if (overflow || !in_range(v, t)) return out_of_range(ctx, t);
    return sqlite3_result_int64(ctx, v);
  }
  if (special_float(s))
    return fail(ctx, std::string("querygate: NaN and Infinity have no SQLite value; the cast to ") + type_name(t) +
                         " would not give the answer of PostgreSQL; filter those texts out first");
  if (!numeric_text(s)) return invalid(ctx, t);
  // A whole number that fits stays an integer, as SQLite's CAST AS NUMERIC keeps it.
  std::int64_t whole = 0;
  bool overflow = false;
  if (t == Target::Numeric && parse_integer(s, whole, overflow) && !overflow) return sqlite3_result_int64(ctx, whole);
  // More significant digits than a double keeps (15): PostgreSQL's numeric keeps them all, SQLite would round.
  if (t == Target::Numeric) {
    std::string significant;
    for (char c : s.substr(0, s.find_first_of("eE")))
      if (c >= '0' && c <= '9') significant += c;
    const auto first = significant.find_first_not_of('0');
    const auto last = significant.find_last_not_of('0');
    if (first != std::string::npos && last - first + 1 > 15)
      return fail(ctx,
                  "querygate: a numeric with more than 15 significant digits has no exact SQLite value (SQLite "
                  "would round it to a double); cast to double precision to accept the rounding");
  }
  std::string_view digits = s;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (end != digits.data() + digits.size()) return invalid(ctx, t);
  if (ec == std::errc::result_out_of_range || std::isinf(v)) return out_of_range(ctx, t);
  if (t == Target::Float4 && std::abs(v) > static_cast<double>(std::numeric_limits<float>::max()))
    return out_of_range(ctx, t);
  sqlite3_result_double(ctx, v);
}

void pg_number(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  Target t;
  const auto* type = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  if (!type || !target_of(type, t))
    return fail(ctx, "querygate: pg_number(x, type): type is one of int2, int4, int8, float4, float8, numeric");
  switch (sqlite3_value_type(argv[0])) {
    case SQLITE_NULL:
      return sqlite3_result_null(ctx);
    case SQLITE_INTEGER: {
      const std::int64_t v = sqlite3_value_int64(argv[0]);
      if (!in_range(v, t)) return out_of_range(ctx, t);
      return sqlite3_result_value(ctx, argv[0]);
    }
    case SQLITE_FLOAT: {
      const double v = sqlite3_value_double(argv[0]);
      if (!integer_target(t)) return sqlite3_result_value(ctx, argv[0]);
      if (v != std::trunc(v))
        return fail(ctx,
                    std::string("querygate: a value with a fraction cast to ") + type_name(t) +
                        " (PostgreSQL rounds it, to even for a float and away from zero for a numeric, where SQLite "
                        "would drop the fraction); write CAST(round(x) AS INTEGER) or CAST(trunc(x) AS INTEGER)");
      if (v < -9223372036854775808.0 || v >= 9223372036854775808.0) return out_of_range(ctx, t);
      const auto whole = static_cast<std::int64_t>(v);
      if (!in_range(whole, t)) return out_of_range(ctx, t);
      return sqlite3_result_int64(ctx, whole);
    }
    case SQLITE_TEXT: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
      return from_text(ctx, std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0]))), t);
    }
    default:
      return fail(ctx, std::string("querygate: a blob cannot be cast to ") + type_name(t));
  }
}

}  // namespace

bool register_number_functions(sqlite3* db, int flags) {
  return sqlite3_create_function(db, "pg_number", 2, flags, nullptr, pg_number, nullptr, nullptr) == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
