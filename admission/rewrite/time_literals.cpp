#include "admission/rewrite/time_literals.hpp"

#include <cctype>
#include <cstdio>

namespace qg::rewrite {
namespace {

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 (proleptic Gregorian), and back.
long long days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

void civil_from_days(long long z, int& y, int& m, int& d) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

// "HH:MM[:SS[.f]]" and nothing else.
bool time_of_day(std::string_view s) {
  int h = 0, m = 0, sec = 0;
  if (s.size() < 5 || !digits(s, 0, 2, h) || s[2] != ':' || !digits(s, 3, 2, m) || h > 23 || m > 59) return false;
  if (s.size() == 5) return true;
  if (s.size() < 8 || s[5] != ':' || !digits(s, 6, 2, sec) || sec > 59) return false;
  if (s.size() == 8) return true;
  if (s[8] != '.' || s.size() == 9) return false;
  for (std::size_t i = 9; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// The ISO spelling to offer for a literal that is not ISO-8601: the date
// PostgreSQL would read from M/D/YYYY (its default DateStyle is MDY), with the
// time of day kept and Z added; a generic example otherwise.
// `iso` (set when the FIX names one ISO literal): that literal's text.
std::string iso_fix(std::string_view literal, std::optional<std::string>& iso) {
  const std::string generic =
      "FIX: write an ISO-8601 time: a date, '2026-12-08' (read as midnight UTC), or a time with its UTC offset, "
      "'2026-12-08T14:30:00Z'.";
  std::string lower(literal);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view word : {"now", "today", "tomorrow", "yesterday", "infinity", "-infinity", "epoch"})
    if (lower == word)
      return "FIX: write CURRENT_TIMESTAMP or CURRENT_DATE (with + or - INTERVAL '1 day' as needed), or an ISO-8601 "
             "time such as '2026-12-08T14:30:00Z'.";
  if (lower == "null" || lower == "none" || lower.empty())
    return "FIX: to find rows without a time, write the column IS NULL; to compare, write an ISO-8601 time such as "
           "'2026-12-08T14:30:00Z'.";
  if (time_of_day(literal))
    return "FIX: a time of day alone names no instant: write the date, the time and the UTC offset, e.g. "
           "'2026-12-08T" +
           std::string(literal) + "Z'.";
  // M/D/YYYY or MM/DD/YYYY, optionally followed by a space and a time of day.
  const std::size_t first = literal.find('/');
  const std::size_t second = first == std::string_view::npos ? first : literal.find('/', first + 1);
  if (second == std::string_view::npos) return generic;
  int a = 0, b = 0, y = 0;
  const std::size_t space = literal.find(' ', second);
  const std::string_view year =
      literal.substr(second + 1, space == std::string_view::npos ? space : space - second - 1);
  if (first < 1 || first > 2 || second - first - 1 < 1 || second - first - 1 > 2 || year.size() != 4 ||
      !digits(literal, 0, first, a) || !digits(literal, first + 1, second - first - 1, b) || !digits(year, 0, 4, y))
    return generic;
  const bool month_first = a <= 12;  // PostgreSQL's reading; a day-first date can only be 13/..
  // PostgreSQL (DateStyle MDY) rejects 13/01/2026: no rewrite is proposed for a text it would not read.
  if (!month_first)
    return "FIX: write the date in ISO-8601 form, 'YYYY-MM-DD' (PostgreSQL reads a/b/YYYY as month/day, so " +
           std::string(literal.substr(0, second)) + " is not a date there), e.g. '2026-12-08'.";
  const int month = month_first ? a : b, day = month_first ? b : a;
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(y, month)) return generic;
  char date[16];
  std::snprintf(date, sizeof date, "%04d-%02d-%02d", y, month, day);
  std::string fix = "FIX: write the date in ISO form, '" + std::string(date) + "'";
  iso = date;
  if (space != std::string_view::npos) {
    const std::string_view time = literal.substr(space + 1);
    if (!time_of_day(time)) {
      iso.reset();
      return generic;
    }
    iso = std::string(date) + "T" + std::string(time) + "Z";
    fix = "FIX: write the time in ISO form with its UTC offset, '" + *iso + "'";
  }
  if (month_first && b <= 12 && a != b)
    fix += " (PostgreSQL reads " + std::string(literal.substr(0, second)) + " as month/day; if you meant day/month, " +
           "swap them)";
  return fix + ".";
}

}  // namespace

std::optional<IsoTime> parse_iso_time(std::string_view s) {
  IsoTime t;
  if (s.size() < 10 || !digits(s, 0, 4, t.year) || s[4] != '-' || !digits(s, 5, 2, t.month) || s[7] != '-' ||
      !digits(s, 8, 2, t.day))
    return std::nullopt;
  // Year 0000 is no year in PostgreSQL's input ("date/time field value out of range").
  if (t.year < 1 || t.month < 1 || t.month > 12 || t.day < 1 || t.day > days_in_month(t.year, t.month))
    return std::nullopt;
  std::size_t i = 10;
  if (i == s.size()) return t;
  if (s[i] != 'T' && s[i] != 't' && s[i] != ' ') return std::nullopt;
  ++i;
  if (!digits(s, i, 2, t.hour) || i + 2 >= s.size() || s[i + 2] != ':' || !digits(s, i + 3, 2, t.minute))
    return std::nullopt;
  t.has_time = true;
  i += 5;
  if (i < s.size() && s[i] == ':') {
    if (!digits(s, i + 1, 2, t.second)) return std::nullopt;
    i += 3;
    if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
      ++i;
      int scale = 100'000'000;
      const std::size_t start = i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        t.nanos += (s[i] - '0') * scale;
        scale /= 10;
        ++i;
      }
      if (i == start || i - start > 9) return std::nullopt;
    }
  }
  if (t.hour > 23 || t.minute > 59 || t.second > 59) return std::nullopt;
  if (i == s.size()) return t;
  if (s[i] == 'Z' || s[i] == 'z') {
    t.offset_minutes = 0;
    return i + 1 == s.size() ? std::optional<IsoTime>(t) : std::nullopt;
  }
  if (s[i] != '+' && s[i] != '-') return std::nullopt;
  const int sign = s[i] == '-' ? -1 : 1;
  int oh = 0, om = 0;
  if (!digits(s, i + 1, 2, oh)) return std::nullopt;
  std::size_t j = i + 3;
  if (j < s.size() && s[j] == ':') ++j;
  if (j < s.size() && !digits(s, j, 2, om)) return std::nullopt;
  if (j < s.size()) j += 2;
  if (j != s.size() || oh > 23 || om > 59) return std::nullopt;
  t.offset_minutes = sign * (oh * 60 + om);
  return t;
}

std::optional<TextTimeFormat> detect_text_format(std::string_view sample) {
  auto t = parse_iso_time(sample);
  if (!t) return std::nullopt;
  TextTimeFormat f;
  if (!t->has_time) {
    f.date_only = true;
    return f;
  }
  f.separator = sample[10];
  std::size_t i = 16;
  if (i < sample.size() && sample[i] == ':') i += 3;
  if (i < sample.size() && (sample[i] == '.' || sample[i] == ',')) {
    const std::size_t start = ++i;
    while (i < sample.size() && std::isdigit(static_cast<unsigned char>(sample[i]))) ++i;
    f.fraction_digits = static_cast<int>(i - start);
  }
  f.suffix = std::string(sample.substr(i));
  // Only UTC spellings can be rewritten into: other offsets would need per-row conversion.
  if (!f.suffix.empty() && f.suffix != "Z" && f.suffix != "+00:00" && f.suffix != "+0000" && f.suffix != "+00")
    return std::nullopt;
  return f;
}

bool same_text_format(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return a.empty() && b.empty();
  const auto fa = detect_text_format(a), fb = detect_text_format(b);
  return fa && fb && fa->date_only == fb->date_only && fa->separator == fb->separator &&
         fa->fraction_digits == fb->fraction_digits && fa->suffix == fb->suffix;
}

std::string format_utc(const IsoTime& in, const TextTimeFormat& f) {
  // To UTC.
  long long seconds = days_from_civil(in.year, in.month, in.day) * 86400LL + in.hour * 3600LL + in.minute * 60LL +
                      in.second - in.offset_minutes.value_or(0) * 60LL;
  const long long day = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
  seconds -= day * 86400;
  int y, m, d;
  civil_from_days(day, y, m, d);
  char buf[64];
  if (f.date_only) {
    if (in.has_time && (seconds != 0 || in.nanos != 0)) return {};
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, m, d);
    return buf;
  }
  // The literal's fraction must fit the stored precision exactly.
  int scale = 1'000'000'000;
  for (int k = 0; k < f.fraction_digits; ++k) scale /= 10;
  if (in.nanos % scale != 0) return {};
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d%c%02lld:%02lld:%02lld", y, m, d, f.separator, seconds / 3600,
                (seconds / 60) % 60, seconds % 60);
  std::string out = buf;
  if (f.fraction_digits > 0) {
    std::snprintf(buf, sizeof buf, "%09d", in.nanos);
    out += ".";
    out.append(buf, static_cast<std::size_t>(f.fraction_digits));
  }
  out += f.suffix;
  return out;
}

Result<TimeLiteralDecision> check_time_literal(std::string_view literal, std::string_view column,
                                               std::string_view sample, int location) {
  TimeLiteralDecision out;
  auto t = parse_iso_time(literal);
  if (!t) {
    // A column whose stored text is not ISO-8601 compares as that text: leave it.
    if (!sample.empty() && !parse_iso_time(sample)) return out;
    // Otherwise SQLite would compare the text, and PostgreSQL would read it by
    // its DateStyle: neither is what an ISO timestamp means, so it is refused.
    std::optional<std::string> iso;
    std::string fix = iso_fix(literal, iso);
    Error e = make_error(ErrorCode::ValidationTimestampLiteral,
                         "'" + std::string(literal) + "' compared with timestamp column " + std::string(column) +
                             " is not an ISO-8601 time, so the comparison would not be by time",
                         std::move(fix), location >= 0 ? std::optional<int>(location) : std::nullopt);
    if (iso && location >= 0) e.edit = TextEdit{location, -1, "'" + *iso + "'"};  // the literal's end: the caller's
    return e;
  }
  // A column that stores times without an offset holds naive times: a naive
  // literal is read as such a time and written in the column's own format, as
  // the data is ('2024-01-31 10:17:00' and '2024-01-31T12:00:00' compared with
  // stored '2024-01-31 10:17:00.000' as texts; outside tester s18b; below). A literal WITH an offset
  // names an instant, but PostgreSQL's timestamp (without time zone) input
  // drops the offset: converting it would answer another question than
  // PostgreSQL's, comparing it as PostgreSQL does would drop what the caller
  // wrote. Refused, with both readings (outside tester s8, H8).
  // The literal as `time` written in the column's stored format, or refused when the format cannot hold it.
  auto in_stored_format = [&](const IsoTime& time, const TextTimeFormat& format) -> Result<TimeLiteralDecision> {
    std::string rewritten = format_utc(time, format);
    if (rewritten.empty())
      return make_error(ErrorCode::ValidationTimestampLiteral,
                        "'" + std::string(literal) + "' is more precise than " + std::string(column) +
                            " stores (values look like '" + std::string(sample) + "')",
                        // Only the CAST keeps the question: a literal cut to the stored digits moves the bound
                        // (>= '...:59.999' became >= '...:59', one row more; outside tester s21a).
                        "FIX: compare as a time: CAST(" + std::string(column) + " AS " +
                            (format.suffix.empty() ? "timestamp" : "timestamptz") +
                            ") with the literal (the column stores at most " + std::to_string(format.fraction_digits) +
                            " fraction digits" + (format.date_only ? ": dates only" : "") + ").",
                        location >= 0 ? std::optional<int>(location) : std::nullopt);
    if (rewritten != literal) out.replacement = std::move(rewritten);
    return out;
  };
  if (!sample.empty()) {
    auto stored = parse_iso_time(sample);
    // A column of dates: PostgreSQL reads the literal as a date, its time of day and offset dropped
    // ('2024-03-19 00:00:00' and '2024-03-19T22:00:00-05:00' are 2024-03-19; refused as an ambiguous instant
    // before; outside tester s19b).
    if (stored && !stored->has_time) {
      char day[16];
      std::snprintf(day, sizeof day, "%04d-%02d-%02d", t->year, t->month, t->day);
      if (t->has_time)
        out.note = "'" + std::string(literal) + "' compared with the date column " + std::string(column) +
                   " was read as the date " + day + " (PostgreSQL drops the time of day).";
      if (literal != day) out.replacement = day;
      return out;
    }
    if (stored && stored->has_time && !stored->offset_minutes && !t->offset_minutes) {
      const auto format = detect_text_format(sample);
      if (!format) return out;
      IsoTime clock = *t;
      clock.offset_minutes = 0;  // the clock time as written (a bare date: its midnight)
      return in_stored_format(clock, *format);
    }
    if (stored && stored->has_time && !stored->offset_minutes && t->offset_minutes && *t->offset_minutes != 0) {
      IsoTime clock = *t;
      clock.offset_minutes = 0;  // the clock time as written, shifted by nothing
      const auto format = detect_text_format(sample);
      const std::string as_utc = format ? format_utc(*t, *format) : std::string();
      const std::string as_written = format ? format_utc(clock, *format) : std::string();
      return make_error(ErrorCode::ValidationTimestampLiteral,
                        "'" + std::string(literal) + "' has a UTC offset, but " + std::string(column) +
                            " holds times without one (timestamp without time zone): PostgreSQL drops the offset "
                            "and compares the clock time as written",
                        as_utc.empty() ? "FIX: write the time without the offset, as the column holds it."
                                       : "FIX: write the time without the offset, as the column holds it: '" + as_utc +
                                             "' for the instant you wrote, read in UTC, or '" + as_written +
                                             "' for the clock time as written.",
                        location >= 0 ? std::optional<int>(location) : std::nullopt);
    }
  }
  if (t->has_time && !t->offset_minutes) {
    std::string fixed(literal);
    if (fixed.size() > 10 && fixed[10] == ' ') fixed[10] = 'T';
    Error e =
        make_error(ErrorCode::ValidationTimestampLiteral,
                   "'" + std::string(literal) + "' compared with timestamp column " + std::string(column) +
                       " has a time of day but no UTC offset, so its instant is ambiguous",
                   "FIX: write '" + fixed + "Z' for UTC (or add the offset you mean, e.g. '" + fixed + "+02:00').",
                   location >= 0 ? std::optional<int>(location) : std::nullopt);
    if (location >= 0) e.edit = TextEdit{location, -1, "'" + fixed + "Z'"};
    return e;
  }
  if (!t->has_time)
    out.note = "'" + std::string(literal) + "' compared with " + std::string(column) + " was read as " +
               std::string(literal) + "T00:00:00Z (midnight UTC).";
  if (sample.empty()) return out;
  auto format = detect_text_format(sample);
  if (!format) return out;
  IsoTime utc = *t;
  if (!utc.offset_minutes) utc.offset_minutes = 0;  // bare date: midnight UTC
  return in_stored_format(utc, *format);
}

}  // namespace qg::rewrite
