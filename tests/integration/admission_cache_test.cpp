// The admission cache never changes an answer: every case of the admission
// corpus (tests/corpus/admission) is sent to a gateway with the cache on, twice
// (a miss, then a hit), and once to a gateway with it off
// (limits.admission_cache_entries: 0); the three answers must be
// byte-identical, refusals included. Two keys with different hidden columns
// send the same text and must each get their own answer. /metrics must show
// exactly one hit per admitted repeat (an engine error after admission too). A statement reading the clock answers
// the clock's time on a hit too (the rendering is cached, not the answer).
// SQLite demo always; the PostgreSQL demo when the test cluster is there.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "gateway/auth/sha256.hpp"
#include "tests/integration/test_support.hpp"
#include "tests/unit/corpus_file.hpp"

namespace qg::testing {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

constexpr const char* kFullToken = "cache-full-token-0123456789abcdef0123456789";
constexpr const char* kRestrictedToken = "cache-restricted-token-0123456789abcdef0123";
const std::string kFull = std::string("Authorization: Bearer ") + kFullToken + "\r\n";
const std::string kRestricted = std::string("Authorization: Bearer ") + kRestrictedToken + "\r\n";

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string keys_yaml() {
  return "keys:\n  - name: full\n    sha256: " + auth::to_hex(auth::sha256(kFullToken)) +
         "\n    databases: [demo]\n  - name: restricted\n    sha256: " + auth::to_hex(auth::sha256(kRestrictedToken)) +
         "\n    databases: [demo]\n    hidden_columns: { spans: [attributes, status] }\n";
}

// The demo config with the cache sized `entries`, and the two keys in place of
// the demo's own keys block (a config has one `keys:`). Throws when the config
// has no one-line `limits: { ... }` to size the cache in (the test would
// otherwise compare two gateways that both cache).
std::string config_with_cache(std::string config, int entries) {
  const std::string limits = "\nlimits: { ";
  const auto at = config.find(limits);
  if (at == std::string::npos || config.find(limits, at + 1) != std::string::npos)
    throw std::runtime_error("the demo config has no single one-line limits: { ... }");
  config.insert(at + limits.size(), "admission_cache_entries: " + std::to_string(entries) + ", ");
  if (const auto keys = config.find("\nkeys:\n"); keys != std::string::npos)
    config.erase(keys + 1, config.find("\n\n", keys) - keys);
  return config + keys_yaml();
}

std::string body(const std::string& sql, std::optional<int> limit = std::nullopt) {
  json::object o{{"sql", sql}, {"database", "demo"}};
  if (limit) o["limit"] = *limit;
  return json::serialize(o);
}

double sample(const std::string& metrics, const std::string& series) {
  const auto at = metrics.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(metrics.substr(at + series.size() + 2));
}

// Statements whose answer moves with the clock between two runs, cache or not:
// their rows are left out of the comparison (everything else must agree).
bool reads_clock(std::string sql) {
  std::transform(sql.begin(), sql.end(), sql.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* f : {"now()", "current_timestamp", "current_time ", "current_time,", "localtime"})
    if (sql.find(f) != std::string::npos) return true;
  return sql.ends_with("current_time");
}

// The error envelope's code ("" for an answer with rows).
std::string error_code(const std::string& body) {
  const auto parsed = json::parse(body);
  if (!parsed.is_object()) return "";
  const auto* error = parsed.as_object().if_contains("error");
  if (error == nullptr || !error->is_object()) return "";
  const auto* code = error->as_object().if_contains("code");
  return code != nullptr && code->is_string() ? std::string(code->as_string()) : std::string();
}

std::string comparable(const std::string& body, bool clock) {
  if (!clock) return body;
  auto parsed = json::parse(body);
  if (parsed.is_object()) parsed.as_object().erase("rows");
  return json::serialize(parsed);
}

void check(const fs::path& cached_config, const fs::path& uncached_config, const std::string& backend) {
  GatewayProcess cached(cached_config);
  GatewayProcess uncached(uncached_config);
  // Two gateways, not one asked twice (they once shared a log and so a port).
  ASSERT_NE(cached.port(), uncached.port());
  ASSERT_NE(cached.pid(), uncached.pid());
  int admitted = 0;           // answered 200
  int cached_admissions = 0;  // passed admission (200, or the engine's backend:* error after it)
  int sent = 0;
  std::set<std::string> seen;  // a text met again would be a hit on its first send
  for (const auto& line : load_corpus_dir("admission")) {
    const std::string& where = line.fields[0];
    if (where != "both" && where != backend) continue;
    const std::string& sql = line.fields[2];
    // The corpus files of statements that run quickly on the demo (bypass and
    // benign hold long-running analytics: their admission is covered by the
    // unit corpus test; here every request runs, three times).
    if (!line.where.starts_with("basics") && !line.where.starts_with("dialect") &&
        !line.where.starts_with("rewrites") && !line.where.starts_with("precedence") &&
        !line.where.starts_with("fixed_gaps"))
      continue;
    if (!seen.insert(sql).second) continue;
    for (const std::string& auth : {kFull, kRestricted}) {
      const auto miss = http(cached.port(), "POST", "/v1/query", body(sql), auth);
      const auto hit = http(cached.port(), "POST", "/v1/query", body(sql), auth);
      const auto none = http(uncached.port(), "POST", "/v1/query", body(sql), auth);
      sent += 2;
      ASSERT_NE(miss.status, 0) << line.where << ": " << sql;
      EXPECT_EQ(miss.status, none.status) << line.where << ": " << sql;
      // Rows that may differ run to run: a clock's, or the first rows of an unordered answer cut by LIMIT (which
      // rows PostgreSQL returns first depends on its parallel workers: basics.tsv's > ALL statement flaked).
      const bool truncated_unordered =
          sql.find("ORDER BY") == std::string::npos && none.body.find("\"truncated\":true") != std::string::npos;
      const bool clock = reads_clock(sql) || truncated_unordered;
      EXPECT_EQ(comparable(miss.body, clock), comparable(none.body, clock)) << line.where << ": " << sql;
      EXPECT_EQ(hit.status, none.status) << line.where << ": " << sql;
      EXPECT_EQ(comparable(hit.body, clock), comparable(none.body, clock)) << line.where << ": " << sql;
      if (miss.status == 200) ++admitted;
      // Admitted, then failed in the engine (PostgreSQL's error on the
      // demo's data): the admission was kept, so its repeat is a hit too.
      if (miss.status == 200 || error_code(miss.body).starts_with("backend:")) ++cached_admissions;
    }
  }
  EXPECT_GE(admitted, 60) << "the corpus admits fewer statements than expected";

  // The same text under another limit is another entry, with its own row cap.
  const auto five = http(cached.port(), "POST", "/v1/query", body("SELECT id FROM spans ORDER BY id", 5), kFull);
  const auto seven = http(cached.port(), "POST", "/v1/query", body("SELECT id FROM spans ORDER BY id", 7), kFull);
  ASSERT_EQ(five.status, 200) << five.body;
  ASSERT_EQ(seven.status, 200) << seven.body;
  EXPECT_EQ(json::parse(five.body).at("rows").as_array().size(), 5u);
  EXPECT_EQ(json::parse(seven.body).at("rows").as_array().size(), 7u);

  // Hidden columns are part of the key's policy: the restricted key's star never shows them.
  const auto full_star = http(cached.port(), "POST", "/v1/query", body("SELECT * FROM spans LIMIT 1"), kFull);
  const auto restricted_star =
      http(cached.port(), "POST", "/v1/query", body("SELECT * FROM spans LIMIT 1"), kRestricted);
  EXPECT_NE(full_star.body.find("\"attributes\""), std::string::npos) << full_star.body;
  EXPECT_EQ(restricted_star.body.find("\"attributes\""), std::string::npos) << restricted_star.body;

  // Hits and misses counted once per statement: the corpus repeats were hits, and so is this one.
  const auto before = http(cached.port(), "GET", "/metrics");
  const std::string hits = "querygate_admission_cache_hits_total{database=\"demo\"}";
  const std::string misses = "querygate_admission_cache_misses_total{database=\"demo\"}";
  EXPECT_EQ(sample(before.body, hits), cached_admissions) << before.body;
  EXPECT_EQ(sample(before.body, hits) + sample(before.body, misses), sent + 4) << before.body;
  const auto uncached_metrics = http(uncached.port(), "GET", "/metrics");
  EXPECT_EQ(sample(uncached_metrics.body, hits), 0) << "a cache of 0 entries is off";
  EXPECT_EQ(sample(uncached_metrics.body, misses), 0) << "a cache of 0 entries is not asked";

  // The clock is read by the engine on every run: a hit answers a later time.
  const std::string clock_sql = "SELECT CAST(now() AS text) AS t";
  const auto first = http(cached.port(), "POST", "/v1/query", body(clock_sql), kFull);
  ASSERT_EQ(first.status, 200) << first.body;
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const auto second = http(cached.port(), "POST", "/v1/query", body(clock_sql), kFull);
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_NE(first.body, second.body) << "a cached admission must not cache the clock";
  const auto after = http(cached.port(), "GET", "/metrics");
  EXPECT_EQ(sample(after.body, hits), sample(before.body, hits) + 1) << after.body;
}

TEST(AdmissionCacheHttp, SqliteAnswersAreTheSameHitOrMiss) {
  const fs::path dir = make_temp_dir("qg-admission-cache");
  ASSERT_EQ(run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()}).exit_code, 0);
  const std::string demo = read_text(fs::path(QG_SOURCE_DIR) / "config" / "demo.yaml");
  write_file(dir / "cached.yaml", config_with_cache(demo, 4096));
  write_file(dir / "uncached.yaml", config_with_cache(demo, 0));
  check(dir / "cached.yaml", dir / "uncached.yaml", "sqlite");
  fs::remove_all(dir);
}

TEST(AdmissionCacheHttp, PostgresAnswersAreTheSameHitOrMiss) {
  QG_PG_TEST_SERVER(server);
  const fs::path dir = make_temp_dir("qg-admission-cache-pg");
  std::string demo = read_text(fs::path(QG_SOURCE_DIR) / "config" / "demo-postgres.yaml");
  demo = std::regex_replace(demo, std::regex("dsn_env: QG_DEMO_PG_DSN[^\n]*"),
                            "dsn: \"" + pg_dsn(server, "qg_reader", "demo") + "\"");
  write_file(dir / "cached.yaml", config_with_cache(demo, 4096));
  write_file(dir / "uncached.yaml", config_with_cache(demo, 0));
  check(dir / "cached.yaml", dir / "uncached.yaml", "postgres");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
