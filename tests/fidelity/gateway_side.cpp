#include "gateway_side.hpp"

#include "admission/capability/capability.hpp"
#include "admission/pipeline.hpp"
#include "direct_postgres.hpp"
#include "direct_sqlite.hpp"
#include "executors/postgres/pg_executor.hpp"
#include "executors/sqlite/sqlite_executor.hpp"

namespace fidelity {
namespace {

// Large enough that no gold answer is cut (the largest Spider/KaggleDBQA
// answers have thousands of rows), so the comparison sees whole results.
constexpr int kRowCap = 1'000'000;
constexpr int kSqlBytes = 1 << 20;
constexpr auto kDeadline = std::chrono::seconds(10);

}  // namespace

GatewaySide::GatewaySide() {
  limits_.default_rows = kRowCap;
  limits_.max_rows = kRowCap;
  limits_.max_sql_bytes = kSqlBytes;
}

qg::Result<qg::exec::Executor*> GatewaySide::executor(const std::string& db_id, const std::filesystem::path& db_path,
                                                      const std::string& schema) {
  if (auto it = executors_.find(db_path); it != executors_.end()) return it->second.get();

  // The allowlist: every ordinary table, named as sqlite_master writes it.
  auto direct = DirectSqlite::open(db_path);
  if (!direct) return std::move(direct).error();
  auto tables = direct->tables();
  if (!tables) return std::move(tables).error();

  qg::config::Database db;
  db.name = db_id;
  db.backend = qg::Dialect::Sqlite;
  db.path = db_path;
  if (!schema.empty()) db.schema = schema;
  for (const auto& t : *tables) {
    qg::config::TableCuration table;
    table.name = t;
    db.tables.push_back(std::move(table));
  }

  qg::exec::SqliteOptions options;
  options.path = db_path;
  options.allowed_functions = qg::capability::sqlite_authorizer_functions();
  options.max_sql_bytes = kSqlBytes;
  options.connections = 1;  // one statement at a time here
  auto opened = qg::exec::open_sqlite(db, std::move(options));
  if (!opened) return std::move(opened).error();
  auto* raw = opened->get();
  executors_.emplace(db_path, std::move(opened).value());
  return raw;
}

qg::Result<qg::exec::Executor*> GatewaySide::postgres_executor(const std::string& db_id, const std::string& dsn) {
  if (auto it = pg_executors_.find(dsn); it != pg_executors_.end()) return it->second.get();

  auto direct = DirectPostgres::open(dsn);
  if (!direct) return std::move(direct).error();
  auto found = (*direct)->tables();
  if (!found) return std::move(found).error();

  qg::config::Database db;
  db.name = db_id;
  db.backend = qg::Dialect::Postgres;
  db.dsn = dsn;
  db.schema = found->schema;
  for (const auto& t : found->tables) {
    qg::config::TableCuration table;
    table.name = t;
    db.tables.push_back(std::move(table));
  }

  // As gateway/startup.cpp opens a `backend: postgres` database.
  qg::exec::PostgresOptions options;
  options.dsn = dsn;
  options.connections = 1;  // one statement at a time here
  options.functions = qg::capability::postgres_plan_functions();
  auto opened = qg::exec::open_postgres(db, std::move(options));
  if (!opened) return std::move(opened).error();
  auto* raw = opened->get();
  pg_executors_.emplace(dsn, std::move(opened).value());
  return raw;
}

GatewayRun GatewaySide::run(qg::exec::Executor& executor, const std::string& sql) const {
  GatewayRun out;
  auto statement = qg::admit_statement(sql, executor.catalog(), limits_, std::nullopt);
  if (!statement) {
    out.refusal = statement.error();
    return out;
  }
  out.rendered = statement->sql;
  out.rewrites = statement->rewrites;
  // As the API does: read row_cap + 1 rows when the SQL asks for them, to see truncation.
  qg::exec::RunOptions options;
  options.deadline = qg::exec::Clock::now() + kDeadline;
  options.max_rows = statement->limit.detect_truncation ? statement->limit.row_cap + 1 : statement->limit.row_cap;
  options.columns = &statement->admission.columns;
  auto rows = executor.run(statement->sql, options);
  if (!rows) {
    out.engine_error = rows.error();
    return out;
  }
  out.rows = std::move(rows).value();
  out.truncated = static_cast<std::int64_t>(out.rows.rows.size()) > statement->limit.row_cap;
  return out;
}

}  // namespace fidelity
