#include "gateway/auth/keys.hpp"

#include <algorithm>

namespace qg::auth {
namespace {

constexpr std::string_view kHowToSend =
    "FIX: send the header 'Authorization: Bearer <token>' with the token of an "
    "API key configured on this gateway (ask its operator for one).";

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

}  // namespace

bool constant_time_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept {
  if (a.size() != b.size()) return false;  // lengths are public here: both are SHA-256 digests
  // Accumulate every difference instead of stopping at the first; volatile
  // keeps the compiler from turning the loop back into an early exit.
  volatile std::uint8_t diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff = static_cast<std::uint8_t>(diff | (a[i] ^ b[i]));
  return diff == 0;
}

bool is_bearer_token(std::string_view token) noexcept {
  std::size_t i = 0;
  const auto token_char = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~' || c == '+' || c == '/';
  };
  while (i < token.size() && token_char(token[i])) ++i;
  if (i == 0) return false;
  while (i < token.size() && token[i] == '=') ++i;
  return i == token.size();
}

KeyRing::KeyRing(const std::vector<config::ApiKey>& keys) {
  for (const auto& k : keys) {
    const auto hash = digest_from_hex(k.sha256);
    // The config reader accepts only 64 hex digits, so this cannot fail (the anonymous key has no hash).
    keys_.push_back(
        Key{k.name, hash.value_or(Digest{}), k.databases, k.hidden_columns, k.bind, k.sql, k.tools, k.anonymous});
    if (k.anonymous) anonymous_ = keys_.size() - 1;
  }
}

Result<const Key*> KeyRing::authenticate(std::string_view authorization) const {
  if (keys_.empty()) return static_cast<const Key*>(nullptr);
  const std::string_view value = trim(authorization);
  if (value.empty() && anonymous_) return &keys_[*anonymous_];
  if (value.empty())
    return make_error(ErrorCode::AuthMissing, "this gateway requires an API key and the request carries none",
                      std::string(kHowToSend));
  const std::size_t space = value.find_first_of(" \t");
  const std::string_view scheme = value.substr(0, space);
  if (!iequals(scheme, "Bearer"))
    // Nothing of the header is repeated: without a scheme, its first word may be the credential.
    return make_error(ErrorCode::AuthInvalid,
                      "the Authorization header does not start with 'Bearer '; querygate accepts only Bearer tokens",
                      std::string(kHowToSend));
  const std::string_view token = space == std::string_view::npos ? std::string_view() : trim(value.substr(space));
  if (!is_bearer_token(token))
    return make_error(ErrorCode::AuthInvalid,
                      token.empty() ? "the Authorization header says Bearer but holds no token"
                                    : "the Bearer token holds characters no token has (letters, digits, - . _ ~ + / "
                                      "and trailing = only)",
                      std::string(kHowToSend));
  // Every key is compared, match or not, so the time taken does not say which
  // key (if any) matched. Comparing hashes, not tokens, also means a timing
  // difference could only reveal bytes of a hash, which do not help forge a token.
  const Digest presented = sha256(token);
  const Key* found = nullptr;
  for (const Key& key : keys_)
    if (constant_time_equal(presented, key.hash) && !key.anonymous) found = &key;
  if (found == nullptr)
    return make_error(ErrorCode::AuthInvalid, "the Bearer token matches no API key configured on this gateway",
                      "FIX: check the token: it is compared exactly, case-sensitive (spaces or tabs around it are "
                      "ignored, nothing else is); if it was rotated, ask the operator for the new one.");
  return found;
}

Status KeyRing::authorize(const Key* key, std::string_view database) const {
  if (key == nullptr) return {};
  if (std::find(key->databases.begin(), key->databases.end(), database) != key->databases.end()) return {};
  std::string allowed;
  for (const auto& name : key->databases) allowed += (allowed.empty() ? "" : ", ") + name;
  return make_error(ErrorCode::AuthForbidden,
                    "API key '" + key->name + "' may not use database '" + std::string(database) + "'",
                    "FIX: use one of the databases key '" + key->name + "' may use: " + allowed +
                        "; or ask the operator to grant it '" + std::string(database) + "'.");
}

Status KeyRing::authorize_sql(const Key* key, std::string_view callable) {
  if (key == nullptr || key->sql) return {};
  return make_error(ErrorCode::AuthSqlNotAllowed,
                    "API key '" + key->name + "' may call curated tools only, not send SQL",
                    callable.empty() ? "FIX: this key may call no tool either; ask the operator for a key that may."
                                     : "FIX: call one of the tools this key may use instead (POST /v1/tools/{name}, "
                                       "or the MCP tool of the same name): " +
                                           std::string(callable) + ". GET /v1/tools lists their parameters.");
}

bool KeyRing::may_call(const Key* key, std::string_view tool, std::string_view database) {
  if (key == nullptr) return true;
  if (std::find(key->databases.begin(), key->databases.end(), database) == key->databases.end()) return false;
  return !key->tools || std::find(key->tools->begin(), key->tools->end(), tool) != key->tools->end();
}

Status KeyRing::authorize_tool(const Key* key, std::string_view tool, std::string_view database) const {
  if (key == nullptr) return {};
  if (!key->tools || std::find(key->tools->begin(), key->tools->end(), tool) != key->tools->end())
    return authorize(key, database);
  std::string allowed;
  for (const auto& name : *key->tools) allowed += (allowed.empty() ? "" : ", ") + name;
  return make_error(
      ErrorCode::AuthForbidden, "API key '" + key->name + "' may not call tool '" + std::string(tool) + "'",
      allowed.empty() ? "FIX: this key may call no tool; ask the operator to grant it '" + std::string(tool) + "'."
                      : "FIX: call one of the tools key '" + key->name + "' may use: " + allowed +
                            "; or ask the operator to grant it '" + std::string(tool) + "'.");
}

}  // namespace qg::auth
