// PostgreSQL's numeric as exact decimals on SQLite (issue #12): the reading of a
// SQLite number as the decimal PostgreSQL's numeric holds, numeric_div's scale
// and rounding, and pg_numeric_div(x, y, from), the numeric x / y admission
// prints for SQLite (admission/admit/numeric_scale_on_sqlite.cpp). SQLite
// divides doubles: cost_usd::numeric / 7 answered 0.0002052914285714286 where
// PostgreSQL's numeric quotient 0.00020529142857142857 is the double
// 0.00020529142857142856.
#include "executors/sqlite/sqlite_decimals.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite::decimal {

cpp_int pow10(int n) {
  // Kept per thread: every exact numeric function scales by these (SQLite runs a statement on one thread).
  thread_local std::vector<cpp_int> powers{cpp_int(1)};
  if (n <= 0) return 1;  // (a negative count: 1, as before the cache)
  if (n > 4096) {
    cpp_int p = pow10(4096);
    for (int i = 4096; i < n; ++i) p *= 10;
    return p;
  }
  while (static_cast<int>(powers.size()) <= n) powers.push_back(powers.back() * 10);
  return powers[static_cast<std::size_t>(n)];
}

std::optional<Decimal> parse(std::string text) {
  int exponent = 0;
  if (const auto e = text.find_first_of("eE"); e != std::string::npos) {
    const char* first = text.data() + e + 1;
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') ++first;
    const auto r = std::from_chars(first, last, exponent);
    if (r.ec != std::errc() || r.ptr != last || exponent > 1000 || exponent < -1000) return std::nullopt;
    text.resize(e);
  }
  const bool negative = !text.empty() && text.front() == '-';
  std::string digits = text.substr(negative ? 1 : 0);
  const auto point = digits.find('.');
  Decimal out;
  if (point != std::string::npos) {
    out.scale = static_cast<int>(digits.size() - point - 1);
    digits.erase(point, 1);
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));  // "025" would read as octal
  out.value = cpp_int(digits);
  out.scale -= exponent;
  if (out.scale < 0) {
    out.value *= pow10(-out.scale);
    out.scale = 0;
  }
  if (negative) out.value = -out.value;
  return out;
}

std::optional<Decimal> of_value(sqlite3_value* v, bool from_float) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      return Decimal{cpp_int(sqlite3_value_int64(v)), 0};
    case SQLITE_FLOAT: {
      const double d = sqlite3_value_double(v);
      if (from_float) {
        const auto digits = numeric_digits(d);
        return digits ? parse(*digits) : std::nullopt;
      }
      // Past 2^53 a double is not the numeric it stands for (9007199254740993 reads as ...992): no exact decimal,
      // so what computes on it fails (or, a sum, falls back to the double the answer refuses) rather than print
      // exact arithmetic on lost digits.
      if (!std::isfinite(d) || std::abs(d) >= 9007199254740992.0) return std::nullopt;
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, d);  // the shortest text that reads back as d
      if (r.ec != std::errc()) return std::nullopt;
      return parse(std::string(buf, r.ptr));
    }
    case SQLITE_TEXT: {  // a number kept as text: its digits as written
      const auto* t = reinterpret_cast<const char*>(sqlite3_value_text(v));
      return t ? parse(std::string(t, static_cast<std::size_t>(sqlite3_value_bytes(v)))) : std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::string text(const Decimal& d) {
  const bool negative = d.value < 0;
  std::string digits = negative ? cpp_int(-d.value).str() : d.value.str();
  if (d.scale > 0) {
    if (static_cast<int>(digits.size()) <= d.scale)
      digits.insert(0, static_cast<std::size_t>(d.scale + 1) - digits.size(), '0');
    digits.insert(digits.size() - static_cast<std::size_t>(d.scale), ".");
  }
  return negative ? "-" + digits : digits;
}

int compare(const Decimal& a, const Decimal& b) {
  const int scale = std::max(a.scale, b.scale);
  const cpp_int p = a.value * pow10(scale - a.scale), q = b.value * pow10(scale - b.scale);
  return p < q ? -1 : p > q ? 1 : 0;
}

Decimal trimmed(Decimal d) {
  while (d.scale > 0 && d.value % 10 == 0) {
    d.value /= 10;
    --d.scale;
  }
  return d;
}

double nearest_double(const Decimal& d) {
  const std::string t = text(d);
  double out = 0;
  std::from_chars(t.data(), t.data() + t.size(), out);  // correctly rounded; out of range: ±inf is not returned
  return out == 0 ? 0.0 : out;                          // numeric has no -0
}

namespace {

// A nonzero decimal's weight and first digit in numeric.c's base 10000 (digit i of the weight w counts 10000^w).
void base10000(const Decimal& d, int& weight, int& first) {
  std::string digits = d.value < 0 ? cpp_int(-d.value).str() : d.value.str();
  const int p = static_cast<int>(digits.size()) - 1 - d.scale;  // the power of ten of the leading digit
  weight = p >= 0 ? p / 4 : -((-p + 3) / 4);                    // floor(p / 4)
  // 1..4 decimal digits in the first base-10000 digit, zeros past the last one (0.03: 0300).
  const auto lead = static_cast<std::size_t>(p - weight * 4 + 1);
  if (digits.size() < lead) digits.append(lead - digits.size(), '0');
  first = std::stoi(digits.substr(0, lead));
}

}  // namespace

Decimal divide(const Decimal& a, const Decimal& b) {
  // select_div_scale: NUMERIC_MIN_SIG_DIGITS (16) significant digits from the quotient's estimated weight, and no
  // fewer places than either operand's display scale.
  int w1 = 0, f1 = 0, w2 = 0, f2 = 0;
  if (a.value != 0) base10000(a, w1, f1);
  base10000(b, w2, f2);
  int qweight = w1 - w2;
  if (f1 <= f2) --qweight;
  const int rscale = std::clamp(std::max({16 - qweight * 4, a.scale, b.scale}), 0, 1000);
  // div_var(..., round = true): a / b at rscale places, rounded half away from zero.
  cpp_int numerator = a.value * pow10(b.scale + rscale), denominator = b.value * pow10(a.scale);
  const bool negative = (numerator < 0) != (denominator < 0);
  if (numerator < 0) numerator = -numerator;
  if (denominator < 0) denominator = -denominator;
  cpp_int quotient = (2 * numerator + denominator) / (2 * denominator);
  if (negative) quotient = -quotient;
  return {quotient, rscale};
}

// An exact numeric result: its decimal text where asked (the operand of another of these functions, so that a chain
// such as 2.0 / 3 * 3 keeps every digit PostgreSQL's numeric keeps, or of a comparison, floor, ...), else the double
// nearest it, or the statement's error where a double cannot stand for it: a nonzero value that would be 0
// (1e-300 * 1e-300 is PostgreSQL's 1E-600) or beyond the double's range.
void answer(sqlite3_context* ctx, const Decimal& d, bool as_text) {
  if (as_text) {
    const std::string t = text(d);
    return sqlite3_result_text(ctx, t.c_str(), static_cast<int>(t.size()), SQLITE_TRANSIENT);
  }
  const double out = nearest_double(d);
  if ((out == 0 && d.value != 0) || std::isinf(out))
    return sqlite3_result_error(ctx,
                                "querygate: a numeric result beyond the range the SQLite double holds exactly "
                                "(1e-307 to 1e308), which the PostgreSQL numeric would hold",
                                -1);
  sqlite3_result_double(ctx, out);
}

namespace {

// `from` of pg_numeric_div / pg_numeric_arith / pg_numeric_cmp: a letter for each operand, then 't' for a text answer.
void result(sqlite3_context* ctx, const Decimal& d, sqlite3_value* from_value) {
  const auto* from = reinterpret_cast<const char*>(sqlite3_value_text(from_value));
  answer(ctx, d, from && std::string_view(from).size() > 2 && from[2] == 't');
}

// The operands of pg_numeric_div / pg_numeric_arith as PostgreSQL's numeric holds them; false (with the statement's
// error set, or NULL answered) when there is no such pair.
bool operands(sqlite3_context* ctx, sqlite3_value** argv, sqlite3_value* from_value, const char* what,
              std::optional<Decimal>& x, std::optional<Decimal>& y) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return false;
  }
  const auto* from = reinterpret_cast<const char*>(sqlite3_value_text(from_value));
  const std::string_view f = from ? from : "";
  x = of_value(argv[0], f.size() > 0 && f[0] == 'f');
  y = of_value(argv[1], f.size() > 1 && f[1] == 'f');
  if (!x || !y) {
    // A NUMERIC column SQLite kept as text (PostgreSQL could not have held it), an infinity, or a double past 2^53.
    const bool big =
        (sqlite3_value_type(argv[0]) == SQLITE_FLOAT &&
         std::abs(sqlite3_value_double(argv[0])) >= 9007199254740992.0) ||
        (sqlite3_value_type(argv[1]) == SQLITE_FLOAT && std::abs(sqlite3_value_double(argv[1])) >= 9007199254740992.0);
    sqlite3_result_error(ctx,
                         big ? kPastExact
                             : (std::string("querygate: invalid input syntax for type numeric (an operand of ") + what +
                                " that is not a number)")
                                   .c_str(),
                         -1);
    return false;
  }
  return true;
}

// pg_numeric_arith(x, y, op, from): PostgreSQL's numeric x + y, x - y, x * y or x % y, exact on the operands' decimals
// (`from` as pg_numeric_div's), answered as the double nearest the result (SQLite's doubles: abs(-0.1) + 0.2 was
// 0.30000000000000004, and = 0.3 false).
void pg_numeric_arith(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const auto* op_text = reinterpret_cast<const char*>(sqlite3_value_text(argv[2]));
  const char op = op_text && op_text[0] && !op_text[1] ? op_text[0] : '?';
  if (op != '+' && op != '-' && op != '*' && op != '%')
    return sqlite3_result_error(ctx, "querygate: pg_numeric_arith: bad operator", -1);
  std::optional<Decimal> x, y;
  if (!operands(ctx, argv, argv[3], op_text, x, y)) return;
  if (op == '*') return result(ctx, {x->value * y->value, x->scale + y->scale}, argv[3]);
  const int scale = std::max(x->scale, y->scale);
  const cpp_int a = x->value * pow10(scale - x->scale), b = y->value * pow10(scale - y->scale);
  // mod_var: x - trunc(x / y) * y, at the larger scale; the sign of x (cpp_int's % truncates as C++'s does).
  if (op == '%') {
    if (b == 0) return sqlite3_result_error(ctx, "division by zero", -1);
    return result(ctx, {cpp_int(a % b), scale}, argv[3]);
  }
  result(ctx, {op == '+' ? cpp_int(a + b) : cpp_int(a - b), scale}, argv[3]);
}

// pg_numeric_div(x, y, from): PostgreSQL's numeric x / y. `from` has a letter for each operand: 'f' for a float8
// cast to numeric (15 significant digits), 'n' for a numeric (an integer, or a double read as its shortest text).
// NULL in, NULL out; "division by zero" where SQLite would answer NULL; text that is not a number fails, as pg_div.
void pg_numeric_div(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  std::optional<Decimal> x, y;
  if (!operands(ctx, argv, argv[2], "/", x, y)) return;
  if (y->value == 0) return sqlite3_result_error(ctx, "division by zero", -1);
  result(ctx, divide(*x, *y), argv[2]);
}

// pg_numeric_cmp(x, y, from): PostgreSQL's numeric comparison of x and y: -1, 0 or 1 (NULL for a NULL operand), on
// the operands' decimals (`from` as pg_numeric_div's). Admission compares its answer with 0: an exact result a
// double rounds (1.0 / 3 * 3 is 0.99999999999999999999, the double 1) compares as PostgreSQL compares it.
void pg_numeric_cmp(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  std::optional<Decimal> x, y;
  if (!operands(ctx, argv, argv[2], "a comparison", x, y)) return;
  sqlite3_result_int(ctx, compare(*x, *y));
}

// pg_numeric_key(x, from): the one text of x's numeric value, whatever its scale (1.0, 1 and 1.000 are "1"; -0.50
// is "-0.5"), for a membership SQLite tests by equality of values: x IN (SELECT y ...) where x or y is an exact
// numeric (admission/admit/numeric_scale_on_sqlite.cpp). SQLite compared the doubles, and 1 matched
// 0.99999999999999999999. `from` as pg_numeric_div's first letter. NULL in, NULL out.
void pg_numeric_key(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto* from = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  auto x = of_value(argv[0], from && from[0] == 'f');
  if (!x)
    return sqlite3_result_error(ctx, "querygate: invalid input syntax for type numeric (a value compared with IN)", -1);
  const std::string t = text(trimmed(*x));
  sqlite3_result_text(ctx, t.c_str(), static_cast<int>(t.size()), SQLITE_TRANSIENT);
}

// ---- sqrt, exp, ln, log, power of numerics: numeric.c's result scales (at least 16 significant digits), the
// value computed in long double (64-bit mantissa, 19 digits) and rounded to that scale. floor, ceil, round, trunc,
// abs and sign: exact, on the decimal.

// A positive decimal's weight and first two digits in base 10000 (d1: -1 when it has one digit), as NumericVar.
struct Digits {
  int weight = 0;
  int d0 = 0;
  int d1 = -1;
};

Digits digits_of(const Decimal& d) {
  Digits out;
  std::string text = d.value < 0 ? cpp_int(-d.value).str() : d.value.str();
  const int p = static_cast<int>(text.size()) - 1 - d.scale;
  out.weight = p >= 0 ? p / 4 : -((-p + 3) / 4);
  const auto lead = static_cast<std::size_t>(p - out.weight * 4 + 1);
  text.append(lead + 4 > text.size() ? lead + 4 - text.size() : 0, '0');
  out.d0 = std::stoi(text.substr(0, lead));
  const std::string rest = text.substr(lead);
  if (rest.find_first_not_of('0') != std::string::npos) out.d1 = std::stoi(rest.substr(0, 4));
  return out;
}

// x ~ digits * 10^dweight from its first two base-10000 digits, as numeric.c estimates weights.
std::pair<double, int> leading(const Decimal& x) {
  const Digits g = digits_of(x);
  double digits = g.d0;
  int dweight = g.weight * 4;
  if (g.d1 >= 0) {
    digits = digits * 10000 + g.d1;
    dweight -= 4;
  }
  return {digits, dweight};
}

long double to_long_double(const Decimal& d) {
  const std::string t = text(d);
  return std::strtold(t.c_str(), nullptr);
}

// estimate_ln_dweight: the decimal weight of ln(x), x > 0.
int ln_dweight(const Decimal& x) {
  const cpp_int unit = pow10(x.scale);
  if (x.value * 10 >= unit * 9 && x.value * 10 <= unit * 11) {  // 0.9 <= x <= 1.1: ln(1 + y) ~ y
    const Decimal y{x.value - unit, x.scale};
    if (y.value == 0) return 0;
    const Digits g = digits_of(y);
    return g.weight * 4 + static_cast<int>(std::log10(static_cast<double>(g.d0)));
  }
  const auto [digits, dweight] = leading(x);
  const double ln = std::log(digits) + dweight * 2.302585092994046;
  return static_cast<int>(std::log10(std::fabs(ln)));
}

int clamp_scale(int rscale, std::initializer_list<int> dscales) {
  for (int d : dscales) rscale = std::max(rscale, d);
  return std::clamp(rscale, 0, 1000);
}

// v rounded to `scale` places.
std::optional<Decimal> at_scale(long double v, int scale) {
  if (!std::isfinite(v)) return std::nullopt;
  const int n = std::snprintf(nullptr, 0, "%.*Lf", scale, v);
  std::string buf(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(buf.data(), buf.size(), "%.*Lf", scale, v);
  buf.resize(static_cast<std::size_t>(n));
  return parse(std::move(buf));
}

// d at `places` decimal places (a negative count cuts before the point), truncated or rounded half away from zero,
// at the scale PostgreSQL's round / trunc give it (places, or 0).
Decimal cut(const Decimal& d, int places, bool truncate) {
  const int scale = std::max(places, 0);
  if (places >= d.scale) return {d.value * pow10(scale - d.scale), scale};
  const cpp_int unit = pow10(d.scale - places);
  const bool negative = d.value < 0;
  const cpp_int a = negative ? cpp_int(-d.value) : d.value;
  cpp_int q = a / unit;
  if (!truncate && 2 * (a % unit) >= unit) ++q;
  if (places < 0) q *= pow10(-places);
  return {negative ? cpp_int(-q) : q, scale};
}

// floor (up = false) or ceil of d.
Decimal whole(const Decimal& d, bool up) {
  const cpp_int unit = pow10(d.scale);
  cpp_int q = d.value / unit;  // toward zero
  if (d.value % unit != 0 && (d.value > 0) == up) q += up ? 1 : -1;
  return {q, 0};
}

// A function's result, or PostgreSQL's error ("value overflows numeric format" when neither is set).
struct Math {
  std::optional<Decimal> value;
  const char* error = nullptr;
};

Math failed(const char* error) {
  return {std::nullopt, error};
}

Math numeric_sqrt(const Decimal& x) {
  if (x.value < 0) return failed("cannot take square root of a negative number");
  if (x.value == 0) return {Decimal{0, 0}};
  const int sweight = (digits_of(x).weight + 1) * 4 / 2 - 1;
  // Exact: the integer square root at one digit past the scale, rounded half up (sqrt_var's correctly rounded
  // digits; long double's 19 were one off in the last place: sqrt(avg(latency_ms)); outside tester s15).
  const int rscale = clamp_scale(16 - sweight, {x.scale});
  const cpp_int root = boost::multiprecision::sqrt(cpp_int(x.value * pow10(2 * (rscale + 1) - x.scale)));
  return {Decimal{cpp_int(root / 10 + (root % 10 >= 5 ? 1 : 0)), rscale}};
}

// ---- exp, ln, power at numeric.c's scales, computed exactly enough: in fixed point (a cpp_int v standing for
// v / 10^p) with guard digits past the result's scale, then rounded half away from zero, as exp_var / ln_var round
// (long double's 19 digits printed 1.00601803605406486483 for exp(0.006)'s 1.00601803605406486486; outside tester
// s15). The guard digits absorb the truncations of the steps: a result within 10^-(scale + 20) of a rounding
// boundary is the only one that could come out other than PostgreSQL's.
constexpr int kGuard = 30;

cpp_int abs_of(const cpp_int& v) {
  return v < 0 ? cpp_int(-v) : v;
}

// x (a decimal) in fixed point at p places, truncated.
cpp_int fixed(const Decimal& x, int p) {
  return p >= x.scale ? cpp_int(x.value * pow10(p - x.scale)) : cpp_int(x.value / pow10(x.scale - p));
}

// exp(x / 10^p) at p places: x halved until |x| < 0.01, the Taylor series, squared back.
cpp_int fixed_exp(cpp_int x, int p) {
  const cpp_int one = pow10(p);
  const bool negative = x < 0;
  if (negative) x = -x;
  int halvings = 0;
  while (x * 100 > one) {
    x /= 2;
    ++halvings;
  }
  cpp_int sum = one, term = one;
  for (int n = 1; term != 0; ++n) {
    term = term * x / one / n;
    sum += term;
  }
  for (int i = 0; i < halvings; ++i) sum = sum * sum / one;
  return negative ? cpp_int(one * one / sum) : sum;
}

// ln(x / 10^p) at p places, x > 0: square roots until 0.9 < x < 1.1 (ln_var's reduction), then
// 2 * atanh((x - 1) / (x + 1)), times 2 for each root.
cpp_int fixed_ln(cpp_int x, int p) {
  const cpp_int one = pow10(p);
  int roots = 0;
  while (x * 10 > one * 11 || x * 10 < one * 9) {
    x = boost::multiprecision::sqrt(cpp_int(x * one));
    ++roots;
  }
  const cpp_int z = (x - one) * one / (x + one), z2 = z * z / one;
  cpp_int sum = 0, power = z;
  for (int n = 1; power != 0; n += 2) {
    sum += power / n;
    power = power * z2 / one;
  }
  return sum * 2 * (cpp_int(1) << roots);
}

// v (a long double within rel_error of the true result) rounded at `scale`, where that error cannot cross the
// rounding boundary, so that the fixed point computation is needed only near one (and for more than 18 digits).
std::optional<Decimal> certain(long double v, long double rel_error, int scale) {
  if (!std::isfinite(v) || v == 0 || scale > 4000) return std::nullopt;
  const long double scaled = std::fabs(v) * std::pow(10.0L, static_cast<long double>(scale));
  if (!std::isfinite(scaled) || scaled >= 1e18L) return std::nullopt;  // digits past long double's 19
  const long double error = scaled * rel_error * 8 + 1e-9L;
  const long double fraction = scaled - std::floor(scaled);
  if (std::fabs(fraction - 0.5L) <= error || fraction <= error || fraction >= 1 - error) return std::nullopt;
  return at_scale(v, scale);
}

// The number of decimal digits of |v| (1 for 0).
int digit_count(const cpp_int& v) {
  return static_cast<int>(abs_of(v).str().size());
}

Math numeric_exp(const Decimal& x) {
  const long double lx = to_long_double(x);
  const double val = std::clamp(static_cast<double>(lx) * 0.434294481903252, -2000.0, 2000.0);
  if (val > 131072.0 || !std::isfinite(static_cast<double>(lx))) return failed("value overflows numeric format");
  const int rscale = clamp_scale(16 - static_cast<int>(val), {x.scale});
  // exp_var's guard: from |x| = 6000 (NUMERIC_MAX_RESULT_SCALE * 3) on, an overflow, or 0 at rscale (exp(6000.5)
  // printed 2 600 digits, exp(1e15) ran past every deadline holding its connection; outside tester s21b).
  if (std::fabs(lx) >= 6000.0L) {
    if (lx > 0) return failed("value overflows numeric format");
    return {Decimal{0, rscale}};
  }
  if (auto quick = certain(std::exp(lx), (2 + std::fabs(lx)) * 1e-19L, rscale)) return {*quick};
  // Places enough for the result's integer digits (its relative precision), its scale, and the squarings' growth.
  const int p =
      rscale + kGuard + std::max(0, static_cast<int>(std::ceil(val))) + std::max(0, digit_count(x.value) - x.scale);
  return {cut(Decimal{fixed_exp(fixed(x, p), p), p}, rscale, false)};
}

// ln(num) (base: none) or log(base, num).
Math numeric_log(const Decimal* base, const Decimal& num) {
  for (const Decimal* d : {base, &num}) {
    if (d == nullptr) continue;
    if (d->value == 0) return failed("cannot take logarithm of zero");
    if (d->value < 0) return failed("cannot take logarithm of a negative number");
  }
  // Fixed point places: the scale, guard digits, and as many again as the values' own decimals reach below 1
  // (ln(1e-300) needs the 300 to read the value).
  const auto places = [&](int rscale) {
    int p = rscale + kGuard;
    for (const Decimal* d : {base, &num})
      if (d != nullptr) p = std::max(p, d->scale + kGuard);
    return p;
  };
  const long double ln_num = std::log(to_long_double(num));
  if (base == nullptr) {
    const int rscale = clamp_scale(16 - ln_dweight(num), {num.scale});
    // (an absolute error of ln's input's rounding, relative to a result near 0 as ln(1.0006) is: bounded by 1e-19)
    if (auto quick = certain(ln_num, 4e-19L / std::max(std::fabs(ln_num), 1e-300L) + 1e-19L, rscale)) return {*quick};
    const int p = places(rscale);
    return {cut(Decimal{fixed_ln(fixed(num, p), p), p}, rscale, false)};
  }
  const int rscale = clamp_scale(16 - (ln_dweight(num) - ln_dweight(*base)), {base->scale, num.scale});
  const long double ln_base_quick = std::log(to_long_double(*base));
  if (ln_base_quick != 0 && std::fabs(ln_num) > 1e-3L && std::fabs(ln_base_quick) > 1e-3L)
    if (auto quick = certain(ln_num / ln_base_quick, 1e-17L, rscale)) return {*quick};
  const int p = places(rscale);
  const cpp_int ln_base = fixed_ln(fixed(*base, p), p);
  if (ln_base == 0) return failed("division by zero");
  return {cut(Decimal{fixed_ln(fixed(num, p), p) * pow10(p) / ln_base, p}, rscale, false)};
}

Math numeric_power(const Decimal& base, const Decimal& exponent) {
  const long double le = to_long_double(exponent);
  if (base.value == 0) {
    if (exponent.value < 0) return failed("zero raised to a negative power is undefined");
    return {Decimal{exponent.value == 0 ? 1 : 0, 0}};
  }
  if (exponent.value % pow10(exponent.scale) == 0 && std::fabs(le) <= 2147483647.0L) {
    // The result's decimal weight from the first two base-10000 digits of the base: past numeric's range, its error.
    const auto [digits, p] = leading(base);
    const double f = static_cast<double>(le) * (std::log10(digits) + p);
    if (f > 131072.0 || f < -16383.0) return failed("value overflows numeric format");
    // numeric_power's scale for an integer exponent: 16 places, or the base's (8.0000000000000000 for
    // power(2.0, 3)); the power of the decimal exact, rounded there (power_var_int's correctly rounded digits).
    const int rscale = clamp_scale(16, {base.scale});
    const auto n = static_cast<long long>(le);
    const long long magnitude = n < 0 ? -n : n;
    if (static_cast<double>(magnitude) * digit_count(base.value) > 20000.0) {
      // Too many digits to keep them all: in fixed point, squaring and multiplying with guard digits past the
      // result's integer digits and rscale (a long double had lost them: power(1.0001, 10000) ended ...261 for
      // PostgreSQL's ...249; outside tester s19d). A result of more than 5 000 integer digits is refused.
      if (f > 5000.0) return failed("value overflows numeric format");
      const int places = rscale + (f > 0 ? static_cast<int>(f) + 1 : 0) + 40;
      const cpp_int one = pow10(places);
      cpp_int b = abs_of(base.value) * pow10(places) / pow10(base.scale), r = one;
      for (long long k = magnitude; k > 0; k >>= 1) {
        if (k & 1) r = r * b / one;
        if (k > 1) b = b * b / one;
      }
      const bool negative = base.value < 0 && (magnitude & 1);
      if (n < 0) {
        if (r == 0) return failed("division by zero");
        r = one * one / r;
      }
      return {cut(Decimal{negative ? cpp_int(-r) : r, places}, rscale, false)};
    }
    const Decimal r{boost::multiprecision::pow(base.value, static_cast<unsigned>(magnitude)),
                    static_cast<int>(base.scale * magnitude)};
    if (n >= 0) return {cut(r, rscale, false)};
    // 1 / base^|n|, rounded at rscale: one digit past it, then half away from zero.
    const cpp_int q = pow10(rscale + 1 + r.scale) / r.value;
    const cpp_int a = abs_of(q);
    const cpp_int rounded = a / 10 + (a % 10 >= 5 ? 1 : 0);
    return {Decimal{q < 0 ? cpp_int(-rounded) : rounded, rscale}};
  }
  if (base.value < 0) return failed("a negative number raised to a non-integer power yields a complex result");
  const long double ln_num = std::log(to_long_double(base)) * le;
  const double val = static_cast<double>(ln_num) * 0.434294481903252;
  if (val > 131072 || val < -16383) return failed("value overflows numeric format");
  const int rscale = clamp_scale(16 - static_cast<int>(val), {base.scale, exponent.scale});
  if (auto quick = certain(std::exp(ln_num), (4 + std::fabs(ln_num)) * 2e-19L, rscale)) return {*quick};
  // exp(y * ln(x)) in fixed point: ln(x) at places enough for y times it to keep the result's digits.
  const int p = rscale + kGuard + std::max(0, static_cast<int>(std::ceil(std::fabs(val)))) +
                std::max(0, digit_count(exponent.value) - exponent.scale) + std::max(base.scale, 0);
  const cpp_int product = fixed_ln(fixed(base, p), p) * exponent.value / pow10(exponent.scale);
  return {cut(Decimal{fixed_exp(product, p), p}, rscale, false)};
}

// name(x[, y]); `places`: round's and trunc's count of decimal places (0 without one).
Math numeric_function(std::string_view name, const Decimal& x, const std::optional<Decimal>& y, std::int64_t places) {
  const bool one = !y;
  if (name == "sqrt" && one) return numeric_sqrt(x);
  if (name == "exp" && one) return numeric_exp(x);
  if (name == "ln" && one) return numeric_log(nullptr, x);
  if (name == "log") {
    const Decimal ten{10, 0};
    return one ? numeric_log(&ten, x) : numeric_log(&x, *y);
  }
  if (name == "power" && !one) return numeric_power(x, *y);
  if ((name == "floor" || name == "ceil") && one) return {whole(x, name == "ceil")};
  if (name == "round" || name == "trunc")  // NUMERIC_MAX_RESULT_SCALE bounds the places, as in numeric.c
    return {cut(x, static_cast<int>(std::clamp<std::int64_t>(places, -2000, 2000)), name == "trunc")};
  if (name == "abs" && one) return {Decimal{x.value < 0 ? cpp_int(-x.value) : x.value, x.scale}};
  if (name == "sign" && one) return {Decimal{x.value < 0 ? -1 : x.value > 0 ? 1 : 0, 0}};
  return failed("querygate: pg_numeric_math: unknown function");
}

// pg_numeric_math(name, x[, y]): PostgreSQL's numeric sqrt(x), exp(x), ln(x), log(x) (base 10), log(b, x),
// power(x, y), floor(x), ceil(x), round(x[, n]), trunc(x[, n]), abs(x), sign(x), with its errors. A name ending in
// ":t" answers the decimal's text (the operand of another exact computation), else the double nearest it.
void pg_numeric_math(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  for (int i = 1; i < argc; ++i)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto* name_text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  std::string_view name = name_text ? name_text : "";
  const bool as_text = name.ends_with(":t");
  if (as_text) name.remove_suffix(2);
  const bool places = argc > 2 && (name == "round" || name == "trunc");
  std::optional<Decimal> x = of_value(argv[1], false), y;
  if (argc > 2 && !places) y = of_value(argv[2], false);
  if (!x || (argc > 2 && !places && !y))
    return sqlite3_result_error(
        ctx, "querygate: invalid input syntax for type numeric (an argument that is not a number)", -1);
  const Math out = numeric_function(name, *x, y, places ? sqlite3_value_int64(argv[2]) : 0);
  if (out.value) return answer(ctx, *out.value, as_text);
  sqlite3_result_error(ctx, out.error ? out.error : "value overflows numeric format", -1);
}

// A decimal's text as sign, integer digits without leading zeros and fraction digits without trailing zeros; false:
// not a plain decimal ("1e5", "abc").
bool plain_parts(std::string_view t, bool& negative, std::string_view& whole, std::string_view& fraction) {
  negative = !t.empty() && t.front() == '-';
  if (negative || (!t.empty() && t.front() == '+')) t.remove_prefix(1);
  const auto point = t.find('.');
  whole = t.substr(0, point);
  fraction = point == std::string_view::npos ? std::string_view{} : t.substr(point + 1);
  if (whole.empty() && fraction.empty()) return false;
  for (std::string_view part : {whole, fraction})
    if (part.find_first_not_of("0123456789") != std::string_view::npos) return false;
  while (!whole.empty() && whole.front() == '0') whole.remove_prefix(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (whole.empty() && fraction.empty()) negative = false;  // -0.00 is 0
  return true;
}

int sign_of(int c) {
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// pg_numeric_decimal(x, from[, scale]): x's numeric value as its decimal text, for a column whose values SQLite
// compares under the pg_numeric collation (an exact numeric held as text: admission/admit/numeric_scale_on_sqlite.cpp
// makes every value of such a column text, since SQLite sorts any number before any text). A text passes as it is (an
// exact call's digits); a number is read as pg_numeric_div reads its operand (`from`: 'f' for a float8 cast to
// numeric) and printed at `scale` where the column's scale is known (2.5 of a numeric(5,2) is 2.50). NULL in, NULL out.
void pg_numeric_decimal(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const int type = sqlite3_value_type(argv[0]);
  if (type == SQLITE_NULL) return sqlite3_result_null(ctx);
  if (type == SQLITE_TEXT) {
    const auto* t = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
    const std::string written = t ? std::string(t, static_cast<std::size_t>(sqlite3_value_bytes(argv[0]))) : "";
    bool negative = false;
    std::string_view whole, fraction;
    if (!written.starts_with('+') && plain_parts(written, negative, whole, fraction))
      return sqlite3_result_value(ctx, argv[0]);  // the common case, without parsing the digits
    const auto d = parse(written);
    if (!d) return sqlite3_result_error(ctx, "querygate: invalid input syntax for type numeric", -1);
    if (written.find_first_of("eE") == std::string::npos) return sqlite3_result_value(ctx, argv[0]);
    const std::string plain = text(*d);  // 1e15 as PostgreSQL prints the numeric: 1000000000000000
    return sqlite3_result_text(ctx, plain.c_str(), static_cast<int>(plain.size()), SQLITE_TRANSIENT);
  }
  const auto* from = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  auto x = of_value(argv[0], from && from[0] == 'f');
  if (!x) return sqlite3_result_error(ctx, kPastExact, -1);
  if (argc > 2 && sqlite3_value_type(argv[2]) == SQLITE_INTEGER) {
    const auto scale = sqlite3_value_int64(argv[2]);
    if (scale >= 0 && scale <= 1000) *x = cut(*x, static_cast<int>(scale), false);
  }
  const std::string t = text(*x);
  sqlite3_result_text(ctx, t.c_str(), static_cast<int>(t.size()), SQLITE_TRANSIENT);
}

// pg_numeric_collate(x): x. Admission prints x COLLATE pg_numeric for it; written as a call, it is x itself.
void pg_numeric_collate(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  sqlite3_result_value(ctx, argv[0]);
}

// The pg_numeric collation: two texts compared as the numerics they write (1.0 = 1, 9 < 10, 0.66666666666666666666 <
// 0.66666666666666666667), so that DISTINCT, GROUP BY, UNION / INTERSECT / EXCEPT, ORDER BY, min / max and a
// window's keys treat an exact numeric SQLite holds as text as PostgreSQL treats the numeric. A text that is no
// number sorts after every number, by its bytes.
int numeric_collation(void* /*unused*/, int na, const void* a, int nb, const void* b) {
  return compare_decimal_texts(std::string_view(static_cast<const char*>(a), static_cast<std::size_t>(na)),
                               std::string_view(static_cast<const char*>(b), static_cast<std::size_t>(nb)));
}

// pg_numeric_greatest(a, b, ..., mode) / pg_numeric_least: PostgreSQL's GREATEST / LEAST of numerics with an exact
// argument (a decimal text): compared on the decimals (SQLite's pg_greatest compared the doubles and printed
// 0.6666666666666666 for greatest(2.0 / 3, 0.1); outside tester s15), NULLs skipped. mode 'numeric', ':t' for the
// chosen value's text (an exact call: numeric_scale_on_sqlite.cpp), else the double nearest it.
template <bool Greatest>
void pg_numeric_extreme(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 2) return sqlite3_result_error(ctx, "querygate: pg_numeric_greatest / least take values and a mode", -1);
  const auto* mode = reinterpret_cast<const char*>(sqlite3_value_text(argv[argc - 1]));
  const bool as_text = mode && std::string_view(mode).find(":t") != std::string_view::npos;
  std::optional<Decimal> best;
  for (int i = 0; i + 1 < argc; ++i) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) continue;
    auto x = of_value(argv[i], false);
    if (!x) return sqlite3_result_error(ctx, "querygate: invalid input syntax for type numeric (GREATEST / LEAST)", -1);
    if (best && (Greatest ? compare(*x, *best) <= 0 : compare(*x, *best) >= 0)) continue;
    best = std::move(x);
  }
  if (!best) return sqlite3_result_null(ctx);
  answer(ctx, *best, as_text);
}

}  // namespace

int compare_decimal_texts(std::string_view x, std::string_view y) {
  bool xn = false, yn = false;
  std::string_view xw, xf, yw, yf;
  if (plain_parts(x, xn, xw, xf) && plain_parts(y, yn, yw, yf)) {
    if (xn != yn) return xn ? -1 : 1;
    int c = xw.size() != yw.size() ? (xw.size() < yw.size() ? -1 : 1) : sign_of(xw.compare(yw));
    if (c == 0) c = sign_of(xf.compare(yf));
    return xn ? -c : c;
  }
  const auto dx = parse(std::string(x)), dy = parse(std::string(y));
  if (!dx || !dy) return dx ? -1 : dy ? 1 : sign_of(x.compare(y));
  return compare(*dx, *dy);
}

bool register_decimal_functions(sqlite3* db, int flags) {
  struct Scalar {
    const char* name;
    int argc;  // -1: any number
    void (*call)(sqlite3_context*, int, sqlite3_value**);
  };
  static constexpr Scalar kScalars[] = {
      {"pg_numeric_div", 3, pg_numeric_div},
      {"pg_numeric_arith", 4, pg_numeric_arith},
      {"pg_numeric_math", 2, pg_numeric_math},
      {"pg_numeric_math", 3, pg_numeric_math},
      {"pg_numeric_cmp", 3, pg_numeric_cmp},
      {"pg_numeric_key", 2, pg_numeric_key},
      {"pg_numeric_decimal", 2, pg_numeric_decimal},
      {"pg_numeric_decimal", 3, pg_numeric_decimal},
      {"pg_numeric_collate", 1, pg_numeric_collate},
      {"pg_numeric_greatest", -1, pg_numeric_extreme<true>},
      {"pg_numeric_least", -1, pg_numeric_extreme<false>},
  };
  for (const Scalar& f : kScalars)
    if (sqlite3_create_function(db, f.name, f.argc, flags, nullptr, f.call, nullptr, nullptr) != SQLITE_OK)
      return false;
  return sqlite3_create_collation_v2(db, "pg_numeric", SQLITE_UTF8, nullptr, numeric_collation, nullptr) == SQLITE_OK;
}

}  // namespace qg::exec::sqlite::decimal
