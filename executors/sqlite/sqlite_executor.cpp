// The SQLite executor: a pool of hardened read-only connections, each with the
// authorizer and deadline backstop, and the conversion of rows into Values.
#include "executors/sqlite/sqlite_executor.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "executors/executor_errors.hpp"
#include "executors/sqlite/answer_format.hpp"
#include "executors/sqlite/sqlite_arrays.hpp"
#include "executors/sqlite/sqlite_catalog.hpp"
#include "executors/sqlite/sqlite_connection.hpp"
#include "executors/sqlite/sqlite_json.hpp"
#include "executors/sqlite/sqlite_pool.hpp"

namespace qg::exec {

namespace {

// "-12.50", "0", "3": the text of a decimal number, as numeric prints it (no exponent, no spaces).
bool plain_decimal(const std::string& t) {
  std::size_t i = t.size() > 1 && t[0] == '-' ? 1 : 0;
  bool digits = false, point = false;
  for (; i < t.size(); ++i) {
    if (t[i] >= '0' && t[i] <= '9') {
      digits = true;
    } else if (t[i] == '.' && !point && digits) {
      point = true;
    } else {
      return false;
    }
  }
  return digits && t.back() != '.';
}

using sqlite::Connection;
using sqlite::StmtHandle;

constexpr auto kPingBudget = std::chrono::seconds(5);

// The engine's words about `sql`, the text that ran, any value from the data
// withheld (exec::engine_words).
EngineWords sqlite_words(const Connection& conn, std::string_view sql) {
  return engine_words(sqlite3_errmsg(conn.db.get()), sql);
}

// The authorizer recorded what it refused; say that, plus the engine's words
// when the engine itself refused (not so for a refusal by confirm_reads).
Error denied_error(const Connection& conn, std::string_view sql, bool engine_refused = true) {
  const std::string& what = conn.backstop.denial;
  std::string fix =
      "FIX: send one read-only SELECT over the tables GET /v1/schema lists and the functions "
      "GET /v1/schema?detail=functions lists";
  if (what.rfind("reading table", 0) == 0) fix = "FIX: query only the tables the schema description lists";
  if (what.rfind("calling function", 0) == 0)
    fix = "FIX: use only functions GET /v1/schema?detail=functions lists for this database";
  return make_error(
      ErrorCode::BackendDenied,
      "the engine backstop denied " + what + (engine_refused ? " (SQLite: " + sqlite_words(conn, sql).text + ")" : ""),
      std::move(fix));
}

// Maps a failed prepare or step to the caller's error: deadline, backstop
// denial, oversized value, or the engine's own message passed on (values from
// the data withheld). `sql` is the text that ran.
constexpr const char* kNumericDigitsFix =
    "FIX: on SQLite a numeric holds 15 significant digits (a double): keep whole numbers past 2^53 "
    "(9007199254740992) in bigint, without a numeric cast or a literal such as 0.0 in their arithmetic (exact to "
    "9223372036854775807), or round to fewer digits.";

Error engine_error(const Connection& conn, int rc, std::string_view sql) {
  if (conn.backstop.cancel_hit) return cancelled_error();
  if (conn.backstop.deadline_hit) return deadline_error();
  if (!conn.backstop.denial.empty()) return denied_error(conn, sql);
  const EngineWords words = sqlite_words(conn, sql);
  const std::string message = "SQLite: " + words.text;
  switch (rc & 0xff) {
    case SQLITE_TOOBIG:
      return make_error(ErrorCode::LimitRowTooLarge, message,
                        "FIX: select fewer or shorter columns, e.g. substr(column, 1, 1000)");
    case SQLITE_NOMEM:
      // The hard heap limit (limits.max_sqlite_heap_bytes) stopped a statement
      // that kept growing; the gateway and its other statements go on.
      return make_error(ErrorCode::LimitMemory,
                        message + " (the statement needed more than limits.max_sqlite_heap_bytes of memory)",
                        "FIX: aggregate fewer or shorter values: filter the rows first (WHERE, a time range), join on "
                        "a key instead of a cross join, or count and group instead of building one long value.");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return make_error(ErrorCode::BackendUnavailable, message, "FIX: retry in a moment");
    default:
      // SQLite's parser and expression trees have fixed depths; past them the
      // statement is too deeply nested, not wrong, and the agent can flatten it.
      if (message.find("parser stack overflow") != std::string::npos ||
          message.find("Expression tree is too large") != std::string::npos)
        return make_error(ErrorCode::ValidationTooDeep, message,
                          "FIX: nest less: compute inner values in a subquery or CTE, and use IN (...) instead of long "
                          "OR chains.");
      // querygate's own numeric functions (sqlite_numbers.cpp): a value the SQLite double cannot hold exactly.
      if (message.find("has no exact SQLite value") != std::string::npos ||
          message.find("than the SQLite double holds exactly") != std::string::npos)
        return make_error(ErrorCode::BackendError, message, kNumericDigitsFix);
      // The JSON operators on a value that is not JSON (a text column): PostgreSQL's "operator does not exist".
      if (message.find("on a value that is not JSON") != std::string::npos)
        return make_error(ErrorCode::BackendError, message,
                          "FIX: apply -> / ->> to a JSON column (GET /v1/schema marks them jsonb), e.g. attributes ->> "
                          "'key'; a text column is compared or matched as text: x = 'value', x LIKE '%value%'.");
      // PostgreSQL's errors in its words (division by zero, integer out of range ...): PostgreSQL's FIX.
      // A text that does not read as a number met at run time came from the data: admission checks literals.
      if (const std::string state = sqlstate_of_words(words.text); !state.empty())
        return make_error(
            ErrorCode::BackendError, message,
            words.withheld || state == "22P02" ? fix_for_data_value(state) : fix_for_sqlstate(state, message));
      return make_error(ErrorCode::BackendError, message, words.withheld ? kDataValueFix : std::string());
  }
}

// Measured against the string's end, not a NUL: text after an embedded NUL is
// text SQLite never compiled, and must not pass unnoticed.
bool only_whitespace_after(const char* tail, const std::string& sql) {
  if (tail == nullptr) return true;
  for (const char* p = tail; p < sql.data() + sql.size(); ++p)
    if (!std::isspace(static_cast<unsigned char>(*p))) return false;
  return true;
}

std::string or_empty(const char* s) {
  return s ? s : "";
}

const char* storage_class(int type) {
  switch (type) {
    case SQLITE_INTEGER:
      return "INTEGER";
    case SQLITE_FLOAT:
      return "REAL";
    case SQLITE_TEXT:
      return "TEXT";
    case SQLITE_BLOB:
      return "BLOB";
    default:
      return "";
  }
}

Value read_value(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_INTEGER:
      return static_cast<std::int64_t>(sqlite3_column_int64(stmt, col));
    case SQLITE_FLOAT:
      return sqlite3_column_double(stmt, col);
    case SQLITE_TEXT: {
      // Pointer first, then bytes: the order sqlite3_column_bytes documents.
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, col)));
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
      const auto n = static_cast<std::size_t>(sqlite3_column_bytes(stmt, col));
      return Blob{p ? std::string(p, n) : std::string()};
    }
    default:
      return std::monostate{};
  }
}

std::vector<ColumnMeta> column_meta(sqlite3_stmt* stmt) {
  std::vector<ColumnMeta> out;
  const int n = sqlite3_column_count(stmt);
  for (int i = 0; i < n; ++i)
    out.push_back({or_empty(sqlite3_column_name(stmt, i)), or_empty(sqlite3_column_decltype(stmt, i))});
  return out;
}

// A first slice (RunOptions::slice_steps) that ended without an answer: the
// caller runs the statement again from the start, so this error is never shown.
Error slice_ended(const RunOptions& options, RunStats::SliceEnd why) {
  if (options.stats != nullptr) options.stats->slice_end = why;
  return make_error(ErrorCode::Internal, "the first slice of the statement ended before the statement did");
}

// While it lives, a statement on `conn` does not wait on a writer's lock.
class NoLockWaits {
 public:
  explicit NoLockWaits(Connection& conn) : conn_(conn) { sqlite::allow_lock_waits(conn_, false); }
  ~NoLockWaits() { sqlite::allow_lock_waits(conn_, true); }
  NoLockWaits(const NoLockWaits&) = delete;
  NoLockWaits& operator=(const NoLockWaits&) = delete;

 private:
  Connection& conn_;
};

// Turns an escaping exception (allocation failure) into an Error at the API edge.
template <typename Fn>
auto guarded(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::exception& e) {
    return make_error(ErrorCode::Internal, "SQLite executor: " + engine_words(e.what(), {}).text);
  } catch (...) {
    return make_error(ErrorCode::Internal, "SQLite executor: unknown exception");
  }
}

class SqliteExecutor final : public Executor {
 public:
  SqliteExecutor(catalog::Catalog found, std::unique_ptr<sqlite::Policy> policy,
                 std::vector<std::unique_ptr<Connection>> connections)
      : catalog_(std::move(found)), policy_(std::move(policy)), pool_(std::move(connections)) {}

  const catalog::Catalog& catalog() const override { return catalog_; }

  Result<std::vector<ColumnMeta>> prepare(const std::string& sql, Deadline deadline,
                                          const std::vector<Value>& params = {}) override {
    return guarded([&]() -> Result<std::vector<ColumnMeta>> {
      auto lease = pool_.borrow(deadline);
      if (!lease) return lease.error();
      auto stmt = compile(**lease, sql, deadline);
      if (!stmt) return stmt.error();
      if (auto s = bind(stmt->get(), params); !s) return s.error();
      // Type names as run() gives them for stored columns (PostgreSQL's names).
      auto columns = column_meta(stmt->get());
      const auto origin = origins(stmt->get());
      for (std::size_t i = 0; i < columns.size(); ++i)
        columns[i].type = origin[i].boolean ? std::string("boolean")
                                            : sqlite::pg_type_name(columns[i].type, "", origin[i].timestamp,
                                                                   origin[i].column ? origin[i].column->timestamp_sample
                                                                                    : std::string());
      return columns;
    });
  }

  bool runs_in_slices() const override { return true; }

  Result<Rows> run(const std::string& sql, const RunOptions& options) override {
    return guarded([&]() -> Result<Rows> {
      const bool slice = options.slice_steps > 0;
      // A first slice never waits for a connection.
      std::optional<sqlite::Pool::Lease> lease = slice ? pool_.try_borrow() : std::nullopt;
      if (slice && !lease) return slice_ended(options, RunStats::SliceEnd::Busy);
      if (!slice) {
        auto borrowed = pool_.borrow(options.deadline);
        if (!borrowed) return borrowed.error();
        lease.emplace(std::move(borrowed).value());
      }
      Connection& conn = **lease;
      // Nor on a writer's lock; the connection's busy timeout is back for the next run.
      std::optional<NoLockWaits> no_lock_waits;
      if (slice) no_lock_waits.emplace(conn);
      // A statement this connection compiled before runs again without
      // SQLite's parse and plan; it passed compile()'s checks then, and a
      // schema change re-prepares it inside sqlite3_step under the authorizer
      // (read_rows confirms the reads again).
      StmtHandle stmt = conn.statements.take(sql);
      const bool reused = stmt != nullptr;
      if (reused) {
        conn.backstop.arm(options.deadline, options.cancelled);
        if (options.cancelled != nullptr && options.cancelled->load()) return cancelled_error();
        if (Clock::now() >= options.deadline) return deadline_error();
      } else {
        auto compiled = compile(conn, sql, options.deadline, options.cancelled, SQLITE_PREPARE_PERSISTENT);
        if (!compiled) {
          if (slice && compiled.error().code == ErrorCode::BackendUnavailable)  // SQLITE_BUSY: locked by a writer
            return slice_ended(options, RunStats::SliceEnd::Busy);
          return compiled.error();
        }
        stmt = std::move(compiled).value();
      }
      // The progress handler runs every kProgressInterval steps; the slice is a number of its calls.
      if (slice)
        conn.backstop.slice_calls_left = std::max<long long>(1, options.slice_steps / sqlite::kProgressInterval);
      if (auto s = bind(stmt.get(), options.params); !s) return s.error();
      auto rows = read_rows(conn, stmt.get(), options, sql);
      // Read and reset: a kept statement counts each run's steps from zero.
      const std::int64_t steps = sqlite3_stmt_status(stmt.get(), SQLITE_STMTSTATUS_VM_STEP, /*resetFlg=*/1);
      if (options.stats != nullptr) options.stats->vm_steps = steps;
      if (!rows) {
        // The statement is finalized: an error leaves nothing half-known behind.
        if (slice && conn.backstop.slice_hit) return slice_ended(options, RunStats::SliceEnd::Exhausted);
        if (slice && rows.error().code == ErrorCode::BackendUnavailable)
          return slice_ended(options, RunStats::SliceEnd::Busy);
        return rows;
      }
      std::size_t evicted = 0;
      // The schema moved under it (SQLite re-prepared it while stepping): every
      // other kept statement was compiled against the old schema, so all go.
      if (sqlite3_stmt_status(stmt.get(), SQLITE_STMTSTATUS_REPREPARE, /*resetFlg=*/1) > 0)
        evicted += conn.statements.clear();
      evicted += conn.statements.give_back(sql, std::move(stmt));
      if (options.stats != nullptr) {
        options.stats->prepared_reused = reused;
        options.stats->prepared_parsed = !reused;
        options.stats->prepared_evicted += static_cast<int>(evicted);
      }
      return rows;
    });
  }

  Status ping() override {
    return guarded([&]() -> Status {
      auto rows = run("SELECT 1", RunOptions{.max_rows = 1, .deadline = Clock::now() + kPingBudget});
      if (!rows) return rows.error();
      return {};
    });
  }

 private:
  // Prepares one statement under the backstop. Anything but exactly one
  // read-only, non-EXPLAIN statement is refused.
  // `flags`: SQLITE_PREPARE_PERSISTENT for a statement the connection keeps.
  Result<StmtHandle> compile(Connection& conn, const std::string& sql, Deadline deadline,
                             const std::atomic<bool>* cancelled = nullptr, unsigned flags = 0) {
    conn.backstop.arm(deadline, cancelled);
    if (cancelled != nullptr && cancelled->load()) return cancelled_error();
    if (Clock::now() >= deadline) return deadline_error();
    if (sql.size() >= static_cast<std::size_t>(INT_MAX))  // SQLITE_LIMIT_SQL_LENGTH refuses far sooner
      return make_error(ErrorCode::LimitSqlTooLong, "the statement is too long for SQLite");
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    // NO_VTAB: table-valued functions (json_each, pragma_*) and virtual tables
    // do not exist for these statements; introspection refused allowlisting any.
    // Except in a statement admission wrote a generate_series calendar into
    // (pg_series, sqlite_series.cpp): no other virtual table can serve it, since
    // building one on first use declares its schema (a write the authorizer
    // denies) and pg_series alone is built before the authorizer is installed
    // (SqliteExecutorTest.OnlyPgSeriesIsAVirtualTableEvenWhenVirtualTablesAreOn).
    // Likewise a statement admission wrote a jsonb row source into (json_each(pg_json_rows(...)),
    // admission/admit/json_rows.cpp): json_each is built before the authorizer too (sqlite_json_rows.cpp),
    // and the authorizer lets it, alone besides pg_series, be read.
    const bool own_vtab =
        sql.find("pg_series(") != std::string::npos || sql.find("json_each(pg_json_rows(") != std::string::npos;
    const unsigned vtabs = own_vtab ? 0 : SQLITE_PREPARE_NO_VTAB;
    const int rc =
        sqlite3_prepare_v3(conn.db.get(), sql.c_str(), static_cast<int>(sql.size()) + 1, vtabs | flags, &raw, &tail);
    StmtHandle stmt(raw);
    if (rc != SQLITE_OK) return engine_error(conn, rc, sql);
    if (!sqlite::confirm_reads(conn.db.get(), conn.backstop)) return denied_error(conn, sql, false);
    if (!stmt) return make_error(ErrorCode::Internal, "no statement reached the SQLite executor");
    if (!only_whitespace_after(tail, sql))
      return make_error(ErrorCode::Internal, "more than one statement reached the executor");
    // Belt and braces: a no-op REINDEX, say, is "read-only" and fires no
    // authorizer action, but it is no query: no SELECT seen, no result columns.
    if (!sqlite3_stmt_readonly(raw) || sqlite3_stmt_isexplain(raw) != 0 || !conn.backstop.saw_select ||
        sqlite3_column_count(raw) == 0)
      return make_error(ErrorCode::BackendDenied,
                        "the engine backstop denied a statement that is not a plain read-only query",
                        "FIX: send one read-only SELECT");
    return stmt;
  }

  // What a result column is, as far as the catalog knows: the stored column it
  // reads unchanged (sqlite3_column_origin_name, through subqueries too), if any.
  struct Origin {
    const catalog::Column* column = nullptr;
    bool boolean = false;
    bool timestamp = false;  // the column is a timestamp, or admission says the value passes one on
    int numeric_scale = -2;  // admission typed it numeric (RunOptions::columns); -2: not numeric
    bool json = false;       // admission typed it jsonb (RunOptions::columns)
    bool array = false;      // admission typed it an array of the above (RunOptions::columns; sqlite_arrays.hpp)
    std::string type;        // PostgreSQL's name of its type, from admission (RunOptions::columns); empty: unknown
    std::string sample;      // the stored timestamp column's sample text, from admission (no value to tell by)
  };
  std::vector<Origin> origins(sqlite3_stmt* stmt) const {
    std::vector<Origin> out(static_cast<std::size_t>(sqlite3_column_count(stmt)));
    for (std::size_t i = 0; i < out.size(); ++i) {
      const char* table = sqlite3_column_table_name(stmt, static_cast<int>(i));
      const char* column = sqlite3_column_origin_name(stmt, static_cast<int>(i));
      if (table == nullptr || column == nullptr) continue;
      const auto* t = catalog_.find_table(table);
      const auto* c = t ? t->find_column(column, Dialect::Sqlite) : nullptr;
      if (c == nullptr) continue;
      out[i].column = c;
      std::string declared = c->type;
      for (auto& ch : declared) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      out[i].boolean = !c->timestamp && (declared == "BOOLEAN" || declared == "BOOL");
      out[i].timestamp = c->timestamp;
    }
    return out;
  }

  // Binds the statement's parameters by index (?n is params[n - 1]); their
  // number must be the statement's exactly.
  static Status bind(sqlite3_stmt* stmt, const std::vector<Value>& params) {
    if (sqlite3_bind_parameter_count(stmt) != static_cast<int>(params.size()))
      return make_error(ErrorCode::Internal, "the statement has " + std::to_string(sqlite3_bind_parameter_count(stmt)) +
                                                 " parameters but " + std::to_string(params.size()) +
                                                 " values were given");
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      const int rc = std::visit(
          [&](const auto& v) -> int {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>)
              return sqlite3_bind_null(stmt, index);
            else if constexpr (std::is_same_v<T, std::int64_t>)
              return sqlite3_bind_int64(stmt, index, v);
            else if constexpr (std::is_same_v<T, double>)
              return sqlite3_bind_double(stmt, index, v);
            else if constexpr (std::is_same_v<T, std::string>)
              return sqlite3_bind_text64(stmt, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
            else if constexpr (std::is_same_v<T, bool>)
              return sqlite3_bind_int64(stmt, index, v ? 1 : 0);
            else if constexpr (std::is_same_v<T, Blob> || std::is_same_v<T, Decimal> || std::is_same_v<T, Array>)
              return SQLITE_MISMATCH;
            else
              static_assert(sizeof(T) == 0, "bind: every value kind needs its own branch");
          },
          params[i]);
      if (rc != SQLITE_OK)
        return make_error(ErrorCode::Internal, "cannot bind parameter " + std::to_string(index) + " (SQLite code " +
                                                   std::to_string(rc) + ")");
    }
    return {};
  }

  // One cell (or one element of an array) in PostgreSQL's answer format for what admission says the column is.
  // `sample` keeps a timestamp column's first stored text (for its type's name).
  static Status format_cell(Value& v, const Origin& o, std::string& sample, int i) {
    if (o.timestamp) {
      if (const auto* text = std::get_if<std::string>(&v)) {
        if (sample.empty()) sample = *text;
        if (auto pg = sqlite::pg_timestamp_text(*text)) v = std::move(*pg);
      }
    } else if (o.json) {
      // jsonb's output form (sqlite_json.hpp); text that is not JSON (PostgreSQL could not hold it) as stored.
      if (const auto* text = std::get_if<std::string>(&v))
        if (auto doc = sqlite::json_out::parse(*text)) v = sqlite::json_out::jsonb_text(*doc);
    } else if (o.boolean) {
      if (const auto* x = std::get_if<std::int64_t>(&v); x && (*x == 0 || *x == 1)) v = *x == 1;
    } else if (o.numeric_scale > -2) {
      if (const auto* x = std::get_if<double>(&v)) {
        // PostgreSQL's numeric is exact; a double past 2^53 has lost digits (9007199254740993::numeric).
        if (std::abs(*x) >= 9007199254740992.0 && std::isfinite(*x))
          return make_error(ErrorCode::BackendError,
                            "SQLite: querygate: a numeric past 2^53 (9007199254740992) has no exact SQLite value "
                            "(column " +
                                std::to_string(i + 1) + "); PostgreSQL's numeric would answer exactly",
                            kNumericDigitsFix);
        // From 1e15 a double holds no digit after the point for sure (1e15 + 0.3 is ...000.25): a fraction
        // there is not PostgreSQL's; a whole one is exact (below 2^53) and printed in full, not as 1e+15.
        if (std::abs(*x) >= 1e15 && std::isfinite(*x)) {
          if (*x != std::trunc(*x))
            return make_error(ErrorCode::BackendError,
                              "SQLite: querygate: a numeric of 16 or more significant digits with a fraction has "
                              "no exact SQLite value (column " +
                                  std::to_string(i + 1) + "); PostgreSQL's numeric would answer exactly",
                              kNumericDigitsFix);
          std::string whole = std::to_string(static_cast<std::int64_t>(*x));
          if (o.numeric_scale > 0) whole += "." + std::string(static_cast<std::size_t>(o.numeric_scale), '0');
          v = Decimal{std::move(whole)};
        } else if (auto digits = sqlite::pg_numeric_text(*x, o.numeric_scale)) {
          v = Decimal{std::move(*digits)};
        }
      } else if (const auto* w = std::get_if<std::int64_t>(&v); w && o.numeric_scale > 0) {
        v = Decimal{std::to_string(*w) + "." + std::string(static_cast<std::size_t>(o.numeric_scale), '0')};
      } else if (const auto* t = std::get_if<std::string>(&v); t && plain_decimal(*t)) {
        v = Decimal{*t};  // a registered function's exact digits (pg_stddev_samp_exact ...: sqlite_aggregates.cpp)
      }
    }
    return {};
  }

  // Steps until done or `max_rows` rows are read. Stopping early is not an
  // error: the SQL asked for limit + 1 and the caller detects truncation.
  // Values and type names follow PostgreSQL's answer format (answer_format.hpp).
  Result<Rows> read_rows(Connection& conn, sqlite3_stmt* stmt, const RunOptions& options, std::string_view sql) const {
    const std::int64_t max_rows = options.max_rows;
    Rows out;
    out.columns = column_meta(stmt);
    const int n = static_cast<int>(out.columns.size());
    auto origin = origins(stmt);
    if (options.columns != nullptr) {
      const auto& typed = *options.columns;
      for (std::size_t i = 0; i < origin.size() && i < typed.size(); ++i) {
        if (typed[i].boolean) origin[i].boolean = true;
        if (typed[i].timestamp) origin[i].timestamp = true;
        origin[i].sample = typed[i].timestamp_sample;
        origin[i].numeric_scale = typed[i].numeric ? typed[i].numeric_scale : -2;
        origin[i].json = typed[i].json;
        origin[i].array = typed[i].array;
      }
      // PostgreSQL's names: SQLite names an unaliased expression after its text ("lower(name)"); and
      // PostgreSQL's types where admission knows them (1 + 1 is an integer, count(*) a bigint).
      if (typed.size() == out.columns.size())
        for (std::size_t i = 0; i < typed.size(); ++i) {
          out.columns[i].name = typed[i].name;
          origin[i].type = typed[i].type;
        }
    }
    std::vector<std::string> storage(static_cast<std::size_t>(n));
    std::vector<std::string> samples(static_cast<std::size_t>(n));  // a timestamp column's first stored text
    while (max_rows <= 0 || static_cast<std::int64_t>(out.rows.size()) < max_rows) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) return engine_error(conn, rc, sql);
      std::vector<Value> row;
      row.reserve(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        Value v = read_value(stmt, i);
        const auto& o = origin[static_cast<std::size_t>(i)];
        // An array: its text read back, each element formatted as a cell of the element type.
        if (o.array) {
          if (const auto* text = std::get_if<std::string>(&v)) {
            auto array = sqlite::arrays::decode(*text);
            if (!array)
              return make_error(ErrorCode::Internal,
                                "SQLite: querygate: column " + std::to_string(i + 1) + " is not an array's text");
            for (auto& item : array->items)
              if (auto st = format_cell(item, o, samples[static_cast<std::size_t>(i)], i); !st) return st.error();
            v = std::move(*array);
          }
          row.push_back(std::move(v));
          continue;
        }
        if (auto st = format_cell(v, o, samples[static_cast<std::size_t>(i)], i); !st) return st.error();
        // Expressions have no declared type; the first value's storage class stands in.
        if (storage[static_cast<std::size_t>(i)].empty() && !std::holds_alternative<std::monostate>(v))
          storage[static_cast<std::size_t>(i)] = storage_class(sqlite3_column_type(stmt, i));
        row.push_back(std::move(v));
      }
      out.rows.push_back(std::move(row));
    }
    for (int i = 0; i < n; ++i) {
      const auto& o = origin[static_cast<std::size_t>(i)];
      if (o.array) {
        out.columns[i].type = o.type;  // admission's name of the array type: "text[]", "bigint[]", ...
        continue;
      }
      if (o.boolean) {
        out.columns[i].type = "boolean";
        continue;
      }
      if (o.json) {
        out.columns[i].type = "jsonb";
        continue;
      }
      if (o.numeric_scale > -2 && !o.timestamp) {
        out.columns[i].type = "numeric";
        continue;
      }
      if (!o.type.empty() && !o.timestamp) {
        out.columns[i].type = o.type;
        continue;
      }
      out.columns[i].type =
          sqlite::pg_type_name(out.columns[i].type, storage[static_cast<std::size_t>(i)], o.timestamp,
                               o.column                                       ? o.column->timestamp_sample
                               : samples[static_cast<std::size_t>(i)].empty() ? o.sample
                                                                              : samples[static_cast<std::size_t>(i)]);
      // Neither admission nor a stored column nor a value tells (typeof(x) of no rows, sum(NULL)): PostgreSQL's
      // name for a type not resolved, rather than no type (outside tester s20d).
      if (out.columns[i].type.empty()) out.columns[i].type = "unknown";
    }
    // A schema change re-prepares inside sqlite3_step, under the authorizer again.
    if (!sqlite::confirm_reads(sqlite3_db_handle(stmt), conn.backstop)) return denied_error(conn, sql, false);
    return out;
  }

  catalog::Catalog catalog_;
  // The connections' authorizers point into the policy: it is declared before
  // the pool so it outlives every connection.
  std::unique_ptr<sqlite::Policy> policy_;
  sqlite::Pool pool_;
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<std::unique_ptr<Executor>> open(const config::Database& db, SqliteOptions options) {
  if (options.path.empty()) options.path = db.path;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.path, ec))
    return make_error(ErrorCode::BackendUnavailable,
                      "database file '" + options.path.string() + "' does not exist" +
                          (std::filesystem::exists(options.path, ec) ? " as a regular file" : ""),
                      "FIX: point databases." + db.name + ".path at an existing SQLite file");

  // Process-wide: every SQLite database of the gateway shares it.
  if (options.max_heap_bytes > 0) sqlite3_hard_heap_limit64(options.max_heap_bytes);
  std::vector<std::unique_ptr<Connection>> connections;
  for (int i = 0; i < std::max(1, options.connections); ++i) {
    auto conn = sqlite::open_connection(options);
    if (!conn) return std::move(conn).error();
    connections.push_back(std::move(*conn));
  }
  auto found = sqlite::introspect(connections.front()->db.get(), db, options.path);
  if (!found) return std::move(found).error();

  auto policy = std::make_unique<sqlite::Policy>();
  for (const auto& t : found->tables) policy->tables.insert(lower(t.name));
  for (const auto& f : options.allowed_functions) policy->functions.insert(lower(f));
  // A hidden column no virtual column's expression names (as a word) is denied to every read.
  for (const auto& curation : db.tables)
    for (const auto& entry : curation.columns) {
      const std::string& name = entry.first;  // (not a structured binding: clang's lambdas cannot capture one)
      if (!entry.second.hidden) continue;
      const bool read_by_virtual =
          std::any_of(curation.virtual_columns.begin(), curation.virtual_columns.end(), [&](const auto& v) {
            const std::string text = lower(v.second.sqlite);
            const std::string word = lower(name);
            for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
              auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
              const bool starts = at == 0 || !ident(text[at - 1]);
              const bool ends = at + word.size() == text.size() || !ident(text[at + word.size()]);
              if (starts && ends) return true;
            }
            return false;
          });
      if (!read_by_virtual) policy->hidden_columns.emplace(lower(curation.name), lower(name));
    }
  for (auto& conn : connections) sqlite::seal(*conn, *policy);
  return std::unique_ptr<Executor>(
      std::make_unique<SqliteExecutor>(std::move(*found), std::move(policy), std::move(connections)));
}

}  // namespace

Result<std::unique_ptr<Executor>> open_sqlite(const config::Database& db, SqliteOptions options) {
  return guarded([&]() -> Result<std::unique_ptr<Executor>> { return open(db, std::move(options)); });
}

}  // namespace qg::exec
