// The number functions querygate registers on SQLite connections for PostgreSQL's meaning
// (executors/sqlite/sqlite_numbers.cpp, sqlite_json.cpp): the cases the parity corpus
// (tests/parity/numbers.sql, PostgreSQL itself as the truth) cannot reach through SQL a
// caller writes. Real SQLite, in memory.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "executors/sqlite/sqlite_functions.hpp"

namespace qg {
namespace {

class SqliteNumbersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_TRUE(exec::sqlite::register_functions(db_.get()));
  }
  // The value's text as SQLite prints it ("NULL" for NULL), or "error: <message>".
  std::string eval(const std::string& expr) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_.get(), ("SELECT " + expr).c_str(), -1, &stmt, nullptr), SQLITE_OK) << expr;
    std::string out;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(stmt, 0);
      out = text ? reinterpret_cast<const char*>(text) : "NULL";
    } else {
      out = std::string("error: ") + sqlite3_errmsg(db_.get());
    }
    sqlite3_finalize(stmt);
    return out;
  }
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, &sqlite3_close};
};

TEST_F(SqliteNumbersTest, IntegerCastsRoundAsPostgresDoesForEachSourceType) {
  EXPECT_EQ(eval("pg_number(2.5, 'int4', 'numeric')"), "3");
  EXPECT_EQ(eval("pg_number(-2.5, 'int4', 'numeric')"), "-3");
  EXPECT_EQ(eval("pg_number(2.5, 'int4', 'float8')"), "2");
  EXPECT_EQ(eval("pg_number(3.5, 'int4', 'float8')"), "4");
  EXPECT_EQ(eval("pg_number(-0.5, 'int8', 'float8')"), "0");
  EXPECT_EQ(eval("pg_number(32767.5, 'int2', 'numeric')").rfind("error: querygate: value out of range", 0), 0u);
  EXPECT_EQ(eval("pg_number(1e300, 'int8', 'float8')").rfind("error: querygate: value out of range", 0), 0u);
  // Without the source type the fraction is still PostgreSQL's business, never dropped silently.
  EXPECT_EQ(eval("pg_number(2.5, 'int4')").rfind("error: querygate: a value with a fraction", 0), 0u);
}

TEST_F(SqliteNumbersTest, NumericTypmodRoundsTheDecimalDigitsPostgresHolds) {
  // 2.675 is 2.67499999999999982236431605997495353221893310546875 as a double; PostgreSQL's numeric
  // (and float8's 15 significant digits) hold 2.675, which rounds up.
  EXPECT_EQ(eval("pg_numeric(2.675, 5, 2)"), "2.68");
  EXPECT_EQ(eval("pg_numeric(-2.675, 5, 2)"), "-2.68");
  // 0.1 + 0.2 is 0.30000000000000004 as a double, 0.300000000000000 as float8 -> numeric (admission passes a
  // float through pg_number(x, 'numeric', 'float8') first). A double of 17 significant digits is a numeric
  // whose 16th and 17th are not known exactly: 17 places of it are refused, not cut from 15.
  EXPECT_EQ(eval("pg_numeric(pg_number(0.1 + 0.2, 'numeric', 'float8'), 20, 17)"), "0.3");
  EXPECT_EQ(eval("pg_numeric(0.1 + 0.2, 20, 17)").rfind("error: querygate: rounding to numeric(p, s) needs more", 0),
            0u);
  EXPECT_EQ(eval("pg_round(1e14 / 3, 2)").rfind("error: querygate: round(x, n) needs more", 0), 0u);
  EXPECT_EQ(eval("pg_numeric(9.995, 3, 2)").rfind("error: querygate: numeric field overflow", 0), 0u);
  EXPECT_EQ(eval("pg_numeric(9.994, 3, 2)"), "9.99");
  // A double even for a whole number (7 as numeric(5,0) divided by 2 is 3.5), printed as PostgreSQL prints it.
  EXPECT_EQ(eval("pg_numeric(12345, 5, 0)"), "12345.0");
  EXPECT_EQ(eval("pg_numeric(7, 5, 0) / 2"), "3.5");
  EXPECT_EQ(eval("pg_numeric_text(pg_numeric(7, 5, 0), 0)"), "7");
  EXPECT_EQ(eval("pg_numeric_text(pg_numeric(2.5, 5, 2), 2)"), "2.50");
  EXPECT_EQ(eval("pg_numeric_text(-0.001, 2)"), "0.00");
  // Past a double's 17 digits: the decimal the value stands for, not its binary expansion (s21b).
  EXPECT_EQ(eval("pg_numeric_text(0.1, 20)"), "0.10000000000000000000");
  EXPECT_EQ(eval("pg_numeric_text(2.675, 20)"), "2.67500000000000000000");
  EXPECT_EQ(eval("pg_numeric_text(12.5, 1)"), "12.5");
  // Past the 15 significant digits a double holds exactly, the rounding is not known: the statement fails.
  EXPECT_EQ(eval("pg_number(1e15 + 0.5, 'int8', 'numeric')").rfind("error: querygate: rounding to an integer", 0), 0u);
  EXPECT_EQ(eval("pg_numeric(123456, 5, 0)").rfind("error: querygate: numeric field overflow", 0), 0u);
  EXPECT_EQ(eval("pg_numeric('1.5', 5, 0)").rfind("error: querygate: pg_numeric", 0), 0u);
  EXPECT_EQ(eval("pg_numeric(NULL, 5, 2)"), "NULL");
}

TEST_F(SqliteNumbersTest, TruncCutsTowardZeroWithoutNegativeZero) {
  EXPECT_EQ(eval("pg_trunc(2.789, 1)"), "2.7");
  EXPECT_EQ(eval("pg_trunc(-2.789, 2)"), "-2.78");
  EXPECT_EQ(eval("pg_trunc(-0.05, 1)"), "0.0");
  // A numeric, so a double even when whole: trunc(7, 2) / 2 is 3.5 on PostgreSQL.
  EXPECT_EQ(eval("pg_trunc(7, 2)"), "7.0");
  EXPECT_EQ(eval("pg_trunc(7, 2) / 2"), "3.5");
  EXPECT_EQ(eval("pg_trunc(1.5, NULL)"), "NULL");
}

// Each expected value is PostgreSQL 15's answer (psql on the test cluster) for round / trunc of the same numeric.
TEST_F(SqliteNumbersTest, RoundAndTruncWithNegativeDigitsCutBeforeThePoint) {
  EXPECT_EQ(eval("pg_round(1234.5678, -1)"), "1230.0");
  EXPECT_EQ(eval("pg_round(1235, -1)"), "1240.0");
  EXPECT_EQ(eval("pg_round(15, -1)"), "20.0");
  EXPECT_EQ(eval("pg_round(25, -1)"), "30.0");
  EXPECT_EQ(eval("pg_round(-25, -1)"), "-30.0");
  EXPECT_EQ(eval("pg_round(1249.99, -2)"), "1200.0");
  EXPECT_EQ(eval("pg_round(-1250.5, -2)"), "-1300.0");
  EXPECT_EQ(eval("pg_round(4, -1)"), "0.0");
  EXPECT_EQ(eval("pg_round(5, -20)"), "0.0");
  EXPECT_EQ(eval("pg_round(2.675, 2)"), "2.68");
  EXPECT_EQ(eval("pg_trunc(1234.5678, -2)"), "1200.0");
  EXPECT_EQ(eval("pg_trunc(-1299, -2)"), "-1200.0");
  EXPECT_EQ(eval("pg_trunc(5, -1)"), "0.0");
  EXPECT_EQ(eval("pg_round(NULL, -1)"), "NULL");
  EXPECT_EQ(eval("pg_round(9223372036854775807, -1)").rfind("error: querygate: round(x, n) needs more", 0), 0u);
  EXPECT_EQ(eval("pg_round(1e300, -1)").rfind("error: querygate: round(x, n) needs more", 0), 0u);
}

TEST_F(SqliteNumbersTest, DivisionByZeroIsPostgresError) {
  EXPECT_EQ(eval("pg_div(7, 2 - 2)"), "error: division by zero");
  EXPECT_EQ(eval("pg_div(7.5, 0.0)"), "error: division by zero");
  EXPECT_EQ(eval("pg_div(7, '0')"), "error: division by zero");
  EXPECT_EQ(eval("pg_div(-9223372036854775808, -1)"), "error: bigint out of range");
  // PostgreSQL's / is strict: NULL / 0 is NULL.
  EXPECT_EQ(eval("pg_div(NULL, 0)"), "NULL");
  EXPECT_EQ(eval("pg_div(7, NULL)"), "NULL");
  // Otherwise SQLite's own division, unchanged: integers truncated toward zero, else doubles.
  EXPECT_EQ(eval("pg_div(-7, 2)"), "-3");
  EXPECT_EQ(eval("pg_div(7, 2.0)"), "3.5");
  EXPECT_EQ(eval("pg_div('10', 4)"), "2");
  EXPECT_EQ(eval("pg_div(7, 'abc')").rfind("error: querygate: invalid input syntax", 0), 0u);
  EXPECT_EQ(eval("pg_div(1e308, 1e-10)"), "error: value out of range: overflow");
}

TEST_F(SqliteNumbersTest, FloatOverflowIsPostgresError) {
  EXPECT_EQ(eval("pg_float8(1e308 * 10)"), "error: value out of range: overflow");
  EXPECT_EQ(eval("pg_float8(-1e308 * 10)"), "error: value out of range: overflow");
  EXPECT_EQ(eval("pg_float8(1e300 * 10)"), "1.0e+301");
  EXPECT_EQ(eval("pg_float8(7)"), "7");
  EXPECT_EQ(eval("pg_float8(NULL)"), "NULL");
}

// float8mul / float8div: 0 from operands that are not 0 is "underflow" (SQLite answered 0); a subnormal is a value.
TEST_F(SqliteNumbersTest, FloatUnderflowIsPostgresError) {
  EXPECT_EQ(eval("pg_float8_mul(1e-200, 1e-200)"), "error: value out of range: underflow");
  EXPECT_EQ(eval("pg_float8_mul(5e-324, 0.4)"), "error: value out of range: underflow");
  EXPECT_EQ(eval("pg_float8_mul(1e308, 10)"), "error: value out of range: overflow");
  EXPECT_EQ(eval("pg_float8_mul(1e-310, 0.5)").substr(0, 4), "5.00");  // subnormal: a value
  EXPECT_EQ(eval("pg_float8_mul(0, 1e-200)"), "0.0");
  EXPECT_EQ(eval("pg_float8_mul(2.5, 4)"), "10.0");
  EXPECT_EQ(eval("pg_float8_mul(NULL, 0)"), "NULL");
  EXPECT_EQ(eval("pg_div(1e-300, 1e300)"), "error: value out of range: underflow");
  EXPECT_EQ(eval("pg_div(1e-300, 1e10)").substr(0, 5), "9.999");
  EXPECT_EQ(eval("pg_div(0.0, 1e300)"), "0.0");
}

TEST_F(SqliteNumbersTest, RemainderIsExactAndKeepsTheSignOfTheDividend) {
  EXPECT_EQ(eval("pg_mod(10, 3.5)"), "3.0");
  EXPECT_EQ(eval("pg_mod(1, 0.1)"), "0.0");
  EXPECT_EQ(eval("pg_mod(-7, 3)"), "-1");
  EXPECT_EQ(eval("pg_mod(-7.5, 2)"), "-1.5");
  EXPECT_EQ(eval("pg_mod(7.5, -2)"), "1.5");
  EXPECT_EQ(eval("pg_mod(-9223372036854775808, -1)"), "0");
  EXPECT_EQ(eval("pg_mod(9007199254740993, 10)"), "3");
  EXPECT_EQ(eval("pg_mod(5, 0)"), "error: division by zero");
  EXPECT_EQ(eval("pg_mod(5.5, 0.0)"), "error: division by zero");
  EXPECT_EQ(eval("pg_mod(NULL, 0)"), "NULL");
  // A whole double is exact (floor(x) % 2 past 1e15); a fraction past 1e15 is not known exactly.
  EXPECT_EQ(eval("pg_mod(1000000000000001.0, 2)"), "1.0");
  EXPECT_EQ(eval("pg_mod(1e15 + 0.5, 2)").rfind("error: querygate: x % y with a fraction", 0), 0u);
}

TEST_F(SqliteNumbersTest, GreatestAndLeastSkipNullsAndRefuseMixedTypes) {
  EXPECT_EQ(eval("pg_greatest(1, NULL, 3)"), "3");
  EXPECT_EQ(eval("pg_least(NULL, -1.5, 2)"), "-1.5");
  EXPECT_EQ(eval("pg_greatest(NULL, NULL)"), "NULL");
  EXPECT_EQ(eval("pg_greatest(9223372036854775807, 9223372036854775806)"), "9223372036854775807");
  EXPECT_EQ(eval("pg_least('b', 'B', 'a')"), "B");
  EXPECT_EQ(eval("pg_greatest(1, 'a')").rfind("error: querygate: pg_greatest compares", 0), 0u);
}

TEST_F(SqliteNumbersTest, JsonbExistsIsPostgresTopLevelRule) {
  EXPECT_EQ(eval("pg_jsonb_exists('{\"a\": null}', 'a')"), "1");
  EXPECT_EQ(eval("pg_jsonb_exists('{\"a\": {\"b\": 1}}', 'b')"), "0");
  EXPECT_EQ(eval("pg_jsonb_exists('[\"x\", 1]', 'x')"), "1");
  EXPECT_EQ(eval("pg_jsonb_exists('[\"x\", 1]', '1')"), "0");
  EXPECT_EQ(eval("pg_jsonb_exists('\"s\"', 's')"), "1");
  EXPECT_EQ(eval("pg_jsonb_exists(NULL, 's')"), "NULL");
  EXPECT_EQ(eval("pg_jsonb_exists('{bad', 'a')").rfind("error: querygate: x ? key on a value that is not JSON", 0), 0u);
}

}  // namespace
}  // namespace qg
