#include "gateway/startup.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>

#include "admission/ast/walk.hpp"
#include "admission/capability/capability.hpp"
#include "admission/rewrite/row_filters.hpp"
#include "admission/rewrite/virtual_columns.hpp"
#include "config/demo_config.hpp"
#include "demo/demo_db.hpp"
#include "executors/postgres/pg_executor.hpp"
#include "executors/sqlite/sqlite_executor.hpp"
#include "gateway/api/api.hpp"
#include "gateway/api/curated_tools.hpp"
#include "gateway/api/request_checks.hpp"
#include "gateway/api/routes.hpp"
#include "gateway/http/http_server.hpp"
#include "writes/write_service.hpp"

namespace qg::gateway {
namespace {

class RunningGateway : public Running {
 public:
  RunningGateway(std::unique_ptr<Api> api, ServerOptions options, std::chrono::milliseconds grace)
      : api_(std::move(api)),
        server_(std::move(options),
                [this](HttpRequest r, Reply reply) { api_->handle(std::move(r), std::move(reply)); }),
        grace_(grace) {}

  Result<std::uint16_t> start() {
    auto p = server_.start();
    if (p) port_ = *p;
    return p;
  }
  std::uint16_t port() const override { return port_; }

  void stop() override {
    const auto deadline = std::chrono::steady_clock::now() + grace_;
    server_.drain();        // no new connections; keep-alive ends with the next answer
    api_->drain(deadline);  // accepted requests finish, or are cancelled at the deadline
    // The last answers still have to be written; the write timeout bounds a
    // client that does not read, this bounds the wait for all of them.
    server_.wait_closed(std::max(deadline, std::chrono::steady_clock::now()) + kLastWritesBound);
    server_.stop();
  }

 private:
  static constexpr std::chrono::seconds kLastWritesBound{2};
  // The server is declared after the Api, so it stops (and stops calling the
  // Api) before the Api is destroyed.
  std::unique_ptr<Api> api_;
  HttpServer server_;
  std::chrono::milliseconds grace_;
  std::uint16_t port_ = 0;
};

}  // namespace

Status create_demo_database(const std::filesystem::path& path) {
  return exec::create_demo_db(path);
}

Result<config::Config> demo_config(const std::filesystem::path& demo_dir) {
  std::error_code ec;
  std::filesystem::create_directories(demo_dir, ec);
  if (ec)
    return make_error(ErrorCode::ConfigInvalid,
                      "cannot create the demo folder " + demo_dir.string() + ": " + ec.message());
  auto config = config::parse_config(std::string(config::demo_config_yaml()), demo_dir);
  if (!config) return config;
  for (const auto& db : config->databases)
    if (db.backend == Dialect::Sqlite && !std::filesystem::exists(db.path)) {
      std::cerr << "querygate: generating the demo database " << db.path.string() << "\n";
      if (auto s = exec::create_demo_db(db.path); !s) return s.error();
    }
  return config;
}

namespace {

// The DSN from the config or from the environment variable it names. It may
// hold a password: it goes to libpq and nowhere else.
Result<std::string> postgres_dsn(const config::Database& db) {
  if (!db.dsn.empty()) return db.dsn;
  const char* value = std::getenv(db.dsn_env.c_str());
  if (value == nullptr || *value == '\0')
    return make_error(
        ErrorCode::ConfigInvalid,
        "databases." + db.name + ".dsn_env names the environment variable " + db.dsn_env + ", which is not set",
        "FIX: export " + db.dsn_env +
            "='postgresql://reader@host:5432/dbname' before starting "
            "querygate, or write dsn: in the configuration");
  return std::string(value);
}

Result<std::unique_ptr<exec::Executor>> open_executor(const config::Config& config, const config::Database& db) {
  if (db.backend == Dialect::Postgres) {
    auto dsn = postgres_dsn(db);
    if (!dsn) return dsn.error();
    exec::PostgresOptions options;
    options.dsn = std::move(dsn).value();
    options.connections = db.permits;
    options.functions = capability::postgres_plan_functions();
    for (const auto& f : capability::functions())
      if (f.growth == capability::Growth::TextAggregate && f.postgres.verdict != capability::Verdict::Refuse)
        options.text_aggregates.emplace(f.name);
    options.max_aggregate_bytes = config.limits.max_aggregate_bytes;
    return exec::open_postgres(db, std::move(options));
  }
  exec::SqliteOptions options;
  options.path = db.path;
  options.allowed_functions = capability::sqlite_authorizer_functions();
  options.max_sql_bytes = config.limits.max_sql_bytes;
  options.max_heap_bytes = config.limits.max_sqlite_heap_bytes;
  options.connections = db.permits;
  return exec::open_sqlite(db, std::move(options));
}

Error policy_error(const std::string& message, const std::string& fix) {
  return make_error(ErrorCode::ConfigInvalid, message, "FIX: " + fix);
}

// Companion columns exist and are visible whenever their column is; a key's
// hidden_columns name tables and columns of its databases. Checked once the
// engines have told what columns exist.
Status check_column_policy(const config::Config& config, const ServedDatabases& served) {
  for (const auto& [db_name, database] : served) {
    const Dialect d = database.catalog.dialect;
    for (const auto& table : database.catalog.tables)
      for (const auto& column : table.columns)
        for (const auto& name : column.companions) {
          const std::string key =
              "databases." + db_name + ".tables." + table.name + ".columns." + column.name + ".requires";
          const auto* companion = table.find_column(name, d);
          if (!companion) {
            std::vector<std::string> names;
            for (const auto& c : table.columns) names.push_back(c.name);
            const auto close = catalog::closest_names(name, names, 1);
            return policy_error("'" + key + "' names '" + name + "', which is not a column of " + table.name +
                                    (close.empty() ? std::string() : " (did you mean " + close.front() + "?)"),
                                "name a physical column of " + table.name + " (virtual columns cannot be companions).");
          }
          if (companion->hidden && !column.hidden)
            return policy_error(
                "'" + key + "' names '" + name + "', which is hidden: " + column.name + " could never be returned",
                "hide " + column.name + " too, or do not hide " + name + ".");
        }
  }
  for (std::size_t k = 0; k < config.keys.size(); ++k) {
    const auto& api_key = config.keys[k];
    for (const auto& [table_name, columns] : api_key.hidden_columns.tables) {
      const std::string key = "keys[" + std::to_string(k) + "].hidden_columns." + table_name;
      bool found = false;
      for (const auto& db_name : api_key.databases) {
        auto it = served.find(db_name);
        if (it == served.end()) continue;
        const auto& catalog = it->second.catalog;
        const auto* table = catalog.find_table(table_name);
        if (!table) continue;
        found = true;
        for (const auto& column : columns)
          if (!table->find_column(column, catalog.dialect) && !table->find_virtual(column, catalog.dialect))
            return policy_error("'" + key + "' names '" + column + "', which is not a column of " + table->name +
                                    " in database " + db_name,
                                "name a physical or virtual column of " + table->name + ".");
        for (const auto& column : table->columns)
          for (const auto& name : column.companions) {
            const auto* companion = table->find_column(name, catalog.dialect);
            if (companion && catalog::visible(*table, column, &api_key.hidden_columns, catalog.dialect) &&
                !catalog::visible(*table, *companion, &api_key.hidden_columns, catalog.dialect))
              return policy_error("'" + key + "' hides " + name + ", the companion of " + column.name +
                                      ", which the key may still read: " + column.name +
                                      " could never be returned to it",
                                  "hide " + column.name + " from this key too, or do not hide " + name + ".");
          }
      }
      if (!found)
        return policy_error(
            "'" + key + "' names table '" + table_name + "', which no database of this key allowlists",
            "name a table of " +
                [&] {
                  std::string list;
                  for (const auto& db : api_key.databases) list += (list.empty() ? "" : ", ") + db;
                  return list;
                }() +
                ".");
    }
  }
  return {};
}

}  // namespace

// The tables whose row filter binds a value from the calling key, with the
// filter's conditions on the table's own columns (outside its subqueries).
std::vector<exec::Executor::BoundRowFilter> bound_row_filters(const catalog::Catalog& catalog) {
  std::vector<exec::Executor::BoundRowFilter> out;
  for (const auto& t : catalog.tables) {
    if (!t.row_filter || t.row_filter->binds.empty() || !t.row_filter->predicate) continue;
    exec::Executor::BoundRowFilter f{t.name, {}, false};
    std::function<void(const ast::Expr&)> walk = [&](const ast::Expr& e) {
      if (std::holds_alternative<ast::SubLink>(e.node)) {
        f.subquery = true;
        if (const auto& test = std::get<ast::SubLink>(e.node).test) walk(**test);
        return;
      }
      if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node); ref && !ref->star) {
        if (const auto* c = t.find_column(ref->column, catalog.dialect);
            c && std::find(f.columns.begin(), f.columns.end(), c->name) == f.columns.end())
          f.columns.push_back(c->name);
        return;
      }
      ast::for_each_child(e, walk);
    };
    walk(*t.row_filter->predicate);
    out.push_back(std::move(f));
  }
  return out;
}

Result<ServedDatabases> open_databases(const config::Config& config) {
  ServedDatabases out;
  for (const auto& db : config.databases) {
    auto executor = open_executor(config, db);
    if (!executor) {
      Error e = std::move(executor).error();
      e.message = "databases." + db.name + ": " + e.message;
      return e;
    }
    ServedDatabase served{std::move(executor).value(), {}, db.spotlight};
    served.catalog = served.executor->catalog();
    if (auto s = rewrite::attach_virtual_columns(served.catalog, db); !s) return s.error();
    if (auto s = rewrite::attach_row_filters(served.catalog, db); !s) return s.error();
    served.executor->set_bound_row_filters(bound_row_filters(served.catalog));
    // Without keys nobody has a `bind`: a filter that needs one could never run.
    if (config.keys.empty())
      for (const auto& t : served.catalog.tables)
        if (t.row_filter && !t.row_filter->binds.empty())
          return make_error(ErrorCode::ConfigInvalid,
                            "'databases." + db.name + ".tables." + t.name + ".row_filter' names :" +
                                t.row_filter->binds.front().substr(rewrite::kBindPrefix.size()) +
                                ", bound from the calling key's `bind`, but no keys are configured",
                            "FIX: configure keys, each with bind: { " +
                                t.row_filter->binds.front().substr(rewrite::kBindPrefix.size()) +
                                ": <value> }, or write the value into the filter.");
    out.emplace(db.name, std::move(served));
  }
  if (auto s = check_column_policy(config, out); !s) return s.error();
  return out;
}

Result<std::unique_ptr<writes::WriteService>> open_writes(const config::Config& config, const ServedDatabases& dbs) {
  std::map<std::string, const catalog::Catalog*> catalogs;
  for (const auto& [name, served] : dbs) catalogs.emplace(name, &served.catalog);
  return writes::WriteService::open(config, catalogs);
}

Status check_config(const std::filesystem::path& file) {
  auto config = config::load_config(file);
  if (!config) return config.error();
  auto dbs = open_databases(*config);
  if (!dbs) return dbs.error();
  if (!config->writes.empty())
    if (auto w = open_writes(*config, *dbs); !w) return w.error();
  return check_tools(*config, *dbs);
}

Result<std::unique_ptr<Running>> start(const StartupOptions& options) {
  auto config = options.config_file.empty() ? demo_config(options.demo_dir) : config::load_config(options.config_file);
  if (!config) return config.error();
  if (!options.listen.empty()) {
    auto listen = config::parse_listen(options.listen);
    if (!listen) return listen.error();
    config->listen_host = listen->first;
    config->listen_port = listen->second;
  }
  if (!is_loopback_host(config->listen_host) && config->keys.empty())
    return make_error(ErrorCode::ConfigInvalid,
                      "refusing to listen on " + config->listen_host +
                          ": no API keys are configured, so anyone who can reach the port could query",
                      "FIX: add keys: [{name: ..., sha256: <output of `querygate hash-key`>, databases: [...]}] to "
                      "the config, or listen on 127.0.0.1.");
  // Requests without a token get the anonymous key's scope: fine on this machine, not on a network.
  if (const auto* anonymous = config->anonymous_key(); anonymous && !is_loopback_host(config->listen_host))
    return make_error(ErrorCode::ConfigInvalid,
                      "refusing to listen on " + config->listen_host + ": key '" + anonymous->name +
                          "' is anonymous: true, so anyone who can reach the port would get its scope without a token",
                      "FIX: listen on 127.0.0.1 (or [::1]), or remove anonymous: true from key '" + anonymous->name +
                          "' (then every request needs a token).");
  auto dbs = open_databases(*config);
  if (!dbs) return dbs.error();
  // A curated tool whose statement does not admit stops the start, naming the tool.
  if (auto tools = check_tools(*config, *dbs); !tools) return tools.error();
  // Write tools: their SQL admitted, their connections opened, the write role checked.
  auto writes = open_writes(*config, *dbs);
  if (!writes) return writes.error();

  // One worker per permit runs statements; one more shapes answers and serves
  // /v1/schema and /readyz meanwhile (queued requests hold no worker).
  int workers = 2;
  for (const auto& db : config->databases) workers += db.permits + (config->writes.empty() ? 0 : db.write_permits);
  ServerOptions server;
  server.host = config->listen_host;
  server.port = config->listen_port;
  server.max_body_bytes = static_cast<std::size_t>(config->limits.max_body_bytes);
  server.max_connections_per_client = static_cast<std::size_t>(config->limits.max_connections_per_client);
  server.max_connections = static_cast<std::size_t>(config->limits.max_connections);
  server.header_timeout = std::chrono::milliseconds(config->limits.header_timeout_ms);
  server.idle_timeout = std::chrono::milliseconds(config->limits.idle_timeout_ms);
  // Health checks keep answering while a client holds every connection it may.
  for (RouteId id : {RouteId::Healthz, RouteId::Readyz}) server.always_served.emplace_back(route(id).path);
  const std::string host = config->listen_host;
  const std::chrono::milliseconds grace(config->shutdown_grace_ms);
  std::string key_names;  // names only: tokens are never in the config, let alone the log
  for (const auto& key : config->keys)
    key_names +=
        (key_names.empty() ? "" : ", ") + key.name + (key.anonymous ? " (anonymous: requests without a token)" : "");
  std::vector<std::string> names;
  for (const auto& db : config->databases) names.push_back(db.name);
  auto api = std::make_unique<Api>(std::move(config).value(), std::move(dbs).value(), workers);
  api->set_writes(std::move(writes).value());
  auto running = std::make_unique<RunningGateway>(std::move(api), std::move(server), grace);
  auto port = running->start();
  if (!port) return port.error();
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  std::cerr << "querygate: listening on http://" << (host.find(':') != std::string::npos ? "[" + host + "]" : host)
            << ":" << *port << " (databases: " << list << "; "
            << (key_names.empty() ? std::string("no API keys: loopback only") : "API keys: " + key_names) << ")\n";
  return std::unique_ptr<Running>(std::move(running));
}

}  // namespace qg::gateway
