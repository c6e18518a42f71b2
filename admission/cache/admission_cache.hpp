#pragma once
// A bounded cache of admitted statements: (database, the calling key's policy,
// the exact SQL text, the requested limit, validate_only) -> the statement as
// admission rendered it, with the request's fingerprint. A repeated statement
// skips parse, admission and render; it never changes an answer, because
// what is cached is a pure function of the key (admission reads neither the
// clock nor the data: now() is rendered as now() and evaluated by the engine
// on every run) and of the catalogs and limits, which are fixed for the life
// of the Api that owns the cache (config and schema are read at start-up; a
// new config is a new Api and a new cache). clear() empties it for whoever
// changes either. Refusals are not cached: they are computed again.
//
// Least recently used entries go first when `capacity` entries are held;
// capacity 0 turns the cache off (every lookup misses, nothing is kept).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "admission/pipeline.hpp"

namespace qg {

// The request path's memory of how this statement's last run went: whether
// it ran to its end cheaply (gateway/api/first_slice.hpp says what cheap is),
// so the next run may be tried on the I/O thread. Not admission's: a guess
// (the data, or now(), can change what a statement costs) that is checked by
// a step budget wherever it is used, and never part of an answer. Shared by
// every request that finds the entry; copying copies the current guess.
class RunMemory {
 public:
  RunMemory() = default;
  RunMemory(const RunMemory& other) : cheap_(other.cheap()) {}
  RunMemory& operator=(const RunMemory& other) {
    remember(other.cheap());
    return *this;
  }
  bool cheap() const { return cheap_.load(std::memory_order_relaxed); }
  void remember(bool cheap) const { cheap_.store(cheap, std::memory_order_relaxed); }

 private:
  mutable std::atomic<bool> cheap_{false};  // false until a run shows otherwise
};

// What one admission produced for the request path.
struct CachedAdmission {
  AdmittedStatement statement;
  std::string fingerprint;  // libpg_query's fingerprint of the caller's text: the request's one fingerprint
  RunMemory last_run;       // how its last run went (not part of the admission)
};

// The parts of a request that decide its admission, as one unambiguous string
// (each part length-prefixed, so no two different requests share a key).
struct AdmissionKey {
  std::string_view database;
  std::string_view policy;  // the calling key's policy identity (policy_identity in gateway/api)
  std::string_view sql;     // exactly as sent
  std::optional<std::int64_t> limit;
  bool validate_only = false;
  std::string encode() const;
};

class AdmissionCache {
 public:
  explicit AdmissionCache(std::size_t capacity) : capacity_(capacity) {}
  AdmissionCache(const AdmissionCache&) = delete;
  AdmissionCache& operator=(const AdmissionCache&) = delete;

  // The entry for `key` (and it becomes the most recently used), or null.
  std::shared_ptr<const CachedAdmission> find(const std::string& key);
  // Keeps `value` under `key`, evicting the least recently used beyond capacity.
  void insert(std::string key, std::shared_ptr<const CachedAdmission> value);
  // Forgets everything (the config or a schema changed).
  void clear();

  std::size_t size() const;
  std::size_t capacity() const { return capacity_; }

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const CachedAdmission>>;
  const std::size_t capacity_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;                                                    // front: most recently used
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;  // views into lru_'s keys
};

}  // namespace qg
