#pragma once
// querygate's own typed AST for the read-only SELECT surface. Only
// admission/convert reads libpg_query's JSON; every later stage (admit,
// rewrite, lineage, render) sees these nodes. A construct that has no node
// here cannot be represented, so conversion refuses it: the AST is the
// firewall. Equality ignores source locations, so "render, re-parse, compare"
// tests the renderer.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "admission/ast/box.hpp"

namespace qg::ast {

struct Expr;
struct Query;

// ---------- expressions ----------

// A column reference: `col`, `t.col`, `*`, `t.*`. Qualifier holds at most one
// name (schema-qualified column references are refused at conversion).
struct ColumnRef {
  std::string table;   // empty when unqualified
  std::string column;  // empty when star
  bool star = false;
  // Written by the operator in the configuration (a virtual column's expression),
  // never by a caller: it may read columns hidden from the caller.
  bool configured = false;
  // SQLite only, set by admission: the column of json_each(...) a jsonb_* FROM
  // item's column reads (admission/admit/json_rows.cpp); printed instead of `column`.
  std::string engine_column;
  bool operator==(const ColumnRef&) const = default;
};

enum class LiteralKind : std::uint8_t { Integer, Numeric, String, Boolean, Null };

struct Literal {
  LiteralKind kind = LiteralKind::Null;
  std::string text;  // the value as written: digits for numbers, the unescaped string for strings, "true"/"false"
  bool operator==(const Literal&) const = default;
};

enum class SortDirection : std::uint8_t { Default, Asc, Desc };
enum class NullsOrder : std::uint8_t { Default, First, Last };

struct SortItem {
  Box<Expr> expr;
  SortDirection direction = SortDirection::Default;
  NullsOrder nulls = NullsOrder::Default;
  bool operator==(const SortItem&) const = default;
};

enum class FrameMode : std::uint8_t { Default, Range, Rows, Groups };
enum class FrameBoundKind : std::uint8_t { UnboundedPreceding, Preceding, CurrentRow, Following, UnboundedFollowing };
enum class FrameExclusion : std::uint8_t { None, CurrentRow, Group, Ties };

struct FrameBound {
  FrameBoundKind kind = FrameBoundKind::UnboundedPreceding;
  std::optional<Box<Expr>> offset;  // for Preceding / Following
  bool operator==(const FrameBound&) const = default;
};

struct WindowFrame {
  FrameMode mode = FrameMode::Default;  // Default: no frame clause written
  FrameBound start;
  std::optional<FrameBound> end;  // absent: "ROWS <start>" without BETWEEN
  FrameExclusion exclusion = FrameExclusion::None;
  bool operator==(const WindowFrame&) const = default;
};

struct WindowSpec {
  std::string base_name;  // OVER w / OVER (w ORDER BY ...): a named window this one refines
  std::vector<Expr> partition_by;
  std::vector<SortItem> order_by;
  WindowFrame frame;
  bool operator==(const WindowSpec&) const = default;
};

struct FuncCall {
  std::string name;  // lower-case unless quoted; never schema-qualified
  std::vector<Expr> args;
  bool star = false;                   // count(*)
  bool distinct = false;               // count(DISTINCT x)
  std::vector<SortItem> order_by;      // string_agg(x, ',' ORDER BY y)
  std::optional<Box<Expr>> filter;     // FILTER (WHERE ...)
  std::vector<SortItem> within_group;  // percentile_cont(0.5) WITHIN GROUP (ORDER BY x)
  std::optional<WindowSpec> over;      // OVER (...)
  // Written in the SQL-standard keyword form the grammar turns into a call:
  // EXTRACT(field FROM x) is extract('field', x), POSITION(a IN b) is
  // position(b, a). Printed back in that form (PostgreSQL has no plain-call
  // spelling of either).
  bool sql_syntax = false;
  bool operator==(const FuncCall&) const = default;
};

// Binary (`a + b`, `a = b`, `a || b`, `j -> 'k'`) or prefix (`-a`) operator.
struct Operator {
  std::string op;
  std::optional<Box<Expr>> left;  // absent for prefix operators
  Box<Expr> right;
  bool operator==(const Operator&) const = default;
};

enum class BoolOpKind : std::uint8_t { And, Or, Not };

struct BoolOp {
  BoolOpKind kind = BoolOpKind::And;
  std::vector<Expr> args;  // Not: exactly one
  bool operator==(const BoolOp&) const = default;
};

struct NullTest {  // x IS [NOT] NULL
  Box<Expr> arg;
  bool negated = false;
  bool operator==(const NullTest&) const = default;
};

enum class BoolTestKind : std::uint8_t { IsTrue, IsNotTrue, IsFalse, IsNotFalse, IsUnknown, IsNotUnknown };

struct BoolTest {  // x IS [NOT] TRUE/FALSE/UNKNOWN
  Box<Expr> arg;
  BoolTestKind kind = BoolTestKind::IsTrue;
  bool operator==(const BoolTest&) const = default;
};

struct DistinctFrom {  // a IS [NOT] DISTINCT FROM b
  Box<Expr> left;
  Box<Expr> right;
  bool negated = false;  // IS NOT DISTINCT FROM
  bool operator==(const DistinctFrom&) const = default;
};

struct NullIf {
  Box<Expr> left;
  Box<Expr> right;
  bool operator==(const NullIf&) const = default;
};

struct InList {  // x [NOT] IN (a, b, c)
  Box<Expr> arg;
  std::vector<Expr> items;
  bool negated = false;
  bool operator==(const InList&) const = default;
};

struct Between {
  Box<Expr> arg;
  Box<Expr> low;
  Box<Expr> high;
  bool negated = false;
  bool symmetric = false;
  bool operator==(const Between&) const = default;
};

enum class LikeKind : std::uint8_t { Like, ILike, Similar };

struct Like {  // x [NOT] LIKE/ILIKE/SIMILAR TO p [ESCAPE e]
  LikeKind kind = LikeKind::Like;
  Box<Expr> arg;
  Box<Expr> pattern;
  std::optional<Box<Expr>> escape;
  bool negated = false;
  bool operator==(const Like&) const = default;
};

struct CaseWhen {
  Box<Expr> condition;
  Box<Expr> result;
  bool operator==(const CaseWhen&) const = default;
};

struct Case {
  std::optional<Box<Expr>> operand;  // CASE x WHEN ...
  std::vector<CaseWhen> whens;
  std::optional<Box<Expr>> otherwise;
  bool operator==(const Case&) const = default;
};

struct Coalesce {
  std::vector<Expr> args;
  bool operator==(const Coalesce&) const = default;
};

struct MinMax {  // GREATEST / LEAST
  bool greatest = true;
  std::vector<Expr> args;
  bool operator==(const MinMax&) const = default;
};

// A data type as the PostgreSQL grammar normalises it: `bigint` → "int8",
// `double precision` → "float8", `varchar(20)` → "varchar" with modifier 20.
// SQLite's spelling of numeric (render/types.cpp): a name of REAL affinity there (SQLite's NUMERIC affinity turns
// 10.0 into the integer 10, so 10::numeric / 4 would divide integers), read back as numeric by the converter, so the
// SQL querygate runs on SQLite means the same when admitted again (REAL would read back as float4).
inline constexpr std::string_view kSqliteNumericTypeName = "numeric_real";

struct TypeName {
  std::string name;
  std::vector<std::int64_t> modifiers;
  bool operator==(const TypeName&) const = default;
};

struct Cast {
  Box<Expr> arg;
  TypeName type;
  bool operator==(const Cast&) const = default;
};

enum class SubLinkKind : std::uint8_t { Exists, Scalar, In, Any, All };

struct SubLink {
  SubLinkKind kind = SubLinkKind::Scalar;
  std::optional<Box<Expr>> test;  // the left side of IN / op ANY / op ALL
  std::string op;                 // for Any / All ("=" for In)
  Box<Query> query;
  bool operator==(const SubLink&) const;
};

// Niladic SQL keywords that read the clock. (Those that read session state,
// such as CURRENT_USER, are refused at conversion.)
enum class SqlValueKind : std::uint8_t { CurrentDate, CurrentTime, CurrentTimestamp, LocalTime, LocalTimestamp };

struct SqlValue {
  SqlValueKind kind = SqlValueKind::CurrentTimestamp;
  bool operator==(const SqlValue&) const = default;
};

// A named parameter of configured SQL (admission/params/params.hpp): `:name`
// in the configuration, `$index` after to_positional. Only SQL whose origin is
// configuration converts to one; the value is bound by index when the
// statement runs, never printed. Printed `$index` (PostgreSQL), `?index` (SQLite).
struct Param {
  std::string name;
  int index = 0;  // 1-based; statements renumber so that one name has one index
  bool operator==(const Param&) const = default;
};

using ExprNode = std::variant<ColumnRef, Literal, FuncCall, Operator, BoolOp, NullTest, BoolTest, DistinctFrom, NullIf,
                              InList, Between, Like, Case, Coalesce, MinMax, Cast, SubLink, SqlValue, Param>;

struct Expr {
  ExprNode node;
  int location = -1;  // byte offset in the caller's SQL; -1 when synthesised by a rewrite
  // The caller wrapped this expression in its own parentheses. Not compared: it
  // matters only where SQLite's precedence differs from the grammar's.
  bool parenthesized = false;
  friend bool operator==(const Expr& a, const Expr& b) { return a.node == b.node; }
};

// ---------- FROM ----------

struct Alias {
  std::string name;
  std::vector<std::string> columns;  // t(a, b)
  bool operator==(const Alias&) const = default;
};

struct FromItem;

struct TableRef {  // a base table or a CTE name
  std::string name;
  std::optional<Alias> alias;
  int location = -1;
  // `public.spans`: admitted only when it names the schema the database serves
  // (a qualified name never means a CTE). Empty when unqualified.
  std::string schema;
  // The table's row filter (admission/rewrite/row_filters.hpp), attached by
  // admission to every reference of a filtered table, never by conversion:
  // printed as (SELECT * FROM name WHERE row_filter) AS alias-or-name.
  std::optional<Box<Expr>> row_filter;
  // Printed as a fence the engine cannot see through (OFFSET 0), so that no
  // condition of the statement runs on a row before the filter has kept it
  // (rewrite::fence_row_filters decides; set after admission, before printing).
  bool row_filter_fence = false;
  bool operator==(const TableRef& o) const {
    return name == o.name && alias == o.alias && schema == o.schema && row_filter == o.row_filter;
  }
};

struct DerivedTable {  // (SELECT ...) AS alias
  Box<Query> query;
  std::optional<Alias> alias;
  bool lateral = false;
  bool operator==(const DerivedTable&) const;
};

struct ValuesTable {  // (VALUES (1, 'a'), (2, 'b')) AS v(id, name)
  std::vector<std::vector<Expr>> rows;
  std::optional<Alias> alias;
  bool operator==(const ValuesTable&) const = default;
};

// generate_series on SQLite (admission/admit/series_on_sqlite.cpp): never read
// from the caller's text, made by admission from a select-list
// generate_series(start, stop, step) and printed for SQLite only, as
// pg_series(start, stop, step, 'kind') AS alias (executors/sqlite/sqlite_series.cpp),
// whose one column is `value`.
struct SeriesTable {
  std::vector<Expr> args;  // start, stop, step
  std::string kind;        // timestamptz or timestamp: set when admitted
  std::optional<Alias> alias;
  bool operator==(const SeriesTable&) const = default;
};

// jsonb_each / jsonb_each_text / jsonb_object_keys / jsonb_array_elements /
// jsonb_array_elements_text as a FROM item (admission/admit/json_rows.cpp):
// one argument, a jsonb column or an arrow of one; implicitly LATERAL (the
// argument may name FROM items to its left). Printed for PostgreSQL as written,
// for SQLite as json_each(pg_json_rows(arg, 'function')) AS alias
// (executors/sqlite/sqlite_json_rows.cpp), its columns renamed by admission.
struct JsonRows {
  std::string function;  // one of the five jsonb_* names, lower case
  std::vector<Expr> args;
  std::optional<Alias> alias;
  // Set by admission on SQLite (its references then read json_each's columns): printed for SQLite only then.
  bool on_sqlite = false;
  bool operator==(const JsonRows&) const = default;
};

enum class JoinKind : std::uint8_t { Inner, Left, Right, Full, Cross };

struct Join {
  JoinKind kind = JoinKind::Inner;
  Box<FromItem> left;
  Box<FromItem> right;
  std::optional<Box<Expr>> on;
  std::vector<std::string> using_columns;
  bool operator==(const Join&) const = default;
};

struct FromItem {
  std::variant<TableRef, DerivedTable, ValuesTable, Join, SeriesTable, JsonRows> node;
  int location = -1;
  friend bool operator==(const FromItem& a, const FromItem& b) { return a.node == b.node; }
};

// ---------- queries ----------

struct SelectItem {
  Expr expr;
  std::string alias;  // empty when not written
  bool operator==(const SelectItem&) const = default;
};

// Composite: the parenthesised `(a, b)` inside GROUPING SETS, ROLLUP or CUBE (or a whole GROUP BY (a, b)):
// one grouping set of these expressions, a unit of ROLLUP and CUBE.
enum class GroupingKind : std::uint8_t { Rollup, Cube, Sets, Empty, Composite };

struct GroupItem;

struct GroupingSet {
  GroupingKind kind = GroupingKind::Sets;
  std::vector<GroupItem> items;
  int location = -1;  // not compared
  bool operator==(const GroupingSet&) const;
};

struct GroupItem {
  std::variant<Expr, GroupingSet> node;
  bool operator==(const GroupItem&) const = default;
};

struct NamedWindow {
  std::string name;
  WindowSpec spec;
  bool operator==(const NamedWindow&) const = default;
};

struct Select {
  bool distinct = false;
  std::vector<Expr> distinct_on;  // non-empty: DISTINCT ON (...)
  std::vector<SelectItem> items;
  std::vector<FromItem> from;
  std::optional<Expr> where;
  std::vector<GroupItem> group_by;
  std::optional<Expr> having;
  std::vector<NamedWindow> windows;
  bool operator==(const Select&) const = default;
};

struct Values {  // a bare VALUES list used as a query
  std::vector<std::vector<Expr>> rows;
  bool operator==(const Values&) const = default;
};

enum class SetOpKind : std::uint8_t { Union, Intersect, Except };

struct SetOp {
  SetOpKind kind = SetOpKind::Union;
  bool all = false;
  Box<Query> left;
  Box<Query> right;
  bool operator==(const SetOp&) const = default;
};

struct Cte {
  std::string name;
  std::vector<std::string> columns;
  Box<Query> query;
  int location = -1;
  bool operator==(const Cte& o) const { return name == o.name && columns == o.columns && query == o.query; }
};

struct Query {
  std::vector<Cte> with;
  std::variant<Select, SetOp, Values> body;
  std::vector<SortItem> order_by;
  std::optional<std::int64_t> limit;  // a whole number; LIMIT ALL is "absent"
  std::optional<std::int64_t> offset;
  int location = -1;
  bool parenthesized = false;  // a set-operation branch the caller wrapped in parentheses (not compared)
  friend bool operator==(const Query& a, const Query& b) {
    return a.with == b.with && a.body == b.body && a.order_by == b.order_by && a.limit == b.limit &&
           a.offset == b.offset;
  }
};

inline bool SubLink::operator==(const SubLink& o) const {
  return kind == o.kind && test == o.test && op == o.op && query == o.query;
}
inline bool DerivedTable::operator==(const DerivedTable& o) const {
  return query == o.query && alias == o.alias && lateral == o.lateral;
}
inline bool GroupingSet::operator==(const GroupingSet& o) const {
  return kind == o.kind && items == o.items;
}

// Helpers to build nodes tersely (used by rewrites and tests).
inline Expr make_expr(ExprNode node, int location = -1) {
  return Expr{std::move(node), location};
}
// A plain call name(args...), as the translations write querygate's own functions.
inline Expr make_call(std::string name, std::vector<Expr> args, int location = -1) {
  FuncCall f;
  f.name = std::move(name);
  f.args = std::move(args);
  return make_expr(std::move(f), location);
}

// The value of a whole-number literal, also when written with a prefix minus
// (`-(1)`); absent for anything else, and for values outside int64.
inline std::optional<std::int64_t> integer_value(const Expr& e) {
  if (const auto* op = std::get_if<Operator>(&e.node); op && !op->left && op->op == "-") {
    auto inner = integer_value(*op->right);
    if (!inner || *inner == INT64_MIN) return std::nullopt;
    return -*inner;
  }
  const auto* lit = std::get_if<Literal>(&e.node);
  if (!lit || lit->kind != LiteralKind::Integer || lit->text.empty()) return std::nullopt;
  std::int64_t v = 0;
  const char* p = lit->text.data();
  const char* end = p + lit->text.size();
  const bool negative = *p == '-';
  if (negative || *p == '+') ++p;
  if (p == end) return std::nullopt;
  for (; p < end; ++p) {
    if (*p < '0' || *p > '9' || v > (INT64_MAX - (*p - '0')) / 10) return std::nullopt;
    v = v * 10 + (*p - '0');
  }
  return negative ? -v : v;
}

}  // namespace qg::ast
