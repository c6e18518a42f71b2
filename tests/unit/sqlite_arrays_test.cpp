// PostgreSQL arrays in the one JSON array form (docs/FIDELITY.md, "Arrays"): the PostgreSQL executor's reader
// of array_out's text (executors/postgres/pg_values.cpp), and on SQLite the registered pg_array_agg and
// pg_regexp_match with the array text they return and the executor reads back
// (executors/sqlite/sqlite_arrays.hpp). The expected arrays were read from PostgreSQL 15 itself (psql, the test
// cluster) for the same inputs. Real SQLite, in memory.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "executors/postgres/pg_values.hpp"
#include "executors/sqlite/sqlite_arrays.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg {
namespace {

using exec::Array;
using exec::Value;

Value text(const char* s) {
  return Value(std::string(s));
}
Value integer(std::int64_t i) {
  return Value(i);
}
Value null() {
  return Value(std::monostate{});
}

TEST(PgArrays, ReadsArrayOutText) {
  using exec::pg::read_array;
  namespace oid = exec::pg::oid;
  // SELECT array_agg(x) over 'a', 'b c', NULL, 'NULL', 'x"y', 'back\slash', '', 'it''s', '{}', ','
  EXPECT_EQ(read_array(25, R"({a,"b c",NULL,"NULL","x\"y","back\\slash","",it's,"{}",","})"),
            Value(Array{{text("a"), text("b c"), null(), text("NULL"), text("x\"y"), text("back\\slash"), text(""),
                         text("it's"), text("{}"), text(",")}}));
  EXPECT_EQ(read_array(oid::kInt4, "{1,NULL,-3}"), Value(Array{{integer(1), null(), integer(-3)}}));
  EXPECT_EQ(read_array(oid::kBool, "{t,f}"), Value(Array{{Value(true), Value(false)}}));
  EXPECT_EQ(read_array(oid::kNumeric, "{1.50,2}"), Value(Array{{Value(exec::Decimal{"1.50"}), integer(2)}}));
  EXPECT_EQ(read_array(oid::kTimestamptz, R"({"2026-09-16 00:19:23.57+00"})"),
            Value(Array{{text("2026-09-16T00:19:23.57Z")}}));
  EXPECT_EQ(read_array(oid::kInt4, "{{1,2},{3,4}}"),
            Value(Array{{Value(Array{{integer(1), integer(2)}}), Value(Array{{integer(3), integer(4)}})}}));
  EXPECT_EQ(read_array(oid::kInt4, "{}"), Value(Array{}));
  // Bounds other than 1 (a JSON array cannot say where it starts), or text that is not array_out's: as is.
  EXPECT_EQ(read_array(oid::kInt4, "[0:1]={1,2}"), text("[0:1]={1,2}"));
  EXPECT_EQ(read_array(25, "{a,b"), text("{a,b"));
  EXPECT_EQ(read_array(25, R"({"a})"), text(R"({"a})"));
}

TEST(SqliteArrayText, RoundTrips) {
  namespace arrays = exec::sqlite::arrays;
  EXPECT_EQ(
      arrays::decode(R"([1,-2,null,"a\"b\\c","\u0001",2.5,3.0,1e+300])"),
      (Array{{integer(1), integer(-2), null(), text("a\"b\\c"), text("\x01"), Value(2.5), Value(3.0), Value(1e300)}}));
  EXPECT_EQ(arrays::decode("[]"), Array{});
  EXPECT_FALSE(arrays::decode("[1,"));
  EXPECT_FALSE(arrays::decode("[1]x"));
  EXPECT_FALSE(arrays::decode(R"(["a)"));
  EXPECT_FALSE(arrays::decode("1"));
  const auto inf = arrays::decode("[Infinity,-Infinity,NaN]");
  ASSERT_TRUE(inf);
  EXPECT_TRUE(std::isinf(std::get<double>(inf->items[0])));
  EXPECT_TRUE(std::isnan(std::get<double>(inf->items[2])));
}

class SqliteArraysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_TRUE(exec::sqlite::register_functions(db_.get()));
    exec_sql("CREATE TABLE t(k INTEGER, x TEXT, n INTEGER, f REAL)");
    exec_sql(
        "INSERT INTO t VALUES (1, 'b', 2, 1.5), (1, NULL, NULL, NULL), (1, 'a', 1, 2.0), (1, 'b', 3, 0.1), "
        "(2, 'c', 5, 1e300)");
  }
  void exec_sql(const std::string& sql) {
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  }
  // The one value of `sql`: its text, "<null>" for NULL, or "error: ..." when it fails.
  std::string one(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      return std::string("error: ") + sqlite3_errmsg(db_.get());
    std::string out;
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
      out = sqlite3_column_type(stmt, 0) == SQLITE_NULL ? "<null>"
                                                        : reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    else
      out = std::string("error: ") + sqlite3_errmsg(db_.get());
    sqlite3_finalize(stmt);
    return out;
  }
  struct Close {
    void operator()(sqlite3* db) const { sqlite3_close(db); }
  };
  std::unique_ptr<sqlite3, Close> db_;
};

// PostgreSQL: SELECT array_agg(x ...) FROM t WHERE k = 1 over the same rows.
TEST_F(SqliteArraysTest, ArrayAggKeepsNullsSortsAndDeduplicates) {
  // array_agg(x) in input order, NULL kept: {b,NULL,a,b}
  EXPECT_EQ(one("SELECT pg_array_agg(x, '-') FROM t WHERE k = 1"), R"(["b",null,"a","b"])");
  // array_agg(x ORDER BY n): NULLs last ascending: {a,b,b,NULL}
  EXPECT_EQ(one("SELECT pg_array_agg(x, '-al', n) FROM t WHERE k = 1"), R"(["a","b","b",null])");
  // array_agg(x ORDER BY n DESC): NULLs first descending: {NULL,b,b,a}
  EXPECT_EQ(one("SELECT pg_array_agg(x, '-df', n) FROM t WHERE k = 1"), R"([null,"b","b","a"])");
  // array_agg(x ORDER BY x, n DESC): ties on x broken by n
  EXPECT_EQ(one("SELECT pg_array_agg(n, '-aldf', x, n) FROM t WHERE k = 1"), "[1,3,2,null]");
  // array_agg(DISTINCT x): sorted, NULL once and last: {a,b,NULL}; DESC: {NULL,b,a}
  EXPECT_EQ(one("SELECT pg_array_agg(x, 'D') FROM t WHERE k = 1"), R"(["a","b",null])");
  EXPECT_EQ(one("SELECT pg_array_agg(x, 'Ddf') FROM t WHERE k = 1"), R"([null,"b","a"])");
  // Numbers: integers as integers, floats read back exactly.
  EXPECT_EQ(one("SELECT pg_array_agg(f, '-al', n) FROM t"), "[2.0,1.5,0.1,1e+300,null]");
  // No rows: NULL, not [].
  EXPECT_EQ(one("SELECT pg_array_agg(x, '-') FROM t WHERE k = 9"), "<null>");
  EXPECT_EQ(one("SELECT pg_array_agg(x, '-') FROM t WHERE x IS NULL"), "[null]");
  // A malformed spec fails (a caller may write pg_array_agg on SQLite).
  EXPECT_EQ(one("SELECT pg_array_agg(x, 'D', n) FROM t").rfind("error: pg_array_agg: malformed", 0), 0u);
  EXPECT_EQ(one("SELECT pg_array_agg(x, '-a', n) FROM t").rfind("error: pg_array_agg: malformed", 0), 0u);
  EXPECT_EQ(one("SELECT pg_array_agg(x'00', '-')").rfind("error: querygate: array_agg() of a blob", 0), 0u);
}

// PostgreSQL: regexp_match(x, pattern [, flags]).
TEST_F(SqliteArraysTest, RegexpMatchIsTheCapturesOrTheMatch) {
  EXPECT_EQ(one(R"(SELECT pg_regexp_match('foo-123 bar-45', '([a-z]+)-(\d+)', ''))"), R"(["foo","123"])");
  EXPECT_EQ(one(R"(SELECT pg_regexp_match('foo-123 bar-45', '\d+', ''))"), R"(["123"])");
  EXPECT_EQ(one("SELECT pg_regexp_match('abc', 'x', '')"), "<null>");
  EXPECT_EQ(one("SELECT pg_regexp_match(NULL, 'x', '')"), "<null>");
  EXPECT_EQ(one("SELECT pg_regexp_match('ABC', 'b', 'i')"), R"(["B"])");
  EXPECT_EQ(one("SELECT pg_regexp_match('a\"b', 'a.b', '')"), R"(["a\"b"])");
  // An empty capture is '', not NULL: regexp_match('ab', 'a(x*)b') is {""}.
  EXPECT_EQ(one("SELECT pg_regexp_match('ab', 'a(x*)b', '')"), R"([""])");
  EXPECT_EQ(one("SELECT pg_regexp_match('ab', 'a', 'g')").rfind("error: querygate:", 0), 0u);
}

}  // namespace
}  // namespace qg
