// Number functions whose SQLite form takes other arguments than PostgreSQL's
// (found by the differential property, issue #12): refused with a FIX that
// works on both backends, where SQLite would fail at run time or answer
// otherwise.
#include "admission/admit/admitter.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {

// trunc(x, n): PostgreSQL truncates a numeric to n digits; SQLite's trunc() takes one argument, so the
// statement failed in the engine ("wrong number of arguments to function trunc()"; differential seed
// 20261202 #21).
Status trunc_digits_on_sqlite(const ast::FuncCall& f, Dialect dialect, int location) {
  if (dialect != Dialect::Sqlite || f.name != "trunc" || f.args.size() != 2) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "trunc(x, n) (truncate to n digits) is not translated on SQLite: its trunc() takes one argument",
                    "FIX: scale, truncate and scale back: trunc(x * 100) / 100 keeps two digits (trunc(x * 10) / 10 "
                    "one).",
                    pos(location));
}

// mod(a, b): SQLite's mod() computes in doubles and answers a REAL (mod(7, 7) is 0.0, mod(9007199254740993, 10)
// is 2, and mod(x, y) / n divides as floats), PostgreSQL's is exact and keeps the integer type (differential
// seeds 100 #283, 104 #136).
Status mod_on_sqlite(const ast::FuncCall& f, Dialect dialect, int location) {
  if (dialect != Dialect::Sqlite || f.name != "mod" || f.over) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "mod() on SQLite computes with doubles and answers a fraction (mod(7, 7) is 0.0 there); "
                    "PostgreSQL's is exact",
                    "FIX: write the operator: a % b (the same remainder, with the sign of a).", pos(location));
}

// text || condition: PostgreSQL writes the boolean as true / false ('a' || true is 'atrue'), SQLite as 1 / 0
// (differential seed 6 #232: max(c.v || c.w) answered 'x y z51' for 'x y z5true').
Status boolean_concat_on_sqlite(const ast::Expr& condition, int location) {
  auto text = render::render_expr(condition, Dialect::Postgres);
  const std::string what = !text ? "the condition" : text->size() > 60 ? text->substr(0, 57) + "..." : *text;
  return make_error(
      ErrorCode::CapabilityNotOnSqlite,
      "|| with a boolean (" + what + ") on SQLite: PostgreSQL writes it as true / false, SQLite would write 1 / 0",
      "FIX: write the text yourself: CASE WHEN " + what + " THEN 'true' ELSE 'false' END || ...", pos(location));
}

}  // namespace qg::admit::detail
