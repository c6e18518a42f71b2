#include "evaluate.hpp"

#include <system_error>

#include "compare.hpp"
#include "direct_sqlite.hpp"
#include "executors/sqlite/answer_format.hpp"
#include "fixes.hpp"
#include "sql_tokens.hpp"

namespace fidelity {
namespace {

// A statement with many double-quoted strings needs one FIX per string.
constexpr int kMaxFixes = 16;
constexpr std::size_t kRowsShown = 3;

std::vector<std::string> first_rows(const qg::exec::Rows& rows) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::min(kRowsShown, rows.rows.size()); ++i) out.push_back(format_row(rows.rows[i]));
  if (rows.rows.empty()) out.emplace_back("(no rows)");
  return out;
}

std::string column_names(const qg::exec::Rows& rows) {
  std::string out;
  for (const auto& c : rows.columns) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

// SQLite's direct answer in the gateway's answer format: a column the gateway
// answered as boolean has its 0/1 read as booleans, a timestamp column its
// text as PostgreSQL prints it (executors/sqlite/answer_format.hpp).
void conform_to_gateway(qg::exec::Rows& direct, const qg::exec::Rows& gateway) {
  for (std::size_t c = 0; c < gateway.columns.size() && c < direct.columns.size(); ++c) {
    const std::string& type = gateway.columns[c].type;
    const bool boolean = type == "boolean";
    const bool timestamp = type.rfind("timestamp", 0) == 0;
    if (!boolean && !timestamp) continue;
    for (auto& row : direct.rows) {
      auto& v = row[c];
      if (const auto* i = std::get_if<std::int64_t>(&v); boolean && i && (*i == 0 || *i == 1)) v = *i == 1;
      if (const auto* t = std::get_if<std::string>(&v); timestamp && t)
        if (auto pg = qg::exec::sqlite::pg_timestamp_text(*t)) v = std::move(*pg);
    }
  }
}

}  // namespace

std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::DbMissing:
      return "db-missing";
    case Outcome::NotRunnable:
      return "not-runnable";
    case Outcome::Identical:
      return "identical";
    case Outcome::Different:
      return "different";
    case Outcome::EngineError:
      return "engine-error";
    case Outcome::FixedIdentical:
      return "fixed-identical";
    case Outcome::FixedDifferent:
      return "fixed-different";
    case Outcome::FixedEngineError:
      return "fixed-engine-error";
    case Outcome::NotFixable:
      return "not-fixable";
  }
  return "?";
}

bool admitted_as_sent(Outcome o) {
  return o == Outcome::Identical || o == Outcome::Different || o == Outcome::EngineError;
}

bool admitted_after_fix(Outcome o) {
  return o == Outcome::FixedIdentical || o == Outcome::FixedDifferent || o == Outcome::FixedEngineError;
}

qg::Result<qg::exec::Rows> Evaluator::direct(const GoldQuery& query, bool& db_missing) {
  db_missing = false;
  if (!query.pg_dsn.empty()) {
    auto it = direct_pg_.find(query.pg_dsn);
    if (it == direct_pg_.end()) {
      auto opened = DirectPostgres::open(query.pg_dsn);
      if (!opened) {
        db_missing = true;
        return std::move(opened).error();
      }
      it = direct_pg_.emplace(query.pg_dsn, std::move(opened).value()).first;
    }
    return it->second->run(query.sql);
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(query.db_path, ec)) {
    db_missing = true;
    return qg::make_error(qg::ErrorCode::BackendUnavailable, "no file " + query.db_path.filename().string());
  }
  auto direct_db = DirectSqlite::open(query.db_path);
  return direct_db ? direct_db->run(query.sql) : qg::Result<qg::exec::Rows>(direct_db.error());
}

Record Evaluator::evaluate(const std::string& dataset, const GoldQuery& query) {
  Record r;
  r.dataset = dataset;
  r.query = &query;

  // The reference first: a gold query its own engine rejects measures nothing.
  bool db_missing = false;
  auto direct = this->direct(query, db_missing);
  if (!direct) {
    r.outcome = db_missing ? Outcome::DbMissing : Outcome::NotRunnable;
    r.direct_error = direct.error().message;
    return r;
  }

  auto executor = query.pg_dsn.empty() ? gateway_.executor(query.db_id, query.db_path)
                                       : gateway_.postgres_executor(query.db_id, query.pg_dsn);
  if (!executor) {
    // The gateway cannot open a DB the direct side opens: every query of it is a gateway failure.
    r.outcome = Outcome::EngineError;
    r.engine_error = executor.error();
    return r;
  }

  r.sent_sql = query.sql;
  GatewayRun run = gateway_.run(**executor, r.sent_sql);
  if (run.refusal) r.first_refusal = run.refusal;
  while (run.refusal && static_cast<int>(r.fixes.size()) < kMaxFixes) {
    auto fixed = apply_fix(r.sent_sql, *run.refusal);
    if (!fixed) break;
    r.fixes.push_back(fixed->name);
    r.sent_sql = std::move(fixed->sql);
    run = gateway_.run(**executor, r.sent_sql);
  }
  const bool fixed = !r.fixes.empty();
  if (run.refusal) {
    r.outcome = Outcome::NotFixable;
    r.final_refusal = run.refusal;
    return r;
  }
  r.rendered = run.rendered;
  r.rewrites = run.rewrites;
  if (run.engine_error) {
    r.outcome = fixed ? Outcome::FixedEngineError : Outcome::EngineError;
    r.engine_error = run.engine_error;
    return r;
  }
  // The gateway answers in PostgreSQL's format (issue #12): booleans, and
  // timestamps as PostgreSQL prints them. SQLite's own answer is read the same
  // way, column by column as the gateway typed them, before comparing.
  if (query.pg_dsn.empty()) conform_to_gateway(*direct, run.rows);
  // Order matters only when the gold SQL orders its outermost result.
  r.ordered = has_top_level_order_by(query.sql);
  const auto cmp = compare_rows(run.rows, *direct, r.ordered);
  r.rows_compared = direct->rows.size();
  r.names = compare_column_names(run.rows, *direct);
  if (r.names != NameMatch::Exact) {
    r.gateway_names = column_names(run.rows);
    r.direct_names = column_names(*direct);
  }
  if (cmp.same && !run.truncated) {
    r.outcome = fixed ? Outcome::FixedIdentical : Outcome::Identical;
    return r;
  }
  r.outcome = fixed ? Outcome::FixedDifferent : Outcome::Different;
  r.difference = run.truncated ? "the gateway truncated the result" : cmp.why;
  r.gateway_rows = first_rows(run.rows);
  r.direct_rows = first_rows(*direct);
  return r;
}

}  // namespace fidelity
