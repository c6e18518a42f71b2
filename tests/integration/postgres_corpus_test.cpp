// The demo on real PostgreSQL: the test cluster's `demo` database (loaded by
// scripts/pg-test-cluster.sh load-demo from `querygate demo-db --postgres`)
// served with config/demo-postgres.yaml as the least-privilege qg_reader.
//
// The admission and lineage corpora (tests/corpus/) run here on the catalog
// introspected from that database, so table names, column names and types are
// the engine's, not synthesized; every admitted statement then goes through
// the real PostgreSQL executor (READ ONLY transaction, plan gate, deadline):
// prepared, which must succeed, then run. Anything the plan gate refuses is an
// admission defect; anything else the engine refuses is a statement admission
// let through that PostgreSQL cannot run (kKnownRefusals lists today's).
// Without a server these tests skip loudly; tests/unit/admission_corpus_test.cpp
// still admits every case on the synthesized PostgreSQL catalog.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <boost/json.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "admission/capability/capability.hpp"
#include "admission/pipeline.hpp"
#include "admission/rewrite/virtual_columns.hpp"
#include "config/config.hpp"
#include "executors/postgres/pg_executor.hpp"
#include "tests/integration/pg_demo.hpp"
#include "tests/integration/test_support.hpp"
#include "tests/unit/corpus_file.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

const std::filesystem::path& kConfig = kDemoPostgresConfig;
constexpr auto kStatementBudget = std::chrono::seconds(2);

struct Case {
  std::string where;
  std::string backend;
  std::string expected;  // admission: ok or a refusal code; lineage: the flags
  std::string sql;
};

std::vector<Case> load(const std::string& corpus) {
  std::vector<Case> out;
  for (auto& line : load_corpus_dir(corpus))
    if (line.fields[0] == "both" || line.fields[0] == "postgres")
      out.push_back({line.where, line.fields[0], line.fields[1], line.fields[2]});
  return out;
}

// Admitted statements PostgreSQL refuses today, each with why. None is a
// plan-gate refusal (those are never listed: they always fail the test). They
// are type errors: admission checks names, constructs and functions but infers
// no types, so PostgreSQL's parse analysis refuses them and the agent gets 422
// backend:error with the engine's message (its primary text: see
// exec::engine_words) and a FIX by SQLSTATE. A case refused but not
// listed fails the test, and so does a listed case that now runs (take it off).
struct KnownRefusal {
  std::string_view sql;
  std::string_view why;
};
constexpr std::string_view kNoTypes = "operand types PostgreSQL has no operator for (a precedence case, no type check)";
constexpr std::string_view kJsonb =
    "attributes is jsonb on PostgreSQL: text functions and LIKE need attributes ->> 'key' or CAST(attributes AS text)";
constexpr KnownRefusal kKnownRefusals[] = {
    {"SELECT 2 = (1 IN (0)), (2 = 1) IN (0), 1 IN (0) = true", kNoTypes},
    {"SELECT 2 * 3 || 4", kNoTypes},
    {"SELECT attributes || '' FROM spans", kJsonb},  // '' read as a jsonb literal: invalid JSON
};

const KnownRefusal* known_refusal(const std::string& sql) {
  for (const auto& k : kKnownRefusals)
    if (k.sql == sql) return &k;
  return nullptr;
}

// Tallies one corpus's run on the engine, for the closing line.
struct Tally {
  int admitted = 0, accepted = 0, known = 0;
  std::vector<std::string> deadlines;  // where
  std::vector<std::string> runtime_notes;
};

// The engine's verdict on an admitted statement, as validate_only gets it:
// prepare() puts it through the plan gate and PostgreSQL's parse analysis and
// planner (under LIMIT 0, no rows read). That verdict is what this test
// asserts. Then run() executes it with the gateway's row cap and a short
// deadline, to exercise execution too: errors there depend on the data (a cast
// of 'rag_pipeline' to numeric), not on admission, so they are printed, not
// failed; running past the deadline is the backstop working (huge joins are
// admitted on purpose).
void check_on_engine(exec::Executor& executor, const Case& c, const AdmittedStatement& st, const config::Limits& limits,
                     Tally& tally) {
  ++tally.admitted;
  const auto budget = [] { return exec::Clock::now() + kStatementBudget; };
  auto prepared = executor.prepare(st.sql, budget());
  const KnownRefusal* known = known_refusal(c.sql);
  if (!prepared && prepared.error().code != ErrorCode::LimitDeadline) {
    const Error& e = prepared.error();
    if (e.code == ErrorCode::BackendPlanGate || known == nullptr)
      ADD_FAILURE() << c.where << " [postgres] ADMITTED BUT REFUSED BY POSTGRESQL: " << name(e.code) << ": "
                    << e.message << "\n  sql: " << c.sql << "\n  rendered: " << st.sql;
    else {
      ++tally.known;
      // Refused by the engine, the agent still gets a next step.
      EXPECT_TRUE(e.fix.starts_with("FIX: ")) << c.where << " [postgres] engine refusal without a FIX: " << e.message;
    }
    return;
  }
  if (known != nullptr)
    ADD_FAILURE() << c.where << " [postgres] runs on PostgreSQL now; take it off kKnownRefusals (" << known->why
                  << ")\n  sql: " << c.sql;
  ++tally.accepted;
  auto rows = executor.run(st.sql, exec::RunOptions{.max_rows = limits.default_rows + 1, .deadline = budget()});
  if (rows) return;
  if (rows.error().code == ErrorCode::LimitDeadline) {
    tally.deadlines.push_back(c.where);
  } else if (rows.error().code == ErrorCode::BackendPlanGate) {
    ADD_FAILURE() << c.where << " [postgres] plan gate: " << rows.error().message << "\n  rendered: " << st.sql;
  } else {
    tally.runtime_notes.push_back(c.where + ": " + std::string(name(rows.error().code)) + ": " + rows.error().message +
                                  "\n    rendered: " + st.sql);
  }
}

void report(const std::string& corpus, const Tally& t) {
  std::cerr << corpus << " corpus on PostgreSQL: " << t.admitted << " admitted; " << t.accepted
            << " accepted by the engine, " << t.known
            << " known type refusals (kKnownRefusals); run: " << t.deadlines.size() << " stopped by the "
            << kStatementBudget.count() << " s deadline, " << t.runtime_notes.size() << " failed on the data\n";
  for (const auto& where : t.deadlines) std::cerr << "  deadline: " << where << "\n";
  for (const auto& note : t.runtime_notes) std::cerr << "  note: " << note << "\n";
}

TEST(PostgresCorpusTest, AdmissionCorpusDecidesAndRunsOnRealPostgres) {
  QG_REAL_DEMO(demo);
  const auto cases = load("admission");
  ASSERT_GE(cases.size(), 200u);
  config::Limits limits;
  Tally tally;
  for (const auto& c : cases) {
    auto st = admit_statement(c.sql, demo.catalog, limits, std::nullopt);
    if (c.expected != "ok") {
      if (st)
        ADD_FAILURE() << c.where << " [postgres, real catalog] admitted, expected " << c.expected
                      << "\n  sql: " << c.sql << "\n  rendered: " << st->sql;
      else
        EXPECT_EQ(name(st.error().code), c.expected) << c.where << " [postgres, real catalog] " << c.sql;
      continue;
    }
    if (!st) {
      ADD_FAILURE() << c.where << " [postgres, real catalog] refused: " << name(st.error().code) << ": "
                    << st.error().message << "\n  sql: " << c.sql;
      continue;
    }
    check_on_engine(*demo.executor, c, *st, limits, tally);
  }
  report("admission", tally);
  EXPECT_GE(tally.accepted, 80);
}

TEST(PostgresCorpusTest, LineageCorpusFlagsAndRunsOnRealPostgres) {
  QG_REAL_DEMO(demo);
  const auto cases = load("lineage");
  ASSERT_GE(cases.size(), 40u);
  config::Limits limits;
  Tally tally;
  for (const auto& c : cases) {
    auto st = admit_statement(c.sql, demo.catalog, limits, std::nullopt);
    if (!st) {
      ADD_FAILURE() << c.where << " [postgres, real catalog] refused: " << st.error().message << "\n  " << c.sql;
      continue;
    }
    std::string flags;
    for (const auto& col : st->admission.columns) flags += col.untrusted ? 'U' : '-';
    EXPECT_EQ(flags, c.expected) << c.where << " [postgres, real catalog] " << c.sql;
    check_on_engine(*demo.executor, c, *st, limits, tally);
  }
  report("lineage", tally);
}

// The unit corpus test admits on a PostgreSQL catalog synthesized from the
// SQLite demo; it stands in for this one only while it says the same things.
TEST(PostgresCorpusTest, SynthesizedCatalogMatchesTheRealOne) {
  QG_REAL_DEMO(demo);
  const catalog::Catalog synthesized = Demo::get().postgres_catalog();
  ASSERT_EQ(synthesized.tables.size(), demo.catalog.tables.size());
  for (std::size_t i = 0; i < synthesized.tables.size(); ++i) {
    const auto& want = demo.catalog.tables[i];
    const auto& got = synthesized.tables[i];
    EXPECT_EQ(got.name, want.name);
    ASSERT_EQ(got.columns.size(), want.columns.size()) << want.name;
    for (std::size_t j = 0; j < want.columns.size(); ++j) {
      const auto& w = want.columns[j];
      const auto& g = got.columns[j];
      EXPECT_EQ(g.name, w.name) << want.name;
      EXPECT_EQ(g.timestamp, w.timestamp) << want.name << "." << w.name;
      EXPECT_EQ(g.untrusted, w.untrusted) << want.name << "." << w.name;
      EXPECT_EQ(g.primary_key, w.primary_key) << want.name << "." << w.name;
    }
    ASSERT_EQ(got.virtual_columns.size(), want.virtual_columns.size()) << want.name;
    for (std::size_t j = 0; j < want.virtual_columns.size(); ++j) {
      EXPECT_EQ(got.virtual_columns[j].name, want.virtual_columns[j].name) << want.name;
      EXPECT_EQ(got.virtual_columns[j].untrusted, want.virtual_columns[j].untrusted) << want.name;
    }
  }
}

// config/demo-postgres.yaml passes --check-config against the cluster's demo
// and serves the curated schema (comments, units, UNTRUSTED, virtual columns),
// with users and api_keys neither described nor readable.
TEST(PostgresCorpusTest, DemoPostgresConfigChecksAndServesTheCuratedSchema) {
  QG_PG_TEST_SERVER(server);
  const std::string dsn = pg_dsn(server, "qg_reader", "demo");
  ::unsetenv("QG_DEMO_PG_DSN");
  auto unset = run_command({QG_BINARY, "--check-config", kConfig.string()});
  EXPECT_EQ(unset.exit_code, 2) << unset.output;
  EXPECT_NE(unset.output.find("QG_DEMO_PG_DSN"), std::string::npos) << unset.output;

  ::setenv("QG_DEMO_PG_DSN", dsn.c_str(), 1);
  auto checked = run_command({QG_BINARY, "--check-config", kConfig.string()});
  ASSERT_EQ(checked.exit_code, 0) << checked.output << "\n" << kLoadFix;
  EXPECT_NE(checked.output.find("config OK"), std::string::npos) << checked.output;

  // A copy in a folder of its own: the gateway's log is written next to its config.
  const auto dir = make_temp_dir("qg-demo-pg");
  std::filesystem::copy_file(kConfig, dir / "demo-postgres.yaml");
  GatewayProcess gateway(dir / "demo-postgres.yaml");
  ::unsetenv("QG_DEMO_PG_DSN");
  ASSERT_TRUE(gateway.alive()) << gateway.log();
  auto schema = http(gateway.port(), "GET", "/v1/schema");
  ASSERT_EQ(schema.status, 200) << schema.body;
  const std::string& text = schema.body;
  for (const char* curated : {"One row per instrumented LLM application", "Trace key, 32 lowercase hex characters",
                              "jsonb object with flat, dotted keys", "UNTRUSTED", "latency_ms", "model_name",
                              "total_tokens", "USD", "timestamp with time zone", "CREATE TABLE span_annotations"})
    EXPECT_NE(text.find(curated), std::string::npos) << curated << " not in\n" << text;
  for (const char* hidden : {"CREATE TABLE users", "CREATE TABLE api_keys", "password_hash", "key_hash"})
    EXPECT_EQ(text.find(hidden), std::string::npos) << hidden << " in\n" << text;

  auto query = [&](const std::string& sql) {
    return http(gateway.port(), "POST", "/v1/query", json::serialize(json::object{{"sql", sql}}));
  };
  auto ok = query(
      "SELECT model_name, count(*) AS calls, round(avg(latency_ms), 1) AS ms, sum(total_tokens) AS tokens FROM spans "
      "WHERE kind = 'LLM' AND start_time >= '2026-11-01T00:00:00Z' GROUP BY model_name ORDER BY calls DESC");
  ASSERT_EQ(ok.status, 200) << ok.body;
  const auto doc = json::parse(ok.body);
  EXPECT_EQ(doc.at("row_count").as_int64(), 6) << ok.body;  // six models in the demo
  EXPECT_TRUE(doc.at("columns").at(0).as_object().contains("untrusted")) << ok.body;

  // The private tables: refused by admission, and the reader has no grant either.
  auto refused = query("SELECT email FROM users");
  EXPECT_EQ(refused.status, 422) << refused.body;
  EXPECT_NE(refused.body.find("validation:table-not-allowed"), std::string::npos) << refused.body;
  gateway.stop();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
