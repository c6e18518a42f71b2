#include "gateway/http/http_types.hpp"

#include <boost/json.hpp>

namespace qg::gateway {

std::string HttpRequest::header(std::string_view lower_name) const {
  for (const auto& [k, v] : headers)
    if (k == lower_name) return v;
  return {};
}

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
  r.body = boost::json::serialize(root);
  r.body += '\n';
  return r;
}

}  // namespace qg::gateway
