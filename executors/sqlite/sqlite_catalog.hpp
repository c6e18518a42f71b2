#pragma once
// Reads the allowlisted tables from the SQLite file itself and overlays the
// curation from config. Runs once at start-up, before the authorizer is in.
#include <sqlite3.h>

#include <filesystem>

#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "config/config.hpp"

namespace qg::exec::sqlite {

// Errors (BackendUnavailable) name the allowlisted table or curated column that
// the file does not have, with the closest names it does have. Virtual tables
// (FTS, R*Tree, ...) are refused: building one needs writes to sqlite_schema
// and reads of shadow tables that the authorizer must deny, and statements are
// prepared with SQLITE_PREPARE_NO_VTAB.
// `path` is the file `db` was opened on, for the messages.
Result<catalog::Catalog> introspect(sqlite3* db, const config::Database& config, const std::filesystem::path& path);

}  // namespace qg::exec::sqlite
