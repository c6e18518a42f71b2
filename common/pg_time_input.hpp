#pragma once
// PostgreSQL's time constructors, computed exactly for backends without time
// types (SQLite): to_timestamp(seconds), to_timestamp(text, template) and
// to_date(text, template) with the common template patterns, make_date and
// the interval sums of sum()/avg(). Values are pgtime::Value (common/pg_time.hpp).
#include <string>
#include <string_view>

#include "common/pg_time.hpp"

namespace qg::pgtime {

// to_timestamp(double precision): seconds since 1970-01-01 00:00 UTC, rounded to
// microseconds as PostgreSQL 15 rounds them (rint after moving to its 2000 epoch).
bool from_epoch(double seconds, Value& out, std::string& error);

// Empty when every pattern of a to_date/to_timestamp template is read here
// exactly as PostgreSQL reads it: YYYY, YY, MM, DD, HH24, HH12, HH, MI, SS, MS,
// US, Month/Mon (any case), AM/PM/A.M./P.M. (any case), FM, separators, spaces
// and double-quoted text. Else the first pattern that is not.
std::string unsupported_input_pattern(std::string_view format);
// Whether the template names the year (YYYY or YY): without one PostgreSQL's
// year is 1 BC, outside the years this backend translates.
bool input_pattern_has_year(std::string_view format);

// to_date(text, template) (as = Date) and to_timestamp(text, template)
// (as = Timestamptz, the session zone being UTC): PostgreSQL 15's reading
// (formatting.c, not FX mode): spaces before fields skipped, a separator in the
// template matches one separator or space or nothing, a letter outside a pattern
// skips one character, numbers read greedily before a separator and at their
// width before another number, month names case-insensitively, unread trailing
// text ignored; out-of-range fields are errors (a zero month or day is unset).
bool from_template(std::string_view input, std::string_view format, Kind as, Value& out, std::string& error);

// make_date(year, month, day): PostgreSQL's checks (a negative year is BC, out
// of range here).
bool make_date(long long year, long long month, long long day, Value& out, std::string& error);

}  // namespace qg::pgtime
