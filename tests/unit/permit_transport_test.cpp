// What the transport does for admission: it tells the application when a
// client leaves while its request is handled (so queued or running work is
// cancelled and the permit comes back), keeps pipelined bytes read meanwhile,
// and drains on shutdown (idle connections close, pending answers still go out).
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <string>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "gateway/http/http_server.hpp"

namespace qg::gateway {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

constexpr auto kWait = 5s;  // upper bound for any single wait; a failure is a timeout, never a hang

// Keeps every request's Reply until the test answers it.
struct Held {
  std::mutex mu;
  std::vector<std::pair<HttpRequest, Reply>> requests;
  std::promise<void> first_arrived;
  bool signalled = false;

  Handler handler() {
    return [this](HttpRequest request, Reply reply) {
      std::lock_guard lock(mu);
      requests.emplace_back(std::move(request), std::move(reply));
      if (!signalled) {
        signalled = true;
        first_arrived.set_value();
      }
    };
  }
};

ServerOptions loopback() {
  ServerOptions o;
  o.port = 0;
  return o;
}

class Client {
 public:
  explicit Client(std::uint16_t port) : socket_(ioc_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }
  void send(const std::string& bytes) { asio::write(socket_, asio::buffer(bytes)); }
  // Everything the server sends until it closes the connection.
  std::string read_to_close() {
    std::string out;
    boost::system::error_code ec;
    asio::read(socket_, asio::dynamic_buffer(out), ec);
    return out;
  }
  void close() { socket_.close(); }

 private:
  asio::io_context ioc_;
  tcp::socket socket_;
};

std::string request(std::string_view target) {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: test\r\n\r\n";
}

TEST(PermitTransportTest, AClientThatHangsUpCancelsItsRequest) {
  Held held;
  HttpServer server(loopback(), held.handler());
  auto port = server.start();
  ASSERT_TRUE(port);
  std::promise<void> cancelled;
  std::optional<permits::Cancellation::Subscription> subscription;
  {
    Client client(*port);
    client.send(request("/slow"));
    ASSERT_EQ(held.first_arrived.get_future().wait_for(kWait), std::future_status::ready);
    std::lock_guard lock(held.mu);
    auto& c = held.requests.front().first.cancellation;
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->cancelled());
    subscription = permits::Cancellation::subscribe(c, [&cancelled] { cancelled.set_value(); });
  }  // the client closes its socket here
  EXPECT_EQ(cancelled.get_future().wait_for(kWait), std::future_status::ready);
  std::lock_guard lock(held.mu);
  EXPECT_TRUE(held.requests.front().first.cancellation->cancelled());
  held.requests.front().second(HttpResponse{});  // a late answer is dropped safely
}

TEST(PermitTransportTest, PipelinedRequestsReadWhileWatchingAreStillServedInOrder) {
  Held held;
  HttpServer server(loopback(), held.handler());
  auto port = server.start();
  ASSERT_TRUE(port);
  Client client(*port);
  client.send(request("/one"));
  ASSERT_EQ(held.first_arrived.get_future().wait_for(kWait), std::future_status::ready);
  // Arrives while the first is being handled: the watch reads it and keeps it.
  client.send("GET /two HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
  {
    std::lock_guard lock(held.mu);
    EXPECT_FALSE(held.requests.front().first.cancellation->cancelled()) << "bytes are not a hang-up";
    HttpResponse one;
    one.body = "first";
    held.requests.front().second(one);
  }
  // The second request reaches the handler once the first is answered.
  const auto end = std::chrono::steady_clock::now() + kWait;
  for (;;) {
    {
      std::lock_guard lock(held.mu);
      if (held.requests.size() == 2) {
        EXPECT_EQ(held.requests[1].first.target, "/two");
        HttpResponse two;
        two.body = "second";
        held.requests[1].second(two);
        break;
      }
    }
    ASSERT_LT(std::chrono::steady_clock::now(), end) << "the pipelined request was lost";
    std::this_thread::sleep_for(2ms);
  }
  const std::string all = client.read_to_close();
  const auto first = all.find("first");
  const auto second = all.find("second");
  ASSERT_NE(first, std::string::npos) << all;
  ASSERT_NE(second, std::string::npos) << all;
  EXPECT_LT(first, second);
}

TEST(PermitTransportTest, DrainClosesIdleConnectionsAndAnswersPendingOnesWithClose) {
  Held held;
  HttpServer server(loopback(), held.handler());
  auto port = server.start();
  ASSERT_TRUE(port);
  Client busy(*port);
  busy.send(request("/pending"));
  ASSERT_EQ(held.first_arrived.get_future().wait_for(kWait), std::future_status::ready);
  server.drain();
  EXPECT_FALSE(server.wait_closed(std::chrono::steady_clock::now() + 50ms)) << "an answer is still pending";
  {
    std::lock_guard lock(held.mu);
    HttpResponse r;
    r.body = "done";
    held.requests.front().second(r);
  }
  const std::string answer = busy.read_to_close();
  EXPECT_NE(answer.find("done"), std::string::npos) << answer;
  EXPECT_NE(answer.find("Connection: close"), std::string::npos) << answer;
  EXPECT_TRUE(server.wait_closed(std::chrono::steady_clock::now() + kWait));
  server.stop();
}

}  // namespace
}  // namespace qg::gateway
