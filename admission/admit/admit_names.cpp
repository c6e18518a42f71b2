// Name resolution: columns in their scopes, with suggestions, and the rewrites
// that happen where a name resolves (virtual columns, timestamp literals).
#include <array>
#include <cctype>
#include <utility>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/rewrite/time_literals.hpp"
#include "admission/rewrite/virtual_columns.hpp"

namespace qg::admit::detail {

std::optional<int> pos(int location) {
  return location >= 0 ? std::optional<int>(location) : std::nullopt;
}

std::string join_names(const std::vector<std::string>& names, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > max) out += ", ...";
  return out;
}

// Engine columns that exist on every row but are not data: refused by name so
// the refusal says why rather than "unknown column".
constexpr std::array<std::string_view, 10> kSystemColumns{"rowid", "_rowid_", "oid",  "ctid",     "xmin",
                                                          "xmax",  "cmin",    "cmax", "tableoid", "gp_segment_id"};

bool is_system_column(std::string_view name) {
  std::string lower(name);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::find(kSystemColumns.begin(), kSystemColumns.end(), lower) != kSystemColumns.end();
}

// What the engine will call an unaliased select item (PostgreSQL's rules, FigureColname; they
// also hold on SQLite for plain column references, which is what matters when
// an outer query refers to a derived table's columns). With the strength of
// the name, as PostgreSQL weighs it: 0 none (?column?), 1 a cast's type name
// (a cast of a cast is named after the outer type), 2 a name of its own.
namespace {

std::pair<std::string, int> figure(const ast::Expr& e) {
  return std::visit(
      [&](const auto& n) -> std::pair<std::string, int> {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>)
          return {n.column, 2};
        else if constexpr (std::is_same_v<T, ast::FuncCall>)
          return {n.name == "trim" ? "btrim" : n.name, 2};  // TRIM(x) is btrim(x) in PostgreSQL (convert_expr.cpp)
        else if constexpr (std::is_same_v<T, ast::Cast>) {
          auto inner = figure(*n.arg);
          return inner.second <= 1 ? std::pair<std::string, int>{n.type.name, 1} : inner;
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          // Named after its ELSE when that has a name of its own (CASE ... ELSE name END is "name").
          if (n.otherwise)
            if (auto inner = figure(**n.otherwise); inner.second == 2) return inner;
          return {"case", 1};
        } else if constexpr (std::is_same_v<T, ast::Coalesce>)
          return {"coalesce", 2};
        else if constexpr (std::is_same_v<T, ast::NullIf>)
          return {"nullif", 2};
        else if constexpr (std::is_same_v<T, ast::MinMax>)
          return {n.greatest ? "greatest" : "least", 2};
        else if constexpr (std::is_same_v<T, ast::SubLink>) {
          if (n.kind == ast::SubLinkKind::Exists) return {"exists", 2};
          if (n.kind != ast::SubLinkKind::Scalar) return {"?column?", 0};
          // PostgreSQL names a scalar subquery after its own (first) output column.
          const ast::Query* q = &*n.query;
          while (const auto* set = std::get_if<ast::SetOp>(&q->body)) q = &*set->left;
          const auto* select = std::get_if<ast::Select>(&q->body);
          if (select == nullptr || select->items.empty()) return {"?column?", 0};
          const auto& first = select->items.front();
          if (!first.alias.empty()) return {first.alias, 2};
          const std::string inner = figure(first.expr).first;
          return {inner.empty() ? "?column?" : inner, 2};  // a star: named after expansion, not here
        } else
          return {"?column?", 0};
      },
      e.node);
}

}  // namespace

std::string figure_name(const ast::Expr& e) {
  return figure(e).first;
}

Error Admitter::unknown_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) const {
  const std::string written = ref.table.empty() ? ref.column : ref.table + "." + ref.column;
  if (is_system_column(ref.column))
    return make_error(ErrorCode::ValidationSystemColumn, "'" + written + "' is an engine system column, not table data",
                      "FIX: use the table's own key column (see GET /v1/schema), e.g. id.", pos(location));
  // Candidate names for "did you mean", qualified by relation when there are several.
  std::vector<std::string> candidates;
  std::vector<std::string> bare;
  const Relation* only = nullptr;
  std::size_t relation_count = 0;
  for (const Scope* s = ctx.scope; s; s = s->parent)
    for (const auto& r : s->relations) {
      if (!ref.table.empty() && !same(r.name, ref.table)) continue;
      ++relation_count;
      only = &r;
      for (const auto& c : r.columns) {
        bare.push_back(c);
        candidates.push_back(r.name.empty() ? c : r.name + "." + c);
      }
    }
  if (ctx.output_names)
    for (const auto& n : *ctx.output_names) bare.push_back(n), candidates.push_back(n);
  std::string fix;
  if (!ref.table.empty() && relation_count == 0) {
    // Named later in the same FROM: an ON clause sees only the tables joined before it.
    for (const auto& later : from_names_)
      if (same(later, ref.table))
        return make_error(ErrorCode::ValidationUnknownColumn,
                          "'" + written + "': " + ref.table + " is joined after this point, so it is not visible here",
                          "FIX: move the condition to the ON clause of " + ref.table + "'s own JOIN, or to WHERE.",
                          pos(location));
    std::vector<std::string> names;
    for (const Scope* s = ctx.scope; s; s = s->parent)
      for (const auto& r : s->relations)
        if (!r.name.empty()) names.push_back(r.name);
    auto close = catalog::closest_names(ref.table, names, 1);
    fix = "FIX: qualify with a table or alias named in FROM";
    if (!close.empty())
      fix += " — did you mean " + close[0] + "." + ref.column + "?";
    else if (!names.empty())
      fix += ": " + join_names(names) + ".";
    else
      fix += "; this query level has no FROM clause.";
    return make_error(ErrorCode::ValidationUnknownColumn,
                      "'" + written + "': no table or alias named '" + ref.table + "' is in scope here", fix,
                      pos(location));
  }
  auto close = catalog::closest_names(ref.column, bare, 3);
  if (!close.empty()) {
    // Show qualified spellings of the suggestions when that disambiguates.
    std::vector<std::string> shown;
    for (const auto& c : close) {
      std::string best = c;
      for (std::size_t i = 0; i < bare.size(); ++i)
        if (bare[i] == c) {
          best = ref.table.empty() && relation_count > 1 ? candidates[i] : c;
          break;
        }
      if (std::find(shown.begin(), shown.end(), best) == shown.end()) shown.push_back(best);
    }
    fix = "did you mean " + join_names(shown, 3) + "?";
  } else {
    fix = "use one of the columns in scope.";
  }
  if (only && relation_count == 1 && !only->name.empty())
    fix += " Columns of " + only->name + ": " + join_names(only->columns) + ".";
  else if (!candidates.empty())
    fix += " Columns in scope: " + join_names(candidates) + ".";
  const bool double_quoted = location >= 0 && static_cast<std::size_t>(location) < sql_.size() && sql_[location] == '"';
  if (double_quoted && ref.table.empty())
    fix = "if you meant the text, write '" + ref.column +
          "' in single quotes (double quotes name columns); otherwise " + fix;
  fix = "FIX: " + fix;
  return make_error(ErrorCode::ValidationUnknownColumn, "column '" + written + "' does not exist in this scope", fix,
                    pos(location));
}

std::optional<int> quoted_token_end(std::string_view sql, int begin) {
  if (begin < 0 || static_cast<std::size_t>(begin) >= sql.size()) return std::nullopt;
  const char quote = sql[static_cast<std::size_t>(begin)];
  if (quote != '\'' && quote != '"') return std::nullopt;
  for (std::size_t i = static_cast<std::size_t>(begin) + 1; i < sql.size(); ++i) {
    if (sql[i] != quote) continue;
    if (i + 1 < sql.size() && sql[i + 1] == quote) {
      ++i;
      continue;
    }
    return static_cast<int>(i + 1);
  }
  return std::nullopt;
}

namespace {

// The expression reads a column (not a quoted name that is itself unknown: that one is refused first).
bool reads_a_column(const ast::Expr& e, std::string_view sql) {
  if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node))
    return !ref->star && !(e.location >= 0 && static_cast<std::size_t>(e.location) < sql.size() &&
                           sql[static_cast<std::size_t>(e.location)] == '"');
  bool found = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || reads_a_column(child, sql); });
  return found;
}

}  // namespace

Status Admitter::text_meant(Status refused, const ast::Expr& operand, const ast::Expr& other,
                            std::string_view op) const {
  static constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<", ">", "<=", ">="};
  if (refused || refused.error().code != ErrorCode::ValidationUnknownColumn ||
      std::find(std::begin(kComparisons), std::end(kComparisons), op) == std::end(kComparisons) ||
      !reads_a_column(other, sql_))
    return refused;
  const auto* ref = std::get_if<ast::ColumnRef>(&operand.node);
  const auto end = quoted_token_end(sql_, operand.location);
  if (!ref || ref->star || !ref->table.empty() || refused.error().position != pos(operand.location) || !end ||
      sql_[static_cast<std::size_t>(operand.location)] != '"')
    return refused;
  std::string text = "'";
  for (const char c : ref->column) text += c == '\'' ? std::string("''") : std::string(1, c);
  text += "'";
  Error e = std::move(refused).error();
  e.edit = TextEdit{operand.location, *end, std::move(text)};
  return e;
}

Result<const Relation*> Admitter::column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) {
  auto resolved = resolve_column(ref, location, ctx);
  if (!resolved || !*resolved) return resolved;
  const Relation& r = **resolved;
  // A reference the star expansion wrote (location -1) names the first of the duplicates on purpose.
  if (location < 0) return resolved;
  for (const auto& name : r.ambiguous)
    if (same(name, ref.column)) {
      const std::string relation = r.name.empty() ? "the subquery" : r.name;
      return make_error(ErrorCode::ValidationAmbiguousColumn,
                        "'" + (ref.table.empty() ? ref.column : ref.table + "." + ref.column) + "': " + relation +
                            " returns more than one column named " + ref.column,
                        "FIX: give them distinct names inside the subquery (SELECT t1." + ref.column + " AS " +
                            ref.column + "_1, t2." + ref.column + " AS " + ref.column + "_2 ...) and use those.",
                        pos(location));
    }
  return resolved;
}

Result<const Relation*> Admitter::resolve_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) {
  if (ref.star)
    return make_error(
        ErrorCode::ValidationUnsupported,
        "a whole-row reference (" + (ref.table.empty() ? std::string("*") : ref.table + ".*") +
            ") inside an expression",
        "FIX: name the columns you need, e.g. " + (ref.table.empty() ? std::string("t") : ref.table) + ".id.",
        pos(location));
  // A column hidden from the caller is not in Relation::columns; only the
  // operator's own expressions (virtual columns) may name it.
  auto has = [&](const Relation& r) {
    auto named = [&](const std::string& c) { return same(c, ref.column); };
    return std::any_of(r.columns.begin(), r.columns.end(), named) ||
           (ref.configured && std::any_of(r.hidden.begin(), r.hidden.end(), named));
  };
  shadow_fix_ = {};
  // A column hidden from the caller must leave no trace: the engine resolves an
  // unqualified name to the innermost column of that name, hidden or not, so a
  // name a hidden column shadows resolves as if the hidden column did not exist
  // and the reference is rewritten (shadow_fix_, applied by expr()) so that the
  // engine cannot see the hidden one either: qualified with the relation it
  // resolves to, or replaced by the output column's expression it names.
  bool hidden_shadow = false;
  for (const Scope* s = ctx.scope; s; s = s->parent) {
    if (!ref.table.empty()) {
      for (const auto& r : s->relations) {
        if (!same(r.name, ref.table)) continue;
        if (has(r)) return &r;
        return unknown_column(ref, location, ctx);
      }
      continue;
    }
    std::vector<const Relation*> matches;
    for (const auto& r : s->relations)
      if (has(r)) matches.push_back(&r);
    hidden_shadow = hidden_shadow ||
                    (!ref.configured && std::any_of(s->relations.begin(), s->relations.end(), [&](const Relation& r) {
                      return std::any_of(r.hidden.begin(), r.hidden.end(),
                                         [&](const std::string& c) { return same(c, ref.column); });
                    }));
    if (matches.size() == 1) {
      const Relation* r = matches.front();
      if (s != ctx.scope) {
        // A correlated reference: written qualified, the name must not mean an inner relation instead.
        for (const Scope* inner = ctx.scope; inner != s; inner = inner->parent)
          for (const auto& other : inner->relations)
            if (!r->name.empty() && same(other.name, r->name))
              return make_error(ErrorCode::ValidationAmbiguousColumn,
                                "column '" + ref.column + "' names a column of the outer " + r->name +
                                    ", and a relation of the inner query is also named " + r->name,
                                "FIX: give the outer " + r->name + " another alias (e.g. FROM ... AS " + r->name +
                                    "_outer) and write " + r->name + "_outer." + ref.column + ".",
                                pos(location));
      }
      if (hidden_shadow) {
        bool merged = false;
        for (const auto& u : r->using_columns) merged = merged || same(u, ref.column);
        if (merged || r->name.empty())
          return make_error(ErrorCode::ValidationAmbiguousColumn, "column '" + ref.column + "' is ambiguous here",
                            "FIX: qualify it with the relation it belongs to.", pos(location));
        shadow_fix_.qualifier = r->name;
      }
      return r;
    }
    if (matches.size() > 1) {
      // USING (x) merges x into one column; an unqualified x then means the merged one.
      bool merged = false;
      for (const auto* r : matches)
        for (const auto& u : r->using_columns) merged = merged || same(u, ref.column);
      if (merged && !hidden_shadow) return matches.front();
      std::vector<std::string> options;
      for (const auto* r : matches) options.push_back(r->name.empty() ? ref.column : r->name + "." + ref.column);
      return make_error(ErrorCode::ValidationAmbiguousColumn,
                        "column '" + ref.column + "' is ambiguous: " + join_names(options) + " all match",
                        "FIX: qualify it, e.g. " + options.front() + ".", pos(location));
    }
    // Not at this level: ORDER BY / GROUP BY may name an output column of this level.
    // (Not for system-column names: both engines resolve those to the hidden column first.)
    if (s == ctx.scope && ctx.output_names && !is_system_column(ref.column))
      for (std::size_t i = 0; i < ctx.output_names->size(); ++i)
        if (same((*ctx.output_names)[i], ref.column)) {
          // An array output column named by GROUP BY or ORDER BY (SQLite reads its JSON text).
          if (ctx.output_items && i < ctx.output_items->size())
            if (auto st =
                    array_output_reference_on_sqlite((*ctx.output_items)[i].expr, location, "GROUP BY or ORDER BY");
                !st)
              return std::move(st).error();
          if (hidden_shadow || outputs_by_value_) {
            if (!ctx.output_items || i >= ctx.output_items->size())
              return make_error(ErrorCode::ValidationAmbiguousColumn, "column '" + ref.column + "' is ambiguous here",
                                "FIX: write the output column's expression instead of its name.", pos(location));
            shadow_fix_.output = &(*ctx.output_items)[i].expr;
          }
          return static_cast<const Relation*>(nullptr);
        }
  }
  if (ctx.scope == nullptr && ctx.output_names)
    for (const auto& n : *ctx.output_names)
      if (same(n, ref.column)) return static_cast<const Relation*>(nullptr);
  return unknown_column(ref, location, ctx);
}

Status Admitter::substitute_virtual(ast::Expr& e, const Relation& relation, const ast::ColumnRef& ref,
                                    const ExprContext& ctx) {
  const auto* v = relation.table ? relation.table->find_virtual(ref.column, dialect_) : nullptr;
  if (!v) return {};
  // A physical column of the same name wins (attach_virtual_columns refuses such names anyway).
  if (relation.table->find_column(ref.column, dialect_)) return {};
  ast::Expr replacement = *v->expression;
  rewrite::qualify_columns(replacement, relation.name);
  const int location = e.location;
  e = std::move(replacement);
  e.location = location;
  note_rewrite("virtual-columns");
  return expr(e, ctx);
}

const catalog::Column* common_time_column(const std::vector<const catalog::Column*>& branches) {
  if (branches.empty() || !branches.front()) return nullptr;
  for (const auto* c : branches)
    if (!c ||
        (c != branches.front() && !rewrite::same_text_format(c->timestamp_sample, branches.front()->timestamp_sample)))
      return nullptr;
  return branches.front();
}

// The timestamp column an expression stands for: a reference to one (through
// derived tables and CTEs), min/max of one (in HAVING, or passed on by a
// subquery), a window function passing one row's value on (lag, lead,
// first_value, ...; without a default, which could be text, or with NULL), COALESCE/CASE (ifnull / iif)
// whose every result is one, stored alike (or NULL), NULLIF(one, x), or a scalar subquery answering one.
const catalog::Column* Admitter::timestamp_column(const ast::Expr& e, const ExprContext& ctx) {
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    if (f->star || f->sql_syntax || f->args.empty()) return nullptr;
    // pg_single: a scalar subquery's one row on SQLite (scalar_subquery.cpp), passed on unchanged.
    if ((f->name == "min" || f->name == "max" || f->name == "pg_single") && f->args.size() == 1)
      return timestamp_column(f->args.front(), ctx);
    // SQLite's ifnull(a, b) and iif(c, a, b): COALESCE and CASE (sqlite_spellings.cpp translates them so).
    if (f->name == "ifnull" && f->args.size() == 2 && !f->over) {
      const ast::Expr* kept = null_literal(f->args[1]) ? &f->args[0] : null_literal(f->args[0]) ? &f->args[1] : nullptr;
      if (kept) return timestamp_column(*kept, ctx);
      return common_time_column({timestamp_column(f->args[0], ctx), timestamp_column(f->args[1], ctx)});
    }
    if (f->name == "iif" && f->args.size() == 3 && !f->over) {
      if (null_literal(f->args[2])) return timestamp_column(f->args[1], ctx);
      if (null_literal(f->args[1])) return timestamp_column(f->args[2], ctx);
      return common_time_column({timestamp_column(f->args[1], ctx), timestamp_column(f->args[2], ctx)});
    }
    // lag / lead with a NULL default pass the value on as without one.
    const bool null_default =
        (f->name == "lag" || f->name == "lead") && f->args.size() == 3 && null_literal(f->args[2]);
    const bool passes_on =
        f->over && (((f->name == "lag" || f->name == "lead") && (f->args.size() <= 2 || null_default)) ||
                    ((f->name == "first_value" || f->name == "last_value") && f->args.size() == 1) ||
                    (f->name == "nth_value" && f->args.size() == 2));
    return passes_on ? timestamp_column(f->args.front(), ctx) : nullptr;
  }
  // (A NULL branch is NULL in any form: coalesce(start_time, NULL) printed SQLite's stored text; outside tester s13.)
  if (const auto* c = std::get_if<ast::Coalesce>(&e.node)) {
    std::vector<const catalog::Column*> branches;
    for (const auto& a : c->args)
      if (!null_literal(a)) branches.push_back(timestamp_column(a, ctx));
    return common_time_column(branches);
  }
  if (const auto* c = std::get_if<ast::Case>(&e.node)) {
    std::vector<const catalog::Column*> branches;
    for (const auto& w : c->whens)
      if (!null_literal(*w.result)) branches.push_back(timestamp_column(*w.result, ctx));
    if (c->otherwise && !null_literal(**c->otherwise)) branches.push_back(timestamp_column(**c->otherwise, ctx));
    return common_time_column(branches);
  }
  if (const auto* n = std::get_if<ast::NullIf>(&e.node)) return timestamp_column(*n->left, ctx);  // a or NULL
  // A scalar subquery passes its one output on: (SELECT min(start_time) FROM traces) is that column's value,
  // answered in the column's form (the stored text of SQLite is not the answer's).
  if (const auto* sub = std::get_if<ast::SubLink>(&e.node); sub && sub->kind == ast::SubLinkKind::Scalar) {
    const auto times = query_times(*sub->query);
    return times.size() == 1 ? times.front() : nullptr;
  }
  const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
  if (!ref || ref->star) return nullptr;
  auto relation = column(*ref, e.location, ctx);
  if (!relation || !*relation) return nullptr;
  const Relation& r = **relation;
  if (r.table) {
    const auto* c = r.table->find_column(ref->column, dialect_);
    return c && c->timestamp && !(c->timestamp_mixed && dialect_ == Dialect::Sqlite) ? c : nullptr;
  }
  for (std::size_t i = 0; i < r.columns.size() && i < r.timestamps.size(); ++i)
    if (same(r.columns[i], ref->column)) return r.timestamps[i];
  return nullptr;
}

Status Admitter::time_literal(const ast::Expr& column_side, ast::Expr& literal_side, const ExprContext& ctx) {
  auto* lit = std::get_if<ast::Literal>(&literal_side.node);
  if (!lit || lit->kind != ast::LiteralKind::String) return {};
  const catalog::Column* c = timestamp_column(column_side, ctx);
  if (!c) return {};
  auto decision = rewrite::check_time_literal(lit->text, c->name, c->timestamp_sample, literal_side.location);
  if (!decision) {
    Error refused = std::move(decision).error();
    if (refused.edit) {  // the ISO literal instead of the one written
      const auto end = quoted_token_end(sql_, refused.edit->begin);
      if (end && sql_[static_cast<std::size_t>(refused.edit->begin)] == '\'')
        refused.edit->end = *end;
      else
        refused.edit.reset();
    }
    return refused;
  }
  if (decision->note && std::find(notes.begin(), notes.end(), *decision->note) == notes.end())
    notes.push_back(*decision->note);
  if (decision->replacement) {
    lit->text = *decision->replacement;
    note_rewrite("time-literal");
  }
  return {};
}

}  // namespace qg::admit::detail
