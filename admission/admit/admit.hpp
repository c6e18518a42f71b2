#pragma once
// Admission: decides whether a converted statement may run on a backend, and
// resolves every name in its scope. It walks every node (select list, FROM,
// WHERE, GROUP BY, HAVING, windows, ORDER BY, subqueries, CTEs, set-operation
// branches) — a check that skips a position is how past gateways were bypassed.
// Star expansion happens here because only the resolver knows each relation's
// columns; each rewrite that fires is reported.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "admission/ast/ast.hpp"
#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "config/config.hpp"

namespace qg::admit {

// A conservative bound on the length of a value, in bytes (size_bound.cpp):
// at most k + g * V, V being the longest stored value the statement reads (for
// an aggregate: the bytes of all the rows it reads, each counted as at least
// one); `in` is the bytes of literal text and fixed-size values it starts from.
// `aggregated`: the value is (or holds) a text aggregate's result, whose length
// grows with the number of rows read (V is then the bytes of all those rows):
// no function may lengthen it further in one call (size_bound.cpp).
struct SizeBound {
  double k = 0;
  double g = 0;
  double in = 0;
  bool aggregated = false;
};

// A named parameter that configured SQL may use (admission/params/params.hpp).
struct ParamSpec {
  std::string name;
  // Lineage: the value is end-user text (a write tool's `untrusted: true`
  // argument); otherwise it is trusted like a literal the operator wrote.
  bool untrusted = false;
  // Size bounds count the value as a literal of this many bytes: whoever binds
  // it must refuse a longer value.
  std::int64_t max_bytes = 256;
};

struct OutputColumn {
  std::string name;
  // The value can carry text from a column declared untrusted (end-user text),
  // through any expression, function, subquery, CTE or set-operation branch.
  bool untrusted = false;
  SizeBound size;  // how long its values can be
  // Significant digits for its floats when every stored column it reads sets the
  // same float_digits (config); -1: limits.float_digits.
  int float_digits = -1;
  // PostgreSQL types the value boolean (a comparison, IS [NOT] NULL, EXISTS,
  // IN, LIKE, AND/OR/NOT, a boolean literal or cast), so an engine without a
  // boolean type (SQLite's 0/1) answers it as a boolean (issue #12).
  bool boolean = false;
  // The value is a stored timestamp column's (the column itself, min/max of it,
  // COALESCE/CASE of such): answered as PostgreSQL prints timestamps.
  bool timestamp = false;
  // That stored column's sample text (catalog::Column::timestamp_sample): how the engine stores it, for an answer
  // with no value to tell by (max(start_time) of no row is still a timestamp with time zone).
  std::string timestamp_sample;
  // PostgreSQL types the value numeric (round(x, n), EXTRACT, sum/avg of integers, numeric casts and
  // literals): an engine that computes it as a double (SQLite) answers it as PostgreSQL prints that
  // numeric, with `numeric_scale` digits after the point when PostgreSQL fixes them (-1: the double's
  // shortest exact text), never rounded to float_digits (issue #12).
  bool numeric = false;
  int numeric_scale = -1;
  // PostgreSQL types the value jsonb (a JSON column passed on, x -> 'k'): an engine that stores JSON as text
  // (SQLite) answers it in jsonb's output form (keys shorter first, then bytewise; '{"a": 1}').
  bool json = false;
  // PostgreSQL types the value an array (array_agg, regexp_match) whose elements are what the fields above say
  // (boolean, numeric, json, ...): an engine without arrays (SQLite: a JSON array text, executors/sqlite/
  // sqlite_arrays.hpp) answers it as the JSON array of its elements, each in the answer format of that type,
  // as the PostgreSQL executor answers an array (docs/FIDELITY.md). `type` then names the array type ("text[]").
  bool array = false;
  // PostgreSQL's name of the value's type where admission knows it ("integer", "bigint", "numeric", "text",
  // "double precision", "boolean", "jsonb"; empty: not known, times included): an engine that types its
  // answer by storage class (SQLite: every integer a 64-bit one) names the column so.
  std::string type;
};

// A time window the outermost WHERE puts on a timestamp column of a table
// (`start_time >= now() - INTERVAL '30 days'`, `start_time BETWEEN a AND b`):
// the bounds as the caller wrote them (PostgreSQL text, nothing of the row
// read), so the gateway can say when the window reaches past the data.
struct TimeWindow {
  std::string table;         // the catalog's name of the base table
  std::string column;        // its timestamp column
  std::string lower;         // the lower bound's SQL; empty: none
  std::string upper;         // the upper bound's SQL; empty: none
  bool reads_clock = false;  // a bound reads the clock: an open upper end means "until now"
};

struct Admission {
  std::vector<OutputColumn> columns;  // the statement's output columns, in order
  std::vector<TimeWindow> windows;    // at most one per timestamp column
  std::vector<std::string> rewrites;  // names of rewrites that fired ("star-expansion", ...)
  std::vector<std::string> notes;     // facts the caller should know about how it ran
  // The outermost query's first base table and the name the statement gives it,
  // so a truncation notice can name real columns to filter and page on.
  std::string main_table;
  std::string main_table_alias;
};

// Whether PostgreSQL types the expression boolean, judged from its outermost
// node (a comparison, IS [NOT] NULL, EXISTS, IN, LIKE, AND/OR/NOT, a boolean
// literal or cast); false when that cannot be told.
bool boolean_valued(const ast::Expr& e);

// PostgreSQL's name of a catalog column's type, as admission reads it: on PostgreSQL its declared type; on
// SQLite the type its declaration (by affinity), `timestamp: true` and JSON columns give it ("integer",
// "text", "double precision", "numeric(10,2)", "timestamp with time zone", "jsonb"). GET /v1/schema shows it.
std::string postgres_type_name(const catalog::Column& c, Dialect d);

// Checks `query` against the capability table and the catalog, rewriting it in
// place where a construct has one obvious meaning. `sql` is the caller's text,
// used only to tell how a name was spelled (quoted or not) in refusals.
// An expression whose value can grow more than `max_expression_growth` times
// (limits.max_expression_growth) is refused with limit:expression-size.
// `hidden`: the calling key's hidden columns (config keys[i].hidden_columns), on
// top of the columns hidden for everybody; they are refused like unknown ones.
// A statement whose output reads a column with companions (config `requires`)
// must return each companion in the same row (validation:companion-column).
// `params`: the parameters configured SQL may use (an ast::Param naming any
// other, or any ast::Param at all when null, is refused: caller SQL has none).
Result<Admission> admit(ast::Query& query, const catalog::Catalog& catalog, std::string_view sql,
                        int max_expression_growth = config::Limits{}.max_expression_growth,
                        const config::HiddenColumns* hidden = nullptr, const std::vector<ParamSpec>* params = nullptr);

}  // namespace qg::admit
