// What an agent learns in one round trip (issue #12, "What the agent can know"
// and "FIXes that work the first time"), over real HTTP on both demos:
// - every problem admission finds is listed, in statement order, each with its
//   own position (the byte offset of what was written) and FIX;
// - a FIX that is a mechanical change of the text comes with
//   `error.suggested_sql`, and that statement runs (200) and answers what the
//   statement written by hand with the same change answers; a FIX that is a
//   choice has none.
// The sweep sends every refused statement of the admission corpus and sends
// each suggestion it got: every suggestion must run.
// - a time window that reaches past the data the table holds (the demo's
//   spans cover 2026-09-16 … 2026-11-15) is named in `notes` with the range;
//   a window inside the data has no such note.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/integration/test_support.hpp"
#include "tests/unit/corpus_file.hpp"

namespace qg::testing {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string body(const std::string& sql) {
  return json::serialize(json::object{{"sql", sql}, {"database", "demo"}});
}

struct Answer {
  int status = 0;
  json::object doc;
  const json::object* error() const {
    const auto* e = doc.if_contains("error");
    return e != nullptr && e->is_object() ? &e->as_object() : nullptr;
  }
  std::string suggested() const {
    const auto* e = error();
    const auto* s = e ? e->if_contains("suggested_sql") : nullptr;
    return s != nullptr && s->is_string() ? std::string(s->as_string()) : std::string();
  }
  // The rows as sent, for comparing two answers.
  std::string rows() const {
    const auto* r = doc.if_contains("rows");
    return r != nullptr ? json::serialize(*r) : "<no rows>";
  }
};

Answer ask(int port, const std::string& sql) {
  const auto r = http(port, "POST", "/v1/query", body(sql));
  Answer a;
  a.status = r.status;
  auto parsed = json::parse(r.body);
  if (parsed.is_object()) a.doc = parsed.as_object();
  return a;
}

// Byte offset of the n-th (0-based) occurrence of `needle` in `sql`.
int offset_of(const std::string& sql, const std::string& needle, int n = 0) {
  std::size_t at = sql.find(needle);
  while (n-- > 0 && at != std::string::npos) at = sql.find(needle, at + 1);
  return at == std::string::npos ? -1 : static_cast<int>(at);
}

void every_problem_in_statement_order(int port) {
  const std::string sql =
      "SELECT nope_a, name FROM spans WHERE nope_b = 1 AND status = 'OK' AND nope_c > 2 ORDER BY nope_d";
  const Answer a = ask(port, sql);
  ASSERT_EQ(a.status, 422) << json::serialize(a.doc);
  const auto* e = a.error();
  ASSERT_NE(e, nullptr);
  ASSERT_TRUE(e->contains("problems")) << json::serialize(a.doc);
  const auto& problems = e->at("problems").as_array();
  ASSERT_EQ(problems.size(), 4u) << json::serialize(a.doc);
  const char* names[] = {"nope_a", "nope_b", "nope_c", "nope_d"};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& p = problems[i].as_object();
    EXPECT_EQ(p.at("code").as_string(), "validation:unknown-column") << json::serialize(p);
    EXPECT_EQ(p.at("position").as_int64(), offset_of(sql, names[i])) << json::serialize(p);
    EXPECT_NE(std::string(p.at("message").as_string()).find(names[i]), std::string::npos) << json::serialize(p);
    EXPECT_TRUE(std::string(p.at("fix").as_string()).starts_with("FIX: ")) << json::serialize(p);
  }
  // The error itself is the first one met, and is among them.
  EXPECT_EQ(e->at("position").as_int64(), offset_of(sql, "nope_a"));

  // Both branches of a set operation; a subquery's problems with its outer query's.
  const std::string set_sql = "SELECT nope_a FROM spans UNION ALL SELECT nope_b FROM traces";
  const Answer set = ask(port, set_sql);
  ASSERT_EQ(set.status, 422);
  ASSERT_TRUE(set.error()->contains("problems")) << json::serialize(set.doc);
  EXPECT_EQ(set.error()->at("problems").as_array().size(), 2u) << json::serialize(set.doc);
  const std::string nested = "SELECT name FROM spans WHERE trace_id IN (SELECT nope_a FROM traces) AND nope_b = 2";
  const Answer inner = ask(port, nested);
  ASSERT_EQ(inner.status, 422);
  ASSERT_TRUE(inner.error()->contains("problems")) << json::serialize(inner.doc);
  const auto& two = inner.error()->at("problems").as_array();
  ASSERT_EQ(two.size(), 2u) << json::serialize(inner.doc);
  EXPECT_EQ(two[0].as_object().at("position").as_int64(), offset_of(nested, "nope_a"));
  EXPECT_EQ(two[1].as_object().at("position").as_int64(), offset_of(nested, "nope_b"));

  // One problem: no list.
  const Answer one = ask(port, "SELECT nope_a FROM spans");
  ASSERT_EQ(one.status, 422);
  EXPECT_FALSE(one.error()->contains("problems")) << json::serialize(one.doc);
  // A statement that is admitted is untouched by the gathering.
  EXPECT_EQ(ask(port, "SELECT name FROM spans WHERE status = 'OK' ORDER BY id LIMIT 3").status, 200);
}

struct Suggestion {
  std::string written;
  std::string by_hand;  // the FIX applied by hand: what suggested_sql must answer like
};

void suggestions_run_and_answer_as_the_fix_says(int port) {
  const Suggestion cases[] = {
      {"SELECT count(*) AS n FROM spans WHERE status = \"ERROR\"",
       "SELECT count(*) AS n FROM spans WHERE status = 'ERROR'"},
      // Two mechanical changes: the suggestion holds both.
      {"SELECT status, count(*) AS n FROM spans WHERE status IN (\"ERROR\", \"OK\") GROUP BY status ORDER BY status",
       "SELECT status, count(*) AS n FROM spans WHERE status IN ('ERROR', 'OK') GROUP BY status ORDER BY status"},
      {"SELECT count(*) AS n FROM spans WHERE \"OK\" <> status AND kind = \"LLM\"",
       "SELECT count(*) AS n FROM spans WHERE 'OK' <> status AND kind = 'LLM'"},
      // A date as M/D/YYYY: PostgreSQL's reading (month first), in ISO form.
      {"SELECT count(*) AS n FROM spans WHERE start_time >= '11/01/2026'",
       "SELECT count(*) AS n FROM spans WHERE start_time >= '2026-11-01'"},
  };
  for (const auto& c : cases) {
    const Answer refused = ask(port, c.written);
    ASSERT_EQ(refused.status, 422) << c.written << "\n" << json::serialize(refused.doc);
    const std::string suggested = refused.suggested();
    ASSERT_FALSE(suggested.empty()) << c.written << "\n" << json::serialize(refused.doc);
    const Answer ran = ask(port, suggested);
    const Answer by_hand = ask(port, c.by_hand);
    ASSERT_EQ(by_hand.status, 200) << c.by_hand << "\n" << json::serialize(by_hand.doc);
    EXPECT_EQ(ran.status, 200) << suggested << "\n" << json::serialize(ran.doc);
    EXPECT_EQ(ran.rows(), by_hand.rows()) << suggested;
  }
  // A FIX that is a choice, or whose change would not be the statement's meaning, has no suggestion.
  for (const std::string sql : {
           "SELECT \"ERROR\" FROM spans",                 // a column or a text? the FIX offers both
           "SELECT nope_a FROM spans",                    // a misspelt column: the agent picks
           "SELECT name FROM spans WHERE \"nme\" = 'x'",  // compared with a text: 'nme' = 'x' answers nothing
       }) {
    const Answer a = ask(port, sql);
    ASSERT_EQ(a.status, 422) << sql;
    EXPECT_TRUE(a.suggested().empty()) << sql << "\n" << json::serialize(a.doc);
  }
}

// Every refusal of the corpus that carries a suggestion: the suggestion runs.
void every_suggestion_of_the_corpus_runs(int port, const std::string& backend) {
  int suggested = 0;
  std::set<std::string> seen;
  for (const auto& line : load_corpus_dir("admission")) {
    const std::string& where = line.fields[0];
    if (where != "both" && where != backend) continue;
    const std::string& sql = line.fields[2];
    if (line.fields[1] == "ok" || !seen.insert(sql).second) continue;  // only the refusals are sent
    const Answer a = ask(port, sql);
    if (a.status != 422 || a.suggested().empty()) continue;
    ++suggested;
    const Answer ran = ask(port, a.suggested());
    EXPECT_EQ(ran.status, 200) << line.where << ": " << sql << "\nsuggested: " << a.suggested() << "\n"
                               << json::serialize(ran.doc);
  }
  std::cout << backend << ": " << suggested << " corpus refusals carried a suggestion\n";
}

std::string notes_of(const Answer& a) {
  const auto* n = a.doc.if_contains("notes");
  return n != nullptr ? json::serialize(*n) : "[]";
}

// "table.column holds <min day> … <max day> (UTC)", the range as the engine answers it for this key.
std::string held_by(int port, const std::string& table, const std::string& column) {
  const Answer range = ask(port, "SELECT min(" + column + ") AS lo, max(" + column + ") AS hi FROM " + table);
  EXPECT_EQ(range.status, 200) << json::serialize(range.doc);
  const auto& row = range.doc.at("rows").as_array().at(0).as_array();
  return table + "." + column + " holds " + std::string(row.at(0).as_string()).substr(0, 10) + " … " +
         std::string(row.at(1).as_string()).substr(0, 10) + " (UTC)";
}

void time_windows_past_the_data_are_named(int port) {
  // The demo's data ends 2026-11-15; "the last 30 days" from any later day reaches past it.
  const std::string held = held_by(port, "spans", "start_time");
  const Answer recent = ask(port, "SELECT count(*) AS n FROM spans WHERE start_time >= now() - INTERVAL '30 days'");
  ASSERT_EQ(recent.status, 200) << json::serialize(recent.doc);
  EXPECT_NE(notes_of(recent).find(held + "; the window "), std::string::npos) << held << "\n" << notes_of(recent);
  EXPECT_NE(notes_of(recent).find(" (30 days) overlaps it for "), std::string::npos) << notes_of(recent);

  const Answer after = ask(port, "SELECT count(*) AS n FROM spans s WHERE s.start_time > '2026-11-20' ");
  ASSERT_EQ(after.status, 200) << json::serialize(after.doc);
  EXPECT_NE(notes_of(after).find("lies wholly after it"), std::string::npos) << notes_of(after);

  const Answer empty =
      ask(port, "SELECT id FROM spans WHERE start_time BETWEEN '2026-01-01' AND '2026-02-01' ORDER BY id");
  ASSERT_EQ(empty.status, 200) << json::serialize(empty.doc);
  EXPECT_NE(notes_of(empty).find("lies wholly before it, so no row of spans is in it (hence the empty answer)"),
            std::string::npos)
      << notes_of(empty);

  // Half the window outside: named with its days.
  const Answer half = ask(port,
                          "SELECT count(*) AS n FROM spans WHERE start_time >= '2026-11-01' AND start_time < "
                          "'2026-12-01'");
  ASSERT_EQ(half.status, 200) << json::serialize(half.doc);
  EXPECT_NE(notes_of(half).find("(30 days) overlaps it for"), std::string::npos) << notes_of(half);

  // The range is the caller's: the hidden project's rows (the demo's internal-tests project was created after
  // every other one) are not in it, so the note tells nothing a count could not.
  const Answer projects = ask(port, "SELECT count(*) AS n FROM projects WHERE created_at > '2026-08-10'");
  ASSERT_EQ(projects.status, 200) << json::serialize(projects.doc);
  EXPECT_NE(notes_of(projects).find(held_by(port, "projects", "created_at") + "; the window from 2026-08-10"),
            std::string::npos)
      << notes_of(projects);

  // Inside the data: nothing said.
  const Answer inside = ask(port,
                            "SELECT count(*) AS n FROM spans WHERE start_time >= '2026-10-01' AND start_time < "
                            "'2026-10-31'");
  ASSERT_EQ(inside.status, 200) << json::serialize(inside.doc);
  EXPECT_EQ(notes_of(inside).find("holds"), std::string::npos) << notes_of(inside);
}

// A column holding a subquery is named as PostgreSQL names it (after the subquery's own column, else
// ?column?), never after the SQL that ran: on SQLite that text held the row filters' SQL.
void subquery_columns_are_named_as_postgres_names_them(int port) {
  const std::pair<const char*, const char*> cases[] = {
      {"SELECT (SELECT count(*) FROM traces)", "count"},
      {"SELECT (SELECT max(t.id) AS newest FROM traces t WHERE t.project_id = p.id) FROM projects p", "newest"},
      {"SELECT 1 + (SELECT max(id) FROM traces)", "?column?"},
      {"SELECT id IN (SELECT project_id FROM traces) FROM projects", "?column?"},
      {"SELECT EXISTS (SELECT 1 FROM traces WHERE traces.project_id = projects.id) FROM projects", "exists"},
      {"SELECT * FROM (SELECT (SELECT count(*) FROM traces)) AS x", "count"},
  };
  for (const auto& [sql, name] : cases) {
    const Answer a = ask(port, sql);
    ASSERT_EQ(a.status, 200) << sql << "\n" << json::serialize(a.doc);
    const auto& columns = a.doc.at("columns").as_array();
    ASSERT_EQ(columns.size(), 1u) << sql;
    EXPECT_EQ(columns[0].as_object().at("name").as_string(), name) << sql;
  }
}

// An engine's range errors each get the FIX for what left its range (one FIX, "CAST to bigint or numeric",
// answered numeric(5, 2), acos(2) and ORDER BY 3 alike; outside tester s12).
void engine_errors_name_what_failed(int port) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"SELECT 12345.678::numeric(5, 2) AS a", "numeric(p, s)"},
      {"SELECT acos(2) AS a", "domain"},
      {"SELECT '1e300'::float8 * '1e300'::float8 AS a", "double precision result"},
      {"SELECT 9223372036854775807 + id AS a FROM projects", "overflowed bigint"},
      {"SELECT 2147483647 + id AS a FROM projects", "overflowed its integer type"},
      {"SELECT id FROM projects ORDER BY 3", "ORDER BY n"},
      // A JSON value of another type than the function takes (no FIX at all before; outside tester s14).
      {"SELECT jsonb_array_length(attributes -> 'llm.provider') AS n FROM spans WHERE kind = 'LLM'", "jsonb_typeof"},
      {"SELECT k FROM spans, jsonb_object_keys(attributes -> 'llm.provider') AS k WHERE kind = 'LLM'", "jsonb_typeof"},
  };
  for (const auto& [sql, words] : cases) {
    const Answer a = ask(port, sql);
    const auto* e = a.error();
    ASSERT_NE(e, nullptr) << sql << ": " << a.rows();
    const auto* fix = e->if_contains("fix");
    ASSERT_TRUE(fix != nullptr && fix->is_string()) << sql << ": " << json::serialize(*e);
    EXPECT_NE(std::string(fix->as_string()).find(words), std::string::npos) << sql << ": " << json::serialize(*e);
  }
}

fs::path sqlite_demo_config(const fs::path& dir) {
  EXPECT_EQ(run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()}).exit_code, 0);
  std::string demo = read_text(fs::path(QG_SOURCE_DIR) / "config" / "demo.yaml");
  write_file(dir / "demo.yaml", demo);
  return dir / "demo.yaml";
}

TEST(AgentLessons, SqliteListsEveryProblemSuggestsStatementsThatRunAndNamesWindowsPastTheData) {
  const fs::path dir = make_temp_dir("qg-agent-lessons");
  GatewayProcess gateway(sqlite_demo_config(dir));
  every_problem_in_statement_order(gateway.port());
  time_windows_past_the_data_are_named(gateway.port());
  subquery_columns_are_named_as_postgres_names_them(gateway.port());
  suggestions_run_and_answer_as_the_fix_says(gateway.port());
  every_suggestion_of_the_corpus_runs(gateway.port(), "sqlite");
  engine_errors_name_what_failed(gateway.port());
  // SQLite's own sum() past 2^63 (PostgreSQL answers: its sum of bigint is numeric): a FIX, not bare words.
  const Answer sum =
      ask(gateway.port(), "SELECT sum(x) AS s FROM (VALUES (9223372036854775807), (9223372036854775807)) v(x)");
  ASSERT_NE(sum.error(), nullptr) << sum.rows();
  const auto* sum_fix = sum.error()->if_contains("fix");
  ASSERT_TRUE(sum_fix != nullptr && sum_fix->is_string()) << json::serialize(*sum.error());
  EXPECT_NE(std::string(sum_fix->as_string()).find("sum smaller units"), std::string::npos);
  fs::remove_all(dir);
}

TEST(AgentLessons, PostgresListsEveryProblemSuggestsStatementsThatRunAndNamesWindowsPastTheData) {
  QG_PG_TEST_SERVER(server);
  const fs::path dir = make_temp_dir("qg-agent-lessons-pg");
  std::string demo = read_text(fs::path(QG_SOURCE_DIR) / "config" / "demo-postgres.yaml");
  demo = std::regex_replace(demo, std::regex("dsn_env: QG_DEMO_PG_DSN[^\n]*"),
                            "dsn: \"" + pg_dsn(server, "qg_reader", "demo") + "\"");
  write_file(dir / "demo.yaml", demo);
  GatewayProcess gateway(dir / "demo.yaml");
  every_problem_in_statement_order(gateway.port());
  time_windows_past_the_data_are_named(gateway.port());
  subquery_columns_are_named_as_postgres_names_them(gateway.port());
  suggestions_run_and_answer_as_the_fix_says(gateway.port());
  every_suggestion_of_the_corpus_runs(gateway.port(), "postgres");
  engine_errors_name_what_failed(gateway.port());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
