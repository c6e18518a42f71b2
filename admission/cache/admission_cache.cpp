#include "admission/cache/admission_cache.hpp"

#include <utility>

namespace qg {
namespace {

void put(std::string& out, std::string_view part) {
  out += std::to_string(part.size());
  out += ':';
  out += part;
}

}  // namespace

std::string AdmissionKey::encode() const {
  std::string out;
  out.reserve(database.size() + policy.size() + sql.size() + 48);
  put(out, database);
  put(out, policy);
  put(out, limit ? std::to_string(*limit) : std::string("-"));
  put(out, validate_only ? "v" : "r");
  put(out, sql);
  return out;
}

std::shared_ptr<const CachedAdmission> AdmissionCache::find(const std::string& key) {
  if (capacity_ == 0) return nullptr;
  std::lock_guard lock(mu_);
  const auto it = index_.find(std::string_view(key));
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);  // iterators and the key's storage stay valid
  return it->second->second;
}

void AdmissionCache::insert(std::string key, std::shared_ptr<const CachedAdmission> value) {
  if (capacity_ == 0 || !value) return;
  std::lock_guard lock(mu_);
  if (const auto it = index_.find(std::string_view(key)); it != index_.end()) {
    it->second->second = std::move(value);  // two workers admitted the same statement: same rendering
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.emplace_front(std::move(key), std::move(value));
  index_.emplace(std::string_view(lru_.front().first), lru_.begin());
  while (lru_.size() > capacity_) {
    index_.erase(std::string_view(lru_.back().first));
    lru_.pop_back();
  }
}

void AdmissionCache::clear() {
  std::lock_guard lock(mu_);
  index_.clear();
  lru_.clear();
}

std::size_t AdmissionCache::size() const {
  std::lock_guard lock(mu_);
  return lru_.size();
}

}  // namespace qg
