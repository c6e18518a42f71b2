// Admission control against the real binary over HTTP: API keys (401/403),
// a tiny permit queue flooded by slow statements (429 + Retry-After), the one
// deadline covering queue wait (504 without running), clients that disconnect
// (their statement is cancelled and the permit comes back), and SIGTERM
// (accepted work finishes within the grace period, the rest is cancelled,
// exit 0). Waits observe /readyz; none relies on a sleep.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "gateway/auth/sha256.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr const char* kAgentToken = "agent-token-0123456789abcdef0123456789";
constexpr const char* kOpsToken = "ops-token-abcdef0123456789abcdef012345";
// Runs until its deadline on the demo (63 000 spans, cubed).
constexpr const char* kSlow = "SELECT count(*) AS n FROM spans AS a, spans AS b, spans AS c";

std::string bearer(const char* token) {
  return std::string("Authorization: Bearer ") + token + "\r\n";
}

std::string query_body(const std::string& sql, const std::string& database, int timeout_ms = 0) {
  json::object body{{"sql", sql}, {"database", database}};
  if (timeout_ms > 0) body["timeout_ms"] = timeout_ms;
  return json::serialize(body);
}

std::string config_text(int grace_ms) {
  const auto hash = [](const char* token) { return auth::to_hex(auth::sha256(token)); };
  return "limits: { deadline_ms: 20000 }\n"
         "shutdown_grace_ms: " +
         std::to_string(grace_ms) +
         "\n"
         "keys:\n"
         "  - { name: agent, sha256: " +
         hash(kAgentToken) +
         ", databases: [demo] }\n"
         "  - { name: ops, sha256: " +
         hash(kOpsToken) +
         ", databases: [demo, other] }\n"
         "databases:\n"
         "  demo: { backend: sqlite, path: demo.db, permits: 1, queue_depth: 1, tables: { spans: {} } }\n"
         "  other: { backend: sqlite, path: demo.db, tables: { spans: {} } }\n";
}

std::string code_of(const HttpResult& r) {
  try {
    return std::string(json::parse(r.body).at("error").at("code").as_string());
  } catch (...) {
    return "(no error code: " + std::to_string(r.status) + " " + r.body + ")";
  }
}
std::string fix_of(const HttpResult& r) {
  return std::string(json::parse(r.body).at("error").at("fix").as_string());
}
std::string header_of(const HttpResult& r, const std::string& name) {
  const auto at = r.headers.find("\r\n" + name + ": ");
  if (at == std::string::npos) return {};
  const auto start = at + name.size() + 4;
  return r.headers.substr(start, r.headers.find("\r\n", start) - start);
}

// A request whose connection the test holds, so it can walk away from it.
class OpenRequest {
 public:
  OpenRequest(int port, const std::string& body, const std::string& headers) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string bytes =
        "POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n" + headers + "\r\n" + body;
    EXPECT_EQ(send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  ~OpenRequest() { hang_up(); }
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
  std::int64_t cancelled_in_queue = -1;
  std::int64_t expired_in_queue = -1;
};

Admission admission_of(int port, const std::string& database = "demo") {
  const HttpResult r = http(port, "GET", "/readyz");
  Admission a;
  try {
    const json::value doc = json::parse(r.body);
    const auto& s = doc.at("admission").at(database);
    a.in_use = static_cast<int>(s.at("in_use").as_int64());
    a.queued = static_cast<int>(s.at("queued").as_int64());
    a.cancelled_in_queue = s.at("cancelled_in_queue").as_int64();
    a.expired_in_queue = s.at("expired_in_queue").as_int64();
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

bool idle(const Admission& a) {
  return a.in_use == 0 && a.queued == 0;
}

class AdmissionControlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(make_temp_dir("qg-admission"));
    auto made = run_command({QG_BINARY, "demo-db", (*dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    write_file(*dir_ / "querygate.yaml", config_text(10000));
    gateway_ = new GatewayProcess(*dir_ / "querygate.yaml");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(gateway_->stop(), 0);
    delete gateway_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  void SetUp() override { ASSERT_TRUE(wait_for(port(), idle)) << "a previous test left work behind"; }
  void TearDown() override { EXPECT_TRUE(wait_for(port(), idle)) << "every permit comes back"; }

  static int port() { return gateway_->port(); }
  static HttpResult query(const std::string& body, const char* token = kAgentToken) {
    return http(port(), "POST", "/v1/query", body, token ? bearer(token) : "");
  }

  static std::filesystem::path* dir_;
  static GatewayProcess* gateway_;
};

std::filesystem::path* AdmissionControlTest::dir_ = nullptr;
GatewayProcess* AdmissionControlTest::gateway_ = nullptr;

TEST_F(AdmissionControlTest, RequestsWithoutAValidKeyGet401) {
  const std::string body = query_body("SELECT 1 AS one", "demo");
  auto missing = query(body, nullptr);
  EXPECT_EQ(missing.status, 401);
  EXPECT_EQ(code_of(missing), "auth:missing");
  EXPECT_NE(header_of(missing, "WWW-Authenticate").find("Bearer"), std::string::npos) << missing.headers;
  auto wrong = query(body, "agent-token-0123456789abcdef012345678X");
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(code_of(wrong), "auth:invalid");
  EXPECT_EQ(wrong.body.find("agent-token"), std::string::npos) << "tokens are never echoed";
  auto schema = http(port(), "GET", "/v1/schema?database=demo");
  EXPECT_EQ(schema.status, 401);
  // Probes stay open: a load balancer has no token.
  EXPECT_EQ(http(port(), "GET", "/healthz").status, 200);
  EXPECT_EQ(http(port(), "GET", "/readyz").status, 200);
}

TEST_F(AdmissionControlTest, AKeyOutsideItsDatabasesGets403NamingThem) {
  auto forbidden = query(query_body("SELECT 1 AS one", "other"));
  EXPECT_EQ(forbidden.status, 403);
  EXPECT_EQ(code_of(forbidden), "auth:forbidden");
  EXPECT_NE(fix_of(forbidden).find("demo"), std::string::npos) << forbidden.body;
  EXPECT_EQ(http(port(), "GET", "/v1/schema?database=other", "", bearer(kAgentToken)).status, 403);

  auto served = query(query_body("SELECT 1 AS one", "demo"));
  EXPECT_EQ(served.status, 200) << served.body;
  auto ops = query(query_body("SELECT 1 AS one", "other"), kOpsToken);
  EXPECT_EQ(ops.status, 200) << ops.body;
  EXPECT_EQ(http(port(), "GET", "/v1/schema?database=demo", "", bearer(kAgentToken)).status, 200);
}

TEST_F(AdmissionControlTest, TimeoutMsIsCheckedAgainstTheGatewaysDeadline) {
  auto too_long = query(query_body("SELECT 1 AS one", "demo", 20001));
  EXPECT_EQ(too_long.status, 400);
  EXPECT_EQ(code_of(too_long), "request:bad-field");
  EXPECT_NE(fix_of(too_long).find("20000"), std::string::npos) << too_long.body;
}

TEST_F(AdmissionControlTest, AFloodedQueueAnswers429AtOnceWithRetryAfter) {
  // One permit, one place in the queue, six slow statements at once.
  constexpr int kSent = 6;
  const std::string body = query_body(kSlow, "demo", 1500);
  std::vector<std::future<std::pair<HttpResult, Clock::duration>>> answers;
  for (int i = 0; i < kSent; ++i)
    answers.push_back(std::async(std::launch::async, [&body] {
      const auto start = Clock::now();
      HttpResult r = query(body);
      return std::pair{r, Clock::now() - start};
    }));
  int ok = 0, full = 0, late = 0;
  for (auto& f : answers) {
    auto [r, took] = f.get();
    if (r.status == 429) {
      ++full;
      EXPECT_EQ(code_of(r), "limit:queue-full");
      EXPECT_NE(fix_of(r).find("Retry-After"), std::string::npos);
      EXPECT_GE(std::stoi(header_of(r, "Retry-After")), 1) << r.headers;
      EXPECT_LT(took, 1200ms) << "a full queue answers at once, not after the deadline";
    } else if (r.status == 504) {
      ++late;
      EXPECT_EQ(code_of(r), "limit:deadline");
    } else if (r.status == 200) {
      ++ok;
    } else {
      ADD_FAILURE() << r.status << " " << r.body;
    }
  }
  EXPECT_EQ(ok + full + late, kSent) << "every request got exactly one of 200/429/504";
  EXPECT_GE(full, kSent - 2) << "one runs, one waits, the rest are refused";
}

TEST_F(AdmissionControlTest, DeadlineInTheQueueIs504AndTheStatementNeverRuns) {
  auto running = std::async(std::launch::async, [] { return query(query_body(kSlow, "demo", 3000)); });
  ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 1; }));
  const auto before = admission_of(port());
  const auto start = Clock::now();
  auto waited = query(query_body("SELECT 1 AS one", "demo", 300), kOpsToken);
  const auto took = Clock::now() - start;
  EXPECT_EQ(waited.status, 504) << waited.body;
  EXPECT_EQ(code_of(waited), "limit:deadline");
  EXPECT_NE(waited.body.find("was not run"), std::string::npos) << waited.body;
  EXPECT_LT(took, 2500ms) << "answered at its own deadline, not when the permit came back";
  EXPECT_EQ(admission_of(port()).expired_in_queue, before.expired_in_queue + 1);
  auto first = running.get();
  EXPECT_EQ(first.status, 504) << first.body;  // the slow one ran out of its own time
}

// The queue took most of the deadline: the answer says the database was busy
// (not "narrow the time range"), and it counts as expired in the queue.
TEST_F(AdmissionControlTest, ADeadlineSpentWaitingForAPermitIsToldAndCounted) {
  const auto expired_metric = [] {
    const std::string scrape = http(port(), "GET", "/metrics").body;
    const std::string series = "querygate_queue_expired_total{database=\"demo\"} ";
    const auto at = scrape.find(series);
    return at == std::string::npos ? -1.0 : std::stod(scrape.substr(at + series.size()));
  };
  const double metric_before = expired_metric();
  ASSERT_GE(metric_before, 0) << "the series exists from the start";
  // Both ask for 2 s. The second arrives ~0.5 s later, so when the first
  // statement hits its deadline and gives the permit back, the second has
  // ~0.5 s left to run the same slow statement: it waited ~1.5 s, ran ~0.5 s.
  auto running = std::async(std::launch::async, [] { return query(query_body(kSlow, "demo", 2000)); });
  ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 1; }));
  const auto before = admission_of(port());
  std::this_thread::sleep_for(500ms);  // the margin that makes the second one's wait the larger part
  auto late = query(query_body(kSlow, "demo", 2000), kOpsToken);
  EXPECT_EQ(running.get().status, 504);
  EXPECT_EQ(late.status, 504) << late.body;
  EXPECT_EQ(code_of(late), "limit:deadline");
  const std::string message(json::parse(late.body).at("error").at("message").as_string());
  EXPECT_NE(message.find("waiting"), std::string::npos) << message;
  EXPECT_NE(message.find("the database is busy"), std::string::npos) << message;
  EXPECT_EQ(fix_of(late).find("narrow the time range"), std::string::npos) << late.body;
  EXPECT_NE(fix_of(late).find("send it again when fewer statements are running"), std::string::npos) << late.body;
  EXPECT_EQ(admission_of(port()).expired_in_queue, before.expired_in_queue + 1) << "/readyz counts it";
  EXPECT_EQ(expired_metric(), metric_before + 1) << "and so does /metrics";
}

// A statement that ran out of its own time keeps the advice to make it cheaper.
TEST_F(AdmissionControlTest, ADeadlineSpentRunningStillSaysMakeItCheaper) {
  const auto before = admission_of(port());
  auto r = query(query_body(kSlow, "demo", 500));
  EXPECT_EQ(r.status, 504) << r.body;
  EXPECT_NE(fix_of(r).find("narrow the time range"), std::string::npos) << r.body;
  EXPECT_EQ(admission_of(port()).expired_in_queue, before.expired_in_queue);
}

TEST_F(AdmissionControlTest, ADisconnectedClientsRunningStatementIsCancelled) {
  {
    OpenRequest slow(port(), query_body(kSlow, "demo", 20000), bearer(kAgentToken));
    ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 1; }));
  }  // the client hangs up
  const auto start = Clock::now();
  ASSERT_TRUE(wait_for(port(), idle, 5s)) << "the permit comes back long before the statement's 20 s";
  EXPECT_LT(Clock::now() - start, 5s);
  auto next = query(query_body("SELECT 1 AS one", "demo", 1000));
  EXPECT_EQ(next.status, 200) << next.body;
}

TEST_F(AdmissionControlTest, ADisconnectedClientsQueuedStatementLeavesTheQueue) {
  OpenRequest running(port(), query_body(kSlow, "demo", 20000), bearer(kAgentToken));
  ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.in_use == 1; }));
  const auto before = admission_of(port());
  {
    OpenRequest waiting(port(), query_body(kSlow, "demo", 20000), bearer(kOpsToken));
    ASSERT_TRUE(wait_for(port(), [](const Admission& a) { return a.queued == 1; }));
  }
  ASSERT_TRUE(wait_for(
      port(), [](const Admission& a) { return a.queued == 0; }, 5s));
  const auto after = admission_of(port());
  EXPECT_EQ(after.in_use, 1) << "the running statement is not affected";
  EXPECT_EQ(after.cancelled_in_queue, before.cancelled_in_queue + 1);
  running.hang_up();
  EXPECT_TRUE(wait_for(port(), idle, 5s));
}

TEST(AdmissionCliTest, HashKeyPrintsTheSha256OfTheToken) {
  auto r = run_command({QG_BINARY, "hash-key", kAgentToken});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, auth::to_hex(auth::sha256(kAgentToken)) + "\n");
  auto bad = run_command({QG_BINARY, "hash-key", "has space"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_EQ(bad.output.find("has space"), std::string::npos) << "the token is not repeated";
}

TEST(AdmissionCliTest, NonLoopbackListenNeedsKeys) {
  const auto dir = make_temp_dir("qg-listen");
  ASSERT_EQ(run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()}).exit_code, 0);
  write_file(dir / "open.yaml", "databases:\n  demo: { backend: sqlite, path: demo.db, tables: { spans: {} } }\n");
  auto refused = run_command({QG_BINARY, "--config", (dir / "open.yaml").string(), "--listen", "0.0.0.0:0"});
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("no API keys"), std::string::npos) << refused.output;
  std::filesystem::remove_all(dir);
}

// SIGTERM: the server stops accepting, lets accepted work finish within the
// grace period, cancels what outlives it, and exits 0.
class ShutdownTest : public ::testing::Test {
 protected:
  void start(int grace_ms) {
    dir_ = make_temp_dir("qg-shutdown");
    ASSERT_EQ(run_command({QG_BINARY, "demo-db", (dir_ / "demo.db").string()}).exit_code, 0);
    write_file(dir_ / "querygate.yaml", config_text(grace_ms));
    gateway_ = std::make_unique<GatewayProcess>(dir_ / "querygate.yaml");
  }
  void TearDown() override {
    gateway_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::future<HttpResult> send(const std::string& body, const char* token) {
    const int port = gateway_->port();
    return std::async(std::launch::async,
                      [port, body, token] { return http(port, "POST", "/v1/query", body, bearer(token)); });
  }
  std::filesystem::path dir_;
  std::unique_ptr<GatewayProcess> gateway_;
};

TEST_F(ShutdownTest, SigtermLetsAcceptedWorkFinishAndExits0) {
  start(10000);
  auto running = send(query_body(kSlow, "demo", 1500), kAgentToken);
  ASSERT_TRUE(wait_for(gateway_->port(), [](const Admission& a) { return a.in_use == 1; }));
  auto queued = send(query_body("SELECT 1 AS one", "demo", 15000), kOpsToken);
  ASSERT_TRUE(wait_for(gateway_->port(), [](const Admission& a) { return a.queued == 1; }));
  const auto start = Clock::now();
  EXPECT_EQ(gateway_->stop(), 0) << gateway_->log();
  EXPECT_LT(Clock::now() - start, 8s) << "done when the work is done, not at the end of the grace period";
  auto first = running.get();
  EXPECT_EQ(first.status, 504) << "ran to its own deadline: " << first.body;
  auto second = queued.get();
  EXPECT_EQ(second.status, 200) << "accepted before SIGTERM, so it still ran: " << second.body;
}

TEST_F(ShutdownTest, SigtermCancelsWhatOutlivesTheGrace) {
  start(300);
  auto running = send(query_body(kSlow, "demo", 15000), kAgentToken);
  ASSERT_TRUE(wait_for(gateway_->port(), [](const Admission& a) { return a.in_use == 1; }));
  auto queued = send(query_body(kSlow, "demo", 15000), kOpsToken);
  ASSERT_TRUE(wait_for(gateway_->port(), [](const Admission& a) { return a.queued == 1; }));
  const auto start = Clock::now();
  EXPECT_EQ(gateway_->stop(), 0) << gateway_->log();
  EXPECT_LT(Clock::now() - start, 5s) << "grace 0.3 s plus a bounded wait, not the statements' 15 s";
  for (auto* f : {&running, &queued}) {
    auto r = f->get();
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(code_of(r), "limit:shutting-down");
    EXPECT_FALSE(header_of(r, "Retry-After").empty()) << r.headers;
  }
}

}  // namespace
}  // namespace qg::testing
