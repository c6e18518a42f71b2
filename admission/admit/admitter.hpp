#pragma once
// The admission walker, shared by admit_names.cpp (resolution and the rewrites
// that happen at a name), admit_expr.cpp (expressions and the capability
// table) and admit_query.cpp (queries, FROM, grouping). Private to admission/admit.
#include <algorithm>
#include <map>
#include <optional>
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

struct ExprContext {
  const Scope* scope = nullptr;
  const CteEnv* ctes = nullptr;
  const std::vector<std::string>* output_names = nullptr;  // ORDER BY / GROUP BY may name select-list aliases
};

class Admitter {
 public:
  Admitter(const catalog::Catalog& catalog, std::string_view sql)
      : catalog_(catalog), dialect_(catalog.dialect), sql_(sql) {}

  Result<std::vector<std::string>> query(ast::Query& q, const Scope* outer, const CteEnv* ctes);

  std::vector<std::string> rewrites;
  std::vector<std::string> notes;
  // Per output column of an admitted query: may it carry untrusted text?
  const std::vector<bool>& taint_of(const ast::Query& q) const { return query_taint(q); }

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

  // Where an engine would read the statement differently from PostgreSQL's meaning (dialect.cpp).
  const catalog::Column* base_column(const ast::Expr& e, const ExprContext& ctx);
  Status json_arrow(ast::Operator& op, const ast::Expr& node, int location);
  Status text_arithmetic(const ast::Operator& op, const ExprContext& ctx, int location);
  Status cast_on_sqlite(const ast::Cast& cast, const ExprContext& ctx, int location);
  bool integer_valued(const ast::Expr& e, const ExprContext& ctx);
  bool text_or_unknown(const ast::Expr& e, const ExprContext& ctx);
  Status ilike_on_sqlite(ast::Like& like, int location);
  Status like_pattern_on_sqlite(const ast::Like& like, int location);
  Status json_text_comparison(const ast::Expr& json_side, const ast::Expr& literal_side, int location);
  Status check_grouping(const ast::Select& s, const Scope& level, const std::vector<ast::SortItem>& order_by,
                        const std::vector<std::string>& names, int location);
  // The one expression whose JSON text (`x -> 'k'`) may be used as is here: the left operand of
  // another arrow, a NULL test, an argument of a SQLite json function.
  const ast::Expr* json_text_allowed_ = nullptr;

  // Grouping that SQLite reads differently from the grammar (precedence.cpp).
  Status check_precedence(const ast::Expr& e);
  Status check_set_precedence(const ast::SetOp& set, int location);
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
};

}  // namespace qg::admit::detail
