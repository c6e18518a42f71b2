#include "executors/postgres/pg_values.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

namespace qg::exec::pg {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// bytea_output = hex (the default since 9.0): "\x" then two digits per byte.
Value read_bytea(std::string_view text) {
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x') return std::string(text);
  Blob out;
  out.bytes.reserve((text.size() - 2) / 2);
  for (std::size_t i = 2; i + 1 < text.size(); i += 2) {
    const int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);
    if (hi < 0 || lo < 0) return std::string(text);
    out.bytes.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::optional<std::int64_t> exact_integer(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// NaN and the infinities become the double values (the envelope writes every
// non-finite double the same way, whichever engine produced it).
Value read_float(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return s;
  return v;
}

}  // namespace

// numeric is exact in PostgreSQL, so its digits are kept: a whole number that
// fits int64 stays an exact integer (sum() over integers is numeric); a number
// with more integer digits than a JSON number holds exactly (beyond int64, or
// over 15 integer digits with a fraction) stays its exact text (a string); any
// other number keeps PostgreSQL's digits as a Decimal, sent as a JSON number
// with those digits (not rounded like a float). NaN and the infinities are the
// double values.
Value read_numeric(std::string_view text) {
  const bool whole = text.find_first_of(".eE") == std::string_view::npos;
  if (whole)
    if (auto i = exact_integer(text)) return *i;
  const bool number = !text.empty() && (std::isdigit(static_cast<unsigned char>(text.back())) != 0);
  if (!number) return read_float(text);  // NaN, Infinity, -Infinity
  if (text.find_first_of("eE") == std::string_view::npos) {
    std::size_t i = text.find_first_not_of("+-");
    while (i < text.size() && text[i] == '0') ++i;
    std::size_t digits = 0;
    while (i + digits < text.size() && text[i + digits] >= '0' && text[i + digits] <= '9') ++digits;
    if (digits > 15) return std::string(text);
  }
  return Decimal{std::string(text)};
}

std::string one_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (auto& c : s)
    if (c == '\n') c = ' ';
  return s;
}

std::string iso_timestamp(std::string_view text, bool with_zone) {
  // "YYYY-MM-DD HH:MM:SS[.ffffff][+00]"; anything else (infinity, BC dates) as is.
  if (text.size() < 19 || text[10] != ' ' || text[4] != '-' || text[13] != ':') return std::string(text);
  std::string out(text);
  out[10] = 'T';
  if (with_zone) {
    if (out.ends_with("+00"))
      out.replace(out.size() - 3, 3, "Z");
    else if (out.ends_with("+00:00"))
      out.replace(out.size() - 6, 6, "Z");
  }
  return out;
}

namespace {

// One level of array_out's text from `at` (on its '{'): elements separated by ',' (every built-in element type's
// delimiter but box's, which the caller does not pass here), each NULL (unquoted), "quoted" (with \" and \\) or
// bare (array_out quotes any element holding a special character, so a bare one has no escapes). Nested levels
// are Arrays of Arrays. nullopt: not that form.
std::optional<Array> array_level(std::string_view text, std::size_t& at, unsigned element_oid, int depth) {
  if (depth > 6 || at >= text.size() || text[at] != '{') return std::nullopt;  // PostgreSQL's MAXDIM is 6
  ++at;
  Array out;
  if (at < text.size() && text[at] == '}') {
    ++at;
    return out;
  }
  while (at < text.size()) {
    if (text[at] == '{') {
      auto inner = array_level(text, at, element_oid, depth + 1);
      if (!inner) return std::nullopt;
      out.items.emplace_back(std::move(*inner));
    } else if (text[at] == '"') {
      std::string element;
      for (++at;; ++at) {
        if (at >= text.size()) return std::nullopt;
        if (text[at] == '"') break;
        if (text[at] == '\\' && ++at >= text.size()) return std::nullopt;
        element.push_back(text[at]);
      }
      ++at;
      out.items.push_back(read_value(element_oid, element));
    } else {
      const std::size_t end = text.find_first_of(",}", at);
      if (end == std::string_view::npos || end == at) return std::nullopt;
      const std::string_view element = text.substr(at, end - at);
      if (element.find_first_of("{\"\\") != std::string_view::npos) return std::nullopt;
      if (element == "NULL")
        out.items.emplace_back(std::monostate{});
      else
        out.items.push_back(read_value(element_oid, element));
      at = end;
    }
    if (at >= text.size()) return std::nullopt;
    if (text[at] == '}') {
      ++at;
      return out;
    }
    if (text[at] != ',') return std::nullopt;
    ++at;
  }
  return std::nullopt;
}

}  // namespace

Value read_array(unsigned element_oid, std::string_view text) {
  // An array whose lower bound is not 1 is printed with its bounds first ("[0:1]={a,b}"): kept as that text,
  // since a JSON array cannot say where it starts (array_agg and regexp_match start at 1).
  std::size_t at = 0;
  auto array = array_level(text, at, element_oid, 1);
  if (!array || at != text.size()) return std::string(text);
  return std::move(*array);
}

Value read_value(unsigned type_oid, std::string_view text) {
  switch (type_oid) {
    case oid::kBool:
      return text == "t";
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8:
    case oid::kOid:
      if (auto i = exact_integer(text)) return *i;
      return std::string(text);
    case oid::kFloat4:
    case oid::kFloat8:
      return read_float(text);
    case oid::kNumeric:
      return read_numeric(text);
    case oid::kBytea:
      return read_bytea(text);
    case oid::kTimestamp:
      return iso_timestamp(text, false);
    case oid::kTimestamptz:
      return iso_timestamp(text, true);
    default:
      return std::string(text);
  }
}

}  // namespace qg::exec::pg
