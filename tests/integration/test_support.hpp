#pragma once
// Helpers for black-box tests: run the real querygate binary and talk to it
// over loopback HTTP with a tiny blocking client (plain sockets, so the tests
// do not depend on the transport they test).
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace qg::testing {

struct HttpResult {
  int status = 0;       // 0: no response (connection closed or failed)
  std::string headers;  // raw header block
  std::string body;
};

// Sends raw bytes and reads until the server closes or `timeout` passes.
std::string raw_exchange(int port, const std::string& bytes, std::chrono::milliseconds timeout);
HttpResult http(int port, const std::string& method, const std::string& target, const std::string& body = {},
                const std::string& extra_headers = {});
HttpResult parse_response(const std::string& raw);

struct Command {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
Command run_command(const std::vector<std::string>& argv);

class GatewayProcess {
 public:
  // Starts `querygate --config <file> --listen 127.0.0.1:0` and waits until it prints its port.
  explicit GatewayProcess(const std::filesystem::path& config_file);
  ~GatewayProcess();
  GatewayProcess(const GatewayProcess&) = delete;
  GatewayProcess& operator=(const GatewayProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  bool alive() const;
  // Sends SIGTERM and waits; returns the exit status (or -1).
  int stop();
  std::string log() const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::filesystem::path log_file_;
};

std::filesystem::path make_temp_dir(const std::string& prefix);
void write_file(const std::filesystem::path& path, const std::string& text);

// The throwaway PostgreSQL of scripts/pg-test-cluster.sh (test.sh starts it and
// exports QG_TEST_PG_HOST / QG_TEST_PG_PORT). Its roles: qg_reader (read-only,
// the gateway's role), qg_writer (owns posture.notes), qg_owner (owns the data);
// databases: chinook, defog_<name>, posture.
struct PgTestServer {
  std::string host;
  int port = 0;
};
// nullopt when QG_TEST_PG_HOST or QG_TEST_PG_PORT is unset (or the port is not a number).
std::optional<PgTestServer> pg_test_server();
// postgresql://ROLE:ROLE@HOST:PORT/DB (the cluster's passwords equal the role names).
std::string pg_dsn(const PgTestServer& server, const std::string& role, const std::string& database);
// QG_REQUIRE_PG=1: a missing server fails PostgreSQL tests instead of skipping them (CI sets it).
bool pg_required();
// Empty when something accepts TCP connections at the server's address, else why not.
std::string pg_unreachable_reason(const PgTestServer& server);

// Index just past the JSON value that starts at `i` of a body as the gateway wrote it (a string, a literal, a number,
// an array or object); at the ',' or ']' that ends a scalar. Numbers keep the digits they were written with.
std::size_t past_json_value(const std::string& s, std::size_t i);

}  // namespace qg::testing

// In a TEST body: declares `const qg::testing::PgTestServer& var`, or ends the
// test when there is no server: GTEST_SKIP with a loud message, but FAIL when
// QG_REQUIRE_PG=1 (so CI cannot go green by silently skipping), and FAIL when the
// variables are set but nothing listens there.
#define QG_PG_TEST_SERVER(var)                                                                            \
  const auto var##_found = ::qg::testing::pg_test_server();                                               \
  if (!var##_found) {                                                                                     \
    if (::qg::testing::pg_required())                                                                     \
      FAIL() << "QG_REQUIRE_PG=1 but QG_TEST_PG_HOST/QG_TEST_PG_PORT are not set: start the server with " \
                "scripts/pg-test-cluster.sh start && eval \"$(scripts/pg-test-cluster.sh env)\"";         \
    GTEST_SKIP() << "*** SKIPPED: no PostgreSQL for tests (QG_TEST_PG_HOST/QG_TEST_PG_PORT unset). Run "  \
                    "scripts/pg-test-cluster.sh start && eval \"$(scripts/pg-test-cluster.sh env)\" ***"; \
  }                                                                                                       \
  if (const auto why = ::qg::testing::pg_unreachable_reason(*var##_found); !why.empty())                  \
    FAIL() << "QG_TEST_PG_HOST/QG_TEST_PG_PORT are set but " << why;                                      \
  const ::qg::testing::PgTestServer& var = *var##_found
