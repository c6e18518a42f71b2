#pragma once
// The texts PostgreSQL's input functions read as numbers, in one place:
// admission (a literal compared with or cast to a number) and the SQLite
// executor's checked cast (pg_number) both ask these. Surrounding blanks are
// the caller's to trim.
#include <cctype>
#include <string_view>

namespace qg {

// `[+-]?digits`: PostgreSQL 15's integer input (no underscores, no 0x prefix).
inline bool integer_text(std::string_view s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// `[+-]?(digits[.digits*]|.digits)([eE][+-]?digits)?`: the decimal forms PostgreSQL's numeric and float
// input accept, and a text both engines read as one number.
inline bool numeric_text(std::string_view s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  std::size_t i = 0, digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i == s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  }
  return i == s.size();
}

}  // namespace qg
