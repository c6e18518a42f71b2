#pragma once
// PostgreSQL's date/time semantics, computed exactly, for backends without
// time types (SQLite). The one place that knows how PostgreSQL reads, prints,
// adds, subtracts, truncates, extracts from and formats times, dates and
// intervals (session TimeZone UTC, IntervalStyle postgres, DateStyle ISO).
//
// Values travel as text, in the form querygate's JSON answers use on every
// backend (docs: README "Times, dates and intervals"):
//   timestamptz  2026-01-02T03:04:05.25Z   (UTC; fraction trimmed, absent when 0)
//   timestamp    2026-01-02T03:04:05.25
//   date         2026-01-02
//   time         03:04:05.25
//   interval     1 year 2 mons -3 days +04:05:06.5   (PostgreSQL's own output)
// Time zones need the tz database and live with the SQLite functions
// (executors/sqlite/sqlite_time.cpp); everything here is calendar arithmetic.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace qg::pgtime {

enum class Kind : std::uint8_t { Timestamptz, Timestamp, Date, Time, Interval };

std::string_view kind_name(Kind k);  // "timestamptz", "timestamp", "date", "time", "interval"
std::optional<Kind> kind_from_name(std::string_view name);
// PostgreSQL's name for the type, as its messages print it.
std::string_view type_words(Kind k);

constexpr std::int64_t kMicrosPerSecond = 1'000'000;
constexpr std::int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

struct Interval {
  std::int32_t months = 0;
  std::int32_t days = 0;
  std::int64_t micros = 0;
  bool operator==(const Interval&) const = default;
};

// One value of a time kind: microseconds since 1970-01-01 00:00 (UTC for
// timestamptz, the wall clock for timestamp; a date is its midnight; a time
// is microseconds since midnight), or an interval.
struct Value {
  Kind kind = Kind::Timestamptz;
  std::int64_t micros = 0;
  Interval interval;
};

// Reading: `from` is the type the text is read as (PostgreSQL's input rules:
// an offset moves a timestamptz and is ignored by timestamp, date and time;
// a text without offset is UTC). False with PostgreSQL's message in `error`.
bool parse(std::string_view text, Kind as, Value& out, std::string& error);
// Interval input: "<n> <unit>" pairs (microseconds … millennia, plural and
// short forms), [-]HH:MM[:SS[.f]], a trailing "ago", ISO 8601 "P1Y2M3DT4H5M6S".
bool parse_interval(std::string_view text, Interval& out, std::string& error);

// Printing, in the JSON form above; `text_form` prints PostgreSQL's text
// output instead (a space between date and time, +00 after a timestamptz):
// what CAST(x AS text) and || give.
bool format(const Value& v, std::string& out, std::string& error, bool text_form = false);
std::string format_interval(const Interval& iv);

// CAST(v AS to), PostgreSQL's rules (timestamptz → date is the UTC date, time
// of a timestamp is its clock time, …). False when PostgreSQL has no such cast.
bool cast(const Value& v, Kind to, Value& out, std::string& error);

// Arithmetic. `sign` is +1 or -1 (timestamp - interval adds the negated interval).
bool add_interval(const Value& t, const Interval& iv, int sign, Value& out, std::string& error);
Interval subtract(const Value& a, const Value& b);  // timestamp - timestamp: justified to days and time
Interval add(const Interval& a, const Interval& b, int sign);
// age(a, b): PostgreSQL's symbolic difference in years, months, days and time.
Interval age(const Value& a, const Value& b);
bool multiply(const Interval& iv, double factor, Interval& out, std::string& error);
bool divide(const Interval& iv, double divisor, Interval& out, std::string& error);

// The value PostgreSQL compares by: microseconds for times and dates (a date
// is its midnight UTC, so it compares with a timestamptz as PostgreSQL's
// cast does), 30-day months and 24-hour days for an interval.
std::int64_t sort_key(const Value& v);
// PostgreSQL's interval_cmp_value: a month is 30 days, a day 24 hours, in microseconds (128 bits: no overflow).
__int128 interval_cmp_value(const Interval& iv);
// Back from a key of kind k (not an interval).
Value from_key(std::int64_t key, Kind k);

// EXTRACT(field FROM v) and date_part: the number, and whether it is whole.
struct Number {
  double value = 0;
  bool integer = true;
};
bool extract(std::string_view field, const Value& v, Number& out, std::string& error);
// date_trunc(field, v) for timestamp, timestamptz and interval values.
bool truncate(std::string_view field, const Value& v, Value& out, std::string& error);

// to_char(v, format) for timestamps, dates and intervals' clock fields; the
// template patterns of PostgreSQL this translates (unsupported_pattern says
// which one is not).
bool to_char(const Value& v, std::string_view format, std::string& out, std::string& error);
// Empty when every pattern of `format` is translated; else the first one that is not.
std::string unsupported_pattern(std::string_view format);

// Field names EXTRACT / date_part / date_trunc accept for a kind (lower case).
bool extract_field_known(std::string_view field, Kind k);
bool trunc_field_known(std::string_view field);
// Whether EXTRACT(field FROM x) is always a whole number (year, dow, …; not second, epoch, julian).
bool extract_field_whole(std::string_view field);

}  // namespace qg::pgtime
