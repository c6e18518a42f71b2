#pragma once
// Shared by the convert_*.cpp files: a cursor over simdjson's DOM with the
// helpers every node converter needs. Not part of the public interface.
#include <simdjson.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "admission/ast/ast.hpp"
#include "admission/convert/convert.hpp"
#include "common/result.hpp"

namespace qg::convert::detail {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// A parse-tree node: {"KindName": {fields...}}.
struct Node {
  std::string_view kind;
  object fields;
};

std::optional<Node> as_node(element e);
std::optional<element> field(object o, std::string_view key);
std::string_view string_field(object o, std::string_view key);  // "" when absent (protobuf omits defaults)
std::int64_t int_field(object o, std::string_view key);         // 0 when absent
bool bool_field(object o, std::string_view key);                // false when absent
int first_location(element e);                                  // the smallest location anywhere inside, -1 when none
int last_location(element e);                                   // the largest location anywhere inside, -1 when none
int location_of(object o);  // only for node kinds that have a location field (absent means 0)
// The list under `key`, or an empty array view when absent.
std::optional<array> list_field(object o, std::string_view key);
// A "String" node's sval.
std::optional<std::string_view> string_node(element e);

// SQL words for a parser node kind, for refusals ("InsertStmt" → "INSERT").
std::string sql_words(std::string_view node_kind);

class Converter {
 public:
  explicit Converter(std::string_view sql, const std::vector<std::string>* param_names = nullptr)
      : sql_(sql), param_names_(param_names) {}
  Result<ast::Query> statement(element root);

  // Each returns the AST node or the refusal.
  Result<ast::Query> query(object select_stmt, int location);
  // A SelectStmt node, or the refusal for any other statement. Statement nodes
  // carry no location of their own; `location` is where this one starts.
  Result<ast::Query> query_node(element e, int location);
  Result<ast::Expr> expr(element e);
  Result<std::vector<ast::Expr>> expr_list(object o, std::string_view key);
  Result<ast::FromItem> from_item(element e);
  std::optional<Result<ast::FromItem>> json_rows(object o, int loc);
  Result<ast::SortItem> sort_item(element e);
  Result<std::vector<ast::SortItem>> sort_list(object o, std::string_view key);
  Result<ast::WindowSpec> window_spec(object window_def);
  Result<ast::TypeName> type_name(object type_name, int location);

  // Refuses any field of `o` that is not in `known`: a field we do not model is
  // a construct we would otherwise silently drop.
  Status only_fields(object o, std::initializer_list<std::string_view> known, std::string_view construct, int location);

  struct DepthGuard {
    Converter& c;
    explicit DepthGuard(Converter& conv) : c(conv) { ++c.depth_; }
    ~DepthGuard() { --c.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };
  Status check_depth(int location) const;

 private:
  Result<ast::Expr> a_expr(object o, int location);
  Result<ast::Expr> composite(std::string_view kind, object o, int location);  // BoolExpr, NullTest, BooleanTest
  Result<ast::Expr> func_call(object o, int location);
  Result<ast::Expr> column_ref(object o, int location);
  Result<ast::Expr> a_const(object o, int location);
  Result<ast::Expr> sub_link(object o, int location);
  Result<ast::Select> select_core(object o);
  Result<std::vector<ast::GroupItem>> group_items(array items);
  Result<std::vector<ast::Cte>> with_clause(object with);
  Result<std::optional<std::int64_t>> limit_value(object o, std::string_view key, std::string_view clause);
  Result<std::optional<ast::Alias>> alias(object o);

  // The integer constant written at `location` (see convert_statement).
  Result<std::int64_t> integer_at(int location) const;
  // Whether the caller wrapped the parse-tree node `e` in parentheses of its own
  // (a '(' just before its first token whose ')' comes after its last one).
  bool wrapped(element e);
  bool wrapped_query(element e);  // the same for a set-operation branch (SelectStmt)
  int matching_paren(int open);

  std::string_view sql_;
  const std::vector<std::string>* param_names_;  // configured SQL only
  int depth_ = 0;
  std::vector<int> paren_match_;  // for each '(' byte, the ')' that closes it (computed on first use)
};

Error unsupported(std::string what, int location, std::string fix = {});

}  // namespace qg::convert::detail
