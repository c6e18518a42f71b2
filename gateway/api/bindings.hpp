#pragma once
// Tenant scoping: the values of a statement's `bind:<name>` parameters (row
// filters, admission/rewrite/row_filters.hpp) come from the calling key's
// `bind` in the configuration, never from the request. A key without a value
// a filter needs is refused (auth:missing-binding), never served unfiltered.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "executors/executor.hpp"
#include "gateway/auth/keys.hpp"

namespace qg::gateway {

// The value of one parameter when it is a key binding ("bind:<name>"): the
// key's value, or the refusal naming the missing binding and the table whose
// filter needs it. nullopt: not a key binding (a tool's or write's argument,
// resolved by its caller).
std::optional<Result<exec::Value>> key_binding(std::string_view param, const auth::Key* key,
                                               const catalog::Catalog& catalog);

// Every parameter of a statement that may hold only key bindings (/v1/query):
// their values in `$` order. Any other parameter is a defect (Internal).
Result<std::vector<exec::Value>> key_bindings(const std::vector<std::string>& params, const auth::Key* key,
                                              const catalog::Catalog& catalog);

}  // namespace qg::gateway
