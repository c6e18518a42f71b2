// Exact decimals on SQLite (issue #12). PostgreSQL computes numeric + - * and
// sum() exactly, at a scale known from the operands (a + b: the larger scale,
// a * b: their sum; sum(x): x's); SQLite computes in doubles, so 0.99 * 3 is
// 2.9699999999999998 there, and `unitprice * 3 = 2.97` or `sum(total) =
// 2328.60` is false where PostgreSQL says true. Such a value is rounded to its
// scale on SQLite, which gives the double nearest the exact decimal (the
// literal it is compared with is that double too):
//
//   a * b, a + b, a - b, sum(x) of a numeric with a known scale s  → pg_numeric(..., 1000, s)
//
// pg_numeric (executors/sqlite/sqlite_numbers.cpp, also CAST(x AS numeric(p, s)))
// fails the statement where the rounding needs more than the 15 significant
// digits a double holds, so a sum beyond them is an error, not other digits.
// Division keeps the double (PostgreSQL chooses its scale from the values), but
// a whole numeric divided by a whole number divides as doubles (exact_division).
// (sum(x) / n of an INTEGER column stays SQLite's integer division: INTEGER
// is PostgreSQL's int4, whose sum is a bigint, divided as integers.)
// Its direct argument is not rounded again when the printed statement is
// admitted again (numeric_checked_), so the rewrite is a fixed point.
#include <string>
#include <variant>

#include "admission/admit/admitter.hpp"

namespace qg::admit::detail {

namespace {

ast::Expr numeric_of(ast::Expr e, int scale) {
  const int location = e.location;
  ast::FuncCall rounded;
  rounded.name = "pg_numeric";
  rounded.args.push_back(std::move(e));
  rounded.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "1000"}));
  rounded.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(scale)}));
  return ast::make_expr(std::move(rounded), location);
}

// Arithmetic of columns, literals, casts and sums only: a translated call's type is not always known the same way
// when the printed statement is admitted again (pg_extract), and the rewrite must be a fixed point.
bool plain(const ast::Expr& e) {
  if (std::holds_alternative<ast::ColumnRef>(e.node) || std::holds_alternative<ast::Literal>(e.node)) return true;
  if (const auto* o = std::get_if<ast::Operator>(&e.node)) return (!o->left || plain(**o->left)) && plain(*o->right);
  if (const auto* c = std::get_if<ast::Cast>(&e.node)) return plain(*c->arg);
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node))
    return f->name == "pg_numeric" || f->name == "count" ||
           (f->name == "sum" && f->args.size() == 1 && plain(f->args.front()));
  return false;
}

}  // namespace

// a / b where one side is a whole numeric (sum(bigint), CAST(x AS numeric)) and the other a whole number:
// PostgreSQL divides as numerics (sum(id) / 2 is 10.5 for a bigint id), SQLite would divide its two integers
// as integers (10). The numeric side passes through pg_numeric(x, 1000, 0), which answers a double (an integer
// past 2^53 fails the statement), so SQLite divides as doubles (outside tester s8, H1).
void Admitter::exact_division(ast::Operator& o, const ExprContext& ctx) {
  const ValueType l = value_type(**o.left, ctx), r = value_type(*o.right, ctx);
  const auto whole = [](ValueType t) {
    return t.type == SqlType::Integer || (t.type == SqlType::Numeric && t.scale == 0);
  };
  if (!whole(l) || !whole(r) || (l.type == SqlType::Integer && r.type == SqlType::Integer)) return;
  ast::Expr& side = l.type == SqlType::Numeric ? **o.left : *o.right;
  if (const auto* f = std::get_if<ast::FuncCall>(&side.node); f && f->name == "pg_numeric") return;
  if (numeric_checked_.contains(&side) || !plain(side)) return;
  side = numeric_of(std::move(side), 0);
  note_rewrite("dialect:numeric-division");
}

// sum(x) of a numeric of unknown scale (x::numeric of a float8, a NUMERIC column) and avg(x) of any numeric:
// SQLite adds doubles, and its sum drifts from PostgreSQL's exact one (sum(cost_usd::numeric) answered
// 67.85329300000005 for 67.853293000; outside tester s10). pg_numeric_sum / pg_numeric_avg
// (executors/sqlite/sqlite_aggregates.cpp) add the values' decimals exactly, each read as PostgreSQL's numeric
// holds it: 'float8' for a cast of a float (15 significant digits), else 'numeric'. In a window (OVER) or with
// DISTINCT the call stays SQLite's (the registered aggregates are neither).
void Admitter::exact_numeric_aggregate(ast::FuncCall& f, const ExprContext& ctx) {
  if (f.over || f.distinct) return;
  // CAST(x AS numeric) of a float8 x, also as printed: CAST(pg_number(x, 'numeric') AS NUMERIC_REAL).
  const auto* cast = std::get_if<ast::Cast>(&f.args.front().node);
  const ast::Expr* inner = cast ? &*cast->arg : nullptr;
  if (const auto* g = inner ? std::get_if<ast::FuncCall>(&inner->node) : nullptr;
      g && g->name == "pg_number" && !g->args.empty())
    inner = &g->args.front();
  const bool from_float = inner != nullptr && value_type(*inner, ctx).type == SqlType::Float;
  f.name = f.name == "sum" ? "pg_numeric_sum" : "pg_numeric_avg";
  f.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, from_float ? "float8" : "numeric"}));
  note_rewrite("dialect:numeric-" + std::string(f.name == "pg_numeric_sum" ? "sum" : "avg"));
}

void Admitter::numeric_scale_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite || numeric_checked_.contains(&e)) return;
  if (auto* o = std::get_if<ast::Operator>(&e.node)) {
    if (o->left && o->op == "/") return exact_division(*o, ctx);
    if (!o->left || (o->op != "+" && o->op != "-" && o->op != "*")) return;
  } else if (auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    if ((f->name != "sum" && f->name != "avg") || f->args.size() != 1 || f->star) return;
    const ValueType arg = value_type(f->args.front(), ctx);
    if (arg.type != SqlType::Numeric) return;  // sum(bigint) is exact on SQLite
    if (f->name == "avg" || arg.scale < 0) return exact_numeric_aggregate(*f, ctx);
  } else {
    return;
  }
  if (!plain(e)) return;
  const ValueType t = value_type(e, ctx);
  if (t.type != SqlType::Numeric || t.scale < 0 || t.scale > 15) return;
  e = numeric_of(std::move(e), t.scale);
  note_rewrite("dialect:numeric-scale");
}

}  // namespace qg::admit::detail
