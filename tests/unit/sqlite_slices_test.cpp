// The SQLite executor's first slices (RunOptions::slice_steps, issue 16) on a
// real file: a cheap statement answers within its slice exactly what a full
// run answers; a long one is interrupted after about its budget of steps,
// returns nothing, and the connection is clean for the next (full) run; a
// slice never waits on a writer's lock. Steps are counted per run.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "executors/sqlite/sqlite_backstop.hpp"
#include "executors/sqlite/sqlite_executor.hpp"

namespace qg::exec {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr std::int64_t kSlice = 20'000;

class SqliteSlicesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("qg_sqlite_slices_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir_);
    path_ = dir_ / "slices.db";
    exec_rw(
        "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL);"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
        "INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM n;");
    db_.name = "slices";
    db_.path = path_;
    config::TableCuration items;
    items.name = "items";
    db_.tables.push_back(items);
    options_.path = path_;
    options_.allowed_functions = {"count", "sum", "max"};
    options_.connections = 1;
    auto ex = open_sqlite(db_, options_);
    ASSERT_TRUE(ex.has_value()) << (ex ? "" : ex.error().message);
    ex_ = std::move(*ex);
  }
  void TearDown() override {
    ex_.reset();
    if (writer_ != nullptr) sqlite3_close(writer_);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // A read-write connection of the test's own (the executor never writes).
  void exec_rw(const std::string& sql) {
    if (writer_ == nullptr) {
      ASSERT_EQ(sqlite3_open(path_.c_str(), &writer_), SQLITE_OK);
    }
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(writer_, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
  }

  static RunOptions options(std::int64_t slice, RunStats* stats) {
    RunOptions o;
    o.deadline = Clock::now() + 10s;
    o.slice_steps = slice;
    o.stats = stats;
    return o;
  }

  fs::path dir_;
  fs::path path_;
  config::Database db_;
  SqliteOptions options_;
  std::unique_ptr<Executor> ex_;
  sqlite3* writer_ = nullptr;
};

TEST_F(SqliteSlicesTest, TheSqliteExecutorRunsInSlices) {
  EXPECT_TRUE(ex_->runs_in_slices());
}

TEST_F(SqliteSlicesTest, ACheapStatementAnswersInItsSliceWhatAFullRunAnswers) {
  for (const std::string sql : {"SELECT id, name, price FROM items WHERE id = 7",
                                "SELECT id, name FROM items ORDER BY id LIMIT 50", "SELECT count(*) FROM items"}) {
    RunStats full_stats;
    auto full = ex_->run(sql, options(0, &full_stats));
    ASSERT_TRUE(full.has_value()) << full.error().message;
    RunStats slice_stats;
    auto sliced = ex_->run(sql, options(kSlice, &slice_stats));
    ASSERT_TRUE(sliced.has_value()) << sliced.error().message;
    EXPECT_EQ(slice_stats.slice_end, RunStats::SliceEnd::None);
    EXPECT_EQ(sliced->rows, full->rows) << sql;
    ASSERT_EQ(sliced->columns.size(), full->columns.size());
    for (std::size_t i = 0; i < full->columns.size(); ++i) {
      EXPECT_EQ(sliced->columns[i].name, full->columns[i].name);
      EXPECT_EQ(sliced->columns[i].type, full->columns[i].type);
    }
    // Steps are counted per run (the kept statement's counter starts again at zero).
    EXPECT_GT(full_stats.vm_steps, 0) << sql;
    EXPECT_EQ(slice_stats.vm_steps, full_stats.vm_steps) << sql;
    EXPECT_LT(slice_stats.vm_steps, kSlice) << sql;
  }
}

TEST_F(SqliteSlicesTest, ALongStatementStopsAfterItsBudgetAndRunsInFullAfterwards) {
  const std::string sql = "SELECT count(*) FROM items a, items b";  // 90 000 rows: several steps each
  RunStats stats;
  auto sliced = ex_->run(sql, options(kSlice, &stats));
  ASSERT_FALSE(sliced.has_value());
  EXPECT_EQ(stats.slice_end, RunStats::SliceEnd::Exhausted);
  // Interrupted at the progress handler's call after the budget: not much later.
  EXPECT_GE(stats.vm_steps, kSlice);
  EXPECT_LE(stats.vm_steps, kSlice + 2 * sqlite::kProgressInterval);
  // The only connection is clean: the same statement runs to its end, and again in a slice it runs out again.
  RunStats full_stats;
  auto full = ex_->run(sql, options(0, &full_stats));
  ASSERT_TRUE(full.has_value()) << full.error().message;
  ASSERT_EQ(full->rows.size(), 1u);
  EXPECT_EQ(full->rows[0][0], Value(std::int64_t{90000}));
  EXPECT_EQ(full_stats.slice_end, RunStats::SliceEnd::None);
  EXPECT_GT(full_stats.vm_steps, 4 * kSlice);
  RunStats again;
  EXPECT_FALSE(ex_->run(sql, options(kSlice, &again)).has_value());
  EXPECT_EQ(again.slice_end, RunStats::SliceEnd::Exhausted);
}

TEST_F(SqliteSlicesTest, ADeadlineInASliceIsTheDeadline) {
  RunStats stats;
  RunOptions o = options(kSlice, &stats);
  o.deadline = Clock::now() - 1ms;
  auto r = ex_->run("SELECT count(*) FROM items", o);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::LimitDeadline);
  EXPECT_EQ(stats.slice_end, RunStats::SliceEnd::None);
}

TEST_F(SqliteSlicesTest, ASliceNeverWaitsOnAWritersLock) {
  ASSERT_TRUE(ex_->run("SELECT count(*) FROM items", options(0, nullptr)).has_value());
  exec_rw("BEGIN EXCLUSIVE");  // the rollback journal: readers are locked out until COMMIT
  RunStats stats;
  auto sliced = ex_->run("SELECT count(*) FROM items", options(kSlice, &stats));
  ASSERT_FALSE(sliced.has_value());
  EXPECT_EQ(stats.slice_end, RunStats::SliceEnd::Busy);
  // A full run waits its busy timeout, then says the database is busy: unchanged.
  RunStats full_stats;
  auto full = ex_->run("SELECT count(*) FROM items", options(0, &full_stats));
  ASSERT_FALSE(full.has_value());
  EXPECT_EQ(full.error().code, ErrorCode::BackendUnavailable);
  EXPECT_EQ(full_stats.slice_end, RunStats::SliceEnd::None);
  exec_rw("COMMIT");
  RunStats after;
  auto r = ex_->run("SELECT count(*) FROM items", options(kSlice, &after));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows[0][0], Value(std::int64_t{300}));
}

}  // namespace
}  // namespace qg::exec
