// PostgreSQL's time constructors and interval aggregates on SQLite connections
// (admission/admit/time_constructors.cpp translates the calls):
//   pg_to_timestamp(seconds)          to_timestamp(double precision) → timestamptz
//   pg_to_time(text, template, kind)  to_timestamp(text, template) / to_date(text, template)
//   pg_make_date(y, m, d)             make_date(int, int, int)
//   pg_iv_sum(x), pg_iv_avg(x)        sum(interval), avg(interval)
// Semantics in common/pg_time_input.cpp; answers in querygate's JSON form.
#include <string>

#include "common/pg_time.hpp"
#include "common/pg_time_input.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

using pgtime::Kind;
using pgtime::Value;

std::string text_of(sqlite3_value* v) {
  const auto* t = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return t ? std::string(t, static_cast<std::size_t>(sqlite3_value_bytes(v))) : std::string();
}

void fail(sqlite3_context* ctx, const std::string& error) {
  sqlite3_result_error(ctx, error.c_str(), static_cast<int>(error.size()));
}

void answer(sqlite3_context* ctx, const Value& v) {
  std::string out, error;
  if (!pgtime::format(v, out, error)) return fail(ctx, error);
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

bool is_number(sqlite3_value* v) {
  const int t = sqlite3_value_type(v);
  return t == SQLITE_INTEGER || t == SQLITE_FLOAT;
}

void pg_to_timestamp(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  if (!is_number(argv[0])) return fail(ctx, "function to_timestamp(text) does not exist");
  Value out;
  std::string error;
  if (!pgtime::from_epoch(sqlite3_value_double(argv[0]), out, error)) return fail(ctx, error);
  answer(ctx, out);
}

void pg_to_time(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  const auto kind = pgtime::kind_from_name(text_of(argv[2]));
  if (kind != Kind::Date && kind != Kind::Timestamptz) return fail(ctx, "querygate: unknown time kind");
  Value out;
  std::string error;
  if (!pgtime::from_template(text_of(argv[0]), text_of(argv[1]), *kind, out, error)) return fail(ctx, error);
  answer(ctx, out);
}

void pg_make_date(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  for (int i = 0; i < argc; ++i)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  for (int i = 0; i < argc; ++i)
    if (sqlite3_value_type(argv[i]) != SQLITE_INTEGER)
      return fail(ctx, "function make_date() takes integers (PostgreSQL: function does not exist)");
  Value out;
  std::string error;
  if (!pgtime::make_date(sqlite3_value_int64(argv[0]), sqlite3_value_int64(argv[1]), sqlite3_value_int64(argv[2]), out,
                         error))
    return fail(ctx, error);
  answer(ctx, out);
}

// sum(interval) and avg(interval): PostgreSQL 15 adds the intervals field by field (interval_pl)
// and divides the sum by the count (interval_div); NULLs are skipped, no rows give NULL.
struct IntervalSum {
  bool started;
  bool failed;
  long long count;
  pgtime::Interval sum;
};

void iv_step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* s = static_cast<IntervalSum*>(sqlite3_aggregate_context(ctx, sizeof(IntervalSum)));
  if (!s) return sqlite3_result_error_nomem(ctx);
  if (s->failed || sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  Value v;
  std::string error;
  if (!pgtime::parse(text_of(argv[0]), Kind::Interval, v, error)) {
    s->failed = true;
    return fail(ctx, error);
  }
  const long long months = static_cast<long long>(s->sum.months) + v.interval.months;
  const long long days = static_cast<long long>(s->sum.days) + v.interval.days;
  long long micros = 0;
  if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX ||
      __builtin_add_overflow(s->sum.micros, v.interval.micros, &micros)) {
    s->failed = true;
    return fail(ctx, "interval out of range");
  }
  s->sum = {static_cast<std::int32_t>(months), static_cast<std::int32_t>(days), micros};
  s->started = true;
  ++s->count;
}

template <bool Average>
void iv_final(sqlite3_context* ctx) {
  auto* s = static_cast<IntervalSum*>(sqlite3_aggregate_context(ctx, 0));
  if (!s || !s->started || s->failed) return sqlite3_result_null(ctx);
  Value out;
  out.kind = Kind::Interval;
  out.interval = s->sum;
  if (Average) {
    std::string error;
    if (!pgtime::divide(s->sum, static_cast<double>(s->count), out.interval, error)) return fail(ctx, error);
  }
  answer(ctx, out);
}

}  // namespace

bool register_time_constructors(sqlite3* db, int flags) {
  return sqlite3_create_function(db, "pg_to_timestamp", 1, flags, nullptr, pg_to_timestamp, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_to_time", 3, flags, nullptr, pg_to_time, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_make_date", 3, flags, nullptr, pg_make_date, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_iv_sum", 1, flags, nullptr, nullptr, iv_step, iv_final<false>) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_iv_avg", 1, flags, nullptr, nullptr, iv_step, iv_final<true>) == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
