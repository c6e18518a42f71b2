// PostgreSQL's time, date and interval meaning on SQLite connections: the
// functions admission's translations call (admission/admit/time_types.cpp).
// Each takes the kind of its time argument as a literal ('timestamptz',
// 'timestamp', 'date', 'time', 'interval'), reads the text with PostgreSQL's
// input rules and answers in querygate's JSON form (common/pg_time.hpp). Time
// zones come from the system tz database through Howard Hinnant's date/tz.
#include <date/tz.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "common/pg_time.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

using pgtime::Kind;
using pgtime::Value;

std::string text_of(sqlite3_value* v) {
  const auto* t = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return t ? std::string(t, static_cast<std::size_t>(sqlite3_value_bytes(v))) : std::string();
}

bool any_null(int argc, sqlite3_value** argv, int count) {
  for (int i = 0; i < argc && i < count; ++i)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return true;
  return false;
}

void fail(sqlite3_context* ctx, const std::string& error) {
  sqlite3_result_error(ctx, error.c_str(), static_cast<int>(error.size()));
}

bool kind_arg(sqlite3_context* ctx, sqlite3_value* v, Kind& out) {
  const auto k = pgtime::kind_from_name(text_of(v));
  if (!k) {
    fail(ctx, "querygate: unknown time kind '" + text_of(v) + "'");
    return false;
  }
  out = *k;
  return true;
}

bool read(sqlite3_context* ctx, sqlite3_value* v, Kind kind, Value& out) {
  std::string error;
  if (pgtime::parse(text_of(v), kind, out, error)) return true;
  fail(ctx, error);
  return false;
}

void answer(sqlite3_context* ctx, const Value& v, bool text_form = false) {
  std::string out, error;
  if (!pgtime::format(v, out, error, text_form)) return fail(ctx, error);
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

// pg_cast(x, from, to): CAST(x AS to) of a value of kind `from` ('text': read x as `to`); `to` may be
// 'text' (PostgreSQL's text output, as CAST(x AS text) and || give).
void pg_cast(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 1)) return sqlite3_result_null(ctx);
  const std::string from = text_of(argv[1]), to = text_of(argv[2]);
  Value v;
  if (from == "text") {
    Kind k;
    if (!kind_arg(ctx, argv[2], k) || !read(ctx, argv[0], k, v)) return;
    return answer(ctx, v);
  }
  Kind f;
  if (!kind_arg(ctx, argv[1], f) || !read(ctx, argv[0], f, v)) return;
  if (to == "text") return answer(ctx, v, true);
  Kind t;
  if (!kind_arg(ctx, argv[2], t)) return;
  Value out;
  std::string error;
  if (!pgtime::cast(v, t, out, error)) return fail(ctx, error);
  answer(ctx, out);
}

// pg_ts_diff(a, b, kind): a - b, both read as `kind` (timestamp or timestamptz): an interval.
void pg_ts_diff(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Kind k;
  Value a, b;
  if (!kind_arg(ctx, argv[2], k) || !read(ctx, argv[0], k, a) || !read(ctx, argv[1], k, b)) return;
  Value out;
  out.kind = Kind::Interval;
  out.interval = pgtime::subtract(a, b);
  answer(ctx, out);
}

// pg_ts_add(t, interval, sign, kind): t + interval (sign 1) or t - interval (sign -1).
void pg_ts_add(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Kind k;
  Value t, iv;
  if (!kind_arg(ctx, argv[3], k) || !read(ctx, argv[0], k, t) || !read(ctx, argv[1], Kind::Interval, iv)) return;
  Value out;
  std::string error;
  if (!pgtime::add_interval(t, iv.interval, sqlite3_value_int(argv[2]) < 0 ? -1 : 1, out, error))
    return fail(ctx, error);
  answer(ctx, out);
}

// pg_age(a, b, kind): age(a, b), both read as `kind`.
void pg_age(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Kind k;
  Value a, b;
  if (!kind_arg(ctx, argv[2], k) || !read(ctx, argv[0], k, a) || !read(ctx, argv[1], k, b)) return;
  Value out;
  out.kind = Kind::Interval;
  out.interval = pgtime::age(a, b);
  answer(ctx, out);
}

// pg_iv_add(a, b, sign): a + b or a - b.
void pg_iv_add(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Value a, b;
  if (!read(ctx, argv[0], Kind::Interval, a) || !read(ctx, argv[1], Kind::Interval, b)) return;
  a.interval = pgtime::add(a.interval, b.interval, sqlite3_value_int(argv[2]) < 0 ? -1 : 1);
  answer(ctx, a);
}

// pg_iv_mul(interval, factor) and pg_iv_div(interval, divisor).
template <bool Divide>
void pg_iv_scale(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Value a;
  if (!read(ctx, argv[0], Kind::Interval, a)) return;
  const int t = sqlite3_value_numeric_type(argv[1]);
  if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) return fail(ctx, "invalid input syntax for type double precision");
  std::string error;
  Value out = a;
  const double f = sqlite3_value_double(argv[1]);
  if (!(Divide ? pgtime::divide(a.interval, f, out.interval, error)
               : pgtime::multiply(a.interval, f, out.interval, error)))
    return fail(ctx, error);
  answer(ctx, out);
}

// pg_date_diff(a, b): date - date, the days between (an integer).
void pg_date_diff(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Value a, b;
  if (!read(ctx, argv[0], Kind::Date, a) || !read(ctx, argv[1], Kind::Date, b)) return;
  sqlite3_result_int64(ctx, (a.micros - b.micros) / pgtime::kMicrosPerDay);
}

// pg_date_add(d, n, sign): date + n days (sign 1) or date - n days (sign -1).
void pg_date_add(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Value d;
  if (!read(ctx, argv[0], Kind::Date, d)) return;
  if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER)
    return fail(ctx, "operator does not exist: date + a number that is not an integer");
  d.micros += (sqlite3_value_int(argv[2]) < 0 ? -1 : 1) * sqlite3_value_int64(argv[1]) * pgtime::kMicrosPerDay;
  std::string error;
  if (d.micros < -62135596800LL * pgtime::kMicrosPerSecond || d.micros >= 253402300800LL * pgtime::kMicrosPerSecond)
    return fail(ctx, "date out of range");
  answer(ctx, d);
}

// pg_extract(field, x, kind[, 'numeric']): EXTRACT(field FROM x) / date_part(field, x) (the fourth argument
// only tells admission the value is EXTRACT's numeric).
void pg_extract(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  if (argc == 4 && text_of(argv[3]) != "numeric")
    return fail(ctx, "querygate: pg_extract takes the word numeric as its fourth argument (EXTRACT's type) or none");
  Kind k;
  Value v;
  if (!kind_arg(ctx, argv[2], k) || !read(ctx, argv[1], k, v)) return;
  pgtime::Number n;
  std::string error;
  if (!pgtime::extract(text_of(argv[0]), v, n, error)) return fail(ctx, error);
  if (n.integer) return sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(n.value));
  sqlite3_result_double(ctx, n.value);
}

// pg_date_trunc(field, x, kind).
void pg_date_trunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Kind k;
  Value v, out;
  if (!kind_arg(ctx, argv[2], k) || !read(ctx, argv[1], k, v)) return;
  std::string error;
  if (!pgtime::truncate(text_of(argv[0]), v, out, error)) return fail(ctx, error);
  answer(ctx, out);
}

// pg_to_char(x, format, kind).
void pg_to_char(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Kind k;
  Value v;
  if (!kind_arg(ctx, argv[2], k) || !read(ctx, argv[0], k, v)) return;
  // PostgreSQL's to_char with an empty format is NULL (SQLite answered ''; outside tester s17d).
  if (text_of(argv[1]).empty()) return sqlite3_result_null(ctx);
  std::string out, error;
  if (!pgtime::to_char(v, text_of(argv[1]), out, error)) return fail(ctx, error);
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

// The offset east of UTC, in seconds, of a POSIX-style fixed zone: PostgreSQL
// reads '+02' in AT TIME ZONE as two hours WEST of Greenwich (the POSIX sign).
bool fixed_zone(const std::string& z, long long& east_seconds) {
  std::string u;
  for (char c : z) u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u == "UTC" || u == "GMT" || u == "Z" || u == "ZULU" || u == "ETC/UTC" || u == "UCT") {
    east_seconds = 0;
    return true;
  }
  if (z.size() < 2 || (z[0] != '+' && z[0] != '-')) return false;
  std::size_t i = 1;
  auto two = [&](int& out) {
    if (i + 2 > z.size() || !std::isdigit(static_cast<unsigned char>(z[i])) ||
        !std::isdigit(static_cast<unsigned char>(z[i + 1])))
      return false;
    out = (z[i] - '0') * 10 + (z[i + 1] - '0');
    i += 2;
    return true;
  };
  int h = 0, m = 0;
  if (!two(h)) return false;
  if (i < z.size() && z[i] == ':') {
    ++i;
    if (!two(m)) return false;
  }
  if (i != z.size() || h > 15 || m > 59) return false;
  east_seconds = (z[0] == '-' ? 1 : -1) * (h * 3600LL + m * 60LL);
  return true;
}

// pg_timezone(zone, x, kind): x AT TIME ZONE zone. A timestamptz (or a date, its
// midnight UTC) becomes the wall-clock timestamp in the zone; a timestamp is
// read as a wall-clock time there and becomes a timestamptz. In a daylight-
// saving gap the offset before the change is used, in an overlap the one after
// (PostgreSQL's rule).
// A tz database zone by its name, whatever its case, as PostgreSQL finds it ('america/new_york'; refused before:
// outside tester s14). nullptr: none. Found once per name (a statement asks per row; a miss fails the statement, so
// only the database's zones are kept). Per thread, so that the rows of concurrent statements take no lock.
const date::time_zone* named_zone(const std::string& name) {
  thread_local std::map<std::string, const date::time_zone*, std::less<>> found;
  if (const auto it = found.find(name); it != found.end()) return it->second;
  const auto keep = [&](const date::time_zone* z) {
    if (z) found.emplace(name, z);
    return z;
  };
  try {
    return keep(date::locate_zone(name));
  } catch (const std::exception&) {
  }
  const auto folded = [](std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string wanted = folded(name);
  try {
    for (const auto& z : date::get_tzdb().zones)
      if (folded(z.name()) == wanted) return keep(&z);
  } catch (const std::exception&) {
  }
  return nullptr;
}

// From 2038 a zone's offsets follow the rule its TZif file ends with (tzfile(5)), as PostgreSQL reads it; date/tz
// lists the transitions the file holds, which end in 2037, and kept the last offset (America/New_York answered
// standard time in a 2040 summer; outside tester s14). The Gregorian calendar repeats every 28 years from 1901 to
// 2099 (same weekdays, same leap days), so a time of 2038-2099 has the offset of the same time 28 or 56 years
// earlier, under the same rule. Past 2099: nullopt (refused, never guessed).
constexpr std::int64_t kRulesFrom = 2145916800;   // 2038-01-01 00:00:00 UTC: past the files' last transitions
constexpr std::int64_t kCycle = 10227LL * 86400;  // 28 Gregorian years without a skipped leap day, in seconds

// nullopt also when the zone's rules changed between that earlier year and 2037: its mid-January and mid-July
// offsets differ (Europe/Moscow kept summer time in 2010, not since 2014; America/Mexico_City until 2022; outside
// tester s14c): refused, never an old rule's answer.
std::optional<std::int64_t> listed_time(const date::time_zone& tz, std::int64_t seconds) {
  if (seconds < kRulesFrom) return seconds;
  const date::year_month_day day{date::floor<date::days>(date::sys_seconds{std::chrono::seconds{seconds}})};
  const int year = static_cast<int>(day.year());
  if (year > 2099) return std::nullopt;
  const std::int64_t cycles = (year - 2037 + 27) / 28;
  const int earlier = year - static_cast<int>(cycles) * 28;
  for (const unsigned month : {1u, 7u}) {
    const auto offset = [&](int y) {
      const date::sys_days mid{date::year{y} / date::month{month} / date::day{15}};
      return tz.get_info(mid + std::chrono::hours{12}).offset;
    };
    if (offset(earlier) != offset(2037)) return std::nullopt;
  }
  return seconds - cycles * kCycle;
}

void pg_timezone(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 2)) return sqlite3_result_null(ctx);
  Kind k;
  Value v;
  if (!kind_arg(ctx, argv[2], k) || !read(ctx, argv[1], k, v)) return;
  const std::string zone = text_of(argv[0]);
  const bool to_local = k != Kind::Timestamp;
  const std::int64_t seconds = v.micros >= 0 ? v.micros / pgtime::kMicrosPerSecond
                                             : -((-v.micros + pgtime::kMicrosPerSecond - 1) / pgtime::kMicrosPerSecond);
  long long east = 0;
  if (!fixed_zone(zone, east)) {
    const date::time_zone* tz = zone.find('/') != std::string::npos ? named_zone(zone) : nullptr;
    if (!tz) return fail(ctx, "time zone \"" + zone + "\" not recognized");
    const auto listed = listed_time(*tz, seconds);
    if (!listed)
      return fail(ctx, "querygate: the offsets of time zone \"" + zone +
                           "\" past 2037 are not known here (its rules changed in recent years, or the year is past "
                           "2099); PostgreSQL would answer");
    if (to_local) {
      east = tz->get_info(date::sys_seconds{std::chrono::seconds{*listed}}).offset.count();
    } else {
      const auto info = tz->get_info(date::local_seconds{std::chrono::seconds{*listed}});
      switch (info.result) {
        case date::local_info::unique:
        case date::local_info::nonexistent:
          east = info.first.offset.count();
          break;
        case date::local_info::ambiguous:
          east = info.second.offset.count();
          break;
      }
    }
  }
  Value out;
  out.kind = to_local ? Kind::Timestamp : Kind::Timestamptz;
  out.micros = v.micros + (to_local ? 1 : -1) * east * pgtime::kMicrosPerSecond;
  answer(ctx, out);
}

// pg_time_key(x, kind): the integer PostgreSQL compares x by (pgtime::sort_key).
void pg_time_key(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 1)) return sqlite3_result_null(ctx);
  Kind k;
  Value v;
  if (!kind_arg(ctx, argv[1], k) || !read(ctx, argv[0], k, v)) return;
  sqlite3_result_int64(ctx, pgtime::sort_key(v));
}

// pg_from_key(key, kind): the value back from its key (not for intervals).
void pg_from_key(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv, 1)) return sqlite3_result_null(ctx);
  Kind k;
  if (!kind_arg(ctx, argv[1], k)) return;
  if (k == Kind::Interval) return fail(ctx, "querygate: an interval cannot be rebuilt from its sort key");
  answer(ctx, pgtime::from_key(sqlite3_value_int64(argv[0]), k));
}

// pg_interval_collate(x): x. Admission prints x COLLATE pg_interval for it; written as a call, it is x itself.
void pg_interval_collate(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  sqlite3_result_value(ctx, argv[0]);
}

// The pg_interval collation: two interval texts compared as PostgreSQL compares the intervals (interval_cmp: a
// month is 30 days, a day 24 hours, so '1 day' = '24:00:00' and '1 mon' = '30 days'), in 128 bits as PostgreSQL
// does; DISTINCT, GROUP BY, UNION / INTERSECT / EXCEPT, IN (SELECT ...), min / max and a window's PARTITION BY of
// a computed interval use it (admission/admit/time_types.cpp). A text that is no interval sorts after every
// interval, by its bytes (none reaches here: an interval column holds pg_* output or NULL).
int interval_collation(void* /*arg*/, int left_size, const void* left, int right_size, const void* right) {
  const std::string_view a(static_cast<const char*>(left), static_cast<std::size_t>(left_size));
  const std::string_view b(static_cast<const char*>(right), static_cast<std::size_t>(right_size));
  pgtime::Interval x, y;
  std::string error;
  const bool xa = pgtime::parse_interval(a, x, error), yb = pgtime::parse_interval(b, y, error);
  if (!xa || !yb) {
    if (xa != yb) return xa ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const __int128 kx = pgtime::interval_cmp_value(x), ky = pgtime::interval_cmp_value(y);
  return kx < ky ? -1 : kx > ky ? 1 : 0;
}

}  // namespace

bool register_time_functions(sqlite3* db, int flags) {
  struct Fn {
    const char* name;
    int argc;
    void (*fn)(sqlite3_context*, int, sqlite3_value**);
  };
  static constexpr Fn kFunctions[] = {
      {"pg_cast", 3, pg_cast},
      {"pg_ts_diff", 3, pg_ts_diff},
      {"pg_age", 3, pg_age},
      {"pg_ts_add", 4, pg_ts_add},
      {"pg_iv_add", 3, pg_iv_add},
      {"pg_iv_mul", 2, pg_iv_scale<false>},
      {"pg_iv_div", 2, pg_iv_scale<true>},
      {"pg_date_diff", 2, pg_date_diff},
      {"pg_date_add", 3, pg_date_add},
      {"pg_extract", 3, pg_extract},
      {"pg_extract", 4, pg_extract},
      {"pg_date_trunc", 3, pg_date_trunc},
      {"pg_to_char", 3, pg_to_char},
      {"pg_timezone", 3, pg_timezone},
      {"pg_time_key", 2, pg_time_key},
      {"pg_from_key", 2, pg_from_key},
      {"pg_interval_collate", 1, pg_interval_collate},
  };
  for (const auto& f : kFunctions)
    if (sqlite3_create_function(db, f.name, f.argc, flags, nullptr, f.fn, nullptr, nullptr) != SQLITE_OK) return false;
  return sqlite3_create_collation_v2(db, "pg_interval", SQLITE_UTF8, nullptr, interval_collation, nullptr) == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
