#pragma once
// Start-up: load and validate the config, open every database (introspection
// checks the allowlist against the real tables), start the HTTP server.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "common/result.hpp"
#include "config/config.hpp"
#include "executors/executor.hpp"
#include "gateway/api/api.hpp"

namespace qg::gateway {

struct StartupOptions {
  std::string config_file;         // empty: the embedded demo
  std::string listen;              // overrides the config's listen when set
  std::filesystem::path demo_dir;  // where the demo database is generated
};

class Running {
 public:
  virtual ~Running() = default;
  virtual std::uint16_t port() const = 0;
  // Graceful: stops accepting, lets accepted requests finish within the
  // config's shutdown_grace_ms, cancels the rest, then closes everything.
  virtual void stop() = 0;
};

Result<std::unique_ptr<Running>> start(const StartupOptions& options);

// The demo config with its database path pointing into `demo_dir`; creates the
// demo database there when it is missing.
Result<config::Config> demo_config(const std::filesystem::path& demo_dir);

// Loads the file and opens every database it names (read-only), as start-up would.
Status check_config(const std::filesystem::path& file);

Status create_demo_database(const std::filesystem::path& path);

// The tables whose row filter binds a value from the calling key (config
// `bind`), with the filter's conditions on the table's own columns (outside its
// subqueries): what the executor's plan gate requires of every scan of them.
std::vector<exec::Executor::BoundRowFilter> bound_row_filters(const catalog::Catalog& catalog);

// Opens every database and builds the catalog admission uses for it.
Result<ServedDatabases> open_databases(const config::Config& config);
// Admits the write tools' SQL against the databases' catalogs and opens their connections.
Result<std::unique_ptr<writes::WriteService>> open_writes(const config::Config& config, const ServedDatabases& dbs);

}  // namespace qg::gateway
