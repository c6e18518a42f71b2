#include "writes/write_connection.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <optional>
#include <pqxx/pqxx>

#include "executors/postgres/pg_values.hpp"
#include "executors/sqlite/sqlite_functions.hpp"
#include "executors/sqlite/sqlite_handle.hpp"

namespace qg::writes {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  return out;
}

constexpr int kBusyTimeoutMs = 5000;

// ---------------------------------------------------------------- SQLite

class SqliteWriter : public WriteConnection {
 public:
  explicit SqliteWriter(SqliteWriteOptions options) : options_(std::move(options)) {}

  Status open() {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(options_.path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) return failure("cannot open " + options_.path.string() + " for writing");
    sqlite3* db = db_.get();
    sqlite3_extended_result_codes(db, 0);
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    int now = -1;
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &now);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &now);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &now);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    // WAL: readers keep reading while a write commits; synchronous=FULL: a
    // commit the caller was told about (201) survives a crash of the process
    // or the machine. foreign_keys: references hold as on PostgreSQL.
    char* err = nullptr;
    const int prc = sqlite3_exec(db,
                                 "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; "
                                 "PRAGMA case_sensitive_like=ON;",
                                 nullptr, nullptr, &err);
    if (prc != SQLITE_OK) {
      std::string why = err ? err : sqlite3_errstr(prc);
      sqlite3_free(err);
      return failure("cannot switch " + options_.path.string() + " to WAL: " + why);
    }
    if (!exec::sqlite::register_functions(db)) return failure("cannot register querygate's SQLite functions");
    sqlite3_progress_handler(db, 1000, on_progress, this);
    sqlite3_set_authorizer(db, authorize, this);
    return {};
  }

  Status begin(const std::string&, exec::Deadline deadline) override {
    deadline_ = deadline;
    // IMMEDIATE takes the write lock now: the checks and the insert run with
    // no other writer in between (busy_timeout waits for one that holds it).
    return run_plain("BEGIN IMMEDIATE");
  }

  Result<exec::Rows> query(const std::string& sql, const std::vector<exec::Value>& params) override {
    sqlite3_stmt* raw = nullptr;
    denied_.clear();
    if (sqlite3_prepare_v2(db_.get(), sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr) != SQLITE_OK)
      return engine_error("prepare");
    exec::sqlite::StmtHandle stmt(raw);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      const exec::Value& v = params[i];
      int rc = SQLITE_OK;
      if (std::holds_alternative<std::monostate>(v))
        rc = sqlite3_bind_null(raw, index);
      else if (const auto* n = std::get_if<std::int64_t>(&v))
        rc = sqlite3_bind_int64(raw, index, *n);
      else if (const auto* d = std::get_if<double>(&v))
        rc = sqlite3_bind_double(raw, index, *d);
      else if (const auto* b = std::get_if<bool>(&v))
        rc = sqlite3_bind_int(raw, index, *b ? 1 : 0);
      else if (const auto* s = std::get_if<std::string>(&v))
        rc = sqlite3_bind_text(raw, index, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
      else if (const auto* x = std::get_if<exec::Decimal>(&v))
        rc = sqlite3_bind_text(raw, index, x->digits.data(), static_cast<int>(x->digits.size()), SQLITE_TRANSIENT);
      else if (const auto* blob = std::get_if<exec::Blob>(&v))
        rc = sqlite3_bind_blob(raw, index, blob->bytes.data(), static_cast<int>(blob->bytes.size()), SQLITE_TRANSIENT);
      if (rc != SQLITE_OK) return engine_error("bind");
    }
    exec::Rows out;
    const int columns = sqlite3_column_count(raw);
    for (int c = 0; c < columns; ++c) out.columns.push_back({sqlite3_column_name(raw, c), ""});
    for (;;) {
      const int rc = sqlite3_step(raw);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) return engine_error("step");
      std::vector<exec::Value> row;
      for (int c = 0; c < columns; ++c) row.push_back(read_value(raw, c));
      out.rows.push_back(std::move(row));
    }
    return out;
  }

  Status commit() override { return run_plain("COMMIT"); }
  void rollback() override {
    if (!sqlite3_get_autocommit(db_.get())) (void)run_plain("ROLLBACK");
  }
  std::string placeholder(int index) const override { return "?" + std::to_string(index); }

 private:
  static exec::Value read_value(sqlite3_stmt* stmt, int col) {
    switch (sqlite3_column_type(stmt, col)) {
      case SQLITE_INTEGER:
        return static_cast<std::int64_t>(sqlite3_column_int64(stmt, col));
      case SQLITE_FLOAT:
        return sqlite3_column_double(stmt, col);
      case SQLITE_TEXT: {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
        return std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, col)));
      }
      case SQLITE_BLOB: {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
        return exec::Blob{p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, col))) : ""};
      }
      default:
        return std::monostate{};
    }
  }

  Status run_plain(const char* sql) {
    char* err = nullptr;
    const int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, &err);
    if (rc == SQLITE_OK) return {};
    std::string why = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    if (rc == SQLITE_BUSY)
      return make_error(ErrorCode::LimitDeadline,
                        "another writer held the database for " + std::to_string(kBusyTimeoutMs / 1000) + " s",
                        "FIX: send the call again in a few seconds.");
    return make_error(ErrorCode::BackendError, std::string(sql) + " failed: " + why);
  }

  Error engine_error(const char* step) {
    const int rc = sqlite3_errcode(db_.get());
    if (rc == SQLITE_INTERRUPT)
      return make_error(ErrorCode::LimitDeadline, "the write ran out of time",
                        "FIX: send the call again; if it keeps happening, tell the operator.");
    std::string message = std::string("SQLite ") + step + " failed: " + sqlite3_errmsg(db_.get());
    if (!denied_.empty()) message += " (" + denied_ + ")";
    return make_error(ErrorCode::BackendError, message);
  }

  static Error failure(std::string message) {
    return make_error(ErrorCode::BackendUnavailable, "write connection: " + std::move(message),
                      "FIX: check that the SQLite file exists and that querygate may write it and its folder (WAL "
                      "needs the -wal and -shm files next to it).");
  }

  static int on_progress(void* self) noexcept {
    auto* w = static_cast<SqliteWriter*>(self);
    return w->deadline_ != exec::Deadline::max() && exec::Clock::now() >= w->deadline_ ? 1 : 0;
  }

  // Reads of the allowlist, INSERT into the write tables, the functions the
  // capability table admits, transactions. Nothing else: no UPDATE, DELETE,
  // DDL, PRAGMA or ATTACH even if a bug printed one.
  static int authorize(void* self, int action, const char* a1, const char* a2, const char* a3, const char*) noexcept {
    auto* w = static_cast<SqliteWriter*>(self);
    try {
      const std::string t1 = lower(a1 ? a1 : "");
      const std::string t2 = lower(a2 ? a2 : "");
      const std::string schema = lower(a3 ? a3 : "");
      int verdict = SQLITE_DENY;
      switch (action) {
        case SQLITE_SELECT:
        case SQLITE_TRANSACTION:
          verdict = SQLITE_OK;
          break;
        case SQLITE_READ:
          verdict = (schema.empty() || schema == "main") &&
                            (w->options_.readable_tables.contains(t1) || w->options_.insert_tables.contains(t1) ||
                             t1 == "sqlite_master" || t1 == "sqlite_schema")
                        ? SQLITE_OK
                        : SQLITE_DENY;
          break;
        case SQLITE_INSERT:
          verdict = w->options_.insert_tables.contains(t1) ? SQLITE_OK : SQLITE_DENY;
          break;
        case SQLITE_FUNCTION:
          verdict = w->options_.functions.contains(t2) ? SQLITE_OK : SQLITE_DENY;
          break;
        default:
          verdict = SQLITE_DENY;
      }
      if (verdict != SQLITE_OK && w->denied_.empty())
        w->denied_ = "the write connection's authorizer denied action " + std::to_string(action) + " on " + t1;
      return verdict;
    } catch (...) {
      return SQLITE_DENY;
    }
  }

  SqliteWriteOptions options_;
  exec::sqlite::DbHandle db_;
  exec::Deadline deadline_ = exec::Deadline::max();
  std::string denied_;
};

// ---------------------------------------------------------------- PostgreSQL

std::string pg_message(const std::exception& e) {
  return exec::pg::one_line(e.what());
}

class PgWriter : public WriteConnection {
 public:
  PgWriter(std::string dsn, std::string schema) : dsn_(std::move(dsn)), schema_(std::move(schema)) {}

  Status connect() {
    try {
      conn_ = std::make_unique<pqxx::connection>(dsn_);
      pqxx::nontransaction tx(*conn_);
      tx.exec("SET TimeZone = 'UTC'");
      tx.exec("SELECT pg_catalog.set_config('search_path', " + tx.quote(schema_) + ", false)");
      return {};
    } catch (const std::exception& e) {
      conn_.reset();
      return make_error(ErrorCode::BackendUnavailable, "write connection to PostgreSQL failed: " + pg_message(e),
                        "FIX: check that the server is up and that the write role's DSN is right; retry in 2 s.");
    }
  }

  pqxx::connection* raw() { return conn_.get(); }

  Status begin(const std::string& lock, exec::Deadline deadline) override {
    if (!conn_ || !conn_->is_open())
      if (auto s = connect(); !s) return s;
    try {
      tx_.reset();
      tx_ = std::make_unique<pqxx::work>(*conn_);
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - exec::Clock::now()).count();
      const long long timeout = deadline == exec::Deadline::max() ? 30000 : std::max<long long>(1, left);
      tx_->exec("SET LOCAL statement_timeout = " + std::to_string(timeout));
      // One lock per write tool: a duplicate check and the insert that follows
      // it never interleave with another call of the same tool.
      tx_->exec_params("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext($1))", "querygate-write:" + lock);
      return {};
    } catch (const std::exception& e) {
      tx_.reset();
      return classify(e);
    }
  }

  Result<exec::Rows> query(const std::string& sql, const std::vector<exec::Value>& params) override {
    std::vector<std::optional<std::string>> texts;
    for (const exec::Value& v : params) texts.push_back(as_text(v));
    std::vector<const char*> pointers;
    for (const auto& t : texts) pointers.push_back(t ? t->c_str() : nullptr);
    try {
      const pqxx::result r = tx_->exec_params(sql, pqxx::prepare::make_dynamic_params(pointers));
      exec::Rows out;
      for (pqxx::row::size_type c = 0; c < r.columns(); ++c) out.columns.push_back({r.column_name(c), ""});
      for (const auto& row : r) {
        std::vector<exec::Value> values;
        for (pqxx::row::size_type c = 0; c < r.columns(); ++c) {
          const auto& f = row[c];
          if (f.is_null())
            values.emplace_back(std::monostate{});
          else
            values.push_back(
                exec::pg::read_value(static_cast<unsigned>(r.column_type(c)), std::string_view(f.c_str(), f.size())));
        }
        out.rows.push_back(std::move(values));
      }
      return out;
    } catch (const std::exception& e) {
      return classify(e);
    }
  }

  Status commit() override {
    try {
      tx_->commit();
      tx_.reset();
      return {};
    } catch (const std::exception& e) {
      tx_.reset();
      return classify(e);
    }
  }
  void rollback() override {
    try {
      if (tx_) tx_->abort();
    } catch (...) {
    }
    tx_.reset();
  }
  std::string placeholder(int index) const override { return "$" + std::to_string(index); }

 private:
  static std::optional<std::string> as_text(const exec::Value& v) {
    if (std::holds_alternative<std::monostate>(v)) return std::nullopt;
    if (const auto* n = std::get_if<std::int64_t>(&v)) return std::to_string(*n);
    if (const auto* d = std::get_if<double>(&v)) {
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, *d);
      return std::string(buf, r.ptr);
    }
    if (const auto* b = std::get_if<bool>(&v)) return std::string(*b ? "true" : "false");
    if (const auto* s = std::get_if<std::string>(&v)) return *s;
    if (const auto* x = std::get_if<exec::Decimal>(&v)) return x->digits;
    return std::get<exec::Blob>(v).bytes;
  }

  Error classify(const std::exception& e) {
    if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) {
      conn_.reset();
      return make_error(ErrorCode::BackendUnavailable, "the write connection to PostgreSQL broke: " + pg_message(e),
                        "FIX: send the call again in 2 s; nothing was written.");
    }
    if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e); sql != nullptr && sql->sqlstate() == "57014")
      return make_error(ErrorCode::LimitDeadline, "the write ran out of time",
                        "FIX: send the call again; if it keeps happening, tell the operator.");
    return make_error(ErrorCode::BackendError, "PostgreSQL refused the write: " + pg_message(e));
  }

  std::string dsn_;
  std::string schema_;
  std::unique_ptr<pqxx::connection> conn_;
  std::unique_ptr<pqxx::work> tx_;
};

}  // namespace

Result<std::unique_ptr<WriteConnection>> open_sqlite_writer(const SqliteWriteOptions& options) {
  auto writer = std::make_unique<SqliteWriter>(options);
  if (auto s = writer->open(); !s) return s.error();
  return std::unique_ptr<WriteConnection>(std::move(writer));
}

Result<std::unique_ptr<WriteConnection>> open_postgres_writer(const std::string& dsn, const std::string& schema) {
  auto writer = std::make_unique<PgWriter>(dsn, schema);
  if (auto s = writer->connect(); !s) return s.error();
  return std::unique_ptr<WriteConnection>(std::move(writer));
}

}  // namespace qg::writes
