// The request's headers and JSON body, read before any SQL: the media type,
// Host and Origin on a loopback listener, and fields named twice.
#include "gateway/api/request_checks.hpp"

#include <gtest/gtest.h>

#include "gateway/api/query_request.hpp"

namespace qg::gateway {
namespace {

TEST(RequestChecksTest, OnlyApplicationJsonInUtf8IsRead) {
  for (const char* ok : {"application/json", "APPLICATION/JSON", " application/json ", "application/json;charset=utf-8",
                         "application/json; charset=UTF-8", "application/json; charset=\"utf-8\"", "application/json;",
                         "application/json; foo=bar"})
    EXPECT_TRUE(check_json_content_type(ok)) << ok;
  for (const char* refused : {"", "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
                              "multipart/form-data; boundary=x", "application/json-seq", "application/jsonx", "json",
                              "application/json; charset=iso-8859-1", "application/json; charset=utf-16"}) {
    auto s = check_json_content_type(refused);
    ASSERT_FALSE(s) << refused;
    EXPECT_EQ(s.error().code, ErrorCode::RequestUnsupportedMediaType);
    EXPECT_EQ(http_status(s.error().code), 415);
    EXPECT_TRUE(s.error().fix.starts_with("FIX: send")) << s.error().fix;
  }
}

TEST(RequestChecksTest, LoopbackListenersCheckHostAndOrigin) {
  for (const char* host : {"127.0.0.1", "localhost", "::1", "[::1]", "127.0.1.1", "LocalHost"})
    EXPECT_TRUE(host_policy(host, {}).enforce) << host;
  for (const char* host : {"0.0.0.0", "::", "10.0.0.5", "querygate.example", "127.0.0", "1127.0.0.1"})
    EXPECT_FALSE(host_policy(host, {}).enforce) << host;

  const HostPolicy loopback = host_policy("127.0.0.1", {"Proxy.Local"});
  for (const char* host :
       {"", "127.0.0.1", "127.0.0.1:8080", "localhost:1", "[::1]", "[::1]:8080", "proxy.local:80", "PROXY.LOCAL"})
    EXPECT_TRUE(check_host_and_origin(loopback, host, "")) << host;
  for (const char* host : {"evil.example", "evil.example:8080", "127.0.0.1.nip.io", "localhost.", "[::1", "[::2]",
                           "127.0.0.1:80x", "127.0.0.1:", ":8080", "0.0.0.0:8080", "proxy.local.evil"}) {
    auto s = check_host_and_origin(loopback, host, "");
    ASSERT_FALSE(s) << host;
    EXPECT_EQ(s.error().code, ErrorCode::RequestHostNotAllowed) << host;
    EXPECT_EQ(http_status(s.error().code), 421);
  }
  for (const char* origin : {"http://127.0.0.1:3000", "https://localhost", "http://[::1]:8080", "http://proxy.local"})
    EXPECT_TRUE(check_host_and_origin(loopback, "127.0.0.1", origin)) << origin;
  for (const char* origin : {"null", "http://evil.example", "https://evil.example:443", "file://", "localhost",
                             "ws://localhost", "http://localhost.evil.example", "http://127.0.0.1@evil.example"}) {
    auto s = check_host_and_origin(loopback, "127.0.0.1", origin);
    ASSERT_FALSE(s) << origin;
    EXPECT_EQ(s.error().code, ErrorCode::RequestOriginNotAllowed) << origin;
    EXPECT_EQ(http_status(s.error().code), 403);
  }
  // Another listener (API keys are required there) does not check.
  EXPECT_TRUE(check_host_and_origin(host_policy("0.0.0.0", {}), "evil.example", "http://evil.example"));
}

TEST(RequestChecksTest, AFieldNamedTwiceAnywhereIsRefused) {
  for (const char* body :
       {R"({"sql": "SELECT 1", "sql": "SELECT 2"})", R"({"sql": "SELECT 1", "s\u0071l": "x"})",
        R"({"limit": 1, "sql": "SELECT 1", "limit": 2})", R"({"sql": "SELECT 1", "database": {"a": 1, "a": 2}})",
        R"({"sql": "SELECT 1", "database": [{"a": 1}, {"b": 1, "b": 2}]})"}) {
    auto r = parse_query_request(body, 30000);
    ASSERT_FALSE(r) << body;
    EXPECT_EQ(r.error().code, ErrorCode::RequestDuplicateField) << body << ": " << r.error().message;
  }
  auto nested = parse_query_request(R"({"sql": "SELECT 1", "database": [{"a": 1}, {"b": 1, "b": 2}]})", 30000);
  EXPECT_NE(nested.error().message.find("'database[1].b'"), std::string::npos) << nested.error().message;
  // The same name in different objects is not a duplicate (the field is then refused for its type).
  auto distinct = parse_query_request(R"({"sql": "SELECT 1", "database": [{"a": 1}, {"a": 2}]})", 30000);
  ASSERT_FALSE(distinct);
  EXPECT_EQ(distinct.error().code, ErrorCode::RequestBadField);
  EXPECT_TRUE(parse_query_request(R"({"sql": "SELECT 1", "limit": 2, "validate_only": true})", 30000));
}

}  // namespace
}  // namespace qg::gateway
