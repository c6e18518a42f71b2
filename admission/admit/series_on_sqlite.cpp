// generate_series calendars on SQLite (issue #12). PostgreSQL writes them as a
// set-returning function in the select list:
//   SELECT generate_series(date_trunc('month', min(t)), date_trunc('month', max(t)), '1 month'::interval) AS m
//   FROM payments
// SQLite has no such function; querygate registers pg_series, a table-valued
// function (executors/sqlite/sqlite_series.cpp), and rewrites the query around it:
//   SELECT qg_series.value AS m
//   FROM (SELECT date_trunc(...) AS qg_start, date_trunc(...) AS qg_stop, '1 month'::interval AS qg_step
//         FROM payments) AS qg_args, pg_series(qg_args.qg_start, qg_args.qg_stop, qg_args.qg_step, 'timestamptz') AS
//         qg_series
// one series per row of the original query (its FROM, WHERE, GROUP BY and
// HAVING move inside), as PostgreSQL expands a select-list set-returning
// function. Reported as dialect:generate_series. Translated: one select item
// holding one generate_series(start, stop, interval step) with timestamps or
// dates (dates give timestamptz, as in PostgreSQL), wrapped at most in casts and
// functions of constants (to_char(generate_series(...), 'YYYY-MM'), ...::date);
// the query level has no DISTINCT, window, ORDER BY, LIMIT or OFFSET. Anything
// else stays refused. The series' values keep the lineage of its arguments.
#include <algorithm>
#include <cctype>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/capability/capability.hpp"

namespace qg::admit::detail {
namespace {

using pgtime::Kind;

bool is_series(const ast::Expr& e) {
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  return f && f->name == "generate_series";
}

// Calls of generate_series in `e`, not looking into subqueries (their own queries are rewritten on their own).
int count_series(const ast::Expr& e) {
  int n = is_series(e) ? 1 : 0;
  if (std::holds_alternative<ast::SubLink>(e.node)) return n;
  ast::for_each_child(e, [&](const ast::Expr& child) { n += count_series(child); });
  return n;
}

// A value that does not depend on the row: literals and casts of literals.
bool constant(const ast::Expr& e) {
  if (std::holds_alternative<ast::Literal>(e.node)) return true;
  if (const auto* c = std::get_if<ast::Cast>(&e.node)) return constant(*c->arg);
  return false;
}

// The path from an item to its generate_series: casts, and scalar functions or operators whose other
// operands are constants. Returns the call, or nullptr when the item has another shape.
ast::Expr* series_call(ast::Expr& e) {
  if (is_series(e)) return &e;
  if (auto* c = std::get_if<ast::Cast>(&e.node)) return series_call(*c->arg);
  if (auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    if (f->star || f->distinct || f->over || f->filter || !f->order_by.empty() || !f->within_group.empty())
      return nullptr;
    if (const auto* row = capability::find_function(f->name); !row || row->kind != capability::FunctionKind::Scalar)
      return nullptr;
    ast::Expr* found = nullptr;
    for (auto& a : f->args) {
      if (count_series(a) == 1 && !found) {
        found = series_call(a);
        if (!found) return nullptr;
      } else if (!constant(a)) {
        return nullptr;
      }
    }
    return found;
  }
  if (auto* o = std::get_if<ast::Operator>(&e.node)) {
    if (o->left && count_series(**o->left) == 1) return constant(*o->right) ? series_call(**o->left) : nullptr;
    if (count_series(*o->right) == 1 && (!o->left || constant(**o->left))) return series_call(*o->right);
  }
  return nullptr;
}

bool names_series(const ast::Expr& e) {
  if (is_series(e)) return true;
  const auto* c = std::get_if<ast::Cast>(&e.node);
  return c && names_series(*c->arg);
}

ast::Expr column_ref(std::string table, std::string name, int location) {
  return ast::make_expr(ast::ColumnRef{std::move(table), std::move(name), false}, location);
}

constexpr std::string_view kSeriesFix =
    "FIX: write the calendar as the only item of its own query, e.g. WITH months AS (SELECT "
    "generate_series(date_trunc('month', min(t)), date_trunc('month', max(t)), INTERVAL '1 month') AS m FROM tbl) "
    "SELECT ... FROM months LEFT JOIN ...; order and limit outside it.";

}  // namespace

Status Admitter::series_select_on_sqlite(ast::Query& q) {
  if (dialect_ != Dialect::Sqlite) return {};
  auto* s = std::get_if<ast::Select>(&q.body);
  if (!s) return {};
  int calls = 0;
  for (const auto& item : s->items) calls += count_series(item.expr);
  if (calls == 0) return {};
  const int loc = s->items.front().expr.location;
  auto refuse = [&](const std::string& why) {
    return make_error(ErrorCode::CapabilityNotOnSqlite, "generate_series() on SQLite: " + why, std::string(kSeriesFix),
                      pos(loc));
  };
  if (calls != 1 || s->items.size() != 1) return refuse("translated as the only item of its select list, called once");
  if (s->distinct || !s->distinct_on.empty() || !s->windows.empty() || !q.order_by.empty() || q.limit || q.offset)
    return refuse("translated in a query without DISTINCT, WINDOW, ORDER BY, LIMIT or OFFSET");
  ast::SelectItem& item = s->items.front();
  ast::Expr* call = series_call(item.expr);
  if (!call)
    return refuse(
        "translated alone or inside casts and functions of constants, e.g. to_char(generate_series(...), 'YYYY-MM')");
  auto& f = std::get<ast::FuncCall>(call->node);
  if (f.args.size() != 3)
    return refuse(
        "translated as a calendar, generate_series(start, stop, INTERVAL '1 month') (integer series are "
        "not admitted)");
  // A bare '1 month' step is an interval in PostgreSQL (typed from the other arguments): say so for SQLite.
  if (const auto* l = std::get_if<ast::Literal>(&f.args[2].node); l && l->kind == ast::LiteralKind::String) {
    if (!std::any_of(l->text.begin(), l->text.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      return refuse("the step must be an interval");
    const int step_loc = f.args[2].location;
    f.args[2] =
        ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(f.args[2])), ast::TypeName{"interval", {}}}, step_loc);
  }
  const int call_loc = call->location;
  if (item.alias.empty() && names_series(item.expr)) item.alias = "generate_series";
  // The query's rows, with the three arguments as its columns.
  ast::Select inner;
  static constexpr const char* kArgs[] = {"qg_start", "qg_stop", "qg_step"};
  for (std::size_t i = 0; i < 3; ++i) inner.items.push_back(ast::SelectItem{std::move(f.args[i]), kArgs[i]});
  inner.from = std::move(s->from);
  inner.where = std::move(s->where);
  inner.group_by = std::move(s->group_by);
  inner.having = std::move(s->having);
  ast::Query inner_query;
  inner_query.body = std::move(inner);
  inner_query.location = q.location;
  ast::SeriesTable series;
  for (const char* a : kArgs) series.args.push_back(column_ref("qg_args", a, call_loc));
  series.alias = ast::Alias{"qg_series", {}};
  *call = column_ref("qg_series", "value", call_loc);
  s->from.clear();
  s->where.reset();
  s->group_by.clear();
  s->having.reset();
  s->from.push_back(ast::FromItem{
      ast::DerivedTable{ast::Box<ast::Query>(std::move(inner_query)), ast::Alias{"qg_args", {}}, false}, call_loc});
  s->from.push_back(ast::FromItem{std::move(series), call_loc});
  note_rewrite("dialect:generate_series");
  return {};
}

Status Admitter::series_table_on_sqlite(ast::SeriesTable& t, const Scope& level, const CteEnv* ctes, Relation& r,
                                        int location) {
  if (dialect_ != Dialect::Sqlite || t.args.size() != 3)
    return make_error(ErrorCode::ValidationUnsupported, "a function call in FROM is not admitted",
                      "FIX: read from an allowlisted table (see GET /v1/schema).", pos(location));
  ExprContext ctx{&level, ctes, nullptr};
  if (auto s = exprs(t.args, ctx); !s) return s;
  const auto start = time_kind(t.args[0], ctx), stop = time_kind(t.args[1], ctx), step = time_kind(t.args[2], ctx);
  auto stamp = [](std::optional<Kind> k) { return k == Kind::Timestamptz || k == Kind::Timestamp || k == Kind::Date; };
  if (!stamp(start) || !stamp(stop) || step != Kind::Interval)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "generate_series() on SQLite is translated for timestamps or dates with an interval step "
                      "(a calendar)",
                      "FIX: pass timestamps or dates and an interval, e.g. generate_series(DATE '2026-01-01', DATE "
                      "'2026-06-01', INTERVAL '1 month'), or date_trunc('month', min(t)) for a column t.",
                      pos(location));
  // PostgreSQL's generate_series(timestamp, timestamp, interval) only when both ends are timestamps without zone;
  // dates and timestamptz values meet in timestamptz.
  const Kind kind = start == Kind::Timestamp && stop == Kind::Timestamp ? Kind::Timestamp : Kind::Timestamptz;
  t.kind = std::string(pgtime::kind_name(kind));
  Lineage joined{Taint::None, ValueKind::Other};
  for (const auto& a : t.args) joined.taint = std::max(joined.taint, lineage(a, ctx).taint);
  r.source = "generate_series(...)";
  r.columns = {"value"};
  r.lineage = {joined};
  r.reads = {Reads{}};
  r.plain = {Reads{}};
  r.timestamps = {nullptr};
  r.literal_text = {false};
  r.time_kinds = {kind};
  r.types = {ValueType{SqlType::Time}};
  r.bounds = {bound_of(t.args[0], ctx, nullptr)};
  r.generated_rows = true;
  return {};
}

}  // namespace qg::admit::detail
