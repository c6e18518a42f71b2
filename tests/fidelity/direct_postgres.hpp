#pragma once
// The reference side for PostgreSQL datasets: a plain libpq connection as the
// least-privilege reader role, each gold statement sent as written (simple
// query protocol, as sql-eval's pandas/SQLAlchemy runner sends it) inside a
// READ ONLY transaction with TimeZone UTC, the session setting the gateway's
// executor also fixes, so timestamptz cells print alike on both sides.
#include <memory>
#include <string>
#include <vector>

#include <pqxx/connection>

#include "common/result.hpp"
#include "executors/executor.hpp"

namespace fidelity {

struct PgTables {
  std::string schema;               // the one schema holding the database's tables
  std::vector<std::string> tables;  // its ordinary tables, sorted
};

class DirectPostgres {
 public:
  static qg::Result<std::unique_ptr<DirectPostgres>> open(const std::string& dsn);
  ~DirectPostgres();

  // The tables the role can read outside the system schemas. Refused when they
  // span several schemas: the gateway serves one schema per database.
  qg::Result<PgTables> tables();
  // Runs `sql` and reads every row, each cell converted exactly as the
  // gateway's PostgreSQL executor converts it (pg::read_value by type OID).
  qg::Result<qg::exec::Rows> run(const std::string& sql);

 private:
  explicit DirectPostgres(std::unique_ptr<pqxx::connection> conn);
  std::unique_ptr<pqxx::connection> conn_;
};

}  // namespace fidelity
