// PostgreSQL goes away and comes back: requests during the outage get 503
// backend:unavailable with Retry-After and a FIX, /readyz says so, and the
// pool heals by itself once the server is back, without restarting querygate.
// Uses a private throwaway cluster (the shared test cluster must stay up for
// the tests running beside this one).
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <thread>

#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

constexpr const char* kPgBin = "/usr/lib/postgresql/15/bin";

// run_command execs without a PATH search; env does the search.
Command run(std::vector<std::string> argv) {
  argv.insert(argv.begin(), "/usr/bin/env");
  return run_command(argv);
}

// initdb and pg_ctl refuse to run as root: as root, run them as postgres.
std::vector<std::string> as_postgres(std::vector<std::string> argv) {
  if (getuid() != 0) return argv;
  argv.insert(argv.begin(), {"runuser", "-u", "postgres", "--"});
  return argv;
}

class PrivateCluster {
 public:
  PrivateCluster() : port_(20000 + getpid() % 20000), dir_(make_temp_dir("qg-pg-outage")) {
    run({"chmod", "755", dir_.string()});
    if (getuid() == 0) run({"chown", "postgres:postgres", dir_.string()});
    auto init = run(as_postgres({std::string(kPgBin) + "/initdb", "-D", data(), "-U", "postgres", "-A", "trust", "-E",
                                 "UTF8", "--locale=C.UTF-8", "--no-sync"}));
    if (init.exit_code != 0) throw std::runtime_error("initdb failed: " + init.output);
    start_server();
    auto setup = run({"psql", "-X", "-q", "-h", "127.0.0.1", "-p", std::to_string(port_), "-U", "postgres", "-v",
                      "ON_ERROR_STOP=1", "-c",
                      "CREATE ROLE reader LOGIN; CREATE TABLE t (id int); INSERT INTO t VALUES (1), (2); "
                      "GRANT SELECT ON t TO reader;"});
    if (setup.exit_code != 0) throw std::runtime_error("setup failed: " + setup.output);
  }
  ~PrivateCluster() {
    run(as_postgres({std::string(kPgBin) + "/pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop"}));
    std::filesystem::remove_all(dir_);
  }
  void start_server() {
    auto r = run(as_postgres(
        {std::string(kPgBin) + "/pg_ctl", "-D", data(), "-l", (dir_ / "log").string(), "-w", "-t", "30", "-o",
         "-p " + std::to_string(port_) + " -k " + dir_.string() + " -c listen_addresses=127.0.0.1 -c fsync=off",
         "start"}));
    if (r.exit_code != 0) throw std::runtime_error("pg_ctl start failed: " + r.output);
  }
  void stop_server() {
    auto r = run(as_postgres({std::string(kPgBin) + "/pg_ctl", "-D", data(), "-m", "fast", "-w", "stop"}));
    if (r.exit_code != 0) throw std::runtime_error("pg_ctl stop failed: " + r.output);
  }
  int port() const { return port_; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::string data() const { return (dir_ / "data").string(); }
  int port_;
  std::filesystem::path dir_;
};

HttpResult query(int port) {
  return http(port, "POST", "/v1/query", R"({"sql": "SELECT count(*) AS n FROM t"})");
}

TEST(PostgresOutage, RequestsGet503DuringTheOutageAndThePoolHeals) {
  // Needs a PostgreSQL installation it may start itself; same opt-out rules as the shared cluster.
  QG_PG_TEST_SERVER(shared);
  (void)shared;
  if (getuid() != 0 && !std::filesystem::exists(std::string(kPgBin) + "/initdb"))
    GTEST_SKIP() << "*** SKIPPED: no PostgreSQL binaries to start a private cluster ***";
  PrivateCluster cluster;
  const auto config_dir = cluster.dir() / "gateway";
  std::filesystem::create_directories(config_dir);
  write_file(
      config_dir / "querygate.yaml",
      "databases:\n  app:\n    backend: postgres\n    dsn: \"host=127.0.0.1 port=" + std::to_string(cluster.port()) +
          " user=reader dbname=postgres\"\n    permits: 2\n"
          "    tables:\n      t: {}\n");
  GatewayProcess gateway(config_dir / "querygate.yaml");
  for (int i = 0; i < 3; ++i) ASSERT_EQ(query(gateway.port()).status, 200);

  cluster.stop_server();
  for (int i = 0; i < 3; ++i) {  // every pooled connection is broken now; none may hang or crash
    const auto started = std::chrono::steady_clock::now();
    auto r = query(gateway.port());
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    const auto doc = json::parse(r.body);
    EXPECT_EQ(doc.at("error").at("code").as_string(), "backend:unavailable");
    EXPECT_NE(std::string(doc.at("error").at("fix").as_string()).find("retry in 2 s"), std::string::npos) << r.body;
    EXPECT_NE(r.headers.find("Retry-After: 2"), std::string::npos) << r.headers;
  }
  EXPECT_EQ(http(gateway.port(), "GET", "/readyz").status, 503);

  cluster.start_server();
  // The pool reconnects on use; after a failed connect it waits a second
  // before trying again, so allow a few seconds, polling.
  int status = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    auto r = query(gateway.port());
    status = r.status;
    if (status == 200) {
      EXPECT_EQ(json::parse(r.body).at("rows").at(0).at(0).as_int64(), 2);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_EQ(status, 200) << "the pool did not heal after the server came back";
  EXPECT_EQ(http(gateway.port(), "GET", "/readyz").status, 200);
  EXPECT_TRUE(gateway.alive());
}

}  // namespace
}  // namespace qg::testing
