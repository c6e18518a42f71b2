// SHA-256 against the NIST FIPS 180-4 examples and the padding boundaries
// (55/56 and 119/120 bytes need one more block; 63/64 end exactly on one).
#include "gateway/auth/sha256.hpp"

#include <gtest/gtest.h>

#include <string>

namespace qg::auth {
namespace {

std::string hex_of(std::string_view text) {
  return to_hex(sha256(text));
}

TEST(AuthSha256Test, NistShortMessages) {
  EXPECT_EQ(hex_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(
      hex_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopq"
             "rstnopqrstu"),
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(AuthSha256Test, NistOneMillionA) {
  EXPECT_EQ(hex_of(std::string(1'000'000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(AuthSha256Test, PaddingBoundaries) {
  EXPECT_EQ(hex_of(std::string(55, 'x')), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
  EXPECT_EQ(hex_of(std::string(56, 'x')), "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e");
  EXPECT_EQ(hex_of(std::string(63, 'x')), "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2");
  EXPECT_EQ(hex_of(std::string(64, 'x')), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
  EXPECT_EQ(hex_of(std::string(119, 'x')), "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c");
  EXPECT_EQ(hex_of(std::string(120, 'x')), "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98");
}

TEST(AuthSha256Test, HexRoundTripAndRefusals) {
  const Digest d = sha256("abc");
  EXPECT_EQ(digest_from_hex(to_hex(d)), d);
  std::string upper = to_hex(d);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(digest_from_hex(upper), d) << "either case reads";
  EXPECT_FALSE(digest_from_hex(to_hex(d).substr(1)));
  EXPECT_FALSE(digest_from_hex(to_hex(d) + "0"));
  EXPECT_FALSE(digest_from_hex(std::string(63, '0') + "g"));
}

}  // namespace
}  // namespace qg::auth
