// Queries: WITH, star expansion, grouping, SELECT DISTINCT's ORDER BY, set
// operations — and the entry point admit(). FROM is admit_from.cpp's.
#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <set>
#include <type_traits>
#include <utility>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/capability/capability.hpp"
#include "admission/convert/convert.hpp"
#include "admission/parse/parser.hpp"
#include "admission/render/render.hpp"

namespace qg::admit {
namespace detail {

namespace {

// Whether output column i of a query is a bare NULL in every row: a NULL literal (in every branch).
bool null_output(const ast::Query& q, std::size_t i) {
  if (const auto* set = std::get_if<ast::SetOp>(&q.body))
    return null_output(*set->left, i) && null_output(*set->right, i);
  const auto* s = std::get_if<ast::Select>(&q.body);
  if (!s || i >= s->items.size()) return false;
  const auto* lit = std::get_if<ast::Literal>(&s->items[i].expr.node);
  return lit && lit->kind == ast::LiteralKind::Null;
}

// Whether output column i of a query's SELECT is SQLite's datetime() or strftime() (or min / max / lag ... of one):
// typed a time for comparisons (time_types.cpp), its value is the text PostgreSQL's translation of it gives
// (to_char), so the column is text: named so, and text where it meets another branch in a UNION (a timestamptz
// column UNION datetime(t) was answered in mixed forms typed timestamptz; PostgreSQL: "UNION types timestamp with
// time zone and text cannot be matched"; outside tester s20d).
bool spelled_time_text(const ast::Query& q, std::size_t i) {
  const auto* select = std::get_if<ast::Select>(&q.body);
  if (!select || i >= select->items.size()) return false;
  const auto* f = std::get_if<ast::FuncCall>(&select->items[i].expr.node);
  static constexpr std::string_view kPassOn[] = {"min",         "max",        "lag",       "lead",
                                                 "first_value", "last_value", "nth_value", "pg_single"};
  while (f && !f->args.empty() && std::find(std::begin(kPassOn), std::end(kPassOn), f->name) != std::end(kPassOn))
    f = std::get_if<ast::FuncCall>(&f->args.front().node);
  return f && (f->name == "datetime" || f->name == "strftime") && !f->over;
}

// A refusal that found several problems: the first, carrying the others (and theirs) in `problems`.
Error gathered(std::vector<Error> found) {
  Error first = std::move(found.front());
  for (std::size_t i = 1; i < found.size(); ++i) first.problems.push_back(std::move(found[i]));
  return first;
}

void flatten(Error& e, std::vector<Error>& out) {
  for (auto& p : e.problems) flatten(p, out);
  e.problems.clear();
  out.push_back(e);
}

// The problems of a refusal as the API shows them: flat, each once, in statement order (no position last),
// this error first among equals; none when it is the only one.
void list_problems(Error& e) {
  if (e.problems.empty()) return;
  std::vector<Error> all;
  for (auto& p : e.problems) flatten(p, all);
  e.problems.clear();
  all.insert(all.begin(), e);
  std::stable_sort(all.begin(), all.end(), [](const Error& a, const Error& b) {
    return a.position.value_or(std::numeric_limits<int>::max()) < b.position.value_or(std::numeric_limits<int>::max());
  });
  std::vector<Error> unique;
  for (auto& p : all)
    if (std::none_of(unique.begin(), unique.end(), [&](const Error& u) {
          return u.code == p.code && u.position == p.position && u.message == p.message;
        }))
      unique.push_back(std::move(p));
  if (unique.size() > 1) e.problems = std::move(unique);
}

}  // namespace

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

namespace {

// Terms of the compound SELECT the SQLite renderer prints for this set
// operation (render_query.cpp): a left member that is itself a set operation
// without WITH, ORDER BY, LIMIT or OFFSET continues the chain; any other member
// is one term (a subquery in FROM starts a chain of its own). A multi-row
// VALUES first in the chain is counted per row, as SQLite may.
std::size_t compound_terms(const ast::SetOp& set) {
  const ast::Query& left = *set.left;
  const bool bare = left.with.empty() && left.order_by.empty() && !left.limit && !left.offset;
  std::size_t left_terms = 1;
  if (const auto* inner = std::get_if<ast::SetOp>(&left.body); inner && bare)
    left_terms = compound_terms(*inner);
  else if (const auto* values = std::get_if<ast::Values>(&left.body); values && bare)
    left_terms = std::max<std::size_t>(1, values->rows.size());
  return left_terms + 1;
}

}  // namespace

// PostgreSQL refuses VALUES rows of different lengths; SQLite fails at run time (or, for the last row of a
// VALUES it reads as a compound SELECT, answers something else), and the SQLite renderer relies on the first
// row's width. The first row that differs is named, with its position.
Status same_width(const std::vector<std::vector<ast::Expr>>& rows, int location) {
  if (rows.empty()) return {};
  const std::size_t width = rows.front().size();
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].size() == width) continue;
    const int at = rows[i].empty() ? location : rows[i].front().location;
    return make_error(ErrorCode::ValidationUnsupported,
                      "VALUES lists must all be the same length: row 1 has " + std::to_string(width) +
                          (width == 1 ? " value" : " values") + ", row " + std::to_string(i + 1) + " has " +
                          std::to_string(rows[i].size()),
                      "FIX: give every row of the VALUES list " + std::to_string(width) +
                          (width == 1 ? " value" : " values") +
                          " (write NULL for a missing one), or check for a "
                          "misplaced parenthesis or comma.",
                      pos(at >= 0 ? at : location));
  }
  return {};
}

Status Admitter::compound_length(const ast::SetOp& set, int location) const {
  if (dialect_ != Dialect::Sqlite) return {};
  const std::size_t terms = compound_terms(set);
  const auto limit = static_cast<std::size_t>(capability::kSqliteCompoundSelectTerms);
  if (terms <= limit) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "this compound SELECT chains " + std::to_string(terms) +
                        " SELECTs with UNION / INTERSECT / EXCEPT; SQLite runs at most " + std::to_string(limit) +
                        " in one chain",
                    "FIX: split the chain into parts of at most " + std::to_string(limit) +
                        " SELECTs and chain the parts as subqueries, with the operator that joined them: SELECT * "
                        "FROM (<first part>) AS p1 UNION ALL SELECT * FROM (<second part>) AS p2; or send the parts "
                        "as separate statements.",
                    pos(location));
}

// SQLite's grammar has no parenthesised compound member: a member that needs
// one (a set operation on the right, or a member with its own WITH, ORDER BY,
// LIMIT or OFFSET) is read through a subquery in FROM, which has the same rows
// and column names. It is written into the tree here, not only printed, so that
// star expansion names its columns and the printed statement admits again
// unchanged (the PostgreSQL grammar also needs the alias).
ast::Query* Admitter::set_member_inner(ast::Query& q) {
  auto* s = std::get_if<ast::Select>(&q.body);
  if (!s || !q.with.empty() || !q.order_by.empty() || q.limit || q.offset || s->items.size() != 1 ||
      s->from.size() != 1 || s->where || !s->group_by.empty() || s->having || s->distinct || !s->windows.empty())
    return nullptr;
  const auto* star = std::get_if<ast::ColumnRef>(&s->items.front().expr.node);
  auto* d = std::get_if<ast::DerivedTable>(&s->from.front().node);
  if (!star || !star->star || !star->table.empty() || !d || d->lateral || !d->alias || d->alias->name != "branch" ||
      !d->alias->columns.empty())
    return nullptr;
  return &*d->query;
}

void Admitter::wrap_set_member(ast::Box<ast::Query>& member, bool right) {
  const ast::Query& q = *member;
  const bool trailing = !q.order_by.empty() || q.limit || q.offset;
  if (q.with.empty() && !trailing && (!right || !std::holds_alternative<ast::SetOp>(q.body))) return;
  ast::Select wrapper;
  wrapper.items.push_back(ast::SelectItem{ast::make_expr(ast::ColumnRef{"", "", true}), ""});
  wrapper.from.push_back(ast::FromItem{ast::DerivedTable{std::move(member), ast::Alias{"branch", {}}, false}});
  ast::Query outer;
  outer.body = std::move(wrapper);
  member = ast::Box<ast::Query>(std::move(outer));
  note_rewrite("dialect:set-member-subquery");
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
    if (ref->table.empty()) {
      matched = true;
      for (const auto& c : level.star) {
        auto source = [&](const std::pair<std::size_t, std::string>& s) {
          ast::ColumnRef col;
          col.table = level.relations[s.first].name;
          col.column = s.second;
          return ast::make_expr(std::move(col), -1);
        };
        if (c.sources.size() == 1) {
          out.push_back(ast::SelectItem{source(c.sources.front()), {}});
          continue;
        }
        // A column merged by USING: COALESCE of its sources, as PostgreSQL computes it.
        ast::Coalesce merged;
        for (const auto& s : c.sources) merged.args.push_back(source(s));
        out.push_back(ast::SelectItem{ast::make_expr(std::move(merged), -1), c.name});
      }
    }
    for (const auto& r : level.relations) {
      if (ref->table.empty() || !same(r.name, ref->table)) continue;
      matched = true;
      for (const auto& c : r.columns) {
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
      // GROUP BY <ordinal> of an array output column (arrays_on_sqlite.cpp).
      if (const auto k = ast::integer_value(*e); k && std::holds_alternative<ast::Literal>(e->node) &&
                                                 ctx.output_items && *k >= 1 &&
                                                 static_cast<std::size_t>(*k) <= ctx.output_items->size())
        if (auto s = array_output_reference_on_sqlite((*ctx.output_items)[static_cast<std::size_t>(*k - 1)].expr,
                                                      e->location, "GROUP BY");
            !s)
          return s;
      // PostgreSQL reads an output name in GROUP BY only as a bare name, not inside an expression.
      const auto* ref = std::get_if<ast::ColumnRef>(&e->node);
      ExprContext inputs = ctx;
      if (dialect_ == Dialect::Postgres && !(ref && !ref->star && ref->table.empty())) {
        inputs.output_names = nullptr;
        inputs.output_items = nullptr;
      }
      if (auto s = expr(*e, inputs); !s) return s;
      continue;
    }
    auto& set = std::get<ast::GroupingSet>(g.node);
    if (auto s = construct(capability::Construct::GroupingSets, set.location); !s) return s;
    if (auto s = group_items(set.items, ctx); !s) return s;
  }
  return {};
}

// SELECT DISTINCT ... ORDER BY y: PostgreSQL's "for SELECT DISTINCT, ORDER BY expressions must appear in select
// list"; SQLite sorts by y of one row of each group, a row it chooses (the order differs from run to run of
// the data). Checked as written: an ORDER BY item is a position, an output column's name, or a select-list
// expression (a column by its name, with or without its table).
Status Admitter::distinct_order_by(const ast::Select& s, const std::vector<ast::SortItem>& order_by) {
  // The re-check of the printed statement (no source text) sorts by keys the rewrites wrote (pg_time_key).
  if (!s.distinct || !s.distinct_on.empty() || sql_.empty()) return {};
  const auto column_name = [](const ast::Expr& e) -> const std::string* {
    const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
    return ref && !ref->star ? &ref->column : nullptr;
  };
  for (const auto& item : s.items) {
    const auto* ref = std::get_if<ast::ColumnRef>(&item.expr.node);
    if (ref && ref->star) return {};  // the star's columns are not listed yet
  }
  for (const auto& o : order_by) {
    if (std::holds_alternative<ast::Literal>(o.expr->node)) continue;  // a position (or a constant)
    // A printed statement sorts a time by pg_time_key(x, kind) (time_types.cpp): x is what is listed.
    const ast::Expr* key = &*o.expr;
    if (const auto* f = std::get_if<ast::FuncCall>(&key->node); f && f->name == "pg_time_key" && !f->args.empty())
      key = &f->args.front();
    const std::string* name = column_name(*key);
    const bool listed = std::any_of(s.items.begin(), s.items.end(), [&](const ast::SelectItem& item) {
      if (item.expr == *key) return true;
      if (!name) return false;
      if (!item.alias.empty() && same(item.alias, *name)) return true;
      const std::string* listed_name = column_name(item.expr);
      return listed_name && same(*listed_name, *name);
    });
    if (listed) continue;
    const std::string what = shown(*o.expr, dialect_);
    return make_error(ErrorCode::ValidationUnsupported,
                      "for SELECT DISTINCT, ORDER BY expressions must appear in select list (" + what +
                          " does not): PostgreSQL's error; SQLite would sort by the value of a row it picks",
                      "FIX: add " + what +
                          " to the select list, or sort the distinct rows in an outer query: "
                          "SELECT * FROM (SELECT DISTINCT ...) AS d ORDER BY <an output column>.",
                      pos(o.expr->location));
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
    if (auto st = from_item(f, level, ctes, level.star); !st) return st.error();
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
  // With the star's columns listed (SELECT DISTINCT * ... ORDER BY name = 'x' was admitted, and its rendering, read
  // back, refused: the fuzzer's P4).
  if (auto st = distinct_order_by(s, order_by); !st) return st.error();
  if (s.items.empty())
    if (auto st = construct(capability::Construct::EmptySelectList, location); !st) return st.error();

  ExprContext ctx{&level, ctes, nullptr};
  if (!s.distinct_on.empty()) {
    if (auto st = construct(capability::Construct::DistinctOn, location); !st) return st.error();
    if (auto st = exprs(s.distinct_on, ctx); !st) return st.error();
  }
  // From here on a problem does not end the walk: the select list, WHERE's conjuncts, GROUP BY, HAVING and
  // ORDER BY are each admitted, and one refusal lists every problem found (issue #12). An admitted statement
  // takes exactly the path it took before; only a refusal gathers.
  std::vector<Error> found;
  auto keep = [&found](Status st) {  // true: this part was admitted
    if (st) return true;
    found.push_back(std::move(st).error());
    return false;
  };
  std::vector<std::string> names;
  // The one place an array value may stand on SQLite: a whole output column of the outermost SELECT
  // (arrays_on_sqlite.cpp); a subquery's select list has none (restored on the way out).
  struct RestoreArrayItem {
    const ast::Expr*& item;
    const ast::Expr* saved;
    ~RestoreArrayItem() { item = saved; }
  } restore_array_item{array_item_, array_item_};
  array_item_ = nullptr;
  keep(array_outputs_on_sqlite(s, location));
  for (auto& item : s.items) {
    // Named as the literal it prints, also under casts (CAST(pg_numeric_literal('1.5') AS NUMERIC_REAL) is
    // PostgreSQL's "numeric", not "pg_numeric_literal": fuzz P4).
    for (ast::Expr* x = &item.expr; dialect_ == Dialect::Sqlite && x != nullptr;) {
      read_back_numeric_literal(*x);
      auto* cast = std::get_if<ast::Cast>(&x->node);
      x = cast ? &*cast->arg : nullptr;
    }
    const std::string written_name = figure_name(item.expr);
    const std::size_t written_kind = item.expr.node.index();
    array_item_ = query_depth_ == 1 && !s.distinct ? &item.expr : nullptr;
    const bool admitted = keep(expr(item.expr, ctx));
    array_item_ = nullptr;
    if (!admitted) {
      names.push_back(item.alias.empty() ? written_name : item.alias);
      continue;
    }
    // A virtual column, or an expression a dialect rewrite replaced (CAST(start_time AS text) on SQLite),
    // keeps the name PostgreSQL gives what was written.
    // (Also a call a dialect rewrite renamed: date_trunc(...) → pg_date_trunc(...) on SQLite.)
    // (And an item with a subquery on SQLite, which names it after its own text: the row filters' SQL
    // included, which the caller never sees.)
    if (item.alias.empty() && (item.expr.node.index() != written_kind || figure_name(item.expr) != written_name ||
                               (dialect_ == Dialect::Sqlite && ast::has_subquery(item.expr))))
      item.alias = written_name;
    names.push_back(item.alias.empty() ? figure_name(item.expr) : item.alias);
  }
  std::vector<WindowCandidate> windows_written;  // the outermost WHERE's time windows, as written
  if (query_depth_ == 1 && s.where && !s.from.empty()) windows_written = window_candidates(*s.where);
  if (s.where) keep(condition_type(*s.where, ctx, "WHERE"));
  std::optional<FilterConditions> where_filter;
  if (s.where) where_filter.emplace(*this, *s.where);
  if (s.where && !keep(expr(*s.where, ctx))) {
    // The conjuncts after the one refused were not walked (AND admits its terms in order and stops).
    const std::optional<int> at = found.back().position;
    if (auto* all = std::get_if<ast::BoolOp>(&s.where->node); all && all->kind == ast::BoolOpKind::And && at)
      for (auto& term : all->args)
        if (term.location > *at) keep(expr(term, ctx));
  }
  // Typed again once translated, as the re-check will: a computed interval is a time only then (s21e).
  if (s.where && found.empty()) keep(condition_type(*s.where, ctx, "WHERE"));
  ExprContext with_outputs{&level, ctes, &names, &s.items};
  keep(group_items(s.group_by, with_outputs));
  if (s.having && keep(condition_type(*s.having, ctx, "HAVING")) && keep(expr(*s.having, ctx)))
    keep(condition_type(*s.having, ctx, "HAVING"));
  for (auto& w : s.windows) keep(window(w.spec, ctx, location));
  // A grouped select sorts by what it groups (time_sort_on_sqlite must not sort by the stored column).
  bool grouped = !s.group_by.empty() || s.having.has_value();
  for (const auto& item : s.items) grouped = grouped || has_aggregate(item.expr);
  for (const auto& o : order_by) grouped = grouped || has_aggregate(*o.expr);
  const bool grouped_before = sort_grouped_;
  sort_grouped_ = grouped;
  // ORDER BY <bare name>: an output column's name wins over a FROM column, as in
  // both engines (so a virtual column cannot shadow an alias); an expression
  // sees FROM columns first.
  for (auto& item : order_by) {
    const auto* ref = std::get_if<ast::ColumnRef>(&item.expr->node);
    if (ref && !ref->star && ref->table.empty() && !is_system_column(ref->column)) {
      std::vector<std::size_t> hits;
      for (std::size_t i = 0; i < names.size(); ++i)
        if (same(names[i], ref->column)) hits.push_back(i);
      if (!hits.empty()) {
        if (std::any_of(hits.begin(), hits.end(),
                        [&](std::size_t h) { return !(s.items[h].expr == s.items[hits.front()].expr); })) {
          found.push_back(
              make_error(ErrorCode::ValidationAmbiguousColumn,
                         "ORDER BY " + ref->column + " is ambiguous: more than one output column has that name",
                         "FIX: give the output columns distinct aliases, or ORDER BY the expression itself.",
                         pos(item.expr->location)));
          continue;
        }
        // SQLite reads ORDER BY name as an output column only when that name is an alias (AS), else as
        // the FROM column: CAST(id AS text) gets its PostgreSQL name as an alias so that it is sorted by.
        if (!found.empty()) continue;  // refused already: the output columns may not be admitted
        // json_each (a jsonb row source on SQLite) has columns named id, key, value, ...: SQLite would find
        // two of that name; the output's position names the one PostgreSQL sorts by (json_rows.cpp).
        // Then sorted as an ordinal, below.
        const bool by_position =
            dialect_ == Dialect::Sqlite && json_rows_in_statement_ && json_each_column(ref->column);
        if (by_position) {
          const int at = item.expr->location;
          *item.expr = ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(hits.front() + 1)}, at);
          note_rewrite("dialect:json-rows-order");
        }
      }
    }
    if (std::holds_alternative<ast::ColumnRef>(item.expr->node)) {
      const auto* ref = std::get_if<ast::ColumnRef>(&item.expr->node);
      std::vector<std::size_t> hits;
      if (!ref->star && ref->table.empty() && !is_system_column(ref->column))
        for (std::size_t i = 0; i < names.size(); ++i)
          if (same(names[i], ref->column)) hits.push_back(i);
      if (!hits.empty()) {
        auto& target = s.items[hits.front()];
        if (!keep(array_output_reference_on_sqlite(target.expr, item.expr->location, "ORDER BY"))) continue;
        if (dialect_ == Dialect::Sqlite && target.alias.empty() &&
            !std::holds_alternative<ast::ColumnRef>(target.expr.node)) {
          target.alias = names[hits.front()];
          note_rewrite("column-names");
        }
        if (auto st = json_sort_on_sqlite(target.expr, ctx); !st) {
          found.push_back(st.error());
          continue;
        }
        nulls_order_on_sqlite(item, target.expr, ctx);
        time_sort_on_sqlite(item, target.expr, ctx);
        continue;  // the output column: nothing to resolve or substitute
      }
    }
    // ORDER BY <ordinal> of a computed time that does not sort as its text: by the time's key.
    if (const auto k = ast::integer_value(*item.expr); k && std::holds_alternative<ast::Literal>(item.expr->node) &&
                                                       *k >= 1 && static_cast<std::size_t>(*k) <= s.items.size()) {
      if (!keep(array_output_reference_on_sqlite(s.items[static_cast<std::size_t>(*k - 1)].expr, item.expr->location,
                                                 "ORDER BY")))
        continue;
      if (!found.empty()) continue;
      if (auto st = json_sort_on_sqlite(s.items[static_cast<std::size_t>(*k - 1)].expr, ctx); !st) {
        found.push_back(st.error());
        continue;
      }
      time_sort_on_sqlite(item, s.items[static_cast<std::size_t>(*k - 1)].expr, ctx);
      if (!std::holds_alternative<ast::Literal>(item.expr->node)) {
        nulls_order_on_sqlite(item, *item.expr, ctx);
        continue;
      }
    }
    // PostgreSQL reads output names in ORDER BY only as a bare name (above): inside an expression a name is an
    // input column, and an alias there is its error. SQLite reads an alias there when no input column has the
    // name; so does querygate on both backends, the alias replaced by its expression on PostgreSQL (ORDER BY -n
    // was answered on SQLite and refused on PostgreSQL; outside tester s17a).
    outputs_by_value_ = dialect_ == Dialect::Postgres;
    const bool admitted = keep(expr(*item.expr, with_outputs));
    outputs_by_value_ = false;
    if (!admitted) continue;
    if (!keep(json_sort_on_sqlite(*item.expr, with_outputs))) continue;
    nulls_order_on_sqlite(item, *item.expr, with_outputs);
    time_sort_on_sqlite(item, *item.expr, with_outputs);
  }
  sort_grouped_ = grouped_before;
  if (!found.empty()) return gathered(std::move(found));
  if (!windows_written.empty()) keep_windows(std::move(windows_written), ctx);
  if (auto st = check_grouping(s, level, order_by, names, location); !st) return st.error();
  // Lineage once every name is resolved and every substitution done.
  lineage_windows_ = &s.windows;
  select_lineage_.clear();
  for (const auto& item : s.items) select_lineage_.push_back(lineage(item.expr, ctx));
  lineage_windows_ = nullptr;
  lineage_windows_ = &s.windows;
  select_reads_.clear();
  for (const auto& item : s.items) select_reads_.push_back(reads_of(item.expr, ctx));
  select_plain_ = select_plain(s, ctx, names);
  lineage_windows_ = nullptr;
  select_times_.clear();
  for (const auto& item : s.items) select_times_.push_back(timestamp_column(item.expr, ctx));
  select_kinds_ = select_kinds(s, ctx);
  interval_keys_on_sqlite(s, ctx, names, select_kinds_);  // (a collated item keeps its kind)
  select_types_.clear();
  for (const auto& item : s.items) select_types_.push_back(column_value_type(item.expr, ctx));
  select_bounds_.clear();
  for (const auto& item : s.items) select_bounds_.push_back(bound_of(item.expr, ctx, nullptr));
  return names;
}

Result<std::vector<std::string>> Admitter::query(ast::Query& q, const Scope* outer, const CteEnv* ctes) {
  struct Depth {
    int& depth;
    ~Depth() { --depth; }
  } depth{++query_depth_};
  if (auto s = distinct_on_on_sqlite(q); !s) return std::move(s).error();
  if (auto s = grouping_sets_on_sqlite(q); !s) return std::move(s).error();
  if (auto st = series_select_on_sqlite(q); !st) return st.error();
  CteEnv env{ctes, {}};
  for (std::size_t i = 0; i < q.with.size(); ++i) {
    auto& cte = q.with[i];
    // A CTE named like a table a row filter reads would capture the filter's
    // own reference to that table in the printed statement, were the filter's
    // names not schema-qualified (they are whenever the catalog names its schema).
    for (const auto& t : catalog_.tables)
      if (t.row_filter && catalog_.schema.empty())
        for (const auto& read : t.row_filter->reads)
          if (same(read, cte.name))
            return make_error(ErrorCode::ValidationUnsupported,
                              "CTE " + cte.name + " has the name of table " + read +
                                  ", which a row filter reads; the CTE would stand in for the table inside the filter",
                              "FIX: give the CTE another name, e.g. WITH " + cte.name +
                                  "_1 AS (...), and use that "
                                  "name after it.",
                              pos(cte.location));
    // A CTE sees the CTEs before it: not itself (WITH RECURSIVE was refused at
    // conversion) and not the later ones (cte_being_defined says so).
    defining_.push_back(Defining{&q.with, i});
    auto cols = query(*cte.query, outer, &env);
    defining_.pop_back();
    if (!cols) return std::move(cols).error();
    exact_columns_on_sqlite(*cte.query);
    std::vector<std::string> ambiguous = name_outputs(*cte.query, *cols);
    std::vector<std::string> names = std::move(cols).value();
    if (!cte.columns.empty()) {
      // PostgreSQL: at most as many names as columns; SQLite: exactly as many.
      const bool too_many = cte.columns.size() > names.size();
      if (too_many || (dialect_ == Dialect::Sqlite && cte.columns.size() < names.size())) {
        const auto columns = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " column" : " columns"); };
        return make_error(
            too_many ? ErrorCode::ValidationUnsupported : ErrorCode::CapabilityNotOnSqlite,
            "WITH " + cte.name + "(...) names " + columns(cte.columns.size()) + " but its query returns " +
                columns(names.size()) + (too_many ? std::string() : "; SQLite needs a name for every column"),
            "FIX: name " + std::string(dialect_ == Dialect::Sqlite ? "exactly " : "at most ") + columns(names.size()) +
                " after " + cte.name + ", or leave the list out and name the columns with AS inside its query.",
            pos(cte.location));
      }
      std::copy(cte.columns.begin(), cte.columns.end(), names.begin());
    }
    if (!cte.columns.empty()) ambiguous.clear();  // the column list named every column
    const std::size_t width = names.size();
    std::vector<Lineage> lineage = output_lineages(*cte.query, width);
    env.ctes.push_back(CteBinding{
        cte.name, std::move(names), std::move(lineage), std::move(ambiguous), query_times(*cte.query),
        bounds_of(*cte.query), query_generated_.contains(&*cte.query), literal_texts(*cte.query),
        output_reads(*cte.query, width), query_kinds(*cte.query), resolved_unknowns(query_types(*cte.query))});
    env.ctes.back().plain = output_plain(*cte.query, width);
  }
  const CteEnv* visible = q.with.empty() ? ctes : &env;

  std::vector<std::string> names;
  std::vector<Lineage> lineage;
  std::vector<Reads> reads;
  std::vector<Reads> plain;
  std::vector<const catalog::Column*> times;
  std::vector<std::optional<pgtime::Kind>> kinds;
  std::vector<ValueType> types;
  std::vector<SizeBound> bounds;
  if (auto* s = std::get_if<ast::Select>(&q.body)) {
    Scope level{outer, {}};
    auto r = select(*s, level, visible, q.order_by, q.location);
    if (!r) return std::move(r).error();
    names = std::move(r).value();
    lineage = select_lineage_;
    reads = select_reads_;
    plain = select_plain_;
    times = select_times_;
    kinds = select_kinds_;
    types = select_types_;
    bounds = select_bounds_;
    for (std::size_t i = 0; i < types.size() && i < kinds.size(); ++i)
      if (spelled_time_text(q, i)) {
        kinds[i].reset();
        types[i] = ValueType{SqlType::Text};
      }
    if (generates_rows(*s, level)) query_generated_.insert(&q);
  } else if (auto* set = std::get_if<ast::SetOp>(&q.body)) {
    if (set->all && set->kind != ast::SetOpKind::Union)
      if (auto st = construct(capability::Construct::SetOpIntersectAll, q.location); !st) return st.error();
    if (auto st = check_set_precedence(*set, q.location); !st) return st.error();
    if (auto st = compound_length(*set, q.location); !st) return st.error();
    if (dialect_ == Dialect::Sqlite) {
      wrap_set_member(set->left, false);
      wrap_set_member(set->right, true);
    }
    auto left = query(*set->left, outer, visible);
    auto right = query(*set->right, outer, visible);  // walked also when the left was refused: one refusal lists both
    if (!left || !right) {
      std::vector<Error> found;
      if (!left) found.push_back(std::move(left).error());
      if (!right) found.push_back(std::move(right).error());
      return gathered(std::move(found));
    }
    names = std::move(left).value();
    // Any branch can supply a row: a column's lineage joins every branch's.
    lineage = output_lineages(*set->left, names.size());
    const auto right_lineage = output_lineages(*set->right, names.size());
    for (std::size_t i = 0; i < lineage.size(); ++i)
      lineage[i] = {std::max(lineage[i].taint, right_lineage[i].taint),
                    lineage[i].kind == right_lineage[i].kind ? lineage[i].kind : ValueKind::Other};
    // Either branch's row: the columns of both.
    reads = output_reads(*set->left, names.size());
    const auto right_reads = output_reads(*set->right, names.size());
    for (std::size_t i = 0; i < reads.size(); ++i)
      reads[i].insert(reads[i].end(), right_reads[i].begin(), right_reads[i].end());
    // A cell passed on unchanged by either branch (each branch's instances are its own).
    plain = output_plain(*set->left, names.size());
    const auto right_plain = output_plain(*set->right, names.size());
    for (std::size_t i = 0; i < plain.size(); ++i)
      plain[i].insert(plain[i].end(), right_plain[i].begin(), right_plain[i].end());
    // A timestamp column only when both branches pass one on, stored alike (a branch's NULL literal is
    // any type's NULL: the other branch's column, as PostgreSQL resolves the UNION's type).
    times = query_times(*set->left);
    const auto right_times = query_times(*set->right);
    for (std::size_t i = 0; i < times.size(); ++i) {
      const auto* right_time = i < right_times.size() ? right_times[i] : nullptr;
      if (null_output(*set->left, i))
        times[i] = right_time;
      else if (!null_output(*set->right, i))
        times[i] = common_time_column({times[i], right_time});
    }
    // PostgreSQL's UNION type resolution refuses branches of different type categories; a date meeting a
    // timestamptz is answered as the latter (branch_types.cpp).
    {
      auto lk = query_kinds(*set->left), rk = query_kinds(*set->right);
      const auto lt = member_types(*set->left), rt = member_types(*set->right);
      // A stored timestamp column passed on: its stored kind (query_kinds holds computed times only).
      const auto ls = query_times(*set->left), rs = query_times(*set->right);
      lk.resize(names.size());
      rk.resize(names.size());
      for (std::size_t i = 0; i < names.size() && dialect_ == Dialect::Sqlite; ++i) {
        if (!lk[i] && i < ls.size() && ls[i]) lk[i] = stored_kind(*ls[i]);
        if (!rk[i] && i < rs.size() && rs[i]) rk[i] = stored_kind(*rs[i]);
      }
      const char* what = set->kind == ast::SetOpKind::Union       ? "UNION"
                         : set->kind == ast::SetOpKind::Intersect ? "INTERSECT"
                                                                  : "EXCEPT";
      for (std::size_t i = 0; i < names.size(); ++i) {
        const std::vector<Branch> branches = {
            {i < lt.size() ? lt[i] : ValueType{}, i < lk.size() ? lk[i] : std::nullopt, nullptr},
            {i < rt.size() ? rt[i] : ValueType{}, i < rk.size() ? rk[i] : std::nullopt, nullptr}};
        if (auto st = branch_types(what, branches, q.location); !st) return st.error();
      }
    }
    // A computed time kind only when both branches give one of the same kind (or one is NULL).
    kinds = query_kinds(*set->left);
    const auto right_kinds = query_kinds(*set->right);
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      const auto right_kind = i < right_kinds.size() ? right_kinds[i] : std::nullopt;
      if (null_output(*set->left, i))
        kinds[i] = right_kind;
      else if (!null_output(*set->right, i) && right_kind != kinds[i])
        kinds[i] = std::nullopt;
    }
    if (auto st = times_in_set_on_sqlite(*set, kinds); !st) return st.error();
    // PostgreSQL's UNION type resolution: both branches' types meet (boolean with boolean or NULL, ...).
    types = member_types(*set->left);
    const auto right_types = member_types(*set->right);
    types.resize(names.size());
    for (std::size_t i = 0; i < types.size(); ++i)
      types[i] = i < right_types.size() ? common_type(types[i], right_types[i]) : ValueType{};
    bounds = widest_bounds(bounds_of(*set->left), bounds_of(*set->right));
    if (auto st = set_literals_on_sqlite(*set, types, q.location); !st) return st.error();
    for (std::size_t i = 0; i < types.size() && dialect_ == Dialect::Sqlite; ++i)
      if (types[i].type == SqlType::Float)
        if (auto st = float_output_on_sqlite(q, i, false, q.location); !st) return st.error();
    // Text literals in every branch: a text column (PostgreSQL resolves an unknown set-operation column so).
    types = resolved_unknowns(std::move(types));
    if (query_generated_.contains(&*set->left) || query_generated_.contains(&*set->right)) query_generated_.insert(&q);
    ExprContext ctx{nullptr, visible, &names};
    if (auto st = json_set_sort_on_sqlite(q.order_by, names, types); !st) return st.error();
    if (auto st = time_set_sort_on_sqlite(q.order_by, names, kinds, "a UNION / INTERSECT / EXCEPT"); !st)
      return st.error();
    if (auto st = sort_items(q.order_by, ctx); !st) return st.error();
  } else {
    auto& values = std::get<ast::Values>(q.body);
    if (auto st =
            same_width(values.rows,
                       values.rows.empty() || values.rows.front().empty() ? -1 : values.rows.front().front().location);
        !st)
      return st.error();
    ExprContext ctx{outer, visible, nullptr};
    values_time_literals(values.rows);
    for (auto& row : values.rows)
      if (auto st = exprs(row, ctx); !st) return st.error();
    if (auto st = values_types(values.rows, ctx, q.location); !st) return st.error();
    for (const auto& row : values.rows) {
      std::vector<SizeBound> row_bounds;
      for (const auto& e : row) row_bounds.push_back(bound_of(e, ctx, nullptr));
      bounds = widest_bounds(bounds, row_bounds);
    }
    const std::size_t width = values.rows.empty() ? 0 : values.rows.front().size();
    for (std::size_t i = 0; i < width; ++i) names.push_back("column" + std::to_string(i + 1));
    lineage = rows_lineage(values.rows, ctx);
    lineage.resize(width, Lineage{Taint::Text, ValueKind::Other});
    reads.assign(width, {});
    for (const auto& row : values.rows)
      for (std::size_t i = 0; i < row.size() && i < width; ++i) {
        const Reads more = reads_of(row[i], ctx);
        reads[i].insert(reads[i].end(), more.begin(), more.end());
      }
    types.assign(width, ValueType{SqlType::Null});
    for (const auto& row : values.rows)
      for (std::size_t i = 0; i < row.size() && i < width; ++i)
        types[i] = common_type(types[i], column_value_type(row[i], ctx));
    types = resolved_unknowns(std::move(types));  // a VALUES list's text literals: text, as in PostgreSQL
    // Its times' kinds, as a VALUES list in FROM has them: WITH w(d) AS (VALUES (date '2026-11-01')) SELECT d + 7
    // added 7 to the text on SQLite (2033; outside tester s17a).
    kinds = values_time_kinds(values.rows, ctx);
    if (auto st = time_set_sort_on_sqlite(q.order_by, names, kinds, "a VALUES list"); !st) return st.error();
    ExprContext order_ctx{nullptr, visible, &names};
    if (auto st = sort_items(q.order_by, order_ctx); !st) return st.error();
  }
  for (auto& r : reads) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  plain.resize(names.size());
  query_reads_[&q] = std::move(reads);
  query_plain_[&q] = std::move(plain);
  query_lineage_[&q] = std::move(lineage);
  query_times_[&q] = std::move(times);
  query_kinds_[&q] = std::move(kinds);
  query_types_[&q] = std::move(types);
  query_bounds_[&q] = std::move(bounds);
  return names;
}

}  // namespace detail

// Whether PostgreSQL types the expression boolean, from its outermost node
// (one handler per node kind; an expression it cannot tell is not boolean, so
// its value is passed on as the engine returns it).
bool boolean_valued(const ast::Expr& e) {
  return std::visit(
      [](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::Operator>) {
          static const std::set<std::string> kComparisons = {"=",  "<>", "!=",  "<", ">",  "<=", ">=", "~",
                                                             "~*", "!~", "!~*", "?", "?|", "?&", "@>", "<@"};
          return kComparisons.count(n.op) > 0;
        } else if constexpr (std::is_same_v<T, ast::BoolOp> || std::is_same_v<T, ast::NullTest> ||
                             std::is_same_v<T, ast::BoolTest> || std::is_same_v<T, ast::DistinctFrom> ||
                             std::is_same_v<T, ast::InList> || std::is_same_v<T, ast::Between> ||
                             std::is_same_v<T, ast::Like>) {
          return true;
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          return n.kind != ast::SubLinkKind::Scalar;
        } else if constexpr (std::is_same_v<T, ast::Literal>) {
          return n.kind == ast::LiteralKind::Boolean;
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
          return n.type.name == "bool" || n.type.name == "boolean";
        } else if constexpr (std::is_same_v<T, ast::ColumnRef> || std::is_same_v<T, ast::FuncCall> ||
                             std::is_same_v<T, ast::NullIf> || std::is_same_v<T, ast::Case> ||
                             std::is_same_v<T, ast::Coalesce> || std::is_same_v<T, ast::MinMax> ||
                             std::is_same_v<T, ast::SqlValue> || std::is_same_v<T, ast::Param>) {
          return false;
        } else {
          static_assert(sizeof(T) == 0, "boolean_valued: an expression kind without a handler");
        }
      },
      e.node);
}

namespace {

// The caller's outermost select list with the companion added (the FIX of a
// companion refusal), from the caller's own text: each item as written, then
// the companion, qualified as the caller qualified the column. When the query
// aggregates, the FIX says to group by the companion too. Empty when it cannot
// be shown (the outermost query is not one SELECT, or its text does not parse).
std::string with_companion(std::string_view sql, Dialect d, const std::string& column, const std::string& companion) {
  if (sql.empty()) return {};
  auto json = parse::parse_to_json(sql);
  if (!json) return {};
  auto tree = convert::convert_statement(*json, sql);
  if (!tree) return {};
  const auto* select = std::get_if<ast::Select>(&tree->body);
  if (!select) return {};
  std::string list, qualifier;
  bool aggregated = !select->group_by.empty() || select->having.has_value();
  std::function<void(const ast::Expr&)> look = [&](const ast::Expr& e) {
    if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node)) {
      if (!ref->star && qualifier.empty() && catalog::Catalog::same_name(ref->column, column, d))
        qualifier = ref->table;
      return;
    }
    if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && !f->over)
      if (const auto* row = capability::find_function(f->name); row && row->kind == capability::FunctionKind::Aggregate)
        aggregated = true;
    ast::for_each_child(e, look);
  };
  for (const auto& item : select->items) {
    auto text = render::render_expr(item.expr, Dialect::Postgres);
    if (!text) return {};
    list += (list.empty() ? "" : ", ") + *text;
    if (!item.alias.empty()) list += " AS " + render::quote_identifier(item.alias, d);
    look(item.expr);
  }
  const std::string added =
      (qualifier.empty() ? "" : render::quote_identifier(qualifier, d) + ".") + render::quote_identifier(companion, d);
  std::string out = "SELECT " + list + ", " + added + " FROM ...";
  if (aggregated) out += " GROUP BY ..., " + added;
  return out;
}

// The caller's statement grouped by `companion` on its own, in front of the ROLLUP or CUBE it was a key of
// (ROLLUP (c, b) becomes c, ROLLUP (b); CUBE (b, c) becomes c, CUBE (b)): exactly the rows of the grouping sets
// that keep c, the rows a companion refusal on grouping sets allows. Empty when no such edit gives those rows (c
// not first in a ROLLUP, inside a composite or GROUPING SETS, or not in one) or the text does not parse.
std::string companion_outside_sets(std::string_view sql, Dialect d, const std::string& companion) {
  if (sql.empty()) return {};
  auto json = parse::parse_to_json(sql);
  if (!json) return {};
  auto tree = convert::convert_statement(*json, sql);
  if (!tree) return {};
  auto* select = std::get_if<ast::Select>(&tree->body);
  if (!select) return {};
  const auto is_companion = [&](const ast::GroupItem& g) {
    const auto* e = std::get_if<ast::Expr>(&g.node);
    const auto* ref = e ? std::get_if<ast::ColumnRef>(&e->node) : nullptr;
    return ref && !ref->star && catalog::Catalog::same_name(ref->column, companion, d);
  };
  std::optional<ast::GroupItem> taken;
  for (auto it = select->group_by.begin(); it != select->group_by.end(); ++it) {
    auto* set = std::get_if<ast::GroupingSet>(&it->node);
    if (!set) continue;
    auto& items = set->items;
    auto at = std::find_if(items.begin(), items.end(), is_companion);
    if (at == items.end()) continue;
    if (taken ||
        (set->kind != ast::GroupingKind::Cube && (set->kind != ast::GroupingKind::Rollup || at != items.begin())))
      return {};
    taken = *at;
    items.erase(at);
    if (items.empty()) it = select->group_by.erase(it) - 1;
  }
  if (!taken) return {};
  select->group_by.insert(select->group_by.begin(), std::move(*taken));
  auto text = render::render(*tree, Dialect::Postgres);
  return text ? *text : std::string();
}

const catalog::Table* table_of(const catalog::Catalog& catalog, const catalog::Column* column) {
  for (const auto& t : catalog.tables)
    if (!t.columns.empty() && column >= &t.columns.front() && column <= &t.columns.back()) return &t;
  return nullptr;
}

// Companion columns (config `requires`): an output column that reads a column
// with companions (directly, through any expression, aggregate, subquery,
// derived table, CTE or set operation) needs, for each companion, an output
// column in the same row that passes on that companion of the SAME table
// instance unchanged (a plain reference, traced through derived tables, CTEs
// and set operations; in a grouped query a grouping key, so that every
// aggregate of the value is per companion value). A companion computed from
// the column (CASE, NULLIF, an aggregate of it), taken from another reference
// to the table (a self-join, a subquery) or lost by an outer query is no
// companion, and a window aggregate whose partition does not keep the
// companion fixed cannot have one.
Status check_companions(const ast::Query& query, const catalog::Catalog& catalog, std::string_view sql,
                        const std::vector<std::string>& names, const std::vector<detail::Reads>& reads,
                        const std::vector<detail::Reads>& plain) {
  for (std::size_t i = 0; i < reads.size(); ++i)
    for (const detail::Source& read : reads[i]) {
      const catalog::Column* column = read.column;
      if (!column || column->companions.empty()) continue;
      const catalog::Table* table = table_of(catalog, column);
      if (!table) continue;
      for (const auto& name : column->companions) {
        const catalog::Column* companion = table->find_column(name, catalog.dialect);
        if (!companion) continue;  // checked at start-up
        const bool returned = !read.mixed && std::any_of(plain.begin(), plain.end(), [&](const detail::Reads& p) {
          return std::any_of(p.begin(), p.end(), [&](const detail::Source& c) {
            return c.column == companion && c.instance == read.instance && !c.mixed;
          });
        });
        if (returned) continue;
        const std::string shown = with_companion(sql, catalog.dialect, column->name, companion->name);
        std::string regrouped;
        std::string fix = "FIX: return " + companion->name + " in the same row as " + column->name + "; ";
        if (read.mixed)
          fix += "a window over " + column->name + " must keep " + companion->name +
                 " fixed: write OVER (PARTITION BY " + companion->name + " ...) and return " + companion->name +
                 " as a plain column.";
        else if (std::holds_alternative<ast::SetOp>(query.body))
          fix += "add " + companion->name + " (computed the same way) to the select list of every branch.";
        else if (regrouped = companion_outside_sets(sql, catalog.dialect, companion->name); !regrouped.empty())
          fix = "FIX: group by " + companion->name +
                " on its own, outside ROLLUP / CUBE: their grouping sets without " + companion->name + " aggregate " +
                column->name + " over every " + companion->name + ". E.g. " + regrouped +
                " (the rows of the grouping sets that keep " + companion->name + ").";
        else if (!shown.empty())
          fix += "e.g. " + shown + " (the " + companion->name + " of the same row of the same reference to " +
                 table->name + ", as a plain column, grouped by when the query aggregates; if " + column->name +
                 " comes from a subquery or CTE, select " + companion->name + " there too and pass it on).";
        else
          fix += "add it to the outermost select list.";
        // At the output item that returns it (a star's items point at the query).
        int at = query.location >= 0 ? query.location : 0;
        if (const auto* select = std::get_if<ast::Select>(&query.body);
            select && i < select->items.size() && select->items[i].expr.location >= 0)
          at = select->items[i].expr.location;
        Error e = make_error(ErrorCode::ValidationCompanionColumn,
                             "output column '" + names[i] + "' returns " + table->name + "." + column->name +
                                 " without its companion " + companion->name +
                                 " (the configuration requires them in the same row: " + column->name +
                                 " is misleading without it)",
                             fix, at);
        if (!regrouped.empty()) e.edit = TextEdit{0, static_cast<int>(sql.size()), regrouped};
        return e;
      }
    }
  return {};
}

// Per-column float_digits: the setting every stored column an output reads
// shares; -1 (limits.float_digits) when any lacks one or they differ.
int output_float_digits(const detail::Reads& reads) {
  int digits = -1;
  for (std::size_t i = 0; i < reads.size(); ++i) {
    if (reads[i].column->float_digits < 0 || (i > 0 && reads[i].column->float_digits != digits)) return -1;
    digits = reads[i].column->float_digits;
  }
  return digits;
}

// The select list of the query's leftmost SELECT (a set operation's columns take its types).
const std::vector<ast::SelectItem>* leftmost_items(const ast::Query& q) {
  if (const auto* select = std::get_if<ast::Select>(&q.body)) return &select->items;
  if (const auto* setop = std::get_if<ast::SetOp>(&q.body)) return leftmost_items(*setop->left);
  return nullptr;
}

}  // namespace

Result<Admission> admit(ast::Query& query, const catalog::Catalog& catalog, std::string_view sql,
                        int max_expression_growth, const config::HiddenColumns* hidden,
                        const std::vector<ParamSpec>* params) {
  detail::Admitter admitter(catalog, sql, max_expression_growth, hidden, params);
  admitter.note_json_rows(query);
  auto names = admitter.query(query, nullptr, nullptr);
  if (!names) {
    Error refused = std::move(names).error();
    detail::list_problems(refused);
    return refused;
  }
  // The statement's own exact numerics answer PostgreSQL's digits (the executor prints a numeric column's
  // decimal text as it is): 1.0 / 3 * 3 is 0.99999999999999999999 on both backends, not the double 1.
  admitter.exact_columns_on_sqlite(query);
  const auto reads = admitter.output_reads(query, names->size());
  const auto plain = admitter.output_plain(query, names->size());
  if (auto companions = check_companions(query, catalog, sql, *names, reads, plain); !companions)
    return std::move(companions).error();
  Admission out;
  const auto untrusted = admitter.untrusted_outputs(query, names->size());
  const auto& bounds = admitter.bounds_of(query);
  for (std::size_t i = 0; i < names->size(); ++i)
    out.columns.push_back(OutputColumn{std::move((*names)[i]), untrusted[i],
                                       i < bounds.size() ? bounds[i] : SizeBound{}, output_float_digits(reads[i])});
  // The output columns' types, derived through every level (value_types.cpp): a boolean passed on by a
  // derived table, CTE, set operation, CASE or COALESCE is still a boolean; a numeric is not a float.
  const auto types = admitter.output_types(query);
  for (std::size_t i = 0; i < types.size() && i < out.columns.size(); ++i) {
    out.columns[i].boolean = types[i].type == detail::SqlType::Boolean;
    out.columns[i].numeric = types[i].type == detail::SqlType::Numeric;
    out.columns[i].numeric_scale = out.columns[i].numeric ? types[i].scale : -1;
    out.columns[i].json = types[i].type == detail::SqlType::Json;
    out.columns[i].array = types[i].array;  // of elements the flags above describe; named "text[]" ...
    switch (types[i].type) {
      case detail::SqlType::Boolean:
      case detail::SqlType::Integer:
      case detail::SqlType::Numeric:
      case detail::SqlType::Float:
      case detail::SqlType::Text:
      case detail::SqlType::Json:
        out.columns[i].type = detail::sql_type_words(types[i], std::nullopt);
        break;
      case detail::SqlType::Null:     // SELECT NULL, CASE ... THEN NULL END: PostgreSQL resolves unknown as text
      case detail::SqlType::Untyped:  // SELECT 'x': so is a quoted literal (named even when no row comes; s20b)
        out.columns[i].type = "text";
        break;
      case detail::SqlType::Unknown:
      case detail::SqlType::Time:  // the engine names a time after its stored text (answer_format.cpp)
        break;
    }
  }
  const auto times = admitter.output_times(query);
  for (std::size_t i = 0; i < times.size() && i < out.columns.size(); ++i) {
    out.columns[i].timestamp = times[i] != nullptr;
    if (times[i]) out.columns[i].timestamp_sample = times[i]->timestamp_sample;
  }
  const auto kinds = admitter.output_kinds(query);
  for (std::size_t i = 0; i < kinds.size() && i < out.columns.size(); ++i)
    if (kinds[i] && !out.columns[i].timestamp) out.columns[i].type = pgtime::type_words(*kinds[i]);
  // SQLite's datetime() and strftime() are text (max(datetime(t)) answered a timestamp '2026-11-14T22:47:52';
  // outside tester s13).
  for (std::size_t i = 0; i < out.columns.size(); ++i)
    if (detail::spelled_time_text(query, i)) out.columns[i].type = "text";
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
  out.windows = std::move(admitter.windows);
  return out;
}

}  // namespace qg::admit
