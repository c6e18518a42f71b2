#pragma once
// The HTTP/1.1 transport (Boost.Beast). It only moves bytes: it reads a
// request, hands an HttpRequest to the application's Handler and writes the
// HttpResponse the Handler later passes to its Reply (from any thread).
// Everything that decides *what* to answer lives in the Handler. The transport
// answers only what HTTP itself rules out, with 400 request:malformed-http:
// bytes that do not parse, headers over the limit, an obsolete folded header
// line, an HTTP/1.1 request without Host (RFC 9112 section 3.2), and a second
// copy of a header the application reads as one value (kSingletonHeaders in
// http_server.cpp: Host, Content-Type, Content-Length, Origin, Authorization),
// so that no reader ever has to pick the "first" one.
//
// Beast and Asio are included only by http_server.cpp (pimpl), so including
// this header stays cheap.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "config/config.hpp"
#include "gateway/http/http_types.hpp"

namespace qg::gateway {

// Every limit of the transport, each with its default.
struct ServerOptions {
  std::string host = "127.0.0.1";        // address or name to listen on
  std::uint16_t port = 8080;             // 0 = let the OS pick a free port (start() returns it)
  int io_threads = 1;                    // threads running the I/O loop; must be >= 1
  std::size_t max_body_bytes = 65536;    // larger body -> 413 request:body-too-large, then close
  std::size_t max_header_bytes = 16384;  // larger request line + headers -> 400, then close
  // The whole request (headers + body) must arrive within this after its first
  // byte (first request: after accept). Defeats slow-loris clients.
  std::chrono::milliseconds read_timeout{10000};
  // The request line and headers must arrive within this (same start): a client
  // dribbling its headers holds a connection this long, not read_timeout.
  std::chrono::milliseconds header_timeout{5000};
  // A keep-alive connection with no next request for this long is closed
  // (its own clock, distinct from header_timeout: it runs between requests).
  std::chrono::milliseconds idle_timeout{5000};
  // Writing one response (the client must read it) must finish within this.
  std::chrono::milliseconds write_timeout{30000};
  // Connections served at once, in all and per client address. A newcomer
  // beyond either cap first closes the longest-idle keep-alive connection (one
  // waiting for its next request; from the newcomer's own address when that
  // address is at its cap) and takes its place: idle connections never keep a
  // request out. Only when none is idle is the newcomer beyond the cap: it is
  // still accepted as an "overflow" connection: its request
  // line and headers are read under overflow_header_timeout; a GET of one of
  // `always_served` (the health routes) is answered as usual, anything else gets
  // 503 limit:connections with Retry-After; then it is closed. At most
  // max_overflow_connections are open at once: a newcomer beyond that closes the
  // oldest one still waiting for its headers (so a flood of dribbling
  // connections cannot keep a health check out), or, when none waits, is
  // answered 503 without being read.
  // The defaults are config::Limits' (limits.max_connections, limits.max_connections_per_client).
  std::size_t max_connections = static_cast<std::size_t>(config::Limits{}.max_connections);
  std::size_t max_connections_per_client = static_cast<std::size_t>(config::Limits{}.max_connections_per_client);
  std::size_t max_overflow_connections = 64;
  std::chrono::milliseconds overflow_header_timeout{1000};
  std::vector<std::string> always_served;  // paths (GET); the gateway names its health routes here
};

class HttpServer {
 public:
  HttpServer(ServerOptions options, Handler handler);
  ~HttpServer();  // stop()s and joins
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds, listens and starts the I/O threads. Returns the bound port, or an
  // Error (ErrorCode::Internal) naming host:port and the OS reason. Call once.
  Result<std::uint16_t> start();

  // Stops accepting, closes every connection (in-flight requests get no
  // answer), and joins the I/O threads. Idempotent. Replies that arrive
  // afterwards are dropped safely. Must not be called from inside the Handler.
  void stop();

  // Graceful shutdown, first step: stop accepting. Connections waiting for
  // their next request close now; the others close once the answer they wait
  // for is written (it says Connection: close). Idempotent; a no-op after stop().
  void drain();
  // Waits until no connection is open, or until `deadline`; true when none is.
  bool wait_closed(std::chrono::steady_clock::time_point deadline);

  // Connections currently being served (overflow ones not counted).
  std::size_t open_connections() const;
  // Overflow connections currently open (see max_connections).
  std::size_t overflow_connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qg::gateway
