#pragma once
// The start-up check of the PostgreSQL write role, failing closed: it may
// INSERT into the write tools' tables and SELECT what their SQL reads, and
// nothing else. A superuser, CREATEROLE, BYPASSRLS, REPLICATION, a member of
// the server-file roles, CREATE on the database or the schema (DDL), ownership
// of any table in the schema, UPDATE, DELETE, TRUNCATE or TRIGGER on any
// table there, or INSERT into a table no write tool writes, refuses the start.
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace qg::writes {

struct WritePosture {
  std::string role;
  std::vector<std::string> problems;  // each one reason the role may do more than the write tools need
};

// Connects with `dsn` and reads the role's attributes and privileges.
Result<WritePosture> check_write_posture(const std::string& dsn, const std::string& schema,
                                         const std::set<std::string>& insert_tables,
                                         const std::set<std::string>& read_tables);

}  // namespace qg::writes
