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

// Whether the value of a decimal text (numeric_text's forms) is m * 2^k with an odd m below 2^bits: what a binary
// float of that many mantissa bits holds exactly (53: a double, 64: an x87 long double), its exponent range aside.
// false also for a text this cannot tell (more than 19 significant digits, a power of ten past 27).
inline bool binary_exact(std::string_view s, int bits) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  unsigned __int128 m = 0;
  int exponent = 0, digits = 0;
  bool point = false;
  std::size_t i = 0;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.') {
      point = true;
      continue;
    }
    if (point) --exponent;
    if (s[i] == '0' && m == 0) continue;  // a leading zero
    if (++digits > 19) return false;
    m = m * 10 + static_cast<unsigned>(s[i] - '0');
  }
  if (i < s.size()) {
    std::size_t j = i + 1;
    const bool negative = j < s.size() && s[j] == '-';
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (s.size() - j > 3) return false;
    int e = 0;
    for (; j < s.size(); ++j) e = e * 10 + (s[j] - '0');
    exponent += negative ? -e : e;
  }
  if (m == 0) return true;
  while (m % 10 == 0) {
    m /= 10;
    ++exponent;
  }
  if (exponent > 27 || exponent < -27) return false;
  for (int k = 0; k < exponent; ++k) m *= 5;  // D * 10^E is D * 5^E * 2^E
  for (int k = 0; k > exponent; --k) {        // D * 10^-E is (D / 5^E) * 2^-E when 5^E divides D
    if (m % 5 != 0) return false;
    m /= 5;
  }
  while (m % 2 == 0) m /= 2;
  return m < (static_cast<unsigned __int128>(1) << bits);
}

}  // namespace qg
