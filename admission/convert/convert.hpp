#pragma once
// libpg_query JSON → querygate's typed AST. The only reader of the parser's
// JSON. Fails closed: a node kind or field it does not model becomes a refusal
// that names the construct in SQL words.
#include <string>
#include <string_view>
#include <vector>

#include "admission/ast/ast.hpp"
#include "common/result.hpp"

namespace qg::convert {

// Deepest expression/query nesting admitted (an RAII guard counts it).
inline constexpr int kMaxDepth = 100;

// Converts the parse tree of exactly one statement. More than one statement,
// or a statement that is not a query, is refused here. `sql` is the text that
// was parsed: libpg_query 15's JSON writes every non-positive integer constant
// as an empty object, so their digits are read back from the text.
// `param_names`: SQL from configuration, after params::to_positional; `$n`
// becomes ast::Param{param_names[n - 1], n}. Null (the caller's SQL): a
// placeholder is refused.
Result<ast::Query> convert_statement(std::string_view parse_tree_json, std::string_view sql,
                                     const std::vector<std::string>* param_names = nullptr);

}  // namespace qg::convert
