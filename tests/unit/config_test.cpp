#include "config/config.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>

#include "common/error_code.hpp"

namespace qg::config {
namespace {

namespace fs = std::filesystem;

const fs::path kBaseDir = "/srv/querygate";

// The smallest valid file: everything else takes its default.
constexpr std::string_view kMinimal = R"(
databases:
  demo:
    backend: sqlite
    path: demo.db
)";

// The example from the configuration's public description, verbatim.
constexpr std::string_view kFullExample = R"(
listen: 127.0.0.1:8080
limits:            # all optional; defaults as in config.hpp Limits
  default_rows: 100
  max_rows: 5000
  max_sql_bytes: 16384
  deadline_ms: 30000
  max_cell_bytes: 8192
  max_response_bytes: 1048576
  float_digits: 6
  max_body_bytes: 65536
databases:
  demo:                       # the name requests use
    backend: sqlite           # sqlite | postgres
    path: demo.db             # relative to the config file's folder (sqlite only; required for sqlite)
    permits: 2                # optional: default 2 for sqlite, 4 for postgres
    queue_depth: 8            # optional
    tables:                   # the allowlist (a map; keep file order)
      spans:
        comment: one OpenTelemetry span per row
        columns:
          attributes: { comment: span attributes as JSON, untrusted: true }
          cost_usd:   { comment: model cost, unit: USD }
      traces: {}
)";

Result<Config> parse(std::string_view yaml) {
  return parse_config(std::string(yaml), kBaseDir);
}

// Passes when `result` failed with config:invalid and its message holds every fragment.
testing::AssertionResult FailsWith(const Result<Config>& result, std::initializer_list<std::string_view> fragments) {
  if (result.has_value()) return testing::AssertionFailure() << "parsed without error";
  const Error& error = result.error();
  if (error.code != ErrorCode::ConfigInvalid)
    return testing::AssertionFailure() << "code is " << name(error.code) << ": " << error.message;
  for (std::string_view fragment : fragments) {
    if (error.message.find(fragment) == std::string::npos)
      return testing::AssertionFailure() << "message lacks \"" << fragment << "\": " << error.message;
  }
  return testing::AssertionSuccess() << error.message;
}

// A scratch folder per test, removed afterwards.
class ConfigFileTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* test = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("qg_config_test_" + std::string(test->name()) + "_" + std::to_string(static_cast<long>(::getpid())));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "etc");
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const fs::path& relative, std::string_view text) {
    const fs::path file = dir_ / relative;
    std::ofstream(file) << text;
    return file;
  }

  fs::path dir_;
};

// --- parse_listen -----------------------------------------------------------

TEST(ConfigTest, ParseListenAcceptsHostPortForms) {
  auto v4 = parse_listen("127.0.0.1:8080");
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->first, "127.0.0.1");
  EXPECT_EQ(v4->second, 8080);

  auto v6 = parse_listen("[::1]:9000");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->first, "::1");
  EXPECT_EQ(v6->second, 9000);

  auto any_port = parse_listen("localhost:0");
  ASSERT_TRUE(any_port.has_value());
  EXPECT_EQ(any_port->first, "localhost");
  EXPECT_EQ(any_port->second, 0);

  auto highest = parse_listen("0.0.0.0:65535");
  ASSERT_TRUE(highest.has_value());
  EXPECT_EQ(highest->second, 65535);
}

TEST(ConfigTest, ParseListenRefusesAndNamesTheText) {
  for (const std::string text :
       {"127.0.0.1", "127.0.0.1:http", "127.0.0.1:65536", "127.0.0.1:99999999999999999999", ":8080", "::1:8080",
        "[::1:8080", "[::1]8080", "[]:8080", "host:", "host:-1", "host:+80", ""}) {
    auto result = parse_listen(text);
    ASSERT_FALSE(result.has_value()) << text;
    EXPECT_EQ(result.error().code, ErrorCode::ConfigInvalid) << text;
    EXPECT_NE(result.error().message.find("'" + text + "'"), std::string::npos) << result.error().message;
    EXPECT_FALSE(result.error().fix.empty()) << text;
  }
}

// --- valid files -----------------------------------------------------------------

TEST(ConfigTest, MinimalFileTakesEveryDefault) {
  auto config = parse(kMinimal);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->listen_host, "127.0.0.1");
  EXPECT_EQ(config->listen_port, 8080);
  const Limits defaults;
  EXPECT_EQ(config->limits.default_rows, defaults.default_rows);
  EXPECT_EQ(config->limits.max_rows, defaults.max_rows);
  EXPECT_EQ(config->limits.max_sql_bytes, defaults.max_sql_bytes);
  EXPECT_EQ(config->limits.deadline_ms, defaults.deadline_ms);
  EXPECT_EQ(config->limits.max_cell_bytes, defaults.max_cell_bytes);
  EXPECT_EQ(config->limits.max_response_bytes, defaults.max_response_bytes);
  EXPECT_EQ(config->limits.float_digits, defaults.float_digits);
  EXPECT_EQ(config->limits.max_body_bytes, defaults.max_body_bytes);
  EXPECT_TRUE(config->source.empty());

  ASSERT_EQ(config->databases.size(), 1u);
  const Database& db = config->databases[0];
  EXPECT_EQ(db.name, "demo");
  EXPECT_EQ(db.backend, Dialect::Sqlite);
  EXPECT_EQ(db.path, kBaseDir / "demo.db");
  EXPECT_EQ(db.permits, 2);
  EXPECT_EQ(db.queue_depth, 8);
  EXPECT_TRUE(db.tables.empty());
}

TEST(ConfigTest, DocumentedDefaultsAreTheHeaderDefaults) {
  const Limits limits;
  EXPECT_EQ(limits.default_rows, 100);
  EXPECT_EQ(limits.max_rows, 5000);
  EXPECT_EQ(limits.max_sql_bytes, 16384);
  EXPECT_EQ(limits.deadline_ms, 30000);
  EXPECT_EQ(limits.max_cell_bytes, 8192);
  EXPECT_EQ(limits.max_response_bytes, 1048576);
  EXPECT_EQ(limits.float_digits, 6);
  EXPECT_EQ(limits.max_body_bytes, 65536);
  EXPECT_EQ(limits.max_expression_growth, 1000);
  EXPECT_EQ(limits.max_connections_per_client, 64);
  EXPECT_EQ(limits.max_connections, 1024);
  EXPECT_EQ(limits.admission_cache_entries, 1024);
  EXPECT_EQ(limits.header_timeout_ms, 5000);
  EXPECT_EQ(limits.idle_timeout_ms, 5000);
}

TEST(ConfigTest, RuntimeBoundsAreReadAndRangeChecked) {
  auto config = parse(std::string(kMinimal) +
                      "limits: { max_expression_growth: 50, max_connections_per_client: 8, header_timeout_ms: 700,"
                      " idle_timeout_ms: 1500, max_connections: 20000, admission_cache_entries: 0 }\n");
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config->limits.max_connections, 20000);
  EXPECT_EQ(config->limits.admission_cache_entries, 0);
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_connections: 0 }\n"),
                        {"'limits.max_connections'", "got 0"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { admission_cache_entries: -1 }\n"),
                        {"'limits.admission_cache_entries'", "got -1"}));
  EXPECT_EQ(config->limits.max_expression_growth, 50);
  EXPECT_EQ(config->limits.max_connections_per_client, 8);
  EXPECT_EQ(config->limits.header_timeout_ms, 700);
  EXPECT_EQ(config->limits.idle_timeout_ms, 1500);
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_expression_growth: 1 }\n"),
                        {"'limits.max_expression_growth'", "2..1000000", "got 1"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_connections_per_client: 0 }\n"),
                        {"'limits.max_connections_per_client'", "got 0"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { header_timeout_ms: 10 }\n"),
                        {"'limits.header_timeout_ms'", "100..60000", "got 10"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { idle_timeout_ms: 99 }\n"),
                        {"'limits.idle_timeout_ms'", "100..600000", "got 99"}));
}

TEST(ConfigTest, FullExampleParses) {
  auto config = parse(kFullExample);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->listen_host, "127.0.0.1");
  EXPECT_EQ(config->listen_port, 8080);
  EXPECT_EQ(config->limits.max_response_bytes, 1048576);

  ASSERT_EQ(config->databases.size(), 1u);
  const Database& db = config->databases[0];
  EXPECT_EQ(db.name, "demo");
  EXPECT_EQ(db.backend, Dialect::Sqlite);
  EXPECT_EQ(db.path, kBaseDir / "demo.db");
  EXPECT_EQ(db.permits, 2);
  EXPECT_EQ(db.queue_depth, 8);

  ASSERT_EQ(db.tables.size(), 2u);
  const TableCuration& spans = db.tables[0];
  EXPECT_EQ(spans.name, "spans");
  EXPECT_EQ(spans.comment, "one OpenTelemetry span per row");
  ASSERT_EQ(spans.columns.size(), 2u);
  EXPECT_EQ(spans.columns[0].first, "attributes");
  EXPECT_EQ(spans.columns[0].second.comment, "span attributes as JSON");
  EXPECT_TRUE(spans.columns[0].second.untrusted);
  EXPECT_EQ(spans.columns[0].second.unit, "");
  EXPECT_EQ(spans.columns[1].first, "cost_usd");
  EXPECT_EQ(spans.columns[1].second.comment, "model cost");
  EXPECT_EQ(spans.columns[1].second.unit, "USD");
  EXPECT_FALSE(spans.columns[1].second.untrusted);

  EXPECT_EQ(db.tables[1].name, "traces");
  EXPECT_EQ(db.tables[1].comment, "");
  EXPECT_TRUE(db.tables[1].columns.empty());
}

TEST(ConfigTest, NonDefaultValuesAndFileOrderAreKept) {
  auto config = parse(R"(
listen: "[::1]:0"
limits: { default_rows: 10, max_rows: 10, float_digits: 0, deadline_ms: 1 }
databases:
  zeta:
    backend: sqlite
    path: z.db
    permits: 64
    queue_depth: 0
    tables:
      b_table:
      a_table: { columns: { y: , x: {} } }
  alpha-2:
    backend: sqlite
    path: a.db
)");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->listen_host, "::1");
  EXPECT_EQ(config->listen_port, 0);
  EXPECT_EQ(config->limits.default_rows, 10);
  EXPECT_EQ(config->limits.max_rows, 10);
  EXPECT_EQ(config->limits.float_digits, 0);
  EXPECT_EQ(config->limits.deadline_ms, 1);
  ASSERT_EQ(config->databases.size(), 2u);
  EXPECT_EQ(config->databases[0].name, "zeta");
  EXPECT_EQ(config->databases[0].permits, 64);
  EXPECT_EQ(config->databases[0].queue_depth, 0);
  ASSERT_EQ(config->databases[0].tables.size(), 2u);
  EXPECT_EQ(config->databases[0].tables[0].name, "b_table");
  EXPECT_EQ(config->databases[0].tables[1].name, "a_table");
  ASSERT_EQ(config->databases[0].tables[1].columns.size(), 2u);
  EXPECT_EQ(config->databases[0].tables[1].columns[0].first, "y");
  EXPECT_EQ(config->databases[0].tables[1].columns[1].first, "x");
  EXPECT_EQ(config->databases[1].name, "alpha-2");
}

TEST(ConfigTest, PostgresDatabaseTakesItsOwnKeysAndDefaults) {
  auto config = parse(R"(
databases:
  warehouse:
    backend: postgres
    dsn_env: QG_WAREHOUSE_DSN
    schema: analytics
    allow_privileged_role: true
    tables: { events: {} }
  plain:
    backend: postgres
    dsn: postgresql://qg@127.0.0.1:5432/qg
)");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  ASSERT_EQ(config->databases.size(), 2u);
  const Database& warehouse = config->databases[0];
  EXPECT_EQ(warehouse.backend, Dialect::Postgres);
  EXPECT_EQ(warehouse.dsn_env, "QG_WAREHOUSE_DSN");
  EXPECT_EQ(warehouse.dsn, "");
  EXPECT_EQ(warehouse.schema, "analytics");
  EXPECT_TRUE(warehouse.allow_privileged_role);
  EXPECT_EQ(warehouse.permits, 4);
  EXPECT_TRUE(warehouse.path.empty());
  ASSERT_EQ(warehouse.tables.size(), 1u);

  const Database& plain = config->databases[1];
  EXPECT_EQ(plain.dsn, "postgresql://qg@127.0.0.1:5432/qg");
  EXPECT_EQ(plain.schema, "public");
  EXPECT_FALSE(plain.allow_privileged_role);
  EXPECT_EQ(plain.permits, 4);
}

TEST(ConfigTest, FindDatabaseByName) {
  auto config = parse(R"(
databases:
  one: { backend: sqlite, path: one.db }
  two: { backend: sqlite, path: two.db }
)");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  ASSERT_NE(config->find_database("two"), nullptr);
  EXPECT_EQ(config->find_database("two")->path, kBaseDir / "two.db");
  EXPECT_EQ(config->find_database("one"), &config->databases[0]);
  EXPECT_EQ(config->find_database("three"), nullptr);
  EXPECT_EQ(config->find_database("ONE"), nullptr);
}

// --- paths and files -------------------------------------------------------------

TEST(ConfigTest, RelativePathsResolveAgainstTheBaseDir) {
  auto config = parse(R"(
databases:
  nested: { backend: sqlite, path: data/../dbs/./demo.db }
  absolute: { backend: sqlite, path: /var/lib/qg/abs.db }
)");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->databases[0].path, kBaseDir / "dbs" / "demo.db");
  EXPECT_EQ(config->databases[1].path, fs::path("/var/lib/qg/abs.db"));
}

TEST(ConfigTest, RelativeBaseDirBecomesAbsolute) {
  auto config = parse_config(std::string(kMinimal), "some/folder");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_TRUE(config->databases[0].path.is_absolute());
  EXPECT_EQ(config->databases[0].path, (fs::current_path() / "some/folder/demo.db").lexically_normal());
}

TEST_F(ConfigFileTest, LoadConfigResolvesAgainstTheFilesFolder) {
  const fs::path file = write("etc/querygate.yaml", kFullExample);
  // A relative name for the file, as an operator would type it: the result must still be absolute.
  const fs::path relative = fs::relative(file, fs::current_path());
  for (const fs::path& given : {file, relative}) {
    auto config = load_config(given);
    ASSERT_TRUE(config.has_value()) << given << ": " << config.error().message;
    EXPECT_EQ(config->source, file) << given;
    EXPECT_EQ(config->databases[0].path, dir_ / "etc" / "demo.db") << given;
    EXPECT_TRUE(config->databases[0].path.is_absolute());
  }
}

TEST_F(ConfigFileTest, LoadConfigDoesNotRequireTheDatabaseFileToExist) {
  const fs::path file = write("etc/querygate.yaml", kMinimal);
  ASSERT_FALSE(fs::exists(dir_ / "etc" / "demo.db"));
  auto config = load_config(file);
  ASSERT_TRUE(config.has_value()) << config.error().message;
}

TEST_F(ConfigFileTest, MissingFileIsNamed) {
  const fs::path missing = dir_ / "etc" / "nope.yaml";
  auto config = load_config(missing);
  EXPECT_TRUE(FailsWith(config, {missing.string(), "cannot read"}));
}

TEST_F(ConfigFileTest, DirectoryIsNotAFile) {
  auto config = load_config(dir_ / "etc");
  EXPECT_TRUE(FailsWith(config, {(dir_ / "etc").string(), "directory"}));
}

TEST_F(ConfigFileTest, ErrorsFromAFileNameTheFileAndTheKey) {
  const fs::path file = write("etc/bad.yaml", "limits:\n  max_rows: 0\ndatabases: {}\n");
  auto config = load_config(file);
  EXPECT_TRUE(FailsWith(config, {file.string(), "'limits.max_rows'", "line 2"}));
}

// --- errors ----------------------------------------------------------------------

TEST(ConfigTest, UnknownKeyIsNamedWithASuggestion) {
  std::string yaml(kFullExample);
  yaml.replace(yaml.find("        columns:"), 16, "        colums:");
  auto config = parse(yaml);
  ASSERT_TRUE(FailsWith(config, {"unknown key 'databases.demo.tables.spans.colums' (did you mean 'columns'?)"}));
  EXPECT_NE(config.error().message.find("line 21, column 9"), std::string::npos) << config.error().message;
  EXPECT_NE(config.error().fix.find("columns, comment"), std::string::npos) << config.error().fix;
}

TEST(ConfigTest, UnknownKeysAtEveryLevel) {
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "listn: 127.0.0.1:1\n"),
                        {"unknown key 'listn'", "did you mean 'listen'?"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_row: 5 }\n"),
                        {"unknown key 'limits.max_row'", "did you mean 'max_rows'?"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    permit: 3\n"),
                        {"unknown key 'databases.demo.permit'", "did you mean 'permits'?"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables: { t: { columns: { c: { untrustd: true } } } }\n"),
                        {"unknown key 'databases.demo.tables.t.columns.c.untrustd'", "did you mean 'untrusted'?"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    TABLES: {}\n"),
                        {"unknown key 'databases.demo.TABLES'", "did you mean 'tables'?"}));
}

TEST(ConfigTest, UnknownKeyFarFromAnyGetsNoSuggestion) {
  auto config = parse(std::string(kMinimal) + "telemetry: on\n");
  ASSERT_TRUE(FailsWith(config, {"unknown key 'telemetry'"}));
  EXPECT_EQ(config.error().message.find("did you mean"), std::string::npos) << config.error().message;
  EXPECT_NE(config.error().fix.find("databases, keys, limits, listen, log_sql, public_url, shutdown_grace_ms"),
            std::string::npos)
      << config.error().fix;
}

TEST(ConfigTest, KeyOfTheOtherBackendIsNamedAsMisplaced) {
  EXPECT_TRUE(FailsWith(parse(R"(
databases:
  pg: { backend: postgres, dsn: "postgresql://x/y", path: x.db }
)"),
                        {"'databases.pg.path' applies only to backend sqlite"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    dsn: postgresql://x/y\n"),
                        {"'databases.demo.dsn' applies only to backend postgres"}));
}

TEST(ConfigTest, OutOfRangeNamesKeyValueAndRange) {
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_rows: 0 }\n"),
                        {"'limits.max_rows'", "1..1000000", "got 0"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_sql_bytes: 2000000 }\n"),
                        {"'limits.max_sql_bytes'", "64..1048576", "got 2000000"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { float_digits: 18 }\n"),
                        {"'limits.float_digits'", "0..17", "got 18"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { deadline_ms: -5 }\n"),
                        {"'limits.deadline_ms'", "1..3600000", "got -5"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { deadline_ms: 99999999999999999999999 }\n"),
                        {"'limits.deadline_ms'", "got 99999999999999999999999"}));
  EXPECT_TRUE(
      FailsWith(parse(std::string(kMinimal) + "    permits: 65\n"), {"'databases.demo.permits'", "1..64", "got 65"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    queue_depth: 10001\n"),
                        {"'databases.demo.queue_depth'", "0..10000", "got 10001"}));
}

TEST(ConfigTest, WrongTypeNamesKeyAndWhatWasWritten) {
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_rows: many }\n"),
                        {"'limits.max_rows' must be an integer", "got 'many'"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_rows: \"5000\" }\n"),
                        {"'limits.max_rows' must be an integer", "quoted string \"5000\""}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_rows: 5e3 }\n"), {"'limits.max_rows'"}));
  EXPECT_TRUE(
      FailsWith(parse(std::string(kMinimal) + "limits: { max_rows: [1] }\n"), {"'limits.max_rows'", "got a list"}));
  EXPECT_TRUE(
      FailsWith(parse(std::string(kMinimal) + "limits: { max_rows: }\n"), {"'limits.max_rows'", "got nothing"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: 5\n"), {"'limits' must be a mapping"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables: { t: { columns: { c: { untrusted: yes } } } }\n"),
                        {"'databases.demo.tables.t.columns.c.untrusted' must be true or false", "got 'yes'"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables: { t: { comment: { a: b } } }\n"),
                        {"'databases.demo.tables.t.comment'", "got a mapping"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables: [spans, traces]\n"),
                        {"'databases.demo.tables'", "got a list"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables: { t: { columns: { c: { unit: \"\" } } } }\n"),
                        {"'databases.demo.tables.t.columns.c.unit'"}));
  EXPECT_TRUE(FailsWith(parse("databases:\n  demo: { backend: mysql, path: x.db }\n"),
                        {"'databases.demo.backend' must be sqlite or postgres", "got 'mysql'"}));
  EXPECT_TRUE(FailsWith(parse("databases:\n  demo: { backend: postgresql, dsn: x }\n"),
                        {"'databases.demo.backend'", "did you mean 'postgres'?"}));
}

TEST(ConfigTest, DefaultRowsAboveMaxRows) {
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { default_rows: 200, max_rows: 150 }\n"),
                        {"'limits.default_rows' (200)", "'limits.max_rows' (150)"}));
  // The default of 100 counts too, so lowering only max_rows is caught.
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits: { max_rows: 50 }\n"),
                        {"'limits.default_rows' (100)", "'limits.max_rows' (50)"}));
}

TEST(ConfigTest, SqliteNeedsAPath) {
  EXPECT_TRUE(FailsWith(parse("databases:\n  demo: { backend: sqlite }\n"),
                        {"'databases.demo.path' is required for backend sqlite"}));
  EXPECT_TRUE(FailsWith(parse("databases:\n  demo: { backend: sqlite, path: \"\" }\n"), {"'databases.demo.path'"}));
}

TEST(ConfigTest, DatabaseNeedsABackend) {
  EXPECT_TRUE(FailsWith(parse("databases:\n  demo: { path: demo.db }\n"), {"'databases.demo.backend' is required"}));
  EXPECT_TRUE(FailsWith(parse("databases:\n  demo:\n"), {"'databases.demo' must be a mapping", "got nothing"}));
}

TEST(ConfigTest, PostgresNeedsExactlyOneDsnSource) {
  EXPECT_TRUE(FailsWith(parse("databases:\n  pg: { backend: postgres }\n"),
                        {"'databases.pg.dsn'", "'databases.pg.dsn_env'", "neither is set"}));
  EXPECT_TRUE(FailsWith(parse("databases:\n  pg: { backend: postgres, dsn: postgresql://x/y, dsn_env: PG_DSN }\n"),
                        {"'databases.pg.dsn'", "'databases.pg.dsn_env'", "both are set"}));
  EXPECT_TRUE(FailsWith(parse("databases:\n  pg: { backend: postgres, dsn_env: \"not a name\" }\n"),
                        {"'databases.pg.dsn_env' must name an environment variable"}));
}

TEST(ConfigTest, AtLeastOneDatabase) {
  EXPECT_TRUE(FailsWith(parse(""), {"'databases'", "at least one database"}));
  EXPECT_TRUE(FailsWith(parse("# only a comment\n"), {"'databases'", "at least one database"}));
  EXPECT_TRUE(FailsWith(parse("listen: 127.0.0.1:1\n"), {"'databases'", "at least one database"}));
  EXPECT_TRUE(FailsWith(parse("databases: {}\n"), {"'databases'", "at least one database"}));
  EXPECT_TRUE(FailsWith(parse("databases:\n"), {"'databases'", "at least one database"}));
  EXPECT_TRUE(FailsWith(parse("databases: [demo]\n"), {"'databases' must be a mapping", "got a list"}));
}

TEST(ConfigTest, DatabaseNamesAreIdentifiers) {
  for (const char* bad : {"\"1st\"", "\"has space\"", "\"dot.ted\"", "\"-lead\"", "\"ünicode\""}) {
    EXPECT_TRUE(FailsWith(parse(std::string("databases:\n  ") + bad + ": { backend: sqlite, path: x.db }\n"),
                          {"database name", "[A-Za-z_][A-Za-z0-9_-]*"}))
        << bad;
  }
  EXPECT_TRUE(parse("databases:\n  _a-1_B: { backend: sqlite, path: x.db }\n").has_value());
}

TEST(ConfigTest, NamesMustBeNonEmptyScalars) {
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables: { \"\": {} }\n"),
                        {"'databases.demo.tables' has an empty key"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables: { t: { columns: { \"\": {} } } }\n"),
                        {"'databases.demo.tables.t.columns' has an empty key"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables:\n      ? [a, b]\n      : {}\n"),
                        {"'databases.demo.tables' has a key that is a list"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables:\n      ~: {}\n"), {"'databases.demo.tables'"}));
}

TEST(ConfigTest, DuplicateKeysAreErrors) {
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "limits:\n  max_rows: 10\n  max_rows: 20\n"),
                        {"duplicate key 'limits.max_rows'", "line 8", "first written at line 7"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "    tables:\n      t: {}\n      t: {}\n"),
                        {"duplicate key 'databases.demo.tables.t'"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "  demo:\n    backend: sqlite\n    path: other.db\n"),
                        {"duplicate key 'databases.demo'"}));
  EXPECT_TRUE(
      FailsWith(parse(std::string(kMinimal) + "    backend: postgres\n"), {"duplicate key 'databases.demo.backend'"}));
}

TEST(ConfigTest, MalformedYamlGivesLineAndColumn) {
  auto config = parse("databases:\n  demo: { backend: sqlite, path: x.db\nlimits: {}\n");
  ASSERT_TRUE(FailsWith(config, {"malformed YAML", "line "}));
  EXPECT_TRUE(
      FailsWith(parse("databases:\n  demo:\n    backend: sqlite\n   path: x.db\n"), {"malformed YAML at line 4"}));
  EXPECT_TRUE(FailsWith(parse("databases: [unclosed\n"), {"malformed YAML at line 2"}));
}

TEST(ConfigTest, TopLevelMustBeOneMapping) {
  EXPECT_TRUE(FailsWith(parse("- a\n- b\n"), {"the top level must be a mapping", "got a list"}));
  EXPECT_TRUE(FailsWith(parse("just text\n"), {"the top level must be a mapping"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "---\n" + std::string(kMinimal)), {"2 YAML documents"}));
}

TEST(ConfigTest, BadListenNamesKeyAndText) {
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "listen: 127.0.0.1:99999\n"),
                        {"'listen'", "'127.0.0.1:99999'", "65535"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "listen: localhost\n"), {"'listen'", "'localhost'", "no port"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "listen: 8080\n"), {"'listen'", "'8080'"}));
  EXPECT_TRUE(FailsWith(parse(std::string(kMinimal) + "listen: { host: a }\n"), {"'listen'", "got a mapping"}));
}

TEST(ConfigTest, ConfigInvalidIsAStartUpErrorCode) {
  EXPECT_EQ(name(ErrorCode::ConfigInvalid), "config:invalid");
  EXPECT_EQ(http_status(ErrorCode::ConfigInvalid), 500);
  EXPECT_EQ(error_code_from_name("config:invalid"), ErrorCode::ConfigInvalid);
}

TEST(ConfigTest, HostileInputNeverThrows) {
  const std::string inputs[] = {
      std::string("\0\x01\x02", 3),
      "\t\tdatabases:",
      "databases: &a { x: *a }",
      "databases: *undefined_alias",
      "? : :\n:",
      "{{{{{{{{{{",
      "databases:\n  demo: !!binary aGVsbG8=\n",
      "\xff\xfe garbage",
      std::string(10000, '['),
  };
  for (const std::string& input : inputs) {
    Result<Config> config = Config{};
    EXPECT_NO_THROW(config = parse_config(input, kBaseDir)) << input.substr(0, 40);
    EXPECT_FALSE(config.has_value()) << input.substr(0, 40);
  }
}

TEST(ConfigTest, AllowedHostsAreHostNamesKeptInLowerCase) {
  auto config = parse("allowed_hosts: [Querygate.Local, proxy-1.internal]\n" + std::string(kMinimal));
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->allowed_hosts, (std::vector<std::string>{"querygate.local", "proxy-1.internal"}));
  EXPECT_TRUE(parse(kMinimal)->allowed_hosts.empty());
  for (const char* bad : {"allowed_hosts: querygate.local\n", "allowed_hosts: [\"querygate.local:8080\"]\n",
                          "allowed_hosts: [\"http://querygate.local\"]\n", "allowed_hosts: [\"\"]\n"}) {
    auto refused = parse(bad + std::string(kMinimal));
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_NE(refused.error().message.find("allowed_hosts"), std::string::npos) << refused.error().message;
  }
}

}  // namespace
}  // namespace qg::config
