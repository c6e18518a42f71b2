#pragma once
// The admission walker, shared by admit_names.cpp (resolution and the rewrites
// that happen at a name), admit_expr.cpp (expressions and the capability
// table) and admit_query.cpp (queries, FROM, grouping). Private to admission/admit.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "admission/admit/admit.hpp"
#include "admission/admit/scope.hpp"
#include "admission/capability/capability.hpp"

namespace qg::admit::detail {

std::optional<int> pos(int location);
std::string join_names(const std::vector<std::string>& names, std::size_t max = 40);
bool is_system_column(std::string_view name);
// What the engine will call an unaliased select item.
std::string figure_name(const ast::Expr& e);

// Why an expression has no bound at all (a printf format that is not a literal, ...).
struct SizeProblem {
  std::string why;
  std::string fix;
};

// Per column, the widest of two lists of bounds (set-operation branches, VALUES rows).
std::vector<SizeBound> widest_bounds(const std::vector<SizeBound>& a, const std::vector<SizeBound>& b);

struct ExprContext {
  const Scope* scope = nullptr;
  const CteEnv* ctes = nullptr;
  const std::vector<std::string>* output_names = nullptr;  // ORDER BY / GROUP BY may name select-list aliases
};

class Admitter {
 public:
  Admitter(const catalog::Catalog& catalog, std::string_view sql, int max_expression_growth)
      : catalog_(catalog), dialect_(catalog.dialect), sql_(sql), max_expression_growth_(max_expression_growth) {}

  Result<std::vector<std::string>> query(ast::Query& q, const Scope* outer, const CteEnv* ctes);

  std::vector<std::string> rewrites;
  std::vector<std::string> notes;
  // Per output column of an admitted query: may it carry untrusted text?
  const std::vector<bool>& taint_of(const ast::Query& q) const { return query_taint(q); }
  // Per output column of an admitted query: how long can its values be?
  const std::vector<SizeBound>& bounds_of(const ast::Query& q) const;

 private:
  const catalog::Column* timestamp_column(const ast::Expr& e, const ExprContext& ctx);
  Status time_literal(const ast::Expr& column_side, ast::Expr& literal_side, const ExprContext& ctx);
  Status construct(capability::Construct c, int location);
  Status expr(ast::Expr& e, const ExprContext& ctx);
  Status exprs(std::vector<ast::Expr>& list, const ExprContext& ctx);
  Status sort_items(std::vector<ast::SortItem>& items, const ExprContext& ctx);
  Status window(ast::WindowSpec& w, const ExprContext& ctx, int location);
  // The relation a column reference resolves to (nullptr: a select-list alias).
  Result<const Relation*> column(const ast::ColumnRef& ref, int location, const ExprContext& ctx);
  Result<const Relation*> resolve_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx);
  Status substitute_virtual(ast::Expr& e, const Relation& relation, const ast::ColumnRef& ref, const ExprContext& ctx);
  Status function(ast::FuncCall& f, int location, const ExprContext& ctx);
  Status from_item(ast::FromItem& item, Scope& level, const CteEnv* ctes);
  Status expand_stars(ast::Select& s, const Scope& level, int location);
  // Names a subquery's output columns so that outer references and stars find
  // each by the name admission resolved; returns the names that were duplicated.
  std::vector<std::string> name_outputs(ast::Query& q, std::vector<std::string>& names);
  Status group_items(std::vector<ast::GroupItem>& items, const ExprContext& ctx);
  Result<std::vector<std::string>> select(ast::Select& s, Scope& level, const CteEnv* ctes,
                                          std::vector<ast::SortItem>& order_by, int location);
  void note_rewrite(std::string_view name) {
    if (std::find(rewrites.begin(), rewrites.end(), name) == rewrites.end()) rewrites.emplace_back(name);
  }
  bool same(std::string_view a, std::string_view b) const { return catalog::Catalog::same_name(a, b, dialect_); }
  Error unknown_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) const;

  // Grouping that SQLite reads differently from the grammar (precedence.cpp).
  Status check_precedence(const ast::Expr& e);
  Status check_set_precedence(const ast::SetOp& set, int location);
  // Static size bounds (size_bound.cpp): refuses a function call or operator
  // whose value can grow past limits.max_expression_growth.
  Status check_size(const ast::Expr& e, const ExprContext& ctx);
  SizeBound bound_of(const ast::Expr& e, const ExprContext& ctx, SizeProblem* problem);
  SizeBound call_bound(const ast::FuncCall& f, const ExprContext& ctx, SizeProblem* problem);
  SizeBound column_bound(const ast::ColumnRef& ref, const ExprContext& ctx);
  SizeBound largest_bound_{0, 1, 0};  // of every expression checked so far (for select-list aliases)
  std::map<const ast::Query*, std::vector<SizeBound>> query_bounds_;  // output bounds of every admitted query
  std::vector<SizeBound> select_bounds_;                              // the last select()'s items
  // Queries whose rows come from generate_series: a text aggregate over them has no bound.
  std::set<const ast::Query*> query_generated_;
  bool generates_rows(const ast::Select& s, const Scope& level) const;
  double steepest_literal_growth_ = 0;
  // Lineage of untrusted text (lineage.cpp).
  bool carries_untrusted(const ast::Expr& e, const ExprContext& ctx);
  bool column_untrusted(const ast::ColumnRef& ref, const ExprContext& ctx);
  std::vector<bool> table_taint(const catalog::Table& table) const;
  const std::vector<bool>& query_taint(const ast::Query& q) const;
  // Output taint of every query admitted so far, by node (nodes do not move once admitted).
  std::map<const ast::Query*, std::vector<bool>> query_taint_;
  std::vector<bool> select_taint_;         // the last select()'s items
  std::vector<std::string> from_names_;    // every relation name in the FROM being resolved (for better refusals)
  std::vector<std::string> window_names_;  // the WINDOW clause names of the SELECT being admitted

  const catalog::Catalog& catalog_;
  Dialect dialect_;
  std::string_view sql_;
  int max_expression_growth_;
};

}  // namespace qg::admit::detail
