#pragma once
// The demo as querygate serves it from the test cluster's `demo` database
// (loaded by scripts/pg-test-cluster.sh load-demo from `querygate demo-db
// --postgres`), with config/demo-postgres.yaml, as the least-privilege
// qg_reader: the executor and the catalog admission uses (introspected,
// curated, with the virtual columns attached). Shared by the PostgreSQL corpus
// and lineage oracle tests.
#include <filesystem>
#include <memory>
#include <string>

#include "admission/capability/capability.hpp"
#include "admission/rewrite/virtual_columns.hpp"
#include "config/config.hpp"
#include "executors/postgres/pg_executor.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {

inline const std::string kLoadFix =
    "FIX: build, then `querygate demo-db --postgres demo.sql && scripts/pg-test-cluster.sh load-demo demo.sql` "
    "(scripts/test.sh does both)";

struct RealDemo {
  config::Database database;
  std::unique_ptr<exec::Executor> executor;
  catalog::Catalog catalog;
};

inline const std::filesystem::path kDemoPostgresConfig =
    std::filesystem::path(QG_SOURCE_DIR) / "config" / "demo-postgres.yaml";

inline Result<RealDemo> open_real_demo(const PgTestServer& server) {
  auto config = config::load_config(kDemoPostgresConfig);
  if (!config) return config.error();
  RealDemo demo;
  demo.database = config->databases.front();
  exec::PostgresOptions options;
  options.dsn = pg_dsn(server, "qg_reader", "demo");
  options.connections = 1;
  options.functions = capability::postgres_plan_functions();
  auto executor = exec::open_postgres(demo.database, std::move(options));
  if (!executor) return executor.error();
  demo.executor = std::move(executor).value();
  demo.catalog = demo.executor->catalog();
  if (auto s = rewrite::attach_virtual_columns(demo.catalog, demo.database); !s) return s.error();
  return demo;
}

}  // namespace qg::testing

// In a TEST body: declares `qg::testing::RealDemo& var`, or ends the test as
// QG_PG_TEST_SERVER does when there is no server.
#define QG_REAL_DEMO(var)                                                                                            \
  QG_PG_TEST_SERVER(var##_server);                                                                                   \
  auto var##_opened = ::qg::testing::open_real_demo(var##_server);                                                   \
  ASSERT_TRUE(var##_opened) << "cannot open the demo database of the test cluster: " << var##_opened.error().message \
                            << "\n"                                                                                  \
                            << ::qg::testing::kLoadFix;                                                              \
  ::qg::testing::RealDemo& var = *var##_opened
