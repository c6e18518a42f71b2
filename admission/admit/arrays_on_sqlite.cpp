// PostgreSQL arrays on SQLite (issue #12: "array_agg (as one documented JSON array form)"). SQLite has no array
// type; the registered functions return an array as a JSON array text (executors/sqlite/sqlite_arrays.hpp) and
// the executor answers it as the JSON array the PostgreSQL executor answers for the same array
// (docs/FIDELITY.md, "Arrays"):
//   array_agg(x [ORDER BY ...]) / array_agg(DISTINCT x [ORDER BY x]) [FILTER (WHERE ...)]:
//     pg_array_agg(x, spec, key...), which sorts and deduplicates itself (the spec as pg_string_agg's),
//     keeps NULL elements and answers NULL for no rows, as PostgreSQL does;
//   regexp_match(x, pattern [, flags]): pg_regexp_match (text_on_sqlite.cpp translates it with the other
//     regular expressions).
// What SQLite would do with that text differs from what PostgreSQL does with an array (compare, sort, group,
// deduplicate, cast to text '{a,b}', subscript, pass to a function), so an array value may stand in one place
// only: as the whole expression of an output column of the outermost SELECT (not DISTINCT). Anything else —
// in an expression, a subquery, a CTE, a set operation, named or numbered by ORDER BY or GROUP BY — is refused
// with a FIX. On PostgreSQL nothing here applies: arrays are its own.
#include <algorithm>
#include <string>
#include <string_view>

#include "admission/admit/admitter.hpp"
#include "admission/capability/capability.hpp"

namespace qg::admit::detail {
namespace {

bool array_function(std::string_view name) {
  return name == "array_agg" || name == "pg_array_agg" || name == "regexp_match" || name == "pg_regexp_match";
}

// What PostgreSQL calls the function (the translation's name is SQLite's).
std::string written(std::string_view name) {
  return std::string(name.starts_with("pg_") ? name.substr(3) : name);
}

ast::Expr text_literal(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}

// The output item is an array value on SQLite (its call, translated or not).
bool array_output(const ast::Expr& e) {
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  return f && array_function(f->name);
}

constexpr std::string_view kWholeColumnFix =
    "FIX: return the array as a whole output column of the outermost SELECT, e.g. SELECT project_id, "
    "array_agg(name ORDER BY name) AS names FROM t GROUP BY project_id; to compare, filter, sort or count, work "
    "on the elements instead: string_agg(x, ',' ORDER BY x), count(DISTINCT x), or x IN (SELECT ...).";

}  // namespace

Status Admitter::array_position_on_sqlite(const ast::FuncCall& f, int location) {
  if (dialect_ != Dialect::Sqlite || !array_function(f.name)) return {};
  const auto* item = array_item_ ? std::get_if<ast::FuncCall>(&array_item_->node) : nullptr;
  if (item == &f) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    written(f.name) +
                        "() returns an array, which SQLite holds as JSON text: on SQLite an array is answered only "
                        "as a whole output column of the outermost SELECT (not DISTINCT, not in a subquery, CTE or "
                        "UNION, not inside another expression), never compared, sorted, grouped or read",
                    std::string(kWholeColumnFix), pos(location));
}

// ORDER BY / GROUP BY naming or numbering an array output column: PostgreSQL sorts or groups by the array;
// SQLite would by its JSON text.
Status Admitter::array_output_reference_on_sqlite(const ast::Expr& output, int location, const char* where) {
  if (dialect_ != Dialect::Sqlite || !array_output(output)) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    std::string(where) +
                        " an array output column is not translated on SQLite (PostgreSQL compares arrays element "
                        "by element; SQLite would compare their JSON text)",
                    "FIX: " + std::string(where) +
                        " the elements' own value instead, e.g. ORDER BY min(x) or the group's key; or leave the "
                        "array column out of " +
                        where + ".",
                    pos(location));
}

Status Admitter::array_outputs_on_sqlite(const ast::Select& s, int location) {
  if (dialect_ != Dialect::Sqlite || !s.distinct) return {};
  for (const auto& item : s.items)
    if (array_output(item.expr))
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        "SELECT DISTINCT with an array output column is not translated on SQLite (PostgreSQL "
                        "compares arrays element by element; SQLite would compare their JSON text)",
                        "FIX: make the rows distinct before aggregating (GROUP BY the keys, array_agg(DISTINCT x)), "
                        "and drop DISTINCT.",
                        pos(item.expr.location >= 0 ? item.expr.location : location));
  return {};
}

Status Admitter::array_agg_on_sqlite(ast::FuncCall& f, int location, const ExprContext& ctx) {
  auto refuse = [&](const std::string& why, const std::string& fix, int at = -1) {
    return make_error(ErrorCode::CapabilityNotOnSqlite, why, fix, pos(at >= 0 ? at : location));
  };
  if (f.args.size() != 1 || f.star || !f.within_group.empty())
    return make_error(ErrorCode::ValidationUnsupported, "array_agg() takes one value",
                      "FIX: write array_agg(x) (or array_agg(x ORDER BY y)).", pos(location));
  if (f.over)
    return refuse("array_agg() OVER (...) is not translated on SQLite (only as an aggregate over a GROUP BY)",
                  "FIX: compute array_agg() per group (SELECT key, array_agg(x) FROM t GROUP BY key).");
  // DISTINCT's ORDER BY must be the argument (PostgreSQL's rule): checked as written, before admission.
  if (f.distinct)
    for (const auto& item : f.order_by)
      if (!(*item.expr == f.args.front()))
        return make_error(ErrorCode::ValidationUnsupported,
                          "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list",
                          "FIX: order by the aggregated value itself: array_agg(DISTINCT x ORDER BY x).",
                          pos(item.expr->location >= 0 ? item.expr->location : location));
  if (auto s = expr(f.args.front(), ctx); !s) return s;
  if (f.filter) {
    if (auto s = construct(capability::Construct::AggregateFilter, location); !s) return s;
    if (auto s = condition_type(**f.filter, ctx, "FILTER"); !s) return s;
    if (auto s = expr(**f.filter, ctx); !s) return s;
  }
  // The element's type names the array's ("text[]") and says how each element is answered.
  const ast::Expr& value = f.args.front();
  const int at = value.location;
  const SqlType t = value_type(value, ctx).type;
  switch (t) {
    case SqlType::Boolean:
    case SqlType::Integer:
    case SqlType::Numeric:
    case SqlType::Float:
    case SqlType::Text:
      break;
    case SqlType::Json:
      return refuse("array_agg() of a jsonb value is not translated on SQLite",
                    "FIX: aggregate the JSON values as text: array_agg(x ->> 'key'), or jsonb_agg on PostgreSQL.", at);
    case SqlType::Time:
      return refuse("array_agg() of a time value is not translated on SQLite",
                    "FIX: aggregate a number made from it, array_agg(date_part('epoch', t)), or list the times as "
                    "text: string_agg(to_char(t, 'YYYY-MM-DD HH24:MI:SS'), ', ').",
                    at);
    case SqlType::Unknown:
    case SqlType::Untyped:
    case SqlType::Null:
      return refuse("array_agg() of a value whose type admission does not know is not translated on SQLite",
                    "FIX: cast the value to the element type you mean, e.g. array_agg(CAST(x AS text)).", at);
  }
  if (time_kind(value, ctx))
    return refuse("array_agg() of a time value is not translated on SQLite",
                  "FIX: aggregate a number or text made from it, e.g. array_agg(date_part('epoch', t)).", at);
  // DISTINCT of exact numerics (x / 3.0, avg(x)): pg_array_agg would dedupe and sort the doubles (two values a
  // double cannot tell apart were one; outside tester s16b).
  if (f.distinct && dialect_ == Dialect::Sqlite && exact_call(value))
    return refuse(
        "array_agg(DISTINCT ...) of an exact numeric is not translated on SQLite: it would dedupe the "
        "doubles nearest the values, where PostgreSQL compares every digit",
        "FIX: take the distinct values in a subquery, which SQLite dedupes exactly: SELECT array_agg(x ORDER "
        "BY x) FROM (SELECT DISTINCT x FROM ...) AS d.",
        at);
  std::string spec = f.distinct ? "D" : "-";
  std::vector<ast::Expr> keys;
  for (auto& item : f.order_by) {
    if (auto s = expr(*item.expr, ctx); !s) return s;
    if (value_type(*item.expr, ctx).type == SqlType::Json)
      return refuse("array_agg(... ORDER BY a jsonb value) is not translated on SQLite",
                    "FIX: order by a key read as text or a number: ORDER BY x ->> 'key'.", item.expr->location);
    time_sort_on_sqlite(item, *item.expr, ctx);
    spec += f.distinct ? sort_letters(item) : exact_sort_key(item, ctx);
    // With DISTINCT the key is the value itself: pg_array_agg sorts by the value, no key argument.
    if (!f.distinct) keys.push_back(std::move(*item.expr));
  }
  f.order_by.clear();
  f.distinct = false;
  f.args.push_back(text_literal(spec));
  for (auto& k : keys) f.args.push_back(std::move(k));
  f.name = "pg_array_agg";
  note_rewrite("dialect:array_agg");
  return {};
}

}  // namespace qg::admit::detail
