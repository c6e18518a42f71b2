// PostgreSQL's aggregates SQLite lacks, registered on every SQLite connection
// (issue #12). Admission translates the PostgreSQL calls into calls of these
// (admission/admit/aggregates_on_sqlite.cpp, reported as dialect:<name>):
//   pg_var_samp / pg_var_pop / pg_stddev_samp / pg_stddev_pop (x)   float8 input:
//       PostgreSQL's Youngs-Cramer accumulation (float.c, float8_accum);
//   pg_var_samp_exact ... (x[, from])   integer or numeric input: PostgreSQL answers numeric,
//       computed exactly from N, sum(x), sum(x*x) with numeric.c's scale rules
//       (numeric_stddev_internal, select_div_scale), returned as the decimal text;
//   pg_covar_pop, pg_covar_samp, pg_corr, pg_regr_* (y, x)   float8_regr_accum;
//   pg_string_agg(value, delimiter, spec, key...)   ORDER BY keys and DISTINCT
//       done here (SQLite 3.40 has neither inside an aggregate);
//   pg_array_agg(value, spec, key...)   array_agg, its ORDER BY and DISTINCT, as a JSON array text
//       (sqlite_arrays.hpp; NULL elements kept, as PostgreSQL keeps them);
//   pg_percentile_cont(p, x, desc), pg_percentile_disc(p, x, desc), pg_mode(x, desc);
//   pg_numeric_sum(x, from), pg_numeric_avg(x, from)   sum / avg of a numeric of unknown scale, exactly;
//   pg_numeric_max(x, from), pg_numeric_min(x, from)   max / min of exact numerics, on their decimals.
// NULL inputs are skipped as PostgreSQL skips them (but by array_agg); no input is NULL (regr_count: 0).
#include <sqlite3.h>

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "executors/sqlite/sqlite_arrays.hpp"
#include "executors/sqlite/sqlite_decimals.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

using boost::multiprecision::cpp_int;

// The state of one group lives behind a pointer in SQLite's aggregate context.
template <typename S>
S* state(sqlite3_context* ctx, bool create) {
  auto** slot = static_cast<S**>(sqlite3_aggregate_context(ctx, create ? sizeof(S*) : 0));
  if (!slot) return nullptr;
  if (!*slot && create) *slot = new (std::nothrow) S();
  return *slot;
}

template <typename S>
void release(sqlite3_context* ctx) {
  auto** slot = static_cast<S**>(sqlite3_aggregate_context(ctx, 0));
  if (slot && *slot) {
    delete *slot;
    *slot = nullptr;
  }
}

bool number_class(sqlite3_value* v) {
  const int t = sqlite3_value_type(v);
  return t == SQLITE_INTEGER || t == SQLITE_FLOAT;
}

constexpr const char* kOverflow = "value out of range: overflow";

// ---- float8 statistics: float8_accum / float8_regr_accum (PostgreSQL 12+)

struct Moments {
  double n = 0, sx = 0, sxx = 0, sy = 0, syy = 0, sxy = 0;
  bool failed = false;
};

enum class Stat { VarSamp, VarPop, StddevSamp, StddevPop };
enum class Regr { CovarPop, CovarSamp, Corr, Slope, Intercept, R2, Count, AvgX, AvgY, Sxx, Syy, Sxy };

void float_step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  auto* m = state<Moments>(ctx, true);
  if (!m) return sqlite3_result_error_nomem(ctx);
  if (!number_class(argv[0])) {
    m->failed = true;
    return sqlite3_result_error(ctx, "invalid input syntax for type double precision", -1);
  }
  const double x = sqlite3_value_double(argv[0]);
  const double old_n = m->n;
  m->n += 1.0;
  const double old_sx = m->sx;
  m->sx += x;
  if (old_n > 0.0) {
    const double tmp = x * m->n - m->sx;
    m->sxx += tmp * tmp / (m->n * old_n);
    if (std::isinf(m->sx) || std::isinf(m->sxx)) {
      if (!std::isinf(old_sx) && !std::isinf(x)) {
        m->failed = true;
        return sqlite3_result_error(ctx, kOverflow, -1);
      }
      m->sxx = std::numeric_limits<double>::quiet_NaN();
    }
  } else if (std::isnan(x) || std::isinf(x)) {
    m->sxx = std::numeric_limits<double>::quiet_NaN();
  }
}

void float_final(sqlite3_context* ctx) {
  const auto which = *static_cast<const Stat*>(sqlite3_user_data(ctx));
  const auto* m = state<Moments>(ctx, false);
  if (!m || m->failed) {
    release<Moments>(ctx);
    return sqlite3_result_null(ctx);
  }
  const bool sample = which == Stat::VarSamp || which == Stat::StddevSamp;
  if (m->n == 0.0 || (sample && m->n <= 1.0)) {
    release<Moments>(ctx);
    return sqlite3_result_null(ctx);
  }
  const double var = m->sxx / (sample ? m->n - 1.0 : m->n);
  release<Moments>(ctx);
  sqlite3_result_double(ctx, which == Stat::StddevSamp || which == Stat::StddevPop ? std::sqrt(var) : var);
}

void regr_step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  // regr_*(Y, X): a row counts only when both are present.
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  auto* m = state<Moments>(ctx, true);
  if (!m) return sqlite3_result_error_nomem(ctx);
  if (!number_class(argv[0]) || !number_class(argv[1])) {
    m->failed = true;
    return sqlite3_result_error(ctx, "invalid input syntax for type double precision", -1);
  }
  const double y = sqlite3_value_double(argv[0]);
  const double x = sqlite3_value_double(argv[1]);
  const double old_n = m->n, old_sx = m->sx, old_sy = m->sy;
  m->n += 1.0;
  m->sx += x;
  m->sy += y;
  if (old_n > 0.0) {
    const double tx = x * m->n - m->sx;
    const double ty = y * m->n - m->sy;
    const double scale = 1.0 / (m->n * old_n);
    m->sxx += tx * tx * scale;
    m->syy += ty * ty * scale;
    m->sxy += tx * ty * scale;
    if (std::isinf(m->sx) || std::isinf(m->sxx) || std::isinf(m->sy) || std::isinf(m->syy) || std::isinf(m->sxy)) {
      if ((std::isinf(m->sx) && !std::isinf(old_sx) && !std::isinf(x)) ||
          (std::isinf(m->sy) && !std::isinf(old_sy) && !std::isinf(y)) ||
          (std::isinf(m->sxx) && !std::isinf(old_sx) && !std::isinf(x)) ||
          (std::isinf(m->syy) && !std::isinf(old_sy) && !std::isinf(y)) ||
          (std::isinf(m->sxy) && !std::isinf(old_sx) && !std::isinf(x) && !std::isinf(old_sy) && !std::isinf(y))) {
        m->failed = true;
        return sqlite3_result_error(ctx, kOverflow, -1);
      }
      if (std::isinf(m->sxx)) m->sxx = std::numeric_limits<double>::quiet_NaN();
      if (std::isinf(m->syy)) m->syy = std::numeric_limits<double>::quiet_NaN();
      if (std::isinf(m->sxy)) m->sxy = std::numeric_limits<double>::quiet_NaN();
    }
  } else {
    if (std::isnan(x) || std::isinf(x)) m->sxx = m->sxy = std::numeric_limits<double>::quiet_NaN();
    if (std::isnan(y) || std::isinf(y)) m->syy = m->sxy = std::numeric_limits<double>::quiet_NaN();
  }
}

void regr_final(sqlite3_context* ctx) {
  const auto which = *static_cast<const Regr*>(sqlite3_user_data(ctx));
  const Moments* found = state<Moments>(ctx, false);
  const Moments m = found ? *found : Moments{};
  release<Moments>(ctx);
  if (m.failed) return sqlite3_result_null(ctx);
  if (which == Regr::Count) return sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(m.n));
  if (m.n < 1.0) return sqlite3_result_null(ctx);
  switch (which) {
    case Regr::CovarPop:
      return sqlite3_result_double(ctx, m.sxy / m.n);
    case Regr::CovarSamp:
      if (m.n < 2.0) return sqlite3_result_null(ctx);
      return sqlite3_result_double(ctx, m.sxy / (m.n - 1.0));
    case Regr::Corr:
      if (m.sxx == 0 || m.syy == 0) return sqlite3_result_null(ctx);
      return sqlite3_result_double(ctx, m.sxy / std::sqrt(m.sxx * m.syy));
    case Regr::Slope:
      if (m.sxx == 0) return sqlite3_result_null(ctx);
      return sqlite3_result_double(ctx, m.sxy / m.sxx);
    case Regr::Intercept:
      if (m.sxx == 0) return sqlite3_result_null(ctx);
      return sqlite3_result_double(ctx, (m.sy - m.sx * m.sxy / m.sxx) / m.n);
    case Regr::R2:
      if (m.sxx == 0) return sqlite3_result_null(ctx);
      if (m.syy == 0) return sqlite3_result_double(ctx, 1.0);
      return sqlite3_result_double(ctx, (m.sxy * m.sxy) / (m.sxx * m.syy));
    case Regr::AvgX:
      return sqlite3_result_double(ctx, m.sx / m.n);
    case Regr::AvgY:
      return sqlite3_result_double(ctx, m.sy / m.n);
    case Regr::Sxx:
      return sqlite3_result_double(ctx, m.sxx);
    case Regr::Syy:
      return sqlite3_result_double(ctx, m.syy);
    case Regr::Sxy:
      return sqlite3_result_double(ctx, m.sxy);
    case Regr::Count:
      break;
  }
  sqlite3_result_null(ctx);
}

// ---- integer and numeric statistics: numeric, exactly as numeric_stddev_internal computes them
// pg_var_samp_exact(x, from) ...: from 'int': x an integer; 'numeric': the shortest decimal of a stored double or a
// decimal text; 'float8': float8 to numeric's 15 significant digits; 'numeric:S': at least scale S. A 't' after a
// colon answers the decimal's text, else the double nearest it (as pg_numeric_sum: an exact call, which comparisons
// read exactly; a text answer compared with numbers picked the wrong rows: HAVING stddev(x) > 100; outside tester
// s15). With one argument (x an integer) the text.

struct Sums {
  std::int64_t n = 0;
  cpp_int sx, sxx;  // times 10^scale, 10^(2 scale)
  int scale = 0;    // the largest scale of the values (the dscale of numeric.c's sumX)
  bool failed = false;
  bool text = true;
};

void int_step(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  auto* s = state<Sums>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  std::optional<decimal::Decimal> x;
  const auto* text = argc == 2 ? reinterpret_cast<const char*>(sqlite3_value_text(argv[1])) : nullptr;
  const std::string_view from = text ? text : "int:t";
  const auto colon = from.find(':');
  s->text = colon != std::string_view::npos && from.find('t', colon) != std::string_view::npos;
  if (from.starts_with("int")) {
    if (sqlite3_value_type(argv[0]) == SQLITE_INTEGER) x = decimal::Decimal{cpp_int(sqlite3_value_int64(argv[0])), 0};
  } else {
    x = decimal::of_value(argv[0], from.starts_with("float8"));
    // numeric:S: a numeric of a known scale (numeric(p, s), round(x, s)), each value held at it (1.5 of a numeric(4,
    // 2) is PostgreSQL's 1.50, and the scale of the sums is numeric.c's).
    if (x && colon != std::string_view::npos) {
      const int scale = std::atoi(std::string(from.substr(colon + 1)).c_str());
      if (scale > x->scale && scale <= 1000) {
        x->value *= decimal::pow10(scale - x->scale);
        x->scale = scale;
      }
    }
  }
  if (!x) {
    s->failed = true;
    return sqlite3_result_error(
        ctx,
        from.starts_with("int")
            ? "stddev/variance of integers: a value that is not an integer"
            : "querygate: stddev/variance of a numeric: a value that is not a number (or past 2^53)",
        -1);
  }
  if (x->scale > s->scale) {
    const int more = x->scale - s->scale;
    s->sx *= decimal::pow10(more);
    s->sxx *= decimal::pow10(2 * more);
    s->scale = x->scale;
  }
  const cpp_int v = x->value * decimal::pow10(s->scale - x->scale);
  ++s->n;
  s->sx += v;
  s->sxx += v * v;
}

// PostgreSQL's numeric variance / standard deviation of values with sum `sx` (times 10^scale), sum of squares `sxx`
// (times 10^(2 scale)), count `n`, as its text; empty when PostgreSQL answers NULL.
std::string pg_numeric_variance_text(std::int64_t n, const cpp_int& sx, const cpp_int& sxx, bool sample, bool stddev,
                                     int scale) {
  if (n == 0 || (sample && n <= 1)) return "";
  const cpp_int big_n = n;
  const cpp_int numerator = big_n * sxx - sx * sx;  // N * sumX2 - sumX * sumX, at scale 2 dscale(sumX)
  if (numerator <= 0) return "0";
  const cpp_int denominator = sample ? cpp_int(big_n * (big_n - 1)) : cpp_int(big_n * big_n);
  // numeric_div's scale and rounding (select_div_scale: 16 significant digits).
  const decimal::Decimal variance = decimal::divide({numerator, 2 * scale}, {denominator, 0});
  if (!stddev) return decimal::text(variance);
  // sqrt_var at the same rscale, of the rounded variance: round(sqrt(q / 10^r), r) = (isqrt(4 q 10^r) + 1) / 2.
  const cpp_int root =
      (boost::multiprecision::sqrt(cpp_int(4 * variance.value * decimal::pow10(variance.scale))) + 1) / 2;
  return decimal::text({root, variance.scale});
}

void int_final(sqlite3_context* ctx) {
  const auto which = *static_cast<const Stat*>(sqlite3_user_data(ctx));
  const Sums* s = state<Sums>(ctx, false);
  if (!s || s->failed) {
    release<Sums>(ctx);
    return sqlite3_result_null(ctx);
  }
  const std::string text =
      pg_numeric_variance_text(s->n, s->sx, s->sxx, which == Stat::VarSamp || which == Stat::StddevSamp,
                               which == Stat::StddevSamp || which == Stat::StddevPop, s->scale);
  const bool as_text = s->text;
  release<Sums>(ctx);
  if (text.empty()) return sqlite3_result_null(ctx);
  if (const auto d = decimal::parse(text)) return decimal::answer(ctx, *d, as_text);
  sqlite3_result_error(ctx, "querygate: stddev/variance: no decimal", -1);
}

// ---- numeric sum / avg: exact decimals, as numeric.c adds them
// pg_numeric_sum(x, from) / pg_numeric_avg(x, from): sum() and avg() of a numeric whose scale admission cannot
// know (x::numeric of a float8, a NUMERIC column SQLite holds as doubles). Each value is read as the decimal
// PostgreSQL's numeric holds (from = 'float8': float8 to numeric's 15 significant digits; 'numeric': the
// shortest decimal that reads back as the stored double, the text it was stored from) and added exactly; the
// answer is the double nearest the exact sum or mean (SQLite's sum() in doubles drifts: 67.85329300000005 for
// 67.853293000). A value that is not a number (text a NUMERIC column of SQLite kept: PostgreSQL could not hold
// it) makes the group SQLite's own sum / avg of doubles, as before these aggregates.

struct Decimals {
  cpp_int sum;    // the sum times 10^scale
  int scale = 0;  // the largest scale of the values so far (numeric.c's add_var keeps it)
  // How many values of each scale the group (or window frame) holds: a frame's scale is its values' largest, as
  // PostgreSQL's (do_numeric_discard restarts the frame when the last value of the largest scale leaves it; avg(x)
  // OVER (ROWS 1 PRECEDING) printed 31587.75000000000000000000 for 31587.750000000000: outside tester s14).
  std::map<int, std::int64_t> scales;
  std::int64_t n = 0;
  double doubles = 0;            // SQLite's own sum, for a group with a value that is not a number
  std::int64_t not_numbers = 0;  // such values in the group (a window frame drops them again)
  bool text = false;             // answer the exact decimal's text (from has ":t": the operand of pg_numeric_*)
  std::set<std::string> seen;    // sum(DISTINCT x) / avg(DISTINCT x) (flag 'u'): the values added, one text each
};

// Adds (sign 1) or removes (sign -1, a window frame's inverse) one value.
void numeric_add(sqlite3_context* ctx, sqlite3_value** argv, int sign) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  auto* s = state<Decimals>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  const auto* from_text = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  const std::string_view from = from_text ? from_text : "";
  // Flags after a colon: 't' answers the decimal's text, 'd' reads text values as decimals (the text answers of
  // exact numeric calls: sum(x / 3)), 'u' adds each value once (DISTINCT: 1.0 and 1 are one value).
  // Leading digits there: the values' scale, where admission knows it (extract(epoch ...) is numeric of scale 6).
  const auto colon = from.find(':');
  std::string_view flags = colon == std::string_view::npos ? "" : from.substr(colon + 1);
  int known_scale = -1;
  while (!flags.empty() && flags.front() >= '0' && flags.front() <= '9') {
    known_scale = std::max(known_scale, 0) * 10 + (flags.front() - '0');
    flags.remove_prefix(1);
  }
  s->text = flags.find('t') != std::string_view::npos;
  auto value = sqlite3_value_type(argv[0]) == SQLITE_TEXT && flags.find('d') == std::string_view::npos
                   ? std::nullopt
                   : decimal::of_value(argv[0], from.starts_with("float8"));
  if (value && known_scale > value->scale && known_scale <= 1000)
    *value = {value->value * decimal::pow10(known_scale - value->scale), known_scale};
  if (flags.find('u') != std::string_view::npos && sign > 0) {
    const auto* raw = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
    if (!s->seen.insert(value ? decimal::text(decimal::trimmed(*value)) : std::string("?") + (raw ? raw : "")).second)
      return;
  }
  s->n += sign;
  s->doubles += sign * sqlite3_value_double(argv[0]);
  if (!value) {
    s->not_numbers += sign;
    return;
  }
  if (value->scale > s->scale) {
    s->sum *= decimal::pow10(value->scale - s->scale);
    s->scale = value->scale;
  }
  s->sum += sign * value->value * decimal::pow10(s->scale - value->scale);
  if ((s->scales[value->scale] += sign) == 0) s->scales.erase(value->scale);
  const int largest = s->scales.empty() ? 0 : s->scales.rbegin()->first;
  if (largest < s->scale) {  // every value left has at most `largest` decimals: the sum divides exactly
    s->sum /= decimal::pow10(s->scale - largest);
    s->scale = largest;
  }
}

void numeric_step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  numeric_add(ctx, argv, 1);
}

void numeric_inverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  numeric_add(ctx, argv, -1);
}

// The sum or mean of the group (or window frame) so far, or NULL for none.
template <bool Mean>
void numeric_value(sqlite3_context* ctx) {
  const Decimals* s = state<Decimals>(ctx, false);
  if (!s || s->n == 0) return sqlite3_result_null(ctx);
  if (s->not_numbers > 0) return sqlite3_result_double(ctx, Mean ? s->doubles / static_cast<double>(s->n) : s->doubles);
  const decimal::Decimal sum{s->sum, s->scale};
  // numeric_avg: sum / count with numeric_div's scale and rounding; then the double nearest it (or its text).
  decimal::answer(ctx, Mean ? decimal::divide(sum, {s->n, 0}) : sum, s->text);
}

template <bool Mean>
void numeric_final(sqlite3_context* ctx) {
  numeric_value<Mean>(ctx);
  release<Decimals>(ctx);
}

// ---- max / min of exact numerics
// pg_numeric_max(x, from) / pg_numeric_min(x, from): max() and min() of an exact numeric (the decimal text of
// x / 3.0, avg(...), a derived table's exact column; admission/admit/numeric_scale_on_sqlite.cpp), compared on the
// decimals; the answer is the value PostgreSQL's max keeps (its scale too), as the double nearest it or (from has
// ":t") its text. SQLite's max of the texts compared text, and of the doubles lost the digits that tell
// 0.99999999999999999999 from 1 ("which one is the largest" found no row; outside tester s15). Window functions too.

struct DecimalLess {
  bool operator()(const decimal::Decimal& a, const decimal::Decimal& b) const { return decimal::compare(a, b) < 0; }
};

struct Extremes {
  std::multiset<decimal::Decimal, DecimalLess> values;  // the group's (or window frame's)
  bool text = false;
};

void extreme_add(sqlite3_context* ctx, sqlite3_value** argv, bool add) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  auto* s = state<Extremes>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  const auto* from = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  const std::string_view f = from ? from : "";
  s->text = f.find(":t") != std::string_view::npos;
  const auto value = decimal::of_value(argv[0], f.starts_with("float8"));
  if (!value)
    return sqlite3_result_error(ctx, "querygate: max/min of a numeric: a value that is not a number (or past 2^53)",
                                -1);
  if (add) {
    s->values.insert(*value);
  } else if (const auto it = s->values.find(*value); it != s->values.end()) {
    s->values.erase(it);
  }
}

void extreme_step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  extreme_add(ctx, argv, true);
}

void extreme_inverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  extreme_add(ctx, argv, false);
}

template <bool Max>
void extreme_value(sqlite3_context* ctx) {
  const Extremes* s = state<Extremes>(ctx, false);
  if (!s || s->values.empty()) return sqlite3_result_null(ctx);
  decimal::answer(ctx, Max ? *s->values.rbegin() : *s->values.begin(), s->text);
}

template <bool Max>
void extreme_final(sqlite3_context* ctx) {
  extreme_value<Max>(ctx);
  release<Extremes>(ctx);
}

// ---- sum / avg of double precision over a moving window frame
// pg_float_sum(x) / pg_float_avg(x) OVER (... ROWS BETWEEN 1 PRECEDING AND CURRENT ROW): PostgreSQL adds each frame's
// values afresh, in frame order (float8 sums have no inverse transition); SQLite's sum() subtracts the rows that
// leave the frame, and a double does not come back: (1e20, 1, 1) summed 1 for 2, (0.1, 0.2) -0.7 for 0.3 (outside
// tester s13). The frame's values are kept in order (SQLite removes the oldest first); the sum is the running one
// until a value leaves, then the frame's values added again.
struct FloatFrame {
  std::deque<std::optional<double>> values;  // NULLs too: xInverse is called for every row that leaves
  double running = 0;
  std::int64_t n = 0;
  bool removed = false;
};

void float_frame_step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* s = state<FloatFrame>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    s->values.emplace_back();
    return;
  }
  const double v = sqlite3_value_double(argv[0]);
  s->values.emplace_back(v);
  s->running += v;
  ++s->n;
}

void float_frame_inverse(sqlite3_context* ctx, int, sqlite3_value**) {
  auto* s = state<FloatFrame>(ctx, true);
  if (!s || s->values.empty()) return;
  if (s->values.front()) {
    --s->n;
    s->removed = true;
  }
  s->values.pop_front();
}

template <bool Mean>
void float_frame_value(sqlite3_context* ctx) {
  const FloatFrame* s = state<FloatFrame>(ctx, false);
  if (!s || s->n == 0) return sqlite3_result_null(ctx);
  double sum = s->running;
  if (s->removed) {
    sum = 0;
    for (const auto& v : s->values)
      if (v) sum += *v;
  }
  const auto infinite = [](const std::optional<double>& v) { return v && std::isinf(*v); };
  if (std::isinf(sum) && std::none_of(s->values.begin(), s->values.end(), infinite))
    return sqlite3_result_error(ctx, "value out of range: overflow", -1);  // float8pl's check
  sqlite3_result_double(ctx, Mean ? sum / static_cast<double>(s->n) : sum);
}

template <bool Mean>
void float_frame_final(sqlite3_context* ctx) {
  float_frame_value<Mean>(ctx);
  release<FloatFrame>(ctx);
}

// ---- sorted aggregates: values compared as PostgreSQL compares one type's values
// (numbers by value, text by its bytes: the test cluster's collation is C.UTF-8, code-point order)

struct Val {
  int type = SQLITE_NULL;
  std::int64_t i = 0;
  double d = 0;
  std::string s;  // text or blob bytes
};

Val read(sqlite3_value* v) {
  Val out;
  out.type = sqlite3_value_type(v);
  switch (out.type) {
    case SQLITE_INTEGER:
      out.i = sqlite3_value_int64(v);
      break;
    case SQLITE_FLOAT:
      out.d = sqlite3_value_double(v);
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(out.type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(v))
                                                                       : sqlite3_value_blob(v));
      out.s.assign(p ? p : "", static_cast<std::size_t>(sqlite3_value_bytes(v)));
      break;
    }
    default:
      break;
  }
  return out;
}

int rank(const Val& v) {
  switch (v.type) {
    case SQLITE_NULL:
      return 0;
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      return 1;
    case SQLITE_TEXT:
      return 2;
    default:
      return 3;
  }
}

// <0, 0, >0; NULLs are placed by the caller.
int compare(const Val& a, const Val& b) {
  if (rank(a) != rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (rank(a) == 1) {
    if (a.type == SQLITE_INTEGER && b.type == SQLITE_INTEGER) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    const long double x = a.type == SQLITE_INTEGER ? static_cast<long double>(a.i) : a.d;
    const long double y = b.type == SQLITE_INTEGER ? static_cast<long double>(b.i) : b.d;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const int c = std::memcmp(a.s.data(), b.s.data(), std::min(a.s.size(), b.s.size()));
  if (c != 0) return c < 0 ? -1 : 1;
  return a.s.size() < b.s.size() ? -1 : a.s.size() > b.s.size() ? 1 : 0;
}

void result_val(sqlite3_context* ctx, const Val& v) {
  switch (v.type) {
    case SQLITE_INTEGER:
      return sqlite3_result_int64(ctx, v.i);
    case SQLITE_FLOAT:
      return sqlite3_result_double(ctx, v.d);
    case SQLITE_TEXT:
      return sqlite3_result_text(ctx, v.s.data(), static_cast<int>(v.s.size()), SQLITE_TRANSIENT);
    case SQLITE_BLOB:
      return sqlite3_result_blob(ctx, v.s.data(), static_cast<int>(v.s.size()), SQLITE_TRANSIENT);
    default:
      return sqlite3_result_null(ctx);
  }
}

// The bytes a row-keeping aggregate holds, bounded before the process grows (a string_agg over a 9-million-row cross
// join took the SQLite gateway to 1.4 GB, 2.9 GB with six at once; outside tester s20d). string_agg / array_agg: what
// SQLite lets one value be (SQLITE_LIMIT_LENGTH, the connection's max_value_bytes; their result would be longer), past
// it "string or blob too big" as SQLite's own group_concat (limit:row-too-large). The ordered-set aggregates, whose
// answer is one value: an eighth of SQLite's heap limit (limits.max_sqlite_heap_bytes; these hold their values
// outside it, and a vector's growth about triples that at its peak), past it SQLite's out-of-memory error
// (limit:memory, with its FIX). false with that error set.
enum class Bound : std::uint8_t { ValueLength, Heap };

bool hold(sqlite3_context* ctx, std::size_t& held, std::size_t more, Bound bound) {
  held += more;
  const std::int64_t heap = sqlite3_hard_heap_limit64(-1);
  const std::int64_t limit = bound == Bound::ValueLength
                                 ? sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1)
                                 : (heap > 0 ? heap / 8 : std::int64_t{64} << 20);
  if (held <= static_cast<std::size_t>(std::max<std::int64_t>(limit, 0))) return true;
  if (bound == Bound::ValueLength) {
    sqlite3_result_error_toobig(ctx);
  } else {
    sqlite3_result_error_nomem(ctx);
  }
  return false;
}

std::size_t bytes_of(const std::vector<Val>& keys) {
  std::size_t n = 0;
  for (const auto& k : keys) n += sizeof(Val) + k.s.size();
  return n;
}

struct SortKey {
  bool desc = false;
  bool nulls_first = false;
  bool numeric = false;  // an exact numeric's decimal text (direction letter upper case), compared as a numeric
};

// A key's value as a decimal text (a number: its shortest decimal).
std::string decimal_text(const Val& v) {
  if (v.type == SQLITE_INTEGER) return std::to_string(v.i);
  if (v.type == SQLITE_FLOAT) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v.d);
    return r.ec == std::errc() ? std::string(buf, r.ptr) : std::string();
  }
  return v.s;
}

// Compares two rows' keys by the ORDER BY: direction and NULLS FIRST/LAST per key.
int compare_keys(const std::vector<Val>& a, const std::vector<Val>& b, const std::vector<SortKey>& spec) {
  for (std::size_t k = 0; k < spec.size() && k < a.size() && k < b.size(); ++k) {
    const bool an = a[k].type == SQLITE_NULL, bn = b[k].type == SQLITE_NULL;
    if (an || bn) {
      if (an && bn) continue;
      return an == spec[k].nulls_first ? -1 : 1;
    }
    const int c =
        spec[k].numeric ? decimal::compare_decimal_texts(decimal_text(a[k]), decimal_text(b[k])) : compare(a[k], b[k]);
    if (c != 0) return spec[k].desc ? -c : c;
  }
  return 0;
}

// A sort specification (pg_string_agg, pg_array_agg): 'D' (DISTINCT) or '-', then two letters per sort key:
// a|d (direction), f|l (NULLS FIRST/LAST). False when it is not that, for `sorted` keys.
bool sort_spec(std::string_view spec, std::size_t sorted, std::vector<SortKey>& out) {
  if (spec.size() != 1 + 2 * sorted || (spec[0] != 'D' && spec[0] != '-')) return false;
  for (std::size_t k = 0; k < sorted; ++k) {
    const char direction = spec[1 + 2 * k];
    out.push_back(
        SortKey{direction == 'd' || direction == 'D', spec[2 + 2 * k] == 'f', direction == 'A' || direction == 'D'});
  }
  return true;
}

struct StringAgg {
  struct Row {
    std::string value;
    std::string delimiter;
    bool has_delimiter = false;
    std::vector<Val> keys;
  };
  std::vector<Row> rows;
  std::set<std::pair<std::string, std::string>> seen;  // DISTINCT: (delimiter, value) kept once as they arrive
  std::size_t held = 0;
  std::vector<SortKey> spec;
  bool distinct = false;
  bool bad_spec = false;
  bool parsed = false;
};

// spec: 'D' (DISTINCT) or '-', then two letters per ORDER BY key: a|d (direction), f|l (NULLS FIRST/LAST).
void string_agg_step(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 3) return sqlite3_result_error(ctx, "pg_string_agg(value, delimiter, spec, key...)", -1);
  auto* s = state<StringAgg>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  if (!s->parsed) {
    s->parsed = true;
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[2]));
    const std::string spec = text ? text : "";
    s->distinct = !spec.empty() && spec[0] == 'D';
    s->bad_spec = !sort_spec(spec, static_cast<std::size_t>(argc - 3), s->spec);
  }
  if (s->bad_spec) return sqlite3_result_error(ctx, "pg_string_agg: malformed sort specification", -1);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;  // NULL values are skipped, their delimiters too
  StringAgg::Row row;
  const auto* v = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  row.value.assign(v ? v : "", static_cast<std::size_t>(sqlite3_value_bytes(argv[0])));
  if (sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    const auto* d = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    row.delimiter.assign(d ? d : "", static_cast<std::size_t>(sqlite3_value_bytes(argv[1])));
    row.has_delimiter = true;
  }
  for (int k = 3; k < argc; ++k) row.keys.push_back(read(argv[k]));
  if (s->distinct &&
      !s->seen.emplace((row.has_delimiter ? "d" : "-") + row.delimiter, row.value).second)  // (keys: none then)
    return;
  if (!hold(ctx, s->held, row.value.size() * (s->distinct ? 2 : 1) + row.delimiter.size() + bytes_of(row.keys),
            Bound::ValueLength))
    return;
  s->rows.push_back(std::move(row));
}

void string_agg_final(sqlite3_context* ctx) {
  auto* s = state<StringAgg>(ctx, false);
  if (!s || s->rows.empty()) {
    release<StringAgg>(ctx);
    return sqlite3_result_null(ctx);
  }
  auto& rows = s->rows;
  if (s->distinct) {
    // DISTINCT (value, delimiter): sorted by the value (the only ORDER BY PostgreSQL allows then), ascending
    // unless written DESC.
    const bool desc = !s->spec.empty() && s->spec.front().desc;
    std::stable_sort(rows.begin(), rows.end(), [&](const StringAgg::Row& a, const StringAgg::Row& b) {
      const int c = a.value.compare(b.value);
      if (c != 0) return desc ? c > 0 : c < 0;
      if (a.has_delimiter != b.has_delimiter) return !a.has_delimiter;
      return a.delimiter < b.delimiter;
    });
    rows.erase(std::unique(rows.begin(), rows.end(),
                           [](const StringAgg::Row& a, const StringAgg::Row& b) {
                             return a.value == b.value && a.has_delimiter == b.has_delimiter &&
                                    a.delimiter == b.delimiter;
                           }),
               rows.end());
  } else if (!s->spec.empty()) {
    std::stable_sort(rows.begin(), rows.end(), [&](const StringAgg::Row& a, const StringAgg::Row& b) {
      return compare_keys(a.keys, b.keys, s->spec) < 0;
    });
  }
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0 && rows[i].has_delimiter) out += rows[i].delimiter;
    out += rows[i].value;
  }
  release<StringAgg>(ctx);
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

// ---- array_agg: pg_array_agg(value, spec, key...), the array as a JSON array text (sqlite_arrays.hpp).
// PostgreSQL keeps NULL elements; no input row is NULL (not an empty array).

struct ArrayAgg {
  struct Row {
    Val value;
    std::string element;  // the value in the array text's form
    std::vector<Val> keys;
  };
  std::vector<Row> rows;
  std::size_t held = 0;
  std::vector<SortKey> spec;
  bool distinct = false;
  bool bad_spec = false;
  bool parsed = false;
};

// spec: '-' then two letters per key (as pg_string_agg's); or 'D' (DISTINCT) and at most two letters for the
// value itself, the only ORDER BY PostgreSQL allows with DISTINCT (no key arguments then).
void array_agg_step(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 2) return sqlite3_result_error(ctx, "pg_array_agg(value, spec, key...)", -1);
  auto* s = state<ArrayAgg>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  if (!s->parsed) {
    s->parsed = true;
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    const std::string spec = text ? text : "";
    const std::size_t keys = static_cast<std::size_t>(argc - 2);
    s->distinct = !spec.empty() && spec[0] == 'D';
    // DISTINCT sorts by the value itself: 'D' and at most one direction, no key arguments.
    const std::size_t sorted = s->distinct ? (spec.size() == 3 ? 1 : 0) : keys;
    s->bad_spec = (s->distinct && keys != 0) || !sort_spec(spec, sorted, s->spec);
  }
  if (s->bad_spec) return sqlite3_result_error(ctx, "pg_array_agg: malformed sort specification", -1);
  ArrayAgg::Row row;
  row.value = read(argv[0]);
  if (!arrays::append_element(row.element, argv[0]))
    return sqlite3_result_error(ctx, "querygate: array_agg() of a blob is not translated on SQLite", -1);
  for (int k = 2; k < argc; ++k) row.keys.push_back(read(argv[k]));
  if (!hold(ctx, s->held, row.element.size() + row.value.s.size() + bytes_of(row.keys), Bound::ValueLength)) return;
  s->rows.push_back(std::move(row));
}

void array_agg_final(sqlite3_context* ctx) {
  auto* s = state<ArrayAgg>(ctx, false);
  if (!s || s->rows.empty()) {
    release<ArrayAgg>(ctx);
    return sqlite3_result_null(ctx);
  }
  auto& rows = s->rows;
  if (s->distinct) {
    // Sorted by the value (ascending, NULL last, unless written otherwise), equal values (NULLs too) once.
    const SortKey key = s->spec.empty() ? SortKey{} : s->spec.front();
    const std::vector<SortKey> by_value{key};
    std::stable_sort(rows.begin(), rows.end(), [&](const ArrayAgg::Row& a, const ArrayAgg::Row& b) {
      return compare_keys({a.value}, {b.value}, by_value) < 0;
    });
    rows.erase(std::unique(rows.begin(), rows.end(),
                           [&](const ArrayAgg::Row& a, const ArrayAgg::Row& b) {
                             return compare_keys({a.value}, {b.value}, by_value) == 0;
                           }),
               rows.end());
  } else if (!s->spec.empty()) {
    std::stable_sort(rows.begin(), rows.end(), [&](const ArrayAgg::Row& a, const ArrayAgg::Row& b) {
      return compare_keys(a.keys, b.keys, s->spec) < 0;
    });
  }
  std::string out = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += ',';
    out += rows[i].element;
  }
  out += ']';
  release<ArrayAgg>(ctx);
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

// ---- ordered-set aggregates: percentile_cont, percentile_disc, mode

struct OrderedSet {
  std::vector<Val> values;
  std::size_t held = 0;
  double p = 0;
  bool desc = false;
  bool numeric = false;  // exact numerics' decimal texts, ordered as numerics (numeric_scale_on_sqlite.cpp)
  bool started = false;
  bool failed = false;
};

enum class Ordered { Cont, Disc, Mode };

void ordered_step(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const auto which = *static_cast<const Ordered*>(sqlite3_user_data(ctx));
  auto* s = state<OrderedSet>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  sqlite3_value* x = which == Ordered::Mode ? argv[0] : argv[1];
  if (!s->started) {
    s->started = true;
    // flags: 1 descending, 2 the values are exact numerics (decimal texts, or numbers read as their decimals)
    const int flags = sqlite3_value_int(argv[argc - 1]);
    s->desc = (flags & 1) != 0;
    s->numeric = (flags & 2) != 0 && which != Ordered::Cont;
    if (which != Ordered::Mode) {
      s->p = sqlite3_value_double(argv[0]);
      if (!number_class(argv[0]) || !(s->p >= 0 && s->p <= 1)) {
        s->failed = true;
        return sqlite3_result_error(ctx, "percentile value is not between 0 and 1", -1);
      }
    }
  }
  if (sqlite3_value_type(x) == SQLITE_NULL) return;
  if (which == Ordered::Cont && !number_class(x)) {
    s->failed = true;
    return sqlite3_result_error(ctx, "percentile_cont: a value that is not a number", -1);
  }
  Val v;
  if (s->numeric && sqlite3_value_type(x) != SQLITE_TEXT) {
    const auto d = decimal::of_value(x, false);
    if (!d) {
      s->failed = true;
      return sqlite3_result_error(ctx, "querygate: invalid input syntax for type numeric", -1);
    }
    v.type = SQLITE_TEXT;
    v.s = decimal::text(*d);
  } else {
    v = read(x);
  }
  if (!hold(ctx, s->held, sizeof(Val) + v.s.size(), Bound::Heap)) {
    s->failed = true;
    return;
  }
  s->values.push_back(std::move(v));
}

void ordered_final(sqlite3_context* ctx) {
  const auto which = *static_cast<const Ordered*>(sqlite3_user_data(ctx));
  auto* s = state<OrderedSet>(ctx, false);
  if (!s || s->failed || s->values.empty()) {
    release<OrderedSet>(ctx);
    return sqlite3_result_null(ctx);
  }
  auto& v = s->values;
  const bool desc = s->desc;
  const auto order = [numeric = s->numeric](const Val& a, const Val& b) {
    return numeric ? decimal::compare_decimal_texts(a.s, b.s) : compare(a, b);
  };
  std::stable_sort(v.begin(), v.end(), [&](const Val& a, const Val& b) {
    const int c = order(a, b);
    return desc ? c > 0 : c < 0;
  });
  const double n = static_cast<double>(v.size());
  if (which == Ordered::Cont) {
    // percentile_cont_final_common: the rows floor/ceil(p * (n - 1)), interpolated (float8_lerp).
    auto as_double = [](const Val& x) { return x.type == SQLITE_INTEGER ? static_cast<double>(x.i) : x.d; };
    const double at = s->p * (n - 1);
    const auto first = static_cast<std::size_t>(std::floor(at));
    const auto second = static_cast<std::size_t>(std::ceil(at));
    const double lo = as_double(v[first]);
    if (first == second) {
      release<OrderedSet>(ctx);
      return sqlite3_result_double(ctx, lo);
    }
    const double hi = as_double(v[second]);
    const double proportion = at - static_cast<double>(first);
    release<OrderedSet>(ctx);
    return sqlite3_result_double(ctx, lo + proportion * (hi - lo));
  }
  if (which == Ordered::Disc) {
    // percentile_disc: the first value whose position reaches p: row ceil(p * n) (1-based), at least the first.
    auto row = static_cast<std::int64_t>(std::ceil(s->p * n));
    row = std::clamp<std::int64_t>(row, 1, static_cast<std::int64_t>(v.size()));
    const Val chosen = v[static_cast<std::size_t>(row - 1)];
    release<OrderedSet>(ctx);
    return result_val(ctx, chosen);
  }
  // mode_final: the most frequent value; among equally frequent ones the first in the sort order.
  std::size_t best = 0, best_count = 0;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i + 1;
    while (j < v.size() && order(v[i], v[j]) == 0) ++j;
    if (j - i > best_count) {
      best_count = j - i;
      best = i;
    }
    i = j;
  }
  const Val chosen = v[best];
  release<OrderedSet>(ctx);
  result_val(ctx, chosen);
}

constexpr Stat kVarSamp = Stat::VarSamp, kVarPop = Stat::VarPop, kStddevSamp = Stat::StddevSamp,
               kStddevPop = Stat::StddevPop;
constexpr Regr kRegr[] = {Regr::CovarPop, Regr::CovarSamp, Regr::Corr, Regr::Slope, Regr::Intercept, Regr::R2,
                          Regr::Count,    Regr::AvgX,      Regr::AvgY, Regr::Sxx,   Regr::Syy,       Regr::Sxy};
constexpr const char* kRegrNames[] = {"pg_covar_pop",      "pg_covar_samp", "pg_corr",       "pg_regr_slope",
                                      "pg_regr_intercept", "pg_regr_r2",    "pg_regr_count", "pg_regr_avgx",
                                      "pg_regr_avgy",      "pg_regr_sxx",   "pg_regr_syy",   "pg_regr_sxy"};
constexpr Ordered kCont = Ordered::Cont, kDisc = Ordered::Disc, kMode = Ordered::Mode;

}  // namespace

bool register_aggregate_functions(sqlite3* db, int flags) {
  auto aggregate = [&](const char* name, int argc, const void* data,
                       void (*step)(sqlite3_context*, int, sqlite3_value**), void (*final)(sqlite3_context*)) {
    return sqlite3_create_function(db, name, argc, flags, const_cast<void*>(data), nullptr, step, final) == SQLITE_OK;
  };
  // pg_numeric_sum / pg_numeric_avg(x, from) are window functions too: sum(x::numeric) OVER (...).
  auto window = [&](const char* name, void (*final)(sqlite3_context*), void (*value)(sqlite3_context*)) {
    return sqlite3_create_window_function(db, name, 2, flags, nullptr, numeric_step, final, value, numeric_inverse,
                                          nullptr) == SQLITE_OK;
  };
  auto float_window = [&](const char* name, void (*final)(sqlite3_context*), void (*value)(sqlite3_context*)) {
    return sqlite3_create_window_function(db, name, 1, flags, nullptr, float_frame_step, final, value,
                                          float_frame_inverse, nullptr) == SQLITE_OK;
  };
  bool ok = float_window("pg_float_sum", float_frame_final<false>, float_frame_value<false>) &&
            float_window("pg_float_avg", float_frame_final<true>, float_frame_value<true>) &&
            aggregate("pg_var_samp", 1, &kVarSamp, float_step, float_final) &&
            aggregate("pg_var_pop", 1, &kVarPop, float_step, float_final) &&
            aggregate("pg_stddev_samp", 1, &kStddevSamp, float_step, float_final) &&
            aggregate("pg_stddev_pop", 1, &kStddevPop, float_step, float_final) &&
            aggregate("pg_string_agg", -1, nullptr, string_agg_step, string_agg_final) &&
            aggregate("pg_array_agg", -1, nullptr, array_agg_step, array_agg_final) &&
            aggregate("pg_percentile_cont", 3, &kCont, ordered_step, ordered_final) &&
            aggregate("pg_percentile_disc", 3, &kDisc, ordered_step, ordered_final) &&
            aggregate("pg_mode", 2, &kMode, ordered_step, ordered_final) &&
            window("pg_numeric_sum", numeric_final<false>, numeric_value<false>) &&
            window("pg_numeric_avg", numeric_final<true>, numeric_value<true>) &&
            sqlite3_create_window_function(db, "pg_numeric_max", 2, flags, nullptr, extreme_step, extreme_final<true>,
                                           extreme_value<true>, extreme_inverse, nullptr) == SQLITE_OK &&
            sqlite3_create_window_function(db, "pg_numeric_min", 2, flags, nullptr, extreme_step, extreme_final<false>,
                                           extreme_value<false>, extreme_inverse, nullptr) == SQLITE_OK;
  for (const int argc : {1, 2})  // (x): an integer's, its text; (x, from): see int_step
    ok = ok && aggregate("pg_var_samp_exact", argc, &kVarSamp, int_step, int_final) &&
         aggregate("pg_var_pop_exact", argc, &kVarPop, int_step, int_final) &&
         aggregate("pg_stddev_samp_exact", argc, &kStddevSamp, int_step, int_final) &&
         aggregate("pg_stddev_pop_exact", argc, &kStddevPop, int_step, int_final);
  for (std::size_t i = 0; ok && i < std::size(kRegr); ++i)
    ok = aggregate(kRegrNames[i], 2, &kRegr[i], regr_step, regr_final);
  return ok;
}

}  // namespace qg::exec::sqlite
