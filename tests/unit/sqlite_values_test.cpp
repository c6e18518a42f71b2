// The SQLite functions that write values as PostgreSQL writes them
// (executors/sqlite/sqlite_json.cpp: pg_jsonb_text, pg_jsonb_out, pg_jsonb_array;
// sqlite_values.cpp: pg_float8_text, pg_bool_text), judged against PostgreSQL
// itself on the test cluster (QG_TEST_PG_HOST/PORT; skipped loudly without it,
// failed when QG_REQUIRE_PG=1), plus a few fixed cases that need no server.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "executors/sqlite/sqlite_functions.hpp"
#include "executors/sqlite/sqlite_json.hpp"
#include "executors/sqlite/sqlite_values.hpp"

namespace qg {
namespace {

class SqliteValues {
 public:
  SqliteValues() {
    sqlite3* raw = nullptr;
    sqlite3_open(":memory:", &raw);
    db_.reset(raw);
    ok_ = exec::sqlite::register_functions(db_.get());
  }
  bool ok() const { return ok_; }
  // The value's text ("NULL" for NULL), or "error: <message>".
  std::string eval(const std::string& expr) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_.get(), ("SELECT " + expr).c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      return std::string("error: ") + sqlite3_errmsg(db_.get());
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

 private:
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, &sqlite3_close};
  bool ok_ = false;
};

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

const std::vector<std::string> kDocs = {
    R"({"a": 1, "b": {"c": "x"}, "d.e": true})",
    R"({"a": null})",
    R"({"a": "1", "arr": [1, 2, 3]})",
    R"([1, "two", null])",
    R"({"a": 2.5, "b": {"c": null}})",
    R"({})",
    R"([])",
    R"({"a": true, "n": -0.5, "b": {"c": 7}})",
    R"("str")",
    R"(1)",
    R"(null)",
    R"(false)",
    R"({"a": "é😀", "A": 3})",
    R"({"a": 12345678901234567890})",
    R"({"bb":1,"a":[1.50, 1e2, 1.5E+1, -0, -0.0, 1e-7, -1.23e-2, 0.0001e4],"":{"z":{},"y":[]}})",
    R"({"a": 1, "a": 2, "b": {"x": 1, "x": [3]}})",
    R"({"s": "tab\there \"q\" back\\slash \/ \u0001 \u00e9 \ud83d\ude00 line\nnext"})",
    R"({"é": 1, "z": 2, "ab": 3, "b": 4})",
    R"([[1, [2, {"k": [true, false, null]}]], {"a": {"b": {"c": -12.500}}}])",
};
const std::vector<std::string> kKeys = {"'a'", "'b'", "'arr'", "'d.e'", "'n'", "'s'",
                                        "'A'", "''",  "0",     "1",     "-1",  "-2"};

// The arrow as the SQLite rendering writes it (render_expr.cpp: a key through pg_jsonb_get, an index through
// pg_jsonb_array, -n as the path $[#-n]).
std::string sqlite_arrow(const std::string& doc, const std::string& key, bool text) {
  std::string arrow;
  if (key.front() == '\'')
    arrow = "pg_jsonb_get(" + doc + ", " + key + ")";
  else
    arrow = "pg_jsonb_array(" + doc + ") -> " + (key.front() == '-' ? quoted("$[#" + key + "]") : key);
  return text ? "pg_jsonb_text(" + arrow + ")" : "pg_jsonb_out(" + arrow + ")";
}

std::optional<std::string> pg_dsn() {
  const char* host = std::getenv("QG_TEST_PG_HOST");
  const char* port = std::getenv("QG_TEST_PG_PORT");
  if (host == nullptr || *host == '\0' || port == nullptr || *port == '\0') return std::nullopt;
  return std::string("postgresql://postgres:postgres@") + host + ":" + port + "/postgres";
}

class SqliteValuesVsPostgres : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dsn = pg_dsn();
    if (!dsn) {
      const char* required = std::getenv("QG_REQUIRE_PG");
      if (required && std::string(required) == "1") FAIL() << "QG_REQUIRE_PG=1 but QG_TEST_PG_HOST/PORT unset";
      GTEST_SKIP() << "*** SKIPPED: no PostgreSQL for tests (QG_TEST_PG_HOST/QG_TEST_PG_PORT unset) ***";
    }
    conn_ = std::make_unique<pqxx::connection>(*dsn);
    ASSERT_TRUE(sqlite_.ok());
  }
  std::string pg(const std::string& expr) {
    pqxx::nontransaction tx(*conn_);
    try {
      const auto row = tx.exec1("SELECT " + expr);
      return row[0].is_null() ? "NULL" : row[0].c_str();
    } catch (const std::exception& e) {
      return std::string("error: ") + e.what();
    }
  }
  std::unique_ptr<pqxx::connection> conn_;
  SqliteValues sqlite_;
};

TEST_F(SqliteValuesVsPostgres, ArrowsGivePostgresText) {
  for (const auto& doc : kDocs) {
    EXPECT_EQ(sqlite_.eval("pg_jsonb_out(" + quoted(doc) + ")"), pg(quoted(doc) + "::jsonb::text")) << doc;
    for (const auto& key : kKeys)
      for (bool text : {true, false}) {
        const std::string truth = pg("(" + quoted(doc) + "::jsonb " + (text ? "->> " : "-> ") + key + ")::text");
        EXPECT_EQ(sqlite_.eval(sqlite_arrow(quoted(doc), key, text)), truth) << doc << (text ? " ->> " : " -> ") << key;
      }
  }
}

TEST_F(SqliteValuesVsPostgres, Float8TextIsFloat8out) {
  const std::vector<std::string> values = {"1e-300",
                                           "1.5e-7",
                                           "1e-5",
                                           "0.0001",
                                           "0.00012345",
                                           "1e15",
                                           "1e14",
                                           "123456789012345678",
                                           "0.1+0.2",
                                           "-2.675",
                                           "100",
                                           "3",
                                           "-0.0",
                                           "'Infinity'",
                                           "'-Infinity'",
                                           "'NaN'",
                                           "-(0.0::float8)",
                                           "2.5e22",
                                           "1.0/3",
                                           "2/3.0",
                                           "1e16+1",
                                           "4.35",
                                           "-123.456e-10",
                                           "9007199254740993",
                                           "0.5",
                                           "1e22"};
  for (const auto& v : values) {
    // PostgreSQL's text reads back as the double it printed (shortest round trip): printed again, the same.
    const std::string text = pg("CAST((" + v + ")::float8 AS text)");
    if (text == "Infinity" || text == "-Infinity" || text == "NaN" || text == "-0") {
      EXPECT_EQ(exec::sqlite::float8_text(std::strtod(text == "-0" ? "-0.0" : text.c_str(), nullptr)), text) << v;
      continue;
    }
    EXPECT_EQ(exec::sqlite::float8_text(std::strtod(text.c_str(), nullptr)), text) << v;
    EXPECT_EQ(sqlite_.eval("pg_float8_text(CAST(" + text + " AS REAL))"), text) << v;
  }
}

// Short decimals at every scale (0.005754 is within a long double's rounding of the midpoint between two doubles:
// its double printed 0.0057539999999999996 for PostgreSQL's 0.005754; outside tester s13): each one's double, as
// PostgreSQL's float8out prints it, and as pg_float8_text does.
TEST_F(SqliteValuesVsPostgres, Float8TextOfShortDecimals) {
  std::vector<std::string> decimals;
  for (int i = 0; i < 3000; ++i) {
    const int digits = 1 + i % 7, scale = -8 + (i * 7) % 30;
    std::string d = std::to_string(1 + (i * 7919 + i * i * 104729) % 9999999);
    d.resize(static_cast<std::size_t>(std::min<int>(digits, static_cast<int>(d.size()))));
    decimals.push_back(d + "e" + std::to_string(-scale));
  }
  decimals.push_back("5754e-6");
  std::string list;
  for (const auto& d : decimals) list += (list.empty() ? "'" : ",'") + d + "'";
  const std::string texts =
      pg("string_agg(v::float8::text, ' ' ORDER BY i) FROM unnest(ARRAY[" + list + "]) WITH ORDINALITY AS t(v, i)");
  std::size_t at = 0;
  int wrong = 0;
  for (const auto& d : decimals) {
    const auto end = texts.find(' ', at);
    const std::string truth = texts.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? texts.size() : end + 1;
    if (exec::sqlite::float8_text(std::strtod(d.c_str(), nullptr)) != truth && ++wrong <= 10)
      ADD_FAILURE() << d << ": PostgreSQL " << truth << ", pg_float8_text "
                    << exec::sqlite::float8_text(std::strtod(d.c_str(), nullptr));
  }
  EXPECT_EQ(wrong, 0) << "of " << decimals.size();
}

TEST(SqliteValues, FixedCases) {
  SqliteValues s;
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.eval("pg_jsonb_text('{\"c\":null}')"), "{\"c\": null}");
  EXPECT_EQ(s.eval("pg_jsonb_text('12345678901234567890')"), "12345678901234567890");
  EXPECT_EQ(s.eval("pg_jsonb_text('1.50')"), "1.50");
  EXPECT_EQ(s.eval("pg_jsonb_text('null')"), "NULL");
  EXPECT_EQ(s.eval("pg_jsonb_text(NULL)"), "NULL");
  EXPECT_EQ(s.eval("pg_jsonb_text(pg_jsonb_array('\"gpt-4\"') -> 0)"), "gpt-4");
  EXPECT_EQ(s.eval("pg_jsonb_array('{\"a\":1}') -> 0"), "NULL");
  EXPECT_EQ(s.eval("pg_jsonb_text('{bad')").rfind("error: querygate:", 0), 0u);
  EXPECT_EQ(exec::sqlite::json_out::numeric_text("1e2"), "100");
  EXPECT_EQ(exec::sqlite::json_out::numeric_text("-0.0"), "0.0");
  EXPECT_EQ(exec::sqlite::json_out::numeric_text("1e1001"), std::nullopt);
  EXPECT_EQ(s.eval("pg_float8_text(1e-300)"), "1e-300");
  EXPECT_EQ(s.eval("pg_float8_text(-3.0)"), "-3");
  EXPECT_EQ(s.eval("pg_float8_text(3)"), "3");
  EXPECT_EQ(s.eval("pg_float8_text(1e15)"), "1e+15");
  EXPECT_EQ(s.eval("pg_float8_text(NULL)"), "NULL");
  EXPECT_EQ(s.eval("pg_float8_text('x')").rfind("error: querygate:", 0), 0u);
  EXPECT_EQ(s.eval("pg_bool_text(1)"), "true");
  EXPECT_EQ(s.eval("pg_bool_text(0)"), "false");
  EXPECT_EQ(s.eval("pg_bool_text(NULL)"), "NULL");
}

}  // namespace
}  // namespace qg
