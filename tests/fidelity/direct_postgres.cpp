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

// The built-in array types' element types (pg_type.dat; stable OIDs): their cells are read as the
// executor reads arrays (one JSON array form, docs/FIDELITY.md). 0: not an array.
unsigned array_element(unsigned oid) {
  switch (oid) {
    case 1000:
      return 16;  // boolean[]
    case 1005:
      return 21;  // smallint[]
    case 1007:
      return 23;  // integer[]
    case 1016:
      return 20;  // bigint[]
    case 1021:
      return 700;  // real[]
    case 1022:
      return 701;  // double precision[]
    case 1231:
      return 1700;  // numeric[]
    case 1009:
      return 25;  // text[]
    case 1015:
      return 1043;  // character varying[]
    case 1014:
      return 1042;  // character[]
    case 1115:
      return 1114;  // timestamp[]
    case 1185:
      return 1184;  // timestamptz[]
    case 1182:
      return 1082;  // date[]
    case 199:
      return 114;  // json[]
    case 3807:
      return 3802;  // jsonb[]
    default:
      return 0;
  }
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
        const std::string_view text(field.c_str(), field.size());
        if (field.is_null())
          values.emplace_back(std::monostate{});
        else if (const unsigned element = array_element(types[j]); element != 0)
          values.push_back(qg::exec::pg::read_array(element, text));
        else
          values.push_back(qg::exec::pg::read_value(types[j], text));
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
