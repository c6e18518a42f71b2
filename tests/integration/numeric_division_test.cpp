// PostgreSQL's numeric division, mean and window sums on SQLite, checked against
// PostgreSQL itself (issue #12): pg_numeric_div, pg_numeric_avg and the window
// forms of pg_numeric_sum / pg_numeric_avg (executors/sqlite/sqlite_decimals.cpp,
// sqlite_aggregates.cpp) must give the double nearest PostgreSQL's numeric
// answer for every operand: random decimals of every magnitude, scale and sign,
// the float8 casts of random doubles, and moving window frames. The truth is
// PostgreSQL's own numeric, read back through float8 (the double nearest it).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <vector>

#include "admission/catalog/catalog.hpp"
#include "admission/pipeline.hpp"
#include "executors/sqlite/sqlite_functions.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

// A decimal literal of 1 to 15 significant digits (what a SQLite double holds exactly as its shortest text),
// at a random place, of either sign.
std::string random_decimal(std::mt19937_64& rng, bool nonzero) {
  std::uniform_int_distribution<int> digits(1, 15), place(-14, 12), coin(0, 1), digit(0, 9), first(1, 9);
  std::string d(1, static_cast<char>('0' + first(rng)));
  const int n = digits(rng);
  for (int i = 1; i < n; ++i) d += static_cast<char>('0' + digit(rng));
  if (!nonzero && coin(rng) && coin(rng) && coin(rng)) return "0";
  while (d.size() > 1 && d.back() == '0') d.pop_back();  // the shortest text of its double has none
  std::string text = d.substr(0, 1) + (d.size() > 1 ? "." + d.substr(1) : "") + "e" + std::to_string(place(rng));
  return (coin(rng) ? "-" : "") + text;
}

double read_double(const std::string& text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

class NumericDivisionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    lite_.reset(raw);
    ASSERT_TRUE(exec::sqlite::register_functions(lite_.get()));
  }
  // Each row of `sql` on SQLite, its columns as text ("NULL"), or the error.
  std::vector<std::vector<std::string>> sqlite_rows(const std::string& sql) {
    std::vector<std::vector<std::string>> out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(lite_.get(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(lite_.get()) << " in " << sql.substr(0, 300);
      return out;
    }
    int rc = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        if (sqlite3_column_type(stmt, i) == SQLITE_NULL) {
          row.emplace_back("NULL");
        } else {
          char buf[40];
          const auto r = std::to_chars(buf, buf + sizeof buf, sqlite3_column_double(stmt, i));
          row.emplace_back(buf, r.ptr);
        }
      }
      out.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) ADD_FAILURE() << sqlite3_errmsg(lite_.get()) << " in " << sql.substr(0, 300);
    sqlite3_finalize(stmt);
    return out;
  }
  static std::vector<std::vector<std::string>> pg_rows(const PgTestServer& server, const std::string& sql) {
    pqxx::connection c(pg_dsn(server, "postgres", "postgres"));
    pqxx::nontransaction tx(c);
    tx.exec("SET extra_float_digits = 1");  // float8 out: the shortest text that reads back as the double
    std::vector<std::vector<std::string>> out;
    for (const auto& r : tx.exec(sql)) {
      std::vector<std::string> row;
      for (const auto& f : r) {
        if (f.is_null()) {
          row.emplace_back("NULL");
        } else {
          char buf[40];
          const auto t = std::to_chars(buf, buf + sizeof buf, read_double(f.c_str()));
          row.emplace_back(buf, t.ptr);
        }
      }
      out.push_back(std::move(row));
    }
    return out;
  }
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> lite_{nullptr, sqlite3_close};
};

// a / b of numerics: the operands' decimals divided at select_div_scale's scale, rounded half away from zero.
TEST_F(NumericDivisionTest, DivisionOfDecimalsIsPostgresNumericDiv) {
  QG_PG_TEST_SERVER(server);
  std::mt19937_64 rng(12);
  std::string pg = "SELECT (a::numeric / b::numeric)::float8 FROM (VALUES ", lite = "SELECT ";
  std::vector<std::pair<std::string, std::string>> pairs = {{"7", "0.03"},
                                                            {"1", "3"},
                                                            {"10", "3"},
                                                            {"-2.5", "7"},
                                                            {"0", "5"},
                                                            {"123456789.123", "0.001"},
                                                            {"1e-10", "3"},
                                                            {"2", "3"},
                                                            {"9999", "9999"},
                                                            {"1", "9999"},
                                                            {"9999", "1"},
                                                            {"0.0001", "0.0003"},
                                                            {"12345.6789", "0.987"},
                                                            {"1e15", "7"},
                                                            {"-1", "-3"},
                                                            {"5", "2"}};
  for (int i = 0; i < 1500; ++i) pairs.emplace_back(random_decimal(rng, false), random_decimal(rng, true));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    pg += (i ? ", (" : "(") + std::to_string(i) + ", '" + pairs[i].first + "', '" + pairs[i].second + "')";
    lite += (i ? ", pg_numeric_div(" : "pg_numeric_div(") + pairs[i].first + ", " + pairs[i].second + ", 'nn')";
  }
  pg += ") AS t(i, a, b) ORDER BY i";
  const auto want = pg_rows(server, pg);
  const auto got = sqlite_rows(lite);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(want.size(), pairs.size());
  int wrong = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (got[0][i] != want[i][0] && ++wrong <= 10)
      ADD_FAILURE() << pairs[i].first << " / " << pairs[i].second << ": PostgreSQL " << want[i][0] << ", SQLite "
                    << got[0][i];
  EXPECT_EQ(wrong, 0);
}

// CAST(x AS numeric) of a float8 keeps 15 significant digits of it ('f'), on either side of the division.
TEST_F(NumericDivisionTest, FloatCastOperandsKeepFifteenDigits) {
  QG_PG_TEST_SERVER(server);
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
  std::uniform_int_distribution<int> exponent(-8, 8);
  std::string pg = "SELECT (a::float8::numeric / b::float8::numeric)::float8, (a::float8::numeric / 7)::float8 "
                   "FROM (VALUES ",
              lite = "SELECT ";
  constexpr int kPairs = 800;
  for (int i = 0; i < kPairs; ++i) {
    char a[40], b[40];
    std::snprintf(a, sizeof a, "%.17g", mantissa(rng) * std::pow(10.0, exponent(rng)));
    std::snprintf(b, sizeof b, "%.17g", (std::fabs(mantissa(rng)) + 0.5) * std::pow(10.0, exponent(rng)));
    pg += std::string(i ? ", (" : "(") + std::to_string(i) + ", '" + a + "', '" + b + "')";
    lite +=
        std::string(i ? ", " : "") + "pg_numeric_div(" + a + ", " + b + ", 'ff'), pg_numeric_div(" + a + ", 7, 'fn')";
  }
  pg += ") AS t(i, a, b) ORDER BY i";
  const auto want = pg_rows(server, pg);
  const auto got = sqlite_rows(lite);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(want.size(), static_cast<std::size_t>(kPairs));
  int wrong = 0;
  for (int i = 0; i < kPairs; ++i)
    for (int k = 0; k < 2; ++k)
      if (got[0][2 * i + k] != want[i][k] && ++wrong <= 10)
        ADD_FAILURE() << "pair " << i << " column " << k << ": PostgreSQL " << want[i][k] << ", SQLite "
                      << got[0][2 * i + k];
  EXPECT_EQ(wrong, 0);
}

// NULL in, NULL out (before the divisor is looked at); a zero divisor is PostgreSQL's error, not SQLite's NULL.
TEST_F(NumericDivisionTest, NullsAndZero) {
  EXPECT_EQ(sqlite_rows("SELECT pg_numeric_div(NULL, 0, 'nn'), pg_numeric_div(1.5, NULL, 'nn')"),
            (std::vector<std::vector<std::string>>{{"NULL", "NULL"}}));
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(lite_.get(), "SELECT pg_numeric_div(1.5, 0.0, 'nn')", -1, &stmt, nullptr), SQLITE_OK);
  EXPECT_EQ(sqlite3_step(stmt), SQLITE_ERROR);
  EXPECT_STREQ(sqlite3_errmsg(lite_.get()), "division by zero");
  sqlite3_finalize(stmt);
}

// avg() of numerics is sum / count by numeric_div; sum() and avg() OVER moving frames add and drop values exactly.
TEST_F(NumericDivisionTest, MeansAndWindowFramesArePostgres) {
  QG_PG_TEST_SERVER(server);
  std::mt19937_64 rng(5);
  std::string values;
  constexpr int kRows = 400;
  for (int i = 0; i < kRows; ++i)
    values += (i ? ", (" : "(") + std::to_string(i) + ", " + std::to_string(i % 7) + ", " +
              (i % 13 == 0 ? std::string("NULL") : random_decimal(rng, false)) + ")";
  const std::string lite_select =
      "pg_numeric_sum(x, 'numeric') OVER (ORDER BY i ROWS BETWEEN 4 PRECEDING AND CURRENT ROW), "
      "pg_numeric_avg(x, 'numeric') OVER (PARTITION BY g ORDER BY i ROWS BETWEEN 2 PRECEDING AND 3 FOLLOWING), "
      "pg_numeric_avg(x, 'numeric') OVER (PARTITION BY g), pg_numeric_sum(x, 'numeric') OVER (ORDER BY i)";
  const std::string pg_select =
      "(sum(x) OVER (ORDER BY i ROWS BETWEEN 4 PRECEDING AND CURRENT ROW))::float8, "
      "(avg(x) OVER (PARTITION BY g ORDER BY i ROWS BETWEEN 2 PRECEDING AND 3 FOLLOWING))::float8, "
      "(avg(x) OVER (PARTITION BY g))::float8, (sum(x) OVER (ORDER BY i))::float8";
  const auto want = pg_rows(server, "SELECT " + pg_select + " FROM (VALUES " + values + ") AS t(i, g, x) ORDER BY i");
  const auto got =
      sqlite_rows("WITH t(i, g, x) AS (VALUES " + values + ") SELECT " + lite_select + " FROM t ORDER BY i");
  ASSERT_EQ(want.size(), static_cast<std::size_t>(kRows));
  ASSERT_EQ(got.size(), static_cast<std::size_t>(kRows));
  int wrong = 0;
  for (int i = 0; i < kRows; ++i)
    for (int k = 0; k < 4; ++k)
      if (got[i][k] != want[i][k] && ++wrong <= 10)
        ADD_FAILURE() << "row " << i << " column " << k << ": PostgreSQL " << want[i][k] << ", SQLite " << got[i][k];
  EXPECT_EQ(wrong, 0);
}

// sqrt, exp, ln, log, log(b, x), power of numerics: numeric.c's result scale, the digits rounded there
// (pg_numeric_math): floor(log(10, 1000)) is 3 on PostgreSQL, 2 in SQLite's doubles.
TEST_F(NumericDivisionTest, MathFunctionsArePostgresNumeric) {
  QG_PG_TEST_SERVER(server);
  std::mt19937_64 rng(33);
  std::uniform_int_distribution<int> small(-40, 40), whole(-6, 12);
  const auto positive = [&] {
    std::string d = random_decimal(rng, true);
    return d.front() == '-' ? d.substr(1) : d;
  };
  std::vector<std::string> pg_calls, lite_calls;
  const auto add = [&](const std::string& pg, const std::string& lite) {
    pg_calls.push_back("(" + pg + ")::float8");
    lite_calls.push_back(lite);
  };
  for (const char* exact : {"1000", "8", "100000", "0.001", "1"}) {
    add(std::string("log(10, ") + exact + "::numeric)", std::string("pg_numeric_math('log', 10, ") + exact + ")");
    add(std::string("log(2, ") + exact + "::numeric)", std::string("pg_numeric_math('log', 2, ") + exact + ")");
  }
  for (int i = 0; i < 150; ++i) {
    const std::string x = positive(), b = positive(), k = std::to_string(whole(rng));
    add("sqrt('" + x + "'::numeric)", "pg_numeric_math('sqrt', " + x + ")");
    add("ln('" + x + "'::numeric)", "pg_numeric_math('ln', " + x + ")");
    add("log('" + x + "'::numeric)", "pg_numeric_math('log', " + x + ")");
    if (b != "1")
      add("log('" + b + "'::numeric, '" + x + "'::numeric)", "pg_numeric_math('log', " + b + ", " + x + ")");
    // (Operands written as literals: a quotient's double has lost the scale PostgreSQL's numeric keeps, 16 places
    // for 26.5 / 4, which sets the result's scale.)
    const std::string third = std::to_string(small(rng)) + "." + std::to_string(1000 + i * 7919 % 9000);
    add("exp(" + third + "::numeric)", "pg_numeric_math('exp', " + third + ")");
    const std::string base = std::to_string(1 + i % 9) + "." + std::to_string(i % 97);
    add("power(" + base + "::numeric, " + k + "::numeric)", "pg_numeric_math('power', " + base + ", " + k + ")");
    const std::string quarter = std::to_string(small(rng) / 4) + "." + std::to_string(125 + (i % 7) * 125);
    add("power(" + base + "::numeric, " + quarter + "::numeric)",
        "pg_numeric_math('power', " + base + ", " + quarter + ")");
  }
  std::string pg = "SELECT ", lite = "SELECT ";
  for (std::size_t i = 0; i < pg_calls.size(); ++i) {
    pg += (i ? ", " : "") + pg_calls[i];
    lite += (i ? ", " : "") + lite_calls[i];
  }
  const auto want = pg_rows(server, pg);
  const auto got = sqlite_rows(lite);
  ASSERT_EQ(want.size(), 1u);
  ASSERT_EQ(got.size(), 1u);
  int wrong = 0;
  for (std::size_t i = 0; i < pg_calls.size(); ++i)
    if (got[0][i] != want[0][i] && ++wrong <= 10)
      ADD_FAILURE() << pg_calls[i] << ": PostgreSQL " << want[0][i] << ", SQLite " << got[0][i];
  EXPECT_EQ(wrong, 0) << "of " << pg_calls.size();
}

// A chain of exact numerics read by floor, ceil, trunc, round, sign, a comparison, BETWEEN, IN, a prefix minus or
// an integer cast, directly or through COALESCE / CASE: the consumer sees every digit PostgreSQL's numeric holds, not
// the double nearest it (floor(5.0 / 7 * 7) is 4: 4.99999999999999999997; the double is 5; outside tester s12). Written
// as PostgreSQL, admitted for SQLite by the real pipeline, run on SQLite, and compared with PostgreSQL's own answers.
TEST_F(NumericDivisionTest, ExactChainsReadEveryDigitThroughAdmission) {
  QG_PG_TEST_SERVER(server);
  std::mt19937_64 rng(13);
  const std::vector<std::string> templates = {
      "floor({a} / {b} * {b})",
      "ceil({a} / {b} * {b})",
      "trunc({a} / {b} * {b})",
      "round({a} / {b} * {b})",
      "round({a} / {b} * {c}, 3)",
      "trunc({a} / {b} * {c}, 2)",
      "sign({a} / {b} * {b} - {a})",
      "abs({a} / {b}) * {b}",
      "floor(-({a} / {b}) * {b})",
      "CAST({a} / {b} * {b} AS integer)",
      "CASE WHEN {a} / {b} * {b} = {a} THEN 1 ELSE 0 END",
      "CASE WHEN {a} / {b} * {b} < {a} THEN 1 ELSE 0 END",
      "CASE WHEN {a} / {b} * {b} >= {a} THEN 1 ELSE 0 END",
      "CASE WHEN {a} / {b} * {b} BETWEEN {a} AND {a} THEN 1 ELSE 0 END",
      "CASE WHEN {a} / {b} * {b} NOT IN ({a}, {c}) THEN 1 ELSE 0 END",
      "CASE WHEN {a} <> {a} / {b} * {b} THEN 1 ELSE 0 END",
      "floor(coalesce({a} / {b} * {b}, 0))",
      "CASE WHEN CASE WHEN {a} > 0 THEN {a} / {b} * {b} ELSE {c} END = {a} THEN 1 ELSE 0 END",
  };
  std::vector<std::string> exprs;
  for (int i = 0; i < 60; ++i) {
    // Small operands: the chains stay within the double's range and an integer cast within int4.
    std::uniform_int_distribution<int> whole(-999, 999), scale(0, 4), divisor(1, 97);
    const auto decimal = [&](int v) {
      const int s = scale(rng);
      std::string d = std::to_string(std::abs(v));
      const auto places = static_cast<std::size_t>(s);
      if (places == 0) {
        d += ".0";
      } else {
        if (d.size() <= places) d.insert(0, places + 1 - d.size(), '0');
        d.insert(d.size() - places, ".");
      }
      return v < 0 ? "(-" + d + ")" : d;
    };
    const std::string a = decimal(whole(rng)), b = std::to_string(divisor(rng)) + ".0", c = decimal(whole(rng));
    for (std::string t : templates) {
      for (const auto& [k, v] : {std::pair{"{a}", a}, std::pair{"{b}", b}, std::pair{"{c}", c}})
        for (auto at = t.find(k); at != std::string::npos; at = t.find(k, at + v.size())) t.replace(at, 3, v);
      exprs.push_back(t);
    }
  }
  catalog::Catalog empty;  // SQLite, no tables: the expressions read none
  config::Limits limits;
  int wrong = 0, chains = 0;
  for (std::size_t first = 0; first < exprs.size(); first += 100) {
    std::string pg = "SELECT ", written = "SELECT ";
    for (std::size_t i = first; i < std::min(exprs.size(), first + 100); ++i) {
      pg += (i > first ? ", CAST(" : "CAST(") + exprs[i] + " AS double precision)";
      written += (i > first ? ", " : "") + exprs[i] + " AS c" + std::to_string(i);
    }
    auto admitted = admit_statement(written, empty, limits, std::nullopt);
    ASSERT_TRUE(admitted) << admitted.error().message << "\n" << written.substr(0, 300);
    const auto want = pg_rows(server, pg);
    const auto got = sqlite_rows(admitted->sql);
    ASSERT_EQ(want.size(), 1u);
    ASSERT_EQ(got.size(), 1u);
    for (std::size_t i = first; i < std::min(exprs.size(), first + 100); ++i) {
      ++chains;
      if (got[0][i - first] != want[0][i - first] && ++wrong <= 10)
        ADD_FAILURE() << exprs[i] << ": PostgreSQL " << want[0][i - first] << ", SQLite " << got[0][i - first];
    }
  }
  EXPECT_EQ(chains, 1080);
  EXPECT_EQ(wrong, 0) << "of " << chains;
}

}  // namespace
}  // namespace qg::testing
