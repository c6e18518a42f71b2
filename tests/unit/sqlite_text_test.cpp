// PostgreSQL's text functions and regular expressions as querygate registers
// them on SQLite connections (executors/sqlite/sqlite_text.cpp), on real
// SQLite in memory. Every expected value is what PostgreSQL 15.18 answered for
// the same call in a C.UTF-8 database (psql on the test cluster, 2026-12-02);
// the parity corpus tests/parity/text_functions.sql checks them against a live
// PostgreSQL. Also the pattern reader (common/pg_regex.hpp): what it refuses,
// and that a runaway pattern fails the statement instead of not matching.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "common/pg_regex.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg {
namespace {

struct Outcome {
  bool ok = false;
  bool null = false;
  std::string text;
  std::string error;
};

class SqliteTextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_TRUE(exec::sqlite::register_functions(db_.get()));
  }
  Outcome eval(const std::string& expr) {
    Outcome out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_.get(), ("SELECT " + expr).c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      out.error = sqlite3_errmsg(db_.get());
      return out;
    }
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      out.ok = true;
      out.null = sqlite3_column_type(stmt, 0) == SQLITE_NULL;
      if (const auto* t = sqlite3_column_text(stmt, 0)) out.text = reinterpret_cast<const char*>(t);
    } else {
      out.error = sqlite3_errmsg(db_.get());
    }
    sqlite3_finalize(stmt);
    return out;
  }
  std::string value(const std::string& expr) {
    const Outcome o = eval(expr);
    EXPECT_TRUE(o.ok) << expr << ": " << o.error;
    EXPECT_FALSE(o.null) << expr;
    return o.text;
  }
  bool is_null(const std::string& expr) {
    const Outcome o = eval(expr);
    EXPECT_TRUE(o.ok) << expr << ": " << o.error;
    return o.null;
  }
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, &sqlite3_close};
};

TEST_F(SqliteTextTest, ConcatSkipsNullsAndConcatWsNeedsItsSeparator) {
  EXPECT_EQ(value("pg_concat('a', NULL, 1, '')"), "a1");
  EXPECT_EQ(value("pg_concat(NULL)"), "");  // not NULL
  EXPECT_EQ(value("pg_concat_ws('-', NULL, NULL)"), "");
  EXPECT_EQ(value("pg_concat_ws('', 'a', 'b')"), "ab");
  EXPECT_EQ(value("pg_concat_ws(',', 'a', NULL, 'b')"), "a,b");
  EXPECT_TRUE(is_null("pg_concat_ws(NULL, 'a')"));
}

TEST_F(SqliteTextTest, LeftAndRightCountCharactersAndReadNegativeN) {
  EXPECT_EQ(value("pg_left('héllo', -2)"), "hél");
  EXPECT_EQ(value("pg_right('héllo', -2)"), "llo");
  EXPECT_EQ(value("pg_left('héllo', 10)"), "héllo");
  EXPECT_EQ(value("pg_left('abc', 0)"), "");
  EXPECT_EQ(value("pg_left('abc', -5)"), "");
  EXPECT_EQ(value("pg_right('abc', 0)"), "");
  EXPECT_EQ(value("pg_right('abc', -1)"), "bc");
  EXPECT_EQ(value("pg_right('é😀x', 2)"), "😀x");
  EXPECT_TRUE(is_null("pg_left(NULL, 1)"));
  EXPECT_TRUE(is_null("pg_right('abc', NULL)"));
  EXPECT_FALSE(eval("pg_left('abc', 1.5)").ok);  // admission passes integers only; never a silent truncation
}

TEST_F(SqliteTextTest, SplitPartAsPostgres14) {
  EXPECT_EQ(value("pg_split_part('a,b,c', ',', -1)"), "c");
  EXPECT_EQ(value("pg_split_part('a,b,c', ',', -4)"), "");
  EXPECT_EQ(value("pg_split_part('', ',', 1)"), "");
  EXPECT_EQ(value("pg_split_part('abc', '', 1)"), "abc");
  EXPECT_EQ(value("pg_split_part('abc', '', 2)"), "");
  EXPECT_EQ(value("pg_split_part('abc', '', -1)"), "abc");
  EXPECT_EQ(value("pg_split_part('a::b::c', '::', 2)"), "b");
  EXPECT_EQ(value("pg_split_part('a,b', ',', 5)"), "");
  EXPECT_EQ(value("pg_split_part('a,b', ',', -2)"), "a");
  EXPECT_EQ(value("pg_split_part('a', ',', -1)"), "a");
  const Outcome zero = eval("pg_split_part('a,b', ',', 0)");
  EXPECT_FALSE(zero.ok);
  EXPECT_NE(zero.error.find("field position must not be zero"), std::string::npos) << zero.error;
}

TEST_F(SqliteTextTest, StrposCountsCharactersNotBytes) {
  EXPECT_EQ(value("pg_strpos('😀é😀é', 'é')"), "2");
  EXPECT_EQ(value("pg_strpos('', '')"), "1");
  EXPECT_EQ(value("pg_strpos('abc', 'd')"), "0");
  EXPECT_EQ(value("pg_strpos('abc', 'c')"), "3");
  EXPECT_TRUE(is_null("pg_strpos(NULL, 'a')"));
}

TEST_F(SqliteTextTest, InitcapFollowsPostgresWordRule) {
  EXPECT_EQ(value("pg_initcap('hello wORLD é-été 1st x2y ÉCOLE')"), "Hello World É-Été 1st X2y École");
  EXPECT_EQ(value("pg_initcap('o''neil mc-donald 3rd_place x_y')"), "O'Neil Mc-Donald 3rd_Place X_Y");
  EXPECT_EQ(value("pg_initcap('ÀÉÎ ñandú')"), "Àéî Ñandú");
  EXPECT_EQ(value("pg_initcap('ß straße')"), "ß Straße");
  EXPECT_EQ(value("pg_initcap('ǆa')"), "Ǆa");
  EXPECT_EQ(value("pg_initcap('')"), "");
}

TEST_F(SqliteTextTest, ReverseAndStartsWith) {
  EXPECT_EQ(value("pg_reverse('héllo😀')"), "😀olléh");
  EXPECT_EQ(value("pg_reverse('')"), "");
  EXPECT_EQ(value("pg_starts_with('abc', '')"), "1");
  EXPECT_EQ(value("pg_starts_with('abc', 'abcd')"), "0");
  EXPECT_EQ(value("pg_starts_with('Ébc', 'É')"), "1");
  EXPECT_TRUE(is_null("pg_starts_with(NULL, 'a')"));
}

TEST_F(SqliteTextTest, RegexMatchesAsPostgres) {
  EXPECT_EQ(value("pg_regex('Hello', '^h', 'i')"), "1");
  EXPECT_EQ(value("pg_regex('Hello', '^h', '')"), "0");
  EXPECT_EQ(value("pg_regex('ÉCOLE', 'école', 'i')"), "1");
  EXPECT_EQ(value("pg_regex('Straße', 'STRASSE', 'i')"), "0");
  EXPECT_EQ(value("pg_regex('a' || char(10) || 'b', 'a.b', '')"), "1");  // . matches a newline
  EXPECT_EQ(value("pg_regex('ab' || char(10), 'b$', '')"), "0");         // $ is the very end
  EXPECT_EQ(value("pg_regex('x', '', '')"), "1");
  EXPECT_EQ(value("pg_regex('a', 'a|', '')"), "1");
  EXPECT_EQ(value("pg_regex('abc', '(?:a)(b)c', '')"), "1");
  EXPECT_EQ(value("pg_regex('A1_', '^\\w+$', '')"), "1");
  EXPECT_EQ(value("pg_regex('é', '^[[:lower:]]$', '')"), "1");
  EXPECT_EQ(value("pg_regex('É', '^[[:lower:]]$', 'i')"), "1");  // [:lower:] is [:alpha:] ignoring case
  EXPECT_EQ(value("pg_regex('É', '^[[:upper:]]$', '')"), "1");
  EXPECT_EQ(value("pg_regex('中', '[[:alpha:]]', '')"), "1");
  EXPECT_EQ(value("pg_regex('中', '\\w', '')"), "1");
  EXPECT_EQ(value("pg_regex('é', '\\w', '')"), "1");
  EXPECT_EQ(value("pg_regex('٣', '\\d', '')"), "0");          // \d is 0-9 (iswdigit)
  EXPECT_EQ(value("pg_regex(char(160), '\\s', '')"), "0");    // no-break space is not a space
  EXPECT_EQ(value("pg_regex(char(12288), '\\s', '')"), "1");  // ideographic space is
  EXPECT_EQ(value("pg_regex('ǅ', 'ǅ', 'i')"), "0");           // PostgreSQL's allcases(): lower and upper only
  EXPECT_EQ(value("pg_regex('ǅ', '[ǅ]', 'i')"), "0");         // one character in brackets: the same
  EXPECT_EQ(value("pg_regex('ǅ', '[ǅ-ǅ]', 'i')"), "1");       // a range keeps the character itself
  EXPECT_TRUE(is_null("pg_regex(NULL, 'a', '')"));
}

TEST_F(SqliteTextTest, RegexpReplaceCountSubstrAsPostgres) {
  EXPECT_EQ(value("pg_regexp_replace('abc', 'b*', '-', 'g')"), "-a--c-");
  EXPECT_EQ(value("pg_regexp_replace('abc', 'x*', '-', 'g')"), "-a-b-c-");
  EXPECT_EQ(value("pg_regexp_replace('abc', '(b)', '[\\1\\&\\\\\\0\\q\\2]', '')"), "a[bb\\\\0\\q]c");
  EXPECT_EQ(value("pg_regexp_replace('hello world', 'o', '0', '')"), "hell0 world");
  EXPECT_EQ(value("pg_regexp_replace('hello world', 'o', '0', 'g')"), "hell0 w0rld");
  EXPECT_EQ(value("pg_regexp_replace('Hello', 'h', 'J', 'i')"), "Jello");
  EXPECT_EQ(value("pg_regexp_replace('a.b.c', '\\.', '', 'g')"), "abc");
  EXPECT_EQ(value("pg_regexp_replace('john@example.com', '^([^@]+)@.*$', '\\1', '')"), "john");
  EXPECT_EQ(value("pg_regexp_replace('aaa', 'a*', 'X', 'g')"), "XX");
  EXPECT_EQ(value("pg_regexp_replace('', 'x*', 'Y', 'g')"), "Y");
  EXPECT_EQ(value("pg_regexp_replace('abc', '$', '!', 'g')"), "abc!");
  EXPECT_EQ(value("pg_regexp_replace('abc', '^', '!', 'g')"), "!abc");
  EXPECT_EQ(value("pg_regexp_count('banana', 'an', '')"), "2");
  EXPECT_EQ(value("pg_regexp_count('banana', 'a*', '')"), "7");
  EXPECT_EQ(value("pg_regexp_count('', 'x*', '')"), "1");
  EXPECT_EQ(value("pg_regexp_substr('abc123def', '[0-9]+', '')"), "123");
  EXPECT_TRUE(is_null("pg_regexp_substr('abc', '[0-9]+', '')"));
  EXPECT_FALSE(eval("pg_regexp_replace('a', 'a', 'b', 'x')").ok);  // an unknown flag fails, never ignored
}

TEST_F(SqliteTextTest, RunawayPatternFailsTheStatement) {
  // (a+)+$ backtracks exponentially on a's followed by another character: PCRE2's match limit stops it, and
  // the statement fails (PostgreSQL answers false here; an error is not a wrong answer, a silent false could be).
  const std::string subject = "'" + std::string(40, 'a') + "!'";
  const Outcome o = eval("pg_regex(" + subject + ", '^(a+)+$', '')");
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.error.find("match limit"), std::string::npos) << o.error;
}

TEST_F(SqliteTextTest, PatternOutsideTheSubsetFailsAtRunTimeToo) {
  const Outcome o = eval("pg_regex('aa', '(a)\\1', '')");
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.error.find("back-reference"), std::string::npos) << o.error;
}

// ---- the pattern reader

pgregex::Translation boolean_form(const std::string& p, bool icase = false) {
  return pgregex::translate(p, {icase, false});
}
pgregex::Translation extent_form(const std::string& p) {
  return pgregex::translate(p, {false, true});
}

TEST(PgRegexReader, RefusesConstructsWhoseMeaningDiffers) {
  const char* refused[] = {
      "(a)\\1",      // back-reference
      "\\mword",     // PostgreSQL's start of word
      "word\\M",     // end of word
      "\\yword\\y",  // word boundary
      "\\Yx",        // not a word boundary
      "\\bx",        // backspace in PostgreSQL, word boundary in PCRE
      "\\Ax",        // \A
      "x\\Z",        // \Z
      "(?<=a)b",     // lookbehind
      "(?=a)a",      // lookahead
      "(?<n>a)",     // named group
      "(?i)a",       // embedded options
      "a*+",         // possessive quantifier
      "a**",         // quantifier after a quantifier
      "\\Ka",        // \K
      "[[.a.]]",     // collating element
      "[[=a=]]",     // equivalence class
      "[[:word:]]",  // a class PostgreSQL does not have
      "***=a",       // director
      "a{256}",      // bound over PostgreSQL's 255
      "a{3,2}",      // m > n
      "a{x}",        // not a bound
      "*a",          // nothing to repeat
      "^*",          // quantified anchor
      "(a",          // unclosed group
      "a)",          // unmatched )
      "[a",          // unclosed bracket
      "[z-a]",       // reversed range
      "[\\D]",       // \D in brackets is an error in PostgreSQL
      "\\",          // trailing backslash
      "\\x41",       // hex escape (not translated)
      "a}",          // lone }
  };
  for (const char* p : refused) {
    const auto t = boolean_form(p);
    EXPECT_FALSE(t.ok) << p;
    EXPECT_FALSE(t.error.empty()) << p;
    EXPECT_EQ(t.fix.rfind("FIX:", 0), 0u) << p << ": " << t.fix;
  }
}

TEST(PgRegexReader, AdmitsTheCommonSubset) {
  const char* admitted[] = {"^tool:search_", "a|b",       "(a|b)+c", "[[:alpha:]]+\\d{2,3}$",
                            "[^a-z0-9_]",    "\\s*,\\s*", "x.*?y",   "[]a]",
                            "[a-]",          "\\.\\(\\)", "(?:ab)*", ""};
  for (const char* p : admitted) EXPECT_TRUE(boolean_form(p).ok) << p << ": " << boolean_form(p).error;
}

TEST(PgRegexReader, ExtentFormsAdmitOnlyDeterministicPatterns) {
  // Where PostgreSQL's leftmost-longest and PCRE2's leftmost-first could pick different text: refused.
  const char* refused[] = {"a|ab", "(ab)*", "x.*?y", "a*(ab)*", ".*x", "[a-z]*[a-c]", "\\w+_\\w+", "a?a"};
  for (const char* p : refused) {
    const auto t = extent_form(p);
    EXPECT_FALSE(t.ok) << p;
    EXPECT_EQ(t.fix.rfind("FIX:", 0), 0u) << p;
  }
  const char* admitted[] = {"^([^@]+)@.*$", "[0-9]+", "\\s+", "[^,]*,", "a*b", "(\\d+)-(\\d+)", "o", ".*$", "x*"};
  for (const char* p : admitted) EXPECT_TRUE(extent_form(p).ok) << p << ": " << extent_form(p).error;
}

TEST(PgRegexReader, CaseInsensitiveUsesLowerAndUpperForms) {
  const auto t = boolean_form("é", true);
  ASSERT_TRUE(t.ok);
  EXPECT_NE(t.pcre.find("\\x{c9}"), std::string::npos) << t.pcre;  // É
  EXPECT_NE(t.pcre.find("\\x{e9}"), std::string::npos) << t.pcre;  // é
}

}  // namespace
}  // namespace qg
