#include "gateway/http/http_server.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <deque>
#include <exception>
#include <limits>
#include <list>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace qg::gateway {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// ---- Limits of the transport that are not operator options ------------------

// After answering a request we did not read completely (413, 400, 503), we stop
// sending and discard what the client still sends for a short while before
// closing ("lingering close"): closing a socket with unread input makes the
// kernel send RST, which can destroy the error response before the client has
// read it. Bounded in time (also by read_timeout) and in bytes.
constexpr std::chrono::milliseconds kLingerTime{1000};
constexpr std::size_t kLingerMaxBytes = std::size_t{1} << 20;
// Bytes asked for per read while waiting for a keep-alive request's first byte,
// while reading a request line and headers, or while lingering.
constexpr std::size_t kReadChunk = 4096;
// While a request is being handled the socket is read too, only to notice a
// client that disconnects (its work is then cancelled). Bytes of pipelined
// requests read meanwhile are kept for the parser, up to this many; beyond it
// the watch stops, so a client cannot make us buffer without bound.
constexpr std::size_t kWatchMaxBuffered = 64 * 1024;
// A failing accept (EMFILE, ENOBUFS, ...) is retried after this pause, so that a
// persistent error does not spin a core.
constexpr std::chrono::milliseconds kAcceptRetryDelay{50};
// stop() waits at most this long for the I/O threads to finish the operations
// it aborted, then stops the event loop outright.
constexpr std::chrono::seconds kStopDrainLimit{5};
// Sent with the 503 at the connection limit.
constexpr std::string_view kRetryAfterSeconds = "1";
constexpr std::string_view kServerName = "querygate";
// Interim answer to "Expect: 100-continue" (curl sends it for bodies > 1 KiB and
// then waits a second for it before sending the body).
constexpr std::string_view kContinueResponse = "HTTP/1.1 100 Continue\r\n\r\n";

class Session;

// A keep-alive connection waiting for its next request. The one waiting longest
// gives its place to a newcomer beyond a connection cap.
struct IdleEntry {
  std::string remote;
  std::weak_ptr<Session> session;
};

// Headers the application reads as one value. HTTP allows a header to repeat
// only when its values form a list; for these a second copy can only be an
// error or an attempt to have two readers (a proxy, a log, querygate) see
// different values, so a request carrying one is refused, not read "first wins".
constexpr http::field kSingletonHeaders[] = {http::field::host, http::field::content_type, http::field::content_length,
                                             http::field::origin, http::field::authorization};

// State shared by the server, its sessions and every outstanding Reply. It owns
// the io_context, so a session kept alive by a late Reply (after the server
// object is gone) still has a live io_context to destroy its socket with.
struct Core {
  Core(ServerOptions o, Handler h)
      : options(std::move(o)), handler(std::move(h)), ioc(std::max(1, options.io_threads)) {}

  const ServerOptions options;
  Handler handler;  // called on the I/O threads only; released once they are joined
  asio::io_context ioc;
  std::atomic<std::size_t> open{0};      // served sessions not yet closed
  std::atomic<std::size_t> overflow{0};  // overflow sessions not yet closed

  // `stopping` is set under `mu`, and a Reply posts to the event loop under
  // `mu` only while it is false: so nothing is posted once stop() has begun to
  // drain the loop, and a late Reply never queues work that would never run.
  std::mutex mu;
  std::atomic<bool> stopping{false};
  // Graceful shutdown: no new connections, no keep-alive after the current answer.
  std::atomic<bool> draining{false};
  std::condition_variable all_closed;                                  // notified (under mu) whenever `open` drops
  std::unordered_map<std::uint64_t, std::weak_ptr<Session>> sessions;  // for stop()
  std::unordered_map<std::string, std::size_t> per_client;             // served sessions per remote address
  std::list<IdleEntry> idle;  // served keep-alive sessions between requests, longest-idle first
  std::uint64_t next_session_id = 0;
};

// What to do once a response has been written.
enum class AfterWrite { ReadNext, Close, LingerClose };

// How a connection was accepted (see ServerOptions::max_connections).
enum class Admission {
  Served,    // within the caps: counted in `open` and `per_client`
  Overflow,  // beyond a cap: only the always-served routes are answered
  Rejected,  // beyond a cap with every overflow place taken: 503 without reading
};

std::string_view path_of(std::string_view target) {
  return target.substr(0, target.find('?'));
}

HttpRequest to_request(http::request<http::string_body>&& message, const std::string& remote) {
  HttpRequest request;
  request.method = std::string(message.method_string());
  request.target = std::string(message.target());
  for (const auto& field : message) {
    std::string name(field.name_string());
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c); });
    request.headers.emplace_back(std::move(name), std::string(field.value()));
  }
  request.body = std::move(message.body());
  request.remote_address = remote;
  return request;
}

http::response<http::string_body> to_beast(HttpResponse response, unsigned version, bool keep_alive) {
  // Beast throws on a status outside 100..999; that can only be a bug upstream.
  assert(response.status >= 100 && response.status <= 999);
  const bool valid_status = response.status >= 100 && response.status <= 999;
  http::response<http::string_body> out;
  out.version(version);
  out.result(valid_status ? static_cast<unsigned>(response.status) : 500U);
  if (valid_status && !response.reason.empty()) out.reason(response.reason);
  out.set(http::field::server, kServerName);
  if (!response.content_type.empty()) out.set(http::field::content_type, response.content_type);
  for (const auto& [name, value] : response.headers) out.insert(name, value);
  out.body() = std::move(response.body);
  out.keep_alive(keep_alive);
  out.prepare_payload();  // Content-Length
  return out;
}

// One TCP connection. Pure I/O: read a request, hand it to the Handler, write
// the answer, repeat. Everything runs on the connection's strand except
// deliver(), which any thread may call.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(std::shared_ptr<Core> core, tcp::socket socket, std::uint64_t id, std::string remote, Admission admission,
          std::string cap)
      : core_(std::move(core)),
        executor_(socket.get_executor()),
        stream_(std::move(socket)),
        remote_address_(std::move(remote)),
        id_(id),
        admission_(admission),
        cap_(std::move(cap)) {
    beast::error_code ec;
    // Each response goes out in one write; do not let Nagle hold its tail back.
    stream_.socket().set_option(tcp::no_delay(true), ec);
  }

  Admission admission() const { return admission_; }
  // Any thread: the request line and headers have arrived (an overflow
  // connection that has them is not closed to make room for another).
  bool headers_read() const { return headers_read_.load(); }

  ~Session() { forget(); }

  const asio::any_io_executor& executor() const { return executor_; }

  // Serve requests until the client, a timeout or stop() ends the connection.
  void start() {
    asio::dispatch(executor_, [self = shared_from_this()] { self->read_request(); });
  }

  // Over the connection caps with no overflow place: answer 503 without
  // reading the request, close at once (no lingering: nothing may pile up).
  void start_rejected() {
    asio::dispatch(executor_, [self = shared_from_this()] {
      self->keep_alive_ = false;
      self->write(self->connections_refusal(), AfterWrite::Close);
    });
  }

  // Any thread: queue the answer for the current request onto the strand.
  void deliver(HttpResponse response) {
    std::lock_guard lock(core_->mu);
    if (core_->stopping) return;  // the connection is being closed; nobody would write it
    asio::post(executor_, [self = shared_from_this(), response = std::move(response)]() mutable {
      self->on_reply(std::move(response));
    });
  }

  // On the strand: close the socket now; aborts any pending operation.
  void close() {
    if (closed_) return;
    stream_.close();
    forget();
  }

  // On the strand, once draining has begun: a connection waiting for its next
  // request has nothing in flight and is closed now; the others close after
  // the answer they wait for.
  void close_if_idle() {
    if (idle_) close();
  }

  // Acceptor strand, holding core mu, with this session's IdleEntry just taken
  // out of Core::idle: its place (in `open` and `per_client`) now belongs to a
  // newcomer, so forget() must not give it back again. The caller then posts
  // close(); if the next request's first byte wins that race, on_first_byte()
  // sees `evicted_` and closes too (as an idle timeout would have).
  void evict_locked() {
    evicted_ = true;
    idle_pos_.reset();
  }

 private:
  // --- reading ---------------------------------------------------------------

  void read_request() {
    if (closed_) return;
    parser_.emplace();
    parser_->body_limit(core_->options.max_body_bytes);
    parser_->header_limit(static_cast<std::uint32_t>(
        std::min<std::size_t>(core_->options.max_header_bytes, std::numeric_limits<std::uint32_t>::max())));
    // Keep-alive with nothing of the next request buffered yet: wait for its
    // first byte under idle_timeout; read_timeout starts once it arrives. (The
    // first request of a connection is under read_timeout from accept on.)
    if (requests_read_ > 0 && buffer_.size() == 0) {
      if (core_->draining) return close();
      idle_ = true;
      if (admission_ == Admission::Served) {
        std::lock_guard lock(core_->mu);
        idle_pos_ = core_->idle.insert(core_->idle.end(), IdleEntry{remote_address_, weak_from_this()});
      }
      stream_.expires_after(core_->options.idle_timeout);
      stream_.async_read_some(buffer_.prepare(kReadChunk),
                              beast::bind_front_handler(&Session::on_first_byte, shared_from_this()));
      return;
    }
    read_header();
  }

  void on_first_byte(beast::error_code ec, std::size_t bytes) {
    idle_ = false;
    bool evicted = false;
    {
      std::lock_guard lock(core_->mu);
      evicted = evicted_;
      if (idle_pos_) core_->idle.erase(*idle_pos_);
      idle_pos_.reset();
    }
    // Idle timeout, the client closed, stop(), or a newcomer took our place.
    if (ec || evicted) return close();
    buffer_.commit(bytes);
    read_header();
  }

  void read_header() {
    // Deadlines count from the request's start: the request line and headers
    // within header_timeout (overflow connections: overflow_header_timeout),
    // the whole request within read_timeout. A client trickling bytes (slow
    // loris) cannot extend either.
    request_start_ = std::chrono::steady_clock::now();
    auto header_time = std::min(core_->options.header_timeout, core_->options.read_timeout);
    if (admission_ == Admission::Overflow) header_time = std::min(header_time, core_->options.overflow_header_timeout);
    stream_.expires_after(header_time);
    header_line_start_ = false;
    header_folded_ = false;
    parse_header();
  }

  // What http::async_read_header does, plus a look at the header's raw bytes:
  // the parser joins an obsolete folded line (a line starting with a space or
  // tab) into the previous header's value, so only the bytes show it.
  void parse_header() {
    while (buffer_.size() > 0) {
      beast::error_code ec;
      const auto bytes = buffer_.data();
      const std::size_t used = parser_->put(bytes, ec);
      note_folds(std::string_view(static_cast<const char*>(bytes.data()), used));
      buffer_.consume(used);
      if (ec && ec != http::error::need_more) return on_header(ec);
      if (parser_->is_header_done()) return on_header({});
      if (ec || used == 0) break;  // the header is not complete yet
    }
    stream_.async_read_some(
        buffer_.prepare(kReadChunk), [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
          self->buffer_.commit(bytes);
          if (ec == asio::error::eof)
            ec = self->parser_->got_some() ? http::error::partial_message : http::error::end_of_stream;
          if (ec) return self->on_header(ec);
          self->parse_header();
        });
  }

  // `bytes` continue the request line and headers the parser has consumed so far.
  void note_folds(std::string_view bytes) {
    for (const char c : bytes) {
      if (header_line_start_ && (c == ' ' || c == '\t')) header_folded_ = true;
      header_line_start_ = c == '\n';
    }
  }

  // The header as parsed, checked for what HTTP rules out or querygate could
  // only read ambiguously (see http_server.hpp); nullopt when it is fine.
  std::optional<Error> header_refusal() const {
    const auto& header = parser_->get();
    if (header_folded_)
      return make_error(ErrorCode::RequestMalformedHttp,
                        "the request continues a header on a line that starts with a space or tab (obsolete line "
                        "folding, refused by RFC 9112 section 5.2)",
                        "FIX: send each header on one line.");
    if (header.version() >= 11 && header.count(http::field::host) == 0)
      return make_error(ErrorCode::RequestMalformedHttp,
                        "the HTTP/1.1 request has no Host header (RFC 9112 section 3.2 requires one)",
                        "FIX: send 'Host: 127.0.0.1:PORT' naming the address and port you connect to (HTTP "
                        "clients do this by themselves).");
    for (const http::field name : kSingletonHeaders) {
      if (header.count(name) < 2) continue;
      const std::string shown(http::to_string(name));
      return make_error(ErrorCode::RequestMalformedHttp,
                        "the request has " + std::to_string(header.count(name)) + " " + shown +
                            " headers; querygate reads " + shown + " only when it is sent once",
                        "FIX: send the " + shown +
                            " header once (if a proxy between you and querygate adds a copy, configure it to "
                            "replace the header instead).");
    }
    return std::nullopt;
  }

  void on_header(beast::error_code ec) {
    if (ec) return on_read_error(ec);
    headers_read_ = true;
    if (auto refusal = header_refusal()) return answer_and_close(*refusal);
    if (admission_ == Admission::Overflow) {
      const auto& served = core_->options.always_served;
      const auto path = path_of(parser_->get().target());
      const bool health =
          parser_->get().method() == http::verb::get && std::find(served.begin(), served.end(), path) != served.end();
      if (!health) {
        version_ = 11;
        keep_alive_ = false;
        return write(connections_refusal(), AfterWrite::LingerClose);
      }
    }
    stream_.expires_at(request_start_ + core_->options.read_timeout);
    if (parser_->is_done()) return on_request();
    const auto& header = parser_->get();
    if (header.version() >= 11 && beast::iequals(header[http::field::expect], "100-continue")) {
      asio::async_write(stream_, asio::buffer(kContinueResponse),
                        beast::bind_front_handler(&Session::on_continue_sent, shared_from_this()));
      return;
    }
    read_body();
  }

  void on_continue_sent(beast::error_code ec, std::size_t) {
    if (ec) return close();
    read_body();
  }

  void read_body() {
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::on_body, shared_from_this()));
  }

  void on_body(beast::error_code ec, std::size_t) {
    if (ec) return on_read_error(ec);
    on_request();
  }

  void on_read_error(beast::error_code ec) {
    const auto& http_category = http::make_error_code(http::error::end_of_stream).category();
    if (ec == http::error::body_limit) {
      const auto limit = std::to_string(core_->options.max_body_bytes);
      return answer_and_close(
          make_error(ErrorCode::RequestBodyTooLarge, "the request body is larger than " + limit + " bytes",
                     "FIX: send a shorter SQL statement (the whole request body must fit in " + limit +
                         " bytes); select fewer literal values or split the work into several queries"));
    }
    if (ec == http::error::header_limit) {
      return answer_and_close(
          make_error(ErrorCode::RequestMalformedHttp,
                     "the HTTP request line and headers are larger than " +
                         std::to_string(core_->options.max_header_bytes) + " bytes",
                     "FIX: send fewer or shorter headers and put the SQL in the JSON body, not in the URL"));
    }
    // Client closed (between or inside a request), timed out, I/O failed or
    // stop() aborted the read: there is nobody to answer.
    if (ec == http::error::end_of_stream || ec == http::error::partial_message || ec.category() != http_category)
      return close();
    // Anything else is a parser error: the bytes were not an HTTP request.
    answer_and_close(make_error(ErrorCode::RequestMalformedHttp,
                                "the HTTP request could not be read (" + ec.message() + ")",
                                "FIX: send a well-formed HTTP/1.1 request: request line, headers, and a "
                                "Content-Length that matches the body"));
  }

  HttpResponse connections_refusal() const {
    HttpResponse response = error_response(make_error(
        ErrorCode::LimitConnections, "querygate is already serving its maximum of " + cap_,
        "FIX: retry after the Retry-After delay; send several requests over one keep-alive connection instead of "
        "opening a new connection for each, and close the connections you no longer use"));
    response.headers.emplace_back("Retry-After", kRetryAfterSeconds);
    return response;
  }

  void answer_and_close(const Error& error) {
    version_ = 11;  // the request may be unreadable; 1.1 is understood by 1.0 clients too
    keep_alive_ = false;
    write(error_response(error), AfterWrite::LingerClose);
  }

  // --- the application --------------------------------------------------------

  // Shared by every copy of one request's Reply. Guarantees one answer per
  // request: later calls are ignored, and a Reply dropped without being called
  // answers 500, so the client is never left waiting.
  class ReplyState {
   public:
    explicit ReplyState(std::shared_ptr<Session> session) : session_(std::move(session)) {}
    ReplyState(const ReplyState&) = delete;
    ReplyState& operator=(const ReplyState&) = delete;
    ~ReplyState() {
      if (answered_.load()) return;
      answer(error_response(make_error(ErrorCode::Internal, "the request handler finished without answering",
                                       "FIX: retry the request; if it keeps failing, report it to the operator")));
    }
    void answer(HttpResponse response) {
      if (!answered_.exchange(true)) session_->deliver(std::move(response));
    }
    bool answered() const { return answered_.load(); }

   private:
    std::shared_ptr<Session> session_;
    std::atomic<bool> answered_{false};
  };

  void on_request() {
    if (closed_) return;
    ++requests_read_;
    auto message = parser_->release();
    keep_alive_ = message.keep_alive() && admission_ == Admission::Served;
    version_ = message.version();
    auto state = std::make_shared<ReplyState>(shared_from_this());
    cancellation_ = permits::Cancellation::make();
    HttpRequest request = to_request(std::move(message), remote_address_);
    request.cancellation = cancellation_;
    // The transport must survive a throwing Handler; the request still gets
    // exactly one answer.
    try {
      core_->handler(std::move(request), [state](HttpResponse response) { state->answer(std::move(response)); });
    } catch (const std::exception& e) {
      state->answer(
          error_response(make_error(ErrorCode::Internal, std::string("the request handler failed: ") + e.what())));
    } catch (...) {
      state->answer(error_response(make_error(ErrorCode::Internal, "the request handler failed")));
    }
    // Answered inline (health checks, refusals): nothing to watch for.
    if (!state->answered()) watch();
  }

  // --- noticing a client that leaves while its request is handled ------------

  // The only way to learn of a disconnect is to read: EOF or an error then
  // means the client is gone. (A client that half-closes its side after
  // sending, which HTTP/1.1 clients do not do, reads as gone too.) No timeout
  // applies: the request's own deadline bounds the handler.
  void watch() {
    if (closed_ || buffer_.size() >= kWatchMaxBuffered) return;
    watching_ = true;
    stream_.expires_never();
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            beast::bind_front_handler(&Session::on_watch, shared_from_this()));
  }

  void on_watch(beast::error_code ec, std::size_t bytes) {
    watching_ = false;
    buffer_.commit(bytes);
    if (closed_) return;
    if (held_reply_) {  // on_reply() cancelled the watch to write its answer
      HttpResponse response = std::move(*held_reply_);
      held_reply_.reset();
      return write_reply(std::move(response));
    }
    if (ec == asio::error::operation_aborted) return;
    if (ec) {
      // The client closed or reset the connection: stop its queued or running work.
      if (cancellation_) cancellation_->cancel();
      return close();
    }
    watch();  // bytes of a pipelined request: kept in buffer_ for the parser
  }

  void on_reply(HttpResponse response) {
    if (closed_) return;  // the client left or stop() closed us: the answer has nowhere to go
    cancellation_.reset();
    if (watching_) {
      // One read at a time: end the watch first; on_watch() writes the answer.
      held_reply_ = std::move(response);
      beast::error_code ignored;
      stream_.socket().cancel(ignored);
      return;
    }
    write_reply(std::move(response));
  }

  void write_reply(HttpResponse response) {
    const bool keep_alive = keep_alive_ && !core_->stopping && !core_->draining;
    write(std::move(response), keep_alive ? AfterWrite::ReadNext : AfterWrite::Close);
  }

  // --- writing and closing ----------------------------------------------------

  void write(HttpResponse response, AfterWrite after) {
    if (closed_) return;
    response_ = to_beast(std::move(response), version_, after == AfterWrite::ReadNext);
    // A connection beyond the caps gets no more time to read its answer than to send its request.
    stream_.expires_after(admission_ == Admission::Served
                              ? core_->options.write_timeout
                              : std::min(core_->options.write_timeout, core_->options.overflow_header_timeout));
    http::async_write(stream_, response_, beast::bind_front_handler(&Session::on_write, shared_from_this(), after));
  }

  void on_write(AfterWrite after, beast::error_code ec, std::size_t) {
    if (ec) return close();  // the client left or did not read in time
    response_ = {};
    switch (after) {
      case AfterWrite::ReadNext:
        return read_request();  // pipelined requests wait in buffer_
      case AfterWrite::Close:
        return shutdown_and_close();
      case AfterWrite::LingerClose:
        return linger();
    }
  }

  // The request was read completely: send FIN after the response and close.
  void shutdown_and_close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    close();
  }

  void linger() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (ec) return close();
    buffer_.clear();
    stream_.expires_after(std::min(kLingerTime, core_->options.read_timeout));
    drain();
  }

  void drain() {
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
                              self->lingered_bytes_ += bytes;
                              if (ec || self->lingered_bytes_ > kLingerMaxBytes) return self->close();
                              self->drain();
                            });
  }

  // Leave the registry and the connection count, once.
  void forget() {
    if (closed_) return;
    closed_ = true;
    bool counted = admission_ == Admission::Served;  // still holds its place in `open`
    {
      std::lock_guard lock(core_->mu);
      core_->sessions.erase(id_);
      if (idle_pos_) core_->idle.erase(*idle_pos_);
      idle_pos_.reset();
      counted = counted && !evicted_;  // an evicted session's place went to the newcomer
      if (counted) {
        core_->open.fetch_sub(1);
        if (auto it = core_->per_client.find(remote_address_); it != core_->per_client.end() && --it->second == 0)
          core_->per_client.erase(it);
      }
      if (admission_ == Admission::Overflow) core_->overflow.fetch_sub(1);
    }
    if (counted) core_->all_closed.notify_all();
  }

  // core_ first: destroyed last, so the io_context outlives the socket.
  std::shared_ptr<Core> core_;
  asio::any_io_executor executor_;  // the connection's strand
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;                                      // may hold the start of the next (pipelined) request
  std::optional<http::request_parser<http::string_body>> parser_;  // fresh per request
  http::response<http::string_body> response_;                     // alive until its write completes
  std::string remote_address_;
  const std::uint64_t id_;
  const Admission admission_;
  const std::string cap_;  // the cap an overflow or rejected connection is beyond, in words
  std::atomic<bool> headers_read_{false};
  std::chrono::steady_clock::time_point request_start_;
  bool closed_ = false;
  bool keep_alive_ = false;
  unsigned version_ = 11;
  std::size_t requests_read_ = 0;
  std::size_t lingered_bytes_ = 0;
  bool idle_ = false;                       // waiting for the first byte of a keep-alive request
  bool watching_ = false;                   // watch()'s read is pending
  std::optional<HttpResponse> held_reply_;  // the answer, while the watch is being cancelled
  bool header_line_start_ = false;          // the last header byte seen ended a line
  bool header_folded_ = false;              // a header line started with a space or tab
  // Under core_->mu: this session's entry in Core::idle while it waits for its
  // next request, and whether a newcomer took its place (see evict_locked()).
  std::optional<std::list<IdleEntry>::iterator> idle_pos_;
  bool evicted_ = false;
  std::shared_ptr<permits::Cancellation> cancellation_;  // of the request being handled
};

}  // namespace

// ---- The listener and the I/O threads -----------------------------------------

struct HttpServer::Impl {
  Impl(ServerOptions options, Handler handler)
      : core(std::make_shared<Core>(std::move(options), std::move(handler))),
        acceptor(asio::make_strand(core->ioc)),
        retry_timer(acceptor.get_executor()) {}

  void accept() {
    acceptor.async_accept(asio::make_strand(core->ioc),
                          [this](beast::error_code ec, tcp::socket socket) { on_accept(ec, std::move(socket)); });
  }

  // On the acceptor's strand.
  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open() || core->stopping || core->draining)
      return;  // stop() or drain()
    if (ec) {
      retry_timer.expires_after(kAcceptRetryDelay);
      retry_timer.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) accept();
      });
      return;
    }
    beast::error_code peer_ec;
    const auto peer = socket.remote_endpoint(peer_ec);
    std::string remote = peer_ec ? std::string() : peer.address().to_string();
    const ServerOptions& o = core->options;
    // Only this strand increments `open`, `per_client` and `overflow`, so no cap can be overshot.
    Admission admission = Admission::Served;
    std::string cap;
    std::shared_ptr<Session> session;
    std::shared_ptr<Session> evicted;
    {
      std::lock_guard lock(core->mu);
      const auto it = core->per_client.find(remote);
      const std::size_t mine = it == core->per_client.end() ? 0 : it->second;
      const bool over_mine = mine >= o.max_connections_per_client;
      if (core->open.load() >= o.max_connections) {
        admission = Admission::Overflow;
        cap = std::to_string(o.max_connections) + " connections";
      } else if (over_mine) {
        admission = Admission::Overflow;
        cap = std::to_string(o.max_connections_per_client) + " connections from one client address (" + remote + ")";
      }
      // Beyond a cap: the longest-idle keep-alive connection (from this address
      // when the address is at its cap) gives its place to the newcomer.
      if (admission == Admission::Overflow) {
        for (auto idle = core->idle.begin(); idle != core->idle.end(); ++idle) {
          if (over_mine && idle->remote != remote) continue;
          evicted = idle->session.lock();
          if (!evicted) continue;  // being destroyed: its forget() gives its place back
          evicted->evict_locked();
          core->open.fetch_sub(1);
          if (auto theirs = core->per_client.find(idle->remote);
              theirs != core->per_client.end() && --theirs->second == 0)
            core->per_client.erase(theirs);
          core->idle.erase(idle);
          admission = Admission::Served;
          cap.clear();
          break;
        }
      }
      if (admission == Admission::Served) {
        core->open.fetch_add(1);
        ++core->per_client[remote];
      }
    }
    if (admission == Admission::Overflow && !make_overflow_room()) admission = Admission::Rejected;
    if (admission == Admission::Overflow) core->overflow.fetch_add(1);
    {
      std::lock_guard lock(core->mu);
      const auto id = core->next_session_id++;
      session = std::make_shared<Session>(core, std::move(socket), id, std::move(remote), admission, std::move(cap));
      core->sessions.emplace(id, session);
    }
    if (evicted) asio::dispatch(evicted->executor(), [evicted] { evicted->close(); });
    if (admission == Admission::Overflow) overflow_sessions.push_back(session);
    if (admission == Admission::Rejected)
      session->start_rejected();
    else
      session->start();
    accept();
  }

  // On the acceptor's strand: true when an overflow connection may be opened,
  // closing the oldest one still waiting for its headers if every place is taken.
  bool make_overflow_room() {
    while (!overflow_sessions.empty() && overflow_sessions.front().expired()) overflow_sessions.pop_front();
    if (overflow_sessions.size() > 2 * core->options.max_overflow_connections)
      std::erase_if(overflow_sessions, [](const std::weak_ptr<Session>& w) { return w.expired(); });
    if (core->overflow.load() < core->options.max_overflow_connections) return true;
    for (auto it = overflow_sessions.begin(); it != overflow_sessions.end(); ++it) {
      auto oldest = it->lock();
      if (!oldest || oldest->headers_read()) continue;
      overflow_sessions.erase(it);
      asio::dispatch(oldest->executor(), [oldest] { oldest->close(); });
      return true;
    }
    return false;
  }

  // On the acceptor's strand: stop accepting; then close every connection
  // (stop) or only the idle ones (drain).
  void stop_accepting(bool close_all) {
    beast::error_code ec;
    acceptor.close(ec);
    retry_timer.cancel();
    std::vector<std::shared_ptr<Session>> live;
    {
      std::lock_guard lock(core->mu);
      for (const auto& [id, weak] : core->sessions)
        if (auto session = weak.lock()) live.push_back(std::move(session));
    }
    for (auto& session : live)
      asio::dispatch(session->executor(),
                     [session, close_all] { close_all ? session->close() : session->close_if_idle(); });
  }

  std::shared_ptr<Core> core;  // first: the io_context outlives the acceptor and timer
  tcp::acceptor acceptor;
  std::deque<std::weak_ptr<Session>> overflow_sessions;  // oldest first; acceptor strand only
  asio::steady_timer retry_timer;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;

  std::mutex lifecycle_mu;  // start() / stop()
  bool started = false;
  bool stopped = false;
  std::vector<std::thread> threads;
  std::mutex threads_mu;
  std::condition_variable threads_done;
  int threads_running = 0;
};

HttpServer::HttpServer(ServerOptions options, Handler handler)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler))) {}

HttpServer::~HttpServer() {
  stop();
}

Result<std::uint16_t> HttpServer::start() {
  Impl& m = *impl_;
  std::lock_guard lifecycle(m.lifecycle_mu);
  const ServerOptions& o = m.core->options;
  const std::string where = o.host + ":" + std::to_string(o.port);
  if (m.started || m.stopped)
    return make_error(ErrorCode::Internal, "the HTTP server for " + where + " was already started",
                      "FIX: create a new HttpServer for each start");
  if (o.io_threads < 1 || o.max_connections < 1)
    return make_error(ErrorCode::Internal,
                      "cannot listen on " + where + ": io_threads and max_connections must be at least 1",
                      "FIX: set io_threads and max_connections to 1 or more");

  beast::error_code ec;
  auto fail = [&](std::string_view step) {
    beast::error_code ignored;
    m.acceptor.close(ignored);
    return make_error(ErrorCode::Internal,
                      "cannot listen on " + where + ": " + std::string(step) + " failed: " + ec.message(),
                      "FIX: set the listen address to a local address and a free port, or stop the process "
                      "that already listens on " +
                          where + " (ports below 1024 need privileges)");
  };
  tcp::resolver resolver(m.core->ioc);
  const auto endpoints =
      resolver.resolve(o.host, std::to_string(o.port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec) return fail("resolving the host");
  if (endpoints.empty()) return fail("resolving the host (no address)");
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();

  m.acceptor.open(endpoint.protocol(), ec);
  if (ec) return fail("opening the socket");
  // A restart must not wait for the previous run's TIME_WAIT connections.
  m.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (ec) return fail("setting SO_REUSEADDR");
  m.acceptor.bind(endpoint, ec);
  if (ec) return fail("bind");
  m.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return fail("listen");
  const std::uint16_t port = m.acceptor.local_endpoint(ec).port();
  if (ec) return fail("reading the bound port");

  m.started = true;
  // Keeps run() going while every session waits on its Handler.
  m.work.emplace(m.core->ioc.get_executor());
  m.accept();  // no I/O thread runs yet, so this needs no strand
  m.threads_running = o.io_threads;
  for (int i = 0; i < o.io_threads; ++i) {
    m.threads.emplace_back([&m] {
      m.core->ioc.run();
      {
        std::lock_guard lock(m.threads_mu);
        --m.threads_running;
      }
      m.threads_done.notify_all();
    });
  }
  return port;
}

void HttpServer::stop() {
  Impl& m = *impl_;
  std::lock_guard lifecycle(m.lifecycle_mu);
  if (!m.started || m.stopped) return;
  m.stopped = true;
  for ([[maybe_unused]] const auto& t : m.threads)
    assert(t.get_id() != std::this_thread::get_id() && "stop() called from an I/O thread (inside the Handler)");
  {
    std::lock_guard lock(m.core->mu);
    m.core->stopping = true;  // from here on, Replies are dropped instead of posted
  }
  asio::post(m.acceptor.get_executor(), [&m] { m.stop_accepting(/*close_all=*/true); });
  m.work.reset();
  // Closing aborts every pending operation; run() returns once their handlers
  // have run. Bounded, in case something still holds work: then the loop is
  // stopped outright (handlers still queued then are leaked, never run).
  {
    std::unique_lock lock(m.threads_mu);
    if (!m.threads_done.wait_for(lock, kStopDrainLimit, [&m] { return m.threads_running == 0; })) m.core->ioc.stop();
  }
  for (auto& t : m.threads) t.join();
  m.threads.clear();
  m.core->handler = nullptr;  // release the application's captures; no thread can call it now
}

void HttpServer::drain() {
  Impl& m = *impl_;
  std::lock_guard lifecycle(m.lifecycle_mu);
  if (!m.started || m.stopped || m.core->draining) return;
  m.core->draining = true;
  asio::post(m.acceptor.get_executor(), [&m] { m.stop_accepting(/*close_all=*/false); });
}

bool HttpServer::wait_closed(std::chrono::steady_clock::time_point deadline) {
  Core& core = *impl_->core;
  std::unique_lock lock(core.mu);
  return core.all_closed.wait_until(lock, deadline, [&core] { return core.open.load() == 0; });
}

std::size_t HttpServer::open_connections() const {
  return impl_->core->open.load();
}

std::size_t HttpServer::overflow_connections() const {
  return impl_->core->overflow.load();
}

}  // namespace qg::gateway
