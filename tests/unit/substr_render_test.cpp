// substr/substring on SQLite means what PostgreSQL means. The rendered SQL runs
// in a real SQLite over a grid of starts and lengths (negative, zero, past the
// end), literal and computed, and must give PostgreSQL's documented answer:
// the characters at positions start .. start+length-1 that exist (the
// integration test wrong_answers_test.cpp checks the same against PostgreSQL).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <optional>
#include <string>

#include "executors/sqlite/sqlite_functions.hpp"
#include "tests/unit/render_test_support.hpp"

namespace qg::render {
namespace {

using namespace test_support;

// PostgreSQL's substr(s, a[, n]) on ASCII text (n >= 0).
std::string pg_substr(const std::string& s, long a, std::optional<long> n) {
  const long len = static_cast<long>(s.size());
  const long from = std::max(a, 1L);
  const long to = n ? std::min(a + *n, len + 1) : len + 1;  // exclusive
  return to <= from || from > len ? std::string()
                                  : s.substr(static_cast<std::size_t>(from - 1), static_cast<std::size_t>(to - from));
}

std::string run_sqlite(const std::string& expr, const std::string& s, long a, long n) {
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  exec::sqlite::register_functions(db);  // pg_int8, which the rendering calls
  const std::string sql = "SELECT " + expr + " FROM (SELECT '" + s + "' AS x, " + std::to_string(a) + " AS a, " +
                          std::to_string(n) + " AS b)";
  sqlite3_stmt* stmt = nullptr;
  std::string out = "<error>";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(stmt, 0);
    out = text ? reinterpret_cast<const char*>(text) : "<null>";
  } else {
    out += sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

Expr integer(long v) {
  return v < 0 ? prefix("-", num(std::to_string(-v))) : num(std::to_string(v));
}

TEST(SubstrRenderTest, SqliteAnswersAsPostgresOverAGrid) {
  for (const std::string s : {"", "a", "hello", "querygate"})
    for (long a = -6; a <= 11; ++a) {
      // Two arguments: literal and computed start.
      const std::string want2 = pg_substr(s, a, std::nullopt);
      EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), integer(a)})), s, a, 0), want2) << s << " " << a;
      EXPECT_EQ(run_sqlite(lite(fn("substring", {col("x"), col("a")})), s, a, 0), want2) << s << " " << a;
      for (long n = 0; n <= 7; ++n) {
        const std::string want = pg_substr(s, a, n);
        const std::string at = s + " from " + std::to_string(a) + " for " + std::to_string(n);
        EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), integer(a), integer(n)})), s, a, n), want) << at;
        EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), integer(a), col("b")})), s, a, n), want) << at;
        EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), col("a"), integer(n)})), s, a, n), want) << at;
        EXPECT_EQ(run_sqlite(lite(fn("substring", {col("x"), col("a"), col("b")})), s, a, n), want) << at;
      }
    }
}

TEST(SubstrRenderTest, LiteralsAreFoldedAndOrdinaryCallsPrintAsWritten) {
  EXPECT_EQ(lite(fn("substr", {col("name"), integer(-1), integer(3)})), "substr(name, 1, 1)");
  EXPECT_EQ(lite(fn("substr", {col("name"), integer(0), integer(3)})), "substr(name, 1, 2)");
  EXPECT_EQ(lite(fn("substr", {col("name"), integer(-5), integer(3)})), "substr(name, 1, 0)");
  EXPECT_EQ(lite(fn("substr", {col("name"), integer(-2)})), "substr(name, 1)");
  EXPECT_EQ(lite(fn("substr", {col("name"), integer(2), integer(3)})), "substr(name, 2, 3)");
  EXPECT_EQ(lite(fn("substring", {col("name"), integer(2)})), "\"substring\"(name, 2)");
  EXPECT_EQ(lite(fn("substring", {col("name"), integer(0)})), "substr(name, 1)");
  // What this prints is left as it is when printed again (a fixed point).
  EXPECT_EQ(lite(fn("substr", {col("name"), fn("max", {col("a"), integer(1)}), fn("max", {col("b"), integer(0)})})),
            "substr(name, max(a, 1), max(b, 0))");
  EXPECT_EQ(lite(fn("substr", {col("name"), integer(1), col("b")})), "substr(name, 1, max(b, 0))");
  EXPECT_EQ(lite(fn("substr", {col("name"), integer(-1), col("b")})), "substr(name, 1, max(pg_int8(b - 2), 0))");
  EXPECT_EQ(lite(fn("substr", {col("name"), col("a")})), "substr(name, max(a, 1))");
  // PostgreSQL has the same meaning natively: printed as written.
  EXPECT_EQ(pg(fn("substr", {col("name"), integer(-1), integer(3)})), "substr(name, - 1, 3)");
}

TEST(SubstrRenderTest, NullArgumentsStayNull) {
  EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), null(), integer(2)})), "hello", 0, 0), "<null>");
  EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), integer(1), null()})), "hello", 0, 0), "<null>");
  EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), null()})), "hello", 0, 0), "<null>");
  EXPECT_EQ(run_sqlite(lite(fn("substr", {col("x"), col("a"), null()})), "hello", 2, 0), "<null>");
}

}  // namespace
}  // namespace qg::render
