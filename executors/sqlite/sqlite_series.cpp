// pg_series(start, stop, step, kind): PostgreSQL's generate_series(timestamp,
// timestamp, interval) / (timestamptz, timestamptz, interval) as an eponymous
// table-valued function on SQLite connections. Admission
// (admission/admit/series_on_sqlite.cpp) writes it in FROM, after the derived
// table whose columns it reads. PostgreSQL's semantics (generate_series_timestamp):
// the step is added to the previous value (2026-01-31 + 1 mon is 02-28, then
// 03-28), the stop is inclusive, a negative step counts down, a zero step is
// an error, a NULL argument gives no rows. A series longer than kMaxRows fails
// the statement (never cut short). Values are querygate's JSON form of `kind`.
#include <sqlite3.h>

#include <string>
#include <vector>

#include "common/pg_time.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

using pgtime::Kind;
using pgtime::Value;

constexpr std::size_t kMaxRows = 100'000;
constexpr int kValue = 0, kStart = 1, kStop = 2, kStep = 3, kKind = 4;

struct SeriesTab {
  sqlite3_vtab base;
};

struct SeriesCursor {
  sqlite3_vtab_cursor base;
  std::vector<std::string> rows;
  std::size_t at = 0;
};

int x_connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(value, start HIDDEN, stop HIDDEN, step HIDDEN, kind HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* tab = static_cast<SeriesTab*>(sqlite3_malloc(sizeof(SeriesTab)));
  if (!tab) return SQLITE_NOMEM;
  *tab = {};
  *out = &tab->base;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  return SQLITE_OK;
}

int x_disconnect(sqlite3_vtab* tab) {
  sqlite3_free(tab);
  return SQLITE_OK;
}

// All four arguments are required, as equality constraints SQLite can hand to xFilter.
int x_best_index(sqlite3_vtab*, sqlite3_index_info* info) {
  int found[5] = {-1, -1, -1, -1, -1};
  bool unusable = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < kStart || c.iColumn > kKind || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) {
      unusable = true;
      continue;
    }
    found[c.iColumn] = i;
  }
  for (int col = kStart; col <= kKind; ++col)
    if (found[col] < 0) {
      if (unusable) return SQLITE_CONSTRAINT;  // another join order will supply it
      info->idxNum = 0;
      info->estimatedCost = 1e99;
      return SQLITE_OK;
    }
  for (int col = kStart; col <= kKind; ++col) {
    info->aConstraintUsage[found[col]].argvIndex = col;
    info->aConstraintUsage[found[col]].omit = 1;
  }
  info->idxNum = 1;
  info->estimatedCost = 1000;
  info->estimatedRows = 1000;
  return SQLITE_OK;
}

int x_open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) SeriesCursor();
  if (!cursor) return SQLITE_NOMEM;
  *out = &cursor->base;
  return SQLITE_OK;
}

int x_close(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<SeriesCursor*>(c);
  return SQLITE_OK;
}

int fail(sqlite3_vtab_cursor* c, const std::string& error) {
  sqlite3_free(c->pVtab->zErrMsg);
  c->pVtab->zErrMsg = sqlite3_mprintf("%s", error.c_str());
  return SQLITE_ERROR;
}

std::string text_of(sqlite3_value* v) {
  const auto* t = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return t ? std::string(t, static_cast<std::size_t>(sqlite3_value_bytes(v))) : std::string();
}

int x_filter(sqlite3_vtab_cursor* c, int idx, const char*, int argc, sqlite3_value** argv) {
  auto* cursor = reinterpret_cast<SeriesCursor*>(c);
  cursor->rows.clear();
  cursor->at = 0;
  if (idx != 1 || argc != 4) return fail(c, "querygate: pg_series(start, stop, step, kind) needs its four arguments");
  for (int i = 0; i < 3; ++i)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return SQLITE_OK;  // strict: no rows
  const auto kind = pgtime::kind_from_name(text_of(argv[3]));
  if (kind != Kind::Timestamptz && kind != Kind::Timestamp) return fail(c, "querygate: unknown series kind");
  Value start, stop, step;
  std::string error;
  if (!pgtime::parse(text_of(argv[0]), *kind, start, error) || !pgtime::parse(text_of(argv[1]), *kind, stop, error) ||
      !pgtime::parse(text_of(argv[2]), Kind::Interval, step, error))
    return fail(c, error);
  const std::int64_t sign = pgtime::sort_key(step);
  if (sign == 0) return fail(c, "step size cannot equal zero");
  Value current = start;
  while (sign > 0 ? current.micros <= stop.micros : current.micros >= stop.micros) {
    if (cursor->rows.size() >= kMaxRows)
      return fail(c, "querygate: generate_series() would make more than " + std::to_string(kMaxRows) +
                         " rows; narrow the range or widen the step");
    std::string out;
    if (!pgtime::format(current, out, error)) return fail(c, error);
    cursor->rows.push_back(std::move(out));
    Value next;
    if (!pgtime::add_interval(current, step.interval, 1, next, error)) return fail(c, error);
    current = next;
  }
  return SQLITE_OK;
}

int x_next(sqlite3_vtab_cursor* c) {
  ++reinterpret_cast<SeriesCursor*>(c)->at;
  return SQLITE_OK;
}

int x_eof(sqlite3_vtab_cursor* c) {
  const auto* cursor = reinterpret_cast<SeriesCursor*>(c);
  return cursor->at >= cursor->rows.size();
}

int x_column(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int column) {
  const auto* cursor = reinterpret_cast<SeriesCursor*>(c);
  if (column != kValue) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  const std::string& v = cursor->rows[cursor->at];
  sqlite3_result_text(ctx, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return SQLITE_OK;
}

int x_rowid(sqlite3_vtab_cursor* c, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(reinterpret_cast<SeriesCursor*>(c)->at) + 1;
  return SQLITE_OK;
}

sqlite3_module make_module() {
  sqlite3_module m{};
  m.iVersion = 0;
  m.xCreate = nullptr;  // eponymous only: no CREATE VIRTUAL TABLE
  m.xConnect = x_connect;
  m.xBestIndex = x_best_index;
  m.xDisconnect = x_disconnect;
  m.xDestroy = x_disconnect;
  m.xOpen = x_open;
  m.xClose = x_close;
  m.xFilter = x_filter;
  m.xNext = x_next;
  m.xEof = x_eof;
  m.xColumn = x_column;
  m.xRowid = x_rowid;
  return m;
}

const sqlite3_module kModule = make_module();

}  // namespace

bool register_series(sqlite3* db) {
  if (sqlite3_create_module(db, "pg_series", &kModule, nullptr) != SQLITE_OK) return false;
  // Connected once now, before the authorizer is installed: declaring its schema is a write to
  // sqlite_master the authorizer (rightly) denies; the eponymous table then lives as long as the connection.
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db, "SELECT value FROM pg_series(NULL, NULL, NULL, NULL)", -1, &stmt, nullptr);
  sqlite3_finalize(stmt);
  return rc == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
