#pragma once
// PostgreSQL's regular expressions (ARE, PostgreSQL 15 in a C.UTF-8 database)
// in the subset where querygate can give them PostgreSQL's meaning with PCRE2
// on SQLite (issue #12). One reader for both sides: admission checks a literal
// pattern with it (and refuses the rest with a FIX), the SQLite functions
// (executors/sqlite/sqlite_text.cpp) translate the same text into a PCRE2
// pattern that never leaves the subset's meaning:
//   - every literal, class and bracket expression becomes an explicit set of
//     code points (PCRE2 is compiled with PCRE2_UTF and without PCRE2_UCP or
//     PCRE2_CASELESS): character classes are the C library's (iswalpha ... in
//     C.UTF-8, what PostgreSQL asks), case-insensitive matching is
//     PostgreSQL's rule (a letter stands for its towlower and towupper forms);
//   - `.` is any character (newlines too), `^` / `$` the start / end of the
//     whole text.
// Refused: back-references, \m \M \y \Y \A \Z \b and other escapes whose
// meaning differs, lookaround, collating elements, embedded options, bounds
// over 255, a quantifier after a quantifier. Where the extent of a match
// matters (regexp_replace, regexp_count, regexp_substr), PostgreSQL takes the
// longest match where PCRE2 takes the first found: such patterns are admitted
// only when they are deterministic (no alternation, no quantified group, no
// lazy quantifier, and each variable repetition is followed by characters it
// cannot match), where the two agree.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qg::pgregex {

using Ranges = std::vector<std::pair<char32_t, char32_t>>;  // sorted, disjoint, inclusive

struct Options {
  bool icase = false;   // ~* or flag 'i'
  bool extent = false;  // the match's extent is used (replace, count, substr), not only whether it matches
};

struct Translation {
  bool ok = false;
  std::string pcre;   // for pcre2_compile with PCRE2_UTF (and nothing else)
  int groups = 0;     // capturing groups
  std::string error;  // what is not admitted, in the caller's words
  std::string fix;    // "FIX: ..."
};

Translation translate(std::string_view pattern, Options options);

struct Flags {
  bool ok = false;
  bool icase = false;
  bool global = false;
  std::string error;
};
// A flags argument: 'i' and 'c' (last one wins), and 'g' where `global_allowed`.
Flags parse_flags(std::string_view flags, bool global_allowed);

// UTF-8: the next code point at `i` (advancing it); an invalid byte is read as itself.
char32_t next_code_point(std::string_view s, std::size_t& i);
void append_utf8(std::string& out, char32_t c);

// The C library's classes and case maps in C.UTF-8 (what PostgreSQL uses in a C.UTF-8 database).
char32_t to_lower(char32_t c);
char32_t to_upper(char32_t c);
bool is_alnum(char32_t c);

}  // namespace qg::pgregex
