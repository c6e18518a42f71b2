#pragma once
// The OpenAPI 3.1 document served at GET /openapi.json, which agent frameworks
// import as tools. Paths and operations come from the route list (routes.hpp),
// the error `code` enum and the documented statuses from the error-code list
// (common/error_code.hpp), so the document cannot describe a route or code the
// server does not have. The configuration adds what a caller must respect on
// this instance: database names, row and time limits, whether a key is needed.
#include <string>

#include <boost/json/object.hpp>

#include "config/config.hpp"

namespace qg::gateway {

boost::json::object openapi_document(const config::Config& config);

// The document as served: compact JSON and a newline.
std::string openapi_json(const config::Config& config);

}  // namespace qg::gateway
