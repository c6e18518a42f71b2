#include "gateway/api/cached_admission.hpp"

#include <charconv>
#include <type_traits>
#include <variant>

#include "admission/parse/parser.hpp"

namespace qg::gateway {
namespace {

void put(std::string& out, std::string_view part) {
  out += std::to_string(part.size());
  out += ':';
  out += part;
}

std::string bind_text(const config::BindValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>)
          return "s" + x;
        else if constexpr (std::is_same_v<T, bool>)
          return x ? "btrue" : "bfalse";
        else if constexpr (std::is_same_v<T, std::int64_t>)
          return "i" + std::to_string(x);
        else if constexpr (std::is_same_v<T, double>) {
          char buf[64];
          auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
          return "d" + std::string(buf, ec == std::errc() ? end : buf);
        } else
          static_assert(sizeof(T) == 0, "bind_text: every bind value kind needs its own branch");
      },
      v);
}

}  // namespace

std::string policy_identity(const auth::Key* key) {
  if (key == nullptr) return "-";
  std::string out;
  put(out, key->name);
  put(out, key->sql ? "sql" : "tools-only");
  if (key->tools) {
    put(out, "tools:" + std::to_string(key->tools->size()));
    for (const auto& t : *key->tools) put(out, t);
  }
  put(out, "hidden:" + std::to_string(key->hidden_columns.tables.size()));
  for (const auto& [table, columns] : key->hidden_columns.tables) {
    put(out, table);
    put(out, std::to_string(columns.size()));
    for (const auto& c : columns) put(out, c);
  }
  put(out, "bind:" + std::to_string(key->bind.size()));
  for (const auto& [name, value] : key->bind) {
    put(out, name);
    put(out, bind_text(value));
  }
  return out;
}

namespace {

std::string cache_key(const QueryRequest& request, const auth::Key* key, const std::string& database) {
  const std::string policy = policy_identity(key);
  return AdmissionKey{.database = database,
                      .policy = policy,
                      .sql = request.sql,
                      .limit = request.limit,
                      .validate_only = request.validate_only}
      .encode();
}

}  // namespace

std::shared_ptr<const CachedAdmission> find_admitted(AdmissionCache* cache, const QueryRequest& request,
                                                     const auth::Key* key, const std::string& database) {
  if (cache == nullptr || cache->capacity() == 0) return nullptr;
  return cache->find(cache_key(request, key, database));
}

Result<std::shared_ptr<const CachedAdmission>> admit_cached(AdmissionCache* cache, const QueryRequest& request,
                                                            const auth::Key* key, const std::string& database,
                                                            const catalog::Catalog& catalog,
                                                            const config::Limits& limits, CacheOutcome& outcome) {
  std::string key_text;
  if (cache != nullptr && cache->capacity() > 0) {
    outcome.looked_up = true;
    key_text = cache_key(request, key, database);
    if (auto found = cache->find(key_text)) {
      outcome.hit = true;
      outcome.fingerprint = found->fingerprint;
      return found;
    }
  }
  outcome.fingerprint = parse::fingerprint(request.sql);
  auto admitted =
      admit_statement(request.sql, catalog, limits, request.limit, key != nullptr ? &key->hidden_columns : nullptr);
  if (!admitted) return std::move(admitted).error();
  auto entry = std::make_shared<const CachedAdmission>(
      CachedAdmission{.statement = std::move(admitted).value(), .fingerprint = outcome.fingerprint, .last_run = {}});
  if (outcome.looked_up) cache->insert(std::move(key_text), entry);
  return entry;
}

}  // namespace qg::gateway
