#include "executors/sqlite/sqlite_functions.hpp"

#include <locale.h>
#include <wchar.h>
#include <wctype.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "executors/sqlite/sqlite_decimals.hpp"

namespace qg::exec::sqlite {
namespace {

// Aggregate state lives in SQLite's aggregate context as a pointer to a vector.
struct Samples {
  std::vector<double> values;
  double p = -1;  // percentile in 0..100, fixed by the first row
  bool bad_p = false;
};

Samples* state(sqlite3_context* ctx, bool create) {
  auto** slot = static_cast<Samples**>(sqlite3_aggregate_context(ctx, create ? sizeof(Samples*) : 0));
  if (!slot) return nullptr;
  if (!*slot && create) *slot = new (std::nothrow) Samples();
  return *slot;
}

void step(sqlite3_context* ctx, int argc, sqlite3_value** argv, double fixed_p) {
  Samples* s = state(ctx, true);
  if (!s) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (fixed_p >= 0) {
    s->p = fixed_p;
  } else if (argc == 2 && s->p < 0) {
    const int t = sqlite3_value_type(argv[1]);
    const double p = sqlite3_value_double(argv[1]);
    if ((t != SQLITE_INTEGER && t != SQLITE_FLOAT) || p < 0 || p > 100) s->bad_p = true;
    s->p = p;
  }
  const int t = sqlite3_value_type(argv[0]);
  if (t == SQLITE_NULL) return;  // like every aggregate, NULLs are skipped
  if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) {
    // Text that looks numeric counts as its number, as in SQLite's own avg().
    if (sqlite3_value_numeric_type(argv[0]) == SQLITE_TEXT || sqlite3_value_numeric_type(argv[0]) == SQLITE_BLOB)
      return;
  }
  // Kept sorted, so a window's repeated value() calls need no sort.
  const double x = sqlite3_value_double(argv[0]);
  s->values.insert(std::upper_bound(s->values.begin(), s->values.end(), x), x);
}

void percentile_step(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  step(ctx, argc, argv, -1);
}
void median_step(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  step(ctx, argc, argv, 50);
}

// The current answer, without consuming the state (window functions ask repeatedly).
void result(sqlite3_context* ctx, Samples* s) {
  if (!s) {
    sqlite3_result_null(ctx);  // no rows at all
  } else if (s->bad_p) {
    sqlite3_result_error(ctx, "percentile(x, p): p must be a number from 0 to 100", -1);
  } else if (s->values.empty()) {
    sqlite3_result_null(ctx);
  } else {
    // Linear interpolation between the closest ranks: PostgreSQL's percentile_cont.
    const std::vector<double>& v = s->values;  // sorted by step()
    const double rank = s->p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const auto hi = static_cast<std::size_t>(std::ceil(rank));
    sqlite3_result_double(ctx, v[lo] + (rank - static_cast<double>(lo)) * (v[hi] - v[lo]));
  }
}

void final(sqlite3_context* ctx) {
  Samples* s = state(ctx, false);
  result(ctx, s);
  delete s;
}

void value(sqlite3_context* ctx) {
  result(ctx, state(ctx, false));
}

// A row leaves the window frame: forget one copy of its value.
void inverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  Samples* s = state(ctx, false);
  const int t = sqlite3_value_type(argv[0]);
  if (!s || t == SQLITE_NULL) return;
  const double x = sqlite3_value_double(argv[0]);
  auto it = std::lower_bound(s->values.begin(), s->values.end(), x);
  if (it != s->values.end() && *it == x) s->values.erase(it);
}

// printf()/format() that fail instead of returning NULL. SQLite's own printf
// gives NULL when its result would pass SQLITE_LIMIT_LENGTH (a silent wrong
// answer); this one asks the built-in, on a private in-memory connection of the
// same thread with the same length limit, and turns that NULL into SQLite's
// "string or blob too big" error (SQLITE_TOOBIG), which the executor reports.
struct PrintfConnection {
  sqlite3* db = nullptr;
  std::vector<sqlite3_stmt*> by_argc;  // "SELECT printf(?1, ..., ?n)", prepared once per argument count
  ~PrintfConnection() {
    for (auto* s : by_argc) sqlite3_finalize(s);
    sqlite3_close(db);
  }
};

void checked_printf(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  thread_local PrintfConnection conn;
  if (!conn.db &&
      sqlite3_open_v2(":memory:", &conn.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nullptr) != SQLITE_OK)
    return sqlite3_result_error(ctx, "printf: cannot open its private connection", -1);
  sqlite3_limit(conn.db, SQLITE_LIMIT_LENGTH, sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1));
  if (conn.by_argc.size() <= static_cast<std::size_t>(argc)) conn.by_argc.resize(static_cast<std::size_t>(argc) + 1);
  sqlite3_stmt*& stmt = conn.by_argc[static_cast<std::size_t>(argc)];
  if (!stmt) {
    std::string sql = "SELECT printf(";
    for (int i = 1; i <= argc; ++i) sql += (i > 1 ? ", ?" : "?") + std::to_string(i);
    sql += ")";
    if (sqlite3_prepare_v2(conn.db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      return sqlite3_result_error(ctx, sqlite3_errmsg(conn.db), -1);
  }
  for (int i = 0; i < argc; ++i) sqlite3_bind_value(stmt, i + 1, argv[i]);
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW && sqlite3_column_type(stmt, 0) != SQLITE_NULL)
    sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));
  else if (rc == SQLITE_ROW || rc == SQLITE_TOOBIG)
    sqlite3_result_error_toobig(ctx);  // a NULL from a non-NULL format: the result passed the length limit
  else
    sqlite3_result_error(ctx, sqlite3_errmsg(conn.db), -1);
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
}

// upper() and lower() as PostgreSQL computes them in a UTF-8 database with a
// libc locale (the C.UTF-8 / en_US.UTF-8 kind): every character mapped by the
// C library's towupper / towlower, not SQLite's built-ins, which map ASCII
// letters only ('Nação' would stay 'NAçãO'). Decoding and encoding go through
// the C library too (mbrtowc / wcrtomb in C.UTF-8); a byte that is not UTF-8
// is kept as it is.
locale_t utf8_locale() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  return loc;
}

template <wint_t (*Map)(wint_t, locale_t)>
void map_case(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const locale_t loc = utf8_locale();
  if (!loc) return sqlite3_result_error(ctx, "the C.UTF-8 locale is not available for upper()/lower()", -1);
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  const int bytes = sqlite3_value_bytes(argv[0]);
  if (!text) return sqlite3_result_error_nomem(ctx);
  std::string out;
  out.reserve(static_cast<std::size_t>(bytes));
  const locale_t previous = uselocale(loc);
  std::mbstate_t in_state{};
  std::mbstate_t out_state{};
  char buf[MB_LEN_MAX];
  for (int i = 0; i < bytes;) {
    wchar_t wc = 0;
    const std::size_t n = mbrtowc(&wc, text + i, static_cast<std::size_t>(bytes - i), &in_state);
    if (n == static_cast<std::size_t>(-1) || n == static_cast<std::size_t>(-2) || n == 0) {
      out += text[i++];  // not UTF-8 (or an embedded NUL): kept as it is
      in_state = {};
      continue;
    }
    const std::size_t m = wcrtomb(buf, static_cast<wchar_t>(Map(static_cast<wint_t>(wc), loc)), &out_state);
    if (m == static_cast<std::size_t>(-1))
      out.append(text + i, n);
    else
      out.append(buf, m);
    i += static_cast<int>(n);
  }
  uselocale(previous);
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

// PostgreSQL's math functions raise an error where SQLite's return NULL (or
// an infinity): sqrt(-1), ln(0), acos(2), exp(1000), power(0, -1). The same
// functions registered with PostgreSQL's errors, so no NULL stands for "no
// answer". random() returns a float in [0, 1) as PostgreSQL's does (SQLite's
// is a 64-bit integer).
struct MathFunction {
  double (*fn)(double);
  const char* (*domain)(double x);  // the error for x, or nullptr
};

const char* no_negative_sqrt(double x) {
  return x < 0 ? "cannot take square root of a negative number" : nullptr;
}
const char* log_domain(double x) {
  if (x == 0) return "cannot take logarithm of zero";
  return x < 0 ? "cannot take logarithm of a negative number" : nullptr;
}
const char* unit_interval(double x) {
  return x < -1 || x > 1 ? "input is out of range" : nullptr;
}
const char* any_input(double) {
  return nullptr;
}

void math1(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto* f = static_cast<const MathFunction*>(sqlite3_user_data(ctx));
  const double x = sqlite3_value_double(argv[0]);
  if (const char* error = f->domain(x)) return sqlite3_result_error(ctx, error, -1);
  const double r = f->fn(x);
  if (std::isinf(r) && !std::isinf(x)) return sqlite3_result_error(ctx, "value out of range: overflow", -1);
  if (r == 0 && f->fn == static_cast<double (*)(double)>(std::exp) && !std::isinf(x))
    return sqlite3_result_error(ctx, "value out of range: underflow", -1);
  sqlite3_result_double(ctx, r);
}

const MathFunction kSqrt{static_cast<double (*)(double)>(std::sqrt), no_negative_sqrt};
const MathFunction kLn{static_cast<double (*)(double)>(std::log), log_domain};
const MathFunction kLog10{static_cast<double (*)(double)>(std::log10), log_domain};
const MathFunction kAcos{static_cast<double (*)(double)>(std::acos), unit_interval};
const MathFunction kAsin{static_cast<double (*)(double)>(std::asin), unit_interval};
const MathFunction kExp{static_cast<double (*)(double)>(std::exp), any_input};

void power2(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 2 || sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  const double x = sqlite3_value_double(argv[0]);
  const double y = sqlite3_value_double(argv[1]);
  if (x == 0 && y < 0) return sqlite3_result_error(ctx, "zero raised to a negative power is undefined", -1);
  if (x < 0 && std::floor(y) != y)
    return sqlite3_result_error(ctx, "a negative number raised to a non-integer power yields a complex result", -1);
  const double r = std::pow(x, y);
  if (std::isinf(r)) return sqlite3_result_error(ctx, "value out of range: overflow", -1);
  // dpow: 0 from a base that is not 0 (power(2, -2000), power(1e-200, 2)) is PostgreSQL's error (s20c).
  if (r == 0 && x != 0) return sqlite3_result_error(ctx, "value out of range: underflow", -1);
  sqlite3_result_double(ctx, r);
}

// log(x) is the base-10 logarithm on both engines; log(b, x) is ln(x) / ln(b).
void log_any(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  for (int i = 0; i < argc; ++i)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const double x = sqlite3_value_double(argv[argc - 1]);
  if (const char* error = log_domain(x)) return sqlite3_result_error(ctx, error, -1);
  if (argc == 1) return sqlite3_result_double(ctx, std::log10(x));
  const double b = sqlite3_value_double(argv[0]);
  if (const char* error = log_domain(b)) return sqlite3_result_error(ctx, error, -1);
  if (b == 1) return sqlite3_result_error(ctx, "division by zero", -1);
  sqlite3_result_double(ctx, std::log(x) / std::log(b));
}

void random_unit(sqlite3_context* ctx, int, sqlite3_value**) {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  thread_local std::uniform_real_distribution<double> unit(0.0, 1.0);
  sqlite3_result_double(ctx, unit(engine));
}

// pg_int8(x): the value of integer arithmetic admission wrapped (issue #12). SQLite turns an int64
// overflow of + - * into a double (9223372036854775807 + 1 is 9.22337203685478e18); PostgreSQL raises
// "bigint out of range". A double here is that overflow: the statement fails as PostgreSQL's does.
void pg_int8(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_FLOAT) return sqlite3_result_error(ctx, "bigint out of range", -1);
  sqlite3_result_value(ctx, argv[0]);
}

// pg_int4(x) / pg_int2(x): the value of integer (smallint) arithmetic PostgreSQL types int4 (int2), which
// admission wrapped node by node (admit/numbers_on_sqlite.cpp). SQLite computes it in 64 bits (2147483647 + 1 is
// 2147483648 there); PostgreSQL raises "integer out of range" ("smallint out of range"), as here. NULL passes.
template <std::int64_t kMin, std::int64_t kMax>
void pg_int_checked(sqlite3_context* ctx, int, sqlite3_value** argv) {
  constexpr const char* kError = kMax == 32767 ? "smallint out of range" : "integer out of range";
  switch (sqlite3_value_type(argv[0])) {
    case SQLITE_INTEGER: {
      const sqlite3_int64 v = sqlite3_value_int64(argv[0]);
      if (v < kMin || v > kMax) return sqlite3_result_error(ctx, kError, -1);
      return sqlite3_result_int64(ctx, v);
    }
    case SQLITE_FLOAT: {  // an int64 overflow below: out of range as well
      const double v = sqlite3_value_double(argv[0]);
      if (!(v >= static_cast<double>(kMin) && v <= static_cast<double>(kMax)) || v != std::trunc(v))
        return sqlite3_result_error(ctx, kError, -1);
      return sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(v));
    }
    default:
      return sqlite3_result_value(ctx, argv[0]);
  }
}

// pg_int4_arith(a, b, op): a + b, a - b or a * b of integer columns SQLite stores in 64 bits, typed integer (int4)
// as PostgreSQL holds such a column (admit/numbers_on_sqlite.cpp). Two operands within int4 whose result is not:
// PostgreSQL's "integer out of range" (id * 100000 answered 6317600000 on SQLite). An operand beyond int4 (a
// column PostgreSQL would hold as bigint): bigint arithmetic, "bigint out of range" past 64 bits. A REAL operand
// (a fraction an INTEGER column kept): SQLite's double arithmetic. Text in an INTEGER column (Spider's '' for an
// unknown temperature) is read as SQLite's arithmetic reads it (its numeric prefix, '' as 0), unchecked:
// PostgreSQL could not have held it, and this is the answer the statement had on SQLite before.
void pg_int4_arith(sqlite3_context* ctx, int, sqlite3_value** argv) {
  struct Operand {
    bool integer = true;
    bool text = false;
    std::int64_t i = 0;
    double d = 0;
  };
  const auto read = [](sqlite3_value* v) -> std::optional<Operand> {
    Operand o;
    switch (sqlite3_value_numeric_type(v)) {
      case SQLITE_NULL:
        return std::nullopt;
      case SQLITE_INTEGER:
        o.i = sqlite3_value_int64(v);
        return o;
      case SQLITE_FLOAT:
        o.integer = false;
        o.d = sqlite3_value_double(v);
        return o;
      default:  // text that is not wholly a number, or a blob: its numeric prefix
        o.text = true;
        o.d = sqlite3_value_double(v);
        o.i = sqlite3_value_int64(v);
        o.integer = static_cast<double>(o.i) == o.d;
        return o;
    }
  };
  const auto a = read(argv[0]), b = read(argv[1]);
  if (!a || !b) return sqlite3_result_null(ctx);
  const auto* op_text = reinterpret_cast<const char*>(sqlite3_value_text(argv[2]));
  const char op = op_text && op_text[0] && !op_text[1] ? op_text[0] : '?';
  if (op != '+' && op != '-' && op != '*')
    return sqlite3_result_error(ctx, "querygate: pg_int4_arith: bad operator", -1);
  if (!a->integer || !b->integer) {
    const double x = a->integer ? static_cast<double>(a->i) : a->d, y = b->integer ? static_cast<double>(b->i) : b->d;
    return sqlite3_result_double(ctx, op == '+' ? x + y : op == '-' ? x - y : x * y);
  }
  const __int128 x = a->i, y = b->i;
  const __int128 r = op == '+' ? x + y : op == '-' ? x - y : x * y;
  const auto within = [](__int128 v, std::int64_t lo, std::int64_t hi) { return v >= lo && v <= hi; };
  constexpr std::int64_t kMin4 = -2147483648LL, kMax4 = 2147483647LL;
  if (!a->text && !b->text && within(x, kMin4, kMax4) && within(y, kMin4, kMax4) && !within(r, kMin4, kMax4))
    return sqlite3_result_error(ctx, "integer out of range", -1);
  if (!within(r, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()))
    return sqlite3_result_error(ctx, "bigint out of range", -1);
  sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(r));
}

// pg_single(x): a scalar subquery's one row (issue #12). PostgreSQL fails a scalar subquery that returns
// more than one row; SQLite answers the first. Admission reads such a subquery through this aggregate
// (admission/admit/scalar_subquery.cpp): no row gives NULL, one row its value, a second row PostgreSQL's error.
struct Single {
  sqlite3_int64 rows;
  sqlite3_value* value;  // the first row's, owned (freed by single_final, which SQLite also calls on an error)
};

constexpr const char* kMoreThanOneRow = "more than one row returned by a subquery used as an expression";

void single_step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* s = static_cast<Single*>(sqlite3_aggregate_context(ctx, sizeof(Single)));
  if (s == nullptr) return sqlite3_result_error_nomem(ctx);
  if (++s->rows > 1) return sqlite3_result_error(ctx, kMoreThanOneRow, -1);
  s->value = sqlite3_value_dup(argv[0]);
  if (s->value == nullptr) return sqlite3_result_error_nomem(ctx);
}

void single_final(sqlite3_context* ctx) {
  auto* s = static_cast<Single*>(sqlite3_aggregate_context(ctx, 0));
  if (s == nullptr || s->rows == 0) return sqlite3_result_null(ctx);
  if (s->rows > 1)
    sqlite3_result_error(ctx, kMoreThanOneRow, -1);
  else if (s->value != nullptr)
    sqlite3_result_value(ctx, s->value);
  sqlite3_value_free(s->value);
  s->value = nullptr;
}

}  // namespace

static bool register_math(sqlite3* db, int flags) {
  auto one = [&](const char* name, const MathFunction& f) {
    return sqlite3_create_function(db, name, 1, flags, const_cast<MathFunction*>(&f), math1, nullptr, nullptr) ==
           SQLITE_OK;
  };
  return one("sqrt", kSqrt) && one("ln", kLn) && one("log10", kLog10) && one("acos", kAcos) && one("asin", kAsin) &&
         one("exp", kExp) &&
         sqlite3_create_function(db, "power", 2, flags, nullptr, power2, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pow", 2, flags, nullptr, power2, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "log", 1, flags, nullptr, log_any, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "log", 2, flags, nullptr, log_any, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "random", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, nullptr, random_unit, nullptr,
                                 nullptr) == SQLITE_OK;
}

bool register_functions(sqlite3* db) {
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  // Window-capable aggregates: usable with GROUP BY and with OVER (...).
  return sqlite3_create_window_function(db, "percentile", 2, flags, nullptr, percentile_step, final, value, inverse,
                                        nullptr) == SQLITE_OK &&
         sqlite3_create_window_function(db, "median", 1, flags, nullptr, median_step, final, value, inverse, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "printf", -1, flags, nullptr, checked_printf, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "format", -1, flags, nullptr, checked_printf, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "upper", 1, flags, nullptr, map_case<towupper_l>, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "lower", 1, flags, nullptr, map_case<towlower_l>, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_int8", 1, flags, nullptr, pg_int8, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_int4", 1, flags, nullptr, pg_int_checked<-2147483648LL, 2147483647LL>, nullptr,
                                 nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_int4_arith", 3, flags, nullptr, pg_int4_arith, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_int2", 1, flags, nullptr, pg_int_checked<-32768, 32767>, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_single", 1, flags, nullptr, nullptr, single_step, single_final) == SQLITE_OK &&
         register_math(db, flags) && register_time_functions(db, flags) && register_time_constructors(db, flags) &&
         register_series(db) && register_number_functions(db, flags) && register_json_functions(db, flags) &&
         register_value_functions(db, flags) && register_json_rows(db, flags) && register_text_functions(db, flags) &&
         register_aggregate_functions(db, flags) && decimal::register_decimal_functions(db, flags);
}

}  // namespace qg::exec::sqlite
