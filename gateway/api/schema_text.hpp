#pragma once
// The schema description an agent reads before writing SQL: dialect DDL with
// the curated comments (cheaper in tokens than JSON). Detail levels come later.
#include <string>

#include "admission/catalog/catalog.hpp"
#include "config/config.hpp"

namespace qg::gateway {

std::string describe_schema(const std::string& database_name, const catalog::Catalog& catalog,
                            const config::Limits& limits);

}  // namespace qg::gateway
