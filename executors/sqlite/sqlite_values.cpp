// A value written into text as PostgreSQL writes it, for SQLite (admission wraps
// the operand of || and of CAST(x AS text) by its inferred type,
// admit/text_of_values.cpp):
//
//   pg_float8_text(x)  float8out: the shortest digits that read back as the same
//                      double, in exponent form below 1e-4 and from 1e15 on
//                      (1e-05, 1.5e+300, 100000000000000), 'NaN', 'Infinity',
//                      '-Infinity', '-0'; SQLite prints 1.0e-300, 1.0, 1.0e+15.
//   pg_bool_text(x)    a boolean: 'true' / 'false' (SQLite stores 1 / 0).
//   pg_bool(x, from)   CAST(x AS boolean): from 'text', PostgreSQL's boolin ('t', 'true', 'yes', 'on', '1',
//                      their false words and unique prefixes, any case, blanks around; else its error); from
//                      'int', 0 is false and every other integer true. 1 / 0 (SQLite's booleans).
//
// NULL in, NULL out. A value of another kind than the one admission inferred
// fails the statement rather than print something PostgreSQL would not.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "common/number_text.hpp"
#include "executors/sqlite/sqlite_functions.hpp"
#include "executors/sqlite/sqlite_values.hpp"

namespace qg::exec::sqlite {

// The digits of |d|: the fewest (1 to 17) that read back as d and lie strictly inside its rounding
// interval. PostgreSQL's Ryu (src/common/d2s.c) is built without STRICTLY_SHORTEST: a decimal exactly
// halfway to a neighbouring double is not taken even where strtod would round it to d (2.5e22 prints
// 2.4999999999999998e+22). Of the candidates of one length, the one nearest d (printf's correct
// rounding).
std::string shortest_digits(double d, int& exp10) {
  const long double v = d;
  const long double up = (v + static_cast<long double>(std::nextafter(d, HUGE_VAL))) / 2;
  const long double down = (v + static_cast<long double>(std::nextafter(d, -HUGE_VAL))) / 2;
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    const int n = std::snprintf(buf, sizeof buf, "%.*e", p - 1, d);
    if (n <= 0 || n >= static_cast<int>(sizeof buf)) break;
    if (std::strtod(buf, nullptr) != d) continue;
    // A midpoint is exact in a long double; so is the decimal, when it is one (0.005754 is not, though its nearest
    // long double is a midpoint: it printed 0.0057539999999999996; outside tester s13).
    const long double exact = std::strtold(buf, nullptr);
    if (p < 17 && (exact == up || exact == down) && binary_exact(buf, 64)) continue;
    const std::string sci(buf, static_cast<std::size_t>(n));
    const auto e = sci.find('e');
    exp10 = std::atoi(sci.c_str() + e + 1);
    std::string digits;
    for (std::size_t k = 0; k < e; ++k)
      if (sci[k] >= '0' && sci[k] <= '9') digits += sci[k];
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    return digits;
  }
  const int n = std::snprintf(buf, sizeof buf, "%.16e", d);
  const std::string sci(buf, static_cast<std::size_t>(n));
  const auto e = sci.find('e');
  exp10 = std::atoi(sci.c_str() + e + 1);
  std::string digits;
  for (std::size_t k = 0; k < e; ++k)
    if (sci[k] >= '0' && sci[k] <= '9') digits += sci[k];
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return digits;
}

std::string float8_text(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d < 0 ? "-Infinity" : "Infinity";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  int exp = 0;
  const std::string digits = shortest_digits(std::fabs(d), exp);
  std::string out = d < 0 ? "-" : "";
  if (exp < -4 || exp >= 15) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    const std::string n = std::to_string(std::abs(exp));
    out += (n.size() < 2 ? "0" : "") + n;
  } else if (exp < 0) {
    out += "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  } else {
    const auto whole = static_cast<std::size_t>(exp) + 1;
    if (digits.size() <= whole) {
      out += digits + std::string(whole - digits.size(), '0');
    } else {
      out += digits.substr(0, whole) + "." + digits.substr(whole);
    }
  }
  return out;
}

namespace {

void text_result(sqlite3_context* ctx, const std::string& s) {
  sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
}

void pg_float8_text(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  switch (sqlite3_value_type(argv[0])) {
    case SQLITE_NULL:
      return sqlite3_result_null(ctx);
    case SQLITE_FLOAT:
      return text_result(ctx, float8_text(sqlite3_value_double(argv[0])));
    case SQLITE_INTEGER: {
      const auto i = sqlite3_value_int64(argv[0]);
      const auto d = static_cast<double>(i);
      return text_result(ctx, float8_text(d));
    }
    default:
      return sqlite3_result_error(ctx, "querygate: pg_float8_text takes a floating-point number", -1);
  }
}

void pg_bool_text(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  switch (sqlite3_value_type(argv[0])) {
    case SQLITE_NULL:
      return sqlite3_result_null(ctx);
    case SQLITE_INTEGER:
      return text_result(ctx, sqlite3_value_int64(argv[0]) != 0 ? "true" : "false");
    case SQLITE_FLOAT:
      return text_result(ctx, sqlite3_value_double(argv[0]) != 0 ? "true" : "false");
    default:
      return sqlite3_result_error(ctx, "querygate: pg_bool_text takes a boolean (1 or 0)", -1);
  }
}

// PostgreSQL's boolin (src/backend/utils/adt/bool.c parse_bool_with_len): the words and their unique prefixes.
std::optional<bool> bool_in(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  std::string w;
  for (char c : text) w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (w.empty()) return std::nullopt;
  auto prefix_of = [&](std::string_view word, std::size_t at_least) {
    return w.size() >= at_least && w.size() <= word.size() && word.substr(0, w.size()) == w;
  };
  if (prefix_of("true", 1) || prefix_of("yes", 1) || w == "1") return true;
  if (prefix_of("false", 1) || prefix_of("no", 1) || w == "0") return false;
  if (prefix_of("on", 2)) return true;  // "o" alone is ambiguous
  if (prefix_of("off", 2)) return false;
  return std::nullopt;
}

void pg_bool(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const int type = sqlite3_value_type(argv[0]);
  if (type == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto* from = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  if (from && std::string_view(from) == "int") {
    if (type != SQLITE_INTEGER) return sqlite3_result_error(ctx, "querygate: pg_bool(x, 'int') takes an integer", -1);
    return sqlite3_result_int(ctx, sqlite3_value_int64(argv[0]) != 0 ? 1 : 0);
  }
  if (type != SQLITE_TEXT) return sqlite3_result_error(ctx, "querygate: pg_bool(x, 'text') takes a text", -1);
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  const auto value = bool_in(std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0]))));
  if (!value) return sqlite3_result_error(ctx, "querygate: invalid input syntax for type boolean", -1);
  return sqlite3_result_int(ctx, *value ? 1 : 0);
}

}  // namespace

bool register_value_functions(sqlite3* db, int flags) {
  return sqlite3_create_function(db, "pg_float8_text", 1, flags, nullptr, pg_float8_text, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_bool_text", 1, flags, nullptr, pg_bool_text, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_bool", 2, flags, nullptr, pg_bool, nullptr, nullptr) == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
