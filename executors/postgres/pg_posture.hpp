#pragma once
// The start-up check of what the gateway's PostgreSQL role could do beyond
// reading: it fails closed. A superuser, a member of the server-file roles, or
// a role that owns or may write an allowlisted table is refused unless the
// config says allow_privileged_role: true (then a loud warning every start).
// Dangerous extensions and untrusted languages are reported either way.
#include <string>
#include <vector>

#include <pqxx/connection>

#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"

namespace qg::exec::pg {

struct Posture {
  std::string role;
  std::vector<std::string> problems;  // each one reason the role is privileged
  std::vector<std::string> warnings;  // worth an operator's attention, not fatal
};

// Reads the role's attributes, memberships and table privileges.
Posture check_posture(pqxx::connection& conn, const catalog::Catalog& catalog, const std::string& schema);

}  // namespace qg::exec::pg
