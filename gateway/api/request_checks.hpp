#pragma once
// Checks on a request's headers made before its body is read: the media type of
// a body, and — on a loopback listener — that Host and Origin name this gateway.
//
// Why: a browser page may POST a "simple" request (text/plain, form types) to
// any address without a CORS preflight, and DNS rebinding lets a page on
// evil.example reach 127.0.0.1 under its own name. Requiring application/json
// forces a preflight (which querygate never grants); checking Host defeats the
// rebinding, whose requests carry the attacker's host name; checking Origin
// refuses a page of another site even when Host was right.
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace qg::gateway {

// 127.0.0.0/8, ::1 or localhost: the listen addresses that serve this machine only.
bool is_loopback_host(std::string_view host);

// The body of a POST must be declared `application/json` (any case; parameters
// such as `; charset=utf-8` are allowed, a charset other than UTF-8 is not).
// 415 request:unsupported-media-type otherwise, also when the header is absent.
Status check_json_content_type(std::string_view content_type);

struct HostPolicy {
  bool enforce = false;                    // true on a loopback listener
  std::vector<std::string> allowed_hosts;  // extra host names (lower-case, no port), from the config
};

HostPolicy host_policy(std::string_view listen_host, std::vector<std::string> allowed_hosts);

// With `enforce`: Host, when present, must name 127.x.x.x, localhost, [::1] or
// an allowed host, with any port or none (421 request:host-not-allowed); an
// Origin, when present, must be http(s) on such a host (403
// request:origin-not-allowed; "null" too). A request without Host (HTTP/1.0;
// the transport refuses HTTP/1.1 without one, and a second Host or Origin) is
// not a browser's and passes.
Status check_host_and_origin(const HostPolicy& policy, std::string_view host, std::string_view origin);

}  // namespace qg::gateway
