// The PostgreSQL executor. The settings every statement shares (search_path,
// TimeZone UTC, DateStyle, IntervalStyle, bytea_output, extra_float_digits,
// work_mem, default_transaction_read_only) are the connection's, set once when
// the pool opens it. A statement whose shape the plan gate has admitted costs
// one round trip (pg_pipeline.cpp): its timeouts and read-only flag, its Parse
// the first time this connection sees the text (a server-side prepared
// statement, Bind/Execute after), and Sync, sent together. A shape seen for
// the first time takes the careful path: BEGIN READ ONLY and every SET LOCAL
// in one simple query, EXPLAIN for the plan gate, the statement over the
// extended protocol (which refuses a second statement), and ROLLBACK.
#include "executors/postgres/pg_executor.hpp"

#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>
#include <unordered_map>

#include <pqxx/pqxx>

#include "admission/parse/parser.hpp"
#include "admission/render/render.hpp"
#include "executors/executor_errors.hpp"
#include "executors/postgres/pg_catalog.hpp"
#include "executors/postgres/pg_pipeline.hpp"
#include "executors/postgres/pg_plan_gate.hpp"
#include "executors/postgres/pg_pool.hpp"
#include "executors/postgres/pg_posture.hpp"
#include "executors/postgres/pg_values.hpp"

namespace qg::exec {
namespace {

using pg::Pool;

constexpr auto kPingBudget = std::chrono::seconds(5);

std::string quote_literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// The engine's words: the primary message only (the connections are terse, see
// pg_pool.cpp: no DETAIL, HINT, CONTEXT or LINE excerpt, which quote data
// unquoted), any value from the data withheld (engine_words), without the
// position in querygate's text of the statement.
EngineWords postgres_words(const pqxx::sql_error& e, const std::string& sql) {
  EngineWords words = engine_words(e.what(), sql);
  words.text = pg::one_line(std::move(words.text));
  if (const auto at = words.text.rfind(" at character ");
      at != std::string::npos && words.text.find_first_not_of("0123456789", at + 14) == std::string::npos &&
      at + 14 < words.text.size())
    words.text.resize(at);
  return words;
}

// The engine's refusal, mapped by SQLSTATE to the code an agent can act on.
// `sql` is the text that ran (quoted values it holds are the statement's own).
Error sql_error(const pqxx::sql_error& e, bool cancelled, const std::string& sql) {
  const std::string state = e.sqlstate();
  const EngineWords words = postgres_words(e, sql);
  const std::string message = "PostgreSQL: " + words.text;
  if (state == "57014") return cancelled ? cancelled_error() : deadline_error();
  if (state == "25006" || state == "42501")
    return make_error(ErrorCode::BackendDenied, "the engine backstop denied the statement (" + message + ")",
                      "FIX: send one read-only SELECT over the tables the schema description lists");
  if (state == "54001")
    return make_error(ErrorCode::ValidationTooDeep, message,
                      "FIX: nest less: compute inner values in a subquery or CTE, and use IN (...) instead of long OR "
                      "chains.");
  if (state.starts_with("53") || state == "54000")
    return make_error(ErrorCode::LimitRowTooLarge, message,
                      "FIX: ask for less: aggregate with GROUP BY, select fewer or shorter columns, or add a LIMIT");
  if (state.starts_with("08") || state.starts_with("57P")) return pg::unavailable_error("PostgreSQL", e.what());
  return make_error(ErrorCode::BackendError, message,
                    words.withheld ? fix_for_data_value(state) : fix_for_sqlstate(state, message));
}

template <typename Fn>
auto guarded(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::exception& e) {
    return make_error(ErrorCode::Internal, "PostgreSQL executor: " + engine_words(e.what(), {}).text);
  }
}

// The statement's parameter values as the extended protocol's text format,
// with no declared type (PostgreSQL infers each from where it stands; see
// RunOptions::params). Null is a null pointer.
class BoundParams {
 public:
  BoundParams() = default;
  BoundParams(BoundParams&&) = default;  // the strings stay where pointers_ points (a vector's move keeps its buffer)
  BoundParams(const BoundParams&) = delete;
  BoundParams& operator=(const BoundParams&) = delete;
  BoundParams& operator=(BoundParams&&) = delete;
  static Result<BoundParams> of(const std::vector<Value>& values) {
    BoundParams out;
    out.texts_.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::optional<std::string> text;
      bool refused = false;
      std::visit(
          [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
              // null
            } else if constexpr (std::is_same_v<T, std::int64_t>) {
              text = std::to_string(v);
            } else if constexpr (std::is_same_v<T, double>) {
              if (!std::isfinite(v)) {
                refused = true;
              } else {
                char buf[64];
                auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
                if (ec != std::errc())
                  refused = true;
                else
                  text = std::string(buf, end);
              }
            } else if constexpr (std::is_same_v<T, std::string>) {
              if (v.find('\0') != std::string::npos)
                refused = true;  // PostgreSQL text holds no NUL
              else
                text = v;
            } else if constexpr (std::is_same_v<T, bool>) {
              text = v ? "true" : "false";
            } else if constexpr (std::is_same_v<T, Blob> || std::is_same_v<T, Decimal> || std::is_same_v<T, Array>) {
              refused = true;
            } else {
              static_assert(sizeof(T) == 0, "BoundParams: every value kind needs its own branch");
            }
          },
          values[i]);
      if (refused)
        return make_error(ErrorCode::ValidationUnsupported,
                          "parameter " + std::to_string(i + 1) + " has a value PostgreSQL cannot take as a parameter",
                          "FIX: pass an integer, a finite number, text without NUL characters, a boolean or null.");
      out.texts_.push_back(std::move(text));
    }
    for (const auto& t : out.texts_) out.pointers_.push_back(t ? t->c_str() : nullptr);
    return out;
  }
  auto dynamic() const { return pqxx::prepare::make_dynamic_params(pointers_); }
  const std::vector<const char*>& pointers() const { return pointers_; }

 private:
  std::vector<std::optional<std::string>> texts_;
  std::vector<const char*> pointers_;
};

class PostgresExecutor final : public Executor {
 public:
  PostgresExecutor(catalog::Catalog found, std::unique_ptr<Pool> pool, pg::PlanPolicy policy,
                   std::unordered_map<unsigned, std::string> type_names,
                   std::unordered_map<unsigned, unsigned> array_elements, std::string schema, std::string work_mem,
                   std::string what)
      : catalog_(std::move(found)),
        pool_(std::move(pool)),
        policy_(std::move(policy)),
        type_names_(std::move(type_names)),
        array_elements_(std::move(array_elements)),
        schema_(std::move(schema)),
        work_mem_(std::move(work_mem)),
        what_(std::move(what)) {}

  const catalog::Catalog& catalog() const override { return catalog_; }

  Result<std::vector<ColumnMeta>> prepare(const std::string& sql, Deadline deadline,
                                          const std::vector<Value>& params = {}) override {
    // Planned and started under LIMIT 0: the columns, with no rows read.
    auto rows = execute("SELECT * FROM (" + sql + ") AS qg_validate LIMIT 0", sql,
                        RunOptions{.max_rows = 0, .deadline = deadline, .params = params}, false);
    if (!rows) return rows.error();
    return std::move(rows->columns);
  }

  Result<Rows> run(const std::string& sql, const RunOptions& options) override {
    return execute(sql, sql, options, true);
  }

  void set_bound_row_filters(const std::vector<BoundRowFilter>& filters) override {
    policy_.bound_filters.clear();
    for (const auto& f : filters) policy_.bound_filters[f.table] = pg::PlanPolicy::BoundFilter{f.columns, f.subquery};
  }

  Status ping() override {
    auto rows = run("SELECT 1", RunOptions{.max_rows = 1, .deadline = Clock::now() + kPingBudget});
    if (!rows) return rows.error();
    return {};
  }

 private:
  // Everything a statement may change is SET LOCAL, so ROLLBACK undoes it.
  std::string preamble(std::chrono::milliseconds budget) const {
    const std::string ms = std::to_string(std::max<long long>(1, budget.count()));
    return "BEGIN READ ONLY; SET LOCAL statement_timeout = " + ms + "; SET LOCAL lock_timeout = " + ms +
           "; SET LOCAL search_path = " + render::quote_identifier(schema_, Dialect::Postgres) +
           "; SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, MDY'; SET LOCAL IntervalStyle = 'postgres'"
           "; SET LOCAL bytea_output = 'hex'; SET LOCAL extra_float_digits = 1; SET LOCAL work_mem = " +
           quote_literal(work_mem_);
  }

  // `gated` is the statement the plan gate looks at (the rendered SQL; for
  // prepare(), without the LIMIT 0 wrapper).
  Result<Rows> execute(const std::string& sql, const std::string& gated, const RunOptions& options,
                       bool want_estimate) {
    return guarded([&]() -> Result<Rows> {
      if (options.cancelled != nullptr && options.cancelled->load()) return cancelled_error();
      auto lease = pool_->borrow(options.deadline);
      if (!lease) return lease.error();
      // A connection that died while idle (server restart) fails in the
      // preamble, before anything ran: reconnect once and go on.
      // A prepared statement whose plan no longer fits the tables (0A000, the
      // schema changed) was evicted: run it again once, prepared afresh.
      for (int attempt = 0;; ++attempt) {
        bool started = false;
        bool again = false;
        auto result = attempt_once(*lease, sql, gated, options, want_estimate, started, again);
        if (again && attempt == 0) continue;
        if (result || result.error().code != ErrorCode::BackendUnavailable || started || attempt > 0) return result;
        if (auto s = lease->reconnect(); !s) return s.error();
      }
    });
  }

  Result<Rows> attempt_once(Pool::Lease& lease, const std::string& sql, const std::string& gated,
                            const RunOptions& options, bool want_estimate, bool& started, bool& again) {
    auto bound = BoundParams::of(options.params);
    if (!bound) return bound.error();
    const auto budget = std::chrono::duration_cast<std::chrono::milliseconds>(options.deadline - Clock::now());
    if (budget.count() <= 0) return deadline_error();
    const bool cancellable = options.cancelled != nullptr;
    // The request's one fingerprint (the api computed it with the admission); computed here only without one.
    const std::string shape = options.shape.empty() ? parse::fingerprint(gated) : "caller:" + options.shape;
    if (!shape.empty() && plan_cache_.admitted(shape))
      return run_fast(lease, sql, gated, options, *bound, budget, want_estimate, started, again);
    if (options.stats != nullptr) options.stats->round_trips += 3;  // preamble, statement, ROLLBACK
    try {
      pqxx::nontransaction tx(lease.conn());
      tx.exec(preamble(budget));
      auto outcome = [&]() -> Result<Rows> {
        try {
          std::optional<double> estimate;
          {
            if (options.stats != nullptr) options.stats->round_trips += 1;  // EXPLAIN
            auto gate = check_plan(tx, gated, *bound);
            if (!gate) return gate.error();
            estimate = gate->estimated_rows;
            if (!shape.empty() && !pg::has_text_aggregate(*gate, policy_)) plan_cache_.remember_admitted(shape);
          }
          if (cancellable) lease.slot().watch(options.cancelled);
          started = true;
          const pqxx::result r = tx.exec_params(sql, bound->dynamic());
          lease.slot().unwatch();
          Rows rows = read_rows(
              static_cast<int>(r.columns()), [&](int j) { return static_cast<unsigned>(r.column_type(j)); },
              [&](int j) { return std::string(r.column_name(j)); }, r.size(),
              [&](std::size_t i, int j) -> std::optional<std::string_view> {
                const auto field = r[static_cast<pqxx::result::size_type>(i)][j];
                if (field.is_null()) return std::nullopt;
                return std::string_view(field.c_str(), field.size());
              },
              options.max_rows);
          const bool truncated = options.max_rows > 0 && static_cast<std::int64_t>(r.size()) >= options.max_rows;
          if (truncated && want_estimate) {
            if (!estimate) estimate = estimate_rows(tx, gated, *bound);
            rows.estimated_rows = estimate;
          }
          return rows;
        } catch (const pqxx::broken_connection&) {
          throw;
        } catch (const pqxx::sql_error& e) {
          lease.slot().unwatch();
          return sql_error(e, cancellable && options.cancelled->load(), sql);
        }
      }();
      tx.exec("ROLLBACK");
      return outcome;
    } catch (const pqxx::broken_connection& e) {
      lease.slot().unwatch();
      lease.discard();
      return pg::unavailable_error(what_, e.what());
    } catch (const pqxx::sql_error& e) {
      // The preamble or ROLLBACK failed: the session's state is unknown.
      lease.slot().unwatch();
      lease.discard();
      return sql_error(e, cancellable && options.cancelled->load(), sql);
    } catch (const std::exception& e) {
      lease.slot().unwatch();
      lease.discard();
      return make_error(ErrorCode::Internal, "PostgreSQL executor: " + engine_words(e.what(), sql).text);
    }
  }

  Result<pg::PlanFacts> check_plan(pqxx::nontransaction& tx, const std::string& sql, const BoundParams& bound) {
    // With the values bound, so the plan is the one the statement gets (and the planner sees the filter).
    const pqxx::result r = tx.exec_params("EXPLAIN (FORMAT JSON, VERBOSE) " + sql, bound.dynamic());
    if (r.empty()) return make_error(ErrorCode::Internal, "EXPLAIN returned no plan");
    auto facts = pg::read_plan(r[0][0].c_str());
    if (!facts) return facts.error();
    if (auto violation = pg::plan_violation(*facts, policy_)) {
      // Admission let through what the plan shows it should not have: a defect to fix, said loudly.
      std::cerr << "querygate: ADMISSION DEFECT caught by the plan gate on " << what_ << ": " << *violation
                << "; statement fingerprint " << parse::fingerprint(sql) << "\n";
      return make_error(
          ErrorCode::BackendPlanGate, "the plan gate refused the statement: " + *violation,
          "FIX: query only the tables GET /v1/schema lists and the functions GET /v1/schema?detail=functions "
          "lists; this refusal is "
          "also reported to the operator as a gateway defect");
    }
    if (auto violation = pg::row_filter_violation(*facts, policy_)) {
      // Admission attaches a bound row filter to every reference: a plan without it is a defect, never run.
      std::cerr << "querygate: ADMISSION DEFECT caught by the plan gate on " << what_ << ": " << *violation
                << "; statement fingerprint " << parse::fingerprint(sql) << "\n";
      return make_error(ErrorCode::Internal,
                        "ADMISSION DEFECT: the plan gate refused the statement: " + *violation +
                            " (a key-bound row filter must restrict every read of the table)",
                        "FIX: this is a gateway defect, reported to the operator; the statement was not run.");
    }
    if (auto refusal = pg::aggregate_violation(*facts, policy_)) return std::move(*refusal);
    return facts;
  }

  std::optional<double> estimate_rows(pqxx::nontransaction& tx, const std::string& sql, const BoundParams& bound) {
    const pqxx::result r = tx.exec_params("EXPLAIN (FORMAT JSON) " + sql, bound.dynamic());
    if (r.empty()) return std::nullopt;
    auto facts = pg::read_plan(r[0][0].c_str());
    return facts ? facts->estimated_rows : std::nullopt;
  }

  // The answer's columns and cells, read through `type(j)`, `name(j)` and
  // `cell(i, j)` (the text, or nullopt for NULL): the same for libpqxx's
  // result (the careful path) and libpq's (the pipeline).
  template <typename Type, typename Name, typename Cell>
  Rows read_rows(int n, Type type, Name name, std::size_t size, Cell cell, std::int64_t max_rows) const {
    Rows out;
    std::vector<unsigned> types;
    for (int i = 0; i < n; ++i) {
      const unsigned t = type(i);
      types.push_back(t);
      auto it = type_names_.find(t);
      out.columns.push_back({name(i), it == type_names_.end() ? std::string() : it->second});
    }
    const std::size_t keep = max_rows > 0 ? std::min<std::size_t>(size, static_cast<std::size_t>(max_rows)) : size;
    out.rows.reserve(keep);
    for (std::size_t i = 0; i < keep; ++i) {
      std::vector<Value> values;
      values.reserve(static_cast<std::size_t>(n));
      for (int j = 0; j < n; ++j) {
        const std::optional<std::string_view> text = cell(i, j);
        if (!text)
          values.emplace_back(std::monostate{});
        else if (const auto array = array_elements_.find(types[static_cast<std::size_t>(j)]);
                 array != array_elements_.end())
          values.push_back(pg::read_array(array->second, *text));
        else
          values.push_back(pg::read_value(types[static_cast<std::size_t>(j)], *text));
      }
      out.rows.push_back(std::move(values));
    }
    // numeric digits no JSON number holds exactly came back as text: say so, once per column.
    for (int j = 0; j < n; ++j) {
      const auto col = static_cast<std::size_t>(j);
      if (types[col] != pg::oid::kNumeric) continue;
      for (const auto& row : out.rows)
        if (std::holds_alternative<std::string>(row[col])) {
          out.notes.push_back("Column " + out.columns[col].name +
                              ": numeric values with more integer digits than a JSON number holds exactly (beyond "
                              "64-bit integers, or over 15 integer digits with a fraction) are sent as strings of "
                              "their exact digits.");
          break;
        }
    }
    return out;
  }

  Rows read_rows(const PGresult* r, std::int64_t max_rows) const {
    return read_rows(
        PQnfields(r), [&](int j) { return static_cast<unsigned>(PQftype(r, j)); },
        [&](int j) { return std::string(PQfname(r, j)); }, static_cast<std::size_t>(PQntuples(r)),
        [&](std::size_t i, int j) -> std::optional<std::string_view> {
          const int row = static_cast<int>(i);
          if (PQgetisnull(r, row, j)) return std::nullopt;
          return std::string_view(PQgetvalue(r, row, j), static_cast<std::size_t>(PQgetlength(r, row, j)));
        },
        max_rows);
  }

  // A statement whose shape the plan gate admitted: one round trip, prepared on the connection.
  Result<Rows> run_fast(Pool::Lease& lease, const std::string& sql, const std::string& gated, const RunOptions& options,
                        const BoundParams& bound, std::chrono::milliseconds budget, bool want_estimate, bool& started,
                        bool& again) {
    const bool cancellable = options.cancelled != nullptr;
    if (cancellable) lease.slot().watch(options.cancelled);
    pg::PipelineOutcome out = pg::run_pipelined(lease.slot(), sql, bound.pointers(), budget, true, options.stats);
    lease.slot().unwatch();
    started = out.answered;
    if (!out.broken.empty()) {
      lease.discard();
      return pg::unavailable_error(what_, out.broken);
    }
    if (out.discard) lease.discard();  // after this answer: what is prepared on it is no longer known
    if (out.error) {
      again = out.schema_moved;
      return sql_error(*out.error, cancellable && options.cancelled->load(), sql);
    }
    Rows rows = read_rows(out.rows.get(), options.max_rows);
    const bool truncated =
        options.max_rows > 0 && static_cast<std::int64_t>(PQntuples(out.rows.get())) >= options.max_rows;
    if (truncated && want_estimate && !out.discard) rows.estimated_rows = estimate_fast(lease, gated, bound, options);
    return rows;
  }

  // The planner's estimate for the truncation notice: one more round trip, only for a cut answer.
  std::optional<double> estimate_fast(Pool::Lease& lease, const std::string& gated, const BoundParams& bound,
                                      const RunOptions& options) {
    const auto budget = std::chrono::duration_cast<std::chrono::milliseconds>(options.deadline - Clock::now());
    if (budget.count() <= 0) return std::nullopt;
    pg::PipelineOutcome out = pg::run_pipelined(lease.slot(), "EXPLAIN (FORMAT JSON) " + gated, bound.pointers(),
                                                budget, false, options.stats);
    if (!out.broken.empty()) {
      lease.discard();
      return std::nullopt;
    }
    if (!out.rows || PQntuples(out.rows.get()) < 1) return std::nullopt;
    auto facts = pg::read_plan(PQgetvalue(out.rows.get(), 0, 0));
    return facts ? facts->estimated_rows : std::nullopt;
  }

  catalog::Catalog catalog_;
  std::unique_ptr<Pool> pool_;
  pg::PlanPolicy policy_;
  pg::PlanCache plan_cache_;
  std::unordered_map<unsigned, std::string> type_names_;
  std::unordered_map<unsigned, unsigned> array_elements_;  // an array type's element type (pg_values.hpp)
  std::string schema_;
  std::string work_mem_;
  std::string what_;
};

Result<std::unique_ptr<Executor>> open(const config::Database& db, PostgresOptions options) {
  const std::string what = "PostgreSQL database '" + db.name + "'";
  std::unique_ptr<pqxx::connection> conn;
  try {
    conn = std::make_unique<pqxx::connection>(options.dsn);
  } catch (const std::exception& e) {
    Error error = pg::unavailable_error(what, e.what());
    error.fix = "FIX: check databases." + db.name +
                (db.dsn_env.empty() ? ".dsn" : " (environment variable " + db.dsn_env + ")") +
                " and that the server is running and reachable";
    return error;
  }
  auto found = pg::introspect(*conn, db);
  if (!found) return found.error();

  const pg::Posture posture = pg::check_posture(*conn, *found, db.schema);
  for (const auto& w : posture.warnings) std::cerr << "querygate: warning: " << what << ": " << w << "\n";
  if (!posture.problems.empty()) {
    std::string list;
    for (const auto& p : posture.problems) list += (list.empty() ? "" : "; ") + p;
    if (!db.allow_privileged_role)
      return make_error(ErrorCode::ConfigInvalid,
                        what + ": refusing to start, because the role can do more than read: " + list,
                        "FIX: connect as a role that may only SELECT the allowlisted tables (CREATE ROLE reader "
                        "LOGIN; GRANT USAGE ON SCHEMA " +
                            db.schema + " TO reader; GRANT SELECT ON <each table> TO reader), or set databases." +
                            db.name + ".allow_privileged_role: true to accept the risk");
    std::cerr << "querygate: WARNING: " << what
              << " runs with a PRIVILEGED role (allow_privileged_role: true): " << list
              << ". Only the gateway's own checks stand between agents and writes.\n";
  }

  std::unordered_map<unsigned, std::string> type_names;
  std::unordered_map<unsigned, unsigned> array_elements;
  {
    pqxx::nontransaction tx(*conn);
    // An array type's element type (read by array_in, its elements delimited by ','): its cells are read as
    // arrays (pg_values.hpp).
    for (const auto& row :
         tx.exec("SELECT t.oid::int8, format_type(t.oid, NULL), CASE WHEN t.typinput = 'pg_catalog.array_in'::regproc "
                 "AND e.typdelim = ',' THEN e.oid::int8 ELSE 0 END FROM pg_catalog.pg_type t LEFT JOIN "
                 "pg_catalog.pg_type e ON e.oid = t.typelem")) {
      const auto oid = static_cast<unsigned>(row[0].as<long long>());
      type_names.emplace(oid, row[1].c_str());
      if (const auto element = row[2].as<long long>(); element != 0)
        array_elements.emplace(oid, static_cast<unsigned>(element));
    }
  }
  conn.reset();  // the pool opens its own, lazily, and heals them

  pg::PlanPolicy policy;
  policy.schema = db.schema;
  for (const auto& t : found->tables) policy.tables.insert(t.name);
  policy.functions = std::move(options.functions);
  policy.text_aggregates = std::move(options.text_aggregates);
  policy.max_aggregate_bytes = static_cast<double>(options.max_aggregate_bytes);
  // The settings every statement shares, once per connection (a statement
  // cannot change them: SET and set_config are not SQL admission lets through).
  const std::string session = "SET search_path = " + render::quote_identifier(db.schema, Dialect::Postgres) +
                              "; SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'; SET IntervalStyle = 'postgres'"
                              "; SET bytea_output = 'hex'; SET extra_float_digits = 1; SET work_mem = " +
                              quote_literal(options.work_mem) + "; SET default_transaction_read_only = on";
  auto pool = std::make_unique<Pool>(options.dsn, options.connections, what, session);
  return std::unique_ptr<Executor>(
      std::make_unique<PostgresExecutor>(std::move(*found), std::move(pool), std::move(policy), std::move(type_names),
                                         std::move(array_elements), db.schema, options.work_mem, what));
}

}  // namespace

Result<std::unique_ptr<Executor>> open_postgres(const config::Database& db, PostgresOptions options) {
  return guarded([&]() -> Result<std::unique_ptr<Executor>> { return open(db, std::move(options)); });
}

}  // namespace qg::exec
