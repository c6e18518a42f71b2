// Queries: WITH, FROM (tables, CTEs, derived tables, VALUES, joins), star
// expansion, grouping, set operations — and the entry point admit().
#include <functional>

#include "admission/admit/admitter.hpp"

namespace qg::admit {
namespace detail {

std::vector<std::string> Admitter::name_outputs(ast::Query& q, std::vector<std::string>& names) {
  ast::Query* defining = &q;
  while (auto* set = std::get_if<ast::SetOp>(&defining->body)) defining = &*set->left;
  auto* select = std::get_if<ast::Select>(&defining->body);
  if (!select) return {};
  bool named = false;
  // SQLite names an unaliased expression column by its text ("count(*)"); the
  // names admission resolved outer references with are the grammar's ("count").
  if (dialect_ == Dialect::Sqlite)
    for (std::size_t i = 0; i < select->items.size() && i < names.size(); ++i) {
      auto& item = select->items[i];
      if (!item.alias.empty() || std::holds_alternative<ast::ColumnRef>(item.expr.node)) continue;
      item.alias = names[i];
      named = true;
    }
  // Two columns with one name (t1.id, t2.id; max(a), max(b)): a star over the
  // subquery must read both, by position, so the later ones get distinct names.
  std::vector<std::string> duplicated;
  for (std::size_t i = 0; i < names.size() && i < select->items.size(); ++i) {
    bool seen = false;
    for (std::size_t j = 0; j < i; ++j) seen = seen || same(names[j], names[i]);
    if (!seen) continue;
    if (std::none_of(duplicated.begin(), duplicated.end(), [&](const std::string& d) { return same(d, names[i]); }))
      duplicated.push_back(names[i]);
    std::string unique;
    for (int k = 2;; ++k) {
      unique = names[i] + "_" + std::to_string(k);
      if (std::none_of(names.begin(), names.end(), [&](const std::string& n) { return same(n, unique); })) break;
    }
    select->items[i].alias = unique;
    names[i] = unique;
    named = true;
  }
  if (named) note_rewrite("column-names");
  return duplicated;
}

Status Admitter::from_item(ast::FromItem& item, Scope& level, const CteEnv* ctes) {
  const int loc = item.location;
  auto apply_alias = [&](Relation& r, const std::optional<ast::Alias>& alias) -> Status {
    if (!alias) return {};
    r.name = alias->name;
    if (!alias->columns.empty()) {
      if (alias->columns.size() > r.columns.size())
        return make_error(ErrorCode::ValidationUnsupported,
                          "alias " + alias->name + " names " + std::to_string(alias->columns.size()) +
                              " columns but the source has " + std::to_string(r.columns.size()),
                          "FIX: name at most " + std::to_string(r.columns.size()) + " columns.", pos(loc));
      std::copy(alias->columns.begin(), alias->columns.end(), r.columns.begin());
    }
    return {};
  };
  return std::visit(
      [&](auto& n) -> Status {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::TableRef>) {
          Relation r;
          r.name = n.name;
          bool found = false;
          if (!n.schema.empty() && (catalog_.schema.empty() || !same(n.schema, catalog_.schema)))
            return make_error(
                ErrorCode::ValidationQualifiedName,
                "'" + n.schema + "." + n.name + "' names schema '" + n.schema + "'" +
                    (catalog_.schema.empty() ? std::string()
                                             : ": this database serves schema '" + catalog_.schema + "'") +
                    ", and only its allowlisted tables are visible",
                "FIX: write the bare table name " + n.name + ".", pos(n.location));
          // A qualified name never means a CTE.
          for (const CteEnv* env = n.schema.empty() ? ctes : nullptr; env && !found; env = env->parent)
            for (auto it = env->ctes.rbegin(); it != env->ctes.rend(); ++it)
              if (same(it->name, n.name)) {
                r.columns = it->columns;
                r.untrusted = it->untrusted;
                r.ambiguous = it->ambiguous;
                found = true;
                break;
              }
          if (!found) {
            const auto* table = catalog_.find_table(n.name);
            if (!table) {
              std::vector<std::string> names;
              for (const auto& t : catalog_.tables) names.push_back(t.name);
              for (const CteEnv* env = ctes; env; env = env->parent)
                for (const auto& c : env->ctes) names.push_back(c.name);
              auto close = catalog::closest_names(n.name, names, 2);
              std::string fix = close.empty() ? "FIX: query one of the allowlisted tables: " + join_names(names) + "."
                                              : "FIX: did you mean " + join_names(close) +
                                                    "? Allowlisted tables: " + join_names(names) + ".";
              return make_error(ErrorCode::ValidationTableNotAllowed,
                                "table '" + n.name + "' is not available: it is not on this database's allowlist", fix,
                                pos(n.location));
            }
            r.name = table->name;
            r.table = table;
            for (const auto& c : table->columns) r.columns.push_back(c.name);
            for (const auto& v : table->virtual_columns) r.columns.push_back(v.name);
            r.untrusted = table_taint(*table);
          }
          if (n.alias && !n.alias->columns.empty())
            if (auto s = construct(capability::Construct::RelationColumnAliases, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          level.relations.push_back(std::move(r));
          return {};
        } else if constexpr (std::is_same_v<T, ast::DerivedTable>) {
          if (n.lateral)
            if (auto s = construct(capability::Construct::Lateral, loc); !s) return s;
          // Without LATERAL a subquery in FROM sees only the enclosing query's scope, not its siblings.
          auto cols = query(*n.query, n.lateral ? &level : level.parent, ctes);
          if (!cols) return std::move(cols).error();
          Relation r;
          r.ambiguous = name_outputs(*n.query, *cols);
          r.columns = std::move(cols).value();
          r.untrusted = query_taint(*n.query);
          if (n.alias && !n.alias->columns.empty())
            if (auto s = construct(capability::Construct::RelationColumnAliases, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          level.relations.push_back(std::move(r));
          return {};
        } else if constexpr (std::is_same_v<T, ast::ValuesTable>) {
          if (auto s = construct(capability::Construct::ValuesInFrom, loc); !s) return s;
          ExprContext ctx{level.parent, ctes, nullptr};
          for (auto& row : n.rows)
            if (auto s = exprs(row, ctx); !s) return s;
          Relation r;
          const std::size_t width = n.rows.empty() ? 0 : n.rows.front().size();
          for (std::size_t i = 0; i < width; ++i) r.columns.push_back("column" + std::to_string(i + 1));
          r.untrusted.assign(width, false);  // literals only: nothing an end user wrote
          if (auto s = apply_alias(r, n.alias); !s) return s;
          level.relations.push_back(std::move(r));
          return {};
        } else if constexpr (std::is_same_v<T, ast::Join>) {
          if (n.kind == ast::JoinKind::Right)
            if (auto s = construct(capability::Construct::RightJoin, loc); !s) return s;
          if (n.kind == ast::JoinKind::Full)
            if (auto s = construct(capability::Construct::FullJoin, loc); !s) return s;
          const std::size_t before = level.relations.size();
          if (auto s = from_item(*n.left, level, ctes); !s) return s;
          const std::size_t middle = level.relations.size();
          if (auto s = from_item(*n.right, level, ctes); !s) return s;
          for (const auto& u : n.using_columns) {
            auto has = [&](std::size_t from, std::size_t to) {
              for (std::size_t i = from; i < to; ++i)
                for (const auto& c : level.relations[i].columns)
                  if (same(c, u)) return true;
              return false;
            };
            if (!has(before, middle) || !has(middle, level.relations.size()))
              return make_error(ErrorCode::ValidationUnknownColumn,
                                "USING (" + u + "): the column must exist on both sides of the join",
                                "FIX: join with ON left.col = right.col naming the real columns.", pos(loc));
            for (std::size_t i = before; i < level.relations.size(); ++i) level.relations[i].using_columns.push_back(u);
          }
          if (n.on) {
            ExprContext ctx{&level, ctes, nullptr};
            if (auto s = expr(**n.on, ctx); !s) return s;
          }
          return {};
        }
      },
      item.node);
}

Status Admitter::expand_stars(ast::Select& s, const Scope& level, int location) {
  std::vector<ast::SelectItem> out;
  bool expanded = false;
  for (auto& item : s.items) {
    const auto* ref = std::get_if<ast::ColumnRef>(&item.expr.node);
    if (!ref || !ref->star) {
      out.push_back(std::move(item));
      continue;
    }
    const int loc = item.expr.location >= 0 ? item.expr.location : location;
    if (level.relations.empty())
      return make_error(ErrorCode::ValidationStarWithoutFrom, "SELECT * has no FROM clause to expand",
                        "FIX: name the values you want, or add FROM <table>.", pos(loc));
    bool matched = false;
    std::vector<std::string> seen_using;
    for (const auto& r : level.relations) {
      if (!ref->table.empty() && !same(r.name, ref->table)) continue;
      matched = true;
      for (const auto& c : r.columns) {
        // An unqualified * shows a USING-merged column once.
        const bool merged = std::any_of(r.using_columns.begin(), r.using_columns.end(),
                                        [&](const std::string& u) { return same(u, c); });
        if (ref->table.empty() && merged) {
          if (std::any_of(seen_using.begin(), seen_using.end(), [&](const std::string& u) { return same(u, c); }))
            continue;
          seen_using.push_back(c);
        }
        ast::ColumnRef col;
        col.table = r.name;
        col.column = c;
        out.push_back(ast::SelectItem{ast::make_expr(std::move(col), -1), {}});
      }
    }
    if (!matched) {
      std::vector<std::string> names;
      for (const auto& r : level.relations)
        if (!r.name.empty()) names.push_back(r.name);
      return make_error(ErrorCode::ValidationUnknownColumn,
                        "'" + ref->table + ".*': no table or alias named '" + ref->table + "' in FROM",
                        "FIX: write one of: " + join_names(names) + " followed by .*", pos(loc));
    }
    expanded = true;
  }
  s.items = std::move(out);
  if (expanded) note_rewrite("star-expansion");
  return {};
}

Status Admitter::group_items(std::vector<ast::GroupItem>& items, const ExprContext& ctx) {
  for (auto& g : items) {
    if (auto* e = std::get_if<ast::Expr>(&g.node)) {
      if (auto s = expr(*e, ctx); !s) return s;
      continue;
    }
    auto& set = std::get<ast::GroupingSet>(g.node);
    if (auto s = construct(capability::Construct::GroupingSets, set.location); !s) return s;
    if (auto s = group_items(set.items, ctx); !s) return s;
  }
  return {};
}

Result<std::vector<std::string>> Admitter::select(ast::Select& s, Scope& level, const CteEnv* ctes,
                                                  std::vector<ast::SortItem>& order_by, int location) {
  // Names of everything this FROM introduces, for the refusal of a reference to a table joined later.
  std::vector<std::string> saved_names = std::move(from_names_);
  from_names_.clear();
  std::function<void(const ast::FromItem&)> collect = [&](const ast::FromItem& f) {
    if (const auto* t = std::get_if<ast::TableRef>(&f.node)) from_names_.push_back(t->alias ? t->alias->name : t->name);
    if (const auto* d = std::get_if<ast::DerivedTable>(&f.node); d && d->alias) from_names_.push_back(d->alias->name);
    if (const auto* j = std::get_if<ast::Join>(&f.node)) collect(*j->left), collect(*j->right);
  };
  for (const auto& f : s.from) collect(f);
  for (auto& f : s.from)
    if (auto st = from_item(f, level, ctes); !st) return st.error();
  from_names_ = std::move(saved_names);
  // OVER w must name a window of this SELECT (restored on the way out: subqueries have their own).
  struct RestoreWindows {
    std::vector<std::string>& names;
    std::vector<std::string> saved;
    ~RestoreWindows() { names = std::move(saved); }
  } restore_windows{window_names_, std::move(window_names_)};
  window_names_.clear();
  for (const auto& w : s.windows) window_names_.push_back(w.name);
  if (auto st = expand_stars(s, level, location); !st) return st.error();
  if (s.items.empty())
    if (auto st = construct(capability::Construct::EmptySelectList, location); !st) return st.error();

  ExprContext ctx{&level, ctes, nullptr};
  if (!s.distinct_on.empty()) {
    if (auto st = construct(capability::Construct::DistinctOn, location); !st) return st.error();
    if (auto st = exprs(s.distinct_on, ctx); !st) return st.error();
  }
  std::vector<std::string> names;
  for (auto& item : s.items) {
    const std::string written_name = figure_name(item.expr);
    const bool was_column = std::holds_alternative<ast::ColumnRef>(item.expr.node);
    if (auto st = expr(item.expr, ctx); !st) return st.error();
    // A virtual column keeps its name in the output after substitution.
    if (item.alias.empty() && was_column && !std::holds_alternative<ast::ColumnRef>(item.expr.node))
      item.alias = written_name;
    names.push_back(item.alias.empty() ? figure_name(item.expr) : item.alias);
  }
  if (s.where)
    if (auto st = expr(*s.where, ctx); !st) return st.error();
  ExprContext with_outputs{&level, ctes, &names};
  if (auto st = group_items(s.group_by, with_outputs); !st) return st.error();
  if (s.having)
    if (auto st = expr(*s.having, ctx); !st) return st.error();
  for (auto& w : s.windows)
    if (auto st = window(w.spec, ctx, location); !st) return st.error();
  if (auto st = sort_items(order_by, with_outputs); !st) return st.error();
  if (auto st = check_grouping(s, level, order_by, names, location); !st) return st.error();
  // Lineage once every name is resolved and every substitution done.
  select_taint_.clear();
  for (const auto& item : s.items) select_taint_.push_back(carries_untrusted(item.expr, ctx));
  return names;
}

Result<std::vector<std::string>> Admitter::query(ast::Query& q, const Scope* outer, const CteEnv* ctes) {
  CteEnv env{ctes, {}};
  for (auto& cte : q.with) {
    // A CTE sees the CTEs before it (not itself: recursion was refused at conversion).
    auto cols = query(*cte.query, outer, &env);
    if (!cols) return std::move(cols).error();
    std::vector<std::string> ambiguous = name_outputs(*cte.query, *cols);
    std::vector<std::string> names = std::move(cols).value();
    if (!cte.columns.empty()) {
      if (cte.columns.size() > names.size())
        return make_error(ErrorCode::ValidationUnsupported,
                          "WITH " + cte.name + "(...) names more columns than its query returns",
                          "FIX: list at most " + std::to_string(names.size()) + " column names.", pos(cte.location));
      std::copy(cte.columns.begin(), cte.columns.end(), names.begin());
    }
    if (!cte.columns.empty()) ambiguous.clear();  // the column list named every column
    env.ctes.push_back(CteBinding{cte.name, std::move(names), query_taint(*cte.query), std::move(ambiguous)});
  }
  const CteEnv* visible = q.with.empty() ? ctes : &env;

  std::vector<std::string> names;
  std::vector<bool> taint;
  if (auto* s = std::get_if<ast::Select>(&q.body)) {
    Scope level{outer, {}};
    auto r = select(*s, level, visible, q.order_by, q.location);
    if (!r) return std::move(r).error();
    names = std::move(r).value();
    taint = select_taint_;
  } else if (auto* set = std::get_if<ast::SetOp>(&q.body)) {
    if (set->all && set->kind != ast::SetOpKind::Union)
      if (auto st = construct(capability::Construct::SetOpIntersectAll, q.location); !st) return st.error();
    if (auto st = check_set_precedence(*set, q.location); !st) return st.error();
    auto left = query(*set->left, outer, visible);
    if (!left) return std::move(left).error();
    auto right = query(*set->right, outer, visible);
    if (!right) return std::move(right).error();
    names = std::move(left).value();
    // Any branch can supply a row, so a column is untrusted when it is in any branch.
    taint = query_taint(*set->left);
    const auto& right_taint = query_taint(*set->right);
    for (std::size_t i = 0; i < taint.size() && i < right_taint.size(); ++i) taint[i] = taint[i] || right_taint[i];
    ExprContext ctx{nullptr, visible, &names};
    if (auto st = sort_items(q.order_by, ctx); !st) return st.error();
  } else {
    auto& values = std::get<ast::Values>(q.body);
    ExprContext ctx{outer, visible, nullptr};
    for (auto& row : values.rows)
      if (auto st = exprs(row, ctx); !st) return st.error();
    const std::size_t width = values.rows.empty() ? 0 : values.rows.front().size();
    for (std::size_t i = 0; i < width; ++i) names.push_back("column" + std::to_string(i + 1));
    taint.assign(width, false);
    ExprContext order_ctx{nullptr, visible, &names};
    if (auto st = sort_items(q.order_by, order_ctx); !st) return st.error();
  }
  query_taint_[&q] = std::move(taint);
  return names;
}

}  // namespace detail

Result<Admission> admit(ast::Query& query, const catalog::Catalog& catalog, std::string_view sql) {
  detail::Admitter admitter(catalog, sql);
  auto names = admitter.query(query, nullptr, nullptr);
  if (!names) return std::move(names).error();
  Admission out;
  const auto& taint = admitter.taint_of(query);
  for (std::size_t i = 0; i < names->size(); ++i)
    out.columns.push_back(OutputColumn{std::move((*names)[i]), i < taint.size() && taint[i]});
  // The leftmost base table of the outermost SELECT (CTE names are not base tables).
  if (const auto* select = std::get_if<ast::Select>(&query.body); select && !select->from.empty()) {
    const ast::FromItem* item = &select->from.front();
    while (const auto* join = std::get_if<ast::Join>(&item->node)) item = &*join->left;
    const auto* ref = std::get_if<ast::TableRef>(&item->node);
    const bool is_cte = ref && std::any_of(query.with.begin(), query.with.end(), [&](const ast::Cte& c) {
                          return catalog::Catalog::same_name(c.name, ref->name, catalog.dialect);
                        });
    if (ref && !is_cte && catalog.find_table(ref->name)) {
      out.main_table = catalog.find_table(ref->name)->name;
      out.main_table_alias = ref->alias ? ref->alias->name : out.main_table;
    }
  }
  out.rewrites = std::move(admitter.rewrites);
  out.notes = std::move(admitter.notes);
  return out;
}

}  // namespace qg::admit
