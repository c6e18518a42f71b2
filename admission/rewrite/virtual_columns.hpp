#pragma once
// Virtual columns: configured SQL expressions over a table's physical columns.
// At start-up each is parsed with the same grammar as statements and admitted
// as `SELECT <expr> FROM <table>`, so a virtual column can only use what a
// caller could; admission then substitutes it where a statement names it.
#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "config/config.hpp"

namespace qg::rewrite {

// Adds the database's virtual columns to `catalog` (whose tables are the
// allowlist). Errors name the config key and what is wrong.
Status attach_virtual_columns(catalog::Catalog& catalog, const config::Database& database);

// Rewrites every column reference in `expr` that names `from_table` (or is
// unqualified) to be qualified by `relation`, the name the statement uses.
void qualify_columns(ast::Expr& expr, const std::string& relation);

}  // namespace qg::rewrite
