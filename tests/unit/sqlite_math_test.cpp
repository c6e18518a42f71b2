// The math functions and random() querygate registers on SQLite connections
// answer as PostgreSQL's do: an error (with PostgreSQL's words) where SQLite's
// built-ins would return NULL or an infinity, the same values elsewhere, and
// random() in [0, 1) rather than a 64-bit integer. Real SQLite, in memory.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <memory>
#include <string>

#include "executors/sqlite/sqlite_functions.hpp"

namespace qg {
namespace {

struct Outcome {
  bool ok = false;
  bool null = false;
  double value = 0;
  std::string error;
};

class SqliteMathTest : public ::testing::Test {
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
    EXPECT_EQ(sqlite3_prepare_v2(db_.get(), ("SELECT " + expr).c_str(), -1, &stmt, nullptr), SQLITE_OK) << expr;
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      out.ok = true;
      out.null = sqlite3_column_type(stmt, 0) == SQLITE_NULL;
      out.value = sqlite3_column_double(stmt, 0);
    } else {
      out.error = sqlite3_errmsg(db_.get());
    }
    sqlite3_finalize(stmt);
    return out;
  }
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, &sqlite3_close};
};

TEST_F(SqliteMathTest, DomainErrorsAreErrorsWithPostgresWords) {
  const std::pair<const char*, const char*> cases[] = {
      {"sqrt(-1)", "cannot take square root of a negative number"},
      {"ln(0)", "cannot take logarithm of zero"},
      {"ln(-2)", "cannot take logarithm of a negative number"},
      {"log10(0)", "cannot take logarithm of zero"},
      {"log(0)", "cannot take logarithm of zero"},
      {"log(2, -8)", "cannot take logarithm of a negative number"},
      {"log(1, 8)", "division by zero"},
      {"acos(2)", "input is out of range"},
      {"asin(-1.5)", "input is out of range"},
      {"exp(1000)", "value out of range: overflow"},
      {"exp(-1000)", "value out of range: underflow"},
      {"power(0, -1)", "zero raised to a negative power is undefined"},
      {"pow(-8, 0.5)", "a negative number raised to a non-integer power yields a complex result"},
      {"power(10, 400)", "value out of range: overflow"},
  };
  for (const auto& [expr, words] : cases) {
    const auto r = eval(expr);
    EXPECT_FALSE(r.ok) << expr << " answered " << r.value << (r.null ? " (NULL)" : "");
    EXPECT_EQ(r.error, words) << expr;
  }
}

TEST_F(SqliteMathTest, ValuesInTheDomainAreWhatPostgresGives) {
  // PostgreSQL: sqrt(2) 1.4142135623730951, ln(10) 2.302585092994046, log(1000) 3,
  // log(2, 8) 3 (numeric), acos(0) 1.5707963267948966, exp(1) 2.718281828459045, power(2, 10) 1024, power(-8, 3) -512.
  const std::pair<const char*, double> cases[] = {
      {"sqrt(2)", 1.4142135623730951}, {"ln(10)", 2.302585092994046}, {"log(1000)", 3.0},       {"log(2, 8)", 3.0},
      {"acos(0)", 1.5707963267948966}, {"exp(1)", 2.718281828459045}, {"power(2, 10)", 1024.0}, {"pow(-8, 3)", -512.0},
      {"log10(0.001)", -3.0},
  };
  for (const auto& [expr, want] : cases) {
    const auto r = eval(expr);
    ASSERT_TRUE(r.ok) << expr << ": " << r.error;
    EXPECT_NEAR(r.value, want, 1e-12 * std::max(1.0, std::fabs(want))) << expr;
  }
  for (const char* expr : {"sqrt(NULL)", "ln(NULL)", "power(NULL, 2)", "log(NULL, 2)", "exp(NULL)"}) {
    const auto r = eval(expr);
    EXPECT_TRUE(r.ok && r.null) << expr;
  }
}

TEST_F(SqliteMathTest, RandomIsAFloatInTheUnitInterval) {
  for (int i = 0; i < 2000; ++i) {
    const auto r = eval("random()");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GE(r.value, 0.0);
    EXPECT_LT(r.value, 1.0);
  }
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db_.get(), "SELECT typeof(random())", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "real");
  sqlite3_finalize(stmt);
}

}  // namespace
}  // namespace qg
