#pragma once
// The one capability table. For every SQL construct, function, operator and
// cast target it says, per backend, whether querygate admits it, refuses it
// (with the FIX that names a spelling that works) or rewrites it. Admission,
// the renderers' coverage, the SQLite authorizer's function list and the
// PostgreSQL plan gate's are all derived from here; tests enumerate it
// (tests/unit/capability_test.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "admission/render/render.hpp"
#include "common/dialect.hpp"

namespace qg::capability {

enum class Verdict : std::uint8_t { Admit, Refuse, Rewrite };

struct Cell {
  Verdict verdict = Verdict::Refuse;
  // Refuse: the FIX (a spelling that works on this backend). Rewrite: the rewrite's name.
  std::string_view note;
};

inline constexpr Cell admit() {
  return {Verdict::Admit, {}};
}
inline constexpr Cell refuse(std::string_view fix) {
  return {Verdict::Refuse, fix};
}
inline constexpr Cell rewrite(std::string_view name) {
  return {Verdict::Rewrite, name};
}

// Grammar constructs whose admission differs by backend or needs a FIX.
// Admission calls `construct(c)` wherever the AST holds one of these.
enum class Construct : std::uint8_t {
  DistinctOn,
  WithinGroup,
  AggregateFilter,
  AggregateOrderBy,
  WindowFunction,
  WindowFrameGroups,
  WindowFrameExclusion,
  Lateral,
  GroupingSets,  // ROLLUP / CUBE / GROUPING SETS / GROUP BY ()
  ILike,
  SimilarTo,
  LikeEscape,
  RightJoin,
  FullJoin,
  ValuesInFrom,
  LocalTime,  // LOCALTIME / LOCALTIMESTAMP
  CurrentTime,
  BetweenSymmetric,
  IsDistinctFrom,
  SetOpIntersectAll,  // INTERSECT ALL / EXCEPT ALL
  GreatestLeast,
  QuantifiedSubquery,     // x op ANY/ALL (subquery)
  RelationColumnAliases,  // FROM t AS x(a, b) / (SELECT ...) AS x(a, b)
  EmptySelectList,        // SELECT FROM t (PostgreSQL's zero-column select, common inside EXISTS)
  Count                   // not a construct: the number of enumerators above; keep it last
};

inline constexpr std::size_t kConstructCount = static_cast<std::size_t>(Construct::Count);

// The most SELECTs in one compound SELECT on SQLite: the SQLite executor sets
// SQLITE_LIMIT_COMPOUND_SELECT to this, and admission refuses a longer chain
// (as the SQLite renderer prints it) with a FIX before it reaches the engine.
inline constexpr int kSqliteCompoundSelectTerms = 50;

struct ConstructCapability {
  Construct construct;
  std::string_view sql_words;  // how refusals name it
  Cell sqlite;
  Cell postgres;
  // What the renderer must be able to print for this construct's nodes (its own
  // list of dialect gaps, render::all_constructs()). Admitted on a dialect ⇒
  // every one of these is printable there; a Rewrite removes them before
  // rendering. Every renderer gap is named by exactly one row (tested).
  std::span<const render::Construct> printed_as;
};

// SetReturning: one row in, many out (jsonb_each, unnest): never admitted, each
// refusal says what answers the question instead.
enum class FunctionKind : std::uint8_t { Scalar, Aggregate, Window, SetReturning };

// What a function, operator or cast returns, as far as the lineage of untrusted
// content cares (admission/admit/lineage.cpp). A Number or Boolean only
// measures its inputs: `length(x)` says how long x is but cannot spell it.
// Anything else can carry or rebuild the text of its inputs however it is
// built (`lower(x)`, `to_char(t, x)`, `chr(ascii(x))`, `jsonb - 'k'`), so it is
// Text: text, JSON, bytes, dates, times and intervals alike. Declare Number or
// Boolean only for results of that type whatever the arguments (checked on both
// engines by tests/integration/lineage_oracle_test.cpp); when unsure, Text.
enum class Returns : std::uint8_t {
  Number,
  Boolean,
  // One of its value arguments, or their arithmetic: a number when every
  // argument (and WITHIN GROUP sort key) is one, else Text. max(x), lag(x),
  // coalesce-like functions, + - * / on numbers; on other types these
  // operators return jsonb (PostgreSQL's `jsonb - 'k'`), dates, or (SQLite's
  // unary `+x`) x itself.
  LikeArguments,
  Text,
};
constexpr bool measures(Returns r) {
  return r == Returns::Number || r == Returns::Boolean;
}

// How long one call's result can be, given its arguments: the decision, per
// function and operator, on whether one call can blow up from a small
// statement (issue #11: printf('%.*c', 1000000000, 'x'), nested replace()).
// admission/admit/size_bound.cpp turns each class into a size bound and
// refuses an expression whose bound exceeds limits.max_expression_growth.
// Time is bounded separately: by the deadline (PostgreSQL's statement_timeout,
// SQLite's progress handler), which interrupts between rows; a single call
// cannot be interrupted, so its cost is bounded by its result's size here.
enum class Growth : std::uint8_t {
  Fixed,          // a number, boolean, date or other short value, whatever the arguments
  Within,         // at most as long as its arguments together (substr, trim, coalesce, max, lag, ||)
  Double,         // up to 2 bytes per argument byte (hex; jsonb printed with spaces)
  CaseMap,        // Unicode case mapping: up to 3 bytes per argument byte (lower, upper, initcap)
  CodePoint,      // char(n, ...): up to 4 bytes per argument byte (one UTF-8 character per number)
  Escape,         // JSON quoting: up to 6 bytes per argument byte (\u00XX)
  Format,         // to_char / strftime: up to 16 bytes per byte of the format (e.g. 'J' prints 7 digits)
  Power,          // power / exp: a PostgreSQL numeric of up to 147 KB from a short base (power(10::numeric, 131071))
  JoinedWith,     // concat_ws(sep, ...): the separator once between every two arguments
  Replace,        // replace(x, from, to): x times ceil(len(to) / len(from)): the literals decide
  RegexpReplace,  // regexp_replace(x, re, to): every match (even empty) becomes `to` with its \N references
  RegexpMatch,    // regexp_match(x, re): one copy of the match per capture group
  Printf,         // printf / format (SQLite): a literal format whose widths and precisions are at most 1000
  TextAggregate,  // string_agg / group_concat / json_agg ...: every row's value plus the separator
  Rows,           // generate_series: many short rows (the deadline bounds how many), each a Fixed value
  Refused,        // admitted on no backend (lpad, rpad, repeat, never(...)): the FIX is the decision
};

struct FunctionCapability {
  std::string_view name;  // lower-case, as called
  FunctionKind kind;
  Returns returns;
  Growth growth;
  Cell sqlite;
  Cell postgres;
};

struct OperatorCapability {
  std::string_view op;
  Returns returns;  // of the binary form; a prefix form (`-x`, `~x`) returns LikeArguments
  Growth growth;
  Cell sqlite;
  Cell postgres;
  // Also valid with no left operand (`-x`). Every other operator is binary only:
  // the PostgreSQL grammar accepts any operator as a prefix (`SELECT || 'a'`),
  // but neither engine has a prefix form of it.
  bool prefix = false;
};

struct CastCapability {
  std::string_view type;  // the grammar's normalised name: int8, float8, text, ...
  Returns returns;
  Cell sqlite;
  Cell postgres;
};

// Functions SQLite calls for admitted constructs that are not written as calls
// of a table function (LIKE → like(), CURRENT_TIMESTAMP → current_timestamp()).
struct EngineFunction {
  std::string_view name;
  std::string_view compiled_from;  // the construct that compiles to it
};

std::span<const ConstructCapability> constructs();  // in enum order, one row per Construct
std::span<const FunctionCapability> functions();
std::span<const OperatorCapability> operators();
std::span<const CastCapability> casts();
std::span<const EngineFunction> sqlite_engine_functions();

const Cell& cell(const ConstructCapability& row, Dialect d);
const Cell& cell(const FunctionCapability& row, Dialect d);
const Cell& cell(const OperatorCapability& row, Dialect d);
const Cell& cell(const CastCapability& row, Dialect d);

const ConstructCapability& find(Construct c);
const FunctionCapability* find_function(std::string_view lower_name);
const OperatorCapability* find_operator(std::string_view op);
const CastCapability* find_cast(std::string_view type);

// Functions SQLite may call while running statements querygate printed: every
// function admitted on SQLite, plus sqlite_engine_functions(). The SQLite
// authorizer allows exactly these.
std::set<std::string> sqlite_authorizer_functions();

// Functions PostgreSQL plans may show while running statements querygate
// printed: every function admitted on PostgreSQL, plus postgres_engine_functions().
// The plan gate allows exactly these.
std::span<const EngineFunction> postgres_engine_functions();
std::set<std::string> postgres_plan_functions();

// Names of functions admitted on `d` (for "did you mean" suggestions).
std::vector<std::string> admitted_function_names(Dialect d);

// The set-returning functions admitted as row sources in FROM on both backends (jsonb_each, jsonb_each_text,
// jsonb_object_keys, jsonb_array_elements, jsonb_array_elements_text: ast::JsonRows, admit/json_rows.cpp);
// their rows above stay refused as calls anywhere else.
bool row_source_in_from(std::string_view name);

}  // namespace qg::capability
