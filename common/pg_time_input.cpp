// PostgreSQL's time constructors (see pg_time_input.hpp). The template reader
// follows PostgreSQL 15's formatting.c (DCH_from_char, from_char_parse_int_len,
// do_to_timestamp) for the patterns it accepts, checked against psql on the
// test cluster (tests/unit/pg_time_input_test.cpp, tests/parity/time_functions.sql).
#include "common/pg_time_input.hpp"

#include <date/date.h>

#include <cctype>
#include <climits>
#include <cmath>
#include <vector>

namespace qg::pgtime {
namespace {

constexpr std::int64_t kMinMicros = -62135596800LL * kMicrosPerSecond;  // 0001-01-01
constexpr std::int64_t kMaxMicros = 253402300800LL * kMicrosPerSecond;  // 10000-01-01

enum class Field : std::uint8_t {
  Year4,
  Year2,
  Month,
  Day,
  Hour24,
  Hour12,
  Minute,
  Second,
  Milli,
  Micro,
  MonthName,
  MonName,
  AmPm,
  AmPmDots
};

struct Keyword {
  std::string_view text;
  Field field;
  int len;  // the width a number is read at before another number (PostgreSQL's)
  bool digits;
};

// PostgreSQL's keywords these patterns could be confused with are listed as unsupported below.
constexpr Keyword kKeywords[] = {
    {"YYYY", Field::Year4, 4, true},       {"yyyy", Field::Year4, 4, true},       {"YY", Field::Year2, 2, true},
    {"yy", Field::Year2, 2, true},         {"MM", Field::Month, 2, true},         {"mm", Field::Month, 2, true},
    {"DD", Field::Day, 2, true},           {"dd", Field::Day, 2, true},           {"HH24", Field::Hour24, 2, true},
    {"hh24", Field::Hour24, 2, true},      {"HH12", Field::Hour12, 2, true},      {"hh12", Field::Hour12, 2, true},
    {"HH", Field::Hour12, 2, true},        {"hh", Field::Hour12, 2, true},        {"MI", Field::Minute, 2, true},
    {"mi", Field::Minute, 2, true},        {"SS", Field::Second, 2, true},        {"ss", Field::Second, 2, true},
    {"MS", Field::Milli, 3, true},         {"ms", Field::Milli, 3, true},         {"US", Field::Micro, 6, true},
    {"us", Field::Micro, 6, true},         {"MONTH", Field::MonthName, 0, false}, {"Month", Field::MonthName, 0, false},
    {"month", Field::MonthName, 0, false}, {"MON", Field::MonName, 0, false},     {"Mon", Field::MonName, 0, false},
    {"mon", Field::MonName, 0, false},     {"AM", Field::AmPm, 0, false},         {"PM", Field::AmPm, 0, false},
    {"am", Field::AmPm, 0, false},         {"pm", Field::AmPm, 0, false},         {"A.M.", Field::AmPmDots, 0, false},
    {"P.M.", Field::AmPmDots, 0, false},   {"a.m.", Field::AmPmDots, 0, false},   {"p.m.", Field::AmPmDots, 0, false},
};
// Longer PostgreSQL keywords that begin like an accepted one: refused, never read as two patterns.
constexpr std::string_view kLonger[] = {"YYYYY", "yyyyy", "YYY", "yyy", "DDD", "ddd", "SSSS", "ssss", "MMM"};

struct Node {
  enum Type : std::uint8_t { Action, Space, Separator, Char } type = Char;
  const Keyword* key = nullptr;
  bool fill = false;  // FM
};

bool separator_char(char c) {
  return c > 0x20 && c < 0x7F && !std::isalpha(static_cast<unsigned char>(c)) &&
         !std::isdigit(static_cast<unsigned char>(c));
}

const Keyword* match(std::string_view rest) {
  const Keyword* best = nullptr;
  for (const auto& k : kKeywords)
    if (rest.starts_with(k.text) && (!best || k.text.size() > best->text.size())) best = &k;
  return best;
}

// Splits a template; false with the first pattern not read here in `bad`.
bool parse_format(std::string_view f, std::vector<Node>& out, std::string& bad) {
  std::size_t i = 0;
  bool fill = false;
  while (i < f.size()) {
    const std::string_view rest = f.substr(i);
    if (rest.starts_with("FM") || rest.starts_with("fm")) {
      fill = true;
      i += 2;
      continue;
    }
    const Keyword* k = match(rest);
    for (const auto longer : kLonger)
      if (rest.starts_with(longer) && (!k || longer.size() > k->text.size())) {
        bad = std::string(longer);
        return false;
      }
    if (k) {
      out.push_back({Node::Action, k, fill});
      fill = false;
      i += k->text.size();
      continue;
    }
    if (fill) {
      bad = "FM before " + std::string(1, f[i]);
      return false;
    }
    if (f[i] == '"') {
      ++i;
      while (i < f.size() && f[i] != '"') {
        if (f[i] == '\\') {
          bad = "\\";
          return false;
        }
        if (static_cast<unsigned char>(f[i]) >= 0x80 || std::isdigit(static_cast<unsigned char>(f[i]))) {
          bad = std::string(1, f[i]);
          return false;
        }
        out.push_back({Node::Char});
        ++i;
      }
      if (i >= f.size()) {
        bad = "an unterminated \"";
        return false;
      }
      ++i;
      continue;
    }
    const char c = f[i];
    // A digit in the template would change how the field before it is read: refused.
    if (std::isalpha(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '\\' ||
        static_cast<unsigned char>(c) >= 0x80) {
      std::size_t n = 1;
      while (i + n < f.size() && std::isalpha(static_cast<unsigned char>(f[i + n])) && n < 5) ++n;
      bad = std::string(f.substr(i, c == '\\' ? 1 : n));
      return false;
    }
    out.push_back({std::isspace(static_cast<unsigned char>(c)) ? Node::Space
                   : separator_char(c)                         ? Node::Separator
                                                               : Node::Char});
    ++i;
  }
  return true;
}

// is_next_separator(): a number is read greedily unless the next node reads digits.
bool next_is_separator(const std::vector<Node>& nodes, std::size_t i) {
  if (i + 1 >= nodes.size()) return true;
  const Node& n = nodes[i + 1];
  if (n.type == Node::Action) return !n.key->digits;
  return true;  // a template character is never a digit here (parse_format refuses them)
}

// strtol() over [p, end): blanks, a sign, digits. Returns the end of what it read (p when no digit).
const char* read_long(const char* p, const char* end, long long& value, bool& overflow) {
  const char* start = p;
  while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
  bool negative = false;
  if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  const char* digits = p;
  long long v = 0;
  overflow = false;
  while (p < end && std::isdigit(static_cast<unsigned char>(*p))) {
    if (v > (LLONG_MAX - 9) / 10)
      overflow = true;
    else
      v = v * 10 + (*p - '0');
    ++p;
  }
  if (p == digits) return start;
  value = negative ? -v : v;
  return p;
}

struct Fields {
  long long year = 0, mm = 0, dd = 0, hh = 0, mi = 0, ss = 0, ms = 0, us = 0, pm = 0;
  bool clock12 = false;
};

bool set_field(long long& dest, long long value, const Node& n, std::string& error) {
  if (dest != 0 && dest != value) {
    error = "conflicting values for \"" + std::string(n.key->text) + "\" field in formatting string";
    return false;
  }
  dest = value;
  return true;
}

constexpr std::string_view kMonthsFull[] = {"January", "February", "March",     "April",   "May",      "June",
                                            "July",    "August",   "September", "October", "November", "December"};
constexpr std::string_view kMonthsShort[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                             "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// seq_search_ascii(): the first name in the list the input begins with, case-insensitively.
int seq_search(std::string_view in, const std::string_view* names, std::size_t count, std::size_t& len) {
  for (std::size_t k = 0; k < count; ++k) {
    const auto name = names[k];
    if (in.size() < name.size()) continue;
    bool same = true;
    for (std::size_t j = 0; j < name.size() && same; ++j)
      same = std::tolower(static_cast<unsigned char>(in[j])) == std::tolower(static_cast<unsigned char>(name[j]));
    if (same) {
      len = name.size();
      return static_cast<int>(k);
    }
  }
  return -1;
}

bool in_range(std::int64_t micros, std::string& error) {
  if (micros >= kMinMicros && micros < kMaxMicros) return true;
  error = "timestamp out of range (querygate translates the years 1 to 9999 on this backend)";
  return false;
}

std::int64_t day_micros(int y, unsigned m, unsigned d) {
  const auto days = date::sys_days(date::year{y} / date::month{m} / date::day{d}).time_since_epoch().count();
  return static_cast<std::int64_t>(days) * kMicrosPerDay;
}

bool leap(long long y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int month_days(long long y, long long m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : kDays[m - 1];
}

}  // namespace

bool from_epoch(double seconds, Value& out, std::string& error) {
  if (std::isnan(seconds)) {
    error = "timestamp cannot be NaN";
    return false;
  }
  // PostgreSQL: out of range before 4714-11-24 BC or from 294277-01-01; querygate's range is narrower.
  constexpr double kPgEpoch = 946684800.0;  // 2000-01-01 in Unix seconds
  if (!std::isfinite(seconds) || seconds < -210866803200.0 || seconds >= 9224318016000.0) {
    error = "timestamp out of range";
    return false;
  }
  const double shifted = std::rint((seconds - kPgEpoch) * 1e6);
  out.kind = Kind::Timestamptz;
  out.micros = static_cast<std::int64_t>(shifted) + static_cast<std::int64_t>(kPgEpoch) * kMicrosPerSecond;
  return in_range(out.micros, error);
}

std::string unsupported_input_pattern(std::string_view format) {
  std::vector<Node> nodes;
  std::string bad;
  return parse_format(format, nodes, bad) ? std::string() : bad;
}

bool input_pattern_has_year(std::string_view format) {
  std::vector<Node> nodes;
  std::string bad;
  if (!parse_format(format, nodes, bad)) return false;
  for (const auto& n : nodes)
    if (n.type == Node::Action && (n.key->field == Field::Year4 || n.key->field == Field::Year2)) return true;
  return false;
}

bool from_template(std::string_view input, std::string_view format, Kind as, Value& out, std::string& error) {
  std::vector<Node> nodes;
  std::string bad;
  if (!parse_format(format, nodes, bad)) {
    error = "querygate: the template pattern " + bad + " is not translated on this backend";
    return false;
  }
  const std::string in(input);  // NUL-terminated, as PostgreSQL reads it
  const char* s = in.c_str();
  const char* const end = s + in.size();
  Fields t;
  long long extra_skip = 0;
  auto value_error = [&](const Node& n, const char* at, std::string_view why) {
    error = "invalid value \"" + std::string(at, std::min<std::size_t>(end - at, n.key->text.size())) + "\" for \"" +
            std::string(n.key->text) + "\" (" + std::string(why) + ")";
    return false;
  };
  for (std::size_t i = 0; i < nodes.size() && s < end; ++i) {
    const Node& n = nodes[i];
    if (n.type == Node::Action || i == 0)
      while (s < end && std::isspace(static_cast<unsigned char>(*s))) {
        ++s;
        ++extra_skip;
      }
    if (n.type == Node::Space || n.type == Node::Separator) {
      --extra_skip;
      if (s < end && (std::isspace(static_cast<unsigned char>(*s)) || separator_char(*s))) {
        ++s;
        ++extra_skip;
      }
      continue;
    }
    if (n.type == Node::Char) {
      if (extra_skip > 0) {
        --extra_skip;
      } else {
        if (static_cast<unsigned char>(*s) >= 0x80) {
          error = "querygate: a non-ASCII character where the template has text is not translated on this backend";
          return false;
        }
        ++s;
      }
      continue;
    }
    const Keyword& k = *n.key;
    if (k.digits) {
      // from_char_parse_int_len()
      const char* init = s;
      while (s < end && std::isspace(static_cast<unsigned char>(*s))) ++s;
      long long value = 0;
      bool overflow = false;
      if (n.fill || next_is_separator(nodes, i)) {
        s = read_long(init, end, value, overflow);
      } else {
        if (end - s < k.len) {
          error = "source string too short for \"" + std::string(k.text) + "\" formatting field";
          return false;
        }
        const char* last = read_long(s, s + k.len, value, overflow);
        const long used = last - s;
        if (used > 0 && used < k.len) return value_error(n, s, "the field requires more characters");
        s += used;
      }
      if (s == init) return value_error(n, init, "value must be an integer");
      if (overflow || value < INT_MIN || value > INT_MAX) {
        error = "value for \"" + std::string(k.text) + "\" in source string is out of range";
        return false;
      }
      const long long len = s - init;
      bool ok = true;
      switch (k.field) {
        case Field::Year4:
          ok = set_field(t.year, value, n, error);
          break;
        case Field::Year2: {
          long long y = value;
          if (len < 4) y = y < 70 ? y + 2000 : y < 100 ? y + 1900 : y < 520 ? y + 2000 : y < 1000 ? y + 1000 : y;
          ok = set_field(t.year, y, n, error);
          break;
        }
        case Field::Month:
          ok = set_field(t.mm, value, n, error);
          break;
        case Field::Day:
          ok = set_field(t.dd, value, n, error);
          break;
        case Field::Hour24:
          ok = set_field(t.hh, value, n, error);
          break;
        case Field::Hour12:
          ok = set_field(t.hh, value, n, error);
          t.clock12 = true;
          break;
        case Field::Minute:
          ok = set_field(t.mi, value, n, error);
          break;
        case Field::Second:
          ok = set_field(t.ss, value, n, error);
          break;
        case Field::Milli:
          ok = set_field(t.ms, value, n, error);
          t.ms *= len == 1 ? 100 : len == 2 ? 10 : 1;
          break;
        case Field::Micro:
          ok = set_field(t.us, value, n, error);
          t.us *= len == 1 ? 100000 : len == 2 ? 10000 : len == 3 ? 1000 : len == 4 ? 100 : len == 5 ? 10 : 1;
          break;
        default:
          break;
      }
      if (!ok) return false;
    } else {
      std::size_t len = 0;
      const std::string_view rest(s, end - s);
      int found = -1;
      if (k.field == Field::MonthName || k.field == Field::MonName) {
        found = k.field == Field::MonthName ? seq_search(rest, kMonthsFull, 12, len)
                                            : seq_search(rest, kMonthsShort, 12, len);
        if (found < 0) return value_error(n, s, "the value must be one of the month names");
        if (!set_field(t.mm, found + 1, n, error)) return false;
      } else {
        static constexpr std::string_view kAmPm[] = {"am", "pm", "AM", "PM"};
        static constexpr std::string_view kAmPmDots[] = {"a.m.", "p.m.", "A.M.", "P.M."};
        found = seq_search(rest, k.field == Field::AmPm ? kAmPm : kAmPmDots, 4, len);
        if (found < 0) return value_error(n, s, "the value must be one of AM or PM");
        if (!set_field(t.pm, found % 2, n, error)) return false;
        t.clock12 = true;
      }
      s += len;
    }
    extra_skip = 0;
    while (s < end && std::isspace(static_cast<unsigned char>(*s))) {
      ++s;
      ++extra_skip;
    }
  }
  // do_to_timestamp(): unset fields (zero) keep their defaults; year 0 is 1 BC.
  const std::string quoted = "\"" + std::string(input) + "\"";
  long long hour = t.hh;
  if (t.clock12) {
    if (hour < 1 || hour > 12) {
      error = "hour \"" + std::to_string(hour) + "\" is invalid for the 12-hour clock";
      return false;
    }
    if (t.pm && hour < 12)
      hour += 12;
    else if (!t.pm && hour == 12)
      hour = 0;
  }
  if (t.year < 1) {
    error = "querygate: a year before 1 AD is not translated on this backend (" + quoted + ")";
    return false;
  }
  const long long month = t.mm ? t.mm : 1, day = t.dd ? t.dd : 1;
  if ((t.mm && (month < 1 || month > 12)) || (t.dd && (day < 1 || day > 31)) ||
      (t.mm && t.dd && day > month_days(t.year, month))) {
    error = "date/time field value out of range: " + quoted;
    return false;
  }
  const long long fsec = t.ms * 1000 + t.us;
  if (hour < 0 || hour >= 24 || t.mi < 0 || t.mi >= 60 || t.ss < 0 || t.ss >= 60 || fsec < 0 || fsec >= 1000000) {
    error = "date/time field value out of range: " + quoted;
    return false;
  }
  if (t.year > 9999) {
    error = "timestamp out of range (querygate translates the years 1 to 9999 on this backend)";
    return false;
  }
  const std::int64_t midnight =
      day_micros(static_cast<int>(t.year), static_cast<unsigned>(month), static_cast<unsigned>(day));
  out.kind = as;
  out.micros = as == Kind::Date ? midnight : midnight + ((hour * 60 + t.mi) * 60 + t.ss) * kMicrosPerSecond + fsec;
  return in_range(out.micros, error);
}

bool make_date(long long year, long long month, long long day, Value& out, std::string& error) {
  if (year == 0 || month < 1 || month > 12 || day < 1 || day > 31 || (year > 0 && day > month_days(year, month))) {
    error = "date field value out of range: " + std::to_string(year) + "-" + (month < 10 ? "0" : "") +
            std::to_string(month) + "-" + (day < 10 ? "0" : "") + std::to_string(day);
    return false;
  }
  if (year < 1 || year > 9999) {
    error = "date out of range (querygate translates the years 1 to 9999 on this backend)";
    return false;
  }
  out.kind = Kind::Date;
  out.micros = day_micros(static_cast<int>(year), static_cast<unsigned>(month), static_cast<unsigned>(day));
  return true;
}

}  // namespace qg::pgtime
