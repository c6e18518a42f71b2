// databases.<name>.*: the key table for a database, and its reader. The backend
// is read first because it decides which other keys apply; a sqlite path is
// resolved against the config file's folder; postgres needs exactly one of dsn / dsn_env.
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

namespace {

namespace fs = std::filesystem;

// databases.<name>.*
constexpr IntKey<Database> kDatabaseInts[] = {
    {"permits", &Database::permits, 2, 1, 64, Only::Sqlite},  // WAL lets a few readers share the file
    {"permits", &Database::permits, 4, 1, 64, Only::Postgres},
    {"queue_depth", &Database::queue_depth, 8, 0, 10'000},
    {"write_permits", &Database::write_permits, 1, 1, 16},               // concurrent write-tool transactions
    {"write_queue_depth", &Database::write_queue_depth, 64, 0, 10'000},  // write-tool calls waiting
};
constexpr BoolKey<Database> kDatabaseBools[] = {
    {"allow_privileged_role", &Database::allow_privileged_role, false, Only::Postgres},
    {"spotlight", &Database::spotlight, false},  // wrap untrusted text in a per-response marker
};
constexpr TextKey<Database> kDatabaseTexts[] = {
    {"dsn", &Database::dsn, "", Only::Postgres},          // exactly one of dsn / dsn_env (checked after)
    {"dsn_env", &Database::dsn_env, "", Only::Postgres},  // an environment variable's name
    // PostgreSQL: the schema served (search_path). SQLite: the PostgreSQL schema a copy of these tables
    // answers to, so `public.t` (or `sales.t`) written for PostgreSQL reads table t; `main.t` always does.
    {"schema", &Database::schema, "public"},
    {"write_dsn_env", &Database::write_dsn_env, "", Only::Postgres},  // the write tools' role (writes/)
};
constexpr OwnKey kDatabaseOwn[] = {
    {"backend", "sqlite or postgres", true},
    {"path", "the SQLite file, relative to the config file's folder", true, Only::Sqlite},
    {"tables", "a mapping of allowlisted table names to their curation ({} for none)"},
};
constexpr KeyTable<Database> kDatabaseKeys{
    .ints = kDatabaseInts, .bools = kDatabaseBools, .texts = kDatabaseTexts, .own = kDatabaseOwn};

// The backend decides which other keys a database takes, so it is read before them.
Result<Dialect> read_backend(const Entry& database) {
  const OwnKey& key = *find_key(std::span<const OwnKey>(kDatabaseOwn), "backend", std::nullopt);
  for (const auto& pair : database.value) {
    if (!pair.first.IsScalar() || pair.first.Scalar() != key.name) continue;
    const Entry entry{pair.first, pair.second, child_path(database.path, key.name)};
    const std::string text = entry.value.IsScalar() ? entry.value.Scalar() : std::string();
    for (const Dialect dialect : {Dialect::Sqlite, Dialect::Postgres})
      if (text == dialect_name(dialect)) return dialect;
    std::string message = "'" + entry.path + "' must be " + std::string(key.expects) + "; got " + describe(entry.value);
    if (!text.empty()) {
      if (const auto match = closest_match(text, {dialect_name(Dialect::Sqlite), dialect_name(Dialect::Postgres)}))
        message += " (did you mean '" + std::string(*match) + "'?)";
    }
    return config_error(message + position_of(entry), "Write backend: sqlite or backend: postgres.");
  }
  return config_error("'" + child_path(database.path, key.name) + "' is required" + position_of(database),
                      "Add backend: sqlite or backend: postgres under '" + database.path + "'.");
}

Status check_postgres_connection(const Entry& entry, const Database& database) {
  const std::string dsn = child_path(entry.path, "dsn");
  const std::string dsn_env = child_path(entry.path, "dsn_env");
  const std::string fix =
      "Write either dsn: postgresql://user@host:5432/db or dsn_env: NAME (an environment variable holding "
      "the DSN, which keeps a password out of this file).";
  if (database.dsn.empty() == database.dsn_env.empty()) {
    const std::string problem = database.dsn.empty() ? "neither is set" : "both are set";
    return config_error(
        "backend postgres needs exactly one of '" + dsn + "' and '" + dsn_env + "'; " + problem + position_of(entry),
        fix);
  }
  if (!database.dsn_env.empty() && !is_identifier(database.dsn_env, /*dash_allowed=*/false)) {
    return config_error("'" + dsn_env + "' must name an environment variable ([A-Za-z_][A-Za-z0-9_]*); got '" +
                            clipped(database.dsn_env) + "'" + position_of(entry),
                        fix);
  }
  return {};
}

Status read_database(const std::string& name, const Entry& entry, const fs::path& base_dir, Database& database) {
  if (!is_identifier(name, /*dash_allowed=*/true)) {
    return config_error("database name '" + clipped(name) + "' at '" + entry.path +
                            "' is not a name requests can use ([A-Za-z_][A-Za-z0-9_-]*)" + position_of(entry),
                        "Rename it using letters, digits, '_' and '-', starting with a letter or '_'.");
  }
  database.name = name;
  if (!entry.value.IsMap()) {
    return config_error("'" + entry.path + "' must be a mapping with at least 'backend'; got " + describe(entry.value) +
                            position_of(entry),
                        "Write e.g. " + name + ": { backend: sqlite, path: " + name + ".db }.");
  }
  Result<Dialect> backend = read_backend(entry);
  if (!backend) return std::move(backend).error();
  database.backend = *backend;

  Status status = read_section(entry, kDatabaseKeys, database.backend, database,
                               [&](const OwnKey& key, const Entry& own_entry) -> Status {
                                 if (key.name == "backend") return {};  // read above
                                 if (key.name == "tables")
                                   return read_tables(own_entry, key, database.backend, database.tables);
                                 if (key.name == "path") {
                                   Result<std::string> path = read_text(own_entry, key.expects);
                                   if (!path) return std::move(path).error();
                                   // Absolute paths stay as written: operator/ keeps the right side then.
                                   database.path = (base_dir / *path).lexically_normal();
                                   return {};
                                 }
                                 return unhandled(key, own_entry);
                               });
  if (!status) return status;
  if (database.backend == Dialect::Postgres) return check_postgres_connection(entry, database);
  return {};
}

}  // namespace

Status read_databases(const Entry& entry, const OwnKey& key, const fs::path& base_dir,
                      std::vector<Database>& databases) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& database_entry) -> Status {
    Database database;
    if (Status status = read_database(name, database_entry, base_dir, database); !status) return status;
    databases.push_back(std::move(database));
    return {};
  });
}

}  // namespace qg::config::detail
