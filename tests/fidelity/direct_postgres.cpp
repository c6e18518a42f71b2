#include "direct_postgres.hpp"

#include <pqxx/pqxx>

#include "executors/postgres/pg_values.hpp"

namespace fidelity {
namespace {

// A runaway gold query should cost a failure, not the run.
constexpr const char* kStatementTimeout = "SET LOCAL statement_timeout = 10000";

qg::Error engine_error(const std::exception& e) {
  std::string what = e.what();
  while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) what.pop_back();
  for (auto& c : what)
    if (c == '\n') c = ' ';
  return qg::make_error(qg::ErrorCode::BackendError, "PostgreSQL: " + what);
}

}  // namespace

DirectPostgres::DirectPostgres(std::unique_ptr<pqxx::connection> conn) : conn_(std::move(conn)) {}
DirectPostgres::~DirectPostgres() = default;

qg::Result<std::unique_ptr<DirectPostgres>> DirectPostgres::open(const std::string& dsn) {
  try {
    return std::unique_ptr<DirectPostgres>(new DirectPostgres(std::make_unique<pqxx::connection>(dsn)));
  } catch (const std::exception& e) {
    return qg::make_error(qg::ErrorCode::BackendUnavailable, std::string("cannot connect: ") + e.what(),
                          "FIX: scripts/pg-test-cluster.sh start && eval \"$(scripts/pg-test-cluster.sh env)\"");
  }
}

qg::Result<PgTables> DirectPostgres::tables() {
  try {
    pqxx::read_transaction tx(*conn_);
    const pqxx::result r = tx.exec(
        "SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
        "AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2");
    PgTables out;
    for (const auto& row : r) {
      const std::string schema = row[0].c_str();
      if (!out.schema.empty() && schema != out.schema)
        return qg::make_error(qg::ErrorCode::ConfigInvalid,
                              "tables in schemas " + out.schema + " and " + schema + ": the harness serves one");
      out.schema = schema;
      out.tables.emplace_back(row[1].c_str());
    }
    if (out.tables.empty()) return qg::make_error(qg::ErrorCode::ConfigInvalid, "the role can read no table");
    return out;
  } catch (const std::exception& e) {
    return engine_error(e);
  }
}

qg::Result<qg::exec::Rows> DirectPostgres::run(const std::string& sql) {
  try {
    pqxx::read_transaction tx(*conn_);
    tx.exec("SET LOCAL TimeZone = 'UTC'");
    tx.exec(kStatementTimeout);
    const pqxx::result r = tx.exec(sql);
    qg::exec::Rows out;
    const auto n = r.columns();
    std::vector<unsigned> types;
    for (pqxx::row::size_type i = 0; i < n; ++i) {
      types.push_back(static_cast<unsigned>(r.column_type(i)));
      out.columns.push_back({r.column_name(i), ""});
    }
    out.rows.reserve(r.size());
    for (const auto& row : r) {
      std::vector<qg::exec::Value> values;
      values.reserve(n);
      for (pqxx::row::size_type j = 0; j < n; ++j) {
        const auto field = row[j];
        if (field.is_null())
          values.emplace_back(std::monostate{});
        else
          values.push_back(qg::exec::pg::read_value(types[j], std::string_view(field.c_str(), field.size())));
      }
      out.rows.push_back(std::move(values));
    }
    tx.commit();  // read-only: nothing to keep, but ends the transaction cleanly
    return out;
  } catch (const std::exception& e) {
    return engine_error(e);
  }
}

}  // namespace fidelity
