#include "common/pg_time.hpp"

#include <date/date.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace qg::pgtime {
namespace {

constexpr std::int64_t kMicrosPerHour = 3600 * kMicrosPerSecond;
constexpr std::int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t days_from_civil(int y, int m, int d) {
  return date::sys_days{date::year{y} / date::month{static_cast<unsigned>(m)} / date::day{static_cast<unsigned>(d)}}
      .time_since_epoch()
      .count();
}

struct Civil {
  int year = 0, month = 0, day = 0;
  int hour = 0, minute = 0, second = 0;
  int fsec = 0;  // microseconds
  std::int64_t days = 0;
};

Civil civil(std::int64_t micros) {
  Civil c;
  c.days = floor_div(micros, kMicrosPerDay);
  std::int64_t tod = micros - c.days * kMicrosPerDay;
  const date::year_month_day ymd{date::sys_days{date::days{c.days}}};
  c.year = static_cast<int>(ymd.year());
  c.month = static_cast<int>(static_cast<unsigned>(ymd.month()));
  c.day = static_cast<int>(static_cast<unsigned>(ymd.day()));
  c.hour = static_cast<int>(tod / kMicrosPerHour);
  tod %= kMicrosPerHour;
  c.minute = static_cast<int>(tod / kMicrosPerMinute);
  tod %= kMicrosPerMinute;
  c.second = static_cast<int>(tod / kMicrosPerSecond);
  c.fsec = static_cast<int>(tod % kMicrosPerSecond);
  return c;
}

// A time of day's clock: 00:00:00 to 24:00:00, which PostgreSQL's time holds (TIME '24:00' is not midnight, it is
// the end of the day: printed 24:00:00, its hour 24, greater than 23:59:59).
Civil clock_of(std::int64_t micros) {
  Civil c = civil(micros);
  if (micros == kMicrosPerDay) c.hour = 24;
  return c;
}

int days_in_month(int y, int m) {
  return static_cast<int>(
      static_cast<unsigned>((date::year{y} / date::month{static_cast<unsigned>(m)} / date::last).day()));
}

// 0 = Sunday … 6 = Saturday.
int day_of_week(std::int64_t days) {
  return static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday (4)
}

int day_of_year(const Civil& c) {
  return static_cast<int>(c.days - days_from_civil(c.year, 1, 1)) + 1;
}

// ISO 8601 week number and year: the week of the Thursday of the date's week.
void iso_week(std::int64_t days, int& week, int& year) {
  const int isodow = day_of_week(days) == 0 ? 7 : day_of_week(days);
  const std::int64_t thursday = days + (4 - isodow);
  const Civil t = civil(thursday * kMicrosPerDay);
  year = t.year;
  week = static_cast<int>((thursday - days_from_civil(t.year, 1, 1)) / 7) + 1;
}

constexpr std::int64_t kMinMicros = -62135596800LL * kMicrosPerSecond;  // 0001-01-01
constexpr std::int64_t kMaxMicros = 253402300800LL * kMicrosPerSecond;  // 10000-01-01

bool in_range(std::int64_t micros, std::string& error) {
  if (micros >= kMinMicros && micros < kMaxMicros) return true;
  error = "timestamp out of range (querygate translates the years 1 to 9999 on this backend)";
  return false;
}

std::string fraction(int fsec) {
  if (fsec == 0) return {};
  char buf[16];
  std::snprintf(buf, sizeof buf, ".%06d", fsec);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  return s;
}

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

// "HH:MM[:SS[.f…]]" from `i`; the microseconds of the day. A fraction beyond
// microseconds is rounded, as PostgreSQL does.
bool clock(std::string_view s, std::size_t& i, std::int64_t& micros) {
  int h = 0, m = 0, sec = 0;
  if (!digits(s, i, 2, h) || i + 2 >= s.size() || s[i + 2] != ':' || !digits(s, i + 3, 2, m)) return false;
  i += 5;
  if (i < s.size() && s[i] == ':') {
    if (!digits(s, i + 1, 2, sec)) return false;
    i += 3;
  }
  double frac = 0;
  if (i < s.size() && s[i] == '.') {
    // As PostgreSQL reads it: strtod of the fraction's text, then rint of its microseconds ('.0000005' is 0 µs,
    // '.1234565' 123456 µs: the double just below the half; summing digit by digit rounded up; outside tester s19c).
    const std::size_t start = i++;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start + 1) return false;
    const std::string text = "0" + std::string(s.substr(start, i - start));
    frac = std::strtod(text.c_str(), nullptr);
  }
  if (m > 59 || sec > 59 || h > 24 || (h == 24 && (m > 0 || sec > 0 || frac > 0))) return false;
  micros = (h * 3600LL + m * 60LL + sec) * kMicrosPerSecond + static_cast<std::int64_t>(std::rint(frac * 1e6));
  return true;
}

// [Z | ±HH[:MM] | ±HHMM] from `i`; minutes east of UTC.
bool offset(std::string_view s, std::size_t& i, std::optional<int>& minutes) {
  if (i == s.size()) return true;
  if (s[i] == 'Z' || s[i] == 'z') {
    minutes = 0;
    ++i;
    return true;
  }
  if (s[i] != '+' && s[i] != '-') return false;
  const int sign = s[i] == '-' ? -1 : 1;
  int oh = 0, om = 0;
  if (!digits(s, i + 1, 2, oh)) return false;
  i += 3;
  if (i < s.size() && s[i] == ':') {
    if (!digits(s, i + 1, 2, om)) return false;
    i += 3;
  } else if (i + 2 <= s.size() && digits(s, i, 2, om)) {
    i += 2;
  }
  if (oh > 15 || om > 59) return false;
  minutes = sign * (oh * 60 + om);
  return true;
}

bool invalid(std::string_view text, Kind as, std::string& error) {
  error = "invalid input syntax for type " + std::string(type_words(as)) + ": \"" + std::string(text) + "\"";
  return false;
}

// ---- intervals

struct Unit {
  std::string_view name;
  enum Kind : std::uint8_t { Micro, Milli, Second, Minute, Hour, Day, Week, Month, Year, Decade, Century, Millennium };
  Kind kind;
};

constexpr std::array kUnits{
    Unit{"microsecond", Unit::Micro},
    Unit{"microseconds", Unit::Micro},
    Unit{"usec", Unit::Micro},
    Unit{"usecs", Unit::Micro},
    Unit{"us", Unit::Micro},
    Unit{"usecond", Unit::Micro},
    Unit{"useconds", Unit::Micro},
    Unit{"millisecond", Unit::Milli},
    Unit{"milliseconds", Unit::Milli},
    Unit{"msec", Unit::Milli},
    Unit{"msecs", Unit::Milli},
    Unit{"ms", Unit::Milli},
    Unit{"msecond", Unit::Milli},
    Unit{"mseconds", Unit::Milli},
    Unit{"second", Unit::Second},
    Unit{"seconds", Unit::Second},
    Unit{"sec", Unit::Second},
    Unit{"secs", Unit::Second},
    Unit{"s", Unit::Second},
    Unit{"minute", Unit::Minute},
    Unit{"minutes", Unit::Minute},
    Unit{"min", Unit::Minute},
    Unit{"mins", Unit::Minute},
    Unit{"m", Unit::Minute},
    Unit{"hour", Unit::Hour},
    Unit{"hours", Unit::Hour},
    Unit{"hr", Unit::Hour},
    Unit{"hrs", Unit::Hour},
    Unit{"h", Unit::Hour},
    Unit{"day", Unit::Day},
    Unit{"days", Unit::Day},
    Unit{"d", Unit::Day},
    Unit{"week", Unit::Week},
    Unit{"weeks", Unit::Week},
    Unit{"w", Unit::Week},
    Unit{"month", Unit::Month},
    Unit{"months", Unit::Month},
    Unit{"mon", Unit::Month},
    Unit{"mons", Unit::Month},
    Unit{"year", Unit::Year},
    Unit{"years", Unit::Year},
    Unit{"yr", Unit::Year},
    Unit{"yrs", Unit::Year},
    Unit{"y", Unit::Year},
    Unit{"decade", Unit::Decade},
    Unit{"decades", Unit::Decade},
    Unit{"dec", Unit::Decade},
    Unit{"decs", Unit::Decade},
    Unit{"century", Unit::Century},
    Unit{"centuries", Unit::Century},
    Unit{"c", Unit::Century},
    Unit{"cent", Unit::Century},
    Unit{"millennium", Unit::Millennium},
    Unit{"millennia", Unit::Millennium},
    Unit{"mil", Unit::Millennium},
    Unit{"mils", Unit::Millennium},
};

bool fits32(double v) {
  return v >= INT_MIN && v <= INT_MAX;
}

double ts_round(double j) {
  return std::rint(j * 1e6) / 1e6;
}

}  // namespace

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Timestamptz:
      return "timestamptz";
    case Kind::Timestamp:
      return "timestamp";
    case Kind::Date:
      return "date";
    case Kind::Time:
      return "time";
    case Kind::Interval:
      return "interval";
  }
  return "timestamptz";
}

std::optional<Kind> kind_from_name(std::string_view name) {
  for (Kind k : {Kind::Timestamptz, Kind::Timestamp, Kind::Date, Kind::Time, Kind::Interval})
    if (kind_name(k) == name) return k;
  return std::nullopt;
}

std::string_view type_words(Kind k) {
  switch (k) {
    case Kind::Timestamptz:
      return "timestamp with time zone";
    case Kind::Timestamp:
      return "timestamp without time zone";
    case Kind::Date:
      return "date";
    case Kind::Time:
      return "time without time zone";
    case Kind::Interval:
      return "interval";
  }
  return "timestamp with time zone";
}

bool parse_interval(std::string_view text, Interval& out, std::string& error) {
  const std::string_view s = trim(text);
  out = {};
  auto bad = [&](std::string why) {
    error = "invalid input syntax for type interval: \"" + std::string(text) + "\"" + why;
    return false;
  };
  std::size_t i = 0;
  if (i < s.size() && s[i] == '@') ++i;
  bool any = false, ago = false;
  // The fields given so far, a bit per Unit::Kind: PostgreSQL's DecodeInterval refuses a field given twice
  // ('1 day 1 day', '1 hour + 1 hour'); a clock gives hours, minutes and seconds, a fraction of a second all three
  // second fields.
  unsigned seen = 0;
  const auto bit = [](Unit::Kind k) { return 1u << static_cast<unsigned>(k); };
  const unsigned all_seconds = bit(Unit::Second) | bit(Unit::Milli) | bit(Unit::Micro);
  const auto field = [&](unsigned bits) {
    const bool again = (seen & bits) != 0;
    seen |= bits;
    return !again;
  };
  // Microseconds as PostgreSQL's DecodeInterval adds them: a field's whole part times its unit exactly, its
  // fraction (strtod of the digits after the point) times the unit rounded to the microsecond, a half towards
  // zero (AdjustFractMicroseconds: '1.5 microseconds' is 1, '2.7 microseconds' 3); a clock's fraction of a
  // second rint'ed (ParseFractionalSecond: '00:00:00.0000015' is 2).
  std::int64_t micros = 0, months = 0, days = 0;
  bool overflow = false;
  const auto add = [&](std::int64_t v) { overflow = __builtin_add_overflow(micros, v, &micros) || overflow; };
  const auto add_fraction = [&](double frac, std::int64_t scale) {
    if (frac == 0) return;
    frac *= static_cast<double>(scale);
    auto usec = static_cast<std::int64_t>(frac);
    frac -= static_cast<double>(usec);
    if (frac > 0.5)
      ++usec;
    else if (frac < -0.5)
      --usec;
    add(usec);
  };
  const auto add_field = [&](std::int64_t whole, double frac, std::int64_t scale) {
    std::int64_t product = 0;
    overflow = __builtin_mul_overflow(whole, scale, &product) || overflow;
    add(product);
    add_fraction(frac, scale);
  };
  // The fraction written from s[dot] ('.' then digits; j moved past them), as strtod reads it.
  const auto fraction_at = [&](std::size_t& j) {
    const std::size_t dot = j++;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    return std::strtod(std::string(s.substr(dot, j - dot)).c_str(), nullptr);
  };
  constexpr std::int64_t kSecond = 1'000'000, kDay = 86'400 * kSecond;
  while (true) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i == s.size()) break;
    if (ago) return bad("");
    // "ago" ends the text.
    if (std::isalpha(static_cast<unsigned char>(s[i]))) {
      std::size_t j = i;
      while (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j]))) ++j;
      if (lower(s.substr(i, j - i)) == "ago" && any) {
        ago = true;
        i = j;
        continue;
      }
      return bad("");
    }
    int sign = 1;
    std::size_t j = i;
    if (s[j] == '+' || s[j] == '-') {
      sign = s[j] == '-' ? -1 : 1, ++j;
      // PostgreSQL's ParseDateTime soaks up the spaces after a sign: '1 month - 1 day' is 1 mon -1 days.
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    }
    const std::size_t start = j;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == start && !(j < s.size() && s[j] == '.')) return bad("");
    // A clock: [-]H+:MM[:SS[.f]].
    if (j < s.size() && s[j] == ':') {
      const std::string_view whole = s.substr(start, j - start);
      if (whole.empty() || whole.size() > 9) return bad("");
      const std::int64_t h = std::stoll(std::string(whole));
      int m = 0, sec = 0;
      if (!digits(s, j + 1, 2, m) || m > 59) return bad("");
      j += 3;
      double frac = 0;
      if (j < s.size() && s[j] == ':') {
        if (!digits(s, j + 1, 2, sec) || sec > 59) return bad("");
        j += 3;
        if (j < s.size() && s[j] == '.') frac = fraction_at(j);
      }
      add_field(sign * (h * 3600 + m * 60 + sec), 0, kSecond);
      add(sign * static_cast<std::int64_t>(std::rint(frac * 1e6)));
      if (!field(bit(Unit::Hour) | bit(Unit::Minute) | all_seconds)) return bad("");
      i = j;
      any = true;
      continue;
    }
    std::int64_t integer = 0;
    double frac = 0;
    {
      const std::string_view ip = s.substr(start, j - start);
      if (ip.size() > 12) return bad("");
      integer = ip.empty() ? 0 : std::stoll(std::string(ip));
      if (j < s.size() && s[j] == '.') frac = fraction_at(j);
    }
    const std::int64_t whole = sign * integer;
    const double part = sign * frac;
    while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    std::size_t k = j;
    while (k < s.size() && std::isalpha(static_cast<unsigned char>(s[k]))) ++k;
    const std::string unit_word = lower(s.substr(j, k - j));
    if (unit_word.empty() || unit_word == "ago") {
      // A bare number is seconds.
      if (!field(frac != 0 ? all_seconds : bit(Unit::Second))) return bad("");
      add_field(whole, part, kSecond);
      i = j;
      any = true;
      continue;
    }
    const auto unit = std::find_if(kUnits.begin(), kUnits.end(), [&](const Unit& u) { return u.name == unit_word; });
    if (unit == kUnits.end()) return bad("");
    if (!field(unit->kind == Unit::Second && frac != 0 ? all_seconds : bit(unit->kind))) return bad("");
    switch (unit->kind) {
      case Unit::Micro:
        add_field(whole, part, 1);
        break;
      case Unit::Milli:
        add_field(whole, part, 1000);
        break;
      case Unit::Second:
        add_field(whole, part, kSecond);
        break;
      case Unit::Minute:
        add_field(whole, part, 60 * kSecond);
        break;
      case Unit::Hour:
        add_field(whole, part, 3600 * kSecond);
        break;
      case Unit::Day:
        days += whole;
        add_fraction(part, kDay);
        break;
      case Unit::Week: {
        days += whole * 7;
        const double extra = part * 7;
        days += static_cast<std::int64_t>(extra);
        add_fraction(extra - static_cast<double>(static_cast<std::int64_t>(extra)), kDay);
        break;
      }
      case Unit::Month:
      case Unit::Year:
      case Unit::Decade:
      case Unit::Century:
      case Unit::Millennium: {
        if (frac != 0)
          return bad(
              " (querygate reads fractions of months and years only on PostgreSQL: write whole months, "
              "e.g. '1 year 6 months', or days)");
        const std::int64_t per = unit->kind == Unit::Month     ? 1
                                 : unit->kind == Unit::Year    ? 12
                                 : unit->kind == Unit::Decade  ? 120
                                 : unit->kind == Unit::Century ? 1200
                                                               : 12000;
        months += sign * integer * per;
        break;
      }
    }
    i = k;
    any = true;
  }
  if (!any) return bad("");
  if (ago) micros = -micros, days = -days, months = -months;
  if (overflow || !fits32(static_cast<double>(months)) || !fits32(static_cast<double>(days))) {
    error = "interval out of range";
    return false;
  }
  out.months = static_cast<std::int32_t>(months);
  out.days = static_cast<std::int32_t>(days);
  out.micros = micros;
  return true;
}

bool parse(std::string_view text, Kind as, Value& out, std::string& error) {
  out = Value{};
  out.kind = as;
  if (as == Kind::Interval) return parse_interval(text, out.interval, error);
  const std::string_view s = trim(text);
  if (as == Kind::Time) {
    std::size_t i = 0;
    if (s.size() >= 5 && s[2] == ':') {
      std::int64_t micros = 0;
      std::optional<int> ignored;
      if (!clock(s, i, micros) || !offset(s, i, ignored) || i != s.size()) return invalid(text, as, error);
      out.micros = micros;
      return true;
    }
    Value ts;
    if (!parse(s, Kind::Timestamp, ts, error)) return invalid(text, as, error);
    out.micros = ts.micros - floor_div(ts.micros, kMicrosPerDay) * kMicrosPerDay;
    return true;
  }
  int y = 0, m = 0, d = 0;
  if (s.size() < 10 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, m) || s[7] != '-' || !digits(s, 8, 2, d))
    return invalid(text, as, error);
  if (m < 1 || m > 12 || d < 1 || d > days_in_month(y, m) || y < 1) {
    error = "date/time field value out of range: \"" + std::string(text) + "\"";
    return false;
  }
  std::size_t i = 10;
  std::int64_t tod = 0;
  std::optional<int> minutes;
  if (i < s.size() && (s[i] == 'T' || s[i] == 't' || s[i] == ' ')) {
    ++i;
    if (!clock(s, i, tod)) return invalid(text, as, error);
  }
  if (i < s.size() && s[i] == ' ') ++i;  // '2026-01-01 10:00 +02'
  if (!offset(s, i, minutes) || i != s.size()) return invalid(text, as, error);
  std::int64_t micros = days_from_civil(y, m, d) * kMicrosPerDay + tod;
  if (as == Kind::Timestamptz && minutes) micros -= *minutes * kMicrosPerMinute;
  if (as == Kind::Date) micros = floor_div(micros, kMicrosPerDay) * kMicrosPerDay;
  if (!in_range(micros, error)) return false;
  out.micros = micros;
  return true;
}

std::string format_interval(const Interval& iv) {
  // PostgreSQL's EncodeInterval, IntervalStyle postgres.
  const int year = iv.months / 12, mon = iv.months % 12, mday = iv.days;
  std::int64_t time = iv.micros;
  const std::int64_t hour = time / kMicrosPerHour;
  time -= hour * kMicrosPerHour;
  const std::int64_t min = time / kMicrosPerMinute;
  time -= min * kMicrosPerMinute;
  const std::int64_t sec = time / kMicrosPerSecond;
  const std::int64_t fsec = time - sec * kMicrosPerSecond;
  std::string out;
  bool is_zero = true, is_before = false;
  auto part = [&](std::int64_t value, std::string_view units) {
    if (value == 0) return;
    out += (!is_zero ? " " : "");
    out += (is_before && value > 0) ? "+" : "";
    out += std::to_string(value) + " " + std::string(units) + (value != 1 ? "s" : "");
    is_before = value < 0;
    is_zero = false;
  };
  part(year, "year");
  part(mon, "mon");
  part(mday, "day");
  if (is_zero || hour != 0 || min != 0 || sec != 0 || fsec != 0) {
    const bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s%02lld:%02lld:%02lld", is_zero ? "" : " ", minus ? "-" : (is_before ? "+" : ""),
                  static_cast<long long>(std::llabs(hour)), static_cast<long long>(std::llabs(min)),
                  static_cast<long long>(std::llabs(sec)));
    out += buf;
    out += fraction(static_cast<int>(std::llabs(fsec)));
  }
  return out;
}

bool format(const Value& v, std::string& out, std::string& error, bool text_form) {
  if (v.kind == Kind::Interval) {
    out = format_interval(v.interval);
    return true;
  }
  char buf[64];
  if (v.kind == Kind::Time) {
    const Civil c = clock_of(v.micros);
    std::snprintf(buf, sizeof buf, "%02d:%02d:%02d", c.hour, c.minute, c.second);
    out = buf + fraction(c.fsec);
    return true;
  }
  if (!in_range(v.micros, error)) return false;
  const Civil c = civil(v.micros);
  if (v.kind == Kind::Date) {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", c.year, c.month, c.day);
    out = buf;
    return true;
  }
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d%c%02d:%02d:%02d", c.year, c.month, c.day, text_form ? ' ' : 'T',
                c.hour, c.minute, c.second);
  out = buf + fraction(c.fsec);
  if (v.kind == Kind::Timestamptz) out += text_form ? "+00" : "Z";
  return true;
}

bool cast(const Value& v, Kind to, Value& out, std::string& error) {
  out = v;
  out.kind = to;
  if (v.kind == to) return true;
  auto no = [&] {
    error = "cannot cast type " + std::string(type_words(v.kind)) + " to " + std::string(type_words(to));
    return false;
  };
  switch (v.kind) {
    case Kind::Timestamptz:
    case Kind::Timestamp:
    case Kind::Date:
      if (to == Kind::Interval || (to == Kind::Time && v.kind == Kind::Date)) return no();
      if (to == Kind::Date) out.micros = floor_div(v.micros, kMicrosPerDay) * kMicrosPerDay;
      if (to == Kind::Time) out.micros = v.micros - floor_div(v.micros, kMicrosPerDay) * kMicrosPerDay;
      return true;
    case Kind::Time:
      if (to != Kind::Interval) return no();
      out.interval = Interval{0, 0, v.micros};
      return true;
    case Kind::Interval:
      return no();
  }
  return no();
}

bool add_interval(const Value& t, const Interval& iv, int sign, Value& out, std::string& error) {
  if (t.kind == Kind::Interval || t.kind == Kind::Time) {
    error = "querygate adds intervals to timestamps and dates only";
    return false;
  }
  out = t;
  if (t.kind == Kind::Date) out.kind = Kind::Timestamp;
  const std::int64_t months = static_cast<std::int64_t>(iv.months) * sign;
  const std::int64_t days = static_cast<std::int64_t>(iv.days) * sign;
  const std::int64_t micros = iv.micros * sign;
  if (months != 0) {
    Civil c = civil(out.micros);
    const std::int64_t tod = out.micros - c.days * kMicrosPerDay;
    std::int64_t total = static_cast<std::int64_t>(c.year) * 12 + (c.month - 1) + months;
    const std::int64_t year = floor_div(total, 12);
    const int month = static_cast<int>(total - year * 12) + 1;
    if (year < 1 || year > 9999) return in_range(kMaxMicros, error);
    const int day = std::min(c.day, days_in_month(static_cast<int>(year), month));
    out.micros = days_from_civil(static_cast<int>(year), month, day) * kMicrosPerDay + tod;
  }
  out.micros += days * kMicrosPerDay + micros;
  return in_range(out.micros, error);
}

Interval subtract(const Value& a, const Value& b) {
  const std::int64_t diff = a.micros - b.micros;
  Interval out;
  out.days = static_cast<std::int32_t>(diff / kMicrosPerDay);
  out.micros = diff - static_cast<std::int64_t>(out.days) * kMicrosPerDay;
  return out;
}

Interval age(const Value& a, const Value& b) {
  // PostgreSQL's timestamp_age: field differences, sign flipped so that they are positive, negative
  // fields borrowed from the next larger one (a month lends the days of the earlier date's month), flipped back.
  const Civil t1 = civil(a.micros), t2 = civil(b.micros);
  const bool flip = a.micros < b.micros;
  const int s = flip ? -1 : 1;
  long long usec = s * (t1.fsec - t2.fsec), sec = s * (t1.second - t2.second), min = s * (t1.minute - t2.minute),
            hour = s * (t1.hour - t2.hour), mday = s * (t1.day - t2.day), mon = s * (t1.month - t2.month),
            year = s * (t1.year - t2.year);
  while (usec < 0) usec += kMicrosPerSecond, --sec;
  while (sec < 0) sec += 60, --min;
  while (min < 0) min += 60, --hour;
  while (hour < 0) hour += 24, --mday;
  while (mday < 0) {
    const Civil& lender = flip ? t1 : t2;
    mday += days_in_month(lender.year, lender.month);
    --mon;
  }
  while (mon < 0) mon += 12, --year;
  Interval out;
  out.months = static_cast<std::int32_t>(s * (year * 12 + mon));
  out.days = static_cast<std::int32_t>(s * mday);
  out.micros = s * (((hour * 60 + min) * 60 + sec) * kMicrosPerSecond + usec);
  return out;
}

Interval add(const Interval& a, const Interval& b, int sign) {
  return Interval{a.months + sign * b.months, a.days + sign * b.days, a.micros + sign * b.micros};
}

namespace {

// PostgreSQL's interval_mul / interval_div: whole months and days scaled, the
// fractions spilled into days (30 per month) and then microseconds.
bool scale(const Interval& span, double factor, bool divide_by, Interval& out, std::string& error) {
  auto apply = [&](double x) { return divide_by ? x / factor : x * factor; };
  if (divide_by && factor == 0) {
    error = "division by zero";
    return false;
  }
  double r = apply(span.months);
  if (std::isnan(r) || !fits32(r)) {
    error = "interval out of range";
    return false;
  }
  out.months = static_cast<std::int32_t>(r);
  r = apply(span.days);
  if (std::isnan(r) || !fits32(r)) {
    error = "interval out of range";
    return false;
  }
  out.days = static_cast<std::int32_t>(r);
  double month_remainder_days = (apply(span.months) - out.months) * 30;
  month_remainder_days = ts_round(month_remainder_days);
  double sec_remainder =
      (apply(span.days) - out.days + month_remainder_days - static_cast<int>(month_remainder_days)) * 86400;
  sec_remainder = ts_round(sec_remainder);
  if (std::fabs(sec_remainder) >= 86400) {
    out.days += static_cast<int>(sec_remainder / 86400);
    sec_remainder -= static_cast<int>(sec_remainder / 86400) * 86400;
  }
  out.days += static_cast<int>(month_remainder_days);
  r = std::rint(apply(static_cast<double>(span.micros)) + sec_remainder * 1e6);
  if (std::isnan(r) || std::fabs(r) > 9.2e18) {
    error = "interval out of range";
    return false;
  }
  out.micros = static_cast<std::int64_t>(r);
  return true;
}

}  // namespace

bool multiply(const Interval& iv, double factor, Interval& out, std::string& error) {
  return scale(iv, factor, false, out, error);
}
bool divide(const Interval& iv, double divisor, Interval& out, std::string& error) {
  return scale(iv, divisor, true, out, error);
}

__int128 interval_cmp_value(const Interval& iv) {
  return (static_cast<__int128>(iv.months) * 30 + iv.days) * kMicrosPerDay + iv.micros;
}

std::int64_t sort_key(const Value& v) {
  if (v.kind == Kind::Interval) return static_cast<std::int64_t>(interval_cmp_value(v.interval));
  return v.micros;
}

Value from_key(std::int64_t key, Kind k) {
  Value v;
  v.kind = k;
  v.micros = key;
  return v;
}

namespace {

// EXTRACT / date_part field names as PostgreSQL reads them (lower case; its
// unit table, words cut at 10 characters), mapped to one name each.
std::string canonical_field(std::string_view field) {
  std::string f = lower(trim(field));
  if (f.size() > 10) f.resize(10);
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"microsecon", "microseconds"},
      {"us", "microseconds"},
      {"usec", "microseconds"},
      {"usecs", "microseconds"},
      {"usecond", "microseconds"},
      {"useconds", "microseconds"},
      {"millisecon", "milliseconds"},
      {"ms", "milliseconds"},
      {"msec", "milliseconds"},
      {"msecs", "milliseconds"},
      {"msecond", "milliseconds"},
      {"mseconds", "milliseconds"},
      {"s", "second"},
      {"sec", "second"},
      {"seconds", "second"},
      {"secs", "second"},
      {"m", "minute"},
      {"min", "minute"},
      {"mins", "minute"},
      {"minutes", "minute"},
      {"h", "hour"},
      {"hr", "hour"},
      {"hrs", "hour"},
      {"hours", "hour"},
      {"d", "day"},
      {"days", "day"},
      {"w", "week"},
      {"weeks", "week"},
      {"mon", "month"},
      {"mons", "month"},
      {"months", "month"},
      {"qtr", "quarter"},
      {"y", "year"},
      {"yr", "year"},
      {"yrs", "year"},
      {"years", "year"},
      {"dec", "decade"},
      {"decs", "decade"},
      {"decades", "decade"},
      {"c", "century"},
      {"cent", "century"},
      {"centuries", "century"},
      {"mil", "millennium"},
      {"mils", "millennium"},
      {"millennia", "millennium"},
      {"timezone_h", "timezone_hour"},
      {"timezone_m", "timezone_minute"},
  };
  for (const auto& [alias, name] : kAliases)
    if (f == alias) return std::string(name);
  return f;
}

bool field_of(const std::string& f, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), f) != names.end();
}

bool unsupported_unit(std::string_view field, Kind k, std::string& error) {
  error = "unit \"" + std::string(field) + "\" not supported for type " + std::string(type_words(k));
  return false;
}

}  // namespace

bool extract_field_known(std::string_view field, Kind k) {
  const std::string f = canonical_field(field);
  switch (k) {
    case Kind::Timestamptz:
      if (field_of(f, {"timezone", "timezone_hour", "timezone_minute"})) return true;
      [[fallthrough]];
    case Kind::Timestamp:
      if (field_of(f, {"microseconds", "milliseconds", "second", "minute", "hour"})) return true;
      [[fallthrough]];
    case Kind::Date:
      return field_of(f, {"day", "month", "quarter", "week", "year", "decade", "century", "millennium", "dow", "isodow",
                          "doy", "isoyear", "julian", "epoch"});
    case Kind::Time:
      return field_of(f, {"microseconds", "milliseconds", "second", "minute", "hour", "epoch"});
    case Kind::Interval:
      return field_of(f, {"microseconds", "milliseconds", "second", "minute", "hour", "day", "month", "quarter", "year",
                          "decade", "century", "millennium", "epoch"});
  }
  return false;
}

bool extract_field_whole(std::string_view field) {
  const std::string f = canonical_field(field);
  return !field_of(f, {"second", "milliseconds", "epoch", "julian"}) && !f.empty();
}

bool trunc_field_known(std::string_view field) {
  return field_of(canonical_field(field), {"microseconds", "milliseconds", "second", "minute", "hour", "day", "week",
                                           "month", "quarter", "year", "decade", "century", "millennium"});
}

bool extract(std::string_view field, const Value& v, Number& out, std::string& error) {
  const std::string f = canonical_field(field);
  if (!extract_field_known(f, v.kind)) return unsupported_unit(field, v.kind, error);
  auto integer = [&](std::int64_t x) {
    out = Number{static_cast<double>(x), true};
    return true;
  };
  auto real = [&](double x) {
    out = Number{x, false};
    return true;
  };
  if (v.kind == Kind::Interval) {
    const Interval& iv = v.interval;
    const int year = iv.months / 12, mon = iv.months % 12;
    std::int64_t time = iv.micros;
    const std::int64_t hour = time / kMicrosPerHour;
    time -= hour * kMicrosPerHour;
    const std::int64_t min = time / kMicrosPerMinute;
    time -= min * kMicrosPerMinute;
    const std::int64_t usec = time;  // seconds and their fraction, in microseconds
    if (f == "microseconds") return integer(usec);
    if (f == "milliseconds") return real(static_cast<double>(usec) / 1000.0);
    if (f == "second") return real(static_cast<double>(usec) / 1e6);
    if (f == "minute") return integer(min);
    if (f == "hour") return integer(hour);
    if (f == "day") return integer(iv.days);
    if (f == "month") return integer(mon);
    if (f == "quarter") return integer(mon / 3 + 1);
    if (f == "year") return integer(year);
    if (f == "decade") return integer(year / 10);
    if (f == "century") return integer(year / 100);
    if (f == "millennium") return integer(year / 1000);
    // epoch
    // PostgreSQL's: 365.25 days a year, 30 a month, in quarter days so that it stays exact.
    const std::int64_t secs_from_day_month =
        (1461LL * (iv.months / 12) + 120LL * (iv.months % 12) + 4LL * iv.days) * (86400 / 4);
    if (iv.micros % kMicrosPerSecond == 0) return integer(secs_from_day_month + iv.micros / kMicrosPerSecond);
    return real(static_cast<double>(secs_from_day_month) + static_cast<double>(iv.micros) / 1e6);
  }
  const Civil c = v.kind == Kind::Time ? clock_of(v.micros) : civil(v.micros);
  if (v.kind == Kind::Time) {
    if (f == "microseconds") return integer(c.second * 1'000'000LL + c.fsec);
    if (f == "milliseconds") return real(c.second * 1000.0 + c.fsec / 1000.0);
    if (f == "second") return real(c.second + c.fsec / 1e6);
    if (f == "minute") return integer(c.minute);
    if (f == "hour") return integer(c.hour);
    if (v.micros % kMicrosPerSecond == 0) return integer(v.micros / kMicrosPerSecond);
    return real(static_cast<double>(v.micros) / 1e6);
  }
  if (f == "microseconds") return integer(c.second * 1'000'000LL + c.fsec);
  if (f == "milliseconds") return real(c.second * 1000.0 + c.fsec / 1000.0);
  if (f == "second") return real(c.second + c.fsec / 1e6);
  if (f == "minute") return integer(c.minute);
  if (f == "hour") return integer(c.hour);
  if (f == "day") return integer(c.day);
  if (f == "month") return integer(c.month);
  if (f == "quarter") return integer((c.month - 1) / 3 + 1);
  if (f == "year") return integer(c.year);
  if (f == "decade") return integer(c.year / 10);
  if (f == "century") return integer((c.year + 99) / 100);
  if (f == "millennium") return integer((c.year + 999) / 1000);
  if (f == "dow") return integer(day_of_week(c.days));
  if (f == "isodow") return integer(day_of_week(c.days) == 0 ? 7 : day_of_week(c.days));
  if (f == "doy") return integer(day_of_year(c));
  if (f == "week" || f == "isoyear") {
    int week = 0, year = 0;
    iso_week(c.days, week, year);
    return integer(f == "week" ? week : year);
  }
  if (f == "timezone" || f == "timezone_hour" || f == "timezone_minute") return integer(0);  // the session is UTC
  const std::int64_t tod = v.micros - c.days * kMicrosPerDay;
  if (f == "julian") {
    if (tod == 0) return integer(c.days + 2440588);
    return real(static_cast<double>(c.days + 2440588) + static_cast<double>(tod) / static_cast<double>(kMicrosPerDay));
  }
  // epoch
  if (v.micros % kMicrosPerSecond == 0) return integer(v.micros / kMicrosPerSecond);
  return real(static_cast<double>(v.micros) / 1e6);
}

bool truncate(std::string_view field, const Value& v, Value& out, std::string& error) {
  const std::string f = canonical_field(field);
  if (v.kind != Kind::Timestamptz && v.kind != Kind::Timestamp) return unsupported_unit(field, v.kind, error);
  if (!trunc_field_known(f)) {
    error = "unit \"" + std::string(field) + "\" not recognized for type " + std::string(type_words(v.kind));
    return false;
  }
  out = v;
  Civil c = civil(v.micros);
  const std::int64_t tod = v.micros - c.days * kMicrosPerDay;
  auto at = [&](int y, int m, int d) {
    out.micros = days_from_civil(y, m, d) * kMicrosPerDay;
    return in_range(out.micros, error);
  };
  if (f == "microseconds") return true;
  if (f == "milliseconds") {
    out.micros = c.days * kMicrosPerDay + (tod / 1000) * 1000;
    return true;
  }
  if (f == "second" || f == "minute" || f == "hour") {
    const std::int64_t unit = f == "second" ? kMicrosPerSecond : f == "minute" ? kMicrosPerMinute : kMicrosPerHour;
    out.micros = c.days * kMicrosPerDay + (tod / unit) * unit;
    return true;
  }
  if (f == "day") return at(c.year, c.month, c.day);
  if (f == "week") {
    const int isodow = day_of_week(c.days) == 0 ? 7 : day_of_week(c.days);
    out.micros = (c.days - (isodow - 1)) * kMicrosPerDay;
    return in_range(out.micros, error);
  }
  if (f == "month") return at(c.year, c.month, 1);
  if (f == "quarter") return at(c.year, 3 * ((c.month - 1) / 3) + 1, 1);
  if (f == "year") return at(c.year, 1, 1);
  if (f == "decade") return at((c.year / 10) * 10 == 0 ? 1 : (c.year / 10) * 10, 1, 1);
  if (f == "century") return at(((c.year + 99) / 100) * 100 - 99, 1, 1);
  return at(((c.year + 999) / 1000) * 1000 - 999, 1, 1);  // millennium
}

// ---- to_char

namespace {

enum class Pat : std::uint8_t {
  YYYY,
  YYY,
  YY,
  Y,
  IYYY,
  MM,
  DD,
  DDD,
  D,
  ID,
  HH,
  HH12,
  HH24,
  MI,
  SS,
  MS,
  US,
  Q,
  WW,
  IW,
  W,
  J,
  AM_UPPER,
  AM_LOWER,
  AMDOT_UPPER,
  AMDOT_LOWER,
  MONTH_UPPER,
  MONTH_CAP,
  MONTH_LOWER,
  MON_UPPER,
  MON_CAP,
  MON_LOWER,
  DAY_UPPER,
  DAY_CAP,
  DAY_LOWER,
  DY_UPPER,
  DY_CAP,
  DY_LOWER,
  Unsupported,
};

struct Keyword {
  std::string_view text;
  Pat pat;
};

constexpr Keyword kKeywords[] = {
    {"YYYY", Pat::YYYY},
    {"YYY", Pat::YYY},
    {"YY", Pat::YY},
    {"Y", Pat::Y},
    {"yyyy", Pat::YYYY},
    {"yyy", Pat::YYY},
    {"yy", Pat::YY},
    {"y", Pat::Y},
    {"IYYY", Pat::IYYY},
    {"iyyy", Pat::IYYY},
    {"MM", Pat::MM},
    {"mm", Pat::MM},
    {"DDD", Pat::DDD},
    {"DD", Pat::DD},
    {"D", Pat::D},
    {"ddd", Pat::DDD},
    {"dd", Pat::DD},
    {"d", Pat::D},
    {"ID", Pat::ID},
    {"id", Pat::ID},
    {"HH24", Pat::HH24},
    {"HH12", Pat::HH12},
    {"HH", Pat::HH},
    {"hh24", Pat::HH24},
    {"hh12", Pat::HH12},
    {"hh", Pat::HH},
    {"MI", Pat::MI},
    {"mi", Pat::MI},
    {"SS", Pat::SS},
    {"ss", Pat::SS},
    {"MS", Pat::MS},
    {"ms", Pat::MS},
    {"US", Pat::US},
    {"us", Pat::US},
    {"Q", Pat::Q},
    {"q", Pat::Q},
    {"WW", Pat::WW},
    {"ww", Pat::WW},
    {"IW", Pat::IW},
    {"iw", Pat::IW},
    {"W", Pat::W},
    {"w", Pat::W},
    {"J", Pat::J},
    {"j", Pat::J},
    {"AM", Pat::AM_UPPER},
    {"PM", Pat::AM_UPPER},
    {"am", Pat::AM_LOWER},
    {"pm", Pat::AM_LOWER},
    {"A.M.", Pat::AMDOT_UPPER},
    {"P.M.", Pat::AMDOT_UPPER},
    {"a.m.", Pat::AMDOT_LOWER},
    {"p.m.", Pat::AMDOT_LOWER},
    {"MONTH", Pat::MONTH_UPPER},
    {"Month", Pat::MONTH_CAP},
    {"month", Pat::MONTH_LOWER},
    {"MON", Pat::MON_UPPER},
    {"Mon", Pat::MON_CAP},
    {"mon", Pat::MON_LOWER},
    {"DAY", Pat::DAY_UPPER},
    {"Day", Pat::DAY_CAP},
    {"day", Pat::DAY_LOWER},
    {"DY", Pat::DY_UPPER},
    {"Dy", Pat::DY_CAP},
    {"dy", Pat::DY_LOWER},
    // PostgreSQL patterns querygate does not translate (refused, never printed as letters).
    {"A.D.", Pat::Unsupported},
    {"AD", Pat::Unsupported},
    {"a.d.", Pat::Unsupported},
    {"ad", Pat::Unsupported},
    {"B.C.", Pat::Unsupported},
    {"BC", Pat::Unsupported},
    {"b.c.", Pat::Unsupported},
    {"bc", Pat::Unsupported},
    {"CC", Pat::Unsupported},
    {"cc", Pat::Unsupported},
    {"FF1", Pat::Unsupported},
    {"FF2", Pat::Unsupported},
    {"FF3", Pat::Unsupported},
    {"FF4", Pat::Unsupported},
    {"FF5", Pat::Unsupported},
    {"FF6", Pat::Unsupported},
    {"ff1", Pat::Unsupported},
    {"ff2", Pat::Unsupported},
    {"ff3", Pat::Unsupported},
    {"ff4", Pat::Unsupported},
    {"ff5", Pat::Unsupported},
    {"ff6", Pat::Unsupported},
    {"FX", Pat::Unsupported},
    {"fx", Pat::Unsupported},
    {"IDDD", Pat::Unsupported},
    {"iddd", Pat::Unsupported},
    {"IYY", Pat::Unsupported},
    {"IY", Pat::Unsupported},
    {"I", Pat::Unsupported},
    {"iyy", Pat::Unsupported},
    {"iy", Pat::Unsupported},
    {"i", Pat::Unsupported},
    {"OF", Pat::Unsupported},
    {"of", Pat::Unsupported},
    {"RM", Pat::Unsupported},
    {"rm", Pat::Unsupported},
    {"SSSSS", Pat::Unsupported},
    {"SSSS", Pat::Unsupported},
    {"sssss", Pat::Unsupported},
    {"ssss", Pat::Unsupported},
    {"TZH", Pat::Unsupported},
    {"TZM", Pat::Unsupported},
    {"TZ", Pat::Unsupported},
    {"tzh", Pat::Unsupported},
    {"tzm", Pat::Unsupported},
    {"tz", Pat::Unsupported},
    {"Y,YYY", Pat::Unsupported},
    {"y,yyy", Pat::Unsupported},
    {"TM", Pat::Unsupported},
    {"tm", Pat::Unsupported},
    {"TH", Pat::Unsupported},
    {"th", Pat::Unsupported},
    {"SP", Pat::Unsupported},
    {"sp", Pat::Unsupported},
};

const Keyword* match_keyword(std::string_view rest) {
  const Keyword* best = nullptr;
  for (const auto& k : kKeywords)
    if (rest.starts_with(k.text) && (!best || k.text.size() > best->text.size())) best = &k;
  return best;
}

constexpr std::string_view kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                        "July",    "August",   "September", "October", "November", "December"};
constexpr std::string_view kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

struct Token {
  enum Kind : std::uint8_t { Literal, Pattern } kind = Literal;
  std::string text;  // a literal, or the pattern as written
  Pat pat = Pat::Unsupported;
  bool fill = false;  // FM
};

// Splits a to_char template; false with the first pattern not translated in `bad`.
bool tokenize(std::string_view f, std::vector<Token>& out, std::string& bad) {
  std::size_t i = 0;
  bool fill = false;
  while (i < f.size()) {
    const std::string_view rest = f.substr(i);
    if (rest.starts_with("FM") || rest.starts_with("fm")) {
      fill = true;
      i += 2;
      continue;
    }
    if (const Keyword* k = match_keyword(rest)) {
      if (k->pat == Pat::Unsupported) {
        bad = std::string(k->text);
        return false;
      }
      out.push_back(Token{Token::Pattern, std::string(k->text), k->pat, fill});
      fill = false;
      i += k->text.size();
      // A suffix after a pattern (TH, th, SP) changes how it prints.
      const std::string_view after = f.substr(i);
      if (after.starts_with("TH") || after.starts_with("th") || after.starts_with("SP") || after.starts_with("sp")) {
        bad = std::string(after.substr(0, 2)) + " (after " + std::string(k->text) + ")";
        return false;
      }
      continue;
    }
    fill = false;
    if (f[i] == '"') {
      std::string lit;
      ++i;
      while (i < f.size() && f[i] != '"') {
        if (f[i] == '\\' && i + 1 < f.size()) ++i;
        lit += f[i++];
      }
      if (i < f.size()) ++i;
      out.push_back(Token{Token::Literal, std::move(lit)});
      continue;
    }
    if (f[i] == '\\' && i + 1 < f.size() && f[i + 1] == '"') {
      out.push_back(Token{Token::Literal, "\""});
      i += 2;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(f[i]))) {
      bad = std::string(1, f[i]);
      return false;
    }
    out.push_back(Token{Token::Literal, std::string(1, f[i])});
    ++i;
  }
  return true;
}

std::string number(long long v, int width, bool fill) {
  char buf[32];
  if (fill)
    std::snprintf(buf, sizeof buf, "%lld", v);
  else
    std::snprintf(buf, sizeof buf, "%0*lld", width, v);
  return buf;
}

std::string name(std::string_view n, Pat pat, bool fill, bool upper, bool lower_case, bool pad) {
  std::string s(n);
  if (upper)
    for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (lower_case)
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  (void)pat;
  if (pad && !fill && s.size() < 9) s.append(9 - s.size(), ' ');
  return s;
}

}  // namespace

std::string unsupported_pattern(std::string_view format) {
  std::vector<Token> tokens;
  std::string bad;
  if (tokenize(format, tokens, bad)) return {};
  return bad;
}

bool to_char(const Value& v, std::string_view format_text, std::string& out, std::string& error) {
  if (v.kind == Kind::Interval || v.kind == Kind::Time) {
    error = "querygate translates to_char for timestamps and dates only";
    return false;
  }
  std::vector<Token> tokens;
  std::string bad;
  if (!tokenize(format_text, tokens, bad)) {
    error = "to_char pattern " + bad + " is not translated by querygate on this backend";
    return false;
  }
  if (!in_range(v.micros, error)) return false;
  const Civil c = civil(v.micros);
  const int dow = day_of_week(c.days);
  int iw = 0, iy = 0;
  iso_week(c.days, iw, iy);
  const int doy = day_of_year(c);
  out.clear();
  for (const auto& t : tokens) {
    if (t.kind == Token::Literal) {
      out += t.text;
      continue;
    }
    const bool fm = t.fill;
    const int h12 = c.hour % 12 == 0 ? 12 : c.hour % 12;
    switch (t.pat) {
      case Pat::YYYY:
        out += number(c.year, 4, fm);
        break;
      case Pat::YYY:
        out += number(c.year % 1000, 3, fm);
        break;
      case Pat::YY:
        out += number(c.year % 100, 2, fm);
        break;
      case Pat::Y:
        out += number(c.year % 10, 1, fm);
        break;
      case Pat::IYYY:
        out += number(iy, 4, fm);
        break;
      case Pat::MM:
        out += number(c.month, 2, fm);
        break;
      case Pat::DD:
        out += number(c.day, 2, fm);
        break;
      case Pat::DDD:
        out += number(doy, 3, fm);
        break;
      case Pat::D:
        out += number(dow + 1, 1, fm);
        break;
      case Pat::ID:
        out += number(dow == 0 ? 7 : dow, 1, fm);
        break;
      case Pat::HH:
      case Pat::HH12:
        out += number(h12, 2, fm);
        break;
      case Pat::HH24:
        out += number(c.hour, 2, fm);
        break;
      case Pat::MI:
        out += number(c.minute, 2, fm);
        break;
      case Pat::SS:
        out += number(c.second, 2, fm);
        break;
      // A fraction's digits keep their zeros: PostgreSQL ignores FM before MS and US (FMMS of .045 is 045, not 45,
      // which would read as .45; outside tester s17d).
      case Pat::MS:
        out += number(c.fsec / 1000, 3, false);
        break;
      case Pat::US:
        out += number(c.fsec, 6, false);
        break;
      case Pat::Q:
        out += number((c.month - 1) / 3 + 1, 1, fm);
        break;
      case Pat::WW:
        out += number((doy - 1) / 7 + 1, 2, fm);
        break;
      case Pat::IW:
        out += number(iw, 2, fm);
        break;
      case Pat::W:
        out += number((c.day - 1) / 7 + 1, 1, fm);
        break;
      case Pat::J:
        out += number(c.days + 2440588, 1, fm);
        break;
      case Pat::AM_UPPER:
        out += c.hour >= 12 ? "PM" : "AM";
        break;
      case Pat::AM_LOWER:
        out += c.hour >= 12 ? "pm" : "am";
        break;
      case Pat::AMDOT_UPPER:
        out += c.hour >= 12 ? "P.M." : "A.M.";
        break;
      case Pat::AMDOT_LOWER:
        out += c.hour >= 12 ? "p.m." : "a.m.";
        break;
      case Pat::MONTH_UPPER:
        out += name(kMonths[c.month - 1], t.pat, fm, true, false, true);
        break;
      case Pat::MONTH_CAP:
        out += name(kMonths[c.month - 1], t.pat, fm, false, false, true);
        break;
      case Pat::MONTH_LOWER:
        out += name(kMonths[c.month - 1], t.pat, fm, false, true, true);
        break;
      case Pat::MON_UPPER:
        out += name(kMonths[c.month - 1].substr(0, 3), t.pat, fm, true, false, false);
        break;
      case Pat::MON_CAP:
        out += name(kMonths[c.month - 1].substr(0, 3), t.pat, fm, false, false, false);
        break;
      case Pat::MON_LOWER:
        out += name(kMonths[c.month - 1].substr(0, 3), t.pat, fm, false, true, false);
        break;
      case Pat::DAY_UPPER:
        out += name(kDays[dow], t.pat, fm, true, false, true);
        break;
      case Pat::DAY_CAP:
        out += name(kDays[dow], t.pat, fm, false, false, true);
        break;
      case Pat::DAY_LOWER:
        out += name(kDays[dow], t.pat, fm, false, true, true);
        break;
      case Pat::DY_UPPER:
        out += name(kDays[dow].substr(0, 3), t.pat, fm, true, false, false);
        break;
      case Pat::DY_CAP:
        out += name(kDays[dow].substr(0, 3), t.pat, fm, false, false, false);
        break;
      case Pat::DY_LOWER:
        out += name(kDays[dow].substr(0, 3), t.pat, fm, false, true, false);
        break;
      case Pat::Unsupported:
        error = "to_char pattern " + t.text + " is not translated by querygate on this backend";
        return false;
    }
  }
  return true;
}

}  // namespace qg::pgtime
