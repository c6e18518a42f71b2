#pragma once
// Timestamp-literal honesty. A string compared with a timestamp column is read
// as an ISO-8601 time:
//  - text that is not ISO-8601 ('12/08/2026', '14:30:00', 'now') is refused with
//    a FIX naming the ISO form (SQLite would compare it as text);
//  - a time of day without a UTC offset is ambiguous: refused, the FIX is the
//    literal with Z;
//  - a bare date is read as midnight UTC (a note says so);
//  - for columns that store timestamps as text (SQLite), the literal is
//    rewritten into the column's own text format, so text comparison follows
//    time ('...00Z' would otherwise sort after '...00.512+00:00');
//  - a column whose stored text carries no offset holds naive times: literals
//    pass as written (the rules above need a column that knows its zone).
#include <optional>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace qg::rewrite {

struct IsoTime {
  int year = 0, month = 0, day = 0;
  bool has_time = false;
  int hour = 0, minute = 0, second = 0;
  int nanos = 0;                      // fraction of a second
  std::optional<int> offset_minutes;  // absent: no Z / ±hh:mm written
};

// Parses YYYY-MM-DD[(T| )HH:MM[:SS[.f…]]][Z|±HH[:MM]]; nothing else.
std::optional<IsoTime> parse_iso_time(std::string_view text);

// How a column stores timestamps as text, learnt from one stored value.
struct TextTimeFormat {
  bool date_only = false;
  char separator = 'T';
  int fraction_digits = 0;
  std::string suffix;  // "+00:00", "Z" or "" as stored
};

std::optional<TextTimeFormat> detect_text_format(std::string_view sample);

// Whether two stored samples keep times in one text format (so one rewritten
// literal compares right with both); two empty samples (typed columns) do too.
bool same_text_format(std::string_view a, std::string_view b);

// The same instant, in UTC, written in `format`. Empty when `format` cannot
// hold it exactly (a stored format without time of day given a time, or fewer
// fraction digits than the literal carries).
std::string format_utc(const IsoTime& t, const TextTimeFormat& format);

struct TimeLiteralDecision {
  std::optional<std::string> replacement;  // new literal text for text-stored columns
  std::optional<std::string> note;         // e.g. the bare-date reading
};

// Decides for a literal compared with a timestamp column. `sample` is a value
// the column stores (empty when the engine has a real timestamp type). Returns
// a `validation:timestamp-literal` refusal for an offset-less time of day or a
// literal that is not ISO-8601 (unless the column's own text is not ISO either).
Result<TimeLiteralDecision> check_time_literal(std::string_view literal, std::string_view column,
                                               std::string_view sample, int location);

}  // namespace qg::rewrite
