// Many idle keep-alive connections plus a few active ones (issue 16, scale):
//   conn_scale --port P --idle N --active M --seconds S --body JSON [--path /v1/query]
// 1. opens N connections to 127.0.0.1:P, each sends one `GET /healthz` and
//    reads its answer, then stays open and silent (an idle keep-alive
//    connection); up to 256 are being opened at a time;
// 2. prints "idle_ready ..." and waits 1 s;
// 3. M connections POST the body to the path back to back for S seconds,
//    each timing its requests;
// 4. prints one line:
//    idle=N idle_ok=K idle_closed=C active=M requests=R errors=E seconds=S rps=X p50_ms=A p99_ms=B
//    where idle_closed counts idle connections the server closed before the
//    end (a server that caps connections closes the longest-idle ones).
// The caller samples the server's memory (it knows the pid); the process needs
// `ulimit -n` above N + M.
#include <boost/asio.hpp>
#include <boost/beast.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Options {
  unsigned short port = 0;
  int idle = 10000;
  int active = 32;
  double seconds = 5;
  std::string body;
  std::string path = "/v1/query";
};

struct Shared {
  asio::io_context ioc{1};
  tcp::endpoint endpoint;
  Options opt;
  int idle_ok = 0, idle_failed = 0, idle_closed = 0, idle_started = 0, idle_done = 0;
  bool measuring = false;
  Clock::time_point stop_at;
  std::vector<double> latencies_ms;
  long errors = 0;
  int active_done = 0;
};

std::string host(const Shared& s) {
  return "127.0.0.1:" + std::to_string(s.endpoint.port());
}

class Idle : public std::enable_shared_from_this<Idle> {
 public:
  explicit Idle(Shared& s) : s_(s), stream_(s.ioc) {}
  void start() {
    stream_.async_connect(s_.endpoint, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->finish(false);
      self->req_ = {http::verb::get, "/healthz", 11};
      self->req_.set(http::field::host, host(self->s_));
      http::async_write(self->stream_, self->req_, [self](beast::error_code ec, std::size_t) {
        if (ec) return self->finish(false);
        http::async_read(self->stream_, self->buf_, self->res_,
                         [self](beast::error_code ec, std::size_t) { self->finish(!ec && self->res_.keep_alive()); });
      });
    });
  }

 private:
  void finish(bool ok) {
    ++s_.idle_done;
    if (!ok) {
      ++s_.idle_failed;
      return;
    }
    ++s_.idle_ok;
    // Stay open; a read completes only when the server closes the connection.
    stream_.socket().async_read_some(
        asio::buffer(byte_, 1),
        [self = shared_from_this()](beast::error_code, std::size_t) { ++self->s_.idle_closed; });
  }
  Shared& s_;
  beast::tcp_stream stream_;
  beast::flat_buffer buf_;
  http::request<http::empty_body> req_;
  http::response<http::string_body> res_;
  char byte_[1];
};

class Active : public std::enable_shared_from_this<Active> {
 public:
  explicit Active(Shared& s) : s_(s), stream_(s.ioc) {}
  void start() {
    stream_.async_connect(s_.endpoint, [self = shared_from_this()](beast::error_code ec) {
      if (ec) {
        ++self->s_.errors;
        return self->done();
      }
      self->next();
    });
  }

 private:
  void next() {
    if (Clock::now() >= s_.stop_at) return done();
    req_ = {http::verb::post, s_.opt.path, 11};
    req_.set(http::field::host, host(s_));
    req_.set(http::field::content_type, "application/json");
    req_.body() = s_.opt.body;
    req_.prepare_payload();
    res_ = {};
    t0_ = Clock::now();
    http::async_write(stream_, req_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail();
      http::async_read(self->stream_, self->buf_, self->res_, [self](beast::error_code ec, std::size_t) {
        if (ec) return self->fail();
        if (self->res_.result_int() / 100 != 2) ++self->s_.errors;
        self->s_.latencies_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - self->t0_).count());
        if (!self->res_.keep_alive()) return self->fail();
        self->next();
      });
    });
  }
  void fail() {
    ++s_.errors;
    done();
  }
  void done() { ++s_.active_done; }

  Shared& s_;
  beast::tcp_stream stream_;
  beast::flat_buffer buf_;
  http::request<http::string_body> req_;
  http::response<http::string_body> res_;
  Clock::time_point t0_;
};

void open_more_idle(Shared& s) {
  // Keep up to 256 connections being opened at a time.
  while (s.idle_started < s.opt.idle && s.idle_started - s.idle_done < 256) {
    ++s.idle_started;
    std::make_shared<Idle>(s)->start();
  }
}

double pct(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  Shared s;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i], v = argv[i + 1];
    if (a == "--port")
      s.opt.port = static_cast<unsigned short>(std::atoi(v.c_str()));
    else if (a == "--idle")
      s.opt.idle = std::atoi(v.c_str());
    else if (a == "--active")
      s.opt.active = std::atoi(v.c_str());
    else if (a == "--seconds")
      s.opt.seconds = std::atof(v.c_str());
    else if (a == "--body")
      s.opt.body = v;
    else if (a == "--path")
      s.opt.path = v;
    else {
      std::fprintf(stderr, "usage: conn_scale --port P --idle N --active M --seconds S --body JSON [--path P]\n");
      return 2;
    }
  }
  s.endpoint = tcp::endpoint(asio::ip::make_address("127.0.0.1"), s.opt.port);

  // 1. Idle connections, opened in waves (the poll below refills the wave).
  const auto setup_start = Clock::now();
  while (s.idle_done < s.opt.idle) {
    open_more_idle(s);
    if (s.ioc.stopped()) s.ioc.restart();
    s.ioc.run_one_for(std::chrono::milliseconds(100));
    if (Clock::now() - setup_start > std::chrono::seconds(120)) break;
  }
  std::printf("idle_ready idle_ok=%d idle_failed=%d setup_s=%.2f\n", s.idle_ok, s.idle_failed,
              std::chrono::duration<double>(Clock::now() - setup_start).count());
  std::fflush(stdout);
  if (s.ioc.stopped()) s.ioc.restart();
  s.ioc.run_for(std::chrono::seconds(1));

  // 2. Active clients.
  const auto start = Clock::now();
  s.stop_at = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s.opt.seconds));
  for (int i = 0; i < s.opt.active; ++i) std::make_shared<Active>(s)->start();
  while (s.active_done < s.opt.active) {
    if (s.ioc.stopped()) s.ioc.restart();
    s.ioc.run_one_for(std::chrono::milliseconds(100));
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  if (s.ioc.stopped()) s.ioc.restart();
  s.ioc.poll();

  std::sort(s.latencies_ms.begin(), s.latencies_ms.end());
  std::printf(
      "idle=%d idle_ok=%d idle_closed=%d active=%d requests=%zu errors=%ld seconds=%.2f rps=%.0f p50_ms=%.3f "
      "p99_ms=%.3f\n",
      s.opt.idle, s.idle_ok, s.idle_closed, s.opt.active, s.latencies_ms.size(), s.errors, elapsed,
      static_cast<double>(s.latencies_ms.size()) / elapsed, pct(s.latencies_ms, 0.5), pct(s.latencies_ms, 0.99));
  return 0;
}
