// Write tools (writes/, issue 15) through the real binary over loopback HTTP,
// on SQLite and on PostgreSQL: the order of the checks and their answers, the
// bad-input corpus (tests/corpus/writes_bad_inputs.tsv: every line refused
// with its code and a FIX, the table unchanged afterwards), a race of 64
// concurrent calls over 16 natural keys, kill -9 during a write load, the
// key scopes, the after-checks, the records, and the PostgreSQL write role's
// posture (a role that may UPDATE or DELETE refuses the start).
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <pqxx/pqxx>
#include <set>
#include <sstream>
#include <thread>

#include "gateway/auth/sha256.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

constexpr const char* kWriterToken = "writer-token-0123456789";
constexpr const char* kReaderToken = "reader-token-0123456789";
// Two tenants (bind: project_id 1 and 2) that may call save_scoped; the judge key binds nothing.
constexpr const char* kTenantA = "tenant-a-token-0123456789";
constexpr const char* kTenantB = "tenant-b-token-0123456789";
constexpr const char* kHiddenJudge = "hidden-judge-token-0123456789";

std::string bearer(const char* token) {
  return std::string("Authorization: Bearer ") + token + "\r\n";
}

// spans 1..30 are LLM spans (the ones a verdict may point at), 31..40 CHAIN,
// and 101..2100 LLM again (a load of distinct keys for the kill test). Odd
// spans belong to project 1, even ones to project 2 (the tenants of save_scoped).
std::string span_rows() {
  const auto project = [](int i) { return std::string(i % 2 == 1 ? "1" : "2"); };
  std::string out = "INSERT INTO spans (id, kind, project_id) VALUES ";
  for (int i = 1; i <= 40; ++i)
    out += "(" + std::to_string(i) + ", '" + (i <= 30 ? "LLM" : "CHAIN") + "', " + project(i) + "), ";
  for (int i = 101; i <= 2100; ++i)
    out += "(" + std::to_string(i) + ", 'LLM', " + project(i) + ")" + (i < 2100 ? ", " : ";\n");
  return out;
}

// The ids come from the database (SQLite's rowid, PostgreSQL's identity), never from querygate.
// span_kind is derived from the referenced row; flagged is a boolean computed from the arguments.
std::string tool_yaml(bool postgres) {
  const std::string now =
      postgres ? "      created_at: \"now()\"\n" : "      created_at: \"strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')\"\n";
  std::string set = "    set:\n      annotator_kind: \"'LLM'\"\n" + now +
                    "      span_kind: \"(SELECT kind FROM spans WHERE id = :span_id)\"\n"
                    "      flagged: \":label <> 'correct'\"\n";
  return "writes:\n"
         "  save_annotation:\n"
         "    database: w\n"
         "    table: span_annotations\n"
         "    description: Record a verdict on a span (LLM judge).\n"
         "    parameters:\n"
         "      span_id: { type: integer, references: \"SELECT id FROM spans WHERE kind = 'LLM'\" }\n"
         "      label: { type: string, enum: [correct, incorrect, hallucination] }\n"
         "      score: { type: number, min: 0, max: 1 }\n"
         "      explanation: { type: string, max_length: 2000, required: false, untrusted: true }\n" +
         set +
         "    duplicate_key: [span_id, annotator_kind]\n"
         "    checks:\n"
         "      - sql: \"SELECT :label <> 'correct' OR :score >= 0.5\"\n"
         "        fix: \"a 'correct' verdict needs score >= 0.5; send a score of at least 0.5 or another label\"\n"
         "    after_checks:\n"
         "      - name: no_hallucination_with_high_score\n"
         "        sql: \"SELECT id, span_id, score FROM span_annotations WHERE label = 'hallucination' AND score > "
         "0.5 ORDER BY id\"\n"
         "        fix: \"a hallucination cannot score above 0.5; record a new verdict for these spans\"\n"
         // Tenant scoping: a key may point only at spans of the project it binds.
         "  save_scoped:\n"
         "    database: w\n"
         "    table: span_annotations\n"
         "    description: Record a verdict on a span of the caller's own project.\n"
         "    parameters:\n"
         "      span_id: { type: integer, references: \"SELECT id FROM spans WHERE kind = 'LLM' AND project_id = "
         ":project_id\" }\n"
         "      label: { type: string, enum: [correct, incorrect, hallucination] }\n"
         "      score: { type: number, min: 0, max: 1 }\n"
         "    set:\n      annotator_kind: \"'TENANT'\"\n" +
         now + "    duplicate_key: [span_id, annotator_kind]\n";
}

std::string keys_yaml() {
  return "keys:\n"
         "  - { name: judge, sha256: " +
         auth::to_hex(auth::sha256(kWriterToken)) +
         ", databases: [w], writes: [save_annotation, save_scoped] }\n"
         "  - { name: reader, sha256: " +
         auth::to_hex(auth::sha256(kReaderToken)) +
         ", databases: [w] }\n"
         "  - { name: tenant_a, sha256: " +
         auth::to_hex(auth::sha256(kTenantA)) +
         ", databases: [w], writes: [save_scoped], bind: { project_id: 1 } }\n"
         "  - { name: tenant_b, sha256: " +
         auth::to_hex(auth::sha256(kTenantB)) +
         ", databases: [w], writes: [save_scoped], bind: { project_id: 2 } }\n"
         "  - { name: hidden_judge, sha256: " +
         auth::to_hex(auth::sha256(kHiddenJudge)) +
         ", databases: [w], writes: all, hidden_columns: { span_annotations: [explanation, created_at] } }\n";
}

struct Snapshot {
  long long rows = 0;
  std::string checksum;
  bool operator==(const Snapshot&) const = default;
};

class WritesTest : public ::testing::TestWithParam<std::string> {
 protected:
  bool postgres() const { return GetParam() == "postgres"; }

  void SetUp() override {
    dir_ = make_temp_dir("qg-writes");
    if (postgres()) {
      QG_PG_TEST_SERVER(server);
      server_ = server;
      db_ = "writes_" + std::to_string(getpid()) + "_" + std::to_string(counter_++);
      create_pg_database(db_, "GRANT INSERT ON span_annotations TO qg_writer;");
      env_ = "QG_WRITES_TEST_DSN_" + std::to_string(getpid());
      setenv(env_.c_str(), pg_dsn(server_, "qg_writer", db_).c_str(), 1);
      config_ = "databases:\n  w:\n    backend: postgres\n    dsn: " + pg_dsn(server_, "qg_reader", db_) +
                "\n    write_dsn_env: " + env_ + "\n";
    } else {
      sqlite3* lite = nullptr;
      ASSERT_EQ(sqlite3_open((dir_ / "w.db").c_str(), &lite), SQLITE_OK);
      const std::string sql =
          "CREATE TABLE spans (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, project_id INTEGER NOT NULL);\n"
          "CREATE TABLE span_annotations (id INTEGER PRIMARY KEY, span_id INTEGER NOT NULL REFERENCES spans(id), "
          "annotator_kind TEXT NOT NULL, label TEXT, score REAL, explanation TEXT, created_at TEXT NOT NULL, "
          "span_kind TEXT, flagged BOOLEAN);\n"
          "CREATE TABLE secrets (id INTEGER PRIMARY KEY, v TEXT);\nBEGIN;\n" +
          span_rows() + "COMMIT;";
      ASSERT_EQ(sqlite3_exec(lite, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(lite);
      sqlite3_close(lite);
      config_ = "databases:\n  w:\n    backend: sqlite\n    path: w.db\n";
    }
    config_ +=
        "    tables:\n      spans: {}\n      span_annotations:\n        columns:\n          explanation: { untrusted: "
        "true }\n          created_at: { timestamp: true }\n";
    config_ += tool_yaml(postgres()) + keys_yaml();
    write_file(dir_ / "querygate.yaml", config_);
    start();
  }

  void TearDown() override {
    gateway_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
    if (!env_.empty()) unsetenv(env_.c_str());
    for (const auto& db : dropped_) drop_pg_database(db);
  }

  void start() {
    // A restart must not find the previous process's "listening on" line in the log.
    std::filesystem::remove(dir_ / "querygate.log");
    gateway_ = std::make_unique<GatewayProcess>(dir_ / "querygate.yaml");
  }

  void create_pg_database(const std::string& name, const std::string& writer_grants) {
    {
      pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      tx.exec("CREATE DATABASE " + name + " OWNER qg_owner");
    }
    dropped_.push_back(name);
    pqxx::connection owner(pg_dsn(server_, "qg_owner", name));
    pqxx::work tx(owner);
    tx.exec(
        "CREATE TABLE spans (id bigint PRIMARY KEY, kind text NOT NULL, project_id bigint NOT NULL);\n"
        "CREATE TABLE span_annotations (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
        "span_id bigint NOT NULL REFERENCES spans(id), annotator_kind text NOT NULL, label text, "
        "score double precision, explanation text, created_at timestamptz NOT NULL, span_kind text, "
        "flagged boolean);\n"
        "CREATE TABLE secrets (id bigint PRIMARY KEY, v text);\n" +
        span_rows() + "REVOKE ALL ON DATABASE " + name +
        " FROM PUBLIC;\n"
        "GRANT CONNECT ON DATABASE " +
        name +
        " TO qg_reader, qg_writer;\n"
        "GRANT USAGE ON SCHEMA public TO qg_reader, qg_writer;\n"
        "GRANT SELECT ON spans, span_annotations TO qg_reader, qg_writer;\n" +
        writer_grants);
    tx.commit();
  }

  void drop_pg_database(const std::string& name) {
    try {
      pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    } catch (const std::exception&) {
    }
  }

  // Rows of span_annotations as text, in id order, straight from the database (not through querygate).
  std::vector<std::vector<std::string>> table_rows() {
    std::vector<std::vector<std::string>> out;
    const std::string cols = "id, span_id, annotator_kind, label, score, explanation";
    if (postgres()) {
      pqxx::connection conn(pg_dsn(server_, "qg_owner", db_));
      pqxx::nontransaction tx(conn);
      for (const auto& row : tx.exec("SELECT " + cols + " FROM span_annotations ORDER BY id")) {
        std::vector<std::string> r;
        for (const auto& f : row) r.push_back(f.is_null() ? "<null>" : f.c_str());
        out.push_back(std::move(r));
      }
      return out;
    }
    sqlite3* lite = nullptr;
    EXPECT_EQ(sqlite3_open_v2((dir_ / "w.db").c_str(), &lite, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = "SELECT " + cols + " FROM span_annotations ORDER BY id";
    EXPECT_EQ(sqlite3_prepare_v2(lite, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::vector<std::string> r;
      for (int c = 0; c < 6; ++c) {
        const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
        r.push_back(t ? t : "<null>");
      }
      out.push_back(std::move(r));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(lite);
    return out;
  }

  Snapshot snapshot() {
    Snapshot s;
    std::string all;
    for (const auto& row : table_rows()) {
      ++s.rows;
      for (const auto& cell : row) all += cell + "\x1f";
      all += "\x1e";
    }
    s.checksum = auth::to_hex(auth::sha256(all));
    return s;
  }

  HttpResult write(const std::string& body, const char* token = kWriterToken,
                   const std::string& tool = "save_annotation") {
    return http(gateway_->port(), "POST", "/v1/write/" + tool, body, bearer(token));
  }

  static json::object parsed(const HttpResult& r) {
    const auto v = json::parse(r.body);
    return v.as_object();
  }

  static inline int counter_ = 0;
  PgTestServer server_;
  std::filesystem::path dir_;
  std::string db_;
  std::string env_;
  std::string config_;
  std::vector<std::string> dropped_;
  std::unique_ptr<GatewayProcess> gateway_;
};

TEST_P(WritesTest, WrittenThenAlreadyExistsWithTheRowReadBack) {
  auto r = write(R"({"span_id": 7, "label": "incorrect", "score": 0.25, "explanation": "the answer cites no source"})");
  ASSERT_EQ(r.status, 201) << r.body;
  auto o = parsed(r);
  EXPECT_EQ(o.at("status").as_string(), "written");
  const auto id = o.at("id");
  const auto& row = o.at("row").as_object();
  EXPECT_EQ(row.at("span_id").to_number<std::int64_t>(), 7);
  EXPECT_EQ(row.at("annotator_kind").as_string(), "LLM");  // derived, not sent
  EXPECT_EQ(row.at("label").as_string(), "incorrect");
  EXPECT_DOUBLE_EQ(row.at("score").to_number<double>(), 0.25);
  EXPECT_EQ(row.at("id"), id);
  // The read path's answer format on both backends: an ISO-8601 instant in UTC
  // with 'T' and 'Z', a JSON boolean, exact numbers.
  const std::string created(row.at("created_at").as_string());
  EXPECT_EQ(created.size() >= 20 ? created[10] : ' ', 'T') << created;
  EXPECT_TRUE(created.ends_with("Z")) << created;
  EXPECT_TRUE(row.at("flagged").is_bool()) << r.body;
  EXPECT_TRUE(row.at("flagged").as_bool());
  EXPECT_TRUE(row.at("span_id").is_int64()) << r.body;
  EXPECT_NE(r.body.find("\"score\":0.25"), std::string::npos) << r.body;
  // A set expression may read the referenced row.
  EXPECT_EQ(row.at("span_kind").as_string(), "LLM");
  // Text from an untrusted parameter is flagged when read back.
  ASSERT_TRUE(o.contains("untrusted")) << r.body;
  EXPECT_NE(json::serialize(o.at("untrusted")).find("explanation"), std::string::npos);

  // The database holds exactly that row.
  const auto rows = table_rows();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][1], "7");
  EXPECT_EQ(rows[0][3], "incorrect");
  EXPECT_EQ(rows[0][5], "the answer cites no source");

  // The same natural key again (other label, other score): 200 already_exists, nothing written.
  const Snapshot before = snapshot();
  auto again = write(R"({"span_id": 7, "label": "hallucination", "score": 0.1})");
  ASSERT_EQ(again.status, 200) << again.body;
  auto a = parsed(again);
  EXPECT_EQ(a.at("status").as_string(), "already_exists");
  EXPECT_EQ(a.at("id"), id);
  EXPECT_EQ(a.at("affected").to_number<int>(), 0);
  EXPECT_NE(json::serialize(a.at("notes")).find("continue with the next item"), std::string::npos);
  EXPECT_EQ(snapshot(), before);
}

// A key's own hidden columns stay hidden in the row it wrote: the read path would refuse them to this key.
TEST_P(WritesTest, TheRowReadBackLeavesOutTheKeysHiddenColumns) {
  auto r = write(R"({"span_id": 9, "label": "incorrect", "score": 0.3, "explanation": "secret text"})", kHiddenJudge);
  ASSERT_EQ(r.status, 201) << r.body;
  const auto row = parsed(r).at("row").as_object();
  EXPECT_FALSE(row.contains("explanation")) << r.body;
  EXPECT_FALSE(row.contains("created_at")) << r.body;
  EXPECT_TRUE(row.contains("label")) << r.body;
  EXPECT_EQ(r.body.find("secret text"), std::string::npos) << r.body;
  EXPECT_FALSE(parsed(r).contains("untrusted")) << r.body;  // its only untrusted column is hidden
  // The same key's SQL cannot read the column either; another key sees the whole row.
  const auto q = http(gateway_->port(), "POST", "/v1/query",
                      R"({"database": "w", "sql": "SELECT explanation FROM span_annotations"})", bearer(kHiddenJudge));
  EXPECT_EQ(q.status, 422) << q.body;
  auto full = write(R"({"span_id": 10, "label": "incorrect", "score": 0.3, "explanation": "seen"})");
  ASSERT_EQ(full.status, 201) << full.body;
  EXPECT_TRUE(parsed(full).at("row").as_object().contains("explanation")) << full.body;
}

TEST_P(WritesTest, DerivedFieldFromTheModelIsIgnoredAndSaid) {
  auto r = write(R"({"span_id": 3, "label": "correct", "score": 0.9, "annotator_kind": "HUMAN"})");
  ASSERT_EQ(r.status, 201) << r.body;
  auto o = parsed(r);
  EXPECT_EQ(o.at("row").as_object().at("annotator_kind").as_string(), "LLM");
  EXPECT_NE(json::serialize(o.at("notes")).find("annotator_kind"), std::string::npos) << r.body;
  EXPECT_EQ(table_rows().at(0).at(2), "LLM");
}

TEST_P(WritesTest, EveryBadInputOfTheCorpusIsRefusedWithItsCodeAndAFixAndTheTableIsUnchanged) {
  // One row in the table first, so "unchanged" means more than "still empty".
  ASSERT_EQ(write(R"({"span_id": 30, "label": "incorrect", "score": 0.2})").status, 201);
  const Snapshot before = snapshot();
  std::ifstream in(std::string(QG_TEST_CORPUS_DIR) + "/writes_bad_inputs.tsv");
  ASSERT_TRUE(in) << "tests/corpus/writes_bad_inputs.tsv";
  std::string line;
  int cases = 0;
  std::vector<std::pair<std::string, std::string>> extra;
  // Huge strings beyond the corpus' line lengths (still under the body limit).
  extra.emplace_back(
      "write:invalid-argument",
      R"({"span_id": 1, "label": "incorrect", "score": 0.3, "explanation": ")" + std::string(60000, 'a') + "\"}");
  extra.emplace_back("write:invalid-argument",
                     R"({"span_id": 1, "label": ")" + std::string(50000, 'c') + R"(", "score": 0.3})");
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto t1 = line.find('\t');
    const auto t2 = line.find('\t', t1 + 1);
    ASSERT_NE(t2, std::string::npos) << line;
    extra.emplace_back(line.substr(0, t1) + "\t" + line.substr(t1 + 1, t2 - t1 - 1), line.substr(t2 + 1));
  }
  for (const auto& [expected, body] : extra) {
    const std::string code = expected.substr(0, expected.find('\t'));
    // "as tenant_a: ..." lines call save_scoped with that tenant's key (references out of its scope).
    const std::string what = expected.substr(expected.find('\t') + 1);
    const bool a = what.starts_with("as tenant_a:"), b = what.starts_with("as tenant_b:");
    auto r = a || b ? write(body, a ? kTenantA : kTenantB, "save_scoped") : write(body);
    ++cases;
    EXPECT_TRUE(r.status == 422 || r.status == 400) << expected << ": " << r.status << " " << r.body;
    json::error_code ec;
    const auto v = json::parse(r.body, ec);
    ASSERT_FALSE(ec) << expected << ": " << r.body;
    const auto& e = v.at("error").as_object();
    EXPECT_EQ(e.at("code").as_string(), code) << expected << ": " << r.body;
    ASSERT_TRUE(e.contains("fix")) << expected << ": " << r.body;
    EXPECT_TRUE(e.at("fix").as_string().starts_with("FIX: ")) << expected << ": " << r.body;
  }
  EXPECT_GE(cases, 120);
  EXPECT_EQ(snapshot(), before) << "a refused call changed the table";
}

// references may read the calling key's bindings: each tenant points only at
// its own project's spans, whatever id it sends; a key without the binding is
// refused before anything runs.
TEST_P(WritesTest, ReferencesAreScopedByTheKeysBinding) {
  ASSERT_EQ(write(R"({"span_id": 3, "label": "incorrect", "score": 0.3})", kTenantA, "save_scoped").status, 201);
  ASSERT_EQ(write(R"({"span_id": 4, "label": "incorrect", "score": 0.3})", kTenantB, "save_scoped").status, 201);
  const Snapshot before = snapshot();
  for (const auto& [token, span] : std::vector<std::pair<const char*, int>>{{kTenantA, 4}, {kTenantB, 3}}) {
    auto r = write(R"({"span_id": )" + std::to_string(span) + R"(, "label": "incorrect", "score": 0.3})", token,
                   "save_scoped");
    ASSERT_EQ(r.status, 422) << r.body;
    const auto e = parsed(r).at("error").as_object();
    EXPECT_EQ(e.at("code").as_string(), "write:unknown-reference");
    // The candidates are the tenant's own spans only.
    const std::string fix(e.at("fix").as_string());
    EXPECT_NE(fix.find(token == kTenantA ? "pick one of 1, 3, 5" : "pick one of 2, 4, 6"), std::string::npos) << fix;
  }
  auto unbound = write(R"({"span_id": 5, "label": "incorrect", "score": 0.3})", kWriterToken, "save_scoped");
  EXPECT_EQ(unbound.status, 403) << unbound.body;
  EXPECT_EQ(parsed(unbound).at("error").at("code").as_string(), "auth:missing-binding");
  EXPECT_EQ(snapshot(), before) << "a refused call changed the table";
  // The checks run with the key's bindings too (none here); the after-checks of save_scoped need the binding.
  EXPECT_EQ(http(gateway_->port(), "POST", "/v1/checks/save_scoped", "", bearer(kWriterToken)).status, 403);
  EXPECT_EQ(http(gateway_->port(), "POST", "/v1/checks/save_scoped", "", bearer(kTenantA)).status, 200);
}

// Write tools are listed with the tools (GET /v1/tools, for the keys that may
// call them) and by GET /v1/writes with the same entry.
TEST_P(WritesTest, WriteToolsAreListedWithTheTools) {
  const auto listed = [&](const char* token, const std::string& path, const std::string& field) {
    auto r = http(gateway_->port(), "GET", path, "", bearer(token));
    EXPECT_EQ(r.status, 200) << r.body;
    std::map<std::string, json::object> out;
    const json::value doc = parsed(r);  // the range below must not outlive the parsed document
    for (const auto& t : doc.at(field).as_array()) out.emplace(std::string(t.at("name").as_string()), t.as_object());
    return out;
  };
  auto tools = listed(kTenantA, "/v1/tools", "tools");
  ASSERT_TRUE(tools.contains("save_scoped"));
  EXPECT_FALSE(tools.contains("save_annotation"));  // not in this key's writes
  EXPECT_EQ(tools["save_scoped"].at("kind").as_string(), "write");
  EXPECT_EQ(tools["save_scoped"].at("path").as_string(), "/v1/write/save_scoped");
  auto writes = listed(kTenantA, "/v1/writes", "writes");
  ASSERT_TRUE(writes.contains("save_annotation") && writes.contains("save_scoped"));
  EXPECT_TRUE(writes["save_scoped"].at("callable").as_bool());
  EXPECT_FALSE(writes["save_annotation"].at("callable").as_bool());
  for (const char* field : {"kind", "description", "database", "method", "path", "input_schema"})
    EXPECT_EQ(writes["save_scoped"].at(field), tools["save_scoped"].at(field)) << field;
  EXPECT_EQ(json::serialize(writes["save_scoped"].at("bindings")), R"(["project_id"])");
  EXPECT_TRUE(listed(kReaderToken, "/v1/tools", "tools").empty() ||
              !listed(kReaderToken, "/v1/tools", "tools").contains("save_annotation"));
}

TEST_P(WritesTest, UnknownReferenceNamesTheCandidates) {
  auto r = write(R"({"span_id": 35, "label": "incorrect", "score": 0.3})");
  ASSERT_EQ(r.status, 422) << r.body;
  const auto e = parsed(r).at("error").as_object();
  EXPECT_EQ(e.at("code").as_string(), "write:unknown-reference");
  const std::string fix(e.at("fix").as_string());
  // The first 20 allowed ids (LLM spans 1..20), never a CHAIN span.
  EXPECT_NE(fix.find("pick one of 1, 2, 3"), std::string::npos) << fix;
  EXPECT_NE(fix.find(", 20 (the first 20"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("31"), std::string::npos) << fix;
  // The dropped attempt is a log line with its reason.
  gateway_->stop();
  const std::string log = gateway_->log();
  EXPECT_NE(log.find("\"write_tool\":\"save_annotation\",\"write_outcome\":\"write:unknown-reference\""),
            std::string::npos)
      << log;
}

TEST_P(WritesTest, LocalCheckRefusesWithTheConfiguredFix) {
  auto r = write(R"({"span_id": 4, "label": "correct", "score": 0.2})");
  ASSERT_EQ(r.status, 422) << r.body;
  const auto e = parsed(r).at("error").as_object();
  EXPECT_EQ(e.at("code").as_string(), "write:check-failed");
  EXPECT_EQ(e.at("fix").as_string(),
            "FIX: a 'correct' verdict needs score >= 0.5; send a score of at least 0.5 or another label");
  EXPECT_EQ(snapshot().rows, 0);
  EXPECT_EQ(write(R"({"span_id": 4, "label": "correct", "score": 0.5})").status, 201);
}

TEST_P(WritesTest, KeysNeedWritesScope) {
  auto r = write(R"({"span_id": 5, "label": "incorrect", "score": 0.3})", kReaderToken);
  EXPECT_EQ(r.status, 403) << r.body;
  EXPECT_NE(r.body.find("writes: [save_annotation]"), std::string::npos) << r.body;
  auto none = http(gateway_->port(), "POST", "/v1/write/save_annotation", "{}");
  EXPECT_EQ(none.status, 401) << none.body;
  EXPECT_EQ(http(gateway_->port(), "POST", "/v1/write/save_annotations", "{}", bearer(kWriterToken)).status, 404);
  EXPECT_EQ(snapshot().rows, 0);
  // The SQL path stays read-only whatever the key.
  auto sql = http(gateway_->port(), "POST", "/v1/query",
                  R"x({"sql": "INSERT INTO span_annotations (span_id) VALUES (1)"})x", bearer(kWriterToken));
  EXPECT_EQ(sql.status, 422) << sql.body;
  // The listing names the tool and its parameters.
  auto list = http(gateway_->port(), "GET", "/v1/writes", "", bearer(kReaderToken));
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_NE(list.body.find("\"save_annotation\""), std::string::npos);
  EXPECT_NE(list.body.find(R"(one of \"correct\", \"incorrect\", \"hallucination\")"), std::string::npos) << list.body;
}

TEST_P(WritesTest, AfterChecksJudgeTheDatabase) {
  auto r = http(gateway_->port(), "POST", "/v1/checks/save_annotation", "", bearer(kWriterToken));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(parsed(r).at("passed").as_bool());
  ASSERT_EQ(write(R"({"span_id": 9, "label": "hallucination", "score": 0.9})").status, 201);
  ASSERT_EQ(write(R"({"span_id": 10, "label": "hallucination", "score": 0.1})").status, 201);
  r = http(gateway_->port(), "POST", "/v1/checks/save_annotation", "", bearer(kWriterToken));
  ASSERT_EQ(r.status, 200) << r.body;
  auto o = parsed(r);
  EXPECT_FALSE(o.at("passed").as_bool());
  const auto& check = o.at("checks").as_array().at(0).as_object();
  EXPECT_EQ(check.at("name").as_string(), "no_hallucination_with_high_score");
  ASSERT_EQ(check.at("rows").as_array().size(), 1u) << r.body;
  EXPECT_EQ(check.at("rows").as_array()[0].as_array()[1].to_number<std::int64_t>(), 9);
  EXPECT_TRUE(check.at("fix").as_string().starts_with("FIX: "));
}

TEST_P(WritesTest, RaceOf64CallsOver16KeysWritesEachKeyOnce) {
  std::mutex mu;
  std::map<int, int> statuses;
  std::map<int, std::set<std::string>> ids_per_span;
  std::vector<std::thread> threads;
  std::atomic<int> ready{0};
  for (int i = 0; i < 64; ++i)
    threads.emplace_back([&, i] {
      const int span = 11 + i % 16;  // 16 distinct LLM spans, each 4 times
      ++ready;
      while (ready.load() < 64) std::this_thread::yield();
      auto r = write("{\"span_id\": " + std::to_string(span) + ", \"label\": \"incorrect\", \"score\": 0.4}");
      std::lock_guard lock(mu);
      ++statuses[r.status];
      if (r.status == 200 || r.status == 201) ids_per_span[span].insert(json::serialize(parsed(r).at("id")));
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(statuses[201], 16);
  EXPECT_EQ(statuses[200], 48);
  EXPECT_EQ(statuses.size(), 2u) << "other statuses: queue full or errors";
  EXPECT_EQ(table_rows().size(), 16u);
  for (const auto& [span, ids] : ids_per_span) EXPECT_EQ(ids.size(), 1u) << "span " << span << " got several ids";
}

TEST_P(WritesTest, KillDuringAWriteLoadLosesNoAnsweredWrite) {
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::set<std::string> answered;  // span ids with a 201
  std::set<std::string> in_flight_at_kill;
  std::atomic<int> next{101};
  const int port = gateway_->port();
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c)
    clients.emplace_back([&] {
      while (!stop.load()) {
        const int span = next.fetch_add(1);
        if (span > 2100) return;
        {
          std::lock_guard lock(mu);
          in_flight_at_kill.insert(std::to_string(span));
        }
        auto r = http(port, "POST", "/v1/write/save_annotation",
                      "{\"span_id\": " + std::to_string(span) + ", \"label\": \"incorrect\", \"score\": 0.3}",
                      bearer(kWriterToken));
        std::lock_guard lock(mu);
        if (r.status == 201) {
          answered.insert(std::to_string(span));
          in_flight_at_kill.erase(std::to_string(span));
        } else if (r.status != 0) {
          in_flight_at_kill.erase(std::to_string(span));
        }
      }
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  kill(gateway_->pid(), SIGKILL);
  stop = true;
  for (auto& t : clients) t.join();
  gateway_.reset();  // reaps the killed process
  ASSERT_FALSE(answered.empty()) << "no write finished before the kill; the test proves nothing";
  // After a restart, every answered write is there; anything else is a call that was in flight at the kill.
  start();
  std::set<std::string> in_table;
  for (const auto& row : table_rows()) in_table.insert(row[1]);
  for (const auto& span : answered)
    EXPECT_TRUE(in_table.contains(span)) << "answered 201 for span " << span << " but lost";
  for (const auto& span : in_table)
    EXPECT_TRUE(answered.contains(span) || in_flight_at_kill.contains(span)) << "span " << span << " was never sent";
  // And the restarted gateway answers from what is there.
  auto r = write("{\"span_id\": " + *answered.begin() + ", \"label\": \"incorrect\", \"score\": 0.3}");
  EXPECT_EQ(r.status, 200) << r.body;
}

TEST_P(WritesTest, MetricsCountWritesByToolAndOutcome) {
  ASSERT_EQ(write(R"({"span_id": 12, "label": "incorrect", "score": 0.3})").status, 201);
  ASSERT_EQ(write(R"({"span_id": 12, "label": "incorrect", "score": 0.3})").status, 200);
  ASSERT_EQ(write(R"({"span_id": 12, "label": "nope", "score": 0.3})").status, 422);
  auto m = http(gateway_->port(), "GET", "/metrics");
  ASSERT_EQ(m.status, 200);
  EXPECT_NE(m.body.find(R"(querygate_writes_total{outcome="written",tool="save_annotation"} 1)"), std::string::npos)
      << m.body;
  EXPECT_NE(m.body.find(R"(querygate_writes_total{outcome="already_exists",tool="save_annotation"} 1)"),
            std::string::npos);
  EXPECT_NE(m.body.find(R"(querygate_writes_total{outcome="write:invalid-argument",tool="save_annotation"} 1)"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Backends, WritesTest, ::testing::Values("sqlite", "postgres"),
                         [](const auto& info) { return info.param; });

// The PostgreSQL write role may INSERT into the write tables and SELECT what
// their SQL reads; anything more refuses the start.
class WritePostureTest : public ::testing::Test {};

TEST_F(WritePostureTest, AWriteRoleThatMayUpdateOrDeleteRefusesTheStart) {
  QG_PG_TEST_SERVER(server);
  const auto dir = make_temp_dir("qg-writes-posture");
  struct Case {
    std::string grants;
    std::string expected;        // in the refusal
    std::string as_superuser{};  // run after the grants (qg_owner may not give a table away)
  };
  const std::vector<Case> cases = {
      {"GRANT INSERT, UPDATE ON span_annotations TO qg_writer;", "may UPDATE on public.span_annotations"},
      {"GRANT INSERT, DELETE ON span_annotations TO qg_writer;", "may DELETE on public.span_annotations"},
      {"GRANT INSERT ON span_annotations TO qg_writer; GRANT UPDATE (label) ON span_annotations TO qg_writer;",
       "may UPDATE on public.span_annotations"},
      {"GRANT INSERT, TRUNCATE ON span_annotations TO qg_writer;", "may TRUNCATE"},
      {"GRANT INSERT ON span_annotations, spans TO qg_writer;", "may INSERT into public.spans, which no write tool"},
      {"GRANT INSERT ON span_annotations TO qg_writer; GRANT CREATE ON SCHEMA public TO qg_writer;",
       "may CREATE in schema public"},
      {"GRANT INSERT ON span_annotations TO qg_writer;", "owns public.secrets",
       "ALTER TABLE secrets OWNER TO qg_writer"},
      {"", "may not INSERT into public.span_annotations"},
      {"GRANT INSERT ON span_annotations TO qg_writer;", ""},  // the right grants: it starts
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::string db = "writes_posture_" + std::to_string(getpid()) + "_" + std::to_string(n++);
    {
      pqxx::connection admin(pg_dsn(server, "postgres", "postgres"));
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
      tx.exec("CREATE DATABASE " + db + " OWNER qg_owner");
    }
    {
      pqxx::connection owner(pg_dsn(server, "qg_owner", db));
      pqxx::work tx(owner);
      tx.exec(
          "CREATE TABLE spans (id bigint PRIMARY KEY, kind text NOT NULL, project_id bigint NOT NULL);\n"
          "CREATE TABLE span_annotations (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
          "span_id bigint NOT NULL REFERENCES spans(id), annotator_kind text NOT NULL, label text, "
          "score double precision, explanation text, created_at timestamptz NOT NULL, span_kind text, "
          "flagged boolean);\n"
          "CREATE TABLE secrets (id bigint PRIMARY KEY, v text);\n"
          "REVOKE ALL ON DATABASE " +
          db +
          " FROM PUBLIC;\n"
          "GRANT CONNECT ON DATABASE " +
          db +
          " TO qg_reader, qg_writer;\n"
          "GRANT USAGE ON SCHEMA public TO qg_reader, qg_writer;\n"
          "GRANT SELECT ON spans, span_annotations TO qg_reader, qg_writer;\n" +
          c.grants);
      tx.commit();
    }
    if (!c.as_superuser.empty()) {
      pqxx::connection admin(pg_dsn(server, "postgres", db));
      pqxx::nontransaction tx(admin);
      tx.exec(c.as_superuser);
    }
    const std::string env = "QG_WRITES_POSTURE_DSN_" + std::to_string(getpid());
    setenv(env.c_str(), pg_dsn(server, "qg_writer", db).c_str(), 1);
    write_file(dir / "querygate.yaml",
               "databases:\n  w:\n    backend: postgres\n    dsn: " + pg_dsn(server, "qg_reader", db) +
                   "\n    write_dsn_env: " + env + "\n    tables:\n      spans: {}\n      span_annotations: {}\n" +
                   tool_yaml(true) + keys_yaml());  // the keys bind save_scoped's :project_id
    const auto r = run_command({QG_BINARY, "--check-config", (dir / "querygate.yaml").string()});
    if (c.expected.empty()) {
      EXPECT_EQ(r.exit_code, 0) << r.output;
    } else {
      EXPECT_NE(r.exit_code, 0) << c.grants << ": " << r.output;
      EXPECT_NE(r.output.find(c.expected), std::string::npos) << c.grants << ": " << r.output;
    }
    unsetenv(env.c_str());
    pqxx::connection admin(pg_dsn(server, "postgres", "postgres"));
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
