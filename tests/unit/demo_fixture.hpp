#pragma once
// The demo as the tests' catalog: generated once per test binary and opened
// exactly as start-up opens it (allowlist, curation, virtual columns).
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "admission/rewrite/virtual_columns.hpp"
#include "gateway/startup.hpp"

namespace qg::testing {

// The demo as `querygate` serves it: the database generated once, opened with
// the embedded demo config (allowlist, curation, virtual columns) exactly as
// start-up does; its catalog is the corpus's catalog.
class Demo {
 public:
  static Demo& get() {
    static Demo demo(true);
    return demo;
  }
  // The demo without its row filters (every row, the internal-tests project's too), for oracles that compare
  // statements with the engine and are not about filters; the filters have their own deleted-rows oracles.
  static Demo& unfiltered() {
    static Demo demo(false);
    return demo;
  }
  exec::Executor& sqlite() { return *served().executor; }
  const catalog::Catalog& sqlite_catalog() { return served().catalog; }
  // The SQLite file it serves (for tests that ask the engine itself, e.g. for a plan).
  const std::filesystem::path& sqlite_file() const { return file_; }
  // The same allowlist seen as PostgreSQL would: only the dialect differs, and
  // virtual columns carry their PostgreSQL expressions.
  catalog::Catalog postgres_catalog() const { return postgres_; }

 private:
  explicit Demo(bool row_filters) {
    dir_ = std::filesystem::temp_directory_path() /
           ((row_filters ? "qg-corpus-" : "qg-corpus-unfiltered-") + std::to_string(::getpid()));
    auto config = gateway::demo_config(dir_);
    if (!config) throw std::runtime_error(config.error().message);
    if (!row_filters)
      for (auto& db : config->databases)
        for (auto& t : db.tables) t.row_filter.clear(), t.row_filter_note.clear();
    file_ = config->databases.front().path;
    auto dbs = gateway::open_databases(*config);
    if (!dbs) throw std::runtime_error(dbs.error().message);
    databases_ = std::move(dbs).value();
    postgres_ = served().executor->catalog();
    postgres_.dialect = Dialect::Postgres;
    postgres_.schema = "public";
    for (auto& t : postgres_.tables) t.virtual_columns.clear();
    for (auto& t : postgres_.tables)
      for (auto& c : t.columns) c.timestamp_sample.clear();  // PostgreSQL would store timestamptz
    auto attached = rewrite::attach_virtual_columns(postgres_, config->databases.front());
    if (!attached) throw std::runtime_error(attached.error().message);
  }
  ~Demo() { std::filesystem::remove_all(dir_); }
  gateway::ServedDatabase& served() { return databases_.begin()->second; }
  std::filesystem::path dir_, file_;
  gateway::ServedDatabases databases_;
  catalog::Catalog postgres_;
};

}  // namespace qg::testing
