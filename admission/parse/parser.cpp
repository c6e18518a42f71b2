#include "admission/parse/parser.hpp"

#include <pg_query.h>

#include "admission/parse/sqlite_spellings.hpp"

namespace qg::parse {

Result<std::string> parse_to_json(std::string_view sql) {
  const std::string text(sql);  // libpg_query wants a NUL-terminated string
  PgQueryParseResult parsed = pg_query_parse(text.c_str());
  struct Free {
    PgQueryParseResult& r;
    ~Free() { pg_query_free_parse_result(r); }
  } free_on_exit{parsed};

  if (parsed.error) {
    // cursorpos is 1-based; 0 means "no position".
    std::optional<int> position;
    if (parsed.error->cursorpos > 0) position = parsed.error->cursorpos - 1;
    if (auto spelling = recognise_sqlite_spelling(sql, position)) return *std::move(spelling);
    if (std::string_view(parsed.error->message).find("subquery in FROM must have an alias") != std::string_view::npos)
      return make_error(ErrorCode::ParseSqliteSpelling, "a subquery in FROM has no alias",
                        "FIX: name it: FROM (SELECT ...) AS sub, and refer to its columns as sub.column.", position);
    std::string message = "syntax error: ";
    message += parsed.error->message;
    if (position) {
      message += " at byte ";
      message += std::to_string(*position);
      message += ": ";
      message += near_text(sql, *position);
    }
    return make_error(ErrorCode::ParseSyntax, std::move(message),
                      "FIX: write one SELECT statement in PostgreSQL-compatible SQL; check the text near the "
                      "position for a missing comma, an unbalanced parenthesis or quote, or a misspelled keyword.",
                      position);
  }
  return std::string(parsed.parse_tree);
}

std::string fingerprint(std::string_view sql) {
  const std::string text(sql);
  PgQueryFingerprintResult r = pg_query_fingerprint(text.c_str());
  std::string out = (r.error || !r.fingerprint_str) ? std::string() : std::string(r.fingerprint_str);
  pg_query_free_fingerprint_result(r);
  return out;
}

}  // namespace qg::parse
