// PostgreSQL's text functions and regular expressions on SQLite connections
// (issue #12): the functions admission's translations call
// (admission/admit/text_on_sqlite.cpp). Each computes what PostgreSQL 15
// computes in a UTF-8 database with the C.UTF-8 ctype: positions and lengths
// in characters, NULL arguments as PostgreSQL treats them, PostgreSQL's
// errors where it raises one (split_part's field 0). Regular expressions are
// PostgreSQL patterns of the subset common/pg_regex.hpp reads, translated
// there into explicit PCRE2 patterns, compiled once per statement (SQLite's
// auxdata on the constant pattern argument) and matched under PCRE2's match,
// depth and heap limits: a pattern that hits one fails the statement.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/pg_regex.hpp"
#include "executors/sqlite/sqlite_arrays.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

constexpr std::uint32_t kMatchLimit = 1'000'000;  // backtracking steps per match attempt
constexpr std::uint32_t kDepthLimit = 10'000;     // nested backtracking frames
constexpr std::uint32_t kHeapLimitKib = 16'384;   // 16 MiB of backtracking memory

std::string_view text_of(sqlite3_value* v) {
  const auto* t = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return t ? std::string_view(t, static_cast<std::size_t>(sqlite3_value_bytes(v))) : std::string_view();
}

bool any_null(int argc, sqlite3_value** argv) {
  for (int i = 0; i < argc; ++i)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return true;
  return false;
}

void fail(sqlite3_context* ctx, const std::string& error) {
  sqlite3_result_error(ctx, error.c_str(), static_cast<int>(error.size()));
}

void answer(sqlite3_context* ctx, std::string_view s) {
  // An empty view may have no data pointer, which SQLite would read as NULL: '' is not NULL.
  sqlite3_result_text(ctx, s.empty() ? "" : s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
}

bool integer_arg(sqlite3_context* ctx, sqlite3_value* v, const char* fn, long long& out) {
  if (sqlite3_value_type(v) != SQLITE_INTEGER) {
    fail(ctx, std::string("querygate: ") + fn + "() needs an integer");
    return false;
  }
  out = sqlite3_value_int64(v);
  return true;
}

// Byte offsets of each character's start, plus the end.
std::vector<std::size_t> char_starts(std::string_view s) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size();) {
    starts.push_back(i);
    pgregex::next_code_point(s, i);
  }
  starts.push_back(s.size());
  return starts;
}

// concat(a, ...): NULLs skipped, every value as text (admission passes only text and integers).
void pg_concat(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i)
    if (sqlite3_value_type(argv[i]) != SQLITE_NULL) out += text_of(argv[i]);
  answer(ctx, out);
}

// concat_ws(sep, a, ...): NULL when the separator is NULL; NULL values skipped.
void pg_concat_ws(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const std::string sep(text_of(argv[0]));
  std::string out;
  bool first = true;
  for (int i = 1; i < argc; ++i) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) continue;
    if (!first) out += sep;
    first = false;
    out += text_of(argv[i]);
  }
  answer(ctx, out);
}

// left(s, n) / right(s, n): n characters; a negative n: all but |n| from the other end.
template <bool Left>
void pg_left_right(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  long long n;
  if (!integer_arg(ctx, argv[1], Left ? "left" : "right", n)) return;
  const std::string_view s = text_of(argv[0]);
  const auto starts = char_starts(s);
  const long long len = static_cast<long long>(starts.size()) - 1;
  long long keep = n >= 0 ? std::min(n, len) : std::max(0LL, len + n);
  if (Left) return answer(ctx, s.substr(0, starts[static_cast<std::size_t>(keep)]));
  answer(ctx, s.substr(starts[static_cast<std::size_t>(len - keep)]));
}

// split_part(s, delimiter, n) as PostgreSQL 14+: n < 0 counts from the end; n = 0 is an error.
void pg_split_part(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  long long n;
  if (!integer_arg(ctx, argv[2], "split_part", n)) return;
  if (n == 0) return fail(ctx, "field position must not be zero");
  const std::string_view s = text_of(argv[0]), d = text_of(argv[1]);
  if (s.empty()) return answer(ctx, "");
  if (d.empty()) return answer(ctx, n == 1 || n == -1 ? s : std::string_view());
  std::vector<std::string_view> fields;
  std::size_t from = 0;
  while (true) {
    const std::size_t at = s.find(d, from);
    if (at == std::string_view::npos) {
      fields.push_back(s.substr(from));
      break;
    }
    fields.push_back(s.substr(from, at - from));
    from = at + d.size();
  }
  const auto count = static_cast<long long>(fields.size());
  const long long index = n > 0 ? n - 1 : count + n;
  if (index < 0 || index >= count) return answer(ctx, "");
  answer(ctx, fields[static_cast<std::size_t>(index)]);
}

// strpos(s, sub): the character position of the first occurrence (1-based), 0 when absent, 1 for ''.
void pg_strpos(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  const std::string_view s = text_of(argv[0]), sub = text_of(argv[1]);
  const std::size_t at = s.find(sub);
  if (at == std::string_view::npos) return sqlite3_result_int64(ctx, 0);
  long long chars = 0;
  for (std::size_t i = 0; i < at;) {
    pgregex::next_code_point(s, i);
    ++chars;
  }
  sqlite3_result_int64(ctx, chars + 1);
}

// initcap(s): a letter or digit after a letter or digit is lowered, any other character raised
// (towupper / towlower / iswalnum in C.UTF-8, PostgreSQL's rule for a UTF-8 database).
void pg_initcap(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  const std::string_view s = text_of(argv[0]);
  std::string out;
  out.reserve(s.size());
  bool after_alnum = false;
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = pgregex::next_code_point(s, i);
    pgregex::append_utf8(out, after_alnum ? pgregex::to_lower(c) : pgregex::to_upper(c));
    after_alnum = pgregex::is_alnum(c);
  }
  answer(ctx, out);
}

// reverse(s): the characters in reverse order.
void pg_reverse(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  const std::string_view s = text_of(argv[0]);
  const auto starts = char_starts(s);
  std::string out;
  out.reserve(s.size());
  for (std::size_t k = starts.size() - 1; k > 0; --k) out += s.substr(starts[k - 1], starts[k] - starts[k - 1]);
  answer(ctx, out);
}

// ascii(s): the code point of the first character (0 for ''); SQLite's unicode('') is NULL (outside tester s13).
void pg_ascii(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  const std::string_view s = text_of(argv[0]);
  if (s.empty()) return sqlite3_result_int(ctx, 0);
  const auto lead = static_cast<unsigned char>(s[0]);
  const int extra = lead < 0x80 ? 0 : lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
  std::int64_t code = extra == 0 ? lead : lead & (0x3F >> extra);
  for (int k = 1; k <= extra && static_cast<std::size_t>(k) < s.size(); ++k)
    code = (code << 6) | (static_cast<unsigned char>(s[static_cast<std::size_t>(k)]) & 0x3F);
  sqlite3_result_int64(ctx, code);
}

// octet_length(s): the bytes of the text (UTF-8); SQLite's length() counts characters.
void pg_octet_length(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  sqlite3_result_int64(ctx, static_cast<std::int64_t>(text_of(argv[0]).size()));
}

// starts_with(s, prefix): a boolean (1/0).
void pg_starts_with(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  sqlite3_result_int(ctx, text_of(argv[0]).starts_with(text_of(argv[1])) ? 1 : 0);
}

// ---- regular expressions

struct Compiled {
  pcre2_code* code = nullptr;
  pcre2_match_context* limits = nullptr;
  pcre2_match_data* match = nullptr;
  int groups = 0;
  ~Compiled() {
    if (match) pcre2_match_data_free(match);
    if (limits) pcre2_match_context_free(limits);
    if (code) pcre2_code_free(code);
  }
};

void free_compiled(void* p) {
  delete static_cast<Compiled*>(p);
}

// The compiled pattern of argument `arg`, cached on the statement while the argument is constant
// (SQLite's auxdata; handed over when the call ends, as SQLite may free it at once).
class Pattern {
 public:
  Pattern(sqlite3_context* ctx, sqlite3_value** argv, int arg, bool icase, bool extent) : ctx_(ctx), arg_(arg) {
    if ((c_ = static_cast<Compiled*>(sqlite3_get_auxdata(ctx, arg)))) return;
    const auto t = pgregex::translate(text_of(argv[arg]), {icase, extent});
    if (!t.ok) {
      fail(ctx, "querygate: " + t.error);
      return;
    }
    auto c = std::make_unique<Compiled>();
    int error = 0;
    PCRE2_SIZE offset = 0;
    c->code =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(t.pcre.data()), t.pcre.size(), PCRE2_UTF, &error, &offset, nullptr);
    if (!c->code) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(error, message, sizeof message);
      fail(ctx, std::string("querygate: the regular expression did not compile: ") + reinterpret_cast<char*>(message));
      return;
    }
    c->limits = pcre2_match_context_create(nullptr);
    c->match = pcre2_match_data_create_from_pattern(c->code, nullptr);
    if (!c->limits || !c->match) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    pcre2_set_match_limit(c->limits, kMatchLimit);
    pcre2_set_depth_limit(c->limits, kDepthLimit);
    pcre2_set_heap_limit(c->limits, kHeapLimitKib);
    c->groups = t.groups;
    fresh_ = std::move(c);
    c_ = fresh_.get();
  }
  ~Pattern() {
    if (fresh_) sqlite3_set_auxdata(ctx_, arg_, fresh_.release(), free_compiled);
  }
  Pattern(const Pattern&) = delete;
  Pattern& operator=(const Pattern&) = delete;
  Compiled* get() const { return c_; }

 private:
  sqlite3_context* ctx_;
  int arg_;
  Compiled* c_ = nullptr;
  std::unique_ptr<Compiled> fresh_;
};

// One search from byte `start`: 1 found, 0 none, -1 failed (the error is set).
int search(sqlite3_context* ctx, Compiled& c, std::string_view s, std::size_t start) {
  const int rc = pcre2_match(c.code, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), start, 0, c.match, c.limits);
  if (rc >= 0) return 1;
  if (rc == PCRE2_ERROR_NOMATCH) return 0;
  if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT) {
    fail(ctx,
         "querygate: the regular expression hit its match limit (it backtracks too much on this text); simplify "
         "the pattern, e.g. avoid nested repetitions such as (a+)+");
    return -1;
  }
  PCRE2_UCHAR message[256];
  pcre2_get_error_message(rc, message, sizeof message);
  fail(ctx, std::string("querygate: regular expression match failed: ") + reinterpret_cast<char*>(message));
  return -1;
}

bool flags_arg(sqlite3_context* ctx, sqlite3_value* v, bool global_allowed, pgregex::Flags& out) {
  out = pgregex::parse_flags(text_of(v), global_allowed);
  if (!out.ok) fail(ctx, "querygate: " + out.error + " is not translated on SQLite");
  return out.ok;
}

// pg_regex(x, pattern, flags): x ~ pattern (flags 'i': ~*), 1/0.
void pg_regex(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  pgregex::Flags f;
  if (!flags_arg(ctx, argv[2], false, f)) return;
  const Pattern pattern(ctx, argv, 1, f.icase, false);
  Compiled* c = pattern.get();
  if (!c) return;
  const int found = search(ctx, *c, text_of(argv[0]), 0);
  if (found >= 0) sqlite3_result_int(ctx, found);
}

// The next search start after a match [so, eo): its end, one character further when it was empty.
std::size_t after(std::string_view s, std::size_t so, std::size_t eo) {
  if (so != eo) return eo;
  std::size_t i = eo;
  if (i < s.size()) pgregex::next_code_point(s, i);
  return i == eo ? eo + 1 : i;
}

// pg_regexp_replace(x, pattern, replacement, flags): PostgreSQL's \1..\9 and \& in the replacement, \\ a
// backslash, any other backslash kept; 'g' replaces every match (an empty match advances one character).
void pg_regexp_replace(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  pgregex::Flags f;
  if (!flags_arg(ctx, argv[3], true, f)) return;
  const Pattern pattern(ctx, argv, 1, f.icase, true);
  Compiled* c = pattern.get();
  if (!c) return;
  const std::string_view s = text_of(argv[0]), rep = text_of(argv[2]);
  std::string out;
  std::size_t copied = 0, start = 0;
  while (start <= s.size()) {
    const int found = search(ctx, *c, s, start);
    if (found < 0) return;
    if (found == 0) break;
    const PCRE2_SIZE* v = pcre2_get_ovector_pointer(c->match);
    const std::size_t so = v[0], eo = v[1];
    out += s.substr(copied, so - copied);
    for (std::size_t i = 0; i < rep.size(); ++i) {
      if (rep[i] != '\\' || i + 1 >= rep.size()) {
        out += rep[i];
        continue;
      }
      const char n = rep[i + 1];
      int group = -1;
      if (n >= '1' && n <= '9')
        group = n - '0';
      else if (n == '&')
        group = 0;
      if (n == '\\') {
        out += '\\';
        ++i;
        continue;
      }
      if (group < 0) {
        out += '\\';
        continue;
      }
      ++i;
      if (group <= c->groups && v[2 * group] != PCRE2_UNSET)
        out += s.substr(v[2 * group], v[2 * group + 1] - v[2 * group]);
    }
    copied = eo;
    if (!f.global) break;
    start = after(s, so, eo);
  }
  out += s.substr(std::min(copied, s.size()));
  answer(ctx, out);
}

// pg_regexp_count(x, pattern, flags): how many matches a global search finds.
void pg_regexp_count(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  pgregex::Flags f;
  if (!flags_arg(ctx, argv[2], false, f)) return;
  const Pattern pattern(ctx, argv, 1, f.icase, true);
  Compiled* c = pattern.get();
  if (!c) return;
  const std::string_view s = text_of(argv[0]);
  long long count = 0;
  std::size_t start = 0;
  while (start <= s.size()) {
    const int found = search(ctx, *c, s, start);
    if (found < 0) return;
    if (found == 0) break;
    ++count;
    const PCRE2_SIZE* v = pcre2_get_ovector_pointer(c->match);
    start = after(s, v[0], v[1]);
  }
  sqlite3_result_int64(ctx, count);
}

// pg_regexp_substr(x, pattern, flags): the first match, NULL when there is none.
void pg_regexp_substr(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  pgregex::Flags f;
  if (!flags_arg(ctx, argv[2], false, f)) return;
  const Pattern pattern(ctx, argv, 1, f.icase, true);
  Compiled* c = pattern.get();
  if (!c) return;
  const std::string_view s = text_of(argv[0]);
  const int found = search(ctx, *c, s, 0);
  if (found < 0) return;
  if (found == 0) return sqlite3_result_null(ctx);
  const PCRE2_SIZE* v = pcre2_get_ovector_pointer(c->match);
  answer(ctx, s.substr(v[0], v[1] - v[0]));
}

// pg_regexp_match(x, pattern, flags): PostgreSQL's text[] of the first match as a JSON array text
// (sqlite_arrays.hpp): each capturing group's text (NULL for a group that took no part), or the whole match
// when the pattern has no groups; NULL when there is no match.
void pg_regexp_match(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (any_null(argc, argv)) return sqlite3_result_null(ctx);
  pgregex::Flags f;
  if (!flags_arg(ctx, argv[2], false, f)) return;
  const Pattern pattern(ctx, argv, 1, f.icase, true);
  Compiled* c = pattern.get();
  if (!c) return;
  const std::string_view s = text_of(argv[0]);
  const int found = search(ctx, *c, s, 0);
  if (found < 0) return;
  if (found == 0) return sqlite3_result_null(ctx);
  const PCRE2_SIZE* v = pcre2_get_ovector_pointer(c->match);
  const std::uint32_t pairs = pcre2_get_ovector_count(c->match);
  std::string out = "[";
  if (c->groups == 0) {
    arrays::append_text(out, s.substr(v[0], v[1] - v[0]));
  } else {
    for (int g = 1; g <= c->groups; ++g) {
      if (g > 1) out += ',';
      const auto at = static_cast<std::size_t>(g);
      if (at >= pairs || v[2 * at] == PCRE2_UNSET)
        arrays::append_null(out);
      else
        arrays::append_text(out, s.substr(v[2 * at], v[2 * at + 1] - v[2 * at]));
    }
  }
  out += ']';
  answer(ctx, out);
}

}  // namespace

bool register_text_functions(sqlite3* db, int flags) {
  struct Fn {
    const char* name;
    int argc;
    void (*fn)(sqlite3_context*, int, sqlite3_value**);
  };
  static constexpr Fn kFunctions[] = {
      {"pg_concat", -1, pg_concat},
      {"pg_concat_ws", -1, pg_concat_ws},
      {"pg_left", 2, pg_left_right<true>},
      {"pg_right", 2, pg_left_right<false>},
      {"pg_split_part", 3, pg_split_part},
      {"pg_strpos", 2, pg_strpos},
      {"pg_initcap", 1, pg_initcap},
      {"pg_reverse", 1, pg_reverse},
      {"pg_ascii", 1, pg_ascii},
      {"pg_octet_length", 1, pg_octet_length},
      {"pg_starts_with", 2, pg_starts_with},
      {"pg_regex", 3, pg_regex},
      {"pg_regexp_replace", 4, pg_regexp_replace},
      {"pg_regexp_count", 3, pg_regexp_count},
      {"pg_regexp_substr", 3, pg_regexp_substr},
      {"pg_regexp_match", 3, pg_regexp_match},
  };
  for (const auto& f : kFunctions)
    if (sqlite3_create_function(db, f.name, f.argc, flags, nullptr, f.fn, nullptr, nullptr) != SQLITE_OK) return false;
  return true;
}

}  // namespace qg::exec::sqlite
