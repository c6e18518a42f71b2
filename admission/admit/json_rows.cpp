// jsonb row sources in FROM (issue #12): agents discover JSON keys and unnest
// attributes with
//   SELECT k, count(*) FROM spans, jsonb_object_keys(attributes) AS k GROUP BY k
//   SELECT e.key, e.value FROM spans s CROSS JOIN LATERAL jsonb_each_text(s.attributes) AS e
// Admitted (ast::JsonRows, made by convert_from.cpp): jsonb_each, jsonb_each_text,
// jsonb_object_keys, jsonb_array_elements and jsonb_array_elements_text with
// one argument, a JSON column or an arrow (->) of one; implicitly LATERAL (the
// argument may name FROM items to its left), as in PostgreSQL. Their columns
// are PostgreSQL's: (key text, value jsonb), (key text, value text), one text
// column named as the function or its alias, (value jsonb), (value text).
//
// PostgreSQL runs them as written. SQLite runs
//   json_each(pg_json_rows(x, 'jsonb_each')) AS e
// where pg_json_rows (executors/sqlite/sqlite_json_rows.cpp) raises
// PostgreSQL's error where PostgreSQL's function does (an object function on
// an array or scalar, an array function on an object or scalar) and otherwise
// hands json_each the elements in jsonb's order with the text PostgreSQL gives
// each value. A reference to the source's columns reads json_each's `key` or
// `value` (ColumnRef::engine_column). json_each has more columns (id, type,
// path, ...), so on SQLite every unqualified reference named like one of them
// is qualified with its own relation's name, or refused.
//
// Lineage: every key and value carries the argument's taint (untrusted JSON
// gives untrusted keys and values). Bounds: a row source multiplies rows like
// a join of stored data (the run-time caps and deadline bound it); a key or
// value is at most about twice the argument's text (PostgreSQL's spacing).
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "admission/admit/admitter.hpp"
#include "admission/ast/tree_walk.hpp"

namespace qg::admit::detail {
namespace {

// json_each's columns, hidden ones included: an unqualified name among them is ambiguous to SQLite.
constexpr std::array<std::string_view, 10> kJsonEachColumns = {"key",    "value",   "type", "atom", "id",
                                                               "parent", "fullkey", "path", "json", "root"};

}  // namespace

// SQLite compares names without regard to ASCII case.
bool json_each_column(std::string_view name) {
  return std::any_of(kJsonEachColumns.begin(), kJsonEachColumns.end(), [&](std::string_view c) {
    return c.size() == name.size() && std::equal(c.begin(), c.end(), name.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  });
}

namespace {

// A JSON column, or an arrow chain -> 'k' / -> 0 on one, as written.
bool json_column_or_arrow(const ast::Expr& e) {
  if (const auto* c = std::get_if<ast::ColumnRef>(&e.node)) return !c->star;
  if (const auto* o = std::get_if<ast::Operator>(&e.node))
    return o->op == "->" && o->left && json_column_or_arrow(**o->left);
  return false;
}

}  // namespace

void Admitter::note_json_rows(const ast::Query& q) {
  ast::walk_tree(
      q, [](const ast::Expr&) {},
      [&](const ast::FromItem& f) {
        if (std::holds_alternative<ast::JsonRows>(f.node)) json_rows_in_statement_ = true;
      });
}

Status Admitter::json_rows_table(ast::JsonRows& t, const Scope& level, const CteEnv* ctes, Relation& r, int location) {
  const std::string& f = t.function;
  const bool keys = f == "jsonb_object_keys";
  const bool object = f == "jsonb_each" || f == "jsonb_each_text" || keys;
  const bool text = f == "jsonb_each_text" || f == "jsonb_array_elements_text";
  const std::string example = f + "(attributes)";
  if (t.args.size() != 1)
    return make_error(ErrorCode::ValidationUnsupported, f + "() in FROM takes one argument, a jsonb value",
                      "FIX: write " + example + " AS " + (keys ? "k" : "e") + ".", pos(location));
  ast::Expr& arg = t.args.front();
  if (!json_column_or_arrow(arg))
    return make_error(ErrorCode::ValidationUnsupported,
                      f + "() in FROM is admitted on a JSON column or an arrow (->) of one",
                      "FIX: pass the column itself or a step into it, e.g. " + f + "(s.attributes) or " + f +
                          "(s.attributes -> 'key'), naming a table to its left in FROM.",
                      pos(arg.location >= 0 ? arg.location : location));
  ExprContext ctx{&level, ctes, nullptr};
  json_text_allowed_ = &arg;  // pg_json_rows reads the JSON text of x -> 'k'
  if (auto s = expr(arg, ctx); !s) return s;
  if (value_type(arg, ctx).type != SqlType::Json)
    return make_error(ErrorCode::ValidationUnsupported, f + "() needs a jsonb argument",
                      "FIX: pass a JSON column (see GET /v1/schema), e.g. " + example + ".",
                      pos(arg.location >= 0 ? arg.location : location));
  const Lineage arg_lineage = lineage(arg, ctx);
  const Lineage each{arg_lineage.taint == Taint::None ? Taint::None : Taint::Text, ValueKind::Other};
  const SizeBound b = bound_of(arg, ctx, nullptr);
  const SizeBound element{2 * b.k + 8, 2 * b.g, b.in};
  const Reads reads = reads_of(arg, ctx);
  r.name = t.alias ? t.alias->name : f;
  r.source = f + "(...)";
  if (keys) {
    r.columns = {t.alias ? t.alias->name : f};  // a scalar function's column takes the alias's name
    r.engine_columns = {"key"};
    r.types = {ValueType{SqlType::Text}};
  } else if (object) {
    r.columns = {"key", "value"};
    r.engine_columns = {"key", "value"};
    r.types = {ValueType{SqlType::Text}, ValueType{text ? SqlType::Text : SqlType::Json}};
  } else {
    r.columns = {"value"};
    r.engine_columns = {"value"};
    r.types = {ValueType{text ? SqlType::Text : SqlType::Json}};
  }
  const std::size_t n = r.columns.size();
  if (dialect_ != Dialect::Sqlite) r.engine_columns.clear();
  r.lineage.assign(n, each);
  r.reads.assign(n, reads);
  r.plain.assign(n, Reads{});
  r.timestamps.assign(n, nullptr);
  r.literal_text.assign(n, false);
  r.time_kinds.assign(n, std::nullopt);
  r.bounds.assign(n, element);
  r.generated_rows = false;  // as many rows as the stored JSON has elements
  if (dialect_ == Dialect::Sqlite && !t.on_sqlite) {
    t.on_sqlite = true;
    note_rewrite("dialect:json-rows");
  }
  return {};
}

Status Admitter::json_rows_reference(ast::ColumnRef& ref, const Relation& relation, int location) {
  if (dialect_ != Dialect::Sqlite || !json_rows_in_statement_ || ref.star) return {};
  if (!relation.engine_columns.empty()) {
    for (std::size_t i = 0; i < relation.columns.size() && i < relation.engine_columns.size(); ++i)
      if (same(relation.columns[i], ref.column)) {
        ref.table = relation.name;
        ref.engine_column = relation.engine_columns[i];
        return {};
      }
    return make_error(ErrorCode::Internal, "a column of " + relation.source + " without its json_each column",
                      "FIX: this is a gateway defect; name the column as " + relation.source + " defines it.",
                      pos(location));
  }
  if (!ref.table.empty() || !json_each_column(ref.column)) return {};
  const bool merged = std::any_of(relation.using_columns.begin(), relation.using_columns.end(),
                                  [&](const std::string& u) { return same(u, ref.column); });
  if (!relation.name.empty() && !merged) {
    ref.table = relation.name;
    return {};
  }
  return make_error(
      ErrorCode::CapabilityNotOnSqlite,
      "the unqualified column " + ref.column +
          " next to a jsonb row source: on SQLite json_each has a column of that name too",
      "FIX: qualify it with its table's alias (e.g. s." + ref.column + ") and give a subquery in FROM an alias.",
      pos(location));
}

}  // namespace qg::admit::detail
