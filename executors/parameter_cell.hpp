#pragma once
// A cell an engine returned, read as a value of a configured parameter's type
// (tools/parameters.hpp): the live lists of `values_from` parameters, for
// curated tools (gateway/api/curated_tools.cpp) and write tools (writes/) alike.
#include <optional>

#include "executors/executor.hpp"
#include "tools/parameters.hpp"

namespace qg::exec {

// nullopt for NULL and for a cell that is not one (it can never match an argument).
// Dates and timestamps are read into the canonical form arguments are compared in.
std::optional<tools::Value> parameter_value(tools::ParamType type, const Value& cell);

}  // namespace qg::exec
