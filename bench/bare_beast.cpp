// The reference for the gateway's HTTP cost: a bare Boost.Beast server with
// the gateway's I/O thread count (one, as gateway/main.cpp runs it), keep-alive,
// that reads each request whole and answers every POST with one fixed JSON
// body of a given size (bench/run.sh passes the size of the gateway's answer
// to the point query), no parsing, no database. Anything but POST gets 405.
//   bare_beast --port P [--threads N] [--body-bytes B]
// Prints "listening on http://127.0.0.1:PORT" (PORT 0 picks a free one), then
// serves until SIGTERM or SIGINT.
#include <boost/asio.hpp>
#include <boost/beast.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// {"columns":[...],"rows":[[...]],"pad":"xxxx"} padded to exactly `bytes`.
std::string fixed_body(std::size_t bytes) {
  std::string head = R"({"columns":[{"name":"id","type":"integer"}],"rows":[[4242]],"pad":")";
  std::string tail = "\"}";
  std::string body = head;
  if (bytes > head.size() + tail.size()) body.append(bytes - head.size() - tail.size(), 'x');
  body += tail;
  return body;
}

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, std::shared_ptr<const std::string> body)
      : stream_(std::move(socket)), body_(std::move(body)) {}
  void start() { read(); }

 private:
  void read() {
    request_ = {};
    http::async_read(stream_, buffer_, request_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec) return close();
    response_ = {};
    response_.version(request_.version());
    response_.keep_alive(request_.keep_alive());
    response_.set(http::field::content_type, "application/json");
    if (request_.method() == http::verb::post) {
      response_.result(http::status::ok);
      response_.body() = *body_;
    } else {
      response_.result(http::status::method_not_allowed);
    }
    response_.prepare_payload();
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec || !self->response_.keep_alive()) return self->close();
      self->read();
    });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
  std::shared_ptr<const std::string> body_;
};

void accept(tcp::acceptor& acceptor, std::shared_ptr<const std::string> body) {
  acceptor.async_accept([&acceptor, body](beast::error_code ec, tcp::socket socket) {
    if (!ec) {
      socket.set_option(tcp::no_delay(true));
      std::make_shared<Session>(std::move(socket), body)->start();
    }
    accept(acceptor, body);
  });
}

int usage() {
  std::fprintf(stderr, "usage: bare_beast --port P [--threads N] [--body-bytes B]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned short port = 0;
  int threads = 1;
  std::size_t body_bytes = 376;  // the point query's envelope on the demo (docs/BENCHMARKS.md)
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--port")
      port = static_cast<unsigned short>(std::atoi(argv[i + 1]));
    else if (a == "--threads")
      threads = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--body-bytes")
      body_bytes = static_cast<std::size_t>(std::atol(argv[i + 1]));
    else
      return usage();
  }
  if (argc % 2 == 0) return usage();

  asio::io_context ioc(threads);
  tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  acceptor.listen(asio::socket_base::max_listen_connections);
  auto body = std::make_shared<const std::string>(fixed_body(body_bytes));
  accept(acceptor, body);
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { ioc.stop(); });
  std::printf("listening on http://127.0.0.1:%u (body %zu bytes, %d threads)\n", acceptor.local_endpoint().port(),
              body->size(), threads);
  std::fflush(stdout);

  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
  return 0;
}
