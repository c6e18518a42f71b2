#pragma once
// The schema description an agent reads before writing SQL: a preamble with
// the facts that never change between calls (dialect, limits, result shape,
// what `untrusted` means), then the allowlisted tables as dialect DDL with the
// curated comments (cheaper in tokens than JSON), at three detail levels.
#include <string>
#include <vector>

#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "config/config.hpp"

namespace qg::gateway {

// Functions: the preamble and the functions, operators and casts the database
// admits (from the capability table), without tables. Full includes them too.
enum class SchemaDetail { Brief, Detailed, Full, Functions };

struct SchemaRequest {
  SchemaDetail detail = SchemaDetail::Detailed;
  std::vector<std::string> tables;  // only these (empty: all)
  std::string search;               // only tables whose names or comments (or their columns') contain this
  bool spotlight = false;           // the database wraps untrusted text in markers (explained in the preamble)
  const config::HiddenColumns* hidden = nullptr;  // the caller's key's hidden columns (with Column::hidden: omitted)
};

// Reads detail=brief|detailed|full|functions, tables=a,b and search=text; errors name the parameter.
Result<SchemaRequest> parse_schema_request(const std::string& detail, const std::string& tables,
                                           const std::string& search);

// The functions, operators and casts admitted on the dialect, one compact
// section (SQL comments), derived from admission/capability: the list FIXes
// point to ("GET /v1/schema?detail=functions").
std::string admitted_functions_text(Dialect dialect);

std::string describe_schema(const std::string& database_name, const catalog::Catalog& catalog,
                            const config::Limits& limits, const SchemaRequest& request = {});

}  // namespace qg::gateway
