#include "gateway/http/http_types.hpp"

#include "common/json_string.hpp"

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
  for (const auto& p : error.problems)  // the others, after this one
    if (p.position != error.position || p.message != error.message)
      text += " | also " + std::string(name(p.code)) + ": " + p.message + (p.fix.empty() ? "" : " " + p.fix);
  if (!error.suggested_sql.empty()) text += " | suggested_sql: " + error.suggested_sql;
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

boost::json::object error_object(const Error& error) {
  boost::json::object e;
  e["code"] = name(error.code);
  e["message"] = valid_utf8(error.message);  // an engine's message may cut a character in half
  if (!error.fix.empty()) e["fix"] = valid_utf8(error.fix);
  if (error.position) e["position"] = *error.position;
  return e;
}

}  // namespace

HttpResponse error_response(const Error& error) {
  boost::json::object e = error_object(error);
  if (!error.suggested_sql.empty()) e["suggested_sql"] = valid_utf8(error.suggested_sql);
  if (!error.problems.empty()) {
    boost::json::array problems;
    for (const auto& p : error.problems) problems.emplace_back(error_object(p));
    e["problems"] = std::move(problems);
  }
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
