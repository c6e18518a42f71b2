#include "gateway/http/http_types.hpp"

#include <algorithm>

#include <boost/json.hpp>

namespace qg::gateway {

std::string HttpRequest::header(std::string_view lower_name) const {
  for (const auto& [k, v] : headers)
    if (k == lower_name) return v;
  return {};
}

namespace {

// "<code>: <message> <fix>" as a reason phrase: one line of printable ASCII
// (control characters become spaces, other bytes '?'), at most kMax bytes.
std::string reason_phrase(const Error& error) {
  constexpr std::size_t kMax = 2000;  // a status line well within every client's header limit
  std::string text = std::string(name(error.code)) + ": " + error.message;
  if (!error.fix.empty()) text += " " + error.fix;
  std::string out;
  out.reserve(std::min(text.size(), kMax));
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    out.push_back(c < 0x20 || c == 0x7f ? ' ' : c > 0x7f ? '?' : ch);
  }
  if (out.size() > kMax) {
    out.resize(kMax - 40);
    out += " ... (the whole error is in the body)";
  }
  return out;
}

}  // namespace

HttpResponse error_response(const Error& error) {
  boost::json::object e;
  e["code"] = name(error.code);
  e["message"] = error.message;
  if (!error.fix.empty()) e["fix"] = error.fix;
  if (error.position) e["position"] = *error.position;
  boost::json::object root;
  root["error"] = std::move(e);
  HttpResponse r;
  r.status = http_status(error.code);
  r.outcome = std::string(name(error.code));
  r.reason = reason_phrase(error);
  r.body = boost::json::serialize(root);
  r.body += '\n';
  return r;
}

}  // namespace qg::gateway
