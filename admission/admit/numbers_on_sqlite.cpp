// Numbers on SQLite as PostgreSQL computes them (issue #12). Each translation
// calls a function the SQLite executor registers (executors/sqlite/
// sqlite_numbers.cpp) and is reported as a `dialect:` rewrite:
//
//   CAST(x AS integer), x numeric or float  → CAST(pg_number(x, 'int4', 'numeric' | 'float8') AS integer)
//       PostgreSQL rounds (a numeric's halves away from zero, a float's to even); SQLite's CAST truncates.
//   CAST(x AS numeric(p, s))                → pg_numeric(x, p, s)
//       rounded to s places, "numeric field overflow" past p - s digits; SQLite ignores the modifiers.
//   trunc(x, n)                             → pg_trunc(x, n)            (SQLite's trunc takes one argument)
//   round(x, n)                             → pg_round(x, n)            (SQLite's round counts n < 0 as 0)
//   x / y, y not a literal other than 0, -1 or a fraction → pg_div(x, y) (printed so: render.hpp, division_checked)
//   x % y                                    → pg_mod(x, y)              (printed so; exact on fractions)
//   GREATEST(a, b, ...) / LEAST(...)        → pg_greatest / pg_least    (numbers or texts: NULLs skipped)
//
// The replacements are querygate's own functions, admitted on SQLite as they
// stand, so admitting the printed statement again changes nothing.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {
namespace {

ast::Expr call(std::string name, std::vector<ast::Expr> args, int location) {
  return ast::make_call(std::move(name), std::move(args), location);
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

// A literal SQLite holds as a REAL already (a decimal), or a whole one within 2 ^ 53 (exact either way); whole
// digits past 32 bits are a Numeric literal in the grammar (PostgreSQL's bigint), an INTEGER on SQLite.
bool exact_as_double(const ast::Expr& x) {
  const auto* l = std::get_if<ast::Literal>(&x.node);
  if (!l || (l->kind != ast::LiteralKind::Integer && l->kind != ast::LiteralKind::Numeric)) return false;
  const bool whole = l->kind == ast::LiteralKind::Integer ||
                     (!l->text.empty() && l->text.find_first_not_of("0123456789") == std::string::npos);
  if (!whole) return true;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(l->text.data(), l->text.data() + l->text.size(), v);
  return ec == std::errc() && end == l->text.data() + l->text.size() && v <= (std::int64_t{1} << 53) &&
         v >= -(std::int64_t{1} << 53);
}

void as_float8(ast::Expr& x) {
  if (const auto* c = std::get_if<ast::Cast>(&x.node); c && c->type.name == "float8" && c->type.modifiers.empty())
    return;  // cast already (a nested set operation's branch)
  const int at = x.location;
  x = ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(x)), ast::TypeName{"float8", {}}}, at);
}

}  // namespace

bool Admitter::integer_cast_rounds_on_sqlite(ast::Cast& cast, const ExprContext& ctx) {
  const SqlType from = value_type(*cast.arg, ctx).type;
  // An integer the shape hides ((SELECT count(*) ...)): checked the same way, a whole number passes as it is.
  if (from != SqlType::Numeric && from != SqlType::Float && from != SqlType::Integer) return false;
  const int at = cast.arg->location;
  if (exact_text(*cast.arg)) {
    // Of an exact numeric: rounded on its decimal first (2.5 / 7 * 7 is 2.49999999999999999998, 2; its double 3).
    std::vector<ast::Expr> round;
    round.push_back(text("round"));
    round.push_back(std::move(*cast.arg));
    *cast.arg = call("pg_numeric_math", std::move(round), at);
  }
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
  } else if (from == SqlType::Float) {  // float8 to numeric first: 15 significant digits, as PostgreSQL's
    const int at = value.location;
    value = call("pg_number", {std::move(value), text("numeric"), text("float8")}, at);
  } else if (exact_text(value)) {  // an exact numeric: rounded on its decimal first
    const int at = value.location;
    value = call("pg_numeric_math", {text("round"), std::move(value), integer(scale)}, at);
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
    // there, 1235.0 here). And SQLite's round(x, n) reads its printed digits back inexactly (round(0.005754, 6)
    // was not 0.005754: 3 of 8 480 rows compared unequal; outside tester s12): every round(x, n) of a number is
    // pg_round, the decimal rounded halves away from zero as numeric's round.
    if (dialect_ != Dialect::Sqlite || !is_number(from)) return;
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

Status Admitter::numbers_or_texts_on_sqlite(const std::vector<ast::Expr>& args, const ExprContext& ctx,
                                            const std::string& what, const std::string& fix, int location,
                                            bool& numbers) {
  // All numbers, or all text (compared by bytes, as SQLite and PostgreSQL's C / C.UTF-8 collations order it, as
  // every other text comparison querygate runs on SQLite). Times are stored in more than one text form.
  numbers = true;
  bool texts = true;
  for (const auto& a : args) {
    const SqlType t = value_type(a, ctx).type;
    numbers = numbers && (is_number(t) || t == SqlType::Null);
    texts = texts && (t == SqlType::Text || t == SqlType::Untyped || t == SqlType::Null);
  }
  if (numbers || texts) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    what + " is translated on SQLite for numbers or for text, not for times, booleans or a mix", fix,
                    pos(location));
}

Status Admitter::greatest_least_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  auto* m = std::get_if<ast::MinMax>(&e.node);
  if (dialect_ != Dialect::Sqlite || !m) return {};
  bool numbers = false;
  if (auto s =
          numbers_or_texts_on_sqlite(m->args, ctx, m->greatest ? "GREATEST" : "LEAST",
                                     std::string("FIX: on SQLite, compare the values with CASE, e.g. CASE WHEN a ") +
                                         (m->greatest ? ">=" : "<=") + " b OR b IS NULL THEN a ELSE b END.",
                                     e.location, numbers);
      !s)
    return s;
  const int location = e.location;
  // Of numerics with an exact argument (x / 3.0, avg(x)): compared on the decimals, the chosen one's digits
  // (pg_numeric_greatest / pg_numeric_least, an exact call; the doubles printed 0.6666666666666666 for 2.0 / 3's
  // 0.66666666666666666667; outside tester s15). Not with a float8 argument: PostgreSQL compares doubles then.
  if (numbers && value_type(e, ctx).type == SqlType::Numeric &&
      std::any_of(m->args.begin(), m->args.end(), [](const ast::Expr& a) { return exact_call(a); })) {
    std::vector<ast::Expr> args = m->args;
    bool made_up = false;
    for (auto& a : args) made_up = (exact_text(a) && double_of_exact(a)) || made_up;
    if (!made_up) {
      args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, "numeric"}));
      e = call(m->greatest ? "pg_numeric_greatest" : "pg_numeric_least", std::move(args), location);
      note_rewrite("dialect:numeric-greatest-least");
      return {};
    }
  }
  std::vector<ast::Expr> args = std::move(m->args);
  e = call(m->greatest ? "pg_greatest" : "pg_least", std::move(args), location);
  note_rewrite("dialect:greatest-least");
  return {};
}

// a bigint (or a numeric SQLite holds as an integer) compared with a double precision: PostgreSQL converts it to
// double precision and compares the doubles (9007199254740993 = 2 ^ 53 is true there), SQLite compares an integer
// with a real exactly (loyalty_points > 2 ^ 53 counted 58 rows for 28; outside tester s18b). When one operand is a
// float, the integer and numeric ones are cast to float8 (an integer literal within 2 ^ 53 is exact either way).
void Admitter::float_comparison_on_sqlite(const std::vector<ast::Expr*>& operands, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return;
  if (std::none_of(operands.begin(), operands.end(),
                   [&](const ast::Expr* x) { return value_type(*x, ctx).type == SqlType::Float; }))
    return;
  bool changed = false;
  for (ast::Expr* x : operands) {
    if (exact_as_double(*x)) continue;
    const SqlType t = value_type(*x, ctx).type;
    if (t != SqlType::Integer && t != SqlType::Numeric) continue;
    as_float8(*x);
    changed = true;
  }
  if (changed) note_rewrite("dialect:float-comparison");
}

bool reads_rows(const ast::Expr& e) {
  if (std::holds_alternative<ast::ColumnRef>(e.node) || std::holds_alternative<ast::SubLink>(e.node)) return true;
  bool found = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || reads_rows(child); });
  return found;
}

bool Admitter::integer_key_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  auto* o = std::get_if<ast::Operator>(&e.node);
  if (dialect_ != Dialect::Sqlite || !o || o->op != "=" || !o->left || !filter_conditions_.contains(&e)) return false;
  ast::Expr* left = &**o->left;
  ast::Expr* right = &*o->right;
  for (auto [column, other] : {std::pair{left, right}, std::pair{right, left}}) {
    // Another column: CAST(x AS float8) = y leaves y's index (or an automatic one) to SQLite; a computed value
    // (score * 1000) had none. A constant is compared by CAST, once per row of a scan (2 ^ 53 there is 0 rows, not
    // pg_exact_int's error).
    if (!std::holds_alternative<ast::ColumnRef>(column->node) || std::holds_alternative<ast::ColumnRef>(other->node) ||
        !reads_rows(*other) || value_type(*column, ctx).type != SqlType::Integer ||
        value_type(*other, ctx).type != SqlType::Float)
      continue;
    const int at = other->location;
    *other = call("pg_exact_int", {std::move(*other)}, at);
    note_rewrite("dialect:float-comparison");
    return true;
  }
  return false;
}

// The same meeting in a column of UNION / INTERSECT / EXCEPT (PostgreSQL's select_common_type: bigint or numeric
// with double precision is a double) and in the column x IN (SELECT ...) compares with a double: on SQLite each
// branch kept its integer (big UNION dbl printed 9007199254740993; dbl IN (SELECT big) found the row PostgreSQL
// does not; outside tester s19g). The integer branches' items are cast to float8, named as before; a GROUP BY
// <ordinal> of such an item is written as the expression it names, so the rows are grouped on the integers.
Status Admitter::float_output_on_sqlite(ast::Query& q, std::size_t i, bool all, int location) {
  if (auto* set = std::get_if<ast::SetOp>(&q.body)) {
    for (ast::Query* leaf : set_leaves(*set))
      if (auto s = float_output_on_sqlite(*leaf, i, all || set->all, location); !s) return s;
    return {};
  }
  if (ast::Query* inner = set_member_inner(q)) return float_output_on_sqlite(*inner, i, all, location);
  const auto types = query_types(q);
  if (i >= types.size() || (types[i].type != SqlType::Integer && types[i].type != SqlType::Numeric)) return {};
  if (auto* values = std::get_if<ast::Values>(&q.body)) {
    for (auto& row : values->rows)
      if (i < row.size() && !exact_as_double(row[i]) && !null_literal(row[i])) as_float8(row[i]);
    note_rewrite("dialect:float-comparison");
    return {};
  }
  auto& s = std::get<ast::Select>(q.body);
  if (i >= s.items.size()) return {};
  auto& item = s.items[i];
  if (null_literal(item.expr) || exact_as_double(item.expr)) return {};
  if (s.distinct && all)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "a SELECT DISTINCT branch's " + sql_type_words(types[i], std::nullopt) +
                          " column meets a double precision one: PostgreSQL removes the duplicates of the " +
                          sql_type_words(types[i], std::nullopt) + " values, SQLite would remove those of the doubles",
                      "FIX: cast after the DISTINCT, in a subquery: SELECT CAST(" + figure_name(item.expr) +
                          " AS double precision) FROM (SELECT DISTINCT ...) AS d, as that branch.",
                      pos(item.expr.location >= 0 ? item.expr.location : location));
  for (auto& g : s.group_by)
    if (auto* e = std::get_if<ast::Expr>(&g.node))
      if (const auto k = ast::integer_value(*e);
          k && std::holds_alternative<ast::Literal>(e->node) && *k == static_cast<std::int64_t>(i) + 1) {
        const int at = e->location;
        *e = item.expr;
        e->location = at;
      }
  if (item.alias.empty()) item.alias = figure_name(item.expr);
  as_float8(item.expr);
  note_rewrite("dialect:float-comparison");
  return {};
}

// text || condition: PostgreSQL writes the boolean as true / false ('a' || true is 'atrue'), SQLite as 1 / 0
// (found by the differential property, seed 6 #232: max(c.v || c.w) answered 'x y z51' for 'x y z5true').
Status boolean_concat_on_sqlite(const ast::Expr& condition, int location) {
  const std::string what = shown(condition, Dialect::Postgres);
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

// ---------- integer (int4) and smallint (int2) overflow on SQLite ----------
//
// SQLite computes every integer in 64 bits: 2147483647 + 1 is 2147483648 there, PostgreSQL's error
// "integer out of range" (int4), "smallint out of range" (int2). A SQLite INTEGER column may hold a
// PostgreSQL integer or bigint, so arithmetic whose int4-ness comes from a column's declared type is read
// as bigint (pg_int8, admit_expr.cpp). Where PostgreSQL's type is certainly int4 or int2 (an integer
// literal within 32 bits, a cast to integer / smallint, a text length or position, and + - * / % of
// those, int_width below), its overflow is an error on SQLite too:
//   - constant arithmetic (literals and casts of literals only) is computed here, node by node as
//     PostgreSQL's planner folds it, and PostgreSQL's error is a refusal at admission with a FIX;
//   - any other such + - * / and prefix - passes through pg_int4(x) / pg_int2(x) (sqlite_numbers.cpp), one
//     per node: an int4 chain's intermediate value can overflow and come back into range (x + 2147483647 - 1),
//     which PostgreSQL fails. A chain too long to wrap node by node nests past the depth limit once translated
//     and is refused with the flattening FIX (pipeline.cpp, check_sqlite_depth).
// Mixed int4 / int8 operands are int8 in PostgreSQL: the pg_int8 check, as before.
namespace {

bool is_int4_name(std::string_view t) {
  return t == "int4" || t == "int" || t == "integer";
}
bool is_int2_name(std::string_view t) {
  return t == "int2" || t == "smallint";
}

bool fits(std::int64_t v, int width) {
  if (width == 2) return v >= -32768 && v <= 32767;
  if (width == 4) return v >= -2147483648LL && v <= 2147483647LL;
  return true;
}

// A whole-number literal's value (the grammar writes those beyond 32 bits as Numeric).
std::optional<std::int64_t> literal_integer(const ast::Literal& l) {
  if (l.kind != ast::LiteralKind::Integer && l.kind != ast::LiteralKind::Numeric) return std::nullopt;
  return ast::integer_value(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, l.text}));
}

// PostgreSQL's int4 functions (value_types.cpp's kInteger, less the bigint ones) whose value is never negative.
bool nonnegative_int4_function(std::string_view f) {
  static constexpr std::string_view kNames[] = {"length",       "char_length",    "character_length", "octet_length",
                                                "bit_length",   "strpos",         "position",         "pg_strpos",
                                                "regexp_count", "pg_regexp_count"};
  return std::find(std::begin(kNames), std::end(kNames), f) != std::end(kNames);
}

const ast::Expr& cast_source(const ast::Cast& c) {
  // CAST(x AS integer) of a number is CAST(pg_number(x, 'int4', ...) AS integer) once admitted on SQLite.
  const auto* f = std::get_if<ast::FuncCall>(&c.arg->node);
  return f && f->name == "pg_number" && !f->args.empty() ? f->args.front() : *c.arg;
}

// The width two values meet in (one CASE, COALESCE, GREATEST or window result; an operator's operands):
// -1 a NULL literal (any type: the other's), 0 bigint or not known, else the wider (integer over smallint).
int meet_width(int a, int b) {
  if (a < 0) return b;
  if (b < 0) return a;
  return a == 0 || b == 0 ? 0 : std::max(a, b);
}

}  // namespace

// x << n and x >> n of an integer: PostgreSQL shifts within the type's bits, the count taken modulo 32 (64 for a
// bigint), as the machine does (1 << 31 is -2147483648, 1::bigint << 64 is 1, 5::bigint >> -1 is 0); SQLite within 64
// bits, a count past them giving 0 and a negative one shifting the other way (outside tester s13). pg_shift(x, n,
// op, bits) (executors/sqlite/sqlite_numbers.cpp) shifts as PostgreSQL does; an INTEGER column's value as int4 when it
// fits, else as bigint.
void Admitter::shift_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  auto* o = std::get_if<ast::Operator>(&e.node);
  if (dialect_ != Dialect::Sqlite || !o || !o->left || (o->op != "<<" && o->op != ">>")) return;
  const ValueType l = value_type(**o->left, ctx);
  if (l.type != SqlType::Integer) return;
  // 0: not known (a SQLite INTEGER column): by each value (sqlite_numbers.cpp pg_shift).
  const int width = l.int8 ? 8 : int_width(**o->left, ctx);
  const int bits = width == 8 ? 64 : width == 2 ? 16 : width == 4 ? 32 : 0;
  const int at = e.location;
  std::vector<ast::Expr> args;
  args.push_back(std::move(**o->left));
  args.push_back(std::move(*o->right));
  args.push_back(text(o->op));
  args.push_back(integer(bits));
  e = call("pg_shift", std::move(args), at);
  note_rewrite("dialect:shift");
}

// 4: PostgreSQL's type of `e` is certainly integer (int4); 2: smallint; 0: bigint, another type, or not known
// (a SQLite INTEGER column). Through a derived table's, CTE's, VALUES list's or set operation's column (its
// ValueType::width) and the values that keep their arguments' type (CASE, COALESCE, NULLIF, GREATEST / LEAST,
// min / max, lag / lead / first_value / last_value / nth_value, abs, a scalar subquery).
int Admitter::int_width(const ast::Expr& e, const ExprContext& ctx) {
  // -1 for a NULL literal, which takes the type of the values it meets.
  auto width = [&](const ast::Expr& x) { return null_literal(x) ? -1 : int_width(x, ctx); };
  auto meet = [&](const auto& values) {
    int w = -1;
    for (const ast::Expr* x : values) {
      const auto* text = std::get_if<ast::Literal>(&x->node);  // an untyped literal is read as the others' type
      w = meet_width(w, text && text->kind == ast::LiteralKind::String ? -1 : width(*x));
    }
    return std::max(w, 0);
  };
  if (const auto* l = std::get_if<ast::Literal>(&e.node)) {
    const auto v = literal_integer(*l);
    return v && fits(*v, 4) ? 4 : 0;
  }
  if (const auto* c = std::get_if<ast::Cast>(&e.node)) {
    if (is_int4_name(c->type.name)) return 4;
    if (is_int2_name(c->type.name)) return 2;
    return 0;
  }
  if (std::holds_alternative<ast::ColumnRef>(e.node) || std::holds_alternative<ast::SubLink>(e.node)) {
    // A stored column's width is not known (column_type: 0); a derived column's is its relation's.
    const ValueType t = value_type(e, ctx);
    return t.type == SqlType::Integer && !t.int8 ? t.width : 0;
  }
  if (const auto* c = std::get_if<ast::Case>(&e.node)) {
    std::vector<const ast::Expr*> results;
    for (const auto& w : c->whens) results.push_back(&*w.result);
    if (c->otherwise) results.push_back(&**c->otherwise);
    return meet(results);
  }
  if (const auto* c = std::get_if<ast::Coalesce>(&e.node)) {
    std::vector<const ast::Expr*> args;
    for (const auto& a : c->args) args.push_back(&a);
    return meet(args);
  }
  if (const auto* m = std::get_if<ast::MinMax>(&e.node)) {
    std::vector<const ast::Expr*> args;
    for (const auto& a : m->args) args.push_back(&a);
    return meet(args);
  }
  // NULLIF(a, b) is of a's and b's common type (7 / NULLIF(2, 0.0) is a numeric division; outside tester s17d).
  if (const auto* n = std::get_if<ast::NullIf>(&e.node))
    return meet(std::vector<const ast::Expr*>{&*n->left, &*n->right});
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    if (f->name == "ntile" && f->over) return 4;         // a window function, int4 in PostgreSQL
    if (f->name == "pg_shift" && f->args.size() == 4) {  // x << n of the type of x
      const auto bits = ast::integer_value(f->args[3]);
      return bits == 16 ? 2 : bits == 32 ? 4 : 0;
    }
    // min / max / abs keep their argument's type (an aggregate's FILTER or DISTINCT, a window, do not change it).
    // (pg_single: a scalar subquery's one value on SQLite, scalar_subquery.cpp.)
    if ((f->name == "min" || f->name == "max" || f->name == "abs" || f->name == "any_value" ||
         f->name == "pg_single") &&
        f->args.size() == 1)
      return int_width(f->args.front(), ctx);
    // Window functions that return a row's value: its type (lag / lead's default meets it).
    if (f->over && !f->args.empty() &&
        (f->name == "lag" || f->name == "lead" || f->name == "first_value" || f->name == "last_value" ||
         f->name == "nth_value")) {
      std::vector<const ast::Expr*> values{&f->args.front()};
      if ((f->name == "lag" || f->name == "lead") && f->args.size() == 3) values.push_back(&f->args[2]);
      return meet(values);
    }
    // GREATEST / LEAST on SQLite, and SQLite's scalar max(a, b, ...) / min(...)
    if (f->name == "pg_greatest" || f->name == "pg_least" ||
        ((f->name == "max" || f->name == "min") && f->args.size() >= 2 && !f->over)) {
      std::vector<const ast::Expr*> args;
      for (const auto& a : f->args) args.push_back(&a);
      return meet(args);
    }
    if (f->star || f->over || f->filter || f->distinct) return 0;
    if (f->name == "pg_int4") return 4;
    if (f->name == "pg_int2") return 2;
    if ((f->name == "pg_div" || f->name == "pg_mod") && f->args.size() == 2) {  // x / y, x % y as SQLite runs them
      const int l = width(f->args[0]), r = width(f->args[1]);
      return l == 0 || r == 0 || (l < 0 && r < 0) ? 0 : std::max(l, r);
    }
    return nonnegative_int4_function(f->name) || f->name == "ntile" ? 4 : 0;
  }
  if (const auto* o = std::get_if<ast::Operator>(&e.node)) {
    if (o->op != "+" && o->op != "-" && o->op != "*" && o->op != "/" && o->op != "%") return 0;
    if (!o->left) return o->op == "-" || o->op == "+" ? int_width(*o->right, ctx) : 0;
    // NULL takes the other operand's type.
    const int l = width(**o->left), r = width(*o->right);
    if (l == 0 || r == 0 || (l < 0 && r < 0)) return 0;
    return std::max(l, r);
  }
  return 0;
}

namespace {

// A constant integer expression computed as PostgreSQL's planner folds it (bottom up: an error anywhere
// below is the statement's error, also under NULL * ...).
struct Folded {
  bool constant = false;
  bool null = false;
  std::int64_t value = 0;
  int width = 0;      // 2, 4 or 8 (a bigint literal: only as a cast's argument)
  std::string error;  // PostgreSQL's error, when constant
};

const char* range_error(int width) {
  return width == 2 ? "smallint out of range" : "integer out of range";
}

Folded fold(const ast::Expr& e) {
  Folded out;
  if (const auto* l = std::get_if<ast::Literal>(&e.node)) {
    if (l->kind == ast::LiteralKind::Null) {
      out.constant = out.null = true;
      return out;
    }
    const auto v = literal_integer(*l);
    if (!v) return out;
    out.constant = true;
    out.value = *v;
    out.width = fits(*v, 4) ? 4 : 8;
    return out;
  }
  if (const auto* c = std::get_if<ast::Cast>(&e.node)) {
    const int to = is_int4_name(c->type.name) ? 4 : is_int2_name(c->type.name) ? 2 : 0;
    if (!to) return out;
    out = fold(cast_source(*c));
    if (!out.constant || !out.error.empty()) return out;
    if (!out.null && !fits(out.value, to)) out.error = range_error(to);
    out.width = to;
    return out;
  }
  // x / y and x % y print as pg_div(x, y) / pg_mod(x, y) on SQLite: admitted again, they fold the same way.
  std::string_view op;
  const ast::Expr* left = nullptr;
  const ast::Expr* right = nullptr;
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    if (f->name == "abs" && f->args.size() == 1 && !f->over && !f->filter && !f->distinct && !f->star) {
      out = fold(f->args.front());  // abs(-2147483648) is PostgreSQL's "integer out of range"
      if (!out.constant || !out.error.empty() || out.null) return out;
      if (out.width == 8) return Folded{};
      out.value = out.value < 0 ? -out.value : out.value;
      if (!fits(out.value, out.width)) out.error = range_error(out.width);
      return out;
    }
    if ((f->name != "pg_div" && f->name != "pg_mod") || f->args.size() != 2 || f->over || f->filter) return out;
    op = f->name == "pg_div" ? "/" : "%";
    left = &f->args[0];
    right = &f->args[1];
  } else {
    const auto* o = std::get_if<ast::Operator>(&e.node);
    if (!o || (o->op != "+" && o->op != "-" && o->op != "*" && o->op != "/" && o->op != "%")) return out;
    if (!o->left) {
      if (o->op != "-" && o->op != "+") return out;
      out = fold(*o->right);
      if (!out.constant || !out.error.empty() || out.null) return out;
      if (o->op == "+") return out;
      if (out.width == 8) return Folded{};
      out.value = -out.value;
      if (!fits(out.value, out.width)) out.error = range_error(out.width);
      return out;
    }
    op = o->op;
    left = &**o->left;
    right = &*o->right;
  }
  const Folded a = fold(*left);
  if (!a.constant) return a;
  const Folded b = fold(*right);
  if (!b.constant) return b;
  if (!a.error.empty()) return a;
  if (!b.error.empty()) return b;
  out.constant = true;
  out.width = std::max(a.width, b.width);
  if (out.width == 8 || out.width == 0) return Folded{};
  if (a.null || b.null) {
    out.null = true;
    return out;
  }
  const std::int64_t x = a.value, y = b.value;  // within 32 bits: no 64-bit overflow below
  if (op == "+")
    out.value = x + y;
  else if (op == "-")
    out.value = x - y;
  else if (op == "*")
    out.value = x * y;
  else if (y == 0)
    return Folded{};  // x / 0: its own refusal (arithmetic_on_sqlite) or pg_div's error
  else if (op == "/")
    out.value = x / y;  // truncated toward zero, as PostgreSQL's
  else
    out.value = y == -1 ? 0 : x % y;  // PostgreSQL's int4mod: x % -1 is 0, never an overflow
  if (!fits(out.value, out.width)) out.error = range_error(out.width);
  return out;
}

}  // namespace

// CAST(x AS integer / smallint) of an integer PostgreSQL holds wider (a bigint: count(*), a sum, bigint
// arithmetic; an integer, for smallint): PostgreSQL fails a value past the narrower type ("integer out of
// range"), SQLite's CAST keeps 64 bits. A constant is refused here; the rest passes through pg_int4 / pg_int2.
// (A SQLite INTEGER column is PostgreSQL's integer: its cast to integer changes nothing.)
Status Admitter::narrowing_integer_cast_on_sqlite(ast::Cast& cast, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const int target = is_int4_name(cast.type.name) ? 4 : is_int2_name(cast.type.name) ? 2 : 0;
  if (target == 0) return {};
  const ast::Expr& arg = *cast.arg;
  if (const auto* l = std::get_if<ast::Literal>(&arg.node)) {
    const auto v = literal_integer(*l);
    if (l->kind == ast::LiteralKind::Integer && v && !fits(*v, target)) {
      const std::string type = target == 2 ? "smallint" : "integer";
      return make_error(ErrorCode::ValidationUnsupported,
                        "CAST(" + l->text + " AS " + type + ") is PostgreSQL's error \"" + type + " out of range\"",
                        "FIX: cast to a wider type: bigint (to 9223372036854775807) or numeric.", pos(location));
    }
    return {};
  }
  const ValueType from = value_type(arg, ctx);
  if (from.type != SqlType::Integer) return {};
  const int width = int_width(arg, ctx);
  if (width != 0 && width <= target) return {};  // already within: pg_int4(...), length(x), a smaller cast
  if (!from.int8 && target == 4) return {};      // integer to integer
  const int loc = arg.location;
  *cast.arg = call(target == 2 ? "pg_int2" : "pg_int4", {std::move(*cast.arg)}, loc);
  note_rewrite(target == 2 ? "dialect:int2-overflow" : "dialect:int4-overflow");
  return {};
}

Status Admitter::int4_abs_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool checked) {
  auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (dialect_ != Dialect::Sqlite || !f || f->name != "abs" || f->args.size() != 1 || f->over || f->filter ||
      f->distinct || f->star)
    return {};
  const int width = int_width(f->args.front(), ctx);
  if (width == 0) return {};
  const Folded v = fold(e);
  if (v.constant && !v.error.empty())
    return make_error(
        ErrorCode::ValidationUnsupported,
        shown_value(e) + " is PostgreSQL's error \"" + v.error + "\": the absolute value of " +
            (width == 2 ? "-32768 is past smallint's 32767" : "-2147483648 is past integer's 2147483647") +
            " (SQLite would answer the 64-bit value)",
        "FIX: compute in bigint: cast the argument, e.g. abs(CAST(x AS bigint)).", pos(e.location));
  if (v.constant || checked) return {};
  if (const auto* g = std::get_if<ast::FuncCall>(&f->args.front().node); g && nonnegative_int4_function(g->name))
    return {};
  const int loc = e.location;
  e = call(width == 2 ? "pg_int2" : "pg_int4", {std::move(e)}, loc);
  note_rewrite(width == 2 ? "dialect:int2-overflow" : "dialect:int4-overflow");
  return {};
}

// a + b, a - b, a * b typed integer (int4) whose width admission cannot know: a SQLite INTEGER column holds 64 bits,
// PostgreSQL's integer 32 (id * 100000 answered 6317600000 where PostgreSQL raises "integer out of range").
// pg_int4_arith(a, b, op) (executors/sqlite/sqlite_functions.cpp) raises it where both operands are within int4
// and the result is not; an operand beyond int4 is a column PostgreSQL would hold as bigint (bigint arithmetic).
// Division truncates as PostgreSQL's does (pg_div: only INT_MIN / -1 overflows).
Status Admitter::int4_column_arithmetic(ast::Expr& e, const ExprContext& ctx, bool checked, bool& handled) {
  auto& o = std::get<ast::Operator>(e.node);
  if (checked || !o.left || (o.op != "+" && o.op != "-" && o.op != "*")) return {};
  const ValueType t = value_type(e, ctx);
  if (t.type != SqlType::Integer || t.int8) return {};
  const auto integer = [&](const ast::Expr& x) {
    const ValueType v = value_type(x, ctx);
    return v.type == SqlType::Integer || null_literal(x);
  };
  if (!integer(**o.left) || !integer(*o.right)) return {};
  handled = true;
  // -x under this + - * went unchecked (the operator above checks a chain); as an argument of pg_int4_arith it
  // is checked when the printed statement is admitted again: so here already, for a fixed point.
  for (ast::Expr* side : {&**o.left, &*o.right})
    if (const auto* minus = std::get_if<ast::Operator>(&side->node);
        minus && !minus->left && minus->op == "-" && value_type(*side, ctx).type == SqlType::Integer)
      wrap_int8(*side);
  const int loc = e.location;
  ast::FuncCall f;
  f.name = "pg_int4_arith";
  f.args.push_back(std::move(**o.left));
  f.args.push_back(std::move(*o.right));
  f.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, o.op}));
  e = ast::make_expr(std::move(f), loc);
  note_rewrite("dialect:int4-overflow");
  return {};
}

Status Admitter::int4_arithmetic_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool checked, bool& handled) {
  handled = false;
  if (dialect_ != Dialect::Sqlite) return {};
  const auto* o = std::get_if<ast::Operator>(&e.node);
  if (!o || (o->op != "+" && o->op != "-" && o->op != "*" && o->op != "/" && o->op != "%")) return {};
  if (!o->left && o->op != "-") return {};
  const int width = int_width(e, ctx);
  if (width == 0) return int4_column_arithmetic(e, ctx, checked, handled);
  handled = true;
  const Folded f = fold(e);
  if (f.constant && !f.error.empty()) {
    const std::string type = width == 2 ? "smallint" : "integer";
    return make_error(ErrorCode::ValidationUnsupported,
                      shown_value(e) + " is PostgreSQL's error \"" + f.error + "\": " + type +
                          " arithmetic overflows past " + (width == 2 ? "32767" : "2147483647") +
                          " (SQLite would answer the 64-bit value)",
                      "FIX: compute in bigint: cast an operand, e.g. 2147483647::bigint + 1 (or numeric, e.g. "
                      "2147483647::numeric * 1000, past 9223372036854775807).",
                      pos(e.location));
  }
  if (f.constant || checked || o->op == "%") return {};  // % never overflows (PostgreSQL: x % -1 is 0)
  if (!o->left) {
    // -length(x) is never out of range: only -(-2147483648) is.
    const auto* g = std::get_if<ast::FuncCall>(&o->right->node);
    if (g && nonnegative_int4_function(g->name)) return {};
  }
  if (o->op == "/") {
    // Only -2147483648 / -1 overflows: a constant divisor other than -1 cannot.
    const Folded d = fold(*o->right);
    if (d.constant && d.error.empty() && (d.null || d.value != -1)) return {};
  }
  const int loc = e.location;
  ast::FuncCall wrapped;
  wrapped.name = width == 2 ? "pg_int2" : "pg_int4";
  wrapped.args.push_back(std::move(e));
  e = ast::make_expr(std::move(wrapped), loc);
  note_rewrite(width == 2 ? "dialect:int2-overflow" : "dialect:int4-overflow");
  return {};
}

}  // namespace qg::admit::detail
