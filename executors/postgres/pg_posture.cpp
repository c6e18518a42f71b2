#include "executors/postgres/pg_posture.hpp"

#include <pqxx/pqxx>

#include "executors/postgres/pg_catalog.hpp"

namespace qg::exec::pg {
namespace {

std::string qualified(const std::string& schema, const std::string& table) {
  return schema + "." + table;
}

}  // namespace

Posture check_posture(pqxx::connection& conn, const catalog::Catalog& catalog, const std::string& schema) {
  Posture out;
  pqxx::nontransaction tx(conn);
  const auto role = tx.exec1(
      "SELECT current_user, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolreplication "
      "FROM pg_catalog.pg_roles WHERE rolname = current_user");
  out.role = field_text(role[0]);
  if (role[1].as<bool>(false)) out.problems.push_back("role '" + out.role + "' is a superuser");
  if (role[2].as<bool>(false)) out.problems.push_back("role '" + out.role + "' may create roles (CREATEROLE)");
  if (role[4].as<bool>(false))
    out.problems.push_back("role '" + out.role + "' bypasses row-level security (BYPASSRLS)");
  if (role[5].as<bool>(false)) out.problems.push_back("role '" + out.role + "' has REPLICATION");
  if (role[3].as<bool>(false)) out.warnings.push_back("role '" + out.role + "' may create databases (CREATEDB)");

  for (const char* server_role : {"pg_read_server_files", "pg_write_server_files", "pg_execute_server_program"}) {
    const auto r =
        tx.exec_params("SELECT pg_has_role(current_user, oid, 'MEMBER') FROM pg_catalog.pg_roles WHERE rolname = $1",
                       std::string(server_role));
    if (!r.empty() && r[0][0].as<bool>(false))
      out.problems.push_back("role '" + out.role + "' is a member of " + server_role);
  }

  for (const auto& table : catalog.tables) {
    const auto r = tx.exec_params(
        "SELECT pg_has_role(current_user, c.relowner, 'MEMBER'), "
        "has_table_privilege(c.oid, 'INSERT'), has_table_privilege(c.oid, 'UPDATE'), "
        "has_table_privilege(c.oid, 'DELETE'), has_table_privilege(c.oid, 'TRUNCATE'), "
        "has_table_privilege(c.oid, 'SELECT') "
        "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = $1 AND c.relname = $2",
        schema, table.name);
    if (r.empty()) continue;
    const std::string name = qualified(schema, table.name);
    if (r[0][0].as<bool>(false)) out.problems.push_back("role '" + out.role + "' owns " + name);
    std::string writes;
    const char* verbs[] = {"INSERT", "UPDATE", "DELETE", "TRUNCATE"};
    for (int i = 0; i < 4; ++i)
      if (r[0][i + 1].as<bool>(false)) writes += (writes.empty() ? "" : ", ") + std::string(verbs[i]);
    if (!writes.empty()) out.problems.push_back("role '" + out.role + "' may " + writes + " on " + name);
    if (!r[0][5].as<bool>(false))
      out.warnings.push_back("role '" + out.role + "' may not SELECT from " + name +
                             ": every statement over it will be refused by the server (GRANT SELECT ON " + name +
                             " TO " + out.role + ")");
  }

  for (const auto& row :
       tx.exec("SELECT extname FROM pg_catalog.pg_extension WHERE extname IN ('dblink', 'file_fdw', 'adminpack', "
               "'postgres_fdw', 'lo', 'pageinspect', 'pg_buffercache') ORDER BY extname"))
    out.warnings.push_back("extension " + field_text(row[0]) + " is installed in this database");
  for (const auto& row :
       tx.exec("SELECT lanname FROM pg_catalog.pg_language WHERE NOT lanpltrusted AND lanname NOT IN ('internal', "
               "'c') ORDER BY lanname"))
    out.warnings.push_back("untrusted language " + field_text(row[0]) + " is installed in this database");
  const auto limit = tx.exec1("SELECT current_setting('temp_file_limit')");
  if (field_text(limit[0]) == "-1")
    out.warnings.push_back("temp_file_limit is unlimited for role '" + out.role +
                           "' (only a superuser may set it): ALTER ROLE " + out.role + " SET temp_file_limit = '1GB'");
  return out;
}

}  // namespace qg::exec::pg
