#include "admission/rewrite/row_filters.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "admission/admit/admit.hpp"
#include "admission/ast/tree_walk.hpp"
#include "admission/convert/convert.hpp"
#include "admission/params/params.hpp"
#include "admission/parse/parser.hpp"
#include "admission/render/render.hpp"

namespace qg::rewrite {
namespace {

Error invalid(const std::string& key, const std::string& why, const std::string& fix) {
  return make_error(ErrorCode::ConfigInvalid, "'" + key + "': " + why, fix);
}

// Locations point into the filter's text, not a caller's: forget them.
void forget_locations(ast::Expr& e) {
  ast::Query holder;
  ast::Select s;
  s.where = std::move(e);
  holder.body = std::move(s);
  ast::walk_tree(
      holder, [](ast::Expr& x) { x.location = -1; },
      [](ast::FromItem& f) {
        f.location = -1;
        if (auto* t = std::get_if<ast::TableRef>(&f.node)) t->location = -1;
      });
  e = std::move(*std::get<ast::Select>(holder.body).where);
}

// The condition kinds a WHERE clause means the same way on both engines (a
// bare column or number would be "truthy" on SQLite and an error on PostgreSQL).
bool is_condition(const ast::Expr& e) {
  return std::visit(
      [&](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::BoolOp>) {
          return std::all_of(n.args.begin(), n.args.end(), [](const ast::Expr& a) { return is_condition(a); });
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
          static const std::set<std::string> comparisons = {"=", "<>", "!=", "<", "<=", ">", ">="};
          return n.left && comparisons.count(n.op) > 0;
        } else if constexpr (std::is_same_v<T, ast::NullTest> || std::is_same_v<T, ast::BoolTest> ||
                             std::is_same_v<T, ast::DistinctFrom> || std::is_same_v<T, ast::InList> ||
                             std::is_same_v<T, ast::Between> || std::is_same_v<T, ast::Like>) {
          return true;
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          return n.kind != ast::SubLinkKind::Scalar;
        } else if constexpr (std::is_same_v<T, ast::Literal>) {
          return n.kind == ast::LiteralKind::Boolean;
        } else if constexpr (std::is_same_v<T, ast::ColumnRef> || std::is_same_v<T, ast::FuncCall> ||
                             std::is_same_v<T, ast::NullIf> || std::is_same_v<T, ast::Case> ||
                             std::is_same_v<T, ast::Coalesce> || std::is_same_v<T, ast::MinMax> ||
                             std::is_same_v<T, ast::Cast> || std::is_same_v<T, ast::SqlValue> ||
                             std::is_same_v<T, ast::Param>) {
          return false;
        } else {
          static_assert(ast::detail::kNoChildWalk<T>, "is_condition: every expression node kind needs its own branch");
        }
      },
      e.node);
}

struct Pending {
  std::string key;  // the config key, for errors
  catalog::Table* table = nullptr;
  ast::Expr raw;                   // converted, not yet admitted
  std::vector<std::string> reads;  // filtered tables it reads (itself included when it does)
};

}  // namespace

Status attach_row_filters(catalog::Catalog& catalog, const config::Database& database) {
  const Dialect d = catalog.dialect;
  std::vector<Pending> pending;
  for (const auto& curation : database.tables) {
    const std::string key = "databases." + database.name + ".tables." + curation.name + ".row_filter";
    if (curation.row_filter.empty()) {
      if (!curation.row_filter_note.empty())
        return invalid(key + "_note", "is set but the table has no row_filter", "Add the row_filter it describes.");
      continue;
    }
    catalog::Table* table = nullptr;
    for (auto& t : catalog.tables)
      if (catalog::Catalog::same_name(t.name, curation.name, d)) table = &t;
    if (!table) continue;  // the executor already refused an allowlisted table that does not exist
    auto positional = params::to_positional("SELECT * FROM " + render::quote_identifier(table->name, d) + " WHERE " +
                                            curation.row_filter + "\n");
    if (!positional) return invalid(key, positional.error().message, positional.error().fix);
    std::vector<std::string> binds;
    for (const auto& n : positional->names) binds.push_back(std::string(kBindPrefix) + n);
    auto json = parse::parse_to_json(positional->text);
    if (!json)
      return invalid(key, "does not parse: " + json.error().message,
                     "Write one condition over the table's columns, e.g. project_id <> 5.");
    auto tree = convert::convert_statement(*json, positional->text, &binds);
    if (!tree) return invalid(key, tree.error().message, tree.error().fix);
    auto* select = std::get_if<ast::Select>(&tree->body);
    if (!select || !tree->with.empty() || select->from.size() != 1 || !select->where || !select->group_by.empty() ||
        select->having || !select->windows.empty() || select->distinct || !tree->order_by.empty() || tree->limit ||
        tree->offset)
      return invalid(key, "must be exactly one condition", "Write one condition, without clauses around it.");
    if (!is_condition(*select->where))
      return invalid(key, "is not a condition (a comparison, IN, EXISTS, IS NULL, AND/OR/NOT of those)",
                     "Write a condition that is true for the rows to keep, e.g. project_id <> 5.");
    catalog::RowFilter filter;
    filter.text = curation.row_filter;
    filter.note = curation.row_filter_note;
    filter.binds = binds;
    // Every table the filter reads is named with its schema: inside a
    // statement, a qualified name never means one of the statement's CTEs.
    // Its column references are the operator's: they may read columns hidden
    // from callers (a tenant column the model never sees).
    ast::walk_tree(
        *tree,
        [](ast::Expr& e) {
          if (auto* ref = std::get_if<ast::ColumnRef>(&e.node)) ref->configured = true;
        },
        [&](ast::FromItem& f) {
          if (auto* t = std::get_if<ast::TableRef>(&f.node);
              t && !catalog.schema.empty() && t->schema.empty() && catalog.find_table(t->name))
            t->schema = catalog.schema;
        });
    Pending p{key, table, std::move(*select->where), {}};
    ast::Query reads;
    ast::Select holder;
    holder.where = p.raw;
    reads.body = std::move(holder);
    ast::walk_tree(
        std::as_const(reads), [](const ast::Expr&) {},
        [&](const ast::FromItem& f) {
          if (const auto* t = std::get_if<ast::TableRef>(&f.node))
            if (const auto* read = catalog.find_table(t->name)) p.reads.push_back(read->name);
        });
    filter.reads = {table->name};
    for (const auto& r : p.reads)
      if (std::find(filter.reads.begin(), filter.reads.end(), r) == filter.reads.end()) filter.reads.push_back(r);
    table->row_filter = std::move(filter);
    pending.push_back(std::move(p));
  }
  // Reads of unfiltered tables do not matter for the order.
  for (auto& p : pending)
    std::erase_if(p.reads, [&](const std::string& name) { return !catalog.find_table(name)->row_filter; });

  // Admit in dependency order: a filter once every filter it reads is admitted.
  while (!pending.empty()) {
    auto ready = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) {
      return std::all_of(p.reads.begin(), p.reads.end(), [&](const std::string& name) {
        return name != p.table->name && catalog.find_table(name)->row_filter->predicate;
      });
    });
    if (ready == pending.end()) {
      std::string cycle;
      for (const auto& p : pending) cycle += (cycle.empty() ? "" : ", ") + p.table->name;
      const Pending& first = pending.front();
      const bool self = std::find(first.reads.begin(), first.reads.end(), first.table->name) != first.reads.end();
      return invalid(first.key,
                     self ? "reads its own table " + first.table->name + ", which would need its own filter first"
                          : "the row filters of " + cycle + " read each other's tables in a cycle",
                     "Write each filter over its own table's columns, reading only tables whose filters do not read it "
                     "back.");
    }
    Pending p = std::move(*ready);
    pending.erase(ready);
    // Admitted as a caller's FROM item would be (admit_query.cpp): the table's
    // reference carries the filter, which is walked in a scope of its own.
    ast::TableRef ref;
    ref.name = p.table->name;
    ref.row_filter = ast::Box<ast::Expr>(std::move(p.raw));
    ast::Select s;
    s.items.push_back(ast::SelectItem{ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "1"}), "one"});
    s.from.push_back(ast::FromItem{std::move(ref)});
    ast::Query q;
    q.body = std::move(s);
    auto admitted = admit::admit(q, catalog, p.table->row_filter->text);
    if (!admitted) return invalid(p.key, admitted.error().message, admitted.error().fix);
    ast::Expr predicate =
        std::move(**std::get<ast::TableRef>(std::get<ast::Select>(q.body).from.front().node).row_filter);
    forget_locations(predicate);
    p.table->row_filter->predicate = std::make_shared<const ast::Expr>(predicate);
    // The admitted filter must admit again unchanged: it is re-walked in every statement.
    ast::TableRef again;
    again.name = p.table->name;
    ast::Select s2;
    s2.items.push_back(ast::SelectItem{ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "1"}), "one"});
    s2.from.push_back(ast::FromItem{std::move(again)});
    ast::Query q2;
    q2.body = std::move(s2);
    auto recheck = admit::admit(q2, catalog, {});
    if (!recheck) return invalid(p.key, "admits once but not twice: " + recheck.error().message, recheck.error().fix);
    const auto& attached = std::get<ast::TableRef>(std::get<ast::Select>(q2.body).from.front().node).row_filter;
    if (!attached || !(**attached == predicate) ||
        std::any_of(recheck->rewrites.begin(), recheck->rewrites.end(),
                    [](const std::string& r) { return !r.starts_with("row-filter:"); }))
      return invalid(p.key, "changes when admitted again (a rewrite that is not idempotent)",
                     "Report this as a querygate defect, with the filter's text; meanwhile write the condition in "
                     "another form.");
  }
  return {};
}

Status verify_row_filters(const ast::Query& query, const catalog::Catalog& catalog) {
  // CTE names anywhere in the statement: an unqualified reference by such a
  // name may be the CTE. (Admission qualifies every reference it filters with
  // the schema, so a qualified reference is always the table.)
  std::vector<std::string> ctes;
  ast::walk_tree(
      query, [](const ast::Expr&) {}, [](const ast::FromItem&) {},
      [&](const ast::Query& q) {
        for (const auto& c : q.with) ctes.push_back(c.name);
      });
  std::optional<Error> violation;
  ast::walk_tree(
      query, [](const ast::Expr&) {},
      [&](const ast::FromItem& f) {
        const auto* t = std::get_if<ast::TableRef>(&f.node);
        if (!t || violation) return;
        const auto* table = catalog.find_table(t->name);
        if (!table || !table->row_filter) return;
        if (t->schema.empty() && !t->row_filter && !catalog.schema.empty() &&
            std::any_of(ctes.begin(), ctes.end(),
                        [&](const std::string& c) { return catalog::Catalog::same_name(c, t->name, catalog.dialect); }))
          return;  // the CTE of that name
        const auto& predicate = table->row_filter->predicate;
        if (!predicate || !t->row_filter || !(**t->row_filter == *predicate))
          violation = make_error(ErrorCode::Internal,
                                 "ADMISSION DEFECT: a reference to " + table->name +
                                     " does not carry its row filter; the statement was not run",
                                 "FIX: this is a gateway defect, reported to the operator; rewrite the statement "
                                 "meanwhile (e.g. without CTEs or subqueries around " +
                                     table->name + ").");
      });
  if (violation) return std::move(*violation);
  return {};
}

std::vector<std::string> filtered_tables(const ast::Query& query) {
  std::set<std::string> names;
  ast::walk_tree(
      query, [](const ast::Expr&) {},
      [&](const ast::FromItem& f) {
        if (const auto* t = std::get_if<ast::TableRef>(&f.node); t && t->row_filter) names.insert(t->name);
      });
  return {names.begin(), names.end()};
}

namespace {

// Whether evaluating `e` on any row can fail (see fence_row_filters). One
// branch per node kind; a kind not listed does not compile.
bool cannot_fail(const ast::Expr& e) {
  const bool here = std::visit(
      [](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>) {
          return !n.star;
        } else if constexpr (std::is_same_v<T, ast::Literal> || std::is_same_v<T, ast::Param> ||
                             std::is_same_v<T, ast::SqlValue>) {
          return true;
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
          static const std::set<std::string> kComparisons = {"=", "<>", "!=", "<", ">", "<=", ">="};
          return kComparisons.count(n.op) > 0;
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
          // A literal's cast is decided by the text the caller wrote, not by a row.
          return std::holds_alternative<ast::Literal>(n.arg->node);
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          // Functions that fail on no value of their arguments' types (a
          // subquery's aggregate runs over rows its own filters kept).
          static const std::set<std::string> kTotal = {"count",    "min",         "max",     "sum",   "avg",
                                                       "bool_and", "bool_or",     "every",   "lower", "upper",
                                                       "length",   "char_length", "coalesce"};
          return kTotal.count(n.name) > 0;
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          // Its own WHERE and HAVING are judged where they stand; here its select list.
          const auto* select = std::get_if<ast::Select>(&n.query->body);
          return select != nullptr && std::all_of(select->items.begin(), select->items.end(),
                                                  [](const ast::SelectItem& i) { return cannot_fail(i.expr); });
        } else if constexpr (std::is_same_v<T, ast::MinMax>) {
          return true;  // greatest/least compare
        } else if constexpr (std::is_same_v<T, ast::BoolOp> || std::is_same_v<T, ast::NullTest> ||
                             std::is_same_v<T, ast::BoolTest> || std::is_same_v<T, ast::DistinctFrom> ||
                             std::is_same_v<T, ast::InList> || std::is_same_v<T, ast::Between> ||
                             std::is_same_v<T, ast::Like> || std::is_same_v<T, ast::NullIf> ||
                             std::is_same_v<T, ast::Case> || std::is_same_v<T, ast::Coalesce>) {
          return true;  // when every part cannot fail (below)
        } else {
          static_assert(sizeof(T) == 0, "cannot_fail: an expression kind without a branch");
        }
      },
      e.node);
  if (!here) return false;
  bool ok = true;
  ast::for_each_child(e, [&](const ast::Expr& child) { ok = ok && cannot_fail(child); });
  return ok;
}

}  // namespace

bool fence_row_filters(ast::Query& query) {
  bool risky = false;
  auto judge = [&](const ast::Expr& condition) {
    if (!risky && !cannot_fail(condition)) risky = true;
  };
  ast::walk_tree(
      std::as_const(query), [](const ast::Expr&) {},
      [&](const ast::FromItem& f) {
        if (const auto* j = std::get_if<ast::Join>(&f.node); j && j->on) judge(**j->on);
        // jsonb_each(x) and its kin fail on a value of the wrong JSON kind: only on rows the filter kept.
        if (std::holds_alternative<ast::JsonRows>(f.node)) risky = true;
      },
      [&](const ast::Query& q) {
        if (const auto* s = std::get_if<ast::Select>(&q.body)) {
          if (s->where) judge(*s->where);
          if (s->having) judge(*s->having);
        }
      });
  if (!risky) return false;
  ast::walk_tree(
      query, [](ast::Expr&) {},
      [](ast::FromItem& f) {
        if (auto* t = std::get_if<ast::TableRef>(&f.node); t && t->row_filter) t->row_filter_fence = true;
      });
  return true;
}

}  // namespace qg::rewrite
