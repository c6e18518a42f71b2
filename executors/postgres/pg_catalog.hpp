#pragma once
// Reads the allowlisted tables of the configured schema from PostgreSQL's own
// catalogs and overlays the curation from config. Runs once at start-up.
#include <pqxx/connection>
#include <pqxx/field>

#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "config/config.hpp"

namespace qg::exec::pg {

// Errors (BackendUnavailable) name the allowlisted table or curated column the
// schema does not have, with the closest names it does have. Comments stored
// with COMMENT ON land in engine_comment (shown as untrusted), never in comment.
// A field's text, or "" for NULL (catalog queries read many nullable columns).
std::string field_text(const pqxx::field& f);

Result<catalog::Catalog> introspect(pqxx::connection& conn, const config::Database& config);

}  // namespace qg::exec::pg
