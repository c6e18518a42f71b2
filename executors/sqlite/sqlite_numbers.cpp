// pg_number(x, type): PostgreSQL's cast of a value to a number type, checked,
// for SQLite. SQLite's CAST reads the number at the start of a text and
// ignores the rest ('31b6…' becomes 31, 'Alpha' becomes 0) where PostgreSQL
// raises "invalid input syntax"; admission wraps the argument of such a cast in
// this function (admit/dialect.cpp, cast_on_sqlite), which passes what
// PostgreSQL accepts and fails the statement on what it refuses. The error
// never quotes the value: it may be text an end user wrote.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "common/number_text.hpp"
#include "executors/sqlite/sqlite_decimals.hpp"
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
  if (t == Target::Numeric && parse_integer(s, whole, overflow) && !overflow) {
    // Past 2^53 the numeric (a double on SQLite: CAST(... AS NUMERIC_REAL)) would lose the units digit PostgreSQL
    // keeps: (payload ->> 'seq')::numeric = 12345678901234567 counted no row (outside tester s18b).
    if (whole > (std::int64_t{1} << 53) || whole < -(std::int64_t{1} << 53)) return fail(ctx, decimal::kPastExact);
    return sqlite3_result_int64(ctx, whole);
  }
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
  sqlite3_result_double(ctx, t == Target::Float4 ? static_cast<double>(static_cast<float>(v)) : v);
}

std::optional<double> decimal_cut(double v, std::int64_t scale, bool truncate);
std::optional<std::string> decimal_text(double v);

// A numeric's decimal digits rounded, halves away from zero; a float's value to even (rint).
double rounded(double v, const char* from) {
  if (from != nullptr && std::string_view(from) == "numeric") return decimal_cut(v, 0, false).value_or(NAN);
  return std::nearbyint(v);  // the default rounding mode: to nearest, ties to even
}

void pg_number(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
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
      // A bigint past 2^53 as a numeric: SQLite's double (NUMERIC_REAL) would lose its units digit, and arithmetic
      // that cancels the rest is silently off (b::numeric - 9223372036854775000 gave 1024 for 807; outside
      // tester s19d).
      if (t == Target::Numeric && (v > (std::int64_t{1} << 53) || v < -(std::int64_t{1} << 53)))
        return fail(ctx, decimal::kPastExact);
      return sqlite3_result_value(ctx, argv[0]);
    }
    case SQLITE_FLOAT: {
      double v = sqlite3_value_double(argv[0]);
      // pg_number(x, 'numeric', 'float8'): PostgreSQL's float8 to numeric keeps 15 significant digits.
      if (t == Target::Numeric && argc == 3 &&
          std::string_view(reinterpret_cast<const char*>(sqlite3_value_text(argv[2]))) == "float8") {
        const auto digits = decimal_text(v);
        double out = 0;
        if (!digits || std::from_chars(digits->data(), digits->data() + digits->size(), out).ec != std::errc())
          return out_of_range(ctx, t);
        return sqlite3_result_double(ctx, out);
      }
      if (!integer_target(t)) return sqlite3_result_value(ctx, argv[0]);
      // pg_number(x, 'int4', 'numeric' | 'float8'): x is known to be of that type, and PostgreSQL's cast rounds it:
      // a numeric's halves away from zero, a float's to even (rint).
      if (argc == 3 && !std::isfinite(v)) return out_of_range(ctx, t);
      if (argc == 3) v = rounded(v, reinterpret_cast<const char*>(sqlite3_value_text(argv[2])));
      if (std::isnan(v))
        return fail(ctx,
                    "querygate: rounding to an integer needs more significant digits than the SQLite double "
                    "holds exactly (15); the PostgreSQL numeric would answer");
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

// The decimal digits of a double as PostgreSQL's numeric gets them: float8 to numeric keeps 15 significant digits
// (DBL_DIG), and a numeric of up to 15 significant digits stored by SQLite as a double comes back as itself.
std::optional<std::string> decimal_text(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 14);
  if (r.ec != std::errc()) return std::nullopt;
  std::string sci(buf, r.ptr);  // -d.dddddddddddddde+XX
  const bool negative = sci.front() == '-';
  if (negative) sci.erase(0, 1);
  const auto e = sci.find('e');
  if (e == std::string::npos) return std::nullopt;
  const int exponent = std::stoi(sci.substr(e + 1));
  std::string digits = sci.substr(0, e);
  digits.erase(1, 1);  // the point
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int point = exponent + 1;
  std::string text;
  if (point <= 0)
    text = "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
  else if (static_cast<std::size_t>(point) >= digits.size())
    text = digits + std::string(static_cast<std::size_t>(point) - digits.size(), '0');
  else
    text = digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
  if (digits == "0") text = "0";
  return negative && text != "0" ? "-" + text : text;
}

// That decimal cut at `scale` digits after the point, rounding the halves away from zero (round, numeric(p, s))
// or dropping the rest (trunc), read back as a double.
std::optional<double> decimal_cut(double v, std::int64_t scale, bool truncate) {
  if (scale < 0 || scale > 30) return std::nullopt;
  // A whole double of 16 digits or more: at scale 0 below 2^53 it is the exact numeric (its 15-digit text would
  // drop the 16th: 351::numeric - 9007199254740992 answered -9007199254740640, fuzz seed 018); at a scale above 0
  // the fraction digits it lost are not known (9007199254740641::numeric - 0.4 is the double ...641).
  if (v == std::trunc(v) && std::fabs(v) >= 1e15) {
    if (scale == 0 && std::fabs(v) < 9007199254740992.0) return v;
    return std::nullopt;
  }
  const auto decimal = decimal_text(v);
  if (!decimal) return std::nullopt;
  std::string text = *decimal;
  const auto point = text.find('.');
  const bool cut = point != std::string::npos && text.size() - point - 1 > static_cast<std::size_t>(scale);
  // The 15 significant digits must reach the place that decides: the digit after the last one kept.
  // (1e15 + 0.5 holds 16: its rounding is not known from what a double keeps exactly.)
  {
    const double magnitude = std::fabs(v);
    const int whole_digits = magnitude >= 1 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 0;
    if (cut && whole_digits + scale + 1 > 15) return std::nullopt;
    // Nothing to cut in the 15 digits, but the double holds more (1e14 / 3, 2.0 / 3): the places asked for are
    // past what is known exactly (round(1e14 / 3, 2) answered 33333333333333.30 for .33; outside tester s12).
    if (!cut && whole_digits + scale > 15) {
      char shortest[32];
      const auto r = std::to_chars(shortest, shortest + sizeof shortest, v, std::chars_format::scientific);
      const std::string_view digits(shortest, static_cast<std::size_t>(r.ptr - shortest));
      const auto e = digits.find('e');
      const std::size_t significant = e - (digits.front() == '-' ? 1 : 0) - (digits.find('.') < e ? 1 : 0);
      if (significant > 15) return std::nullopt;
    }
    // 15 digits of 1e15 + 0.5 show no fraction at all: the fraction is there, but not known exactly.
    if (whole_digits >= 15 && v != std::trunc(v)) return std::nullopt;
  }
  const bool up = cut && !truncate && text[point + 1 + static_cast<std::size_t>(scale)] >= '5';
  if (cut) text.resize(point + 1 + static_cast<std::size_t>(scale));
  if (up) {  // add one unit in the last kept place, away from zero
    std::size_t i = text.size();
    while (i > 0) {
      --i;
      if (text[i] == '.') continue;
      if (text[i] == '-') {
        text.insert(i + 1, "1");
        break;
      }
      if (text[i] == '9') {
        text[i] = '0';
        if (i == 0) text.insert(0, "1");
        continue;
      }
      ++text[i];
      break;
    }
  }
  if (text.back() == '.') text.pop_back();
  double out = 0;
  if (std::from_chars(text.data(), text.data() + text.size(), out).ec != std::errc()) return std::nullopt;
  return out == 0 ? 0.0 : out;  // no negative zero: PostgreSQL's numeric has none
}

// pg_numeric(x, p, s): CAST(x AS numeric(p, s)) as PostgreSQL does it: rounded to s decimal places (halves away
// from zero), "numeric field overflow" when the rounded value has more than p - s digits before the point.
void pg_numeric(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const std::int64_t precision = sqlite3_value_int64(argv[1]), scale = sqlite3_value_int64(argv[2]);
  const int type = sqlite3_value_type(argv[0]);
  if (type != SQLITE_INTEGER && type != SQLITE_FLOAT)
    return fail(ctx, "querygate: pg_numeric(x, p, s) takes a number (cast text with CAST(x AS numeric) first)");
  const auto cut = type == SQLITE_INTEGER ? std::optional<double>(sqlite3_value_double(argv[0]))
                                          : decimal_cut(sqlite3_value_double(argv[0]), scale, false);
  if (!cut)
    return fail(
        ctx,
        "querygate: rounding to numeric(p, s) needs more significant digits than the SQLite double holds exactly "
        "(15); the PostgreSQL numeric would answer: use a smaller scale");
  if (type == SQLITE_INTEGER && std::abs(sqlite3_value_int64(argv[0])) >= (std::int64_t{1} << 53))
    return fail(ctx, "querygate: an integer past 2^53 cast to numeric(p, s) has no exact SQLite value");
  // A double this large has lost the units digit PostgreSQL's numeric keeps (9223372036854775807::numeric + 1).
  if (type == SQLITE_FLOAT && std::abs(sqlite3_value_double(argv[0])) >= 9007199254740992.0)
    return fail(ctx, decimal::kPastExact);
  if (std::abs(*cut) >= std::pow(10.0, static_cast<double>(precision - scale)))
    return fail(ctx, "querygate: numeric field overflow (a field with precision " + std::to_string(precision) +
                         ", scale " + std::to_string(scale) + " must round to an absolute value less than 10^" +
                         std::to_string(precision - scale) + ", as PostgreSQL checks)");
  // A double even for a whole number: the value is a numeric, and 7::numeric(5,0) / 2 is 3.5 (SQLite would divide
  // two integers as integers; outside tester, s7).
  sqlite3_result_double(ctx, *cut);
}

// pg_numeric_text(x, s): the text PostgreSQL prints for a numeric of scale s (2.5 as numeric(5,2) is '2.50',
// 7 as numeric(5,0) '7'), where SQLite's CAST(x AS TEXT) prints its double ('2.5', '7.0').
void pg_numeric_text(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const int type = sqlite3_value_type(argv[0]);
  if (type == SQLITE_NULL) return sqlite3_result_null(ctx);
  const std::int64_t scale = sqlite3_value_int64(argv[1]);
  if (type == SQLITE_TEXT || scale < -1 || scale > 30) return sqlite3_result_value(ctx, argv[0]);
  if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) return fail(ctx, "querygate: pg_numeric_text takes a number");
  std::string text;
  if (scale == -1 && type == SQLITE_FLOAT) {
    // Scale not known (a stored NUMERIC column): the shortest decimal that reads back as the double, without an
    // exponent, as the numeric the data wrote (0.000001 for 1e-06, which SQLite's CAST prints 1.0e-06; s20c).
    char buf[400];
    const auto r = std::to_chars(buf, buf + sizeof buf, sqlite3_value_double(argv[0]), std::chars_format::fixed);
    if (r.ec != std::errc()) return fail(ctx, "querygate: pg_numeric_text could not print the number");
    text.assign(buf, r.ptr);
  } else if (type == SQLITE_INTEGER) {
    text = std::to_string(sqlite3_value_int64(argv[0]));
    if (scale > 0) text += "." + std::string(static_cast<std::size_t>(scale), '0');
  } else {
    const auto cut = decimal_cut(sqlite3_value_double(argv[0]), scale, false);
    if (!cut)
      return fail(ctx,
                  "querygate: the text of this numeric needs more significant digits than the SQLite double "
                  "holds exactly (15)");
    // The shortest decimal of the cut value, padded with zeros to the scale: printed at the scale itself, a double
    // showed its binary digits past the 17th (round(0.1, 20)::text was 0.10000000000000000555; outside tester s21b).
    char buf[400];
    auto r = std::to_chars(buf, buf + sizeof buf, *cut, std::chars_format::fixed);
    if (r.ec != std::errc()) return fail(ctx, "querygate: pg_numeric_text could not print the number");
    text.assign(buf, r.ptr);
    const auto point = text.find('.');
    const std::int64_t places = point == std::string::npos ? 0 : static_cast<std::int64_t>(text.size() - point - 1);
    if (places > scale) {
      r = std::to_chars(buf, buf + sizeof buf, *cut, std::chars_format::fixed, static_cast<int>(scale));
      if (r.ec != std::errc()) return fail(ctx, "querygate: pg_numeric_text could not print the number");
      text.assign(buf, r.ptr);
    } else if (scale > 0) {
      if (point == std::string::npos) text += '.';
      text.append(static_cast<std::size_t>(scale - places), '0');
    }
    if (text.starts_with("-") && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  }
  sqlite3_result_text(ctx, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

// An integer cut at 10^places (places >= 1): rounded, halves away from zero, or truncated, as PostgreSQL's
// numeric round / trunc with a negative count of digits. Empty past what an int64 holds.
std::optional<std::int64_t> whole_cut(std::int64_t x, std::int64_t places, bool truncate) {
  if (places > 18) {  // 10^19 is past int64: the value itself is below half of it, or not representable
    if (truncate || (x > -5000000000000000000 && x < 5000000000000000000)) return 0;
    return std::nullopt;
  }
  std::int64_t unit = 1;
  for (std::int64_t i = 0; i < places; ++i) unit *= 10;
  std::int64_t q = x / unit;  // toward zero
  const std::int64_t rest = x % unit;
  if (!truncate && (rest >= unit - rest || -rest >= unit + rest)) q += x < 0 ? -1 : 1;  // |rest| >= unit / 2
  if (q > std::numeric_limits<std::int64_t>::max() / unit || q < std::numeric_limits<std::int64_t>::min() / unit)
    return std::nullopt;
  return q * unit;
}

// pg_trunc(x, n) / pg_round(x, n): PostgreSQL's trunc(numeric, n) / round(numeric, n): the digits after the n-th
// decimal place dropped (or rounded, halves away from zero); a negative n cuts before the point (round(1235, -1) is
// 1240, trunc(-1299, -2) -1200), where SQLite's round treats it as 0 and its trunc takes one argument. The value is
// a numeric, so a double even when whole: trunc(7, 0) / 2 is 3.5 on PostgreSQL.
template <bool Truncate>
void pg_cut(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const char* const name = Truncate ? "trunc" : "round";
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  const int type = sqlite3_value_numeric_type(argv[0]);
  if (type != SQLITE_INTEGER && type != SQLITE_FLOAT)
    return fail(ctx, std::string("querygate: pg_") + name + "(x, n) takes a number");
  const std::int64_t places = sqlite3_value_int64(argv[1]);
  const auto too_precise = [&] {
    fail(ctx, std::string("querygate: ") + name +
                  "(x, n) needs more significant digits than the SQLite double holds exactly (15), or n outside -30 "
                  "to 30; the PostgreSQL numeric would answer: use fewer decimal places");
  };
  if (places < -30 || places > 30) return too_precise();
  std::int64_t whole = 0;
  if (type == SQLITE_INTEGER) {
    whole = sqlite3_value_int64(argv[0]);
    if (places >= 0) {
      if (whole >= (std::int64_t{1} << 53) || whole <= -(std::int64_t{1} << 53)) return too_precise();
      return sqlite3_result_double(ctx, static_cast<double>(whole));
    }
  } else {
    const double v = sqlite3_value_double(argv[0]);
    // The digits before the point decide a cut before it: PostgreSQL looks at the first digit dropped only.
    const auto cut = decimal_cut(v, places >= 0 ? places : 0, Truncate || places < 0);
    if (!cut) return too_precise();
    if (places >= 0) return sqlite3_result_double(ctx, *cut);
    if (std::fabs(*cut) >= 9.0e15) return too_precise();
    whole = static_cast<std::int64_t>(*cut);
  }
  const auto r = whole_cut(whole, -places, Truncate);
  if (!r || *r >= (std::int64_t{1} << 53) || *r <= -(std::int64_t{1} << 53)) return too_precise();
  sqlite3_result_double(ctx, static_cast<double>(*r));
}

void float_overflow(sqlite3_context* ctx) {
  fail(ctx, "value out of range: overflow");  // PostgreSQL's message: SQLite's double is an infinity
}

void float_underflow(sqlite3_context* ctx) {
  fail(ctx, "value out of range: underflow");  // PostgreSQL's message: SQLite's double is 0
}

void division_by_zero(sqlite3_context* ctx) {
  fail(ctx, "division by zero");  // PostgreSQL's message: SQLite would answer NULL
}

// pg_div(x, y): x / y as SQLite divides (both integers: truncated toward zero; otherwise as doubles), with
// PostgreSQL's errors where SQLite answers: "division by zero" (SQLite: NULL) and the int64 overflow of
// INT64_MIN / -1 (SQLite: a double). NULL in, NULL out, before the divisor is looked at (PostgreSQL's / is strict:
// NULL / 0 is NULL). Text is read as a number the way SQLite's / reads it; text that is not one fails.
void pg_div(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const int tx = sqlite3_value_numeric_type(argv[0]), ty = sqlite3_value_numeric_type(argv[1]);
  if (tx == SQLITE_NULL || ty == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto number = [](int t) { return t == SQLITE_INTEGER || t == SQLITE_FLOAT; };
  if (!number(tx) || !number(ty))
    return fail(ctx, "querygate: invalid input syntax for type numeric (an operand of / that is not a number)");
  if (tx == SQLITE_INTEGER && ty == SQLITE_INTEGER) {
    const std::int64_t x = sqlite3_value_int64(argv[0]), y = sqlite3_value_int64(argv[1]);
    if (y == 0) return division_by_zero(ctx);
    if (y == -1 && x == std::numeric_limits<std::int64_t>::min()) return fail(ctx, "bigint out of range");
    return sqlite3_result_int64(ctx, x / y);
  }
  const double x = sqlite3_value_double(argv[0]), y = sqlite3_value_double(argv[1]);
  if (y == 0) return division_by_zero(ctx);
  const double q = x / y;
  if (std::isinf(q) && std::isfinite(x) && std::isfinite(y)) return float_overflow(ctx);
  if (q == 0 && x != 0 && !std::isinf(y)) return float_underflow(ctx);  // float8div: 1e-300 / 1e300
  sqlite3_result_double(ctx, q);
}

// pg_float8_mul(x, y): x * y of double precision values (admission/admit/admit_expr.cpp), with float8mul's errors
// where SQLite answers: "overflow" for an infinity from finite operands, "underflow" for 0 from operands that are
// not 0 (1e-200 * 1e-200 was 0; outside tester s20c). The operands as SQLite's * reads them; NULL in, NULL out.
void pg_float8_mul(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  const double x = sqlite3_value_double(argv[0]), y = sqlite3_value_double(argv[1]);
  const double r = x * y;
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) return float_overflow(ctx);
  if (r == 0 && x != 0 && y != 0) return float_underflow(ctx);
  sqlite3_result_double(ctx, r);  // (Infinity * 0, NaN: NULL, as SQLite's * answers)
}

// pg_float8(x): the value of float + - * admission wrapped (admit_expr.cpp, wrap_int8), as it is, or PostgreSQL's
// "value out of range: overflow" for the infinity SQLite's double overflowed to (1e308 * 10). Once per chain, at
// its top: an infinity stays one through + - * above it. (Underflow to 0 is not seen from the result.)
void pg_float8(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_FLOAT && std::isinf(sqlite3_value_double(argv[0])))
    return float_overflow(ctx);
  sqlite3_result_value(ctx, argv[0]);
}

// pg_exact_int(f): the integer a double precision f is, for `integer_column = f` where only the rows that match are
// kept (a WHERE or ON condition; admission/admit/numbers_on_sqlite.cpp). PostgreSQL compares float8(x) = f; for
// |f| < 2^53 that is x = f exactly, which SQLite answers from an index on x (CAST(x AS REAL) = f scanned every pair:
// a join of spans.id to a score * 1000 ran past its deadline; outside tester s19f). A fraction or an infinity matches
// no integer: NULL. From 2^53 on several integers round to f: PostgreSQL's answer is not one equality, an error.
void pg_exact_int(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_FLOAT) return sqlite3_result_value(ctx, argv[0]);
  const double f = sqlite3_value_double(argv[0]);
  if (!std::isfinite(f) || f != std::trunc(f)) return sqlite3_result_null(ctx);
  if (std::fabs(f) >= 9007199254740992.0)
    return fail(ctx,
                "querygate: an integer compared with a double precision of 2^53 or more, which several integers round "
                "to; write CAST(x AS double precision) = y to compare the doubles");
  sqlite3_result_int64(ctx, static_cast<std::int64_t>(f));
}

// A decimal as an exact scaled integer: value = digits / 10^scale.
struct Scaled {
  __int128 digits = 0;
  int scale = 0;
};

std::optional<Scaled> scaled(sqlite3_value* v) {
  if (sqlite3_value_type(v) == SQLITE_INTEGER) return Scaled{sqlite3_value_int64(v), 0};
  const double d = sqlite3_value_double(v);
  // A whole double is an exact integer (floor(x) % 2 of round-half-even past 1e15); a fraction is read as the
  // 15 significant digits PostgreSQL's numeric has of it, known only below 1e15.
  if (d == std::trunc(d) && std::fabs(d) < 9.2e18) return Scaled{static_cast<std::int64_t>(d), 0};
  if (!(std::fabs(d) < 1e15)) return std::nullopt;
  const auto text = decimal_text(d);
  if (!text) return std::nullopt;
  Scaled out;
  bool negative = false, point = false;
  for (char c : *text) {
    if (c == '-') {
      negative = true;
    } else if (c == '.') {
      point = true;
    } else {
      out.digits = out.digits * 10 + (c - '0');
      if (point) ++out.scale;
    }
  }
  if (out.scale > 30) return std::nullopt;
  if (negative) out.digits = -out.digits;
  return out;
}

// pg_mod(x, y): PostgreSQL's x % y (and mod(x, y)): the remainder of the division truncated toward zero, with the
// sign of x, exact for numerics with a fraction (10 % 3.5 is 3.0, 1 % 0.1 is 0.0) where SQLite's % drops the
// fractions first (10 % 3.5 is 1); "division by zero" where SQLite answers NULL. Integers stay integers.
void pg_mod(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const int tx = sqlite3_value_numeric_type(argv[0]), ty = sqlite3_value_numeric_type(argv[1]);
  if (tx == SQLITE_NULL || ty == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto number = [](int t) { return t == SQLITE_INTEGER || t == SQLITE_FLOAT; };
  if (!number(tx) || !number(ty))
    return fail(ctx, "querygate: invalid input syntax for type numeric (an operand of % that is not a number)");
  if (ty == SQLITE_INTEGER ? sqlite3_value_int64(argv[1]) == 0 : sqlite3_value_double(argv[1]) == 0)
    return division_by_zero(ctx);
  if (tx == SQLITE_INTEGER && ty == SQLITE_INTEGER) {
    const std::int64_t x = sqlite3_value_int64(argv[0]), y = sqlite3_value_int64(argv[1]);
    return sqlite3_result_int64(ctx, y == -1 ? 0 : x % y);  // INT64_MIN % -1 is 0 on PostgreSQL
  }
  auto x = scaled(argv[0]), y = scaled(argv[1]);
  const auto too_precise = [&] {
    fail(ctx,
         "querygate: x % y with a fraction needs more significant digits than the SQLite double holds exactly "
         "(15); the PostgreSQL numeric would answer: use fewer decimal places");
  };
  if (!x || !y) return too_precise();
  const int scale = std::max(x->scale, y->scale);
  for (Scaled* s : {&*x, &*y})
    for (; s->scale < scale; ++s->scale) {
      if (s->digits > (__int128{1} << 120) / 10 || s->digits < -((__int128{1} << 120) / 10)) return too_precise();
      s->digits *= 10;
    }
  const __int128 r = x->digits % y->digits;  // C++: toward zero, the sign of x, as PostgreSQL's numeric
  const bool negative = r < 0;
  unsigned __int128 m = negative ? static_cast<unsigned __int128>(-r) : static_cast<unsigned __int128>(r);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  if (digits.size() <= static_cast<std::size_t>(scale))
    digits.insert(0, static_cast<std::size_t>(scale) + 1 - digits.size(), '0');
  if (scale > 0) digits.insert(digits.size() - static_cast<std::size_t>(scale), ".");
  double out = 0;
  if (std::from_chars(digits.data(), digits.data() + digits.size(), out).ec != std::errc()) return too_precise();
  sqlite3_result_double(ctx, negative && out != 0 ? -out : out);
}

// pg_greatest(a, ...) / pg_least(a, ...): PostgreSQL's GREATEST / LEAST: NULL arguments are skipped, NULL only
// when all are (SQLite's max(a, b) / min(a, b) are NULL when any argument is). Admission passes numbers only or
// texts only (admit/numbers_on_sqlite.cpp); texts compare by bytes, as SQLite's BINARY collation does.
int compare_values(sqlite3_value* a, sqlite3_value* b, bool& comparable) {
  const int ta = sqlite3_value_type(a), tb = sqlite3_value_type(b);
  const bool na = ta == SQLITE_INTEGER || ta == SQLITE_FLOAT, nb = tb == SQLITE_INTEGER || tb == SQLITE_FLOAT;
  comparable = (na && nb) || (ta == SQLITE_TEXT && tb == SQLITE_TEXT);
  if (!comparable) return 0;
  if (ta == SQLITE_INTEGER && tb == SQLITE_INTEGER) {
    const auto x = sqlite3_value_int64(a), y = sqlite3_value_int64(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (na) {
    const double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const std::string_view x(reinterpret_cast<const char*>(sqlite3_value_text(a)),
                           static_cast<std::size_t>(sqlite3_value_bytes(a)));
  const std::string_view y(reinterpret_cast<const char*>(sqlite3_value_text(b)),
                           static_cast<std::size_t>(sqlite3_value_bytes(b)));
  return x.compare(y) < 0 ? -1 : x.compare(y) > 0 ? 1 : 0;
}

template <bool Greatest>
void pg_extreme(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  sqlite3_value* best = nullptr;
  for (int i = 0; i < argc; ++i) {
    sqlite3_value* v = argv[i];
    if (sqlite3_value_type(v) == SQLITE_NULL) continue;
    if (best == nullptr) {
      best = v;
      continue;
    }
    bool comparable = false;
    const int c = compare_values(v, best, comparable);
    if (!comparable)
      return fail(ctx, Greatest ? "querygate: pg_greatest compares numbers with numbers and text with text"
                                : "querygate: pg_least compares numbers with numbers and text with text");
    if (Greatest ? c > 0 : c < 0) best = v;
  }
  if (best == nullptr) return sqlite3_result_null(ctx);
  sqlite3_result_value(ctx, best);
}

// pg_numeric_literal('0.005754'): the double nearest a numeric literal, as PostgreSQL's float8 input reads it. SQLite
// 3.40 reads a literal through a long double and rounds twice, 1 ulp off for some (0.005754 is the double above the
// nearest one: cost_usd = 0.005754 found none of 5 rows; outside tester s13). admission/render prints every literal a
// double does not hold exactly so.
// pg_numeric_value(v) is the same of a derived table's column that holds a numeric's decimal text (admission:
// numeric_scale_on_sqlite.cpp), where a number (a group's fallback sum) is passed on as it is.
void pg_numeric_literal(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (const int type = sqlite3_value_type(argv[0]); type == SQLITE_INTEGER || type == SQLITE_FLOAT)
    return sqlite3_result_value(ctx, argv[0]);
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (!text) return sqlite3_result_null(ctx);
  const std::string_view s(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0])));
  double d = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  if (r.ec == std::errc::result_out_of_range || !std::isfinite(d))
    return fail(ctx,
                "querygate: a numeric beyond the range the SQLite double holds (1e-307 to 1e308), which the "
                "PostgreSQL numeric would hold");
  if (r.ec != std::errc() || r.ptr != s.data() + s.size())
    return fail(ctx, "querygate: pg_numeric_literal / pg_numeric_value take the text of a number");
  sqlite3_result_double(ctx, d);
}

// pg_shift(x, n, op, bits): PostgreSQL's x << n / x >> n of a smallint (16), integer (32) or bigint (64): C's shift of
// the type, the count masked as the machine masks it (to 5 bits; 6 for a bigint), the result cut to the type.
void pg_shift(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  const auto* op = reinterpret_cast<const char*>(sqlite3_value_text(argv[2]));
  const bool left = op && std::string_view(op) == "<<";
  const std::int64_t x = sqlite3_value_int64(argv[0]), n = sqlite3_value_int64(argv[1]);
  std::int64_t bits = sqlite3_value_int64(argv[3]);
  // 0: a SQLite INTEGER column, named integer but able to hold bigints: a value past int4 is PostgreSQL's bigint
  // (5000000000 >> 22 was 168 for 1192; outside tester s20a), the others int4.
  if (bits == 0) bits = x >= INT32_MIN && x <= INT32_MAX ? 32 : 64;
  if (bits == 64) {
    const int c = static_cast<int>(n & 63);
    return sqlite3_result_int64(ctx, left ? static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << c) : x >> c);
  }
  const int c = static_cast<int>(n & 31);  // int2 is promoted to int first
  const auto v = static_cast<std::int32_t>(x);
  std::int32_t r = left ? static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << c) : v >> c;
  if (bits == 16) r = static_cast<std::int16_t>(r);
  sqlite3_result_int64(ctx, r);
}

// degrees(x) / radians(x) as PostgreSQL's float.c computes them: x / or * RADIANS_PER_DEGREE, with its range
// checks. SQLite's own (x * 180 / pi) differs in the last bit: degrees(17)::text was 974.0282517223995 for
// 974.0282517223994 (outside tester s13b). Registered under SQLite's names, replacing its functions.
template <bool ToDegrees>
void pg_degrees_radians(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const int t = sqlite3_value_numeric_type(argv[0]);
  if (t == SQLITE_NULL) return sqlite3_result_null(ctx);
  if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
    return fail(ctx, ToDegrees ? "querygate: degrees() takes a number" : "querygate: radians() takes a number");
  constexpr double kRadiansPerDegree = 0.0174532925199432957692;
  const double x = sqlite3_value_double(argv[0]);
  const double r = ToDegrees ? x / kRadiansPerDegree : x * kRadiansPerDegree;
  if (std::isinf(r) && !std::isinf(x)) return float_overflow(ctx);
  if (r == 0 && x != 0) return fail(ctx, "value out of range: underflow");
  sqlite3_result_double(ctx, r);
}

}  // namespace

std::optional<std::string> numeric_digits(double v) {
  return decimal_text(v);
}

bool register_number_functions(sqlite3* db, int flags) {
  return sqlite3_create_function(db, "pg_number", 2, flags, nullptr, pg_number, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_number", 3, flags, nullptr, pg_number, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_numeric", 3, flags, nullptr, pg_numeric, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_trunc", 2, flags, nullptr, pg_cut<true>, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_round", 2, flags, nullptr, pg_cut<false>, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_div", 2, flags, nullptr, pg_div, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_float8", 1, flags, nullptr, pg_float8, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_float8_mul", 2, flags, nullptr, pg_float8_mul, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_exact_int", 1, flags, nullptr, pg_exact_int, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_mod", 2, flags, nullptr, pg_mod, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_numeric_text", 2, flags, nullptr, pg_numeric_text, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_greatest", -1, flags, nullptr, pg_extreme<true>, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_least", -1, flags, nullptr, pg_extreme<false>, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_numeric_literal", 1, flags, nullptr, pg_numeric_literal, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_numeric_value", 1, flags, nullptr, pg_numeric_literal, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_shift", 4, flags, nullptr, pg_shift, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "degrees", 1, flags, nullptr, pg_degrees_radians<true>, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "radians", 1, flags, nullptr, pg_degrees_radians<false>, nullptr, nullptr) ==
             SQLITE_OK;
}

}  // namespace qg::exec::sqlite
