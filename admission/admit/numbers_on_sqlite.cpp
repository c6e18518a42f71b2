// Numbers on SQLite as PostgreSQL computes them (issue #12). Each translation
// calls a function the SQLite executor registers (executors/sqlite/
// sqlite_numbers.cpp) and is reported as a `dialect:` rewrite:
//
//   CAST(x AS integer), x numeric or float  → CAST(pg_number(x, 'int4', 'numeric' | 'float8') AS integer)
//       PostgreSQL rounds (a numeric's halves away from zero, a float's to even); SQLite's CAST truncates.
//   CAST(x AS numeric(p, s))                → pg_numeric(x, p, s)
//       rounded to s places, "numeric field overflow" past p - s digits; SQLite ignores the modifiers.
//   trunc(x, n)                             → pg_trunc(x, n)            (SQLite's trunc takes one argument)
//   round(x, n), n negative or computed     → pg_round(x, n)            (SQLite's round counts n < 0 as 0)
//   x / y, y not a literal other than 0, -1 → pg_div(x, y)              (printed so: render.hpp, division_checked)
//   x % y                                    → pg_mod(x, y)              (printed so; exact on fractions)
//   GREATEST(a, b, ...) / LEAST(...)        → pg_greatest / pg_least    (numbers or texts: NULLs skipped)
//
// The replacements are querygate's own functions, admitted on SQLite as they
// stand, so admitting the printed statement again changes nothing.
#include <string>
#include <variant>
#include <vector>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {
namespace {

ast::Expr call(std::string name, std::vector<ast::Expr> args, int location) {
  ast::FuncCall f;
  f.name = std::move(name);
  f.args = std::move(args);
  return ast::make_expr(std::move(f), location);
}

ast::Expr text(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}

ast::Expr integer(std::int64_t i) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(i)});
}

bool is_number(SqlType t) {
  return t == SqlType::Integer || t == SqlType::Numeric || t == SqlType::Float;
}

}  // namespace

bool Admitter::integer_cast_rounds_on_sqlite(ast::Cast& cast, const ExprContext& ctx) {
  const SqlType from = value_type(*cast.arg, ctx).type;
  // An integer the shape hides ((SELECT count(*) ...)): checked the same way, a whole number passes as it is.
  if (from != SqlType::Numeric && from != SqlType::Float && from != SqlType::Integer) return false;
  const int at = cast.arg->location;
  std::vector<ast::Expr> args;
  args.push_back(std::move(*cast.arg));
  args.push_back(text(cast.type.name));
  args.push_back(text(from == SqlType::Float ? "float8" : "numeric"));
  *cast.arg = call("pg_number", std::move(args), at);
  note_rewrite("dialect:integer-cast-rounds");
  return true;
}

Status Admitter::numeric_typmod_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  auto* cast = std::get_if<ast::Cast>(&e.node);
  if (dialect_ != Dialect::Sqlite || !cast || cast->type.name != "numeric" || cast->type.modifiers.empty()) return {};
  const std::int64_t precision = cast->type.modifiers[0];
  const std::int64_t scale = cast->type.modifiers.size() > 1 ? cast->type.modifiers[1] : 0;
  if (scale < 0 || scale > 15 || precision < 1)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "numeric(" + std::to_string(precision) + ", " + std::to_string(scale) +
                          ") is translated on SQLite for a scale from 0 to 15 only",
                      "FIX: write round(x, n) with n from 0 to 15, or cast to double precision.", pos(e.location));
  const SqlType from = value_type(*cast->arg, ctx).type;
  if (from == SqlType::Boolean || from == SqlType::Time || from == SqlType::Json)
    return {};  // PostgreSQL's own error ("cannot cast type ..."): the type checks say so
  ast::Expr value = std::move(*cast->arg);
  if (!is_number(from)) {  // text (or not known): PostgreSQL's checked input first
    const int at = value.location;
    value = call("pg_number", {std::move(value), text("numeric")}, at);
  }
  const int location = e.location;
  e = call("pg_numeric", {std::move(value), integer(precision), integer(scale)}, location);
  note_rewrite("dialect:numeric-typmod");
  replaced = true;
  return {};
}

void Admitter::trunc_digits(ast::Expr& e, const ExprContext& ctx) {
  auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (!f || (f->name != "trunc" && f->name != "round") || f->args.size() != 2 || f->over || f->star || f->distinct)
    return;
  const SqlType from = value_type(f->args.front(), ctx).type;
  if (f->name == "round") {
    // round(x, -1): PostgreSQL rounds to tens, SQLite's round counts a negative n as 0 (round(1235, -1) is 1240
    // there, 1235.0 here). A count written as a literal 0 or more stays SQLite's round; any other goes to pg_round.
    if (dialect_ != Dialect::Sqlite || !is_number(from)) return;
    if (const auto digits = ast::integer_value(f->args[1]); digits && *digits >= 0) return;
    f->name = "pg_round";
    note_rewrite("dialect:round-digits");
    return;
  }
  if (dialect_ == Dialect::Postgres) {
    // trunc(double precision, n) does not exist in PostgreSQL; its intent is exact, as round(x, n)'s: the
    // value is cut as the numeric it prints as.
    if (from != SqlType::Float) return;
    const int at = f->args.front().location;
    ast::Expr value = std::move(f->args.front());
    f->args.front() =
        ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(value)), ast::TypeName{"numeric", {}}}, at);
    note_rewrite("dialect:trunc-numeric");
    return;
  }
  if (!is_number(from)) return;  // text: PostgreSQL's own error, left to the engine and the type checks
  f->name = "pg_trunc";
  note_rewrite("dialect:trunc-digits");
}

Status Admitter::greatest_least_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  auto* m = std::get_if<ast::MinMax>(&e.node);
  if (dialect_ != Dialect::Sqlite || !m) return {};
  // All numbers, or all text (compared by bytes, as SQLite and PostgreSQL's C / C.UTF-8 collations order it, as
  // every other text comparison querygate runs on SQLite). Times are stored in more than one text form.
  bool numbers = true, texts = true;
  for (const auto& a : m->args) {
    const SqlType t = value_type(a, ctx).type;
    numbers = numbers && (is_number(t) || t == SqlType::Null);
    texts = texts && (t == SqlType::Text || t == SqlType::Untyped || t == SqlType::Null);
  }
  if (!numbers && !texts)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      std::string(m->greatest ? "GREATEST" : "LEAST") +
                          " is translated on SQLite for numbers or for text, not for times, booleans or a mix",
                      std::string("FIX: on SQLite, compare the values with CASE, e.g. CASE WHEN a ") +
                          (m->greatest ? ">=" : "<=") + " b OR b IS NULL THEN a ELSE b END.",
                      pos(e.location));
  const int location = e.location;
  std::vector<ast::Expr> args = std::move(m->args);
  e = call(m->greatest ? "pg_greatest" : "pg_least", std::move(args), location);
  note_rewrite("dialect:greatest-least");
  return {};
}

// text || condition: PostgreSQL writes the boolean as true / false ('a' || true is 'atrue'), SQLite as 1 / 0
// (found by the differential property, seed 6 #232: max(c.v || c.w) answered 'x y z51' for 'x y z5true').
Status boolean_concat_on_sqlite(const ast::Expr& condition, int location) {
  auto text = render::render_expr(condition, Dialect::Postgres);
  const std::string what = !text ? "the condition" : text->size() > 60 ? text->substr(0, 57) + "..." : *text;
  return make_error(
      ErrorCode::CapabilityNotOnSqlite,
      "|| with a boolean (" + what + ") on SQLite: PostgreSQL writes it as true / false, SQLite would write 1 / 0",
      "FIX: write the text yourself: CASE WHEN " + what + " THEN 'true' ELSE 'false' END || ...", pos(location));
}

// mod(a, b): SQLite's mod() computes in doubles and answers a REAL (mod(7, 7) is 0.0, mod(9007199254740993, 10)
// is 2; found by the differential property, seeds 100 #283, 104 #136); PostgreSQL's is the exact remainder, as
// its % operator. So on SQLite mod(a, b) is written a % b and admitted as that operator, which SQLite runs as
// pg_mod(a, b) (exact for integers and for numeric fractions; a double precision operand is refused).
bool mod_as_operator_on_sqlite(ast::Expr& e, Dialect dialect) {
  auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (dialect != Dialect::Sqlite || !f || f->name != "mod" || f->args.size() != 2 || f->over || f->star ||
      f->distinct || f->filter)
    return false;
  const int location = e.location;
  ast::Expr a = std::move(f->args[0]), b = std::move(f->args[1]);
  e = ast::make_expr(ast::Operator{"%", ast::Box<ast::Expr>(std::move(a)), ast::Box<ast::Expr>(std::move(b))},
                     location);
  return true;
}

// Float + - * is checked for overflow (pg_float8, admit_expr.cpp) but not over EXTRACT's translation: pg_extract
// is typed numeric where it was written and float when admitted again, so the wrapper would not be a fixed point.
bool holds_extract(const ast::Expr& e) {
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  bool found = f && (f->name == "pg_extract" || f->name == "extract" || f->name == "date_part");
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || holds_extract(child); });
  return found;
}

}  // namespace qg::admit::detail
