#pragma once
// SQLite-only spellings that the PostgreSQL grammar rejects. They are common in
// SQL written for SQLite, so a bare "syntax error" would waste the agent's turn:
// recognise them at the parse error and name the portable spelling.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace qg::parse {

// Given the caller's SQL and the parser's error position, returns a
// `parse:sqlite-spelling` refusal when the error comes from a known SQLite
// spelling, else nothing.
std::optional<Error> recognise_sqlite_spelling(std::string_view sql, std::optional<int> error_position);

// SQLite spellings the PostgreSQL grammar rejects but whose meaning is exact on
// every backend, rewritten in the text (issue #12): `LIMIT a, b` with whole
// numbers is `LIMIT b OFFSET a`; `x GLOB 'p'` with a literal pattern without
// [...] is `x LIKE 'p'` (* is %, ? is _, and %, _ and \ escaped: LIKE is
// case-sensitive on both backends, as GLOB is). Returns the rewritten text and
// appends each rewrite's name to `names`, or nothing when there is none.
std::optional<std::string> rewrite_sqlite_spellings(std::string_view sql, std::vector<std::string>& names);

// A short excerpt of `sql` around `position`, for messages.
std::string near_text(std::string_view sql, int position);

}  // namespace qg::parse
