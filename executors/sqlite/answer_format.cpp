#include "executors/sqlite/answer_format.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "admission/rewrite/time_literals.hpp"

namespace qg::exec::sqlite {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::optional<std::string> pg_timestamp_text(std::string_view s) {
  // The one ISO-8601 reader and writer of admission's timestamp-literal checks.
  const auto t = rewrite::parse_iso_time(s);
  if (!t || !t->has_time) return std::nullopt;
  if (t->nanos % 1000 != 0) return std::nullopt;  // PostgreSQL keeps microseconds
  rewrite::TextTimeFormat f;
  f.separator = 'T';
  f.suffix = t->offset_minutes ? "Z" : "";
  // PostgreSQL prints the fraction without trailing zeros, none when whole.
  f.fraction_digits = 0;
  for (long long rest = t->nanos; rest != 0; rest = (rest * 10) % 1'000'000'000) ++f.fraction_digits;
  std::string out = rewrite::format_utc(*t, f);
  if (out.empty() || out.size() < 19 || out[4] != '-') return std::nullopt;
  return out;
}

std::optional<std::string> pg_numeric_text(double value, int scale) {
  if (!std::isfinite(value) || std::fabs(value) >= 1e15) return std::nullopt;
  char buf[400];
  if (scale >= 0) {
    // The shortest text that reads back as the double, padded with zeros to the scale: round(12345.678, 14) is
    // 12345.67800000000000 (printf's %.14f printed the double's binary expansion, 12345.67799999999988; a scale
    // past 20 fell back to a float's 6 digits; outside tester s13).
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
    if (r.ec == std::errc()) {
      std::string out(buf, r.ptr);
      const auto point = out.find('.');
      const std::size_t places = point == std::string::npos ? 0 : out.size() - point - 1;
      if (places <= static_cast<std::size_t>(scale)) {
        if (scale > 0) {
          if (point == std::string::npos) out += '.';
          out.append(static_cast<std::size_t>(scale) - places, '0');
        }
        if (out.starts_with("-") && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);  // -0.00
        return out;
      }
    }
    if (scale > 20) return std::nullopt;
    const int n = std::snprintf(buf, sizeof buf, "%.*f", scale, value);
    if (n <= 0 || n >= static_cast<int>(sizeof buf)) return std::nullopt;
    std::string out(buf, static_cast<std::size_t>(n));
    if (out.starts_with("-") && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);  // -0.00
    return out;
  }
  const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  if (r.ec != std::errc()) return std::nullopt;
  std::string out(buf, r.ptr);
  if (out == "-0") out = "0";
  return out;
}

std::string pg_type_name(std::string_view declared, std::string_view storage_class, bool timestamp,
                         std::string_view timestamp_sample) {
  const std::string d = upper(declared);
  if (timestamp) {
    if (d == "DATE") return "date";
    if (d == "TIME") return "time without time zone";
    const auto ts = pg_timestamp_text(timestamp_sample);
    if (ts && ts->back() == 'Z') return "timestamp with time zone";
    if (ts) return "timestamp without time zone";
    return "text";
  }
  if (d == "BOOLEAN" || d == "BOOL") return "boolean";
  const std::string c = upper(d.empty() ? storage_class : std::string_view(d));
  // SQLite's affinity rules (https://sqlite.org/datatype3.html, 3.1), in its order.
  if (c.empty()) return "";
  if (c.find("INT") != std::string::npos) return "bigint";
  if (c.find("CHAR") != std::string::npos || c.find("CLOB") != std::string::npos || c.find("TEXT") != std::string::npos)
    return "text";
  if (c.find("BLOB") != std::string::npos) return "bytea";
  if (c.find("REAL") != std::string::npos || c.find("FLOA") != std::string::npos || c.find("DOUB") != std::string::npos)
    return "double precision";
  return "numeric";
}

}  // namespace qg::exec::sqlite
