#include "executors/sqlite/sqlite_arrays.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <system_error>

namespace qg::exec::sqlite::arrays {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

}  // namespace

void append_null(std::string& out) {
  out += "null";
}

void append_text(std::string& out, std::string_view text) {
  out.push_back('"');
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out.push_back(ch);  // UTF-8 bytes as they are
    }
  }
  out.push_back('"');
}

bool append_element(std::string& out, sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
      append_null(out);
      return true;
    case SQLITE_INTEGER:
      out += std::to_string(sqlite3_value_int64(v));
      return true;
    case SQLITE_FLOAT: {
      const double d = sqlite3_value_double(v);
      if (std::isnan(d)) {
        out += "NaN";  // not JSON: read back by decode() only (PostgreSQL's float8 has these values)
      } else if (std::isinf(d)) {
        out += d > 0 ? "Infinity" : "-Infinity";
      } else {
        char buf[64];
        const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);  // shortest text that reads back exactly
        if (ec != std::errc()) return false;
        std::string_view number(buf, static_cast<std::size_t>(end - buf));
        out += number;
        // A whole double keeps a mark of being one (decode reads "2" as an integer).
        if (number.find_first_of(".eE") == std::string_view::npos) out += ".0";
      }
      return true;
    }
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
      append_text(out, std::string_view(p ? p : "", static_cast<std::size_t>(sqlite3_value_bytes(v))));
      return true;
    }
    default:
      return false;
  }
}

std::optional<Array> decode(std::string_view text) {
  Array out;
  std::size_t i = 0;
  if (text.empty() || text[i] != '[') return std::nullopt;
  ++i;
  if (i < text.size() && text[i] == ']')
    return i + 1 == text.size() ? std::optional<Array>(std::move(out)) : std::nullopt;
  while (i < text.size()) {
    if (text[i] == '"') {
      std::string s;
      for (++i;; ++i) {
        if (i >= text.size()) return std::nullopt;
        const char c = text[i];
        if (c == '"') break;
        if (c != '\\') {
          s.push_back(c);
          continue;
        }
        if (++i >= text.size()) return std::nullopt;
        if (text[i] == '"' || text[i] == '\\') {
          s.push_back(text[i]);
        } else if (text[i] == 'u' && i + 4 < text.size()) {
          std::uint32_t code = 0;
          for (int k = 1; k <= 4; ++k) {
            const int h = hex_value(text[i + static_cast<std::size_t>(k)]);
            if (h < 0) return std::nullopt;
            code = code * 16 + static_cast<std::uint32_t>(h);
          }
          append_utf8(s, code);
          i += 4;
        } else {
          return std::nullopt;
        }
      }
      ++i;
      out.items.emplace_back(std::move(s));
    } else {
      const std::size_t end = text.find_first_of(",]", i);
      if (end == std::string_view::npos) return std::nullopt;
      const std::string_view token = text.substr(i, end - i);
      if (token == "null") {
        out.items.emplace_back(std::monostate{});
      } else if (token == "NaN") {
        out.items.emplace_back(std::nan(""));
      } else if (token == "Infinity" || token == "-Infinity") {
        out.items.emplace_back(token[0] == '-' ? -HUGE_VAL : HUGE_VAL);
      } else if (token.find_first_of(".eE") == std::string_view::npos) {
        std::int64_t n = 0;
        const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), n);
        if (ec != std::errc() || p != token.data() + token.size()) return std::nullopt;
        out.items.emplace_back(n);
      } else {
        double d = 0;
        const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), d);
        if (ec != std::errc() || p != token.data() + token.size()) return std::nullopt;
        out.items.emplace_back(d);
      }
      i = end;
    }
    if (i >= text.size()) return std::nullopt;
    if (text[i] == ']') return i + 1 == text.size() ? std::optional<Array>(std::move(out)) : std::nullopt;
    if (text[i] != ',') return std::nullopt;
    ++i;
  }
  return std::nullopt;
}

}  // namespace qg::exec::sqlite::arrays
