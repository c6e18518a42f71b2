#pragma once
// Levenshtein distance ignoring ASCII case: the one measure behind every
// "did you mean" in querygate (config keys, tables, columns, functions).
#include <cstddef>
#include <string_view>

namespace qg {

std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace qg
