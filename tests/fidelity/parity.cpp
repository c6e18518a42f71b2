#include "parity.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <boost/algorithm/string/predicate.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <pqxx/pqxx>
#include <sstream>

#include "compare.hpp"
#include "defog_dataset.hpp"
#include "demo/demo_db.hpp"
#include "direct_postgres.hpp"
#include "executors/postgres/pg_values.hpp"
#include "gateway/startup.hpp"
#include "gateway_side.hpp"
#include "sql_tokens.hpp"

namespace fidelity {
namespace {

namespace fs = std::filesystem;

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string quote_ident(const std::string& name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// ---- PostgreSQL → SQLite copy

std::string sqlite_type(const std::string& pg) {
  // bigint declared as such (INTEGER affinity all the same): admission then knows a bigint from an integer
  // as it does on PostgreSQL (substr(text, bigint) and date + bigint are PostgreSQL's errors).
  if (pg == "bigint") return "BIGINT";
  if (pg == "integer" || pg == "smallint") return "INTEGER";
  if (pg == "numeric" || pg == "double precision" || pg == "real") return "REAL";  // real: see float4 below
  if (pg == "boolean") return "BOOLEAN";
  if (pg == "date") return "DATE";
  if (pg == "timestamp without time zone") return "TIMESTAMP";
  if (pg == "timestamp with time zone") return "TIMESTAMPTZ";
  if (pg == "time without time zone") return "TIME";
  // Declared as JSON, so the SQLite catalog types the column as JSON whatever its values (a jsonb column may
  // hold scalars, which the catalog's sampling would take for text) and admission applies jsonb's rules.
  // "TEXT" gives the column text affinity: a jsonb scalar such as 1 stays the text '1'.
  if (pg == "jsonb" || pg == "json") return "JSON TEXT";
  return "TEXT";
}

struct SqliteClose {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct Finalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

qg::Status sqlite_exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) == SQLITE_OK) return {};
  std::string what = err ? err : "?";
  sqlite3_free(err);
  return qg::make_error(qg::ErrorCode::BackendError, "SQLite: " + what + " in " + sql.substr(0, 200));
}

// ---- the three sides

// OrderOpen: the same rows, in another order, and the outermost ORDER BY sorts by
// expressions that are not output columns, so whether the two orders differ only
// among ties cannot be told from the answers: not counted identical, listed.
// Float4: equal only with every number rounded to float4 (24 bits), on a database
// whose tables hold PostgreSQL `real` columns: SQLite has no float4, so its copy
// holds either the float4's value (PostgreSQL computes with 4.599999904632568)
// or its text (PostgreSQL prints 4.6): one of the two answers must differ in
// the 8th digit. Not counted identical, listed.
enum class Class { Identical, Refused, RefusedNoFix, EngineError, OrderOpen, Float4, Different };

std::string_view class_name(Class c) {
  switch (c) {
    case Class::Identical:
      return "identical";
    case Class::Refused:
      return "refused-with-fix";
    case Class::RefusedNoFix:
      return "refused-without-fix";
    case Class::EngineError:
      return "engine-error";
    case Class::OrderOpen:
      return "same-rows-order-open";
    case Class::Float4:
      return "equal-at-float4";
    case Class::Different:
      return "DIFFERENT";
  }
  return "?";
}

struct SideResult {
  Class cls = Class::Identical;
  std::string detail;  // refusal code and message, engine error, or the first difference
};

struct Record {
  const ParityEntry* entry = nullptr;
  std::string truth_error;  // the truth failed on PostgreSQL: a corpus defect
  bool fails_too = false;   // the statement itself fails on PostgreSQL: no gateway can answer it
  SideResult sqlite, postgres;
};

qg::exec::Rows at_float4(qg::exec::Rows rows) {
  for (auto& row : rows.rows)
    for (auto& v : row) {
      if (const auto* d = std::get_if<double>(&v)) v = static_cast<double>(static_cast<float>(*d));
      if (const auto* n = std::get_if<qg::exec::Decimal>(&v))
        v = static_cast<double>(static_cast<float>(std::strtod(n->digits.c_str(), nullptr)));
    }
  return rows;
}

// A column PostgreSQL answers as numeric (exact digits) and the gateway as a double, or the other way
// round: equal within 1e-9 here, but the API prints a double rounded to float_digits and a numeric with
// its own digits, so the agent would read different numbers (red team: round(avg(x), 4) on SQLite came
// back with 6 significant digits). Empty when every column agrees. Not applied to defog, whose SQLite
// copy stores numeric columns as REAL (copy_postgres_to_sqlite).
std::string numeric_type_mismatch(const qg::exec::Rows& gateway, const qg::exec::Rows& truth) {
  for (std::size_t c = 0; c < truth.columns.size() && c < gateway.columns.size(); ++c) {
    auto kinds = [&](const qg::exec::Rows& rows, bool& decimal, bool& floating) {
      for (const auto& row : rows.rows) {
        if (c >= row.size()) continue;
        decimal = decimal || std::holds_alternative<qg::exec::Decimal>(row[c]);
        floating = floating || std::holds_alternative<double>(row[c]);
      }
    };
    bool gd = false, gf = false, td = false, tf = false;
    kinds(gateway, gd, gf);
    kinds(truth, td, tf);
    if ((td && gf) || (tf && gd))
      return "column " + std::to_string(c + 1) + ": PostgreSQL answers " + (td ? "numeric" : "double precision") +
             ", the gateway " + (gf ? "a double" : "a numeric") + " (printed with other digits)";
  }
  return "";
}

// `names_strict`: the statement sent is the truth's own, so the envelope names its columns as PostgreSQL does
// (one answer format; letter case aside: a database's own column spelling, Chinook's CustomerId, is its data).
// The column types two answers name, where they differ beyond spelling ("" when they agree). A database's own
// declarations are its data: varchar / char columns are text, and real a float (Class::Float4), on SQLite.
// (Not for defog's SQLite copies, whose numeric columns are REAL: copy_postgres_to_sqlite.)
std::string type_mismatch(const qg::exec::Rows& sqlite, const qg::exec::Rows& postgres) {
  auto plain = [](std::string t) {
    if (t.starts_with("character") || t.starts_with("varchar") || t.starts_with("char")) return std::string("text");
    if (t == "real") return std::string("double precision");
    if (t == "smallint") return std::string("integer");  // admission's types have no int2 (ValueType)
    if (t.starts_with("numeric")) return std::string("numeric");
    return t;
  };
  for (std::size_t c = 0; c < sqlite.columns.size() && c < postgres.columns.size(); ++c) {
    const std::string a = plain(sqlite.columns[c].type), b = plain(postgres.columns[c].type);
    if (a != b && !a.empty() && !b.empty())
      return "column " + std::to_string(c + 1) + " (" + postgres.columns[c].name + ") is typed " +
             sqlite.columns[c].type + " on SQLite, " + postgres.columns[c].type + " on PostgreSQL";
  }
  return "";
}

SideResult judge(const GatewayRun& run, const qg::exec::Rows& truth, const std::string& truth_sql,
                 bool float4_data = false, bool numeric_strict = false, bool names_strict = false) {
  SideResult out;
  if (run.refusal) {
    out.cls = run.refusal->fix.empty() ? Class::RefusedNoFix : Class::Refused;
    out.detail = std::string(qg::name(run.refusal->code)) + ": " + run.refusal->message;
    return out;
  }
  if (run.engine_error) {
    out.cls = Class::EngineError;
    out.detail = std::string(qg::name(run.engine_error->code)) + ": " + run.engine_error->message;
    return out;
  }
  // Order matters only when the statement orders its outermost result, and then only as far as its keys go.
  Comparison cmp{false, ""};
  if (!has_top_level_order_by(truth_sql)) {
    cmp = compare_rows(run.rows, truth, false);
  } else {
    std::vector<std::string> names;
    for (const auto& c : truth.columns) names.push_back(c.name);
    if (const auto keys = top_level_order_keys(truth_sql, names)) {
      cmp = compare_rows_by_keys(run.rows, truth, keys->columns, keys->limited);
    } else {
      cmp = compare_rows(run.rows, truth, true);
      if (!cmp.same && !run.truncated && compare_rows(run.rows, truth, false).same) {
        out.cls = Class::OrderOpen;
        out.detail = cmp.why;
        return out;
      }
    }
  }
  if (cmp.same && numeric_strict)
    if (auto why = numeric_type_mismatch(run.rows, truth); !why.empty()) cmp = {false, why};
  if (cmp.same && names_strict)
    for (std::size_t c = 0; c < truth.columns.size() && c < run.rows.columns.size(); ++c)
      if (!boost::iequals(run.rows.columns[c].name, truth.columns[c].name)) {
        cmp = {false, "column " + std::to_string(c + 1) + " is named " + run.rows.columns[c].name +
                          ", PostgreSQL names it " + truth.columns[c].name};
        break;
      }
  if (cmp.same && !run.truncated) return out;
  if (float4_data && !run.truncated) {
    GatewayRun rounded;
    rounded.rows = at_float4(run.rows);
    if (judge(rounded, at_float4(truth), truth_sql).cls == Class::Identical) {
      out.cls = Class::Float4;
      out.detail = cmp.why;
      return out;
    }
  }
  out.cls = Class::Different;
  out.detail = run.truncated ? "truncated" : cmp.why;
  if (!run.rows.rows.empty()) out.detail += "; gateway first row " + format_row(run.rows.rows.front());
  if (!truth.rows.empty()) out.detail += "; truth first row " + format_row(truth.rows.front());
  out.detail += "; ran: " + run.rendered;
  return out;
}

struct Sides {
  qg::exec::Executor* sqlite = nullptr;
  qg::exec::Executor* postgres = nullptr;
  std::string truth_dsn;
  bool float4_data = false;  // some table has a PostgreSQL `real` column (see Class::Float4)
};

// The group a statement's shares are reported under.
std::string group_of(const Record& r) {
  if (r.entry->corpus == "defog") return "defog (PostgreSQL gold SQL)";
  if (r.entry->corpus.find("sqlite") != std::string::npos) return "SQLite spellings";
  return "PostgreSQL spellings (demo, Chinook)";
}

// A refusal's reason without the caller's names: the code and the message up to its first quote.
std::string reason_of(const std::string& detail) {
  auto cut = detail.find_first_of("'\"`");
  std::string r = detail.substr(0, cut == std::string::npos ? detail.size() : cut);
  if (r.size() > 110) r = r.substr(0, 110);
  return trim(r);
}

std::string percent(int n, int d) {
  if (d == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * n / d);
  return buf;
}

std::string one_line(std::string s) {
  for (auto& c : s)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  return s;
}

}  // namespace

qg::Result<std::vector<ParityEntry>> load_parity_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return qg::make_error(qg::ErrorCode::ConfigInvalid, "cannot read " + file.string());
  std::vector<ParityEntry> out;
  std::optional<ParityEntry> cur;
  std::string default_db = file.stem().string();
  std::string line, sql;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string t = trim(line);
    if (t.rfind("-- id:", 0) == 0) {
      cur = ParityEntry{file.stem().string(), trim(t.substr(6)), n, default_db, {}, {}, {}};
      sql.clear();
      continue;
    }
    if (!cur) {
      if (t.rfind("-- database:", 0) == 0) default_db = trim(t.substr(12));
      continue;
    }
    if (sql.empty() && t.rfind("--", 0) == 0) {
      const auto colon = t.find(':');
      if (colon == std::string::npos || line.rfind("--   ", 0) == 0) continue;
      const std::string key = trim(t.substr(2, colon - 2));
      const std::string value = trim(t.substr(colon + 1));
      if (key == "database") cur->database = value;
      if (key == "parity_skip") cur->skip = value;
      if (key == "truth") {
        cur->truth = value;
        if (!cur->truth.empty() && cur->truth.back() == ';') cur->truth.pop_back();
      }
      continue;
    }
    if (sql.empty() && t.empty()) continue;
    sql += (sql.empty() ? "" : "\n") + line;
    if (!t.empty() && t.back() == ';') {
      cur->sql = trim(sql);
      cur->sql.pop_back();
      cur->sql = trim(cur->sql);
      if (cur->truth.empty()) cur->truth = cur->sql;
      out.push_back(*cur);
      cur.reset();
      sql.clear();
    }
  }
  if (cur) return qg::make_error(qg::ErrorCode::ConfigInvalid, file.string() + ": entry " + cur->id + " has no ';'");
  return out;
}

qg::Status copy_postgres_to_sqlite(const std::string& dsn, const fs::path& file, bool* float4_data) {
  std::error_code ignored;
  fs::remove(file, ignored);
  sqlite3* raw = nullptr;
  if (sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    sqlite3_close_v2(raw);
    return qg::make_error(qg::ErrorCode::BackendError, "cannot create " + file.string());
  }
  std::unique_ptr<sqlite3, SqliteClose> db(raw);
  try {
    pqxx::connection conn(dsn);
    pqxx::read_transaction tx(conn);
    tx.exec("SET LOCAL TimeZone = 'UTC'");
    const auto cols = tx.exec(
        "SELECT c.table_schema, c.table_name, c.column_name, c.data_type FROM information_schema.columns c "
        "JOIN information_schema.tables t USING (table_schema, table_name) WHERE t.table_type = 'BASE TABLE' "
        "AND c.table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, c.ordinal_position");
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> tables;  // schema.table → columns
    std::map<std::string, std::pair<std::string, std::string>> names;
    for (const auto& row : cols) {
      const std::string key = std::string(row[0].c_str()) + "." + row[1].c_str();
      names[key] = {row[0].c_str(), row[1].c_str()};
      tables[key].emplace_back(row[2].c_str(), row[3].c_str());
      if (float4_data && std::string(row[3].c_str()) == "real") *float4_data = true;
    }
    // Primary keys too: a real SQLite file declares them, and PostgreSQL's grouping rule (a column of a table
    // whose key is grouped) rests on them on both backends.
    std::map<std::string, std::vector<std::string>> keys;  // schema.table → key columns, in key order
    for (const auto& row :
         // (pg_catalog: information_schema.table_constraints shows a reader, who has only SELECT, nothing.)
         tx.exec("SELECT n.nspname, c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
                 "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid AND "
                 "a.attnum = ANY (i.indkey) WHERE i.indisprimary AND n.nspname NOT IN ('pg_catalog', "
                 "'information_schema') AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1, 2, "
                 "array_position(i.indkey::int2[], a.attnum)"))
      keys[std::string(row[0].c_str()) + "." + row[1].c_str()].emplace_back(row[2].c_str());
    if (auto s = sqlite_exec(db.get(), "BEGIN"); !s) return s;
    for (const auto& [key, columns] : tables) {
      const auto& [schema, table] = names[key];
      std::string create = "CREATE TABLE " + quote_ident(table) + " (";
      std::string select = "SELECT ";
      std::string insert = "INSERT INTO " + quote_ident(table) + " VALUES (";
      for (std::size_t i = 0; i < columns.size(); ++i) {
        create += (i ? ", " : "") + quote_ident(columns[i].first) + " " + sqlite_type(columns[i].second);
        select += (i ? ", " : "") + quote_ident(columns[i].first);
        insert += i ? ", ?" : "?";
      }
      if (const auto k = keys.find(key); k != keys.end()) {
        create += ", PRIMARY KEY (";
        for (std::size_t i = 0; i < k->second.size(); ++i) create += (i ? ", " : "") + quote_ident(k->second[i]);
        create += ")";
      }
      if (auto s = sqlite_exec(db.get(), create + ")"); !s) return s;
      sqlite3_stmt* st = nullptr;
      if (sqlite3_prepare_v2(db.get(), (insert + ")").c_str(), -1, &st, nullptr) != SQLITE_OK)
        return qg::make_error(qg::ErrorCode::BackendError, std::string("SQLite: ") + sqlite3_errmsg(db.get()));
      std::unique_ptr<sqlite3_stmt, Finalize> stmt(st);
      const auto rows = tx.exec(select + " FROM " + quote_ident(schema) + "." + quote_ident(table));
      for (const auto& row : rows) {
        for (pqxx::row::size_type j = 0; j < row.size(); ++j) {
          const int at = static_cast<int>(j) + 1;
          const auto field = row[j];
          if (field.is_null()) {
            sqlite3_bind_null(st, at);
            continue;
          }
          const auto v = qg::exec::pg::read_value(static_cast<unsigned>(rows.column_type(j)),
                                                  std::string_view(field.c_str(), field.size()));
          if (const auto* i = std::get_if<std::int64_t>(&v))
            sqlite3_bind_int64(st, at, *i);
          else if (const auto* d = std::get_if<double>(&v))
            // A float4 is read from its shortest text ('4.6'); PostgreSQL computes with the float4's own
            // value (4.599999904632568), so the copy stores that.
            sqlite3_bind_double(st, at, columns[j].second == "real" ? static_cast<double>(static_cast<float>(*d)) : *d);
          else if (const auto* n = std::get_if<qg::exec::Decimal>(&v))
            sqlite3_bind_double(st, at, std::strtod(n->digits.c_str(), nullptr));
          else if (const auto* b = std::get_if<bool>(&v))
            sqlite3_bind_int(st, at, *b ? 1 : 0);
          else if (const auto* s = std::get_if<std::string>(&v))
            sqlite3_bind_text(st, at, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
          else if (const auto* bl = std::get_if<qg::exec::Blob>(&v))
            sqlite3_bind_blob(st, at, bl->bytes.data(), static_cast<int>(bl->bytes.size()), SQLITE_TRANSIENT);
          else
            sqlite3_bind_null(st, at);
        }
        if (sqlite3_step(st) != SQLITE_DONE)
          return qg::make_error(qg::ErrorCode::BackendError, std::string("SQLite: ") + sqlite3_errmsg(db.get()));
        sqlite3_reset(st);
      }
    }
    if (auto s = sqlite_exec(db.get(), "COMMIT"); !s) return s;
  } catch (const std::exception& e) {
    return qg::make_error(qg::ErrorCode::BackendError, std::string("PostgreSQL: ") + e.what());
  }
  return {};
}

GatewayVerdict judge_gateway_answer(const GatewayRun& run, const qg::exec::Rows& truth, const std::string& truth_sql,
                                    bool numeric_strict) {
  const SideResult r = judge(run, truth, truth_sql, false, numeric_strict);
  GatewayVerdict v;
  v.cls = std::string(class_name(r.cls));
  v.refused = r.cls == Class::Refused || r.cls == Class::RefusedNoFix;
  v.engine_error = r.cls == Class::EngineError;
  v.different = r.cls == Class::Different || r.cls == Class::OrderOpen || r.cls == Class::Float4;
  v.detail = r.detail;
  return v;
}

int run_parity(const ParityOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<ParityEntry> entries;
  for (const auto& f : options.files) {
    auto loaded = load_parity_file(f);
    if (!loaded) {
      std::cerr << "parity: " << loaded.error().message << "\n";
      return 2;
    }
    entries.insert(entries.end(), loaded->begin(), loaded->end());
  }
  if (options.defog) {
    auto d = load_defog(options.shared_data / "defog", options.conninfo);
    if (!d) {
      std::cerr << "parity: " << d.error().message << "\n";
      return 2;
    }
    for (const auto& q : d->queries)
      entries.push_back({"defog", "defog-" + std::to_string(q.index), q.index, "defog_" + q.db_id, q.sql, q.sql, {}});
  }

  const fs::path work = fs::temp_directory_path() / ("qg-parity-" + std::to_string(::getpid()));
  fs::create_directories(work);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(p, ignored);
    }
  } cleanup{work};

  GatewaySide gateway;
  std::map<std::string, Sides> sides;
  std::vector<qg::gateway::ServedDatabases> served;  // keeps the demo's executors alive
  std::vector<std::string> setup_failures;
  auto open_side = [&](const std::string& database) -> Sides* {
    if (auto it = sides.find(database); it != sides.end()) return &it->second;
    Sides s;
    s.truth_dsn = options.conninfo + " dbname=" + database;
    if (database == "demo") {
      if (auto made = qg::exec::create_demo_db(work / "demo.db"); !made) {
        setup_failures.push_back("demo.db: " + made.error().message);
        return nullptr;
      }
      ::setenv("QG_DEMO_PG_DSN", s.truth_dsn.c_str(), 1);
      for (const char* name : {"demo.yaml", "demo-postgres.yaml"}) {
        std::ifstream in(options.config_dir / name);
        std::stringstream text;
        text << in.rdbuf();
        auto config = qg::config::parse_config(text.str(), work);
        if (!config) {
          setup_failures.push_back(std::string(name) + ": " + config.error().message);
          return nullptr;
        }
        // The truth is PostgreSQL on the whole demo; the demo configs' row filters
        // hide rows (the internal-tests project, today's rows), so the gateways
        // here run without them and every side reads the same rows. The filters
        // have their own oracle (a deleted-rows copy: row_filter_oracle_test,
        // demo_config_test).
        for (auto& db : config->databases)
          for (auto& table : db.tables) {
            table.row_filter.clear();
            table.row_filter_note.clear();
          }
        auto opened = qg::gateway::open_databases(*config);
        if (!opened) {
          setup_failures.push_back(std::string(name) + ": " + opened.error().message);
          return nullptr;
        }
        auto* executor = opened->at("demo").executor.get();
        (std::string(name) == "demo.yaml" ? s.sqlite : s.postgres) = executor;
        served.push_back(std::move(opened).value());
      }
    } else {
      fs::path file;
      if (database == "chinook") {
        file = options.shared_data / "chinook" / "Chinook_Sqlite.sqlite";
      } else {
        file = work / (database + ".sqlite");
        if (auto copied = copy_postgres_to_sqlite(s.truth_dsn, file, &s.float4_data); !copied) {
          setup_failures.push_back(database + ": " + copied.error().message);
          return nullptr;
        }
      }
      // The copy answers to the PostgreSQL schema its tables came from (defog's ewallet: consumer_div).
      auto pg = gateway.postgres_executor(database, s.truth_dsn);
      auto lite = gateway.executor(database, file, pg ? (*pg)->catalog().schema : std::string());
      if (!lite || !pg) {
        setup_failures.push_back(database + ": " + (!lite ? lite.error().message : pg.error().message));
        return nullptr;
      }
      s.sqlite = *lite;
      s.postgres = *pg;
    }
    return &sides.emplace(database, s).first->second;
  };

  std::map<std::string, std::unique_ptr<DirectPostgres>> truths;
  std::vector<Record> records;
  records.reserve(entries.size());
  std::vector<std::string> skipped;
  for (const auto& e : entries) {
    if (!e.skip.empty()) {
      skipped.push_back(e.corpus + "/" + e.id + ": " + e.skip);
      continue;
    }
    Record r;
    r.entry = &e;
    Sides* s = open_side(e.database);
    if (!s) {
      r.truth_error = "database " + e.database + " did not open";
      records.push_back(std::move(r));
      continue;
    }
    auto& truth_conn = truths[s->truth_dsn];
    if (!truth_conn) {
      auto opened = DirectPostgres::open(s->truth_dsn);
      if (!opened) {
        r.truth_error = opened.error().message;
        records.push_back(std::move(r));
        continue;
      }
      truth_conn = std::move(opened).value();
    }
    auto truth = truth_conn->run(e.truth);
    if (!truth && e.truth == e.sql) {
      // PostgreSQL's answer is an error: each gateway must refuse it or fail, never answer.
      r.fails_too = true;
      for (auto [side, executor] : {std::pair{&r.sqlite, s->sqlite}, std::pair{&r.postgres, s->postgres}}) {
        const GatewayRun run = gateway.run(*executor, e.sql);
        if (run.refusal) {
          side->cls = run.refusal->fix.empty() ? Class::RefusedNoFix : Class::Refused;
          side->detail = std::string(qg::name(run.refusal->code)) + ": " + run.refusal->message;
        } else if (run.engine_error) {
          side->cls = Class::EngineError;
          side->detail = std::string(qg::name(run.engine_error->code)) + ": " + run.engine_error->message;
        } else {
          side->cls = Class::Different;
          side->detail = "PostgreSQL raises an error (" + truth.error().message + "); the gateway answered " +
                         std::to_string(run.rows.rows.size()) + " rows";
        }
      }
      records.push_back(std::move(r));
      continue;
    }
    if (!truth) {
      r.truth_error = truth.error().message;
      records.push_back(std::move(r));
      continue;
    }
    // Where the truth is the statement itself (a SQLite spelling's truth is another expression, whose
    // type may differ where the value is the same).
    const bool strict = e.corpus != "defog" && e.truth == e.sql;
    const bool same_sql = e.truth == e.sql;
    const GatewayRun on_sqlite = gateway.run(*s->sqlite, e.sql), on_postgres = gateway.run(*s->postgres, e.sql);
    r.sqlite = judge(on_sqlite, *truth, e.truth, s->float4_data, strict, same_sql);
    r.postgres = judge(on_postgres, *truth, e.truth, false, strict, same_sql);
    // One answer format: where both gateways give PostgreSQL's answer, they name the columns' types alike.
    if (strict && r.sqlite.cls == Class::Identical && r.postgres.cls == Class::Identical)
      if (auto why = type_mismatch(on_sqlite.rows, on_postgres.rows); !why.empty()) {
        r.sqlite.cls = Class::Different;
        r.sqlite.detail = why + "; ran: " + on_sqlite.rendered;
      }
    records.push_back(std::move(r));
  }
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();

  // ---- report
  struct Count {
    int total = 0;
    int fails_too = 0;  // statements PostgreSQL itself fails
    std::map<Class, int> sqlite, postgres;
  };
  std::map<std::string, Count> groups;
  std::map<std::string, int> sqlite_reasons, postgres_reasons;
  std::vector<std::string> failures;
  std::ostringstream tsv;
  tsv << "corpus\tid\tdatabase\tsqlite\tpostgres\tsqlite_detail\tpostgres_detail\n";
  for (const auto& r : records) {
    const std::string where = r.entry->corpus + "/" + r.entry->id + " (line " + std::to_string(r.entry->line) + ")";
    if (!r.truth_error.empty()) {
      failures.push_back(where + ": the truth failed on PostgreSQL directly: " + one_line(r.truth_error));
      continue;
    }
    auto& g = groups[group_of(r)];
    ++g.total;
    g.fails_too += r.fails_too ? 1 : 0;
    ++g.sqlite[r.sqlite.cls];
    ++g.postgres[r.postgres.cls];
    for (const auto& [side, res] : {std::pair{"sqlite", &r.sqlite}, std::pair{"postgres", &r.postgres}}) {
      if (res->cls == Class::Different)
        failures.push_back(where + ": " + side + " gateway answer DIFFERS from PostgreSQL: " + one_line(res->detail) +
                           "\n    SQL: " + one_line(r.entry->sql));
      if (res->cls == Class::Refused || res->cls == Class::RefusedNoFix || res->cls == Class::EngineError ||
          res->cls == Class::OrderOpen || res->cls == Class::Float4)
        ++(std::string(side) == "sqlite"
               ? sqlite_reasons
               : postgres_reasons)[std::string(class_name(res->cls)) + " " + reason_of(res->detail)];
    }
    tsv << r.entry->corpus << "\t" << r.entry->id << "\t" << r.entry->database << "\t" << class_name(r.sqlite.cls)
        << "\t" << class_name(r.postgres.cls) << "\t" << one_line(r.sqlite.detail) << "\t"
        << one_line(r.postgres.detail) << "\n";
  }
  for (const auto& f : setup_failures) failures.push_back("setup: " + f);

  std::ostringstream md;
  md << "# Parity run (issue #12)\n\n"
     << records.size() << " statements in " << elapsed
     << " s. Truth: PostgreSQL directly; each gateway's answer is classified by tests/fidelity/compare.cpp.\n\n";
  // "PostgreSQL fails": statements whose truth is PostgreSQL's error (type errors, division by zero, overflow ...
  // kept to prove that no gateway answers them); each gateway's refusal or error for them counts in its column.
  // The identical share is given of all statements and of those PostgreSQL answers.
  md << "| group | statements | PostgreSQL fails | side | identical | identical of those PostgreSQL answers | "
        "refused with FIX | refused without FIX | engine error | same rows, order open | equal at float4 | DIFFERENT "
        "|\n|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (auto& [name, g] : groups)
    for (const auto& [side, m] : {std::pair{"SQLite gateway", &g.sqlite}, std::pair{"PostgreSQL gateway", &g.postgres}})
      md << "| " << name << " | " << g.total << " | " << g.fails_too << " | " << side << " | " << (*m)[Class::Identical]
         << " (" << percent((*m)[Class::Identical], g.total) << ") | "
         << percent((*m)[Class::Identical], g.total - g.fails_too) << " | " << (*m)[Class::Refused] << " | "
         << (*m)[Class::RefusedNoFix] << " | " << (*m)[Class::EngineError] << " | " << (*m)[Class::OrderOpen] << " | "
         << (*m)[Class::Float4] << " | " << (*m)[Class::Different] << " |\n";
  for (const auto& [side, reasons] :
       {std::pair{"SQLite", &sqlite_reasons}, std::pair{"PostgreSQL", &postgres_reasons}}) {
    std::vector<std::pair<int, std::string>> top;
    for (const auto& [reason, n] : *reasons) top.emplace_back(n, reason);
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    md << "\n## Top reasons not identical, " << side << " gateway\n\n";
    for (std::size_t i = 0; i < top.size() && i < 15; ++i) md << "- " << top[i].first << " × " << top[i].second << "\n";
  }
  if (!skipped.empty()) {
    md << "\n## Not judged (parity_skip)\n\n";
    for (const auto& k : skipped) md << "- " << k << "\n";
  }
  md << "\n## Verdict\n\n" << (failures.empty() ? "PASS\n" : "FAIL\n");
  for (const auto& f : failures) md << "- " << f << "\n";
  std::cout << md.str();
  fs::create_directories(options.out);
  std::ofstream(options.out / "parity.md") << md.str();
  std::ofstream(options.out / "parity.tsv") << tsv.str();
  return failures.empty() ? 0 : 1;
}

}  // namespace fidelity
