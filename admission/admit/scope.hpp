#pragma once
// Name scopes used while admitting one statement. Private to admission/admit.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "admission/admit/admit.hpp"
#include "admission/catalog/catalog.hpp"
#include "common/pg_time.hpp"

namespace qg::admit::detail {

// Lineage of untrusted content (lineage.cpp). A value is tainted when any input
// to its computation, in any position, is: Measured when it is a number or
// boolean (it can only measure what it read, e.g. a length), Text otherwise (it
// can carry or rebuild what it read). Output columns whose values are Text are
// flagged untrusted.
enum class Taint : std::uint8_t { None, Measured, Text };
// What a value is, as far as lineage can tell: a number or boolean, the NULL
// literal (any type), or anything else (text, JSON, times, unknown).
enum class ValueKind : std::uint8_t { Null, Number, Other };

// PostgreSQL's type of a value as far as admission can tell (value_types.cpp;
// issue #12, "Types at admission"): the type family, and for numeric its scale
// (digits after the point) when PostgreSQL fixes it (round(x, 2), 1.50,
// EXTRACT), else -1. Untyped: a quoted literal (PostgreSQL's unknown, read as
// the type it meets); Unknown: admission cannot tell.
enum class SqlType : std::uint8_t { Unknown, Untyped, Null, Boolean, Integer, Numeric, Float, Text, Json, Time };
struct ValueType {
  SqlType type = SqlType::Unknown;
  int scale = -1;
  bool int8 = false;  // an Integer known to be bigint (count(*), a bigint column or cast): not an int4 argument
  // An Integer PostgreSQL certainly holds as integer (4) or smallint (2), as Admitter::int_width tells
  // (numbers_on_sqlite.cpp); 0: bigint, or not known (a SQLite INTEGER column). Set for the columns of
  // derived tables, CTEs, VALUES lists and set operations, so that arithmetic on them overflows as
  // PostgreSQL's does on SQLite (pg_int4 / pg_int2). A Float of width 4 is a real (a cast to float4 and
  // what keeps its type: min, max ...), computed as a double on SQLite but named as PostgreSQL names it.
  int width = 0;
  // A one-dimensional array of values of this type (array_agg, regexp_match: on SQLite pg_array_agg,
  // pg_regexp_match, admitted only as a whole output column: arrays_on_sqlite.cpp).
  bool array = false;
  // A numeric column of a derived table or CTE that holds its decimal text on SQLite (an exact call's, 1.0 / 3 * 3
  // AS v): what reads it exactly reads every digit, anything else reads pg_numeric_value(v), the double nearest it
  // (numeric_scale_on_sqlite.cpp).
  bool exact_text = false;
  bool operator==(const ValueType&) const = default;
};

struct Lineage {
  Taint taint = Taint::Text;  // fail closed: a value nobody derived is untrusted text
  ValueKind kind = ValueKind::Other;
  bool operator==(const Lineage&) const = default;
};

// The stored columns a value is computed from, in any position (arguments,
// CASE conditions, FILTER, window clauses, subqueries), through derived tables,
// CTEs and set operations; sorted, without repeats. For companion columns and
// per-column float_digits (admit.cpp's end).
//
// Each read names the table instance (range entry: one reference to a table in
// FROM, a CTE's per reference) it comes from, so that a companion column is
// only satisfied by the same instance's companion. `mixed`: the value is a
// window aggregate over rows of that instance whose partition does not keep
// each companion fixed, so no output can show the companion it was computed for.
struct Source {
  const catalog::Column* column = nullptr;
  int instance = -1;
  bool mixed = false;
  auto operator<=>(const Source&) const = default;
};
using Reads = std::vector<Source>;

// A relation visible in a FROM clause: a base table, a CTE reference, a derived
// table or VALUES list — anything with a name (maybe empty) and columns.
struct Relation {
  std::string name;                  // alias, else the table/CTE name; empty for an unaliased subquery
  std::string source;                // as FROM wrote it, for refusals: "spans", "(SELECT ...)", "(VALUES ...)"
  std::vector<std::string> columns;  // in order
  std::vector<Lineage> lineage;      // per column
  std::vector<Reads> reads;          // per column
  // Per column: the stored cells it passes on unchanged (a plain reference to a
  // table instance's column; in a grouped query only a grouping key), one per
  // set-operation branch that does; empty when it is computed.
  std::vector<Reads> plain;
  int instance = -1;  // a base table's instance (Source::instance)
  // A base table's columns hidden from this caller (config `hidden`, the key's
  // hidden_columns): not in `columns`, so no reference, star or suggestion finds
  // them; only a configured reference (a virtual column's expression) may read them.
  std::vector<std::string> hidden;
  // Per column of a derived table or CTE: the timestamp column it passes on
  // (a bare reference, or min/max of one), for timestamp-literal checks.
  std::vector<const catalog::Column*> timestamps;
  // Per column of a derived table, CTE or VALUES list: every value is a text literal (PostgreSQL types
  // such a column text, so comparing it with a timestamp is its error).
  std::vector<bool> literal_text;
  // Per column of a derived table or CTE: the kind of a computed time it passes on (time_types.cpp).
  std::vector<std::optional<pgtime::Kind>> time_kinds;
  // Per column of a derived table, CTE, VALUES list or set operation: its type (value_types.cpp).
  std::vector<ValueType> types;
  // Per column of a derived table, CTE or VALUES list: how long its values can
  // be (size_bound.cpp). Empty for a base table (stored values).
  std::vector<SizeBound> bounds;
  // Its rows come from generate_series (directly or through another derived
  // table): their number is not bounded by stored data.
  bool generated_rows = false;
  // Names the source returned more than once (renamed apart so a star can read
  // each by position); a reference by such a name is ambiguous.
  std::vector<std::string> ambiguous;
  // A jsonb_* row source on SQLite (json_rows.cpp): per column, the column of json_each it reads. Empty otherwise.
  std::vector<std::string> engine_columns;
  const catalog::Table* table = nullptr;   // set for allowlisted base tables
  std::vector<std::string> using_columns;  // columns merged by a USING join to the left of this relation
};

// A column an unqualified * shows, in PostgreSQL's order: one relation's column,
// or a column a USING join merged (its sources, shown as COALESCE of them).
struct StarColumn {
  std::string name;
  std::vector<std::pair<std::size_t, std::string>> sources;  // (index in Scope::relations, column)
};

// One query level's FROM scope, chained to the enclosing query's for
// correlated references.
struct Scope {
  const Scope* parent = nullptr;
  std::vector<Relation> relations;
  std::vector<StarColumn> star;  // what an unqualified * expands to
};

struct CteBinding {
  std::string name;
  std::vector<std::string> columns;
  std::vector<Lineage> lineage;
  std::vector<std::string> ambiguous;
  std::vector<const catalog::Column*> timestamps;  // as in Relation
  std::vector<SizeBound> bounds;
  bool generated_rows = false;
  std::vector<bool> literal_text;                            // as in Relation
  std::vector<Reads> reads;                                  // as in Relation
  std::vector<std::optional<pgtime::Kind>> time_kinds = {};  // as in Relation
  std::vector<ValueType> types = {};                         // as in Relation
  std::vector<Reads> plain = {};                             // as in Relation
};

// CTEs visible at a point, innermost last; chained to the enclosing WITH.
struct CteEnv {
  const CteEnv* parent = nullptr;
  std::vector<CteBinding> ctes;
};

}  // namespace qg::admit::detail
