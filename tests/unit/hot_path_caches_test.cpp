// The bounded caches of the hot path, on their own: the admission cache
// (admission/cache), a PostgreSQL connection's prepared statements
// (pg_pool.hpp) and a SQLite connection's (sqlite_statements.hpp).
// That a hit answers what a miss answers is proven over HTTP
// (tests/integration/admission_cache_test.cpp).
#include <gtest/gtest.h>

#include <set>

#include "admission/cache/admission_cache.hpp"
#include "executors/postgres/pg_pool.hpp"
#include "executors/sqlite/sqlite_statements.hpp"
#include "gateway/api/cached_admission.hpp"

namespace qg {
namespace {

std::shared_ptr<const CachedAdmission> entry(const std::string& sql) {
  auto e = std::make_shared<CachedAdmission>();
  e->statement.sql = sql;
  e->fingerprint = "fp-" + sql;
  return e;
}

TEST(AdmissionCacheTest, KeepsTheMostRecentlyUsedWithinItsCapacity) {
  AdmissionCache cache(2);
  cache.insert("a", entry("A"));
  cache.insert("b", entry("B"));
  ASSERT_TRUE(cache.find("a"));   // a is now the most recently used
  cache.insert("c", entry("C"));  // b goes
  EXPECT_FALSE(cache.find("b"));
  ASSERT_TRUE(cache.find("a"));
  EXPECT_EQ(cache.find("a")->statement.sql, "A");
  EXPECT_EQ(cache.find("c")->fingerprint, "fp-C");
  EXPECT_EQ(cache.size(), 2u);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_FALSE(cache.find("a"));
}

TEST(AdmissionCacheTest, CapacityZeroKeepsNothing) {
  AdmissionCache cache(0);
  cache.insert("a", entry("A"));
  EXPECT_FALSE(cache.find("a"));
  EXPECT_EQ(cache.size(), 0u);
}

TEST(AdmissionCacheTest, KeysSeparateEveryPartOfTheRequest) {
  const AdmissionKey base{.database = "demo", .policy = "-", .sql = "SELECT 1", .limit = 5, .validate_only = false};
  std::set<std::string> keys{base.encode()};
  auto other = base;
  other.database = "demo2";
  EXPECT_TRUE(keys.insert(other.encode()).second);
  other = base;
  other.policy = "6:agent";
  EXPECT_TRUE(keys.insert(other.encode()).second);
  other = base;
  other.limit = std::nullopt;
  EXPECT_TRUE(keys.insert(other.encode()).second);
  other = base;
  other.limit = 6;
  EXPECT_TRUE(keys.insert(other.encode()).second);
  other = base;
  other.validate_only = true;
  EXPECT_TRUE(keys.insert(other.encode()).second);
  other = base;
  other.sql = "SELECT 1 ";  // exact text: a space is another statement text
  EXPECT_TRUE(keys.insert(other.encode()).second);
  // Length prefixes: moving a character from one part to the next is another key.
  const AdmissionKey left{.database = "ab", .policy = "c", .sql = "x"};
  const AdmissionKey right{.database = "a", .policy = "bc", .sql = "x"};
  EXPECT_NE(left.encode(), right.encode());
}

TEST(AdmissionCacheTest, PolicyIdentityNamesEverythingAboutTheKey) {
  EXPECT_EQ(gateway::policy_identity(nullptr), "-");
  auth::Key key;
  key.name = "agent";
  const std::string plain = gateway::policy_identity(&key);
  auth::Key hidden = key;
  hidden.hidden_columns.tables.push_back({"spans", {"attributes"}});
  auth::Key bound = key;
  bound.bind.emplace_back("project", config::BindValue{std::int64_t{3}});
  auth::Key tools_only = key;
  tools_only.sql = false;
  const std::set<std::string> ids{plain, gateway::policy_identity(&hidden), gateway::policy_identity(&bound),
                                  gateway::policy_identity(&tools_only)};
  EXPECT_EQ(ids.size(), 4u);
}

TEST(PreparedStatementsTest, BoundedPerConnectionAndDeallocatedWhenEvicted) {
  exec::pg::PreparedStatements prepared;
  std::set<std::string> names;
  for (std::size_t i = 0; i < exec::pg::PreparedStatements::kCapacity; ++i) {
    const std::string sql = "SELECT " + std::to_string(i);
    EXPECT_EQ(prepared.find(sql), nullptr);
    const std::string expected = prepared.next_name();
    EXPECT_EQ(prepared.add(sql), expected);
    names.insert(expected);
  }
  EXPECT_EQ(names.size(), exec::pg::PreparedStatements::kCapacity) << "every statement has its own name";
  EXPECT_TRUE(prepared.take_deallocations().empty());
  ASSERT_NE(prepared.find("SELECT 0"), nullptr);  // now the most recently used: SELECT 1 is the oldest
  prepared.add("SELECT new");
  EXPECT_EQ(prepared.size(), exec::pg::PreparedStatements::kCapacity);
  EXPECT_EQ(prepared.find("SELECT 1"), nullptr);
  ASSERT_NE(prepared.find("SELECT 0"), nullptr);
  const auto dropped = prepared.take_deallocations();
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0], "qg_2") << "SELECT 1 was prepared second";
  EXPECT_TRUE(prepared.take_deallocations().empty()) << "taken once";

  prepared.evict("SELECT 0", true);  // the schema moved under it
  EXPECT_EQ(prepared.find("SELECT 0"), nullptr);
  EXPECT_EQ(prepared.take_deallocations(), std::vector<std::string>{"qg_1"});
  prepared.evict("SELECT 2", false);  // gone from the server already
  EXPECT_TRUE(prepared.take_deallocations().empty());
  prepared.clear();
  EXPECT_EQ(prepared.size(), 0u);
}

// A real in-memory SQLite connection: kept statements are reset (no read left
// open, bindings cleared), bounded, and given to one run at a time.
TEST(SqliteStatementCacheTest, KeepsResetStatementsWithinItsBound) {
  sqlite3* raw_db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &raw_db), SQLITE_OK);
  exec::sqlite::DbHandle db(raw_db);
  ASSERT_EQ(sqlite3_exec(db.get(), "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  const auto compile = [&](const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    EXPECT_EQ(sqlite3_prepare_v3(db.get(), sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr), SQLITE_OK);
    return exec::sqlite::StmtHandle(s);
  };
  exec::sqlite::StatementCache cache;
  const std::string sql = "SELECT x FROM t WHERE x >= ?1 ORDER BY x";
  EXPECT_EQ(cache.take(sql), nullptr);
  auto stmt = compile(sql);
  sqlite3_stmt* const address = stmt.get();
  ASSERT_EQ(sqlite3_bind_int64(stmt.get(), 1, 2), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt.get()), SQLITE_ROW);  // stopped early: the read is still open
  EXPECT_EQ(sqlite3_stmt_busy(stmt.get()), 1);
  EXPECT_EQ(cache.give_back(sql, std::move(stmt)), 0u);
  auto again = cache.take(sql);
  ASSERT_EQ(again.get(), address) << "the same compiled statement comes back";
  EXPECT_EQ(cache.take(sql), nullptr) << "taken out while it runs";
  EXPECT_EQ(sqlite3_stmt_busy(again.get()), 0) << "reset when given back";
  ASSERT_EQ(sqlite3_step(again.get()), SQLITE_DONE) << "bindings cleared: x >= NULL matches nothing";
  cache.give_back(sql, std::move(again));

  std::size_t evicted = 0;
  for (std::size_t i = 0; i < exec::sqlite::StatementCache::kCapacity; ++i) {
    const std::string other = "SELECT x + " + std::to_string(i) + " FROM t";
    evicted += cache.give_back(other, compile(other));
  }
  EXPECT_EQ(evicted, 1u);
  EXPECT_EQ(cache.size(), exec::sqlite::StatementCache::kCapacity);
  EXPECT_EQ(cache.take(sql), nullptr) << "the least recently used went first";
  EXPECT_EQ(cache.clear(), exec::sqlite::StatementCache::kCapacity);
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace qg
