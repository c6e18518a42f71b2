#pragma once
// What admission may know about a database: the allowlisted tables with their
// physical columns (read from the engine by introspection) overlaid with the
// curation from config. Built once at start-up by the executor; immutable after.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admission/ast/ast.hpp"
#include "common/dialect.hpp"
#include "config/config.hpp"

namespace qg::catalog {

struct Column {
  std::string name;  // as the engine spells it
  std::string type;  // declared type as the engine reports it ("INTEGER", "text", ...)
  bool not_null = false;
  bool primary_key = false;
  // Curation from config (empty when nobody curated the column).
  bool curated = false;
  std::string comment;
  std::string unit;
  bool untrusted = false;
  // A comment stored in the database itself (PostgreSQL COMMENT ON). Whoever can
  // comment on the table wrote it, so it is shown marked untrusted, never as curation.
  std::string engine_comment;
  // Timestamp columns (curated, or a temporal declared type): literals compared
  // with them are checked and, when the column stores text, normalised to the
  // stored format learnt from `timestamp_sample`.
  bool timestamp = false;
  std::string timestamp_sample;  // one stored value, when the engine stores text
  // SQLite: the column stores its times in more than one text form ('...:00Z' beside '...:00.5Z'), all ISO-8601:
  // admission reads each value as a time (executors/sqlite/sqlite_catalog.cpp read_forms), never its text.
  bool timestamp_mixed = false;
  // SQLite: the column holds numbers beside texts (a CSV import's '' in a NUMERIC column, epoch seconds beside ISO
  // texts): served as TEXT, and every reference reads CAST(x AS TEXT), so that comparisons, order, grouping and min /
  // max follow the texts as PostgreSQL's text column would (SQLite orders every number before every text;
  // executors/sqlite/sqlite_catalog.cpp, admission/admit/admit_expr.cpp).
  bool stored_mixed = false;
  // SQLite: declared otherwise (a number, a boolean, a time), it holds texts: served as TEXT and typed text though
  // nobody curated it (an uncurated TEXT column is typed loosely: Spider's keep numbers in TEXT columns).
  bool held_text = false;
  // It holds JSON documents: jsonb/json on PostgreSQL, a SQLite text column
  // whose stored texts are JSON objects or arrays (types at admission, issue #12).
  bool json = false;
  // Hidden for everybody (config `hidden: true`): see visible() below.
  bool hidden = false;
  // Companions (config `requires`): a statement whose output reads this column
  // must also return each of these columns of the same table.
  std::vector<std::string> companions;
  int float_digits = -1;  // significant digits for values computed only from it; -1: limits.float_digits
};

// A column computed from the physical ones (config: virtual_columns). Its
// expression, parsed and admitted at start-up, is substituted wherever a
// statement names the column.
struct VirtualColumn {
  std::string name;
  std::string expression_text;  // as configured for this dialect
  std::shared_ptr<const ast::Expr> expression;
  std::string comment;
  std::string unit;
  bool untrusted = false;
};

// A table's row filter (admission/rewrite/row_filters.hpp).
struct RowFilter {
  std::string text;  // as configured
  std::string note;  // shown in GET /v1/schema
  // Admitted at start-up; attached to every reference of the table. Null only
  // while start-up admits it.
  std::shared_ptr<const ast::Expr> predicate;
  // Its parameters, "bind:<name>", bound from the calling key's `bind`.
  std::vector<std::string> binds;
  // The tables it reads, its own first: a CTE may not take one of these names
  // (it would capture the filter's reference inside the printed subquery).
  std::vector<std::string> reads;
};

struct Table {
  std::string name;  // as the engine spells it
  std::string comment;
  std::string engine_comment;   // COMMENT ON TABLE (untrusted), see Column::engine_comment
  std::vector<Column> columns;  // physical order
  std::vector<VirtualColumn> virtual_columns;
  std::optional<long long> row_estimate;
  std::vector<std::string> indexes;  // each index as the engine spells its definition (for the schema's full detail)
  std::optional<RowFilter> row_filter;

  // Identifier matching follows the dialect (see Catalog::same_name).
  // These find hidden columns too: only admission's scopes and the schema text
  // decide what a caller sees (visible() below).
  const Column* find_column(std::string_view name, Dialect dialect) const;
  const VirtualColumn* find_virtual(std::string_view name, Dialect dialect) const;
};

struct Catalog {
  Dialect dialect = Dialect::Sqlite;
  // The one schema whose tables these are (PostgreSQL's configured schema,
  // SQLite's "main"): `schema.table` is admitted for it. Empty: never.
  std::string schema;
  // SQLite: the PostgreSQL schema these tables answer to as well (config `schema`, default public):
  // `public.t` is admitted and printed as `main.t`. Empty: none.
  std::string schema_alias;
  std::vector<Table> tables;  // only allowlisted tables

  const Table* find_table(std::string_view name) const;
  // SQLite matches identifiers case-insensitively (ASCII); PostgreSQL has already
  // folded unquoted names in the parser, so it compares exactly.
  static bool same_name(std::string_view a, std::string_view b, Dialect dialect);
};

// What one caller sees: not a column hidden for everybody (Column::hidden), nor
// one its API key hides (`key`, nullptr for none). Virtual columns are hidden
// only by a key that names them.
bool visible(const Table& table, const Column& column, const config::HiddenColumns* key, Dialect dialect);
bool visible(const Table& table, const VirtualColumn& column, const config::HiddenColumns* key, Dialect dialect);
bool hidden_by_key(const config::HiddenColumns* key, std::string_view table, std::string_view column, Dialect dialect);

// Close matches for "did you mean" suggestions: up to `max` candidates, best first,
// by edit distance (case-insensitive), only those plausibly meant.
std::vector<std::string> closest_names(std::string_view wanted, const std::vector<std::string>& candidates,
                                       std::size_t max = 3);
// Typos only (at most two edits, no containment): for names whose near neighbours
// mean something else (functions: time is not timezone).
std::vector<std::string> closest_spellings(std::string_view wanted, const std::vector<std::string>& candidates,
                                           std::size_t max = 3);

}  // namespace qg::catalog
