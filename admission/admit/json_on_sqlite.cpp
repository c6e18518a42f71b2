// jsonb's meaning on SQLite, beyond the arrows (dialect.cpp): what SQLite
// would answer by the rules of text is refused (issue #12).
#include "admission/admit/admitter.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {

// Found by the differential property (tests/parity/differential_found.sql, diff-001): ORDER BY a jsonb
// column on SQLite sorted the stored text ('"str"' before '1' before '{...}'); PostgreSQL sorts by jsonb's
// order (null < strings < numbers < booleans < arrays < objects, objects by their number of pairs first).
Status Admitter::json_sort_on_sqlite(const ast::Expr& sorted, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return {};
  if (value_type(sorted, ctx).type != SqlType::Json) return {};
  auto text = render::render_expr(sorted, dialect_);
  const std::string what = !text ? "the value" : text->size() > 60 ? text->substr(0, 57) + "..." : *text;
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "ORDER BY a jsonb value (" + what +
                        ") on SQLite: PostgreSQL sorts by jsonb's own order (strings before numbers before "
                        "booleans before arrays before objects), SQLite would sort the JSON text",
                    "FIX: order by a key read as text or a number: ORDER BY " + what + " ->> 'key', or CAST(" + what +
                        " ->> 'key' AS numeric).",
                    pos(sorted.location));
}

}  // namespace qg::admit::detail
