#pragma once
// Transport-neutral request/response values. The HTTP session code only moves
// these across the socket; everything that decides what to answer is a plain
// function of an HttpRequest (see gateway/api).
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "load_control/cancel.hpp"

namespace qg::gateway {

struct HttpRequest {
  std::string method;                                        // "GET", "POST", ...
  std::string target;                                        // path plus query string, as sent
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  std::string remote_address;  // peer IP, for fairness/logs
  // Fired by the transport when the client goes away before its answer is
  // written, so queued or running work for it can stop. HttpServer always
  // sets it; other callers may leave it null.
  std::shared_ptr<permits::Cancellation> cancellation;

  // First header with this (lower-case) name, or empty.
  std::string header(std::string_view lower_name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers (Retry-After, ...)
  std::string outcome = "ok";  // the error code's name for refusals; for the request log, never sent
  // The status line's reason phrase; empty: the standard one ("OK", ...).
  // Refusals carry their code, message and fix there too: some tool importers
  // (LangChain JS's OpenAPI chain) hand a model only "status: reason" of a
  // non-2xx answer and drop its body.
  std::string reason;
};

// The error envelope: {"error":{"code","message","fix","position"}} with the
// code's HTTP status. Used by the transport for its own failures (oversized
// body, bad request line) and by the API for everything else.
HttpResponse error_response(const Error& error);

// Completes a request. May be called from any thread, exactly once.
using Reply = std::function<void(HttpResponse)>;
// The application: receives each request and must call reply exactly once.
using Handler = std::function<void(HttpRequest, Reply)>;

}  // namespace qg::gateway
