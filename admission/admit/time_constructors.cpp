// PostgreSQL's time constructors and interval aggregates on SQLite (issue #12),
// next to the time family's translations (time_types.cpp):
//   to_timestamp(seconds)              → pg_to_timestamp(x)             dialect:to_timestamp
//   to_timestamp(text, 'template')     → pg_to_time(x, t, 'timestamptz') dialect:to_timestamp
//   to_date(text, 'template')          → pg_to_time(x, t, 'date')       dialect:to_date
//   make_date(y, m, d)                 → pg_make_date(y, m, d)          dialect:make_date
//   sum(interval), avg(interval)       → pg_iv_sum(x), pg_iv_avg(x)     dialect:interval-aggregate
//   INTERVAL '3' DAY (one field, a bare number) → INTERVAL '3 days'     dialect:interval-fields
// The registered functions live in executors/sqlite/sqlite_time_constructors.cpp
// (semantics: common/pg_time_input.cpp). What they cannot read exactly as
// PostgreSQL does is refused here with a FIX. PostgreSQL statements are unchanged.
#include <cctype>

#include "admission/admit/admitter.hpp"
#include "common/pg_time_input.hpp"

namespace qg::admit::detail {
namespace {

using pgtime::Kind;

const ast::Literal* string_literal(const ast::Expr& e) {
  const auto* l = std::get_if<ast::Literal>(&e.node);
  return l && l->kind == ast::LiteralKind::String ? l : nullptr;
}

ast::Expr call(std::string name, std::vector<ast::Expr> args, int location) {
  return ast::make_call(std::move(name), std::move(args), location);
}

ast::Expr text(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}

constexpr std::string_view kTemplateFix =
    "FIX: write the template with YYYY, YY, MM, DD, HH24, HH12 (with AM/PM), MI, SS, MS, US, Month or Mon, "
    "separators such as - / : . and spaces, and literal text in double quotes, e.g. to_date(x, 'YYYY-MM-DD') "
    "or to_timestamp(x, 'YYYY-MM-DD HH24:MI:SS').";

}  // namespace

Status Admitter::time_constructor_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return {};
  auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (!f) return {};
  const int loc = e.location;
  const std::string name = f->name;
  auto refuse = [&](const std::string& why, std::string_view fix, int at) {
    return make_error(ErrorCode::CapabilityNotOnSqlite, why, std::string(fix), pos(at));
  };
  auto done = [&](ast::Expr out, std::string_view rewrite) {
    out.location = loc;
    e = std::move(out);
    note_rewrite(rewrite);
    return Status{};
  };
  auto number = [&](const ast::Expr& x) { return lineage(x, ctx).kind == ValueKind::Number; };
  if (f->star || f->distinct || f->over || !f->order_by.empty() || f->filter || !f->within_group.empty()) {
    if (name == "to_timestamp" || name == "to_date" || name == "make_date")
      return refuse(name + "() is not an aggregate or window function", "FIX: call " + name + "(...) plainly.", loc);
    if ((name == "sum" || name == "avg") && f->args.size() == 1 && time_kind(f->args[0], ctx) == Kind::Interval)
      return refuse(name +
                        "() of an interval is translated on SQLite as a plain aggregate only (no DISTINCT, "
                        "FILTER, ORDER BY or OVER)",
                    "FIX: aggregate the seconds instead: " + name + "(date_part('epoch', x)).", loc);
    return {};
  }
  if (name == "to_timestamp" && f->args.size() == 1) {
    const ast::Expr& x = f->args[0];
    if (!null_literal(x) && (!number(x) || string_literal(x) || time_kind(x, ctx)))
      return refuse("to_timestamp(x) on SQLite is translated for a number of seconds since 1970",
                    "FIX: pass a number, e.g. to_timestamp(departure_time) with an integer column, or read text "
                    "with a template: to_timestamp(x, 'YYYY-MM-DD HH24:MI:SS').",
                    x.location);
    return done(call("pg_to_timestamp", {std::move(f->args[0])}, loc), "dialect:to_timestamp");
  }
  if ((name == "to_timestamp" || name == "to_date") && f->args.size() == 2) {
    const auto* format = string_literal(f->args[1]);
    if (!format)
      return refuse(name + "() on SQLite needs its template as a literal",
                    "FIX: write the template as a literal, e.g. " + name + "(x, 'YYYY-MM-DD').", f->args[1].location);
    if (const std::string bad = pgtime::unsupported_input_pattern(format->text); !bad.empty())
      return refuse("the template pattern " + bad + " of " + name + "() is not translated on SQLite", kTemplateFix,
                    f->args[1].location);
    if (!pgtime::input_pattern_has_year(format->text))
      return refuse(name +
                        "() with a template without a year gives a date in 1 BC in PostgreSQL, which querygate does "
                        "not translate on SQLite",
                    "FIX: put the year in the text and the template, e.g. " + name +
                        "(year || ' ' || month, 'YYYY Month'); for a month number from a name write "
                        "CASE month WHEN 'January' THEN 1 ... END.",
                    f->args[1].location);
    const ast::Expr& x = f->args[0];
    if (!null_literal(x) && (number(x) || time_kind(x, ctx)))
      return make_error(ErrorCode::ValidationUnsupported,
                        name + "() reads text: PostgreSQL has no " + name + "() of a number or a time",
                        "FIX: cast the value to text first: " + name + "(CAST(x AS text), '" + format->text + "').",
                        pos(x.location));
    const Kind kind = name == "to_date" ? Kind::Date : Kind::Timestamptz;
    return done(call("pg_to_time",
                     {std::move(f->args[0]), std::move(f->args[1]), text(std::string(pgtime::kind_name(kind)))}, loc),
                name == "to_date" ? "dialect:to_date" : "dialect:to_timestamp");
  }
  if (name == "make_date" && f->args.size() == 3) {
    for (const auto& a : f->args)
      if (!null_literal(a) && !(number(a) && integer_valued(a, ctx)))
        return refuse("make_date(year, month, day) on SQLite is translated for integers",
                      "FIX: pass integers, e.g. make_date(2026, 1, 31) or make_date(CAST(y AS integer), m, d).",
                      a.location);
    return done(call("pg_make_date", std::move(f->args), loc), "dialect:make_date");
  }
  if ((name == "sum" || name == "avg") && f->args.size() == 1 && time_kind(f->args[0], ctx) == Kind::Interval)
    return done(call(name == "sum" ? "pg_iv_sum" : "pg_iv_avg", {std::move(f->args[0])}, loc),
                "dialect:interval-aggregate");
  return {};
}

Status Admitter::interval_fields_on_sqlite(ast::Cast& c, int location) {
  // typmod range masks (PostgreSQL's INTERVAL_MASK): one field, a bare number in that field's unit.
  struct Unit {
    int mask;
    std::string_view unit;
  };
  static constexpr Unit kUnits[] = {{4, "years"},    {2, "months"},     {8, "days"},
                                    {1024, "hours"}, {2048, "minutes"}, {4096, "seconds"}};
  auto refuse = [&] {
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "this interval with fields (INTERVAL '...' DAY) is not translated on SQLite: only a whole "
                      "number with one field (YEAR, MONTH, DAY, HOUR, MINUTE, or SECOND with a decimal) is",
                      "FIX: write the unit in the text instead: INTERVAL '3 days'.", pos(location));
  };
  auto* lit = std::get_if<ast::Literal>(&c.arg->node);
  if (!lit || lit->kind != ast::LiteralKind::String || c.type.modifiers.size() != 1) return refuse();
  const Unit* unit = nullptr;
  for (const auto& u : kUnits)
    if (c.type.modifiers[0] == u.mask) unit = &u;
  if (!unit) return refuse();
  const std::string& t = lit->text;
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  const std::size_t digits = i;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i == digits || i - digits > 9) return refuse();
  if (unit->unit == "seconds" && i < t.size() && t[i] == '.') {
    const std::size_t fraction = ++i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i == fraction || i - fraction > 6) return refuse();
  }
  if (i != t.size()) return refuse();
  lit->text = t + " " + std::string(unit->unit);
  c.type.modifiers.clear();
  note_rewrite("dialect:interval-fields");
  return {};
}

}  // namespace qg::admit::detail
