#include "writes/write_posture.hpp"

#include <pqxx/pqxx>

#include "executors/postgres/pg_values.hpp"

namespace qg::writes {

Result<WritePosture> check_write_posture(const std::string& dsn, const std::string& schema,
                                         const std::set<std::string>& insert_tables,
                                         const std::set<std::string>& read_tables) {
  try {
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    WritePosture out;
    const auto role = tx.exec1(
        "SELECT current_user, rolsuper, rolcreaterole, rolbypassrls, rolreplication, "
        "has_database_privilege(current_database(), 'CREATE') "
        "FROM pg_catalog.pg_roles WHERE rolname = current_user");
    out.role = role[0].c_str();
    const std::string who = "write role '" + out.role + "'";
    if (role[1].as<bool>(false)) out.problems.push_back(who + " is a superuser");
    if (role[2].as<bool>(false)) out.problems.push_back(who + " may create roles (CREATEROLE)");
    if (role[3].as<bool>(false)) out.problems.push_back(who + " bypasses row-level security (BYPASSRLS)");
    if (role[4].as<bool>(false)) out.problems.push_back(who + " has REPLICATION");
    if (role[5].as<bool>(false)) out.problems.push_back(who + " may CREATE schemas in this database (DDL)");
    for (const char* server_role : {"pg_read_server_files", "pg_write_server_files", "pg_execute_server_program"}) {
      const auto r =
          tx.exec_params("SELECT pg_has_role(current_user, oid, 'MEMBER') FROM pg_catalog.pg_roles WHERE rolname = $1",
                         std::string(server_role));
      if (!r.empty() && r[0][0].as<bool>(false)) out.problems.push_back(who + " is a member of " + server_role);
    }
    const auto create = tx.exec_params(
        "SELECT has_schema_privilege(n.oid, 'CREATE'), pg_has_role(current_user, n.nspowner, 'MEMBER') "
        "FROM pg_catalog.pg_namespace n WHERE n.nspname = $1",
        schema);
    if (!create.empty()) {
      if (create[0][0].as<bool>(false)) out.problems.push_back(who + " may CREATE in schema " + schema + " (DDL)");
      if (create[0][1].as<bool>(false)) out.problems.push_back(who + " owns schema " + schema);
    }
    // Every relation of the schema, not only the allowlist: the role must not
    // be able to change anything but by inserting into the write tables.
    const auto tables = tx.exec_params(
        "SELECT c.relname, pg_has_role(current_user, c.relowner, 'MEMBER'), "
        "has_table_privilege(c.oid, 'INSERT'), has_any_column_privilege(c.oid, 'UPDATE'), "
        "has_table_privilege(c.oid, 'DELETE'), has_table_privilege(c.oid, 'TRUNCATE'), "
        "has_table_privilege(c.oid, 'TRIGGER'), has_table_privilege(c.oid, 'SELECT') "
        "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY c.relname",
        schema);
    std::set<std::string> seen;
    for (const auto& row : tables) {
      const std::string name = row[0].c_str();
      const std::string qualified = schema + "." + name;
      seen.insert(name);
      if (row[1].as<bool>(false)) out.problems.push_back(who + " owns " + qualified);
      std::string verbs;
      const char* names[] = {"UPDATE", "DELETE", "TRUNCATE", "TRIGGER"};
      for (int i = 0; i < 4; ++i)
        if (row[3 + i].as<bool>(false)) verbs += (verbs.empty() ? "" : ", ") + std::string(names[i]);
      if (!verbs.empty()) out.problems.push_back(who + " may " + verbs + " on " + qualified);
      const bool insert = row[2].as<bool>(false);
      if (insert && !insert_tables.contains(name))
        out.problems.push_back(who + " may INSERT into " + qualified + ", which no write tool writes");
      if (!insert && insert_tables.contains(name))
        out.problems.push_back(who + " may not INSERT into " + qualified +
                               ", which a write tool writes (GRANT INSERT ON " + qualified + " TO " + out.role + ")");
      if (!row[7].as<bool>(false) && (read_tables.contains(name) || insert_tables.contains(name)))
        out.problems.push_back(
            who + " may not SELECT from " + qualified +
            ", an allowlisted table the write tools' SQL may read, row filters included (GRANT SELECT ON " + qualified +
            " TO " + out.role + ")");
    }
    for (const auto& t : insert_tables)
      if (!seen.contains(t)) out.problems.push_back("the write table " + schema + "." + t + " does not exist");
    return out;
  } catch (const std::exception& e) {
    return make_error(ErrorCode::BackendUnavailable,
                      "cannot check the write role's privileges: " + exec::pg::one_line(e.what()),
                      "FIX: check the write DSN (write_dsn_env) and that the server is up.");
  }
}

}  // namespace qg::writes
