#include "gateway/api/request_checks.hpp"

#include <algorithm>
#include <optional>

namespace qg::gateway {
namespace {

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), ascii_lower);
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "127.a.b.c" with four decimal parts of at most three digits, each at most 255.
bool is_127_address(std::string_view host) {
  if (!host.starts_with("127.")) return false;
  int parts = 0;
  for (std::size_t start = 0; start <= host.size();) {
    const std::size_t dot = std::min(host.find('.', start), host.size());
    const std::string_view part = host.substr(start, dot - start);
    if (!all_digits(part) || part.size() > 3 || std::stoi(std::string(part)) > 255) return false;
    ++parts;
    start = dot + 1;
  }
  return parts == 4;
}

// The host of "host", "host:port", "[v6]" or "[v6]:port", lower-cased; nullopt when malformed.
std::optional<std::string> host_of_authority(std::string_view authority) {
  std::string_view host;
  std::string_view rest;
  if (authority.starts_with('[')) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);  // brackets kept: "[::1]"
    rest = authority.substr(close + 1);
  } else {
    const std::size_t colon = authority.find(':');
    host = authority.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view() : authority.substr(colon);
  }
  if (host.empty()) return std::nullopt;
  if (!rest.empty() && !(rest.front() == ':' && all_digits(rest.substr(1)))) return std::nullopt;
  return lower(host);
}

bool host_allowed(const HostPolicy& policy, const std::string& host) {
  if (host == "localhost" || host == "[::1]" || is_127_address(host)) return true;
  return std::find(policy.allowed_hosts.begin(), policy.allowed_hosts.end(), host) != policy.allowed_hosts.end();
}

std::string allowed_list(const HostPolicy& policy) {
  std::string out = "127.0.0.1, localhost, [::1]";
  for (const auto& h : policy.allowed_hosts) out += ", " + h;
  return out;
}

// Header values are echoed clipped and without control characters.
std::string shown(std::string_view value) {
  std::string out;
  for (char c : value.substr(0, 100)) out.push_back(static_cast<unsigned char>(c) < 0x20 ? '?' : c);
  return out + (value.size() > 100 ? "..." : "");
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  const std::string h = lower(host);
  return h == "localhost" || h == "::1" || h == "[::1]" || is_127_address(h);
}

Status check_json_content_type(std::string_view content_type) {
  const std::string fix = "FIX: send the header 'Content-Type: application/json' with the JSON body.";
  const std::string_view value = trim(content_type);
  if (value.empty())
    return make_error(ErrorCode::RequestUnsupportedMediaType, "the request has no Content-Type header", fix);
  const std::size_t semicolon = value.find(';');
  const std::string media = lower(trim(value.substr(0, semicolon)));
  if (media != "application/json")
    return make_error(ErrorCode::RequestUnsupportedMediaType,
                      "the body is declared as '" + shown(media) + "'; querygate reads only application/json", fix);
  // Parameters: only a charset, and only UTF-8 (RFC 8259: JSON exchanged between systems is UTF-8).
  for (std::size_t at = semicolon; at != std::string_view::npos;) {
    const std::size_t next = value.find(';', at + 1);
    const std::string_view param = trim(value.substr(at + 1, next == std::string_view::npos ? next : next - at - 1));
    at = next;
    if (param.empty()) continue;
    const std::size_t eq = param.find('=');
    const std::string name = lower(trim(param.substr(0, eq)));
    std::string charset = eq == std::string_view::npos ? std::string() : lower(trim(param.substr(eq + 1)));
    if (charset.size() >= 2 && charset.front() == '"' && charset.back() == '"')
      charset = charset.substr(1, charset.size() - 2);
    if (name == "charset" && charset != "utf-8" && charset != "utf8")
      return make_error(ErrorCode::RequestUnsupportedMediaType,
                        "the body is declared with charset '" + shown(charset) + "'; JSON bodies must be UTF-8",
                        "FIX: send the body in UTF-8 with 'Content-Type: application/json'.");
  }
  return {};
}

HostPolicy host_policy(std::string_view listen_host, std::vector<std::string> allowed_hosts) {
  for (auto& h : allowed_hosts) h = lower(h);
  return HostPolicy{is_loopback_host(listen_host), std::move(allowed_hosts)};
}

Status check_host_and_origin(const HostPolicy& policy, std::string_view host, std::string_view origin) {
  if (!policy.enforce) return {};
  const std::string allowed = allowed_list(policy);
  if (!host.empty()) {
    const auto name = host_of_authority(trim(host));
    if (!name || !host_allowed(policy, *name))
      return make_error(ErrorCode::RequestHostNotAllowed,
                        "this gateway listens on loopback and does not answer for Host '" + shown(host) +
                            "' (a page under another name may have been pointed at 127.0.0.1: DNS rebinding)",
                        "FIX: address the gateway as http://127.0.0.1:PORT or http://localhost:PORT (hosts accepted: " +
                            allowed + "); an operator can add a name with allowed_hosts in the config.");
  }
  if (origin.empty()) return {};
  const std::string_view o = trim(origin);
  std::optional<std::string> origin_host;
  for (std::string_view scheme : {"http://", "https://"})
    if (lower(o.substr(0, scheme.size())) == scheme) origin_host = host_of_authority(o.substr(scheme.size()));
  if (!origin_host || !host_allowed(policy, *origin_host))
    return make_error(ErrorCode::RequestOriginNotAllowed,
                      "a web page from Origin '" + shown(origin) +
                          "' may not use this loopback gateway (only pages served from " + allowed + ")",
                      "FIX: call the gateway from a program, not from a web page of another site; an operator can "
                      "add the page's host name with allowed_hosts in the config.");
  return {};
}

}  // namespace qg::gateway
