#pragma once
#include <string>
#include <string_view>

namespace qg {

// Appends `s` as a JSON string literal; invalid UTF-8 bytes become U+FFFD so the
// document stays valid whatever a database holds.
void append_json_string(std::string& out, std::string_view s);

}  // namespace qg
