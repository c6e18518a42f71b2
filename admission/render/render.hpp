#pragma once
// The renderer: prints SQL text for one dialect from querygate's typed AST.
// The engine only ever runs SQL printed here, so the output is exact and
// unambiguous: every composite operand is parenthesised (the two grammars
// disagree on precedence), identifiers are quoted whenever they could be read
// as anything else, and a construct the dialect cannot express is an error,
// never an approximation.
//
// Errors are ErrorCode::Internal: admission must have refused the construct
// already, so reaching one here is a defect signal, not an agent's mistake.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "admission/ast/ast.hpp"
#include "common/dialect.hpp"
#include "common/result.hpp"

namespace qg::render {

// Prints one query (no trailing semicolon) on a single line.
Result<std::string> render(const ast::Query& query, Dialect dialect);
Result<std::string> render_expr(const ast::Expr& expr, Dialect dialect);

// Bare when `[a-z_][a-z0-9_]*` and not a keyword of either grammar; otherwise
// double-quoted with `"` doubled. PostgreSQL folds unquoted names to lower
// case, so any other spelling must be quoted to mean itself.
std::string quote_identifier(std::string_view name, Dialect dialect);
// '...' with ' doubled. (Backslashes are literal: PostgreSQL must run with
// standard_conforming_strings = on, its default.)
std::string quote_string(std::string_view text);
// The spelling of a parser-normalised type name ("int8" → BIGINT) that the
// dialect accepts and that PostgreSQL re-parses to the same name.
std::string render_type(const ast::TypeName& type, Dialect dialect);

// SQLite: x / y prints as pg_div(x, y) and x % y as pg_mod(x, y) (executors/sqlite/sqlite_numbers.cpp:
// SQLite's own division with PostgreSQL's "division by zero" where SQLite answers NULL; % exact on fractions),
// except x / y with a divisor that is a literal other than 0 and the integer -1 (-2, 0.5) (division_checked is
// false for it; INT64_MIN / -1 is PostgreSQL's "bigint out of range").
bool division_checked(const ast::Expr& divisor);
// `-?(digits[.digits*] | .digits)([eE][+-]?digits)?`: the text of a numeric literal as both grammars read it.
bool is_numeric_literal_text(std::string_view text);

// Constructs the AST can hold but some dialect has no spelling for. One list,
// so the capability table can check that it refuses each gap before rendering.
enum class Construct : std::uint8_t {
  DistinctOn,
  EmptySelectList,
  WithinGroup,
  AggregateOrderBy,
  Lateral,
  TableColumnAliases,
  Rollup,
  Cube,
  GroupingSets,
  EmptyGroupingSet,
  ILike,
  SimilarTo,
  BetweenSymmetric,
  AnySubquery,
  AllSubquery,
  Greatest,
  Least,
  LocalTime,
  LocalTimestamp,
  IntersectAll,
  ExceptAll,
};

struct ConstructInfo {
  Construct construct;
  std::string_view sql_words;  // how the refusal names it: "DISTINCT ON"
  bool sqlite;
  bool postgres;
};

std::span<const ConstructInfo> all_constructs();
const ConstructInfo& construct_info(Construct construct);
bool can_render(Construct construct, Dialect dialect);

}  // namespace qg::render
