#pragma once
// The demo database for PostgreSQL: a psql script converted from the SQLite
// demo (demo/demo_db.cpp), so both backends serve the same rows and
// the generator stays the one source of the data. The script holds CREATE TABLE
// with PostgreSQL types (timestamps as timestamptz, span attributes as jsonb),
// COPY ... FROM stdin blocks, the foreign keys and indexes of the SQLite schema,
// and ANALYZE. It creates no roles and grants nothing: whoever loads it decides
// who may read what (scripts/pg-test-cluster.sh load-demo, docker/postgres/).
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace qg::exec {

// Writes the script for the SQLite demo at `sqlite_demo` to `out`. Load it into
// an empty database in one transaction: psql -v ON_ERROR_STOP=1 -1 -f FILE.
// Fails (ErrorCode::BackendError) when the SQLite schema has a shape this
// converter does not know (a new column type, a BLOB, an expression index), so
// the demo cannot drift from its PostgreSQL twin silently.
Status write_demo_pg_script(const std::filesystem::path& sqlite_demo, std::ostream& out);

// Generates the SQLite demo into a private temporary folder and converts it.
// `script` "-" means standard output; any other path is written through
// `script` + ".tmp" and renamed into place, so a half-written script never
// appears under its name.
Status create_demo_pg_script(const std::filesystem::path& script);

// One value in COPY's text format: backslash, tab, newline and carriage return
// escaped (NULL is written as \N by the caller, never by this function).
std::string copy_text_field(std::string_view value);

}  // namespace qg::exec
