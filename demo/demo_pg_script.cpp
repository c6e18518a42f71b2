#include "demo/demo_pg_script.hpp"

#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <system_error>
#include <vector>

#include "admission/render/render.hpp"
#include "demo/demo_db.hpp"
#include "executors/sqlite/sqlite_handle.hpp"

namespace qg::exec {
namespace {

namespace fs = std::filesystem;

// SQLite stores these as TEXT; PostgreSQL has a type that says what they hold.
// The timestamps are ISO-8601 with an explicit offset (2026-10-05T14:03:27.512+00:00),
// which timestamptz input reads exactly (milliseconds included); the attributes
// are JSON objects. A listed column missing from the SQLite demo is an error, so
// renaming one there cannot quietly turn a timestamp back into text here.
struct TypedText {
  std::string_view table;
  std::string_view column;
  std::string_view type;
};
constexpr std::array<TypedText, 9> kTypedText{{
    {"projects", "created_at", "timestamptz"},
    {"users", "created_at", "timestamptz"},
    {"api_keys", "created_at", "timestamptz"},
    {"traces", "start_time", "timestamptz"},
    {"traces", "end_time", "timestamptz"},
    {"spans", "start_time", "timestamptz"},
    {"spans", "end_time", "timestamptz"},
    {"spans", "attributes", "jsonb"},
    {"span_annotations", "created_at", "timestamptz"},
}};

struct Column {
  std::string name;
  std::string pg_type;
  bool not_null = false;
  int pk_position = 0;  // 1-based position in the primary key; 0: not part of it
};

struct ForeignKey {
  std::vector<std::string> columns;
  std::string ref_table;
  std::vector<std::string> ref_columns;  // empty: the referenced table's primary key
};

struct Index {
  std::string name;
  bool unique = false;
  std::vector<std::string> columns;
};

struct Table {
  std::string name;
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> unique_constraints;
  std::vector<ForeignKey> foreign_keys;
  std::vector<Index> indexes;  // CREATE INDEX ones (not those behind PRIMARY KEY / UNIQUE)
};

std::string ident(std::string_view name) {
  return render::quote_identifier(name, Dialect::Postgres);
}

// A SQL string literal.
std::string literal(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string ident_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + ident(n);
  return out;
}

std::string text_of(sqlite3_stmt* s, int i) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
  return p == nullptr ? std::string() : std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, i)));
}

// A read-only connection to the SQLite demo; every failure is kept as text.
class Source {
 public:
  explicit Source(const fs::path& path) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) error_ = "cannot open '" + path.string() + "': " + sqlite3_errstr(rc);
  }
  const std::string& error() const { return error_; }
  void fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
  }

  // Runs `sql` with text parameters and calls `row` for each result row.
  void each(const std::string& sql, const std::vector<std::string>& params,
            const std::function<void(sqlite3_stmt*)>& row) {
    if (!error_.empty()) return;
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &raw, nullptr) != SQLITE_OK)
      return fail(sql + ": " + sqlite3_errmsg(db_.get()));
    sqlite::StmtHandle stmt(raw);
    for (std::size_t i = 0; i < params.size(); ++i)
      sqlite3_bind_text(raw, static_cast<int>(i + 1), params[i].c_str(), -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
      row(raw);
      if (!error_.empty()) return;
    }
    if (rc != SQLITE_DONE) fail(sql + ": " + sqlite3_errmsg(db_.get()));
  }

 private:
  sqlite::DbHandle db_;
  std::string error_;
};

std::optional<std::string> pg_type_of(const std::string& table, const std::string& column,
                                      const std::string& sqlite_type) {
  for (const auto& t : kTypedText)
    if (t.table == table && t.column == column)
      return sqlite_type == "TEXT" ? std::optional(std::string(t.type)) : std::nullopt;
  // A SQLite INTEGER column is PostgreSQL's integer as admission reads it (admission/admit/value_types.cpp,
  // column_type; GET /v1/schema names it so): sum(id) is bigint and sum(id) / count(*) divides whole numbers
  // on both backends, as one statement must answer the same on either. REAL is an IEEE double.
  if (sqlite_type == "INTEGER") return "integer";
  if (sqlite_type == "REAL") return "double precision";
  if (sqlite_type == "TEXT") return "text";
  return std::nullopt;
}

std::vector<std::string> index_columns(Source& src, const std::string& index) {
  std::vector<std::string> out;
  src.each("SELECT cid, name FROM pragma_index_info(?1) ORDER BY seqno", {index}, [&](sqlite3_stmt* s) {
    if (sqlite3_column_int(s, 0) < 0) return src.fail("index " + index + " is on an expression");
    out.push_back(text_of(s, 1));
  });
  return out;
}

Table read_table(Source& src, const std::string& name) {
  Table t;
  t.name = name;
  src.each("SELECT name, upper(type), \"notnull\", pk FROM pragma_table_info(?1) ORDER BY cid", {name},
           [&](sqlite3_stmt* s) {
             Column c;
             c.name = text_of(s, 0);
             const std::string type = text_of(s, 1);
             auto pg = pg_type_of(name, c.name, type);
             if (!pg)
               return src.fail("column " + name + "." + c.name + " has type '" + type + "', which has no mapping");
             c.pg_type = *pg;
             c.not_null = sqlite3_column_int(s, 2) != 0;
             c.pk_position = sqlite3_column_int(s, 3);
             t.columns.push_back(std::move(c));
           });
  src.each("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1) ORDER BY name", {name},
           [&](sqlite3_stmt* s) {
             const std::string index = text_of(s, 0);
             const std::string origin = text_of(s, 2);
             if (sqlite3_column_int(s, 3) != 0) return src.fail("index " + index + " is partial");
             if (origin == "pk") return;  // written as PRIMARY KEY
             auto columns = index_columns(src, index);
             if (origin == "u")
               t.unique_constraints.push_back(std::move(columns));
             else
               t.indexes.push_back({index, sqlite3_column_int(s, 1) != 0, std::move(columns)});
           });
  std::map<int, ForeignKey> keys;  // by SQLite's constraint id, in id order
  src.each("SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?1) ORDER BY id, seq", {name},
           [&](sqlite3_stmt* s) {
             ForeignKey& k = keys[sqlite3_column_int(s, 0)];
             k.ref_table = text_of(s, 1);
             k.columns.push_back(text_of(s, 2));
             if (sqlite3_column_type(s, 3) != SQLITE_NULL) k.ref_columns.push_back(text_of(s, 3));
           });
  for (auto& [id, key] : keys) t.foreign_keys.push_back(std::move(key));
  return t;
}

std::vector<Table> read_schema(Source& src) {
  std::vector<Table> tables;
  std::vector<std::string> names;
  // Creation order, so the script reads like the SQLite schema.
  src.each(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
      "ORDER BY rowid",
      {}, [&](sqlite3_stmt* s) { names.push_back(text_of(s, 0)); });
  for (const auto& n : names) tables.push_back(read_table(src, n));
  src.each("SELECT count(*) FROM sqlite_master WHERE type IN ('view', 'trigger')", {}, [&](sqlite3_stmt* s) {
    if (sqlite3_column_int(s, 0) != 0) src.fail("the demo has views or triggers, which this converter does not carry");
  });
  for (const auto& t : kTypedText) {
    bool found = false;
    for (const auto& table : tables)
      if (table.name == t.table)
        for (const auto& c : table.columns) found = found || c.name == t.column;
    if (!found) src.fail("the demo has no column " + std::string(t.table) + "." + std::string(t.column));
  }
  return tables;
}

// SQLite's INTEGER PRIMARY KEY is the rowid: a row inserted without it gets
// the next id from the engine. PostgreSQL's equivalent is an identity column
// (restarted after the rows are copied in), so the write tools' INSERTs leave
// the id to the database on both backends.
bool rowid_alias(const Table& t) {
  int in_key = 0;
  bool integer = false;
  for (const auto& c : t.columns)
    if (c.pk_position > 0) {
      ++in_key;
      integer = c.pg_type == "integer";  // only INTEGER maps to integer
    }
  return in_key == 1 && integer;
}

void write_create_table(const Table& t, std::ostream& out) {
  out << "CREATE TABLE " << ident(t.name) << " (\n";
  std::vector<std::string> pk;
  for (int position = 1;; ++position) {
    const auto before = pk.size();
    for (const auto& c : t.columns)
      if (c.pk_position == position) pk.push_back(c.name);
    if (pk.size() == before) break;
  }
  std::vector<std::string> lines;
  for (const auto& c : t.columns) {
    std::string line = "  " + ident(c.name) + " " + c.pg_type;
    if (pk.size() == 1 && pk.front() == c.name && rowid_alias(t))
      line += " GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY";  // ids come from the database, as in SQLite
    else if (pk.size() == 1 && pk.front() == c.name)
      line += " PRIMARY KEY";
    else if (c.not_null)
      line += " NOT NULL";
    lines.push_back(std::move(line));
  }
  if (pk.size() > 1) lines.push_back("  PRIMARY KEY (" + ident_list(pk) + ")");
  for (const auto& u : t.unique_constraints) lines.push_back("  UNIQUE (" + ident_list(u) + ")");
  for (std::size_t i = 0; i < lines.size(); ++i) out << lines[i] << (i + 1 < lines.size() ? ",\n" : "\n");
  out << ");\n\n";
}

// The rows in primary-key order: the same script, byte for byte, from the same demo.
void write_copy(Source& src, const Table& t, std::ostream& out, std::int64_t& rows) {
  std::vector<std::string> names;
  for (const auto& c : t.columns) names.push_back(c.name);
  out << "COPY " << ident(t.name) << " (" << ident_list(names) << ") FROM stdin;\n";
  std::string select;
  for (const auto& n : names) select += (select.empty() ? "" : ", ") + render::quote_identifier(n, Dialect::Sqlite);
  std::string line;
  src.each("SELECT " + select + " FROM " + render::quote_identifier(t.name, Dialect::Sqlite) + " ORDER BY rowid", {},
           [&](sqlite3_stmt* s) {
             line.clear();
             for (int i = 0; i < static_cast<int>(names.size()); ++i) {
               if (i > 0) line += '\t';
               switch (sqlite3_column_type(s, i)) {
                 case SQLITE_NULL:
                   line += "\\N";
                   break;
                 case SQLITE_INTEGER:
                   line += std::to_string(sqlite3_column_int64(s, i));
                   break;
                 case SQLITE_FLOAT: {
                   // The shortest text that reads back as the same double.
                   std::array<char, 32> buf{};
                   auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), sqlite3_column_double(s, i));
                   line.append(buf.data(), end);
                   break;
                 }
                 case SQLITE_TEXT: {
                   const std::string value = text_of(s, i);
                   if (value.find('\0') != std::string::npos)
                     return src.fail(t.name + "." + names[static_cast<std::size_t>(i)] +
                                     " holds a NUL character, which PostgreSQL text cannot");
                   line += copy_text_field(value);
                   break;
                 }
                 default:
                   return src.fail(t.name + "." + names[static_cast<std::size_t>(i)] +
                                   " holds a BLOB, which this converter does not carry");
               }
             }
             line += '\n';
             out << line;
             ++rows;
           });
  out << "\\.\n\n";
}

// Removed on every path out of create_demo_pg_script.
struct TempDir {
  fs::path path;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

Error failure(const std::string& what) {
  return make_error(ErrorCode::BackendError, "cannot write the PostgreSQL demo script: " + what,
                    "choose a path in an existing, writable folder");
}

}  // namespace

std::string copy_text_field(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Status write_demo_pg_script(const fs::path& sqlite_demo, std::ostream& out) {
  if (!fs::exists(sqlite_demo)) return failure("no SQLite demo at '" + sqlite_demo.string() + "'");
  Source src(sqlite_demo);
  const auto tables = read_schema(src);
  if (!src.error().empty()) return failure(src.error());

  out << "-- The querygate demo database (LLM observability: projects, traces, spans,\n"
         "-- span_annotations, and the private users and api_keys) for PostgreSQL.\n"
         "-- Generated by `querygate demo-db --postgres FILE` from the SQLite demo; do not edit.\n"
         "-- Load into an empty database as the role that should own the tables:\n"
         "--   psql -v ON_ERROR_STOP=1 -1 -d DBNAME -f FILE\n"
         "-- It grants nothing: give the gateway's role SELECT on the tables it may read.\n\n"
         "SET client_encoding = 'UTF8';\n"
         "SET standard_conforming_strings = on;\n"
         "SET client_min_messages = warning;\n\n";
  for (const auto& t : tables) write_create_table(t, out);
  std::int64_t rows = 0;
  for (const auto& t : tables) write_copy(src, t, out, rows);
  if (!src.error().empty()) return failure(src.error());
  // Constraints and indexes after the data, as pg_dump does: one check and one
  // sort each instead of one per row.
  for (const auto& t : tables)
    for (const auto& k : t.foreign_keys) {
      std::string name = t.name;
      for (const auto& c : k.columns) name += "_" + c;
      out << "ALTER TABLE " << ident(t.name) << " ADD CONSTRAINT " << ident(name + "_fkey") << " FOREIGN KEY ("
          << ident_list(k.columns) << ") REFERENCES " << ident(k.ref_table);
      if (!k.ref_columns.empty()) out << " (" << ident_list(k.ref_columns) << ")";
      out << ";\n";
    }
  // Identity columns continue after the copied ids.
  for (const auto& t : tables) {
    if (!rowid_alias(t)) continue;
    for (const auto& c : t.columns)
      if (c.pk_position == 1)
        out << "DO $$ BEGIN PERFORM pg_catalog.setval(pg_catalog.pg_get_serial_sequence(" << literal(ident(t.name))
            << ", " << literal(c.name) << "), coalesce(max(" << ident(c.name) << "), 0) + 1, false) FROM "
            << ident(t.name) << "; END $$;\n";
  }
  out << "\n";
  for (const auto& t : tables)
    for (const auto& i : t.indexes)
      out << "CREATE " << (i.unique ? "UNIQUE " : "") << "INDEX " << ident(i.name) << " ON " << ident(t.name) << " ("
          << ident_list(i.columns) << ");\n";
  // Row estimates for the planner (and for the gateway's truncation notes). The
  // tables are named: a bare ANALYZE by a non-superuser warns about every shared
  // catalog it may not analyze.
  std::vector<std::string> names;
  for (const auto& t : tables) names.push_back(t.name);
  out << "\nANALYZE " << ident_list(names) << ";\n";
  out.flush();
  if (!out) return failure("writing failed after " + std::to_string(rows) + " rows");
  return {};
}

Status create_demo_pg_script(const fs::path& script) {
  std::string pattern = (fs::temp_directory_path() / "qg-demo-pg-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return failure("cannot create a temporary folder under " + fs::temp_directory_path().string());
  TempDir tmp{pattern};
  if (auto s = create_demo_db(tmp.path / "demo.db"); !s) return s.error();

  if (script == "-") return write_demo_pg_script(tmp.path / "demo.db", std::cout);
  const fs::path partial = script.string() + ".tmp";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) return failure("cannot open '" + partial.string() + "' for writing");
    if (auto s = write_demo_pg_script(tmp.path / "demo.db", out); !s) {
      std::error_code ignored;
      fs::remove(partial, ignored);
      return s;
    }
    out.close();
    if (!out) return failure("closing '" + partial.string() + "' failed");
  }
  std::error_code ec;
  fs::rename(partial, script, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(partial, ignored);
    return failure("cannot rename '" + partial.string() + "' to '" + script.string() + "': " + ec.message());
  }
  return {};
}

}  // namespace qg::exec
