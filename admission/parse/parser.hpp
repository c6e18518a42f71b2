#pragma once
// The only place that calls libpg_query. The caller's SQL is read once, here,
// by PostgreSQL's own grammar; what comes out is the parser's JSON, which only
// admission/convert reads.
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace qg::parse {

// Parses `sql` with the PostgreSQL 15 grammar. On a syntax error the Error
// carries the byte position and, when the text is a SQLite-only spelling the
// grammar rejects, a FIX with the portable spelling.
Result<std::string> parse_to_json(std::string_view sql);

// libpg_query's fingerprint (hex), for logs: equal for statements that differ only in literals.
std::string fingerprint(std::string_view sql);

}  // namespace qg::parse
