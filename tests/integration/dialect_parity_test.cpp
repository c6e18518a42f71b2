// PostgreSQL's meaning on every backend (issue #12, first slice): the same
// rows in a real SQLite file and a real PostgreSQL database; each statement is
// run directly on PostgreSQL (the truth) and through both gateways over HTTP.
// Each answer equals the truth, or the gateway refuses with a FIX whose
// statement, run through the gateway, gives the truth.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <pqxx/pqxx>

#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;
using Cells = std::vector<std::vector<std::optional<std::string>>>;

struct Row {
  int id;
  const char* grp;
  const char* name;
  const char* attrs;
  const char* x;
  int n;
  const char* start_time;  // UTC
  const char* end_time;
};

// Keys with dots next to the nested object of the same path; ties at .5; text
// that differs only by case; a literal % and _ in names; a non-ASCII letter.
const Row kRows[] = {
    {1, "a", "Alpha", R"({"llm.provider": "openai", "llm": {"provider": "nested"}, "arr": [1, 2, 3]})", "2.5", 3,
     "2026-01-01 10:00:00", "2026-01-01 10:00:01.250"},
    {2, "a", "alpha", R"({"llm.provider": "anthropic", "arr": [4]})", "-2.5", 4, "2026-01-01 10:00:00.500",
     "2026-01-02 11:30:00"},
    {3, "b", "BETA_1", R"({"llm": {"provider": "x"}})", "3.5", 5, "2026-02-28 23:59:59", "2026-03-01 00:00:01"},
    {4, "b", "be%ta", R"({})", "0.125", 6, "2026-01-01 00:00:00", "2026-01-01 00:00:00"},
    {5, "c", "\xCE\xA9mega", R"({"k": "v", "arr": []})", "1234567.0005", 7, "2025-12-31 23:00:00",
     "2026-01-01 01:00:00.999"},
    {6, "c", "betax1", R"({"llm.provider": "openai"})", "-0.0015", 8, "2026-06-01 12:00:00", "2026-06-01 12:00:00.001"},
};

std::string sql_text(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

class DialectParityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QG_PG_TEST_SERVER(server);
    server_ = server;
    dir_ = make_temp_dir("qg-dialect");
    db_ = "dialect_parity_" + std::to_string(getpid());
    std::string lite_rows, pg_rows;
    for (const auto& r : kRows) {
      const std::string common = std::to_string(r.id) + ", " + sql_text(r.grp) + ", " + sql_text(r.name) + ", " +
                                 sql_text(r.attrs) + ", " + r.x + ", " + std::to_string(r.n) + ", ";
      // UTC instants: stored with their offset, as PostgreSQL's timestamptz (a stored text without one is a
      // timestamp without time zone).
      lite_rows += "INSERT INTO e VALUES (" + common + sql_text(std::string(r.start_time) + "+00:00") + ", " +
                   sql_text(std::string(r.end_time) + "+00:00") + ");\n";
      pg_rows += "INSERT INTO e VALUES (" + common + sql_text(std::string(r.start_time) + "+00") + ", " +
                 sql_text(std::string(r.end_time) + "+00") + ");\n";
    }
    sqlite3* lite = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ / "e.db").c_str(), &lite), SQLITE_OK);
    const std::string lite_sql =
        "CREATE TABLE e (id INTEGER PRIMARY KEY, grp TEXT, name TEXT, attrs TEXT, x REAL, n INTEGER, start_time "
        "TIMESTAMP, end_time TIMESTAMP);\nBEGIN;\n" +
        lite_rows + "COMMIT;";
    ASSERT_EQ(sqlite3_exec(lite, lite_sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(lite);
    sqlite3_close(lite);
    {
      pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + db_);
      tx.exec("CREATE DATABASE " + db_ + " OWNER qg_owner");
      tx.exec("GRANT CONNECT ON DATABASE " + db_ + " TO qg_reader");
    }
    {
      pqxx::connection owner(pg_dsn(server_, "qg_owner", db_));
      pqxx::work tx(owner);
      tx.exec(
          "CREATE TABLE e (id integer PRIMARY KEY, grp text, name text, attrs jsonb, x double precision, n integer, "
          "start_time timestamptz, end_time timestamptz);\n" +
          pg_rows + "GRANT USAGE ON SCHEMA public TO qg_reader; GRANT SELECT ON e TO qg_reader;");
      tx.commit();
    }
    std::filesystem::create_directories(dir_ / "lite");
    std::filesystem::create_directories(dir_ / "pg");
    std::filesystem::copy_file(dir_ / "e.db", dir_ / "lite" / "e.db");
    write_file(dir_ / "lite" / "querygate.yaml",
               "limits: { float_digits: 0 }\ndatabases:\n  e:\n    backend: sqlite\n    path: e.db\n"
               // Curated text columns are typed text on SQLite (admit/value_types.cpp).
               "    tables: { e: { columns: { grp: { comment: group }, name: { comment: name } } } }\n");
    write_file(dir_ / "pg" / "querygate.yaml",
               "limits: { float_digits: 0 }\ndatabases:\n  e:\n    backend: postgres\n    dsn: \"" +
                   pg_dsn(server_, "qg_reader", db_) + "\"\n    tables: { e: {} }\n");
    sqlite_ = std::make_unique<GatewayProcess>(dir_ / "lite" / "querygate.yaml");
    postgres_ = std::make_unique<GatewayProcess>(dir_ / "pg" / "querygate.yaml");
  }

  void TearDown() override {
    sqlite_.reset();
    postgres_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
    if (db_.empty()) return;
    pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + db_ + " WITH (FORCE)");
  }

  // PostgreSQL's own answer, as text.
  Cells truth(const std::string& sql) {
    pqxx::connection c(pg_dsn(server_, "qg_reader", db_));
    pqxx::work tx(c);
    tx.exec("SET TimeZone = 'UTC'");
    Cells out;
    for (const auto& row : tx.exec(sql)) {
      out.emplace_back();
      for (const auto& f : row)
        out.back().push_back(f.is_null() ? std::nullopt : std::optional<std::string>(f.c_str()));
    }
    return out;
  }

  static HttpResult ask(GatewayProcess& gateway, const std::string& sql) {
    return http(gateway.port(), "POST", "/v1/query", json::serialize(json::object{{"sql", sql}}));
  }

  // The gateway's answer as text: numbers as PostgreSQL prints them (%.15g for floats).
  static Cells answer(GatewayProcess& gateway, const std::string& sql, json::object* applied = nullptr) {
    auto r = ask(gateway, sql);
    EXPECT_EQ(r.status, 200) << sql << "\n" << r.body;
    if (r.status != 200) return {};
    auto body = json::parse(r.body).as_object();
    if (applied && body.contains("applied")) *applied = body.at("applied").as_object();
    Cells out;
    for (const auto& row : body.at("rows").as_array()) {
      out.emplace_back();
      for (const auto& v : row.as_array()) {
        if (v.is_null()) {
          out.back().push_back(std::nullopt);
        } else if (v.is_string()) {
          out.back().emplace_back(std::string(v.as_string()));
        } else if (v.is_double()) {
          char buf[40];
          std::snprintf(buf, sizeof buf, "%.15g", v.as_double());
          out.back().emplace_back(buf);
        } else {
          out.back().emplace_back(json::serialize(v));
        }
      }
    }
    return out;
  }

  static bool has_rewrite(const json::object& applied, std::string_view name) {
    if (!applied.contains("rewrites")) return false;
    for (const auto& r : applied.at("rewrites").as_array())
      if (r.as_string() == name) return true;
    return false;
  }

  // Refused with a FIX that contains `fix_part`.
  static void expect_refused(GatewayProcess& gateway, const std::string& sql, const std::string& fix_part) {
    auto r = ask(gateway, sql);
    EXPECT_EQ(r.status, 422) << sql << "\n" << r.body;
    EXPECT_NE(r.body.find("FIX"), std::string::npos) << sql << "\n" << r.body;
    EXPECT_NE(r.body.find(fix_part), std::string::npos) << sql << "\nwanted: " << fix_part << "\n" << r.body;
  }

  // The same statement on PostgreSQL directly and through both gateways.
  void expect_truth(const std::string& sql) {
    const Cells t = truth(sql);
    EXPECT_EQ(answer(*postgres_, sql), t) << "PostgreSQL gateway: " << sql;
    EXPECT_EQ(answer(*sqlite_, sql), t) << "SQLite gateway: " << sql;
  }

  static void expect_close(const Cells& a, const Cells& b, double tolerance, const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].size(), b[i].size()) << what;
      for (std::size_t j = 0; j < a[i].size(); ++j) {
        ASSERT_TRUE(a[i][j] && b[i][j]) << what;
        EXPECT_NEAR(std::stod(*a[i][j]), std::stod(*b[i][j]), tolerance) << what << " row " << i << " col " << j;
      }
    }
  }

  PgTestServer server_;
  std::filesystem::path dir_;
  std::string db_;
  std::unique_ptr<GatewayProcess> sqlite_, postgres_;
};

TEST_F(DialectParityTest, ArrowTextIsTheKeyAndDollarTextIsThePath) {
  // The trap of the issue: SQLite read 'llm.provider' as the path $.llm.provider and counted 0.
  const std::string count = "SELECT count(*) FROM e WHERE attrs ->> 'llm.provider' = 'openai'";
  ASSERT_EQ(truth(count), (Cells{{"2"}}));
  json::object applied;
  EXPECT_EQ(answer(*sqlite_, count, &applied), (Cells{{"2"}}));
  EXPECT_TRUE(has_rewrite(applied, "dialect:json-key")) << json::serialize(applied);
  EXPECT_EQ(answer(*postgres_, count), (Cells{{"2"}}));
  expect_truth("SELECT id, attrs ->> 'llm.provider', attrs -> 'llm' ->> 'provider' FROM e ORDER BY id");
  expect_truth(
      "SELECT id, attrs -> 'arr' ->> 0, attrs -> 'arr' ->> -1, attrs -> 'arr' ->> -0, attrs -> 'arr' ->> 5, "
      "attrs -> 'arr' ->> -9 FROM e ORDER BY id");
  expect_truth("SELECT id FROM e WHERE attrs -> 'llm' IS NULL ORDER BY id");
  expect_truth("SELECT id, attrs ->> 'k' FROM e WHERE attrs ->> 'k' IS NOT NULL ORDER BY id");

  // '$.a.b' is SQLite's path on both engines: PostgreSQL's #>> '{a,b}'.
  const std::string path = "SELECT id, attrs ->> '$.llm.provider', attrs ->> '$.\"llm.provider\"' FROM e ORDER BY id";
  const Cells path_truth =
      truth("SELECT id, attrs #>> '{llm,provider}', attrs #>> '{llm.provider}' FROM e ORDER BY id");
  EXPECT_EQ(answer(*sqlite_, path), path_truth);
  EXPECT_EQ(answer(*postgres_, path, &applied), path_truth);
  EXPECT_TRUE(has_rewrite(applied, "dialect:json-path")) << json::serialize(applied);

  // ->> gives PostgreSQL's text on SQLite too (pg_jsonb_text, s8): numbers and booleans compare as text.
  expect_truth("SELECT id FROM e WHERE attrs -> 'arr' ->> 0 = '4' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE attrs ->> 'b' = 'true' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE CAST(attrs -> 'arr' ->> 0 AS double precision) = 4 ORDER BY id");
  // Forms with no exact spelling are refused, each with a FIX.
  expect_refused(*sqlite_, "SELECT attrs -> 'llm' FROM e", "->>");
  expect_refused(*postgres_, "SELECT attrs ->> '$.arr[0]' FROM e", "-> 0");
  expect_refused(*sqlite_, "SELECT attrs ->> name FROM e", "as a literal");
  expect_refused(*postgres_, "SELECT attrs ->> name FROM e", "as a literal");
}

TEST_F(DialectParityTest, ScalarSubqueryOfMoreThanOneRowFailsOnBothBackends) {
  // PostgreSQL fails a scalar subquery that returns more than one row; SQLite answered its first row (a 200
  // with a value). On SQLite it is read through pg_single (admit/scalar_subquery.cpp), which fails the same way.
  for (const std::string sql : {
           "SELECT (SELECT id FROM e WHERE grp = 'a') AS v",
           "SELECT id FROM e WHERE n > (SELECT f.n FROM e AS f WHERE f.grp = 'b') ORDER BY id",
           "SELECT (SELECT grp FROM e GROUP BY grp ORDER BY grp)",
           "SELECT (SELECT DISTINCT grp FROM e ORDER BY grp LIMIT 2)",
           "SELECT (SELECT name FROM e WHERE id = 1 UNION ALL SELECT name FROM e WHERE id = 2)",
           // Correlated: two rows for some outer rows.
           "SELECT id, (SELECT f.id FROM e AS f WHERE f.grp <> e.grp AND f.n > e.n) AS other FROM e ORDER BY id",
       }) {
    EXPECT_THROW(truth(sql), pqxx::sql_error) << sql;
    for (GatewayProcess* gateway : {sqlite_.get(), postgres_.get()}) {
      auto r = ask(*gateway, sql);
      EXPECT_NE(r.status, 200) << sql << "\n" << r.body;
      EXPECT_NE(r.body.find("more than one row returned by a subquery"), std::string::npos) << sql << "\n" << r.body;
    }
  }
  // No row is NULL, one row its value: correlated or not, in the select list and in WHERE, typed as written.
  json::object applied;
  const std::string one = "SELECT (SELECT name FROM e WHERE id = 3) AS v, (SELECT name FROM e WHERE id = 99) AS w";
  EXPECT_EQ(answer(*sqlite_, one, &applied), truth(one));
  EXPECT_TRUE(has_rewrite(applied, "dialect:scalar-subquery")) << json::serialize(applied);
  expect_truth("SELECT id, (SELECT f.id FROM e AS f WHERE f.grp = e.grp AND f.id > e.id) AS next FROM e ORDER BY id");
  expect_truth("SELECT id FROM e WHERE n = (SELECT f.n + 0 FROM e AS f WHERE f.id = e.id) ORDER BY id");
  expect_truth(
      "SELECT id, (SELECT x FROM e WHERE id = 5), (SELECT f.n * 2 FROM e AS f WHERE f.id = e.id) FROM e "
      "ORDER BY id");
  expect_truth("SELECT grp, (SELECT count(*) FROM e AS f WHERE f.grp = e.grp) FROM e GROUP BY grp ORDER BY grp");
  expect_truth(
      "SELECT grp, (SELECT f.name FROM e AS f WHERE f.grp = e.grp ORDER BY f.id LIMIT 1) FROM e GROUP BY "
      "grp ORDER BY grp");
  expect_truth("SELECT (SELECT grp FROM e WHERE n > 7 GROUP BY grp), (SELECT 1 + 1)");
}

TEST_F(DialectParityTest, TimeArithmeticIsTypedOnSqliteAndTextArithmeticRefused) {
  // Times are typed at admission (admit/time_types.cpp): timestamp - timestamp is PostgreSQL's interval.
  expect_truth("SELECT id, end_time - start_time FROM e ORDER BY id");
  expect_truth("SELECT id FROM e WHERE end_time - start_time > INTERVAL '1 second' ORDER BY id");
  expect_truth("SELECT id, date(end_time) - date(start_time) FROM e ORDER BY id");
  EXPECT_THROW(truth("SELECT id FROM e WHERE end_time - start_time > 1"), pqxx::sql_error);
  expect_refused(*sqlite_, "SELECT id FROM e WHERE end_time - start_time > 1", "date_part('epoch', x) > 1");
  expect_refused(*sqlite_, "SELECT name + 1 FROM e", "CAST(x AS numeric)");
  expect_refused(*sqlite_, "SELECT n + 'abc' FROM e", "CAST(x AS numeric)");
  expect_truth("SELECT id, n + 1, n * 2 - '3', x * 2 FROM e ORDER BY id");  // numbers stay admitted
  // The FIX's statement gives PostgreSQL's seconds (SQLite keeps milliseconds).
  expect_close(answer(*sqlite_, "SELECT id, (julianday(end_time) - julianday(start_time)) * 86400 FROM e ORDER BY id"),
               truth("SELECT id, EXTRACT(EPOCH FROM end_time - start_time) FROM e ORDER BY id"), 1e-3, "seconds");
}

TEST_F(DialectParityTest, NumericScaleAndIntegerCastsRoundOnSqliteAsOnPostgres) {
  // numeric(p, s) rounds (dialect:numeric-typmod); a numeric or float cast to an integer type rounds, halves
  // away from zero for a numeric and to even for a float (dialect:integer-cast-rounds).
  // (The numerics' trailing zeros are the parity corpus's to compare, tests/parity/numbers.sql: here JSON numbers.)
  const std::string typmod =
      "SELECT id, CAST(x AS numeric(10, 3)), x::numeric(12), x::numeric(12, 2) FROM e ORDER BY id";
  expect_close(answer(*sqlite_, typmod), truth(typmod), 1e-12, "numeric(p, s) on SQLite");
  expect_close(answer(*postgres_, typmod), truth(typmod), 1e-12, "numeric(p, s) on PostgreSQL");
  expect_truth("SELECT id, CAST(x AS integer), CAST(x * 10 AS bigint) FROM e ORDER BY id");
  expect_truth("SELECT CAST(2.5 AS bigint), CAST(-2.5 AS integer), CAST(0.5 AS smallint)");
  expect_truth("SELECT CAST(avg(n) AS integer) FROM e");
  expect_close(answer(*sqlite_, "SELECT id, round(x, 3), round(x, 2), round(x, 0) FROM e ORDER BY id"),
               truth("SELECT id, x::numeric(12, 3), x::numeric(12, 2), x::numeric(12) FROM e ORDER BY id"), 1e-9,
               "round(x, s) = numeric(p, s)");
  // Whole numbers are cast alike on both.
  expect_truth(
      "SELECT id, CAST(n AS bigint), CAST('12' AS integer), CAST(n * 2 + 1 AS smallint), CAST(count(*) OVER () "
      "AS integer) FROM e ORDER BY id");
  // The FIX rounds as PostgreSQL does: x is a float, so halves go to even (2.5 → 2, -2.5 → -2), as
  // PostgreSQL's CAST(x AS integer) and round(x) do (dialect:round-half-even); trunc drops the fraction.
  EXPECT_EQ(answer(*sqlite_, "SELECT id, CAST(round(x) AS INTEGER), CAST(trunc(x) AS INTEGER) FROM e ORDER BY id"),
            truth("SELECT id, CAST(x AS integer), trunc(x)::integer FROM e ORDER BY id"));
  EXPECT_EQ(answer(*sqlite_, "SELECT id, CAST(round(x) AS INTEGER) FROM e ORDER BY id"),
            truth("SELECT id, CAST(round(x) AS integer) FROM e ORDER BY id"));
  // A numeric (avg of integers in PostgreSQL) rounds halves away from zero on both.
  EXPECT_EQ(answer(*sqlite_, "SELECT CAST(round(avg(n) * 0 + 2.5) AS INTEGER) FROM e"),
            truth("SELECT CAST(round(avg(n) * 0 + 2.5) AS integer) FROM e"));
}

TEST_F(DialectParityTest, LikeIsCaseSensitiveWithBackslashEscapesAndIlikeFoldsAsciiCase) {
  expect_truth("SELECT id FROM e WHERE name LIKE 'alpha' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name LIKE 'A%' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name LIKE 'be\\%ta' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name LIKE 'be%ta' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name LIKE 'BETA\\_%' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name NOT LIKE 'beta_1' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name LIKE 'be!%ta' ESCAPE '!' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name LIKE '\xCE\xA9%' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name ILIKE 'ALPHA' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name ILIKE 'beta\\_%' ORDER BY id");
  expect_truth("SELECT id FROM e WHERE name NOT ILIKE '%A%' ORDER BY id");
  json::object applied;
  answer(*sqlite_, "SELECT id FROM e WHERE name ILIKE 'b%'", &applied);
  EXPECT_TRUE(has_rewrite(applied, "dialect:ilike-to-lower-like")) << json::serialize(applied);
  answer(*sqlite_, "SELECT id FROM e WHERE name LIKE 'b%'", &applied);
  EXPECT_TRUE(has_rewrite(applied, "dialect:like-escape-backslash")) << json::serialize(applied);
  EXPECT_NE(json::serialize(applied).find("ESCAPE"), std::string::npos) << json::serialize(applied);
  expect_refused(*sqlite_, "SELECT id FROM e WHERE name ILIKE '%\xCF\x89%'", "ASCII");
  expect_refused(*sqlite_, "SELECT id FROM e WHERE name ILIKE grp", "ASCII");
  // PostgreSQL refuses a pattern that ends with its escape character; SQLite would match nothing.
  EXPECT_THROW(truth("SELECT id FROM e WHERE name LIKE 'be\\'"), pqxx::sql_error);
  expect_refused(*sqlite_, "SELECT id FROM e WHERE name LIKE 'be\\'", "double it");
  expect_truth("SELECT id FROM e WHERE name NOT LIKE 'be\\\\' ORDER BY id");
}

TEST_F(DialectParityTest, BareColumnsAreRefusedLikePostgresAndGroupedOnesAnswerAlike) {
  for (const std::string sql :
       {"SELECT grp, name, count(*) FROM e GROUP BY grp", "SELECT name, count(*) FROM e",
        "SELECT grp, max(n) FROM e GROUP BY grp ORDER BY name", "SELECT grp FROM e GROUP BY grp HAVING n > 3",
        "SELECT grp, (SELECT count(*) FROM e AS f WHERE f.n > e.n) FROM e GROUP BY grp"}) {
    EXPECT_THROW(truth(sql), pqxx::sql_error) << sql;
    expect_refused(*sqlite_, sql, "GROUP BY");
    expect_refused(*postgres_, sql, "GROUP BY");
  }
  // PostgreSQL's functional dependency on a grouped primary key, grouped expressions, aliases and ordinals.
  expect_truth("SELECT e.id, e.name, count(*) FROM e GROUP BY e.id ORDER BY e.id");
  expect_truth("SELECT lower(grp), count(*) FROM e GROUP BY lower(grp) ORDER BY 1");
  expect_truth("SELECT grp AS g, count(*), max(n) - min(n) FROM e GROUP BY g ORDER BY g");
  expect_truth("SELECT grp || '!', count(*) FROM e GROUP BY 1 HAVING count(*) > 1 ORDER BY 1");
  expect_truth("SELECT grp, (SELECT count(*) FROM e AS f WHERE f.grp = e.grp) FROM e GROUP BY grp ORDER BY grp");
}

TEST_F(DialectParityTest, FixesNameAnExactAlternative) {
  // WITH TIES: the FIX ranks instead of cutting (LIMIT would drop the tied rows).
  const std::string ties = "SELECT id, grp FROM e ORDER BY grp FETCH FIRST 1 ROWS WITH TIES";
  expect_refused(*sqlite_, ties, "rank() OVER (ORDER BY grp) AS rank_");
  expect_refused(*postgres_, ties, "WHERE rank_ <= 1");
  expect_refused(*sqlite_, "SELECT id FROM e ORDER BY grp DESC NULLS LAST OFFSET 1 ROWS FETCH FIRST 2 ROWS WITH TIES",
                 "rank() OVER (ORDER BY grp DESC NULLS LAST) AS rank_ FROM <your FROM and WHERE>) AS ranked WHERE "
                 "rank_ <= 2 ORDER BY rank_. Drop OFFSET");
  const std::string ranked =
      "SELECT id FROM (SELECT id, rank() OVER (ORDER BY grp) AS rank_ FROM e) AS ranked WHERE rank_ <= 1 ORDER BY id";
  const Cells tied = truth("SELECT id FROM (" + ties + ") AS t ORDER BY id");
  EXPECT_EQ(tied, (Cells{{"1"}, {"2"}}));
  EXPECT_EQ(answer(*sqlite_, ranked), tied);
  EXPECT_EQ(answer(*postgres_, ranked), tied);

  // x AT TIME ZONE z is PostgreSQL's own meaning there, printed back in keyword form.
  const std::string zone = "SELECT id, start_time AT TIME ZONE 'Asia/Tokyo' FROM e ORDER BY id";
  EXPECT_EQ(answer(*postgres_, zone).size(), std::size(kRows));
  const std::string hours =
      "SELECT id, CAST(EXTRACT(HOUR FROM start_time AT TIME ZONE 'Asia/Tokyo') AS integer) FROM e ORDER BY id";
  EXPECT_EQ(answer(*postgres_, hours), truth(hours));
  EXPECT_EQ(answer(*postgres_, "SELECT count(*) FROM e WHERE timezone('UTC', start_time) < '2026-01-01'"),
            truth("SELECT count(*) FROM e WHERE timezone('UTC', start_time) < '2026-01-01'"));
  // On SQLite too, with the tz database (tests/integration/time_parity_test.cpp has the DST cases).
  EXPECT_EQ(answer(*sqlite_, zone), answer(*postgres_, zone));
  EXPECT_EQ(answer(*sqlite_, hours), truth(hours));
  EXPECT_EQ(answer(*sqlite_, "SELECT count(*) FROM e WHERE timezone('UTC', start_time) < '2026-01-01'"),
            truth("SELECT count(*) FROM e WHERE timezone('UTC', start_time) < '2026-01-01'"));
  // Set-returning functions: no look-alike suggestion, what answers instead.
  for (auto* gateway : {sqlite_.get(), postgres_.get()}) {
    auto r = ask(*gateway, "SELECT jsonb_object_keys(attrs) FROM e");
    EXPECT_EQ(r.status, 422) << r.body;
    EXPECT_NE(r.body.find("set-returning"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("did you mean"), std::string::npos) << r.body;
  }
  // A typo still gets its suggestion.
  expect_refused(*postgres_, "SELECT cuont(*) FROM e", "did you mean count");
}

// SQLite spellings (admit/sqlite_spellings.cpp): on PostgreSQL translated into PostgreSQL SQL that answers
// what SQLite answers (dialect:<name>), on SQLite the engine's own; both give the PostgreSQL truth, NULLs,
// empty input and month ends included. What cannot be kept exactly is refused on PostgreSQL with a FIX.
TEST_F(DialectParityTest, SqliteSpellingsAnswerAlikeOnBothBackends) {
  // truth "": SQLite's own answer is the meaning (modifier arithmetic spelt out would only restate the code).
  struct Case {
    std::string sqlite, truth, rewrite;
    bool on_sqlite = true;
  };
  const Case cases[] = {
      {"SELECT id, ifnull(attrs ->> 'k', 'none') FROM e ORDER BY id",
       "SELECT id, coalesce(attrs ->> 'k', 'none') FROM e ORDER BY id", "dialect:ifnull"},
      {"SELECT id, iif(n > 5, 'big', 'small') FROM e ORDER BY id",
       "SELECT id, CASE WHEN n > 5 THEN 'big' ELSE 'small' END FROM e ORDER BY id", "dialect:iif"},
      {"SELECT id, instr(name, 'a'), instr(name, 'mega') FROM e ORDER BY id",
       "SELECT id, strpos(name, 'a'), strpos(name, 'mega') FROM e ORDER BY id", "dialect:instr"},
      {"SELECT total(n), total(n) FILTER (WHERE id > 100) FROM e",
       "SELECT coalesce(sum(n), 0)::float8, coalesce(sum(n) FILTER (WHERE id > 100), 0)::float8 FROM e",
       "dialect:total"},
      {"SELECT id, max(n, 5), min(n, 5), max(n, CASE WHEN id = 3 THEN NULL ELSE 1 END) FROM e ORDER BY id",
       "SELECT id, greatest(n, 5), least(n, 5), CASE WHEN id = 3 THEN NULL ELSE greatest(n, 1) END FROM e ORDER BY id",
       "dialect:scalar-max-min"},
      {"SELECT length(group_concat(name, '|')), length(group_concat(DISTINCT grp)) FROM e",
       "SELECT length(string_agg(name, '|')), length(string_agg(DISTINCT grp, ',')) FROM e", "dialect:group_concat"},
      {"SELECT group_concat(name) FROM e WHERE id > 100", "SELECT string_agg(name, ',') FROM e WHERE id > 100",
       "dialect:group_concat"},
      {"SELECT id, json_extract(attrs, '$.\"llm.provider\"'), json_extract(attrs, '$.llm.provider') FROM e ORDER BY id",
       "SELECT id, attrs ->> 'llm.provider', attrs #>> '{llm,provider}' FROM e ORDER BY id", "dialect:json_extract"},
      {"SELECT count(*) FROM e WHERE json_extract(attrs, '$.\"llm.provider\"') = 'openai' OR "
       "json_extract(attrs, '$.k') IS NOT NULL",
       "SELECT count(*) FROM e WHERE attrs ->> 'llm.provider' = 'openai' OR attrs ->> 'k' IS NOT NULL",
       "dialect:json_extract"},
      {"SELECT id, strftime('%Y-%m-%d %H:%M:%S', start_time), strftime('%w|%j|%s|%%', end_time) FROM e ORDER BY id",
       "SELECT id, to_char(start_time, 'YYYY-MM-DD HH24:MI:SS'), date_part('dow', end_time)::int || '|' || "
       "to_char(end_time, 'DDD') || '|' || trunc(date_part('epoch', end_time))::bigint || '|%' FROM e ORDER BY id",
       "dialect:strftime"},
      {"SELECT id, date(start_time, '+1 month'), date(start_time, '-1 month'), date(start_time, 'start of month', "
       "'-1 day'), date(start_time, '+1 year', 'weekday 0') FROM e ORDER BY id",
       "", "dialect:date"},
      {"SELECT date('2026-01-31', '+1 month'), date('2025-12-31', '-1 month'), date('2024-02-29', '+1 year'), "
       "date('2026-12-01', 'weekday 1'), date('2026-12-01', 'weekday 2'), date('2026-03-15', 'start of year')",
       "SELECT '2026-03-03', '2025-12-01', '2025-03-01', '2026-12-07', '2026-12-01', '2026-01-01'", "dialect:date"},
      {"SELECT id, datetime(start_time, '+90 minutes'), datetime('2026-01-31', '+1 month', '-1 second') FROM e "
       "ORDER BY id",
       "SELECT id, to_char(start_time + interval '90 minutes', 'YYYY-MM-DD HH24:MI:SS'), '2026-03-02 23:59:59' FROM e "
       "ORDER BY id",
       "dialect:datetime"},
      {"SELECT count(*) FROM e WHERE start_time >= datetime('2026-01-01', '-1 day')",
       "SELECT count(*) FROM e WHERE start_time >= '2025-12-31T00:00:00Z'", "dialect:datetime", false},
      {"SELECT id, unixepoch(start_time), datetime(1767225600, 'unixepoch') FROM e ORDER BY id",
       "SELECT id, trunc(date_part('epoch', start_time))::bigint, '2026-01-01 00:00:00' FROM e ORDER BY id",
       "dialect:unixepoch"},
      {"SELECT id, printf('%s-%d%%', name, n), printf('%s', NULL) FROM e ORDER BY id",
       "SELECT id, name || '-' || n || '%', '' FROM e ORDER BY id", "dialect:printf"},
      {"SELECT id FROM e WHERE n >= 4 ORDER BY id LIMIT 1, 2",
       "SELECT id FROM e WHERE n >= 4 ORDER BY id LIMIT 2 OFFSET 1", "dialect:limit-comma"},
      {"SELECT id FROM e WHERE name GLOB 'be*' OR name GLOB 'BETA_?' OR name NOT GLOB '*a*' ORDER BY id",
       "SELECT id FROM e WHERE name LIKE 'be%' OR name LIKE 'BETA\\__' OR name NOT LIKE '%a%' ORDER BY id",
       "dialect:glob"},
  };
  for (const auto& c : cases) {
    const Cells t = c.truth.empty() ? answer(*sqlite_, c.sqlite) : truth(c.truth);
    ASSERT_FALSE(t.empty()) << c.sqlite;
    json::object applied;
    EXPECT_EQ(answer(*postgres_, c.sqlite, &applied), t) << "PostgreSQL gateway: " << c.sqlite;
    EXPECT_TRUE(has_rewrite(applied, c.rewrite)) << c.sqlite << "\n" << json::serialize(applied);
    if (c.on_sqlite && !c.truth.empty()) EXPECT_EQ(answer(*sqlite_, c.sqlite), t) << "SQLite gateway: " << c.sqlite;
  }
  for (auto* gateway : {postgres_.get(), sqlite_.get()})
    EXPECT_EQ(answer(*gateway, "SELECT id FROM e WHERE n == 4"), truth("SELECT id FROM e WHERE n = 4"));
  // julianday is a float day number: differences agree to well under a millisecond.
  const std::string days = "SELECT id, julianday(end_time) - julianday(start_time) FROM e ORDER BY id";
  expect_close(answer(*postgres_, days),
               truth("SELECT id, date_part('epoch', end_time - start_time) / 86400 FROM e "
                     "ORDER BY id"),
               1e-8, days);
  expect_close(answer(*postgres_, days), answer(*sqlite_, days), 1e-8, days);
  // Where the meaning cannot be kept, PostgreSQL refuses with the PostgreSQL spelling.
  expect_refused(*postgres_, "SELECT group_concat(x) FROM e", "string_agg(CAST(x AS text), ',')");
  expect_refused(*postgres_, "SELECT strftime('%W', start_time) FROM e", "to_char(t");
  expect_refused(*postgres_, "SELECT printf('%.2f', x) FROM e", "to_char(x, 'FM999990.00')");
  expect_refused(*postgres_, "SELECT date(start_time, 'localtime') FROM e", "CAST('N days' AS interval)");
  expect_refused(*postgres_, "SELECT strftime('%Y', name) FROM e", "ISO-8601");
  expect_refused(*postgres_, "SELECT max(random(), 0.5) FROM e", "greatest");
  // A JSON value of another type than the use needs is the engine's error on PostgreSQL, never a different value:
  // SQLite's json_extract returns the number or object as such.
  for (const std::string sql : {"SELECT json_extract(attrs, '$.llm') FROM e",
                                "SELECT sum(json_extract(attrs, "
                                "'$.\"llm.provider\"')) FROM e"}) {
    auto r = ask(*postgres_, sql);
    EXPECT_NE(r.status, 200) << sql << "\n" << r.body;
    EXPECT_NE(r.body.find("CAST(json_extract(x, '$.key') AS numeric)"), std::string::npos) << sql << "\n" << r.body;
  }
}

// Types at admission (admit/value_types.cpp, issue #12; red team s3 bools.out, parity3.out): the raw JSON
// of `rows` and the `columns` (names and PostgreSQL type names) of both gateways are byte-identical, so
// an agent reads the same values whichever engine answers.
class TypesAtAdmissionTest : public DialectParityTest {
 protected:
  // The text of a top-level JSON member's value, as the gateway wrote it (numbers keep their digits).
  static std::string member(const std::string& body, const std::string& name) {
    const auto at = body.find("\"" + name + "\":");
    if (at == std::string::npos) return "";
    const std::size_t start = at + name.size() + 3;
    return body.substr(start, past_json_value(body, start) - start);
  }
  void expect_same_json(const std::string& sql, const std::string& rows = "", bool types = false) {
    auto lite = ask(*sqlite_, sql);
    auto pg = ask(*postgres_, sql);
    ASSERT_EQ(lite.status, 200) << sql << "\n" << lite.body;
    ASSERT_EQ(pg.status, 200) << sql << "\n" << pg.body;
    EXPECT_EQ(member(lite.body, "rows"), member(pg.body, "rows")) << sql;
    // (The SQLite file's INTEGER is PostgreSQL's bigint; this PostgreSQL table declares integer.)
    if (types) EXPECT_EQ(member(lite.body, "columns"), member(pg.body, "columns")) << sql;
    if (!rows.empty()) EXPECT_EQ(member(pg.body, "rows"), rows) << sql;
  }
  // PostgreSQL raises an error; both gateways refuse it at admission with a FIX.
  void expect_type_error(const std::string& sql, const std::string& fix_part) {
    EXPECT_THROW(truth(sql), pqxx::sql_error) << sql;
    expect_refused(*sqlite_, sql, fix_part);
    expect_refused(*postgres_, sql, fix_part);
  }
};

// A stored time's text is PostgreSQL's text of each value (its own fraction digits), not the text of the first
// row's form: start_time has no fraction on its first row and .500 on its second (outside tester s17b: a first
// row without a fraction cut .123456 to .123 on every row).
TEST_F(TypesAtAdmissionTest, AStoredTimesTextIsEachValuesText) {
  expect_same_json(
      "SELECT id, start_time::text AS s, end_time::text || '|' AS e, length(CAST(end_time AS text)) AS n "
      "FROM e ORDER BY id");
  expect_same_json("SELECT string_agg(start_time::text, ',' ORDER BY id) FROM e WHERE start_time::text LIKE '%.5%'");
}

TEST_F(TypesAtAdmissionTest, BooleansStayBooleanThroughEveryLevel) {
  expect_same_json("SELECT id, b FROM (SELECT id, n > 5 AS b FROM e) s ORDER BY id",
                   "[[1,false],[2,false],[3,false],[4,true],[5,true],[6,true]]");
  expect_same_json("SELECT b FROM (SELECT n > 5 AS b FROM e) s ORDER BY b LIMIT 1", "[[false]]", true);
  expect_same_json("WITH c AS (SELECT id, grp = 'a' AS a FROM e) SELECT a, count(*) FROM c GROUP BY a ORDER BY a");
  expect_same_json("SELECT id, coalesce(x > 0, false), CASE WHEN n > 4 THEN true ELSE false END FROM e ORDER BY id");
  expect_same_json("SELECT n > 5 FROM e WHERE id = 1 UNION ALL SELECT NULL UNION ALL SELECT x < 0 FROM e WHERE id = 2");
  expect_same_json("SELECT (SELECT b FROM (SELECT n > 5 AS b FROM e i WHERE i.id = e.id) s) FROM e ORDER BY id");
  expect_same_json("SELECT id, nullif(n > 5, false) FROM e ORDER BY id");
  // Such a boolean printed as text is PostgreSQL's true/false on SQLite too (pg_bool_text, s8).
  expect_truth("SELECT b::text FROM (SELECT n > 5 AS b FROM e) s ORDER BY 1");
  expect_truth("SELECT CASE WHEN n > 5 THEN true ELSE false END::text FROM e ORDER BY 1");
  expect_refused(*sqlite_, "SELECT count(*) FROM (SELECT n > 5 AS b FROM e) s WHERE b = 'true'", "TRUE or FALSE");
}

TEST_F(TypesAtAdmissionTest, NumericsAnswerWithPostgresDigitsAndFloatsStayFloats) {
  // round(numeric, s), EXTRACT and avg/sum of integers are numeric in PostgreSQL: the same digits on both.
  expect_same_json("SELECT round(avg(n), 4) AS a, round(avg(n), 0) AS b, round(avg(n) * 2, 2) AS c FROM e",
                   "[[5.5000,6,11.00]]", true);
  expect_same_json("SELECT sum(n) FROM e", "[[33]]");
  expect_same_json("SELECT grp, round(avg(n)::numeric, 3) FROM e GROUP BY grp ORDER BY grp");
  expect_same_json(
      "SELECT id, EXTRACT(EPOCH FROM start_time), EXTRACT(EPOCH FROM end_time - start_time), "
      "EXTRACT(SECOND FROM end_time) FROM e ORDER BY id");
  expect_same_json("SELECT r FROM (SELECT round(avg(n), 2) AS r FROM e) s");
  expect_same_json("SELECT 1.50 AS a, 2.5 * 2 AS b, 123456.7891::numeric AS c, round(1, 2) AS d", "", true);
  // round(double precision, n) is PostgreSQL's error, accepted on both as round(x::numeric, n).
  json::object applied;
  answer(*postgres_, "SELECT round(avg(x), 2) FROM e", &applied);
  EXPECT_TRUE(has_rewrite(applied, "dialect:round-numeric")) << json::serialize(applied);
  expect_same_json("SELECT id, round(x, 2), round(x * 3, 1) FROM e ORDER BY id");
  EXPECT_EQ(answer(*postgres_, "SELECT round(avg(x), 3) FROM e"), truth("SELECT round(avg(x)::numeric, 3) FROM e"));
  // date_part stays double precision on both.
  expect_same_json("SELECT id, date_part('epoch', start_time) FROM e ORDER BY id");
  // The digits past the double's: quotients, means of integers, shares (outside tester s14: SQLite printed the
  // double, 1 for 0.99999999999999999999), sorted by them, and a derived table's exact column read exactly.
  expect_same_json("SELECT 1.0 / 3 * 3 AS a, 1.0 / 3 AS b, avg(n) AS c, sum(n) / 7.0 AS d, avg(n * 1.0) AS e FROM e",
                   "[[0.99999999999999999999,0.33333333333333333333,5.5000000000000000,4.7142857142857143,"
                   "5.5000000000000000]]");
  expect_same_json(
      "SELECT grp, count(*) * 100.0 / sum(count(*)) OVER () AS pct, avg(n) FROM e GROUP BY grp "
      "ORDER BY pct DESC, 1");
  expect_same_json("SELECT id, n / 3.0 AS q FROM e ORDER BY 2, id LIMIT 5");
  expect_same_json("SELECT floor(v) AS f, v * 3 AS w FROM (SELECT n / 3.0 * 3 AS v FROM e) s ORDER BY 2, 1");
}

TEST_F(TypesAtAdmissionTest, PostgresTypeErrorsAreRefusedOnBothBackends) {
  expect_type_error("SELECT count(*) FROM e WHERE name = 1", "compare text with text");
  expect_type_error("SELECT count(*) FROM e WHERE grp > n", "CAST(grp AS numeric) > n");
  expect_type_error("SELECT count(*) FROM e WHERE grp = n", "compare text with text");
  expect_type_error("SELECT sum(name) FROM e", "CAST(name AS numeric)");
  expect_type_error("SELECT avg(grp) FROM e", "CAST(grp AS numeric)");
  expect_type_error("SELECT length(attrs) FROM e", "->> 'key'");
  expect_type_error("SELECT count(*) FROM e WHERE attrs LIKE '%openai%'", "->> 'key' LIKE");
  expect_type_error("SELECT upper(n) FROM e", "CAST(n AS text)");
  // max/min of a condition: PostgreSQL's error with an exact intent, answered as bool_or/bool_and on both.
  EXPECT_THROW(truth("SELECT max(n > 5) FROM e"), pqxx::sql_error);
  expect_same_json("SELECT max(n > 5) AS a, min(n > 5) AS b, max(n > 9) AS c FROM e", "[[true,false,false]]", true);
  // PostgreSQL's bool aggregates run on SQLite too (max/min of the 1/0), NULLs skipped as PostgreSQL does.
  expect_same_json("SELECT grp, bool_or(n > 5), bool_and(n > 0), every(x > 0) FROM e GROUP BY grp ORDER BY grp", "",
                   true);
  expect_refused(*sqlite_, "SELECT bool_or(n) FROM e", "bool_or(n > 0)");
  // The typed alternatives run and agree.
  expect_truth("SELECT count(*) FROM e WHERE name = '1'");
  expect_truth("SELECT sum(CAST(n AS numeric)) FROM e");
  expect_truth("SELECT length(attrs ->> 'k') FROM e ORDER BY id");
  expect_truth("SELECT count(*) FROM e WHERE CAST(attrs AS text) LIKE '%openai%'");
}

TEST_F(TypesAtAdmissionTest, BigintOverflowIsAnErrorOnBothBackends) {
  for (const std::string sql :
       {"SELECT 9223372036854775807 + n FROM e", "SELECT max(n) * 4611686018427387904 FROM e",
        "SELECT count(*) FROM e WHERE n * 4611686018427387904 > 0", "SELECT -9223372036854775807 - n FROM e",
        "SELECT n * 4611686018427387904 * 1.5 FROM e"}) {
    EXPECT_THROW(truth(sql), pqxx::sql_error) << sql;
    auto lite = ask(*sqlite_, sql);
    EXPECT_NE(lite.status, 200) << sql << "\n" << lite.body;
    EXPECT_NE(lite.body.find("bigint out of range"), std::string::npos) << sql << "\n" << lite.body;
    EXPECT_NE(ask(*postgres_, sql).status, 200) << sql;
  }
  // (e.n is PostgreSQL's integer here: n * 1000000000 would be int4's overflow there.)
  expect_truth("SELECT id, CAST(n AS bigint) * 1000000000 + 1, n - 9 FROM e ORDER BY id");
}

}  // namespace
}  // namespace qg::testing
