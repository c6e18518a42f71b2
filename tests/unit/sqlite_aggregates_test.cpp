// The aggregates querygate registers on SQLite connections for PostgreSQL's
// (executors/sqlite/sqlite_aggregates.cpp) answer what PostgreSQL 15 answers:
// the expected values below were read from PostgreSQL itself (psql, the test
// cluster) for the same inputs. Real SQLite, in memory.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "executors/sqlite/sqlite_functions.hpp"

namespace qg {
namespace {

struct Cell {
  int type = SQLITE_NULL;
  double number = 0;
  std::string text;
};

class SqliteAggregatesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_TRUE(exec::sqlite::register_functions(db_.get()));
  }
  // The first row of `sql`; `error` set when it fails.
  // SQLite has no column aliases on a FROM item: SELECT s FROM (VALUES v) AS t(c) is run as
  // WITH t(c) AS (VALUES v) SELECT s FROM t (the PostgreSQL form is the one its expected values come from).
  std::vector<Cell> row(const std::string& written, std::string* error = nullptr) {
    static const std::regex kValues(R"(^SELECT (.*) FROM \(VALUES (.*)\) AS t\(([^)]*)\)(.*)$)");
    const std::string sql = std::regex_replace(written, kValues, "WITH t($3) AS (VALUES $2) SELECT $1 FROM t$4");
    std::vector<Cell> out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_.get()) << " in " << sql;
      return out;
    }
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        Cell c;
        c.type = sqlite3_column_type(stmt, i);
        c.number = sqlite3_column_double(stmt, i);
        if (const auto* t = sqlite3_column_text(stmt, i)) c.text = reinterpret_cast<const char*>(t);
        out.push_back(c);
      }
    } else if (error) {
      *error = sqlite3_errmsg(db_.get());
    } else {
      ADD_FAILURE() << sqlite3_errmsg(db_.get()) << " in " << sql;
    }
    sqlite3_finalize(stmt);
    return out;
  }
  std::string text(const std::string& sql) {
    auto r = row(sql);
    return r.empty() ? "<no row>" : r[0].type == SQLITE_NULL ? "NULL" : r[0].text;
  }
  double number(const std::string& sql) {
    auto r = row(sql);
    EXPECT_FALSE(r.empty());
    EXPECT_TRUE(!r.empty() && (r[0].type == SQLITE_FLOAT || r[0].type == SQLITE_INTEGER)) << sql;
    return r.empty() ? NAN : r[0].number;
  }
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, &sqlite3_close};
};

constexpr const char* k124 = " FROM (VALUES (1), (2), (4)) AS t(x)";

TEST_F(SqliteAggregatesTest, IntegerStatisticsAreNumericWithPostgresDigits) {
  EXPECT_EQ(text(std::string("SELECT pg_stddev_samp_exact(x)") + k124), "1.5275252316519467");
  EXPECT_EQ(text(std::string("SELECT pg_var_samp_exact(x)") + k124), "2.3333333333333333");
  EXPECT_EQ(text(std::string("SELECT pg_stddev_pop_exact(x)") + k124), "1.2472191289246471");
  EXPECT_EQ(text(std::string("SELECT pg_var_pop_exact(x)") + k124), "1.5555555555555556");
  // The scale follows the quotient's weight (select_div_scale): 20 digits below 1, 12 for 1..1000.
  EXPECT_EQ(text("SELECT pg_var_samp_exact(x) FROM (VALUES (1), (1), (2)) AS t(x)"), "0.33333333333333333333");
  EXPECT_EQ(text("SELECT pg_stddev_pop_exact(x) FROM (VALUES (1), (1), (2)) AS t(x)"), "0.47140452079103168293");
  EXPECT_EQ(text("WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 1000) "
                 "SELECT pg_stddev_samp_exact(x) FROM s"),
            "288.819436095749");
  EXPECT_EQ(text("WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 1000) "
                 "SELECT pg_var_samp_exact(x) FROM s"),
            "83416.666666666667");
  // Large and negative values: exact (no int64 or double on the way).
  EXPECT_EQ(text("SELECT pg_stddev_samp_exact(x) FROM (VALUES (-3), (100000), (7), (12345678901)) AS t(x)"),
            "6172822783");
  EXPECT_EQ(text("SELECT pg_var_pop_exact(x) FROM (VALUES (-3), (100000), (7), (12345678901)) AS t(x)"),
            "28577805835952704526");
}

TEST_F(SqliteAggregatesTest, StatisticsOfOneRowNoRowsAndEqualValues) {
  EXPECT_EQ(text("SELECT pg_stddev_samp_exact(x) FROM (VALUES (7)) AS t(x)"), "NULL");
  EXPECT_EQ(text("SELECT pg_var_samp_exact(x) FROM (VALUES (7)) AS t(x)"), "NULL");
  EXPECT_EQ(text("SELECT pg_stddev_pop_exact(x) FROM (VALUES (7)) AS t(x)"), "0");
  EXPECT_EQ(text("SELECT pg_stddev_samp_exact(x) FROM (VALUES (5), (5), (NULL)) AS t(x)"), "0");
  EXPECT_EQ(text("SELECT pg_stddev_samp(x) FROM (VALUES (1.0)) AS t(x) WHERE x > 2"), "NULL");
  EXPECT_EQ(text("SELECT pg_var_pop(x) FROM (VALUES (1.0)) AS t(x) WHERE x > 2"), "NULL");
  EXPECT_EQ(text("SELECT pg_stddev_samp(x) FROM (VALUES (2.5)) AS t(x)"), "NULL");
  EXPECT_DOUBLE_EQ(number("SELECT pg_stddev_pop(x) FROM (VALUES (2.5)) AS t(x)"), 0.0);
}

TEST_F(SqliteAggregatesTest, FloatStatisticsFollowFloat8Accum) {
  // PostgreSQL: stddev(float8 1, 2, 4) = 1.5275252316519468, variance = 2.3333333333333335.
  EXPECT_EQ(number("SELECT pg_stddev_samp(CAST(x AS REAL))" + std::string(k124)), 1.5275252316519468);
  EXPECT_EQ(number("SELECT pg_var_samp(CAST(x AS REAL))" + std::string(k124)), 2.3333333333333335);
  std::string error;
  row("SELECT pg_var_samp(x) FROM (VALUES ('a')) AS t(x)", &error);
  EXPECT_NE(error.find("double precision"), std::string::npos) << error;
  error.clear();
  row("SELECT pg_var_samp_exact(x) FROM (VALUES (1.5)) AS t(x)", &error);
  EXPECT_NE(error.find("not an integer"), std::string::npos) << error;
}

TEST_F(SqliteAggregatesTest, RegressionFollowsFloat8RegrAccum) {
  // PostgreSQL over (y, x) = (1, 2), (2, 3.5), (4, 3), (NULL, 1), (5, NULL): rows with a NULL do not count.
  const std::string from = " FROM (VALUES (1.0, 2.0), (2, 3.5), (4, 3), (NULL, 1), (5, NULL)) AS t(y, x)";
  const std::pair<const char*, double> cases[] = {
      {"pg_corr", 0.5},
      {"pg_regr_slope", 0.9999999999999998},
      {"pg_regr_intercept", -0.4999999999999994},
      {"pg_regr_r2", 0.24999999999999997},
      {"pg_regr_count", 3},
      {"pg_covar_pop", 0.38888888888888884},
      {"pg_covar_samp", 0.5833333333333333},
      {"pg_regr_sxx", 1.1666666666666667},
      {"pg_regr_syy", 4.666666666666666},
      {"pg_regr_sxy", 1.1666666666666665},
      {"pg_regr_avgx", 2.8333333333333335},
      {"pg_regr_avgy", 2.3333333333333335},
  };
  for (const auto& [f, want] : cases) {
    const double got = number(std::string("SELECT ") + f + "(y, x)" + from);
    EXPECT_NEAR(got, want, 1e-15 * std::max(1.0, std::fabs(want))) << f;
  }
  // No rows: regr_count 0, the rest NULL; a horizontal line: corr NULL, r2 1, slope 0.
  EXPECT_EQ(text("SELECT pg_regr_count(y, x) FROM (VALUES (1, 1)) AS t(y, x) WHERE y > 5"), "0");
  EXPECT_EQ(text("SELECT pg_corr(y, x) FROM (VALUES (1, 1)) AS t(y, x) WHERE y > 5"), "NULL");
  EXPECT_EQ(text("SELECT pg_corr(y, x) FROM (VALUES (1, 1), (1, 2)) AS t(y, x)"), "NULL");
  EXPECT_DOUBLE_EQ(number("SELECT pg_regr_r2(y, x) FROM (VALUES (1, 1), (1, 2)) AS t(y, x)"), 1.0);
  EXPECT_DOUBLE_EQ(number("SELECT pg_regr_slope(y, x) FROM (VALUES (1, 1), (1, 2)) AS t(y, x)"), 0.0);
  // A vertical line: slope NULL; one row: covar_samp NULL.
  EXPECT_EQ(text("SELECT pg_regr_slope(y, x) FROM (VALUES (3, 1), (5, 1)) AS t(y, x)"), "NULL");
  EXPECT_EQ(text("SELECT pg_covar_samp(y, x) FROM (VALUES (3, 1)) AS t(y, x)"), "NULL");
}

TEST_F(SqliteAggregatesTest, StringAggSortsDeduplicatesAndSkipsNulls) {
  const std::string from = " FROM (VALUES ('b'), ('a'), (NULL), ('b'), ('C')) AS t(x)";
  // PostgreSQL: string_agg(x, ',' ORDER BY x DESC NULLS FIRST) = 'b,b,a,C'.
  EXPECT_EQ(text("SELECT pg_string_agg(x, ',', '-df', x)" + from), "b,b,a,C");
  // string_agg(DISTINCT x, '|') = 'C|a|b' (sorted by the bytes: the cluster's collation is C.UTF-8).
  EXPECT_EQ(text("SELECT pg_string_agg(x, '|', 'D')" + from), "C|a|b");
  EXPECT_EQ(text("SELECT pg_string_agg(x, '|', 'Ddf', x)" + from), "b|a|C");
  // A NULL delimiter adds nothing.
  EXPECT_EQ(text("SELECT pg_string_agg(x, NULL, '-al', x)" + from), "Cabb");
  // Each row's own delimiter goes before its value; the first row's is dropped: 'a-bc'.
  EXPECT_EQ(text("SELECT pg_string_agg(x, y, '-al', x) FROM (VALUES ('b', '-'), ('a', '+'), ('c', NULL)) AS t(x, y)"),
            "a-bc");
  // Several keys with NULLS FIRST / LAST.
  const std::string keyed = " FROM (VALUES ('a', 2), ('b', NULL), ('c', 1), ('d', 2), ('e', NULL)) AS t(x, k)";
  EXPECT_EQ(text("SELECT pg_string_agg(x, ',', '-afdf', k, x)" + keyed), "e,b,c,d,a");
  EXPECT_EQ(text("SELECT pg_string_agg(x, ',', '-dlal', k, x)" + keyed), "a,d,c,b,e");
  // No value at all: NULL.
  EXPECT_EQ(text("SELECT pg_string_agg(x, ',', '-al', x) FROM (VALUES (NULL)) AS t(x)"), "NULL");
  std::string error;
  row("SELECT pg_string_agg(x, ',', '-a', x) FROM (VALUES ('a')) AS t(x)", &error);
  EXPECT_NE(error.find("sort specification"), std::string::npos) << error;
}

TEST_F(SqliteAggregatesTest, OrderedSetAggregatesAsPostgres) {
  const std::string from = " FROM (VALUES (1), (2), (2), (3), (3), (10), (NULL)) AS t(x)";
  // PostgreSQL: 2.5, 2, 3 (0.25 of the descending order), 1, mode 2 (first of the ties), DESC: 3.
  EXPECT_DOUBLE_EQ(number("SELECT pg_percentile_cont(0.5, x, 0)" + from), 2.5);
  EXPECT_EQ(text("SELECT pg_percentile_disc(0.5, x, 0)" + from), "2");
  EXPECT_DOUBLE_EQ(number("SELECT pg_percentile_cont(0.25, x, 1)" + from), 3.0);
  EXPECT_EQ(text("SELECT pg_percentile_disc(0, x, 0)" + from), "1");
  EXPECT_EQ(text("SELECT pg_percentile_disc(1, x, 0)" + from), "10");
  EXPECT_EQ(text("SELECT pg_mode(x, 0)" + from), "2");
  EXPECT_EQ(text("SELECT pg_mode(x, 1)" + from), "3");
  // Text keeps its type; empty input is NULL.
  EXPECT_EQ(text("SELECT pg_mode(x, 0) FROM (VALUES ('b'), ('a'), ('b'), ('a'), ('c')) AS t(x)"), "a");
  EXPECT_EQ(text("SELECT pg_percentile_disc(0.34, x, 0) FROM (VALUES ('b'), ('a'), ('b'), ('a'), ('c')) AS t(x)"),
            "a");  // row ceil(0.34 * 5) = 2 of a, a, b, b, c
  EXPECT_EQ(text("SELECT pg_percentile_disc(0.41, x, 0) FROM (VALUES ('b'), ('a'), ('b'), ('a'), ('c')) AS t(x)"), "b");
  EXPECT_EQ(text("SELECT pg_percentile_cont(0.5, x, 0) FROM (VALUES (1)) AS t(x) WHERE x > 1"), "NULL");
  EXPECT_EQ(text("SELECT pg_mode(x, 0) FROM (VALUES (1)) AS t(x) WHERE x > 1"), "NULL");
  std::string error;
  row("SELECT pg_percentile_cont(1.5, x, 0) FROM (VALUES (1)) AS t(x)", &error);
  EXPECT_NE(error.find("between 0 and 1"), std::string::npos) << error;
}

// sum() / avg() of a numeric of unknown scale: the exact decimal sum (PostgreSQL's add_var), returned as the double
// nearest it. SQLite's own sum() of the same doubles drifts (0.1 + 0.2 + 0.3 = 0.6000000000000001).
TEST_F(SqliteAggregatesTest, NumericSumAndAvgAddDecimalsExactly) {
  constexpr const char* kDrift = " FROM (VALUES (0.1), (0.2), (0.3), (NULL)) AS t(x)";
  EXPECT_NE(number(std::string("SELECT sum(x)") + kDrift), 0.6);  // the drift this aggregate removes
  EXPECT_EQ(number(std::string("SELECT pg_numeric_sum(x, 'numeric')") + kDrift), 0.6);
  EXPECT_EQ(number(std::string("SELECT pg_numeric_avg(x, 'numeric')") + kDrift), 0.2);
  // Leading zeros of a fraction are digits, not an octal prefix: -0.5, -0.25, 0.1 average -0.21666...
  EXPECT_EQ(number("SELECT pg_numeric_avg(x, 'numeric') FROM (VALUES (-0.5), (-0.25), (0.1)) AS t(x)"),
            -0.21666666666666667);
  EXPECT_EQ(number("SELECT pg_numeric_sum(x, 'numeric') FROM (VALUES (0.07), (0.000001), (3)) AS t(x)"), 3.070001);
  // float8 to numeric keeps 15 significant digits: 0.1 + 0.2 (0.30000000000000004 as a double) is 0.3 there.
  EXPECT_EQ(number("SELECT pg_numeric_sum(x, 'float8') FROM (VALUES (0.1 + 0.2), (1)) AS t(x)"), 1.3);
  // A numeric column's double is the shortest text that reads back as it (0.30000000000000004 here, 1.3 is
  // the double nearest 1.30000000000000004), with an exponent or not.
  EXPECT_EQ(number("SELECT pg_numeric_sum(x, 'numeric') FROM (VALUES (0.1 + 0.2), (1)) AS t(x)"), 1.3);
  EXPECT_EQ(number("SELECT pg_numeric_sum(x, 'numeric') FROM (VALUES (1e-7), (2.5e-7), (1e22)) AS t(x)"), 1e22);
  EXPECT_EQ(number("SELECT pg_numeric_avg(x, 'numeric') FROM (VALUES (1e-7), (3e-7)) AS t(x)"), 2e-7);
  // Text PostgreSQL's numeric could not hold (a SQLite NUMERIC column keeps it): SQLite's own sum and avg.
  EXPECT_EQ(number("SELECT pg_numeric_avg(x, 'numeric') FROM (VALUES (''), (3.0), (1)) AS t(x)"), 4.0 / 3);
  EXPECT_EQ(number("SELECT pg_numeric_sum(x, 'numeric') FROM (VALUES ('x'), (0.5)) AS t(x)"), 0.5);
  // Whole values, integers among them, and no rows.
  EXPECT_EQ(number("SELECT pg_numeric_avg(x, 'numeric') FROM (VALUES (1), (2.0)) AS t(x)"), 1.5);
  EXPECT_EQ(text("SELECT pg_numeric_sum(x, 'numeric') FROM (VALUES (1.5)) AS t(x) WHERE x > 2"), "NULL");
  EXPECT_EQ(text("SELECT pg_numeric_avg(x, 'numeric') FROM (VALUES (NULL)) AS t(x)"), "NULL");
}

// The pg_numeric collation compares decimal texts as numerics (PostgreSQL: 1.0 = 1, 9 < 10, -0.5 < 0 = -0.00,
// 0.66666666666666666666 < 0.66666666666666666667, 1e2 = 100), texts that are no number after every number; the
// exact ordered-set flag (2) orders the values so; pg_numeric_greatest / least skip NULLs and keep the digits.
TEST_F(SqliteAggregatesTest, NumericCollationOrdersDecimalTextsAsNumerics) {
  EXPECT_EQ(text("SELECT count(DISTINCT x COLLATE pg_numeric) FROM (VALUES ('1.0'), ('1'), ('1.000'), ('+1')) AS t(x)"),
            "1");
  EXPECT_EQ(text("SELECT group_concat(column1, ' ') FROM (SELECT column1 FROM (VALUES ('10'), ('9'), ('-0.5'), "
                 "('-0.00'), ('abc'), ('0.66666666666666666667'), ('0.66666666666666666666'), ('1e2'), ('-12')) "
                 "ORDER BY column1 COLLATE pg_numeric)"),
            "-12 -0.5 -0.00 0.66666666666666666666 0.66666666666666666667 9 10 1e2 abc");
  EXPECT_EQ(text("SELECT '100' = '1e2' COLLATE pg_numeric"), "1");
  EXPECT_EQ(text("SELECT '-0.00' = '0' COLLATE pg_numeric"), "1");
  // PostgreSQL: percentile_disc(0.5) of (10, 9, 0.66666666666666666667) is 9; the texts' bytes would choose 10.
  EXPECT_EQ(
      text("SELECT pg_percentile_disc(0.5, x, 2) FROM (VALUES ('10'), ('9'), ('0.66666666666666666667')) AS t(x)"),
      "9");
  EXPECT_EQ(
      text("SELECT pg_percentile_disc(0.5, x, 0) FROM (VALUES ('10'), ('9'), ('0.66666666666666666667')) AS t(x)"),
      "10");  // without the flag: text order
  EXPECT_EQ(text("SELECT pg_mode(x, 2) FROM (VALUES ('1.0'), (1), ('2'), ('2.00'), ('2')) AS t(x)"), "2");
  EXPECT_EQ(text("SELECT pg_numeric_greatest('0.66666666666666666667', NULL, 0.7, '0.66666666666666666666', "
                 "'numeric:t')"),
            "0.7");
  EXPECT_EQ(text("SELECT pg_numeric_least('0.66666666666666666667', NULL, 0.7, '0.66666666666666666666', "
                 "'numeric:t')"),
            "0.66666666666666666666");
  EXPECT_EQ(text("SELECT pg_numeric_greatest(NULL, NULL, 'numeric:t')"), "NULL");
  EXPECT_EQ(text("SELECT pg_numeric_decimal(2.5, 'n', 2) || ' ' || pg_numeric_decimal(7, 'n') || ' ' || "
                 "pg_numeric_decimal('0.10', 'n')"),
            "2.50 7 0.10");
}

}  // namespace
}  // namespace qg
