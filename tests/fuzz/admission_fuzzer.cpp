// libFuzzer target: agent SQL through parse → convert → admit → rewrite →
// render, on both backends' catalogs, plus the SQLite engine backstop on the
// real demo database, configured as `querygate` serves it (see open_demo).
// Each input is one SQL text (up to kMaxInput bytes); run by scripts/fuzz.sh.
//
// Properties (a violation prints what broke and aborts, so libFuzzer saves
// the input as a crash):
//   P1  No input yields ErrorCode::Internal (a broken invariant must never be
//       something an agent can type), and every refusal is a lesson: a
//       message and a fix starting "FIX: ". Crashes and sanitizer reports are
//       caught by libFuzzer itself. (Text that is not UTF-8: see
//       known_non_utf8_internal.)
//   P2  SQLite: SQL admitted and rendered for SQLite prepares under the real
//       authorizer, unless SQLite reports a semantic error that is the
//       engine's business (see classify_sqlite_error for the exact split).
//   P3  PostgreSQL: the rendered SQL s1 is a fixed point of the pipeline and
//       of the renderer:
//         (a) admit_statement(s1) is admitted and renders exactly s1. Star
//             expansion leaves no star behind, and limit injection is stable:
//             a LIMIT at or under the cap is kept as written, and a larger one
//             (or none) becomes cap + 1, which the second pass clamps to
//             cap + 1 again; so any difference is a real non-idempotence.
//         (b) parse(s1) converts to a tree equal (==, locations ignored) to
//             the admitted, rewritten tree s1 was printed from: two different
//             trees never print as the same text.
//   P4  SQLite: the same fixed point (a) for the SQLite rendering (the project
//       holds it: "sent through the gateway again, is admitted and printed back
//       unchanged"); trees are not compared (see check_sqlite_fixed_point).
//   Every property allows a refusal for size: a rendering longer than
//   limits.max_sql_bytes (star expansion) or than SQLite's statement limit.
//
// Environment: QG_FUZZ_WORKDIR (where the demo database is generated; default
// a temporary folder), QG_FUZZ_CONFIG (default config/demo.yaml),
// QG_FUZZ_KEEP_GOING=1 (report the first input of each kind of violation and
// go on, for exploring past a known finding), QG_FUZZ_FINDINGS (a file those
// reports are appended to; useful with -fork, whose job logs are discarded).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "admission/admit/admit.hpp"
#include "admission/ast/tree_walk.hpp"
#include "admission/capability/capability.hpp"
#include "admission/convert/convert.hpp"
#include "admission/parse/parser.hpp"
#include "admission/pipeline.hpp"
#include "admission/render/render.hpp"
#include "admission/rewrite/limit.hpp"
#include "admission/rewrite/virtual_columns.hpp"
#include "config/config.hpp"
#include "demo/demo_db.hpp"
#include "executors/sqlite/sqlite_executor.hpp"

namespace {

using namespace qg;

constexpr std::size_t kMaxInput = 4096;

struct Harness {
  std::filesystem::path dir;
  bool remove_dir = false;
  std::unique_ptr<exec::Executor> sqlite;
  catalog::Catalog sqlite_catalog;
  catalog::Catalog pg_catalog;
  config::Limits limits;
  // Outcomes that are not violations, counted for the end-of-run summary.
  std::map<std::string, long> allowed;
  std::map<std::string, long> outcomes;
  bool keep_going = false;
  std::FILE* findings = nullptr;           // QG_FUZZ_FINDINGS: every first-of-its-kind report is appended here too
  std::map<std::string, long> violations;  // with keep_going
};

Harness* g = nullptr;

[[noreturn]] void die_setup(const std::string& what) {
  std::fprintf(stderr, "admission_fuzzer: set-up failed: %s\n", what.c_str());
  std::exit(2);
}

std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// A broken property. Thrown to LLVMFuzzerTestOneInput, which prints it and
// aborts (libFuzzer then saves the input), or with QG_FUZZ_KEEP_GOING=1 prints
// the first input of each kind and counts the rest (for exploring past a
// known finding).
struct Violation {
  std::string key;  // property, dialect and the shape of the message: one per distinct finding
  std::string report;
};

[[noreturn]] void violation(std::string_view property, Dialect dialect, std::string_view input,
                            const std::string& detail, std::string_view key_detail = {}) {
  Violation v;
  v.key = std::string(property) + " [" + std::string(dialect_name(dialect)) + "]";
  if (!key_detail.empty()) v.key += " " + std::string(key_detail);
  v.report = "\n==== querygate fuzz VIOLATION ====\nERROR: querygate-fuzz: " + v.key +
             "\nproperty: " + std::string(property) + "\ndialect:  " + std::string(dialect_name(dialect)) +
             "\ninput:    " + printable(input) + "\n" + detail + "\n==================================\n";
  throw v;
}

std::string describe(const Error& e) {
  return std::string(name(e.code)) + ": " + e.message + (e.fix.empty() ? "" : "\n          " + e.fix);
}

// A message without the names, numbers and quoted text in it, as a stats key:
// `SQLite: no such column: "x"` → `no such column`, `1st ORDER BY term out of
// range - should be between 1 and 2` → `Nst ORDER BY term out of range - should be between N and N`.
std::string message_shape(std::string_view message) {
  if (message.starts_with("SQLite: ")) message.remove_prefix(8);
  std::string out;
  for (std::size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    if (c == ':' || c == '(') break;
    if (c == '"' || c == '\'') {
      const auto end = message.find(c, i + 1);
      if (end == std::string_view::npos) break;
      out += "…";
      i = end;
    } else if (c >= '0' && c <= '9') {
      if (out.empty() || out.back() != 'N') out += 'N';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

void print_summary() {
  if (g == nullptr) return;
  std::fprintf(stderr, "admission_fuzzer: outcomes per dialect:\n");
  for (const auto& [k, n] : g->outcomes) std::fprintf(stderr, "  %8ld  %s\n", n, k.c_str());
  if (!g->violations.empty()) {
    std::fprintf(stderr, "admission_fuzzer: VIOLATIONS (QG_FUZZ_KEEP_GOING), by kind:\n");
    for (const auto& [k, n] : g->violations) std::fprintf(stderr, "  %8ld  %s\n", n, k.c_str());
  }
  if (!g->allowed.empty()) {
    std::fprintf(stderr, "admission_fuzzer: allowed (not violations), by kind:\n");
    for (const auto& [k, n] : g->allowed) std::fprintf(stderr, "  %8ld  %s\n", n, k.c_str());
  }
  if (g->remove_dir) {
    std::error_code ec;
    g->sqlite.reset();
    std::filesystem::remove_all(g->dir, ec);
  }
}

// ---------------------------------------------------------------- P1

// Strict UTF-8 (no overlongs, no surrogates, at most U+10FFFF), as simdjson checks it.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xe0) == 0xc0) {
      n = 1, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

// Agents reach admission only through the HTTP edge, whose JSON parser
// (simdjson) refuses a body that is not valid UTF-8, lone surrogate escapes
// included. Text that is not UTF-8 is still fuzzed (crashes and sanitizer
// reports count), but the pipeline's Internal "parse tree JSON: ... not valid
// UTF-8" for it is a known defect no agent can trigger (see the fuzz report),
// counted here instead of aborting.
bool known_non_utf8_internal(const Error& e, std::string_view input) {
  return e.code == ErrorCode::Internal && !valid_utf8(input) && e.message.find("UTF-8") != std::string::npos;
}

void check_refusal(const Error& e, Dialect d, std::string_view input) {
  if (known_non_utf8_internal(e, input)) {
    ++g->allowed["P1 internal error for text that is not UTF-8 (unreachable over HTTP)"];
    return;
  }
  if (e.code == ErrorCode::Internal)
    violation("P1 no internal error for agent input", d, input, "  " + describe(e), message_shape(e.message));
  if (e.message.empty()) violation("P1 every refusal has a message", d, input, "  " + describe(e), name(e.code));
  if (!e.fix.starts_with("FIX: ")) violation("P1 every refusal has a FIX", d, input, "  " + describe(e), name(e.code));
}

// ---------------------------------------------------------------- P2

enum class EngineVerdict { Violation, Allowed };

// How a failed SQLite prepare of SQL querygate printed is judged.
//
// Violations — admission and the engine disagree, or the renderer is wrong:
//   backend:denied           the authorizer refused a table, function or statement admission let through
//   internal                 never
//   "no such table/column/function/window/collation", "ambiguous column name"
//                            admission resolved every name (and checked every function against the
//                            capability table, whose SQLite list is the authorizer's), so the engine
//                            not finding one means the two disagree
//   "syntax error", "unrecognized token", "near ..."
//                            the renderer printed text SQLite's grammar rejects
//
// Allowed — the engine's business, passed to the agent verbatim (DESIGN: DB errors are passed back):
//   type and placement errors admission does not model: "misuse of aggregate", "wrong number of
//   arguments", "aggregate functions are not allowed in ...", "ORDER BY term out of range",
//   "SELECTs to the left and right of ... do not have the same number of result columns",
//   "row value misused", "sub-select returns N columns", "RANGE with offset PRECEDING/FOLLOWING
//   requires one ORDER BY term", "DISTINCT is not supported for window functions", ...; and the
//   engine's size limits (limit:row-too-large, limit:sql-too-long, "Expression tree is too large",
//   "too many terms in compound SELECT", "parser stack overflow", "too many columns").
EngineVerdict classify_sqlite_error(const Error& e) {
  switch (e.code) {
    case ErrorCode::BackendDenied:
    case ErrorCode::Internal:
      return EngineVerdict::Violation;
    case ErrorCode::LimitRowTooLarge:  // SQLITE_TOOBIG, e.g. the statement exceeds SQLITE_LIMIT_SQL_LENGTH
    case ErrorCode::LimitSqlTooLong:
    case ErrorCode::ValidationTooDeep:  // the executor's name for SQLite's parser/expression depth limits
      return EngineVerdict::Allowed;
    case ErrorCode::BackendError:
      break;
    default:
      return EngineVerdict::Violation;  // deadline, unavailable: not expected from a prepare here
  }
  const std::string& m = e.message;
  static constexpr std::string_view kDisagreement[] = {
      "no such table",         "no such column", "no such function",   "no such window", "no such collation",
      "ambiguous column name", "syntax error",   "unrecognized token", "near \"",        "incomplete input",
  };
  for (std::string_view s : kDisagreement)
    if (m.find(s) != std::string::npos) return EngineVerdict::Violation;
  return EngineVerdict::Allowed;
}

void check_sqlite_prepares(const std::string& sql, std::string_view input) {
  auto prepared = g->sqlite->prepare(sql, exec::Clock::now() + std::chrono::seconds(10));
  if (prepared) return;
  if (classify_sqlite_error(prepared.error()) == EngineVerdict::Violation)
    violation("P2 admitted SQL prepares under the SQLite authorizer", Dialect::Sqlite, input,
              "rendered: " + sql + "\nengine:   " + describe(prepared.error()),
              message_shape(prepared.error().message));
  ++g->allowed["P2 engine error: " + std::string(name(prepared.error().code)) + " " +
               message_shape(prepared.error().message)];
}

// ---------------------------------------------------------------- P3 / P4

const catalog::Catalog& catalog_for(Dialect d) {
  return d == Dialect::Sqlite ? g->sqlite_catalog : g->pg_catalog;
}

Result<AdmittedStatement> run_pipeline(std::string_view sql, Dialect d) {
  return admit_statement(sql, catalog_for(d), g->limits, std::nullopt);
}

// The tree the pipeline printed: its stages, in its order (pipeline.cpp).
std::optional<ast::Query> admitted_tree(std::string_view sql, Dialect d) {
  auto json = parse::parse_to_json(sql);
  if (!json) return std::nullopt;
  auto tree = convert::convert_statement(*json, sql);
  if (!tree) return std::nullopt;
  ast::Query q = std::move(tree).value();
  if (!admit::admit(q, catalog_for(d), sql, g->limits.max_expression_growth)) return std::nullopt;
  const std::int64_t cap = std::clamp<std::int64_t>(g->limits.default_rows, 1, g->limits.max_rows);
  (void)rewrite::inject_limit(q, cap);
  return q;
}

void check_postgres_fixed_point(const std::string& s1, std::string_view input) {
  constexpr Dialect d = Dialect::Postgres;
  auto again = run_pipeline(s1, d);
  if (!again) {
    // The rendering can be longer than the input (star expansion); the size cap is then the right answer.
    if (again.error().code == ErrorCode::LimitSqlTooLong) {
      ++g->allowed["P3 rendering longer than limits.max_sql_bytes"];
      return;
    }
    violation("P3a PostgreSQL rendering is admitted again", d, input,
              "rendered: " + s1 + "\nrefused:  " + describe(again.error()), message_shape(again.error().message));
  }
  if (again->sql != s1)
    violation("P3a PostgreSQL rendering is a fixed point of the pipeline", d, input,
              "pass 1:   " + s1 + "\npass 2:   " + again->sql);

  // (b) needs the tree s1 was printed from. It is rebuilt with the pipeline's own
  // stages; should pipeline.cpp grow a stage this harness does not replay, the
  // rebuilt tree prints differently and the check is skipped (and counted).
  auto printed_from = admitted_tree(input, d);
  if (!printed_from) {
    ++g->allowed["P3b skipped: replayed stages refused the input"];
    return;
  }
  // Which references the operator wrote (virtual columns) is a permission
  // marker of admission, not printed SQL: it cannot survive a re-parse.
  ast::walk_tree(
      *printed_from,
      [](ast::Expr& e) {
        if (auto* ref = std::get_if<ast::ColumnRef>(&e.node)) ref->configured = false;
      },
      [](ast::FromItem&) {});
  auto replayed = render::render(*printed_from, d);
  if (!replayed || *replayed != s1) {
    ++g->allowed["P3b skipped: replayed stages print other SQL than the pipeline"];
    return;
  }
  auto json = parse::parse_to_json(s1);
  if (!json) violation("P3b PostgreSQL rendering parses", d, input, "rendered: " + s1 + "\n" + describe(json.error()));
  auto reparsed = convert::convert_statement(*json, s1);
  if (!reparsed)
    violation("P3b PostgreSQL rendering converts", d, input, "rendered: " + s1 + "\n" + describe(reparsed.error()));
  if (!(*reparsed == *printed_from)) {
    auto reprinted = render::render(*reparsed, d);
    violation("P3b PostgreSQL rendering re-parses to the tree it was printed from", d, input,
              "rendered: " + s1 + "\nre-parsed tree prints: " + (reprinted ? *reprinted : describe(reprinted.error())));
  }
}

// The SQLite rendering is a fixed point too: the SQL querygate runs, sent
// through the gateway again, is admitted and printed back unchanged (the
// renderer spells even its SQLite-only shapes so that PostgreSQL's grammar
// reads them: the inner VALUES of `(SELECT column1 AS a ... FROM (VALUES ...) AS v) AS v`
// carries an alias for this). Trees are not compared: SQLite-only shapes
// (`IS NULL` for `IS UNKNOWN`, the VALUES renaming) read back as other trees.
void check_sqlite_fixed_point(const std::string& s1, std::string_view input) {
  constexpr Dialect d = Dialect::Sqlite;
  // A generate_series calendar runs as pg_series(...) in FROM (admit/series_on_sqlite.cpp), a FROM function
  // callers may not write: that rendering is not admitted again (known, as in admission_corpus_test; counted).
  if (s1.find("pg_series(") != std::string::npos) {
    ++g->allowed["P4 generate_series rendering (pg_series in FROM) is not re-admitted"];
    return;
  }
  // Likewise a jsonb row source runs as json_each(pg_json_rows(...)) (admit/json_rows.cpp).
  if (s1.find("json_each(pg_json_rows(") != std::string::npos) {
    ++g->allowed["P4 jsonb row source rendering (json_each in FROM) is not re-admitted"];
    return;
  }
  auto again = run_pipeline(s1, d);
  if (!again) {
    const Error& e = again.error();
    if (e.code == ErrorCode::LimitSqlTooLong) {
      ++g->allowed["P4 rendering longer than limits.max_sql_bytes"];
      return;
    }
    violation("P4 SQLite rendering is admitted again", d, input, "rendered: " + s1 + "\nrefused:  " + describe(e),
              std::string(name(e.code)) + " " + message_shape(e.message));
  }
  if (again->sql != s1)
    violation("P4 SQLite rendering is a fixed point of the pipeline", d, input,
              "pass 1:   " + s1 + "\npass 2:   " + again->sql);
}

// Removes <base>/<pid> folders whose process is gone.
void remove_stale_workdirs(const std::filesystem::path& base) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos || name.size() > 9) continue;
    const auto pid = static_cast<pid_t>(std::stol(name));
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::filesystem::remove_all(entry.path(), ec);
  }
}

// The demo as `querygate` serves it (gateway/startup.cpp, and the corpus test
// likewise): config/demo.yaml parsed with the demo database next to it (its
// allowlist: projects, traces, spans, span_annotations; curation, timestamp
// columns, virtual columns), the SQLite executor with the capability table's
// authorizer list, and virtual columns attached to its catalog. The PostgreSQL
// catalog is the same allowlist seen by PostgreSQL: virtual columns carry their
// PostgreSQL expressions and timestamps are timestamptz (no stored text format).
void open_demo() {
  std::error_code ec;
  std::filesystem::create_directories(g->dir, ec);
  if (ec) die_setup("cannot create " + g->dir.string() + ": " + ec.message());

  std::filesystem::path yaml_file = QG_FUZZ_DEMO_CONFIG;
  if (const char* c = std::getenv("QG_FUZZ_CONFIG"); c != nullptr && *c != '\0') yaml_file = c;
  std::ifstream in(yaml_file);
  if (!in) die_setup("cannot read " + yaml_file.string());
  std::stringstream yaml;
  yaml << in.rdbuf();
  auto config = config::parse_config(yaml.str(), g->dir);  // relative paths: the demo database lands in g->dir
  if (!config) die_setup(yaml_file.string() + ": " + config.error().message);
  if (config->databases.empty() || config->databases.front().backend != Dialect::Sqlite)
    die_setup(yaml_file.string() + ": the first database must be the SQLite demo");
  const config::Database& db = config->databases.front();
  if (auto made = exec::create_demo_db(db.path); !made) die_setup(made.error().message);
  g->limits = config->limits;

  exec::SqliteOptions options;
  options.path = db.path;
  options.allowed_functions = capability::sqlite_authorizer_functions();
  options.max_sql_bytes = config->limits.max_sql_bytes;
  options.connections = 1;
  auto e = exec::open_sqlite(db, options);
  if (!e) die_setup(e.error().message);
  g->sqlite = std::move(e).value();

  g->sqlite_catalog = g->sqlite->catalog();
  if (auto s = rewrite::attach_virtual_columns(g->sqlite_catalog, db); !s) die_setup(s.error().message);
  g->pg_catalog = g->sqlite->catalog();
  g->pg_catalog.dialect = Dialect::Postgres;
  for (auto& t : g->pg_catalog.tables) {
    t.virtual_columns.clear();
    for (auto& c : t.columns) c.timestamp_sample.clear();
  }
  if (auto s = rewrite::attach_virtual_columns(g->pg_catalog, db); !s) die_setup(s.error().message);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  g = new Harness();
  // QG_FUZZ_WORKDIR (scripts/fuzz.sh sets it) keeps the demo database in the
  // build tree. Otherwise each process uses <tmp>/qg-fuzz/<pid>, removed at
  // exit; a crash skips that, so folders of processes that no longer run are
  // removed here first.
  if (const char* w = std::getenv("QG_FUZZ_WORKDIR"); w != nullptr && *w != '\0') {
    g->dir = std::filesystem::absolute(w);
  } else {
    const auto base = std::filesystem::temp_directory_path() / "qg-fuzz";
    remove_stale_workdirs(base);
    g->dir = base / std::to_string(::getpid());
    g->remove_dir = true;
  }
  open_demo();
  if (const char* k = std::getenv("QG_FUZZ_KEEP_GOING"); k != nullptr && std::string_view(k) == "1")
    g->keep_going = true;
  if (const char* f = std::getenv("QG_FUZZ_FINDINGS"); f != nullptr && *f != '\0') g->findings = std::fopen(f, "a");
  std::atexit(print_summary);
  return 0;
}

namespace {

void test_dialect(const std::string& input, Dialect d) {
  auto result = run_pipeline(input, d);
  if (!result) {
    ++g->outcomes[std::string(dialect_name(d)) + " refused " + std::string(name(result.error().code))];
    return check_refusal(result.error(), d, input);
  }
  ++g->outcomes[std::string(dialect_name(d)) + " admitted"];
  if (d == Dialect::Sqlite) {
    check_sqlite_prepares(result->sql, input);
    check_sqlite_fixed_point(result->sql, input);
  } else {
    check_postgres_fixed_point(result->sql, input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;  // not added to the corpus
  const std::string input(reinterpret_cast<const char*>(data), size);
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    try {
      test_dialect(input, d);
    } catch (const Violation& v) {
      if (g->keep_going && g->violations[v.key]++ > 0) continue;
      std::fputs(v.report.c_str(), stderr);
      if (g->findings != nullptr) {
        std::fputs(v.report.c_str(), g->findings);
        std::fflush(g->findings);
      }
      std::fflush(stderr);
      if (!g->keep_going) std::abort();
    }
  }
  return 0;
}
