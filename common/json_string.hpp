#pragma once
#include <string>
#include <string_view>

namespace qg {

// Appends `s` as a JSON string literal; invalid UTF-8 bytes become U+FFFD so the
// document stays valid whatever a database holds.
void append_json_string(std::string& out, std::string_view s);

// `s` with every invalid UTF-8 byte replaced by U+FFFD (for text a JSON library serialises as it is: an engine's
// message that cut a character in half; outside tester s20d).
std::string valid_utf8(std::string_view s);

}  // namespace qg
