// Untrusted text must not reach the agent in an error message. Engine errors
// quote the values they could not use (a cast, a time zone, a JSON path), and
// a value read from an untrusted column is a stored prompt injection: the red
// team's statements run here through the real gateway on both demos (the SQLite
// demo file, the test cluster's `demo` database), and no 16-byte run of any
// untrusted source value may appear in the answer, while the literals and names
// the statement wrote itself still do, and the FIX says where the value came
// from.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <vector>

#include "executors/executor_errors.hpp"
#include "tests/integration/leak_detector.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

// The untrusted values the statements below read.
constexpr const char* kSqliteSources =
    "SELECT explanation FROM span_annotations WHERE explanation IS NOT NULL UNION "
    "SELECT json_extract(attributes, '$.\"input.value\"') FROM spans WHERE kind = 'LLM' UNION "
    "SELECT json_extract(attributes, '$.\"output.value\"') FROM spans WHERE kind = 'LLM'";
constexpr const char* kPostgresSources =
    "SELECT explanation FROM span_annotations WHERE explanation IS NOT NULL UNION "
    "SELECT attributes ->> 'input.value' FROM spans WHERE kind = 'LLM' UNION "
    "SELECT attributes ->> 'output.value' FROM spans WHERE kind = 'LLM'";

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void add_strings(const json::value& v, std::vector<std::string>& out) {
  if (v.is_string()) out.emplace_back(v.as_string());
  if (v.is_array())
    for (const auto& x : v.as_array()) add_strings(x, out);
  if (v.is_object())
    for (const auto& [k, x] : v.as_object()) add_strings(x, out);
}

struct Answer {
  int status = 0;
  std::string body, code, message, fix;
};

Answer ask(int port, const std::string& sql) {
  Answer a;
  const auto r = http(port, "POST", "/v1/query", json::serialize(json::object{{"sql", sql}}));
  a.status = r.status;
  a.body = r.body;
  boost::system::error_code ec;
  const auto parsed = json::parse(r.body, ec);
  if (ec || !parsed.is_object() || !parsed.as_object().contains("error")) return a;
  const auto& e = parsed.at("error").as_object();
  a.code = std::string(e.at("code").as_string());
  a.message = std::string(e.at("message").as_string());
  if (e.contains("fix")) a.fix = std::string(e.at("fix").as_string());
  return a;
}

// The body as sent and every string in it decoded (JSON escapes quotes and
// newlines, so a value may only show whole once decoded).
std::string leak_in(const LeakDetector& d, const Answer& a) {
  if (auto l = d.leak(a.body); !l.empty()) return l;
  boost::system::error_code ec;
  const auto parsed = json::parse(a.body, ec);
  if (ec) return {};
  std::vector<std::string> strings;
  add_strings(parsed, strings);
  for (const auto& s : strings)
    if (auto l = d.leak(s); !l.empty()) return l;
  return {};
}

// A statement whose failing value comes from an untrusted column.
struct FromData {
  const char* sql;
  bool cast;  // a cast: the FIX says to keep the rows that read as the type
};

void expect_withheld(int port, const LeakDetector& d, const std::vector<FromData>& cases) {
  for (const auto& c : cases) {
    const Answer a = ask(port, c.sql);
    EXPECT_EQ(a.status, 422) << c.sql << "\n" << a.body;
    EXPECT_EQ(a.code, "backend:error") << c.sql << "\n" << a.body;
    EXPECT_EQ(leak_in(d, a), "") << c.sql << "\n" << a.body;
    EXPECT_NE(a.message.find(exec::kWithheldValue), std::string::npos) << c.sql << "\n" << a.body;
    EXPECT_NE(a.fix.find("came from the data"), std::string::npos) << c.sql << "\n" << a.body;
    if (c.cast) {
      EXPECT_NE(a.fix.find("keep only the rows that read as that type"), std::string::npos) << a.body;
    }
  }
}

// A statement whose failing value is its own literal: the message quotes it.
void expect_kept(int port, const std::string& sql, const std::string& quoted, const std::string& fix_part) {
  const Answer a = ask(port, sql);
  EXPECT_EQ(a.code, "backend:error") << sql << "\n" << a.body;
  EXPECT_NE(a.message.find(quoted), std::string::npos) << sql << "\n" << a.body;
  EXPECT_EQ(a.message.find(exec::kWithheldValue), std::string::npos) << sql << "\n" << a.body;
  EXPECT_NE(a.fix.find(fix_part), std::string::npos) << sql << "\n" << a.body;
}

TEST(ErrorLeakTest, SqliteWithholdsValuesFromTheData) {
  const auto dir = make_temp_dir("qg-errleak");
  auto made = run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  write_file(dir / "querygate.yaml", read_text(std::filesystem::path(QG_SOURCE_DIR) / "config" / "demo.yaml"));

  LeakDetector d;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2((dir / "demo.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, kSqliteSources, -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  while (sqlite3_step(stmt) == SQLITE_ROW)
    if (const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))) d.add_untrusted(t);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  ASSERT_GT(d.size(), 1000u) << "too few untrusted windows: the test could not see a leak";

  GatewayProcess gateway(dir / "querygate.yaml");
  expect_withheld(
      gateway.port(), d,
      {{"SELECT json_extract('{\"a\":1}', explanation) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'",
        false},
       {"SELECT json_extract(attributes, explanation) FROM spans, span_annotations WHERE explanation LIKE "
        "'%SYSTEM%' LIMIT 1",
        false}});
  // No quotes, no value: passed on as it is.
  const Answer malformed = ask(gateway.port(),
                               "SELECT json_extract(explanation, '$') FROM span_annotations WHERE explanation LIKE "
                               "'%IMPORTANT%'");
  EXPECT_EQ(malformed.message, "SQLite: malformed JSON") << malformed.body;
  EXPECT_EQ(leak_in(d, malformed), "");
  // The statement's own path is quoted back.
  expect_kept(gateway.port(), "SELECT json_extract('{\"a\":1}', 'zz-not-a-path') FROM projects", "'zz-not-a-path'", "");
  std::filesystem::remove_all(dir);
}

TEST(ErrorLeakTest, PostgresWithholdsValuesFromTheData) {
  QG_PG_TEST_SERVER(server);
  const std::string dsn = pg_dsn(server, "qg_reader", "demo");
  LeakDetector d;
  {
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    for (const auto& row : tx.exec(kPostgresSources))
      if (!row[0].is_null()) d.add_untrusted(row[0].c_str());
  }
  ASSERT_GT(d.size(), 1000u) << "too few untrusted windows: the test could not see a leak";
  // Some answers in the data talk about "timestamp with time zone": the
  // engine's own words about the type are not theirs.
  d.add_trusted("ERROR:  invalid input syntax for type timestamp with time zone: ");
  d.add_trusted(" not recognized for type timestamp with time zone");

  const auto dir = make_temp_dir("qg-errleak-pg");
  std::string config = read_text(std::filesystem::path(QG_SOURCE_DIR) / "config" / "demo-postgres.yaml");
  const std::string env_line = "dsn_env: QG_DEMO_PG_DSN";
  const auto at = config.find(env_line);
  ASSERT_NE(at, std::string::npos) << "config/demo-postgres.yaml changed: update this test";
  config.replace(at, env_line.size(), "dsn: \"" + dsn + "\"");
  write_file(dir / "querygate.yaml", config);
  GatewayProcess gateway(dir / "querygate.yaml");

  const std::string w = " FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'";
  std::vector<std::string> owned;  // the FromData cases point into these
  for (const char* type : {"integer", "boolean", "uuid", "interval", "date", "timestamptz", "numeric", "bigint"})
    owned.push_back("SELECT CAST(explanation AS " + std::string(type) + ")" + w);
  for (const char* key : {"input.value", "output.value"})
    for (const char* type : {"numeric", "interval", "bigint"})
      owned.push_back("SELECT CAST(attributes ->> '" + std::string(key) + "' AS " + type +
                      ") FROM spans WHERE kind = 'LLM'");
  std::vector<FromData> cases;
  for (const auto& s : owned) cases.push_back({s.c_str(), true});
  const std::string tz = "SELECT timezone(explanation, now())" + w;
  const std::string trunc = "SELECT date_trunc(explanation, now())" + w;
  const std::string part = "SELECT date_part(explanation, now())" + w;
  for (const auto* s : {&tz, &trunc, &part}) cases.push_back({s->c_str(), false});
  expect_withheld(gateway.port(), d, cases);

  // jsonb's DETAIL and CONTEXT quote the document; they are not passed on.
  const Answer jsonb = ask(gateway.port(), "SELECT CAST(explanation AS jsonb)" + w);
  EXPECT_EQ(jsonb.code, "backend:error") << jsonb.body;
  EXPECT_EQ(leak_in(d, jsonb), "") << jsonb.body;
  EXPECT_EQ(jsonb.message.find("DETAIL"), std::string::npos) << jsonb.body;
  // It names no value: the FIX covers a literal and a column.
  EXPECT_NE(jsonb.fix.find("A column: keep only the rows"), std::string::npos) << jsonb.body;

  // The statement's own literals are quoted back, with the FIX for a literal.
  expect_kept(gateway.port(), "SELECT CAST('not-a-number-xyz' AS integer)", "\"not-a-number-xyz\"", "a literal");
  expect_kept(gateway.port(), "SELECT timezone('Mars/Olympus_Mons', now())", "\"Mars/Olympus_Mons\"", "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
