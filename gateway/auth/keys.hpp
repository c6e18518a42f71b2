#pragma once
// Who is calling. With API keys configured, every /v1 request must carry
// `Authorization: Bearer <token>`, unless one key is `anonymous: true`: a
// request without the header then gets that key's scope (start-up allows it on
// loopback only). A token is hashed (SHA-256) and compared in constant time
// with the configured hashes. Only key names leave this
// file (for logs, metrics, fairness); tokens are never stored or echoed.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "config/config.hpp"
#include "gateway/auth/sha256.hpp"

namespace qg::auth {

// True when both hold the same bytes. For inputs of equal length the time
// taken does not depend on where they differ.
bool constant_time_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept;

// RFC 6750 b64token: letters, digits, - . _ ~ + /, then optional '=' padding.
// `querygate hash-key` refuses anything else, so no configured token is unsendable.
bool is_bearer_token(std::string_view token) noexcept;

struct Key {
  std::string name;
  Digest hash{};
  std::vector<std::string> databases;
  config::HiddenColumns hidden_columns;  // columns this key may not see (admission and the schema)
  std::vector<std::pair<std::string, config::BindValue>> bind;  // row-filter parameters (config keys[i].bind)
  bool sql = true;                                              // false: curated tools only (config keys[].sql)
  std::optional<std::vector<std::string>> tools;  // the tools it may call; absent: every tool on its databases
  bool anonymous = false;  // the scope of requests without a token (config keys[].anonymous); no hash
};

class KeyRing {
 public:
  // The config has checked every hash (64 hex digits) and database name.
  explicit KeyRing(const std::vector<config::ApiKey>& keys);

  bool enabled() const noexcept { return !keys_.empty(); }

  // The key an Authorization header value (empty: no header) proves, or
  // auth:missing / auth:invalid. With no keys configured: nullptr (anonymous,
  // unrestricted). No header with an anonymous key configured: that key. A
  // header that proves nothing is refused, never downgraded to the anonymous key.
  Result<const Key*> authenticate(std::string_view authorization) const;

  // auth:forbidden unless `key` may use `database` (anonymous may use any).
  Status authorize(const Key* key, std::string_view database) const;

  // Whether `key` may send SQL (POST /v1/query, MCP execute_sql): auth:sql-not-allowed for a key with
  // `sql: false`, whose FIX names `callable` (the tools it may call).
  static Status authorize_sql(const Key* key, std::string_view callable);
  // Whether `key` may call the curated tool `tool` on `database` (its tool list and databases).
  Status authorize_tool(const Key* key, std::string_view tool, std::string_view database) const;
  static bool may_call(const Key* key, std::string_view tool, std::string_view database);

 private:
  std::vector<Key> keys_;
  std::optional<std::size_t> anonymous_;  // index into keys_
};

}  // namespace qg::auth
