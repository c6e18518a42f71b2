#pragma once
// Unguessable identifiers (spotlight markers, MCP session ids): `bytes` bytes
// of the OS's entropy (getrandom; std::random_device where that fails), as
// lower-case hex. One place, so every such identifier has the same strength.
#include <cstddef>
#include <string>

namespace qg {

std::string random_hex(std::size_t bytes);

}  // namespace qg
