// Issue 16, SQLite without hand-offs (gateway/api/first_slice.hpp), against
// the real binary over loopback on a real SQLite file: a repeated cheap
// statement runs on the I/O thread (querygate_statements_run_total{where}
// rises) and answers byte for byte what the worker answered; a long statement
// still runs on a worker (handed off: not_admitted, then not_cheap), ends at
// its deadline exactly as before, and /healthz and a point query are answered
// while it runs; a statement that was cheap and grew expensive (rows inserted
// into the file behind the gateway's back) runs out of its first slice, is
// run again from the start by a worker and answers what SQLite answers; a
// client that leaves during such a run gets its permit back. Waits observe
// /readyz; none relies on a sleep.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sqlite3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Runs until its deadline on the demo (63 000 spans, squared).
constexpr const char* kLong = "SELECT count(*) AS n FROM spans AS a, spans AS b";
constexpr const char* kPoint = "SELECT id, name, kind, status FROM spans WHERE id = 4242";
constexpr const char* kRows = "SELECT id, trace_id, name, kind, status, start_time FROM spans ORDER BY id LIMIT 100";
// Cheap while `grown` holds 10 rows; not once the test has put 300 000 more in.
constexpr const char* kGrown = "SELECT count(*) AS n, max(v) AS top FROM grown";

std::string body_of(const std::string& sql, int timeout_ms = 0) {
  json::object body{{"sql", sql}, {"database", "demo"}};
  if (timeout_ms > 0) body["timeout_ms"] = timeout_ms;
  return json::serialize(body);
}

// The envelope's rows, as compact JSON.
std::string rows_of(const std::string& body) {
  try {
    return json::serialize(json::parse(body).at("rows"));
  } catch (...) {
    return "(no rows: " + body + ")";
  }
}

std::string code_of(const std::string& body) {
  try {
    return std::string(json::parse(body).at("error").at("code").as_string());
  } catch (...) {
    return "(no error code: " + body + ")";
  }
}

// Runs SQL on the file with a read-write connection of the test's own.
void exec_on_file(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

// SQLite's own answer to `sql` (one row of two integers), as JSON rows: [[a,b]].
std::string oracle_rows(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* stmt = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
    out = "[[" + std::to_string(sqlite3_column_int64(stmt, 0)) + "," + std::to_string(sqlite3_column_int64(stmt, 1)) +
          "]]";
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// A request whose connection the test holds: it may read the answer later, or walk away.
class OpenRequest {
 public:
  OpenRequest(int port, const std::string& body) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string bytes =
        "POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    EXPECT_EQ(send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  ~OpenRequest() { hang_up(); }
  OpenRequest(const OpenRequest&) = delete;
  OpenRequest& operator=(const OpenRequest&) = delete;
  // Reads until the server closes (Connection: close).
  HttpResult answer() {
    std::string raw;
    char buf[4096];
    for (ssize_t n; (n = recv(fd_, buf, sizeof buf, 0)) > 0;) raw.append(buf, static_cast<std::size_t>(n));
    return parse_response(raw);
  }
  void hang_up() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Admission {
  int in_use = -1;
  int queued = -1;
};

Admission admission_of(int port) {
  Admission a;
  try {
    const json::value doc = json::parse(http(port, "GET", "/readyz").body);
    const auto& s = doc.at("admission").at("demo");
    a.in_use = static_cast<int>(s.at("in_use").as_int64());
    a.queued = static_cast<int>(s.at("queued").as_int64());
  } catch (...) {
  }
  return a;
}

// Polls /readyz until `done` holds or `limit` passes; true when it held.
bool wait_for(int port, const std::function<bool(const Admission&)>& done, std::chrono::milliseconds limit = 10s) {
  const auto end = Clock::now() + limit;
  while (Clock::now() < end) {
    if (done(admission_of(port))) return true;
    std::this_thread::sleep_for(5ms);  // polling interval, not synchronisation
  }
  return false;
}

// One sample of a /metrics scrape; 0 when the series is absent.
double sample(const std::string& metrics, const std::string& series) {
  const auto at = metrics.find("\n" + series + " ");
  if (at == std::string::npos) return 0;
  return std::stod(metrics.substr(at + series.size() + 2));
}

std::string ran(const std::string& where) {
  return "querygate_statements_run_total{database=\"demo\",where=\"" + where + "\"}";
}
std::string handoffs(const std::string& reason) {
  return "querygate_handoffs_total{database=\"demo\",reason=\"" + reason + "\"}";
}

class FirstSliceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(make_temp_dir("qg-first-slice"));
    auto made = run_command({QG_BINARY, "demo-db", (*dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    exec_on_file(*dir_ / "demo.db",
                 "CREATE TABLE grown(id INTEGER PRIMARY KEY, v INTEGER NOT NULL);"
                 "INSERT INTO grown(v) VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10);");
    write_file(*dir_ / "querygate.yaml",
               "limits: { deadline_ms: 20000 }\n"
               "databases:\n"
               "  demo: { backend: sqlite, path: demo.db, permits: 2, queue_depth: 8, "
               "tables: { spans: {}, grown: {} } }\n");
    gateway_ = new GatewayProcess(*dir_ / "querygate.yaml");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(gateway_->stop(), 0);
    delete gateway_;
    fs::remove_all(*dir_);
    delete dir_;
  }
  static int port() { return gateway_->port(); }
  static HttpResult query(const std::string& sql, int timeout_ms = 0) {
    return http(port(), "POST", "/v1/query", body_of(sql, timeout_ms));
  }
  static std::string metrics() { return http(port(), "GET", "/metrics").body; }

  static fs::path* dir_;
  static GatewayProcess* gateway_;
};

fs::path* FirstSliceTest::dir_ = nullptr;
GatewayProcess* FirstSliceTest::gateway_ = nullptr;

TEST_F(FirstSliceTest, RepeatedCheapStatementsRunOnTheIoThreadAndAnswerWhatTheWorkerAnswered) {
  for (const char* sql : {kPoint, kRows}) {
    const std::string before = metrics();
    const auto first = query(sql);  // not in the admission cache yet: a worker admits and runs it
    ASSERT_EQ(first.status, 200) << first.body;
    const std::string after_first = metrics();
    EXPECT_EQ(sample(after_first, ran("worker")) - sample(before, ran("worker")), 1) << sql;
    EXPECT_EQ(sample(after_first, handoffs("not_admitted")) - sample(before, handoffs("not_admitted")), 1) << sql;
    constexpr int kRepeats = 20;
    for (int i = 0; i < kRepeats; ++i) {
      const auto again = query(sql);
      ASSERT_EQ(again.status, 200) << again.body;
      EXPECT_EQ(again.body, first.body) << sql << " (repeat " << i << ")";
    }
    const std::string after = metrics();
    const double inline_runs = sample(after, ran("io_thread")) - sample(after_first, ran("io_thread"));
    const double worker_runs = sample(after, ran("worker")) - sample(after_first, ran("worker"));
    EXPECT_EQ(inline_runs + worker_runs, kRepeats) << sql;
    // A run that took the engine more than a millisecond (a preempted thread
    // on a busy machine) sends the next one to a worker; most run inline.
    EXPECT_GE(inline_runs, kRepeats / 2) << sql << "\n" << after;
    EXPECT_EQ(sample(after, handoffs("slice_exhausted")) - sample(after_first, handoffs("slice_exhausted")), 0);
  }
}

TEST_F(FirstSliceTest, ALongStatementRunsOnAWorkerWhileOthersAreAnswered) {
  for (const char* expected_reason : {"not_admitted", "not_cheap"}) {
    OpenRequest slow(port(), body_of(kLong, 3000));
    ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 1; }));
    // While it holds its permit on a worker, the I/O thread answers others.
    EXPECT_EQ(http(port(), "GET", "/healthz").status, 200);
    const auto point = query(kPoint);
    EXPECT_EQ(point.status, 200) << point.body;
    EXPECT_EQ(admission_of(port()).in_use, 1) << "the long statement was still running";
    const std::string before = metrics();  // the long statement is counted when it is answered
    const auto answer = slow.answer();
    EXPECT_EQ(answer.status, 504) << answer.body;
    EXPECT_EQ(code_of(answer.body), "limit:deadline");
    const std::string after = metrics();
    EXPECT_EQ(sample(after, handoffs(expected_reason)) - sample(before, handoffs(expected_reason)), 1)
        << expected_reason;
    EXPECT_EQ(sample(after, ran("worker")) - sample(before, ran("worker")), 1);
    EXPECT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 0 && a.queued == 0; }));
  }
}

TEST_F(FirstSliceTest, AStatementThatGrewExpensiveRunsOutOfItsSliceAndAWorkerAnswersIt) {
  const fs::path file = *dir_ / "demo.db";
  // Cheap: a worker runs it first, then (once a run was cheap) the I/O thread.
  const std::string small_rows = oracle_rows(file, kGrown);
  ASSERT_EQ(small_rows, "[[10,10]]");
  bool ran_inline = false;
  std::string after_inline;
  for (int i = 0; i < 10 && !ran_inline; ++i) {
    const std::string before = metrics();
    const auto small = query(kGrown);
    ASSERT_EQ(small.status, 200) << small.body;
    EXPECT_EQ(rows_of(small.body), small_rows);
    after_inline = metrics();
    ran_inline = sample(after_inline, ran("io_thread")) - sample(before, ran("io_thread")) == 1;
  }
  ASSERT_TRUE(ran_inline) << after_inline;

  // Behind the gateway's back the table grows: the same text now takes over a million steps.
  exec_on_file(file,
               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) "
               "INSERT INTO grown(v) SELECT i * 7 FROM n;");
  const std::string grown_rows = oracle_rows(file, kGrown);
  ASSERT_EQ(grown_rows, "[[300010,2100000]]");
  const auto grown = query(kGrown);
  ASSERT_EQ(grown.status, 200) << grown.body;
  EXPECT_EQ(rows_of(grown.body), grown_rows);
  const std::string after_grown = metrics();
  EXPECT_EQ(sample(after_grown, handoffs("slice_exhausted")) - sample(after_inline, handoffs("slice_exhausted")), 1)
      << after_grown;
  EXPECT_EQ(sample(after_grown, ran("worker")) - sample(after_inline, ran("worker")), 1);
  EXPECT_EQ(sample(after_grown, ran("io_thread")) - sample(after_inline, ran("io_thread")), 0)
      << "the slice that ran out is not counted as a run";

  // Remembered as not cheap: the next one goes straight to a worker, and answers the same.
  const auto next = query(kGrown);
  EXPECT_EQ(next.body, grown.body);
  const std::string after_next = metrics();
  EXPECT_EQ(sample(after_next, handoffs("not_cheap")) - sample(after_grown, handoffs("not_cheap")), 1);
  EXPECT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 0 && a.queued == 0; }));
}

TEST_F(FirstSliceTest, AClientThatLeavesGetsItsPermitBack) {
  ASSERT_EQ(query(kLong, 500).status, 504);  // now remembered as not cheap
  {
    OpenRequest slow(port(), body_of(kLong, 20000));
    ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 1; }));
  }  // the client hangs up
  ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 0 && a.queued == 0; }))
      << "the permit comes back long before the statement's 20 s";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(query(kPoint).status, 200);
}

}  // namespace
}  // namespace qg::testing
