#pragma once
// SHA-256 (FIPS 180-4), written here so that hashing API tokens needs no
// crypto library. Used for tokens only: their hashes are what the config holds.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace qg::auth {

using Digest = std::array<std::uint8_t, 32>;

Digest sha256(std::string_view data);

std::string to_hex(const Digest& digest);  // 64 lower-case hex digits
// 64 hex digits (either case) → the digest; anything else → nullopt.
std::optional<Digest> digest_from_hex(std::string_view hex);

}  // namespace qg::auth
