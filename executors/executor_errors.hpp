#pragma once
// Refusals every executor gives alike, so an agent reads the same words and FIX
// whichever engine ran its statement.
#include <string>
#include <vector>

#include "common/result.hpp"

namespace qg::exec {

// The request's deadline passed while the statement ran (504 limit:deadline).
Error deadline_error();
// Nobody waits for the answer any more: the client left, or shutdown (request:cancelled).
Error cancelled_error();

// For start-up errors about a name the database does not have:
// "; did you mean 'items'?" or, with no close match, the names there are.
std::string name_suggestion(const std::string& wanted, const std::vector<std::string>& existing);

}  // namespace qg::exec
