#pragma once
// Admission of a caller's statement through the admission cache
// (admission/cache/admission_cache.hpp): the key the cache is looked up by,
// and the one fingerprint of the request, computed on a miss only.
#include <memory>
#include <string>

#include "admission/cache/admission_cache.hpp"
#include "admission/catalog/catalog.hpp"
#include "config/config.hpp"
#include "gateway/api/query_request.hpp"
#include "gateway/auth/keys.hpp"

namespace qg::gateway {

// Everything about a key that admission reads or that could ever shape a
// rendering: its name, whether it may send SQL, its tool list, its hidden
// columns and its row-filter bindings. "-" for anonymous callers.
std::string policy_identity(const auth::Key* key);

struct CacheOutcome {
  bool looked_up = false;  // the cache is on (limits.admission_cache_entries > 0)
  bool hit = false;
  std::string fingerprint;  // set on every path, refusals included (for the log)
};

// The admitted statement for `request` from `key` on `database` when the
// cache holds it, else null; admits nothing (cheap: for the I/O thread).
std::shared_ptr<const CachedAdmission> find_admitted(AdmissionCache* cache, const QueryRequest& request,
                                                     const auth::Key* key, const std::string& database);

// The admitted statement for `request` from `key` on `database`: from the
// cache, or admitted now (and kept when admitted). `cache` null: no cache.
Result<std::shared_ptr<const CachedAdmission>> admit_cached(AdmissionCache* cache, const QueryRequest& request,
                                                            const auth::Key* key, const std::string& database,
                                                            const catalog::Catalog& catalog,
                                                            const config::Limits& limits, CacheOutcome& outcome);

}  // namespace qg::gateway
