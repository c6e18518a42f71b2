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
// Other + - * of numerics, division and sum / avg of unknown scale are exact
// too, in functions of their own (exact_operator,
// exact_numeric_aggregate). (sum(x) / n of an INTEGER
// column stays SQLite's integer division: INTEGER is PostgreSQL's int4, whose
// sum is a bigint, divided as integers.)
// Its direct argument is not rounded again when the printed statement is
// admitted again (numeric_checked_), so the rewrite is a fixed point.
#include <algorithm>
#include <string>
#include <string_view>
#include <variant>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"

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

ast::Expr text_literal(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}

// e made pg_numeric_value(e): an exact value held as its decimal text, read as the double nearest it by all but the
// exact readers, which unwrap it (exact_text).
void read_as_value(ast::Expr& e) {
  const int at = e.location;
  ast::FuncCall value;
  value.name = "pg_numeric_value";
  value.args.push_back(std::move(e));
  e = ast::make_expr(std::move(value), at);
}

// ORDER BY or GROUP BY `key` names select item i (its name or position).
bool names_item(const ast::Expr& key, const ast::Select& s, std::size_t i, Dialect dialect) {
  if (const auto position = ast::integer_value(key)) return *position == static_cast<std::int64_t>(i) + 1;
  const auto* ref = std::get_if<ast::ColumnRef>(&key.node);
  const auto& item = s.items[i];
  if (!ref || ref->star || !ref->table.empty()) return false;
  if (key == item.expr) return true;
  if (!item.alias.empty()) return catalog::Catalog::same_name(ref->column, item.alias, dialect);
  // An item without an alias is named by its column: x, or pg_numeric_value(x) (a derived table's exact column).
  // (Any other was taken for named by every key: ORDER BY kind sorted by coalesce(id / 3.0, 0), a 500.)
  const ast::Expr* x = &item.expr;
  if (const auto* f = std::get_if<ast::FuncCall>(&x->node); f && f->name == "pg_numeric_value" && f->args.size() == 1)
    x = &f->args.front();
  const auto* column = std::get_if<ast::ColumnRef>(&x->node);
  return column && !column->star && catalog::Catalog::same_name(column->column, ref->column, dialect);
}

// ORDER BY select item i (its name or position), whose value is about to become text: by the double, written out.
void order_by_double(ast::Query& q, const ast::Select& s, std::size_t i, Dialect dialect) {
  for (auto& k : q.order_by)
    if (names_item(*k.expr, s, i, dialect)) {
      const int at = k.expr->location;
      *k.expr = s.items[i].expr;
      k.expr->location = at;
    }
}

// A query whose (first) output column is an exact call in some member: a SELECT's, a set operation's branch's, a
// VALUES row's.
bool exact_output(const ast::Query& q) {
  if (const auto* s = std::get_if<ast::Select>(&q.body)) return !s->items.empty() && exact_call(s->items.front().expr);
  if (const auto* set = std::get_if<ast::SetOp>(&q.body)) return exact_output(*set->left) || exact_output(*set->right);
  const auto& v = std::get<ast::Values>(q.body);
  return std::any_of(v.rows.begin(), v.rows.end(),
                     [](const std::vector<ast::Expr>& row) { return !row.empty() && exact_call(row.front()); });
}

ast::Expr numeric_key(ast::Expr e, bool from_float) {
  exact_text(e);
  const int at = e.location;
  ast::FuncCall key;
  key.name = "pg_numeric_key";
  key.args.push_back(std::move(e));
  key.args.push_back(text_literal(from_float ? "f" : "n"));
  return ast::make_expr(std::move(key), at);
}

// e written as x COLLATE pg_numeric (a call the printer writes so).
bool collated(const ast::Expr& e) {
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  return f && f->name == "pg_numeric_collate" && f->args.size() == 1;
}

// `value` (a decimal text, or a number: its decimal at `scale` when known) as (pg_numeric_decimal(value, 'n'[,
// scale])) COLLATE pg_numeric.
ast::Expr collate(ast::Expr value, int scale) {
  const int at = value.location;
  ast::FuncCall decimal;
  decimal.name = "pg_numeric_decimal";
  decimal.args.push_back(std::move(value));
  decimal.args.push_back(text_literal("n"));
  if (scale >= 0)
    decimal.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(scale)}));
  ast::FuncCall c;
  c.name = "pg_numeric_collate";
  c.sql_syntax = true;
  c.args.push_back(ast::make_expr(std::move(decimal), at));
  return ast::make_expr(std::move(c), at);
}

}  // namespace

// A numeric SQLite sorts, groups and dedupes by value (issue #12): as its decimal text under the pg_numeric
// collation (executors/sqlite/sqlite_decimals.cpp), which compares texts as the numerics they write. An exact call
// answers its text (every digit PostgreSQL's numeric has: its double would make 2 / 3.0 and 1 / 3.0 + 1 / 3.0 one
// value, and print 0.6666666666666666 for 0.66666666666666666667); a plain number its decimal (SQLite sorts every
// number before every text, so a column that holds one text holds texts only); a numeric literal its digits as
// written (2.50, PostgreSQL's scale). false: `e` unchanged (already so, or an exact call whose digits past the
// double's would be made up: double_of_exact).
bool collated_numeric(ast::Expr& e, int scale) {
  if (collated(e)) return false;
  if (exact_call(e)) {
    ast::Expr before = e;
    if (!exact_text(e) || double_of_exact(e)) {
      e = std::move(before);
      return false;
    }
    e = collate(std::move(e), -1);
    return true;
  }
  if (auto* l = std::get_if<ast::Literal>(&e.node); l && l->kind == ast::LiteralKind::Numeric) {
    e = collate(text_literal(l->text), -1);
    return true;
  }
  e = collate(std::move(e), scale);
  return true;
}

// A numeric literal whose digits a double does not keep (2.50, 1.0: PostgreSQL's scale, which its text shows:
// (x * 2)::text of VALUES (2.50) is '5.00'; outside tester s16b).
bool scaled_literal(const ast::Expr& e) {
  const auto* l = std::get_if<ast::Literal>(&e.node);
  return l && l->kind == ast::LiteralKind::Numeric && l->text.find('.') != std::string::npos &&
         l->text.find_first_of("eE") == std::string::npos && l->text.back() == '0';
}

// A key (GROUP BY, ORDER BY) that collated_numeric may make text: not a COALESCE or CASE with a result that is not
// exact (coalesce(v, 0::float8) is a float8 in PostgreSQL, compared as doubles; outside tester s16b).
bool exact_key(const ast::Expr& e) {
  const auto exact_or_literal = [](const ast::Expr& r) {
    const auto* l = std::get_if<ast::Literal>(&r.node);
    return exact_call(r) || (l && (l->kind == ast::LiteralKind::Integer || l->kind == ast::LiteralKind::Numeric ||
                                   l->kind == ast::LiteralKind::Null));
  };
  if (const auto* c = std::get_if<ast::Coalesce>(&e.node))
    return std::all_of(c->args.begin(), c->args.end(), exact_or_literal);
  if (const auto* c = std::get_if<ast::Case>(&e.node))
    return std::all_of(c->whens.begin(), c->whens.end(),
                       [&](const ast::CaseWhen& w) { return exact_or_literal(*w.result); }) &&
           (!c->otherwise || exact_or_literal(**c->otherwise));
  return exact_call(e);
}

// An exact call's (or a derived table's exact column's) double that flows on into the expression, through a
// function that is no exact reader (lag, min, greatest ...): exact arithmetic over it would print digits no operand
// had (v - lag(v) printed 0.33333333333333336667 for PostgreSQL's 0.33333333333333333334; outside tester s14c).
bool double_of_exact(const ast::Expr& e) {
  bool found = false;
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (f && f->over) {  // a window's value, not its PARTITION BY / ORDER BY keys (which sort by the double)
    for (const auto& a : f->args) found = found || double_of_exact(a);
  } else {
    ast::for_each_child(e, [&](const ast::Expr& child) { found = found || double_of_exact(child); });
  }
  if (found || !f || f->args.empty() || !exact_call(e) || f->name == "pg_single") return found;
  if (f->name == "pg_numeric_value") return true;
  if (f->name == "pg_numeric_collate" || f->name == "pg_numeric_decimal" || exact_ordered_call(*f))
    return false;  // text, every digit
  const auto* mode = std::get_if<ast::Literal>(&(f->name == "pg_numeric_math" ? f->args.front() : f->args.back()).node);
  if (!mode) return true;
  const std::string& m = mode->text;
  if (f->name == "pg_numeric_math") return !m.ends_with(":t");
  if (f->name == "pg_numeric_div" || f->name == "pg_numeric_arith") return m.size() < 3;
  const auto colon = m.find(':');
  return colon == std::string::npos || m.find('t', colon) == std::string::npos;
}

// The expression with every pg_numeric_value(v) made v.
void without_values(ast::Expr& e) {
  ast::for_each_child(e, [](ast::Expr& child) { without_values(child); });
  if (auto* f = std::get_if<ast::FuncCall>(&e.node); f && f->name == "pg_numeric_value" && f->args.size() == 1) {
    ast::Expr column = std::move(f->args.front());
    e = std::move(column);
  }
}

// A call that computes a numeric exactly on SQLite (this file's translations): its answer is the double nearest
// PostgreSQL's value, or, asked so, that value's decimal text. COALESCE and CASE pass one on (floor(coalesce(5.0 / 7
// * 7, 0)) was 5; outside tester s13b).
bool exact_call(const ast::Expr& e) {
  if (const auto* c = std::get_if<ast::Coalesce>(&e.node))
    return std::any_of(c->args.begin(), c->args.end(), [](const ast::Expr& a) { return exact_call(a); });
  if (const auto* c = std::get_if<ast::Case>(&e.node))
    return std::any_of(c->whens.begin(), c->whens.end(),
                       [](const ast::CaseWhen& w) { return exact_call(*w.result); }) ||
           (c->otherwise && exact_call(**c->otherwise));
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  // A scalar subquery's one row (scalar_subquery.cpp) passes its value on.
  if (f && f->name == "pg_single" && f->args.size() == 1 && !f->over) return exact_call(f->args.front());
  if (f && exact_ordered_call(*f)) return true;
  static constexpr std::string_view kExact[] = {
      "pg_numeric_div",     "pg_numeric_arith",   "pg_numeric_math",      "pg_numeric_sum",
      "pg_numeric_avg",     "pg_numeric_value",   "pg_numeric_max",       "pg_numeric_min",
      "pg_var_samp_exact",  "pg_var_pop_exact",   "pg_stddev_samp_exact", "pg_stddev_pop_exact",
      "pg_numeric_collate", "pg_numeric_decimal", "pg_numeric_greatest",  "pg_numeric_least"};
  return f && !f->args.empty() && std::find(std::begin(kExact), std::end(kExact), f->name) != std::end(kExact);
}

// percentile_disc / mode() of exact values (exact_ordered_set): their answer is the chosen value's text.
bool exact_ordered_call(const ast::FuncCall& f) {
  const bool ordered =
      (f.name == "pg_percentile_disc" && f.args.size() == 3) || (f.name == "pg_mode" && f.args.size() == 2);
  const auto flag = ordered ? ast::integer_value(f.args.back()) : std::nullopt;
  return flag && (*flag & 2) != 0 && !f.over;
}

// An exact call asked for its decimal text, for another exact computation to read every digit of it (floor(5.0 / 7
// * 7) is 4 on PostgreSQL: 4.99999999999999999997; the double is 5). Its mode literal says so: pg_numeric_math's
// name ends in ":t", pg_numeric_div's and pg_numeric_arith's `from` gains a third letter 't', the sums' a flag 't'
// after a colon; a COALESCE's or CASE's exact results each. false: not an exact call.
bool exact_text(ast::Expr& e) {
  if (auto* c = std::get_if<ast::Coalesce>(&e.node)) {
    bool any = false;
    for (auto& a : c->args) any = exact_text(a) || any;
    return any;
  }
  if (auto* c = std::get_if<ast::Case>(&e.node)) {
    bool any = false;
    for (auto& w : c->whens) any = exact_text(*w.result) || any;
    if (c->otherwise) any = exact_text(**c->otherwise) || any;
    return any;
  }
  if (!exact_call(e)) return false;
  auto& f = std::get<ast::FuncCall>(e.node);
  if (f.name == "pg_single") return exact_text(f.args.front());
  if (f.name == "pg_numeric_collate" || f.name == "pg_numeric_decimal" || exact_ordered_call(f))
    return true;                       // text already
  if (f.name == "pg_numeric_value") {  // a derived table's exact column: its text
    ast::Expr column = std::move(f.args.front());
    e = std::move(column);
    return true;
  }
  auto* mode = std::get_if<ast::Literal>(&(f.name == "pg_numeric_math" ? f.args.front() : f.args.back()).node);
  if (!mode || mode->kind != ast::LiteralKind::String) return false;
  std::string& m = mode->text;
  if (f.name == "pg_numeric_math") {
    if (!m.ends_with(":t")) m += ":t";
  } else if (f.name == "pg_numeric_div" || f.name == "pg_numeric_arith") {
    if (m.size() == 2) m += "t";
  } else if (const auto colon = m.find(':'); colon == std::string::npos) {
    m += ":t";
  } else if (m.find('t', colon) == std::string::npos) {
    m += "t";
  }
  return true;
}

// The same exact call asking for its double (exact_text's mode flag taken off its top node; nested exact operands
// keep their text): what GROUP BY x / 3.0 groups by where the select list prints x / 3.0's text. false: not an
// exact call with a text flag.
bool exact_double(ast::Expr& e) {
  auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (!f || f->args.empty() || !exact_call(e) || f->name == "pg_numeric_value" || f->name == "pg_single" ||
      f->name == "pg_numeric_collate" || f->name == "pg_numeric_decimal" || exact_ordered_call(*f))
    return false;
  auto* mode = std::get_if<ast::Literal>(&(f->name == "pg_numeric_math" ? f->args.front() : f->args.back()).node);
  if (!mode || mode->kind != ast::LiteralKind::String) return false;
  std::string& m = mode->text;
  if (f->name == "pg_numeric_math") {
    if (!m.ends_with(":t")) return false;
    m.resize(m.size() - 2);
  } else if (f->name == "pg_numeric_div" || f->name == "pg_numeric_arith") {
    if (m.size() != 3 || m.back() != 't') return false;
    m.pop_back();
  } else {
    const auto colon = m.find(':');
    const auto t = colon == std::string::npos ? std::string::npos : m.find('t', colon);
    if (t == std::string::npos) return false;
    m.erase(t, 1);
    if (m.back() == ':') m.pop_back();
  }
  return true;
}

// The operand of a numeric division or sum that is CAST(x AS numeric) of a float8 x, also as printed:
// CAST(pg_number(x, 'numeric') AS NUMERIC_REAL). PostgreSQL's numeric holds 15 significant digits of it.
bool Admitter::numeric_of_float(const ast::Expr& e, const ExprContext& ctx) {
  const auto* cast = std::get_if<ast::Cast>(&e.node);
  const ast::Expr* inner = cast ? &*cast->arg : nullptr;
  if (const auto* g = inner ? std::get_if<ast::FuncCall>(&inner->node) : nullptr;
      g && g->name == "pg_number" && !g->args.empty())
    inner = &g->args.front();
  return inner != nullptr && value_type(*inner, ctx).type == SqlType::Float;
}

// sum(x) of a numeric of unknown scale (x::numeric of a float8, a NUMERIC column) and avg(x) of any numeric:
// SQLite adds doubles, and its sum drifts from PostgreSQL's exact one (sum(cost_usd::numeric) answered
// 67.85329300000005 for 67.853293000; outside tester s10). pg_numeric_sum / pg_numeric_avg
// (executors/sqlite/sqlite_aggregates.cpp) add the values' decimals exactly, each read as PostgreSQL's numeric
// holds it: 'float8' for a cast of a float (15 significant digits), else 'numeric'; also in a window (OVER: the
// functions are window functions too). With DISTINCT the call stays SQLite's (the aggregate does not dedupe).
void Admitter::exact_numeric_aggregate(ast::FuncCall& f, const ExprContext& ctx) {
  if (f.distinct && f.over) return;
  const bool from_float = numeric_of_float(f.args.front(), ctx);
  // sum(x / 3): each value is the quotient's decimal text, read as a decimal (flag 'd'). DISTINCT: each value once,
  // by its numeric value (flag 'u'; sum(DISTINCT x / 3.0) added SQLite's doubles: outside tester s16).
  const ValueType arg = value_type(f.args.front(), ctx);
  const bool exact_values = exact_text(f.args.front());
  // A known scale (extract(epoch ...)'s 6): each value read at it, so that the sum has PostgreSQL's (0.048000).
  std::string flags = (arg.scale >= 0 && arg.scale <= 1000 ? std::to_string(arg.scale) : "") +
                      (exact_values ? "d" : "") + (f.distinct ? "u" : "");
  f.distinct = false;
  f.name = f.name == "sum" ? "pg_numeric_sum" : "pg_numeric_avg";
  f.args.push_back(text_literal(std::string(from_float ? "float8" : "numeric") + (flags.empty() ? "" : ":" + flags)));
  note_rewrite("dialect:numeric-" + std::string(f.name == "pg_numeric_sum" ? "sum" : "avg"));
}

// a / b of numerics (a numeric and an integer, or two numerics): PostgreSQL divides exactly, at a scale it chooses
// from the values (select_div_scale), SQLite divides doubles (cost_usd::numeric / 7 answered
// 0.0002052914285714286 for 0.00020529142857142857; outside tester s11) or, for two whole numbers, integers
// (sum(id) / 2 answered 10 for 10.5). pg_numeric_div(a, b, from) (executors/sqlite/sqlite_decimals.cpp) divides
// the decimals PostgreSQL's numeric holds ('f' for an operand cast from a float8, else 'n') as numeric_div does
// and answers the double nearest the quotient.
// And a + b, a - b, a * b of numerics that pg_numeric cannot round (an operand that is not plain: abs(-0.1) + 0.2,
// latency_ms * 0.3, extract(epoch ...) * 1000; or a scale that is not known): pg_numeric_arith(a, b, op, from)
// (executors/sqlite/sqlite_decimals.cpp) computes on the operands' decimals exactly and answers the double nearest
// the result (SQLite's doubles answered abs(-0.1) + 0.2 = 0.3 false, floor(abs(4.35) * 100) 434; outside tester
// s12).
// Both print as a call of the operands, (for + - *) the operator, and `from`: a letter for each operand, 'f' for a
// float8 cast to numeric (15 significant digits), else 'n'.
void Admitter::exact_operator(ast::Expr& e, const ExprContext& ctx) {
  auto& o = std::get<ast::Operator>(e.node);
  std::string from = numeric_of_float(**o.left, ctx) ? "f" : "n";
  from += numeric_of_float(*o.right, ctx) ? "f" : "n";
  // An operand of a known scale as its decimal text at that scale: the result's scale follows the operands'
  // (select_div_scale; x * y adds them, x + y keeps the larger), which a double's shortest text does not hold
  // (round(4474::numeric, 20) / 3.0 had 16 places, outside tester s20d; extract(epoch FROM d) * 1000 printed 60.00
  // for PostgreSQL's 60.000000, outside tester s21c).
  for (std::size_t i : {0, 1}) {
    ast::Expr& side = i == 0 ? **o.left : *o.right;
    const ValueType typed = value_type(side, ctx);
    const int scale = typed.type == SqlType::Numeric ? typed.scale : -1;
    if (scale < 1 || scale > 1000 || std::holds_alternative<ast::Literal>(side.node) || exact_call(side)) continue;
    const int at = side.location;
    ast::FuncCall decimal;
    decimal.name = "pg_numeric_decimal";
    decimal.args.push_back(std::move(side));
    decimal.args.push_back(text_literal(std::string(1, from[i])));
    decimal.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(scale)}));
    side = ast::make_expr(std::move(decimal), at);
  }
  const bool division = o.op == "/";
  const int location = e.location;
  ast::FuncCall exact;
  exact.name = division ? "pg_numeric_div" : "pg_numeric_arith";
  exact.args.push_back(std::move(**o.left));
  exact.args.push_back(std::move(*o.right));
  if (!division) exact.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, o.op}));
  exact.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(from)}));
  // x % 2.50, x * 1.0: the literal's digits as written, whose scale is the result's (SQLite's double 2.5 printed 1.5
  // for 7 % 2.50's 1.50, and 1.0 printed 60 for (latency_ms * 1.0)::text's 60.0; outside testers s15, s16b).
  for (std::size_t i : {0, 1})
    if (auto* l = std::get_if<ast::Literal>(&exact.args[i].node); l && l->kind == ast::LiteralKind::Numeric)
      l->kind = ast::LiteralKind::String;
  // An operand that is itself one of these exact calls answers its decimal text, not a double: 2.0 / 3 * 3 is
  // 2.00000000000000000001 on PostgreSQL (floor 2), the double of 2.0 / 3 times 3 is 1.9999999999999998.
  exact_text(exact.args[0]);
  exact_text(exact.args[1]);
  e = ast::make_expr(std::move(exact), location);
  note_rewrite(division ? "dialect:numeric-division" : "dialect:numeric-arithmetic");
}

// a / b of double precision: a value PostgreSQL types float8 can be an SQLite integer (coalesce(NULL::float8, 7),
// date_part('hour', t), greatest(1::float8, 7), a UNION of 7 and 1.5::float8), and SQLite divides two integers as
// integers (3 for PostgreSQL's 3.5; outside tester s12). Each operand that is not already a float8 cast is cast
// to DOUBLE PRECISION (REAL on SQLite), so the division is a double's.
void Admitter::float_division(ast::Operator& o, const ExprContext& ctx) {
  bool changed = false;
  for (ast::Box<ast::Expr>* side : {&*o.left, &o.right}) {
    ast::Expr& x = **side;
    if (const auto* c = std::get_if<ast::Cast>(&x.node); c && (c->type.name == "float8" || c->type.name == "float4"))
      continue;
    if (const auto* l = std::get_if<ast::Literal>(&x.node); l && l->kind != ast::LiteralKind::Integer) continue;
    const ValueType t = value_type(x, ctx);
    if (t.type != SqlType::Float && t.type != SqlType::Integer) continue;
    const int at = x.location;
    x = ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(x)), ast::TypeName{"float8", {}}}, at);
    changed = true;
  }
  if (changed) note_rewrite("dialect:float-division");
}

// a = b, a < b, ... where a or b is an exact call (and neither a float8: PostgreSQL compares a numeric with a float8
// as doubles): pg_numeric_cmp(a, b, from) = 0, ... (executors/sqlite/sqlite_decimals.cpp) compares the decimals
// (1.0 / 3 * 3 = 1 was true on SQLite, whose double of 0.99999999999999999999 is 1; latency_ms / 3.0 * 3 =
// latency_ms counted 63 176 rows for 20 931; outside tester s12).
void Admitter::exact_comparison(ast::Expr& e, const ExprContext& ctx) {
  auto& o = std::get<ast::Operator>(e.node);
  if (!exact_call(**o.left) && !exact_call(*o.right)) return;
  for (const ast::Expr* side : {&**o.left, &*o.right}) {
    const SqlType t = value_type(*side, ctx).type;
    if (t != SqlType::Numeric && t != SqlType::Integer) return;
  }
  std::string from = numeric_of_float(**o.left, ctx) ? "f" : "n";
  from += numeric_of_float(*o.right, ctx) ? "f" : "n";
  ast::FuncCall cmp;
  cmp.name = "pg_numeric_cmp";
  cmp.args.push_back(std::move(**o.left));
  cmp.args.push_back(std::move(*o.right));
  exact_text(cmp.args[0]);
  exact_text(cmp.args[1]);
  cmp.args.push_back(text_literal(std::move(from)));
  const int at = cmp.args[0].location;
  *o.left = ast::make_expr(std::move(cmp), at);
  *o.right = ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "0"});
  note_rewrite("dialect:numeric-comparison");
}

// x BETWEEN a AND b and x IN (a, b, ...) where one of them is an exact call: x >= a AND x <= b, x = a OR x = b ...
// (NOT ... when negated: PostgreSQL defines them so, NULLs included), each an exact comparison.
void Admitter::exact_membership(ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return;
  const auto comparison = [&](std::string op, const ast::Expr& a, const ast::Expr& b) {
    ast::Expr c =
        ast::make_expr(ast::Operator{std::move(op), ast::Box<ast::Expr>(a), ast::Box<ast::Expr>(b)}, a.location);
    exact_comparison(c, ctx);
    return c;
  };
  ast::BoolOp test;
  bool negated = false;
  if (const auto* b = std::get_if<ast::Between>(&e.node)) {
    if (b->symmetric || (!exact_call(*b->arg) && !exact_call(*b->low) && !exact_call(*b->high))) return;
    test.args.push_back(comparison(">=", *b->arg, *b->low));
    test.args.push_back(comparison("<=", *b->arg, *b->high));
    negated = b->negated;
  } else if (const auto* in = std::get_if<ast::InList>(&e.node)) {
    if (!exact_call(*in->arg) && std::none_of(in->items.begin(), in->items.end(), exact_call)) return;
    test.kind = ast::BoolOpKind::Or;
    for (const auto& item : in->items) test.args.push_back(comparison("=", *in->arg, item));
    negated = in->negated;
  } else {
    return;
  }
  const int at = e.location;
  if (test.args.size() == 1) {  // x IN (a): one comparison (a BoolOp of one operand does not print)
    ast::Expr only = std::move(test.args.front());
    e = std::move(only);
  } else {
    e = ast::make_expr(std::move(test), at);
  }
  if (negated) {
    ast::BoolOp no{ast::BoolOpKind::Not, {}};
    no.args.push_back(std::move(e));
    e = ast::make_expr(std::move(no), at);
  }
}

void Admitter::numeric_scale_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite || numeric_checked_.contains(&e)) return;
  if (auto* o = std::get_if<ast::Operator>(&e.node)) {
    static constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<", ">", "<=", ">="};
    if (o->left && std::find(std::begin(kComparisons), std::end(kComparisons), o->op) != std::end(kComparisons))
      return exact_comparison(e, ctx);
    if (!o->left && o->op == "-" && exact_call(*o->right)) {
      // -(x / 3): 0 - x, exact (a prefix minus of a double loses the digits an operator above it reads).
      o->left = ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "0"});
      return exact_operator(e, ctx);
    }
    // x % y (and mod(x, y), made x % y) of numerics: exact (pg_mod's fmod of the doubles printed 0.666666666667 for
    // (x / 3.0) % 1's 0.6666666666666667; outside tester s15).
    if (o->left && o->op == "%") {
      if (value_type(e, ctx).type == SqlType::Numeric) exact_operator(e, ctx);
      return;
    }
    if (!o->left || (o->op != "+" && o->op != "-" && o->op != "*" && o->op != "/")) return;
    const ValueType t = value_type(e, ctx);
    if (t.type == SqlType::Float && o->op == "/") return float_division(*o, ctx);
    if (t.type != SqlType::Numeric) return;
    if (o->op == "/" || !plain(e) || t.scale < 0 || t.scale > 15) return exact_operator(e, ctx);
  } else if (auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    // A window's PARTITION BY / ORDER BY of an exact value, count(DISTINCT x) of one: by value (collated_numeric; a
    // window ordered by the doubles ranked 2 / 3.0 and 1 / 3.0 + 1 / 3.0 alike; outside tester s15c).
    if (f->over) {
      const auto numeric = [&](const ast::Expr& key) {
        return exact_call(key) && value_type(key, ctx).type == SqlType::Numeric;
      };
      for (auto& key : f->over->partition_by)
        if (numeric(key)) collated_numeric(key, -1);
      // (RANGE with an offset computes on its ORDER BY key: the doubles)
      const auto offset = [](const ast::FrameBound& b) {
        return b.kind == ast::FrameBoundKind::Preceding || b.kind == ast::FrameBoundKind::Following;
      };
      const ast::WindowFrame& frame = f->over->frame;
      const bool range_offset =
          frame.mode == ast::FrameMode::Range && (offset(frame.start) || (frame.end && offset(*frame.end)));
      for (auto& key : f->over->order_by)
        if (numeric(*key.expr) && !range_offset) collated_numeric(*key.expr, -1);
    }
    if (f->name == "count" && f->distinct && f->args.size() == 1 && exact_call(f->args.front()) &&
        value_type(f->args.front(), ctx).type == SqlType::Numeric)
      collated_numeric(f->args.front(), -1);
    if (exact_ordered_set(e)) return;
    // array_agg(x) of an exact x (pg_array_agg(x, spec, key...): arrays_on_sqlite.cpp): each element its decimal
    // text, which the answer prints as the numeric (the doubles' digits: array_agg(id / 3.0) printed
    // 0.3333333333333333; outside tester s15). Not with DISTINCT (spec 'D...'), which compares the elements.
    if (f->name == "pg_array_agg" && f->args.size() >= 2 && !f->over && exact_call(f->args.front())) {
      const auto* spec = std::get_if<ast::Literal>(&f->args[1].node);
      ast::Expr before = f->args.front();
      if (spec && !spec->text.starts_with("D") && exact_text(f->args.front()) && !double_of_exact(f->args.front())) {
        ast::Expr a = f->args.front(), b = before;
        without_values(a);
        without_values(b);
        if (!(a == b)) note_rewrite("dialect:numeric-array-element");
      } else {
        f->args.front() = std::move(before);
      }
      return;
    }
    if (exact_function(e, ctx)) return;
    if (float_window_sum(*f, ctx)) return;
    if (exact_extreme(*f) || exact_window_value(e)) return;
    if ((f->name != "sum" && f->name != "avg") || f->args.size() != 1 || f->star) return;
    const ValueType arg = value_type(f->args.front(), ctx);
    // avg of integers is PostgreSQL's numeric too (int4_avg_accum ... numeric_div): 7009.2779770444763271, where
    // SQLite's double answered 7009.277977044477 (outside tester s14). sum(bigint) is exact on SQLite.
    if (f->name == "avg" && arg.type == SqlType::Integer) return exact_numeric_aggregate(*f, ctx);
    if (arg.type != SqlType::Numeric) return;
    if (f->name == "avg" || arg.scale < 0 || arg.scale > 15 || !plain(e)) return exact_numeric_aggregate(*f, ctx);
  } else {
    return;
  }
  const ValueType t = value_type(e, ctx);
  if (t.type != SqlType::Numeric || t.scale < 0 || t.scale > 15) return;
  e = numeric_of(std::move(e), t.scale);
  note_rewrite("dialect:numeric-scale");
}

// a IS [NOT] DISTINCT FROM b of numerics with an exact one: pg_numeric_key(a) IS [NOT] DISTINCT FROM
// pg_numeric_key(b), one text per numeric value, NULLs as they are (SQLite compared the doubles:
// sum(x / 3.0) IS DISTINCT FROM sum(x) / 3.0 was false where PostgreSQL says true; outside tester s16b).
void Admitter::exact_distinct_from(ast::DistinctFrom& d, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite || (!exact_call(*d.left) && !exact_call(*d.right))) return;
  for (const ast::Expr* side : {&*d.left, &*d.right}) {
    const SqlType t = value_type(*side, ctx).type;
    if (t != SqlType::Numeric && t != SqlType::Integer && t != SqlType::Null) return;
  }
  const bool left_float = numeric_of_float(*d.left, ctx), right_float = numeric_of_float(*d.right, ctx);
  *d.left = numeric_key(std::move(*d.left), left_float);
  *d.right = numeric_key(std::move(*d.right), right_float);
  note_rewrite("dialect:numeric-distinct-from");
}

// CASE x WHEN y ... of numerics with an exact x or y: CASE WHEN x = y ..., each comparison exact (SQLite compared
// the doubles: CASE (1 / 3.0) * 3 WHEN 1 answered the WHEN branch; outside tester s16b).
void Admitter::exact_case_operand(ast::Expr& e, const ExprContext& ctx) {
  auto* c = std::get_if<ast::Case>(&e.node);
  if (dialect_ != Dialect::Sqlite || !c || !c->operand) return;
  const ast::Expr& x = **c->operand;
  if (!exact_call(x) &&
      std::none_of(c->whens.begin(), c->whens.end(), [](const ast::CaseWhen& w) { return exact_call(*w.condition); }))
    return;
  const SqlType t = value_type(x, ctx).type;
  if (t != SqlType::Numeric && t != SqlType::Integer) return;
  for (auto& w : c->whens) {
    const SqlType v = value_type(*w.condition, ctx).type;
    if (v != SqlType::Numeric && v != SqlType::Integer && v != SqlType::Null) return;
  }
  for (auto& w : c->whens) {
    const int at = w.condition->location;
    ast::Expr equal =
        ast::make_expr(ast::Operator{"=", ast::Box<ast::Expr>(x), ast::Box<ast::Expr>(std::move(*w.condition))}, at);
    exact_comparison(equal, ctx);
    *w.condition = std::move(equal);
  }
  c->operand.reset();
  note_rewrite("dialect:numeric-case");
}

// An ORDER BY key of string_agg / array_agg (pg_string_agg, pg_array_agg: sort_letters' two letters): an exact
// numeric key passes its decimal text, the direction letter upper case ('A', 'D'), which the aggregate compares as
// numerics (sqlite_aggregates.cpp; the doubles made (1 / 3.0) * 3 and 1.0 one key; outside tester s16b).
std::string Admitter::exact_sort_key(ast::SortItem& item, const ExprContext& ctx) {
  std::string letters = sort_letters(item);
  ast::Expr& key = *item.expr;
  if (dialect_ != Dialect::Sqlite || !exact_call(key) || value_type(key, ctx).type != SqlType::Numeric) return letters;
  ast::Expr before = key;
  if (!exact_text(key) || double_of_exact(key)) {
    key = std::move(before);
    return letters;
  }
  letters[0] = letters[0] == 'd' ? 'D' : 'A';
  note_rewrite("dialect:numeric-sort-key");
  return letters;
}

// max(x) / min(x) of an exact call (x / 3.0, avg(...), a derived table's exact column): pg_numeric_max(x, 'numeric')
// (executors/sqlite/sqlite_aggregates.cpp) compares the decimals and keeps the value's digits, an exact call itself
// (SQLite's max of the doubles: `a = (SELECT max(a) FROM m)` found no row; outside tester s15). DISTINCT changes
// nothing in a max; a window's too.
bool Admitter::exact_extreme(ast::FuncCall& f) {
  if ((f.name != "max" && f.name != "min") || f.args.size() != 1 || f.star || !f.order_by.empty() ||
      !exact_call(f.args.front()))
    return false;
  ast::Expr before = f.args.front();
  exact_text(f.args.front());
  if (double_of_exact(f.args.front())) {
    f.args.front() = std::move(before);
    return false;
  }
  f.distinct = false;
  f.name = f.name == "max" ? "pg_numeric_max" : "pg_numeric_min";
  f.args.push_back(text_literal("numeric"));
  note_rewrite("dialect:numeric-" + std::string(f.name == "pg_numeric_max" ? "max" : "min"));
  return true;
}

// percentile_disc / mode() WITHIN GROUP (ORDER BY x) of an exact x (pg_percentile_disc(p, x, flags), pg_mode(x,
// flags): aggregates_on_sqlite.cpp): the values' decimal texts ordered as numerics (flag 2, sqlite_aggregates.cpp),
// the chosen one's text read as pg_numeric_value(...), which exact readers unwrap (the doubles' order and digits:
// `a >= (SELECT percentile_disc(0.9) ...)` lost a row; outside tester s15c). false: not one.
bool Admitter::exact_ordered_set(ast::Expr& e) {
  auto& f = std::get<ast::FuncCall>(e.node);
  const bool disc = f.name == "pg_percentile_disc" && f.args.size() == 3,
             mode = f.name == "pg_mode" && f.args.size() == 2;
  if ((!disc && !mode) || f.over) return false;
  ast::Expr& value = f.args[disc ? 1 : 0];
  auto* flags = std::get_if<ast::Literal>(&f.args.back().node);
  const auto flag = ast::integer_value(f.args.back());
  if (!flags || !flag || !exact_call(value)) return false;
  if ((*flag & 2) != 0) {  // so already (admitted again): the values' texts
    exact_text(value);
    return false;
  }
  ast::Expr before = value;
  if (!exact_text(value) || double_of_exact(value)) {
    value = std::move(before);
    return false;
  }
  flags->text = std::to_string(*flag | 2);
  read_as_value(e);
  note_rewrite("dialect:numeric-ordered-set");
  return true;
}

// lag / lead / first_value / last_value / nth_value of an exact call: of its decimal text, read as
// pg_numeric_value(lag(...) OVER (...)), the double exact readers unwrap (lead(id / 3.0) * 3 was 1.9999999999999998
// for 2.00000000000000000001; outside tester s15). false: not one (`e` unchanged).
bool Admitter::exact_window_value(ast::Expr& e) {
  auto& f = std::get<ast::FuncCall>(e.node);
  static constexpr std::string_view kPassOn[] = {"lag", "lead", "first_value", "last_value", "nth_value"};
  if (!f.over || f.args.empty() || std::find(std::begin(kPassOn), std::end(kPassOn), f.name) == std::end(kPassOn) ||
      !exact_call(f.args.front()))
    return false;
  std::vector<ast::Expr> before = f.args;
  exact_text(f.args.front());
  if ((f.name == "lag" || f.name == "lead") && f.args.size() == 3) exact_text(f.args[2]);  // the default
  if (std::any_of(f.args.begin(), f.args.end(), [](const ast::Expr& a) { return double_of_exact(a); })) {
    f.args = std::move(before);
    return false;
  }
  for (std::size_t i = 0; i < f.args.size(); ++i) {
    ast::Expr a = f.args[i];
    without_values(a);
    without_values(before[i]);
    if (!(a == before[i])) {
      note_rewrite("dialect:numeric-window-value");
      break;
    }
  }
  read_as_value(e);
  return true;
}

// sum(x) / avg(x) of double precision over a window frame that moves (its start is not UNBOUNDED PRECEDING, or a
// named window's frame): PostgreSQL adds each frame afresh, SQLite's sum subtracts the rows leaving it, and a
// double does not come back ((1e20, 1, 1) over ROWS 1 PRECEDING summed 1 for 2; outside tester s13).
// pg_float_sum / pg_float_avg (executors/sqlite/sqlite_aggregates.cpp) add the frame's values again.
bool Admitter::float_window_sum(ast::FuncCall& f, const ExprContext& ctx) {
  if (!f.over || (f.name != "sum" && f.name != "avg") || f.args.size() != 1 || f.distinct || f.star) return false;
  const ast::WindowFrame& frame = f.over->frame;
  const bool moving = !f.over->base_name.empty() || (frame.mode != ast::FrameMode::Default &&
                                                     frame.start.kind != ast::FrameBoundKind::UnboundedPreceding);
  if (!moving || value_type(f.args.front(), ctx).type != SqlType::Float) return false;
  f.name = f.name == "sum" ? "pg_float_sum" : "pg_float_avg";
  note_rewrite("dialect:float-window-" + std::string(f.name == "pg_float_sum" ? "sum" : "avg"));
  return true;
}

// PostgreSQL's numeric sqrt / exp / ln / log / power: their digits at numeric.c's scale (SQLite's doubles:
// floor(log(10, 1000)) was 2; outside tester s12); and floor, ceil, round, trunc, abs, sign of an exact call: of its
// decimal (floor(5.0 / 7 * 7) was 5 for 4). pg_numeric_math(name, x[, y]), sqlite_decimals.cpp. false: not one.
bool Admitter::exact_function(ast::Expr& e, const ExprContext& ctx) {
  auto& f = std::get<ast::FuncCall>(e.node);
  if (f.over || f.star || f.distinct || f.args.empty() || f.args.size() > 2) return false;
  static constexpr std::string_view kMath[] = {"sqrt", "exp", "ln", "log", "log10", "power", "pow"};
  static constexpr std::string_view kCut[] = {"floor",    "ceil",     "ceiling", "round", "trunc",
                                              "pg_round", "pg_trunc", "abs",     "sign"};
  std::string name = f.name;
  if (std::find(std::begin(kMath), std::end(kMath), name) != std::end(kMath)) {
    if (value_type(e, ctx).type != SqlType::Numeric) return false;
  } else if (std::find(std::begin(kCut), std::end(kCut), name) != std::end(kCut)) {
    const bool places = name == "pg_round" || name == "pg_trunc" || name == "round" || name == "trunc";
    if (!exact_call(f.args.front()) || (f.args.size() == 2 && !places)) return false;
  } else {
    return false;
  }
  name = name == "log10" ? "log" : name == "pow" ? "power" : name == "ceiling" ? "ceil" : name;
  if (name.starts_with("pg_")) name.erase(0, 3);
  const bool cut = std::find(std::begin(kCut), std::end(kCut), f.name) != std::end(kCut);
  exact_text(f.args.front());
  if (!cut && f.args.size() == 2) exact_text(f.args.back());
  f.name = "pg_numeric_math";
  f.args.insert(f.args.begin(), text_literal(name));
  note_rewrite("dialect:numeric-" + name);
  return true;
}

// A derived table's or CTE's column (or the statement's own) that is an exact call (SELECT 1.0 / 3 * 3 AS v): SQLite
// passed on the double nearest it, so floor(v) outside was 1 for PostgreSQL's 0 (0.99999999999999999999; outside
// tester s13). On SQLite such a column holds the call's decimal text under the pg_numeric collation (collated_numeric;
// ValueType::exact_text); a reference to it outside is pg_numeric_value(v), the double, which what reads it exactly
// (exact_text) unwraps to read every digit. So do the keys that group, sort or dedupe by an exact value: GROUP BY
// x / 3.0 (and the items that are that key), ORDER BY x / 3.0, DISTINCT, and every member of a set operation or
// VALUES list whose column is exact (SQLite grouped, sorted and deduped the doubles: 2 / 3.0 and 1 / 3.0 + 1 / 3.0
// were one value, and a UNION printed 0.3333333333333333; outside testers s15, s15c). Grouping sets keep the doubles.
// `set_types`: the types of the set operation whose member q is (a numeric of a member is a float8 there when
// another member's is: PostgreSQL's UNION of numeric and double precision, whose column stays the doubles).
void Admitter::exact_columns_on_sqlite(ast::Query& q, const std::vector<ValueType>* set_types) {
  if (dialect_ != Dialect::Sqlite) return;
  const auto types = query_types_.find(&q);
  if (types == query_types_.end()) return;
  if (auto* values = std::get_if<ast::Values>(&q.body)) {
    if (set_types) {  // a member: its exact columns where the set's are numeric (set_types' types, not its own)
      std::vector<ValueType> member = types->second;
      for (std::size_t i = 0; i < member.size() && i < set_types->size(); ++i)
        if ((*set_types)[i].type != SqlType::Numeric) member[i].type = (*set_types)[i].type;
      exact_values_on_sqlite(values->rows, member);
      for (std::size_t i = 0; i < member.size(); ++i) types->second[i].exact_text = member[i].exact_text;
      return;
    }
    return exact_values_on_sqlite(values->rows, types->second);
  }
  if (std::holds_alternative<ast::SetOp>(q.body)) {
    std::vector<bool> exact(types->second.size(), false);
    exact_members(q, exact, types->second);
    for (std::size_t i = 0; i < exact.size(); ++i)
      if (exact[i] && types->second[i].type == SqlType::Numeric && collate_members(q, i))
        types->second[i].exact_text = true;
    return;
  }
  auto& s = std::get<ast::Select>(q.body);
  if (!s.distinct_on.empty()) return;
  const bool sets = std::any_of(s.group_by.begin(), s.group_by.end(),
                                [](const ast::GroupItem& g) { return !std::holds_alternative<ast::Expr>(g.node); });
  const auto names_an_item = [&](const ast::Expr& key) {
    for (std::size_t i = 0; i < s.items.size(); ++i)
      if (names_item(key, s, i, dialect_)) return true;
    return false;
  };
  bool changed = false;
  for (auto& g : s.group_by) {
    auto* key = std::get_if<ast::Expr>(&g.node);
    // (a position or a name is the item it names, collated below)
    if (sets || !key || ast::integer_value(*key) || std::holds_alternative<ast::ColumnRef>(key->node) ||
        !exact_key(*key))
      continue;
    const ast::Expr before = *key;
    if (!collated_numeric(*key, -1)) continue;
    for (auto& item : s.items)  // GROUP BY x / 3.0 with the item x / 3.0: the item is the key
      if (item.expr == before) item.expr = *key;
    changed = true;
  }
  for (std::size_t i = 0; i < s.items.size() && i < types->second.size(); ++i) {
    ast::Expr& item = s.items[i].expr;
    const auto& column = set_types && i < set_types->size() ? (*set_types)[i] : types->second[i];
    // (a literal's scale only as a set operation's member: the set's column holds text then)
    if ((!exact_call(item) && !(set_types && scaled_literal(item))) || column.type != SqlType::Numeric)
      continue;  // a float8 column: the doubles
    if (sets && std::any_of(s.group_by.begin(), s.group_by.end(), [&](const ast::GroupItem& g) {
          const auto* key = std::get_if<ast::Expr>(&g.node);
          return !key || names_item(*key, s, i, dialect_) || *key == item;
        }))
      continue;
    if (collated(item)) {
      types->second[i].exact_text = true;
    } else if (collated_numeric(item, -1)) {
      types->second[i].exact_text = true;
      changed = true;
    }
  }
  for (auto& k : q.order_by)
    if (!names_an_item(*k.expr) && exact_key(*k.expr)) changed = collated_numeric(*k.expr, -1) || changed;
  if (changed) note_rewrite("dialect:numeric-column");
}

// The exact columns of a set operation's members (each member's own, then `exact`: a member's column i is).
void Admitter::exact_members(ast::Query& q, std::vector<bool>& exact, const std::vector<ValueType>& set_types) {
  if (auto* set = std::get_if<ast::SetOp>(&q.body)) {
    exact_members(*set->left, exact, set_types);
    exact_members(*set->right, exact, set_types);
    return;
  }
  exact_columns_on_sqlite(q, &set_types);
  if (const auto m = query_types_.find(&q); m != query_types_.end())
    for (std::size_t i = 0; i < m->second.size() && i < exact.size(); ++i)
      exact[i] = exact[i] || m->second[i].exact_text;
}

// Column i of every member of a set operation as collated text (the members' exact values, and their other numbers,
// which SQLite would sort before every text). false: a member's column could not be found (a member without the
// column: the column stays as it was).
bool Admitter::collate_members(ast::Query& q, std::size_t i) {
  if (auto* set = std::get_if<ast::SetOp>(&q.body))
    return collate_members(*set->left, i) && collate_members(*set->right, i);
  const auto m = query_types_.find(&q);
  const int scale = m != query_types_.end() && i < m->second.size() ? m->second[i].scale : -1;
  if (auto* values = std::get_if<ast::Values>(&q.body)) {
    for (auto& row : values->rows)
      if (i < row.size() && !collated(row[i]) && !collated_numeric(row[i], scale))
        row[i] = collate(std::move(row[i]), scale);
    return true;
  }
  auto& s = std::get<ast::Select>(q.body);
  if (i >= s.items.size()) return false;
  ast::Expr& item = s.items[i].expr;
  if (!collated(item) && !collated_numeric(item, scale)) item = collate(std::move(item), scale);
  return true;
}

// A VALUES list's column with an exact call in some row (VALUES (1, 1.0 / 3), (2, 2.0 / 3)): every row's value as
// collated text (collated_numeric), the exact rows' decimal texts (a join on v.x found no row where PostgreSQL finds
// two; outside tester s15).
void Admitter::exact_values_on_sqlite(std::vector<std::vector<ast::Expr>>& rows, std::vector<ValueType>& types) {
  if (dialect_ != Dialect::Sqlite) return;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i].type != SqlType::Numeric || std::none_of(rows.begin(), rows.end(), [&](const auto& row) {
          return i < row.size() && (exact_call(row[i]) || scaled_literal(row[i]));
        }))
      continue;
    bool changed = false;
    for (auto& row : rows) {
      if (i >= row.size() || collated(row[i])) continue;
      if (!collated_numeric(row[i], types[i].scale)) row[i] = collate(std::move(row[i]), types[i].scale);
      changed = true;
    }
    types[i].exact_text = true;
    if (changed) note_rewrite("dialect:numeric-column");
  }
}

// A reference to such a column: pg_numeric_value(v) (executors/sqlite/sqlite_numbers.cpp). false: not one.
bool Admitter::exact_column_on_sqlite(ast::Expr& e, const Relation& r) {
  const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
  if (dialect_ != Dialect::Sqlite || !ref || ref->star) return false;
  for (std::size_t i = 0; i < r.columns.size() && i < r.types.size(); ++i) {
    if (!same(r.columns[i], ref->column)) continue;
    if (!r.types[i].exact_text) return false;
    read_as_value(e);
    return true;
  }
  return false;
}

// pg_numeric_value and the exact calls written out (a printed statement admitted again): their arguments read the
// decimal texts the printed statement passed them, as when admission wrote them (a reference to an exact column
// was made pg_numeric_value(v) when admitted again).
void Admitter::exact_arguments_on_sqlite(ast::FuncCall& f) {
  if (dialect_ != Dialect::Sqlite || f.args.empty()) return;
  // pg_string_agg(value, delimiter, spec, key...) / pg_array_agg(value, spec, key...): a key whose direction letter
  // is upper case passes its decimal text (exact_sort_key).
  if ((f.name == "pg_string_agg" && f.args.size() >= 3) || (f.name == "pg_array_agg" && f.args.size() >= 2)) {
    const std::size_t spec_at = f.name == "pg_string_agg" ? 2 : 1;
    const auto* spec = std::get_if<ast::Literal>(&f.args[spec_at].node);
    for (std::size_t k = 0; spec && spec_at + 1 + k < f.args.size() && 1 + 2 * k < spec->text.size(); ++k)
      if (spec->text[1 + 2 * k] == 'A' || spec->text[1 + 2 * k] == 'D') exact_text(f.args[spec_at + 1 + k]);
    return;
  }
  if (f.name == "pg_numeric_value") {
    exact_text(f.args.front());
    return;
  }
  static constexpr std::string_view kReaders[] = {
      "pg_numeric_div",      "pg_numeric_arith", "pg_numeric_cmp",       "pg_numeric_sum",      "pg_numeric_avg",
      "pg_numeric_key",      "pg_concat",        "pg_concat_ws",         "pg_numeric_max",      "pg_numeric_min",
      "pg_var_samp_exact",   "pg_var_pop_exact", "pg_stddev_samp_exact", "pg_stddev_pop_exact", "pg_numeric_decimal",
      "pg_numeric_greatest", "pg_numeric_least"};
  if (f.name == "pg_numeric_math" && f.args.size() >= 2) {
    const auto* name = std::get_if<ast::Literal>(&f.args.front().node);
    static constexpr std::string_view kTwo[] = {"power", "log"};  // both operands exact (exact_function)
    const bool both = name && std::any_of(std::begin(kTwo), std::end(kTwo),
                                          [&](std::string_view n) { return name->text.starts_with(n); });
    exact_text(f.args[1]);
    if (both && f.args.size() == 3) exact_text(f.args[2]);
  } else if (std::find(std::begin(kReaders), std::end(kReaders), f.name) != std::end(kReaders)) {
    for (auto& a : f.args) exact_text(a);
  }
}

// A subquery in an expression whose value is an exact numeric (issue #12): SQLite passed on the double nearest it,
// so (SELECT 1.0 / 3 * 3) = 1 and 1 IN (SELECT 1.0 / 3 * 3) were true (PostgreSQL: false; 0.99999999999999999999).
// - A scalar subquery's column holds its decimal text (exact_columns_on_sqlite), and the subquery is read as
//   pg_numeric_value((SELECT ...)): the double, which exact readers (comparisons, arithmetic, the statement's own
//   column) unwrap to read every digit.
// - x IN (SELECT y ...) and x = ANY (SELECT y ...) where x or y is exact (and neither a float8, which PostgreSQL
//   compares as doubles): pg_numeric_key(x) IN (SELECT pg_numeric_key(y) ...), one text per numeric value, so
//   that NULLs and NOT IN keep their meaning. Any other comparison with ANY / ALL is refused with a FIX (EXISTS).
// true: `e` was replaced (the SubLink died).
Result<bool> Admitter::exact_subquery_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  auto& link = std::get<ast::SubLink>(e.node);
  if (dialect_ != Dialect::Sqlite || link.kind == ast::SubLinkKind::Exists) return false;
  ast::Query& q = *link.query;
  if (link.kind == ast::SubLinkKind::Scalar) {
    exact_columns_on_sqlite(q);
    const auto types = query_types_.find(&q);
    if (types == query_types_.end() || types->second.size() != 1 || !types->second.front().exact_text) return false;
    read_as_value(e);
    return true;
  }
  if (!link.test || query_types(q).size() != 1) return false;
  ast::Expr& test = **link.test;
  if (!exact_call(test) && !exact_output(q)) return false;
  const SqlType x = value_type(test, ctx).type, y = query_types(q).front().type;
  if ((x != SqlType::Numeric && x != SqlType::Integer) || (y != SqlType::Numeric && y != SqlType::Integer))
    return false;
  const bool equality = link.kind == ast::SubLinkKind::In || link.op == "=";
  auto* s = std::get_if<ast::Select>(&q.body);
  if (!equality || link.kind == ast::SubLinkKind::All || !s) {
    const std::string what = shown(test, dialect_);
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      what + " " + (link.op.empty() ? "=" : link.op) +
                          (link.kind == ast::SubLinkKind::All ? " ALL" : " ANY") +
                          " (SELECT ...) of an exact numeric is not translated on SQLite: SQLite would compare the "
                          "doubles nearest the values, where PostgreSQL compares every digit",
                      "FIX: write it with EXISTS, whose comparison runs exactly: EXISTS (SELECT 1 FROM ... WHERE " +
                          what + " " + (link.op.empty() ? "=" : link.op) + " y) (NOT EXISTS (... WHERE NOT (" + what +
                          " " + (link.op.empty() ? "=" : link.op) + " y)) for ALL, with y never NULL).",
                      pos(e.location));
  }
  order_by_double(q, *s, 0, dialect_);  // IN (SELECT v ... ORDER BY v LIMIT 3): the rows the doubles' order picks
  const bool test_float = numeric_of_float(test, ctx), item_float = numeric_of_float(s->items.front().expr, ctx);
  test = numeric_key(std::move(test), test_float);
  s->items.front().expr = numeric_key(std::move(s->items.front().expr), item_float);
  note_rewrite("dialect:numeric-membership");
  return false;
}

}  // namespace qg::admit::detail
