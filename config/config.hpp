#pragma once
// The YAML configuration model. This shape is a public interface: operators
// write it, tests rely on it. Every key is declared once (the key tables in
// config.cpp and config/*_section.cpp) with its type, default and range; unknown
// keys are start-up errors.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/dialect.hpp"
#include "common/result.hpp"
#include "tools/parameters.hpp"

namespace qg::config {

struct Limits {
  int default_rows = 100;
  int max_rows = 5000;
  int max_sql_bytes = 16384;
  int deadline_ms = 30000;
  int max_cell_bytes = 8192;
  int max_response_bytes = 1 << 20;
  int float_digits = 6;        // significant digits; 0 disables rounding
  int max_body_bytes = 65536;  // HTTP request body cap
  // An expression's result may be at most this many times longer than the longest
  // stored value it reads, and than the literal text it starts from (replace(),
  // printf widths, string_agg ...); beyond it: 422 limit:expression-size.
  int max_expression_growth = 1000;
  // HTTP connections one client address may hold open. A newcomer beyond it (or
  // beyond the server's total) closes the longest-idle keep-alive connection of
  // that address (of any, for the total) and takes its place; with none idle,
  // only /healthz and /readyz are served, others get 503 limit:connections.
  // Also on a loopback listener, where every local client shares 127.0.0.1:
  // idle connections give way, so the cap counts connections that are sending
  // or waiting for an answer, and 64 of those are several times what one
  // database's permits and queue accept at once (the rest get 429 anyway).
  int max_connections_per_client = 64;
  // HTTP connections open at once, all clients together (the same giving-way
  // rule as above). Each costs a file descriptor and a few KiB while idle:
  // raise the process's open-files limit (ulimit -n) along with it.
  int max_connections = 1024;
  // The request line and headers must arrive within this after the request's
  // first byte (or the connection's accept); the body then has the rest of 10 s.
  int header_timeout_ms = 5000;
  // A keep-alive connection with no next request for this long is closed (its
  // own clock: it runs between requests, header_timeout_ms within one).
  int idle_timeout_ms = 5000;
  // PostgreSQL: a text, array or JSON aggregate (string_agg, array_agg, json_agg ...)
  // whose input the planner estimates at more bytes (rows x width) is refused
  // before it runs with 422 limit:memory (the plan gate).
  int max_aggregate_bytes = 64 << 20;
  // SQLite: the gateway process's SQLite may hold at most this much memory
  // (sqlite3_hard_heap_limit64, all SQLite databases together); a statement
  // that needs more fails with 422 limit:memory.
  int max_sqlite_heap_bytes = 512 << 20;
  // A result holding a binary value (BLOB, bytea) is refused with limit:binary-value
  // instead of sent as base64: for deployments where bytes should never reach a model.
  bool refuse_blobs = false;
  // Admitted statements kept (least recently used go first): a repeated
  // statement from the same key skips parse, admission and render. 0: off.
  int admission_cache_entries = 1024;
};

struct ColumnCuration {
  std::string comment;
  std::string unit;
  bool untrusted = false;
  bool timestamp = false;  // holds ISO-8601 timestamps (text on SQLite): literals compared with it are checked
  // Not queryable and not described: a statement naming it is refused like one
  // naming an unknown column, and * skips it. Virtual columns may still read it.
  bool hidden = false;
  // Companion columns (`requires: [scale_trend]`): a statement whose output
  // reads this column must also return each of these, in the same row.
  std::vector<std::string> companions;
  // Significant digits for floats computed only from this column (and columns
  // with the same setting); -1: limits.float_digits.
  int float_digits = -1;
};

// A column computed by querygate: a SQL expression per dialect over the table's
// physical columns, substituted (parenthesised) wherever a statement names it.
struct VirtualColumn {
  std::string sqlite;    // the expression on SQLite
  std::string postgres;  // the expression on PostgreSQL
  std::string comment;
  std::string unit;
  bool untrusted = false;
};

struct TableCuration {
  std::string name;
  std::string comment;
  // Curated columns, in the order written in the file.
  std::vector<std::pair<std::string, ColumnCuration>> columns;
  std::vector<std::pair<std::string, VirtualColumn>> virtual_columns;
  // A predicate over the table's own columns (SQL of the database's backend,
  // may read other tables and name :parameters bound from the calling key's
  // `bind`). Every reference to the table in a statement reads only the rows
  // it keeps, as if the table were (SELECT * FROM table WHERE row_filter).
  // Empty: no filter. The note is shown in GET /v1/schema.
  std::string row_filter;
  std::string row_filter_note;
};

struct Database {
  std::string name;  // the name requests use
  Dialect backend = Dialect::Sqlite;
  std::filesystem::path path;         // sqlite: absolute (resolved against the config file's folder)
  std::vector<TableCuration> tables;  // the allowlist, in file order
  int permits = 2;                    // concurrent statements (sqlite default 2, postgres 4)
  int queue_depth = 8;
  // postgres only. Exactly one of dsn / dsn_env is set; dsn_env names an environment
  // variable holding the DSN, so secrets need not live in the file. It is read by the executor.
  std::string dsn;
  std::string dsn_env;
  std::string schema = "public";  // PostgreSQL: the fixed search_path; SQLite: the schema name `schema.t` may use
  bool allow_privileged_role = false;
  bool spotlight = false;  // wrap untrusted text in a per-response marker (see the schema preamble)  // start even if
                           // the role can write or is a superuser
  // Write tools (writes/): postgres names the environment variable holding the DSN
  // of a separate role that may INSERT into the write tools' tables (required when
  // a write tool uses this database); sqlite opens a separate read-write connection
  // to the same file. write_permits: concurrent write transactions (default 1).
  std::string write_dsn_env;
  int write_permits = 1;
  // Write-tool calls that may wait for a write permit (beyond: 429). Larger than
  // queue_depth: a write holds its permit for milliseconds, and a judge agent's
  // parallel batch (64 verdicts at once) should wait its turn, not be bounced.
  int write_queue_depth = 64;
};

// Columns one API key may not see (keys[i].hidden_columns), on top of the ones
// hidden for everybody: table name -> column names, as written in the file.
struct HiddenColumns {
  std::vector<std::pair<std::string, std::vector<std::string>>> tables;
  bool empty() const { return tables.empty(); }
};

// An API key: who may call, and which databases it may use. The file holds
// the SHA-256 of the token (`querygate hash-key` prints it), never the token.
// A `bind` value: YAML integer, number, boolean, or string (quoted, or any
// other plain scalar).
using BindValue = std::variant<std::int64_t, double, std::string, bool>;
// The longest string a key may bind (size bounds count a bound value as this long).
inline constexpr std::int64_t kMaxBindBytes = 256;
// A write tool's string parameter without max_length accepts at most this many characters.
inline constexpr int kWriteStringChars = 10'000;

struct ApiKey {
  std::string name;                    // appears in logs, metrics and /readyz; the token never does
  std::string sha256;                  // 64 lower-case hex digits; empty for the anonymous key
  std::vector<std::string> databases;  // names from `databases`, at least one
  HiddenColumns hidden_columns;        // hidden from this key only, in each of its databases
  // false: the key calls curated tools only; POST /v1/query (and MCP execute_sql) answer 403 (seed 000's mode).
  bool sql = true;
  // When set, the curated tools this key may call (names from `tools`); absent: every tool on its databases.
  std::optional<std::vector<std::string>> tools;
  // Values the key binds to the :parameters of row filters (tenant scoping):
  // chosen by the operator, never by the caller; bound as typed parameters.
  std::vector<std::pair<std::string, BindValue>> bind;
  // Write tools this key may call (`writes: [name, ...]`), or all of them (`writes: all`).
  std::vector<std::string> writes;
  bool all_writes = false;
  // `anonymous: true` (at most one key, no sha256): the scope of requests that carry no
  // token. Without it, any configured key makes every request need one. Start-up refuses
  // it unless the gateway listens on loopback.
  bool anonymous = false;
};

// A curated tool: one fixed statement on one database with typed parameters
// (`:name` in the SQL), served at POST /v1/tools/{name}, as its own OpenAPI
// operation and MCP tool. Its SQL is admitted at start-up like a caller's.
struct Tool {
  std::string name;  // [A-Za-z_][A-Za-z0-9_]*: the URL segment, operationId and MCP tool name
  std::string database;
  std::string description;
  std::string sql;
  tools::Parameters parameters;  // in file order
};

struct WriteCheck {  // writes.<tool>.checks[i]: a local constraint, decided on the row alone
  std::string sql;   // one value: true passes
  std::string fix;
};

struct AfterCheck {  // writes.<tool>.after_checks[i]: a global constraint over the table
  std::string name;
  std::string sql;  // the offending rows
  std::string fix;
};

// writes.<tool>: a validated write into one table (see writes/).
struct WriteTool {
  std::string name;
  std::string database;
  std::string table;
  std::string description;
  // In file order; the curated tools' parameter system (tools/parameters.hpp) with the write extras
  // (references, untrusted). A string without max_length accepts at most 10 000 characters.
  tools::Parameters parameters;
  std::vector<std::pair<std::string, std::string>> set;  // column -> SQL expression, derived by code
  std::vector<std::string> duplicate_key;                // columns (parameters or set)
  std::vector<WriteCheck> checks;
  std::vector<AfterCheck> after_checks;
};

struct Config {
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 8080;
  // On a loopback listener, requests must name it in Host (and Origin, when a
  // browser sends one): 127.0.0.1, localhost or [::1], any port. These host
  // names are accepted too (e.g. the name a local reverse proxy passes on).
  // Defeats DNS rebinding; not consulted on other listeners.
  std::vector<std::string> allowed_hosts;
  // The absolute URL clients reach this gateway at (e.g. behind a proxy:
  // https://sql.example.com), without a trailing slash: the OpenAPI
  // document's `servers`. Empty: taken from each request's Host header.
  std::string public_url;
  Limits limits;
  std::vector<Database> databases;  // in file order
  // Empty: no authentication, and the gateway serves loopback only.
  std::vector<ApiKey> keys;
  // The key whose scope requests without a token get (keys[i].anonymous), or nullptr.
  const ApiKey* anonymous_key() const;
  // Whether a request may come without a token: no keys configured, or an anonymous key.
  bool anonymous_allowed() const { return keys.empty() || anonymous_key() != nullptr; }
  std::vector<Tool> tools;  // in file order
  // On SIGTERM/SIGINT, requests already accepted get this long to finish;
  // what is still queued or running then is cancelled.
  int shutdown_grace_ms = 10000;
  bool log_sql = false;           // include the statement text in the request log (it may hold end-user data)
  std::filesystem::path source;   // the file it was read from (empty for text)
  std::vector<WriteTool> writes;  // write tools, in file order

  const Database* find_database(std::string_view name) const;
  const Tool* find_tool(std::string_view name) const;
};

// Parses YAML text. `base_dir` resolves relative paths. Errors name the key path
// (e.g. "databases.demo.tables.spans.columns.cost_usd.unit") and what is wrong.
// Does not touch the database files (see validate_against_files / the executors).
Result<Config> parse_config(const std::string& yaml_text, const std::filesystem::path& base_dir);
Result<Config> load_config(const std::filesystem::path& file);

// "host:port" → host, port; the error names the text.
Result<std::pair<std::string, std::uint16_t>> parse_listen(const std::string& text);

}  // namespace qg::config
