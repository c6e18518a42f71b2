#include "executors/sqlite/sqlite_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "admission/rewrite/time_literals.hpp"
#include "executors/executor_errors.hpp"
#include "executors/sqlite/sqlite_handle.hpp"

namespace qg::exec::sqlite {

namespace {

struct SchemaEntry {
  std::string name;
  bool is_virtual = false;
};

std::string text_at(sqlite3_stmt* stmt, int col) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, col))) : std::string();
}

Error engine_error(sqlite3* db, const config::Database& config, const std::string& doing) {
  return make_error(
      ErrorCode::BackendUnavailable,
      "reading the schema of database '" + config.name + "' failed while " + doing + ": SQLite: " + sqlite3_errmsg(db),
      "FIX: check that the file is a readable, intact SQLite database");
}

// Runs `sql` with `arg` bound to ?1 (when given) and calls `row` per result row.
template <typename RowFn>
bool query(sqlite3* db, const char* sql, const std::string* arg, RowFn&& row) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &raw, nullptr) != SQLITE_OK) return false;
  StmtHandle stmt(raw);
  if (arg && sqlite3_bind_text(raw, 1, arg->data(), static_cast<int>(arg->size()), SQLITE_TRANSIENT) != SQLITE_OK)
    return false;
  int rc;
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW) row(raw);
  return rc == SQLITE_DONE;
}

// Tables and views as the engine spells them (internal sqlite_* tables left out).
bool read_schema(sqlite3* db, std::vector<SchemaEntry>& out) {
  return query(db,
               "SELECT name, coalesce(sql, '') LIKE 'CREATE VIRTUAL TABLE%' FROM sqlite_schema "
               "WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
               nullptr, [&](sqlite3_stmt* s) {
                 out.push_back({text_at(s, 0), sqlite3_column_int(s, 1) != 0});
               });
}

// table_xinfo rather than table_info: generated columns are real, selectable
// columns; only the hidden columns of virtual tables (hidden = 1) are left out.
bool read_columns(sqlite3* db, const std::string& table, std::vector<catalog::Column>& out) {
  return query(db, "SELECT name, type, \"notnull\", pk FROM pragma_table_xinfo(?1) WHERE hidden <> 1", &table,
               [&](sqlite3_stmt* s) {
                 catalog::Column c;
                 c.name = text_at(s, 0);
                 c.type = text_at(s, 1);
                 c.not_null = sqlite3_column_int(s, 2) != 0;
                 c.primary_key = sqlite3_column_int(s, 3) != 0;
                 out.push_back(std::move(c));
               });
}

// ANALYZE leaves "rows [rows-per-key...]" in sqlite_stat1; the first number is
// the table's row count. Absent statistics are "unknown", not zero.
bool read_row_estimate(sqlite3* db, const std::string& table, std::optional<long long>& out) {
  return query(db, "SELECT stat FROM sqlite_stat1 WHERE tbl = ?1 COLLATE NOCASE AND stat IS NOT NULL LIMIT 1", &table,
               [&](sqlite3_stmt* s) {
                 const std::string stat = text_at(s, 0);
                 char* end = nullptr;
                 const long long n = std::strtoll(stat.c_str(), &end, 10);
                 if (end != stat.c_str() && n >= 0) out = n;
               });
}

// SQLite has no timestamp type; a declared DATE/TIME/TIMESTAMP/DATETIME says what the text holds.
bool temporal_type(const std::string& declared) {
  std::string upper;
  for (char c : declared) upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  return upper.find("DATE") != std::string::npos || upper.find("TIME") != std::string::npos;
}

// A name as a quoted SQLite identifier ("a""b").
std::string quote(const std::string& name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// One stored text value of a timestamp column: the format literals are normalised to.
bool read_sample(sqlite3* db, const std::string& table, const std::string& column, std::string& out) {
  const std::string sql =
      "SELECT " + quote(column) + " FROM " + quote(table) + " WHERE typeof(" + quote(column) + ") = 'text' LIMIT 1";
  return query(db, sql.c_str(), nullptr, [&](sqlite3_stmt* s) { out = text_at(s, 0); });
}

// The ISO-8601 reading of a stored time text, also of the forms PostgreSQL reads beside it: a blank before the UTC
// offset ('2024-01-01 10:00:00 +00:00') and an offset without its colon (Ruby's '... +0000').
std::optional<rewrite::IsoTime> stored_time(std::string_view text) {
  if (auto t = rewrite::parse_iso_time(text)) return t;
  std::string v(text);
  const auto sign = v.find_last_of("+-");
  if (sign == std::string::npos || sign < 10) return std::nullopt;
  std::string offset = v.substr(sign);
  if (offset.size() == 5 && std::all_of(offset.begin() + 1, offset.end(), [](char c) { return c >= '0' && c <= '9'; }))
    offset.insert(3, ":");
  std::string time = v.substr(0, sign);
  if (!time.empty() && time.back() == ' ') time.pop_back();
  return rewrite::parse_iso_time(time + offset);
}

// The form of a stored time text: each digit 9, every other character itself, and the UTC offset as written
// ('+02:00' is another form than '+00:00': the texts of two offsets do not sort as the times).
std::string form_of(std::string_view value, bool has_offset) {
  std::size_t offset_at = value.size();
  if (has_offset) offset_at = std::min(value.size(), value.find_last_of("+-Z"));
  std::string form(value);
  for (std::size_t i = 0; i < offset_at; ++i)
    if (form[i] >= '0' && form[i] <= '9') form[i] = '9';
  return form;
}

// Whether a timestamp column stores its times in more than one text form, with a UTC offset other than zero, or in
// a form PostgreSQL reads that is not plain ISO-8601 (Python's isoformat() writes '...:00+00:00' beside
// '...:00.500000+00:00'; a CSV import mixes dates with date-times; astimezone() writes local offsets, '+02:00' or
// '-05:00' by the row; Ruby writes '... +0000'): such a column is compared, ordered and grouped as texts, which
// follow time only within one form ('...01:00:00Z' sorted after '...01:00:00.5Z'; a literal in the sample's form
// missed the rows of the other; outside testers s18b, s19a, s19b, s19e). One pass over the column's texts: each new
// form is read; when every one is a time, `mixed` is set and `sample` becomes a value of the widest kind (with an
// offset, else with a time of day), which admission reads every value as (pg_time_key per value). A column holding
// a text that is not a time is no time column: `times` is cleared and `sample` holds that text.
bool read_forms(sqlite3* db, const std::string& table, const std::string& column, std::string& sample, bool& mixed,
                bool& times) {
  mixed = false;
  times = sample.empty() || stored_time(sample).has_value();
  if (!times) return true;
  const std::string c = quote(column);
  const std::string sql = "SELECT " + c + " FROM " + quote(table) + " WHERE typeof(" + c + ") = 'text'";
  std::unordered_set<std::string> forms;
  bool offsets = false, plain = true;
  int widest = -1;
  if (!query(db, sql.c_str(), nullptr, [&](sqlite3_stmt* s) {
        if (!times) return;
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        const std::string_view v(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(s, 0)));
        const auto iso = rewrite::parse_iso_time(v);
        const auto t = iso ? iso : stored_time(v);
        if (!t || forms.size() > 4096) {
          times = false;
          sample = std::string(v);
          return;
        }
        if (!forms.insert(form_of(v, t->offset_minutes.has_value())).second) return;
        plain = plain && iso.has_value();
        offsets = offsets || t->offset_minutes.value_or(0) != 0;
        widest = std::max(widest, t->offset_minutes ? 2 : t->has_time ? 1 : 0);
      }))
    return false;
  if (!times) return true;  // not a time column after all
  mixed = forms.size() > 1 || offsets || !plain;
  if (mixed)  // the widest kind's sample (stored_kind reads the kind from it)
    sample = widest == 2 ? "2000-01-01T00:00:00+00:00" : widest == 1 ? "2000-01-01 00:00:00" : "2000-01-01";
  return true;
}

// A text column whose first stored texts (up to 20) are all JSON objects or
// arrays holds JSON documents (PostgreSQL's jsonb in the same schema): length(),
// LIKE or arithmetic on it are PostgreSQL's type errors, refused at admission.
bool read_json(sqlite3* db, const std::string& table, const std::string& column, bool& out) {
  const std::string sql =
      "SELECT count(*), coalesce(sum(json_valid(c) AND substr(c, 1, 1) IN ('{', '[')), 0) FROM "
      "(SELECT " +
      quote(column) + " AS c FROM " + quote(table) + " WHERE typeof(" + quote(column) + ") = 'text' LIMIT 20)";
  return query(db, sql.c_str(), nullptr, [&](sqlite3_stmt* s) {
    const auto n = sqlite3_column_int64(s, 0);
    out = n > 0 && sqlite3_column_int64(s, 1) == n;
  });
}

// What a column holds against what it is declared (CSV and pandas imports; outside testers s20a, s21a). One pass over
// the table for all its columns that are no time or JSON column:
// - declared a number or a boolean, holding a text ('' in an empty CSV cell, 'N/A', 'true'): PostgreSQL could not
//   hold it there. Typed a number, SQLite counted '' in count(x) and summed it as 0; typed a boolean, 'true' read as
//   false (WHERE flag kept 14 rows of 57). Served as TEXT: its sums, comparisons with numbers and uses as a condition
//   are then PostgreSQL's errors, with their FIXes.
// - declared an integer, holding a fraction (3.5 from a CSV): served as REAL (typed an integer, n / 2 divided some
//   rows as integers and labelled 1.75 an integer).
// - served as TEXT while holding numbers beside the texts, or texts under a declared number / boolean / date type
//   (whose affinity reads '2024' as a number against them): `stored_mixed`, read as CAST(x AS TEXT) (catalog.hpp).
bool serve_stored_values(sqlite3* db, catalog::Table& table) {
  std::vector<catalog::Column*> columns;
  for (auto& c : table.columns)
    if (!c.timestamp && !c.json) columns.push_back(&c);
  if (columns.empty()) return true;
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string c = quote(columns[i]->name);
    sql += (i ? ", " : "") + std::string("max(typeof(") + c + ") = 'text'), max(typeof(" + c +
           ") IN ('integer', 'real')), max(typeof(" + c + ") = 'real')";
  }
  sql += " FROM " + quote(table.name);
  std::vector<int> seen(columns.size() * 3, 0);
  if (!query(db, sql.c_str(), nullptr, [&](sqlite3_stmt* s) {
        for (std::size_t i = 0; i < seen.size(); ++i) seen[i] = sqlite3_column_int(s, static_cast<int>(i));
      }))
    return false;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    catalog::Column& c = *columns[i];
    const bool texts = seen[3 * i] == 1, numbers = seen[3 * i + 1] == 1, reals = seen[3 * i + 2] == 1;
    const auto upper = [](std::string v) {
      for (auto& ch : v) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      return v;
    };
    const std::string t = upper(c.type);
    const bool boolean = t.find("BOOL") != std::string::npos;
    const bool number = !boolean && (t.find("INT") != std::string::npos || t.find("REAL") != std::string::npos ||
                                     t.find("FLOA") != std::string::npos || t.find("DOUB") != std::string::npos ||
                                     t.find("NUMERIC") != std::string::npos || t.find("DECIMAL") != std::string::npos);
    if (texts && (number || boolean)) {
      if (c.curated)  // not the value itself: the data's text is no curation
        c.comment += std::string(c.comment.empty() ? "" : " ") + "(declared " + c.type + ", but it holds texts" +
                     (numbers ? " as well as numbers" : "") + ": served as text)";
      c.type = "TEXT";
      c.held_text = true;
      c.stored_mixed = true;  // its declared affinity reads '2024' as a number against it: read as its texts
    } else if (reals && t.find("INT") != std::string::npos) {
      if (c.curated)
        c.comment += std::string(c.comment.empty() ? "" : " ") + "(declared " + c.type +
                     ", but it holds fractions: served as double precision)";
      c.type = "REAL";
    }
    // Texts beside numbers in a column served as text (or of no declared type): read as its texts.
    if (texts && numbers && (upper(c.type) == "TEXT" || c.type.empty())) {
      c.stored_mixed = true;
      c.held_text = true;
      c.type = "TEXT";
    }
  }
  return true;
}

}  // namespace

Result<catalog::Catalog> introspect(sqlite3* db, const config::Database& config, const std::filesystem::path& path) {
  catalog::Catalog result;
  result.dialect = Dialect::Sqlite;
  result.schema = "main";
  if (!catalog::Catalog::same_name(config.schema, "main", Dialect::Sqlite)) result.schema_alias = config.schema;

  std::vector<SchemaEntry> schema;
  if (!read_schema(db, schema)) return engine_error(db, config, "listing its tables");
  bool has_stats = false;
  if (!query(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'", nullptr,
             [&](sqlite3_stmt*) { has_stats = true; }))
    return engine_error(db, config, "looking for sqlite_stat1");
  std::vector<std::string> existing;
  for (const auto& e : schema) existing.push_back(e.name);

  for (const auto& curation : config.tables) {
    const SchemaEntry* entry = nullptr;
    for (const auto& e : schema)
      if (catalog::Catalog::same_name(e.name, curation.name, Dialect::Sqlite)) entry = &e;
    if (entry == nullptr)
      return make_error(
          ErrorCode::BackendUnavailable,
          "allowlisted table '" + curation.name + "' of database '" + config.name + "' does not exist in '" +
              path.string() + "'" + name_suggestion(curation.name, existing),
          "FIX: correct the name under databases." + config.name + ".tables in the configuration, or create the table");

    if (entry->is_virtual)
      return make_error(ErrorCode::BackendUnavailable,
                        "allowlisted table '" + entry->name + "' of database '" + config.name +
                            "' is a virtual table (FTS, R*Tree, ...), which querygate cannot run under "
                            "SQLite's authorizer",
                        "FIX: remove '" + curation.name + "' from databases." + config.name +
                            ".tables, or copy its rows into an ordinary table and allowlist that");
    catalog::Table table;
    table.name = entry->name;
    table.comment = curation.comment;
    if (!read_columns(db, table.name, table.columns))
      return engine_error(db, config, "reading the columns of table '" + table.name + "'");
    if (!query(db,
               "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL ORDER BY name",
               &table.name, [&](sqlite3_stmt* s) { table.indexes.push_back(text_at(s, 0)); }))
      return engine_error(db, config, "reading the indexes of table '" + table.name + "'");
    if (has_stats && !read_row_estimate(db, table.name, table.row_estimate))
      return engine_error(db, config, "reading sqlite_stat1 for table '" + table.name + "'");

    for (const auto& [column_name, column_curation] : curation.columns) {
      catalog::Column* column = nullptr;
      for (auto& c : table.columns)
        if (catalog::Catalog::same_name(c.name, column_name, Dialect::Sqlite)) column = &c;
      if (column == nullptr) {
        std::vector<std::string> names;
        for (const auto& c : table.columns) names.push_back(c.name);
        return make_error(ErrorCode::BackendUnavailable,
                          "curated column '" + column_name + "' does not exist in table '" + table.name +
                              "' of database '" + config.name + "'" + name_suggestion(column_name, names),
                          "FIX: correct databases." + config.name + ".tables." + curation.name + ".columns." +
                              column_name + " in the configuration");
      }
      column->curated = true;
      column->comment = column_curation.comment;
      column->unit = column_curation.unit;
      column->hidden = column_curation.hidden;
      column->companions = column_curation.companions;
      column->float_digits = column_curation.float_digits;
      column->untrusted = column_curation.untrusted;
      column->timestamp = column_curation.timestamp;
    }
    for (auto& column : table.columns) {
      std::string declared = column.type;
      for (auto& ch : declared) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (!column.timestamp && !temporal_type(column.type) &&
          (declared.find("JSON") != std::string::npos || declared.find("TEXT") != std::string::npos))
        if (!read_json(db, table.name, column.name, column.json))
          return engine_error(db, config, "reading values of " + table.name + "." + column.name);
      if (!column.timestamp && !temporal_type(column.type)) continue;
      const bool configured = column.timestamp;
      // Numbers (seconds since 1970, Julian days): no time as PostgreSQL reads one, and no stored text to read as
      // one: the column is its numbers (typed a time, its integers were answered as text and compared with time
      // literals as texts; outside tester s20e). to_timestamp(x) makes them times.
      bool integers = false, reals = false;
      const std::string c = quote(column.name);
      const std::string numbers_sql =
          "SELECT max(typeof(" + c + ") = 'integer'), max(typeof(" + c + ") = 'real') FROM " + quote(table.name);
      if (!query(db, numbers_sql.c_str(), nullptr, [&](sqlite3_stmt* st) {
            integers = sqlite3_column_int(st, 0) == 1;
            reals = sqlite3_column_int(st, 1) == 1;
          }))
        return engine_error(db, config, "reading the values of " + table.name + "." + column.name);
      if (integers || reals) {
        if (configured)
          column.comment += std::string(column.comment.empty() ? "" : " ") +
                            "(configured as a timestamp, but it holds numbers: served as a number; "
                            "to_timestamp(x) reads seconds since 1970 as a time)";
        column.timestamp = false;
        column.type = reals ? "REAL" : "INTEGER";
        continue;
      }
      column.timestamp = true;
      if (!read_sample(db, table.name, column.name, column.timestamp_sample))
        return engine_error(db, config, "reading a value of " + table.name + "." + column.name);
      bool times = true;
      if (!read_forms(db, table.name, column.name, column.timestamp_sample, column.timestamp_mixed, times))
        return engine_error(db, config, "reading the forms of " + table.name + "." + column.name);
      if (!times) {
        // A text that is no time (PostgreSQL would not have stored it in a timestamp column): the column is text,
        // compared and printed as its texts; every reading as a time would fail on that row (a FIX chain that
        // never ended: upper(s) -> CAST(s AS text) -> to_char -> error; outside tester s19g). A column configured
        // `timestamp: true` says so in its comment.
        if (configured)  // not the value itself: the data's text is no curation
          column.comment += std::string(column.comment.empty() ? "" : " ") +
                            "(configured as a timestamp, but it holds texts that are no time: served as text)";
        column.timestamp = false;
        column.timestamp_sample.clear();
        column.type = "TEXT";  // what it holds, as the schema shows it and admission types it
        column.held_text = true;
        column.stored_mixed = true;  // (DATE's affinity read order_date >= '2024' as a number; outside tester s21d)
      }
    }
    if (!serve_stored_values(db, table))
      return engine_error(db, config, "reading the value types of table '" + table.name + "'");
    result.tables.push_back(std::move(table));
  }
  return result;
}

}  // namespace qg::exec::sqlite
