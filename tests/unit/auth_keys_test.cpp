// Who is calling: Bearer parsing, constant-time comparison of hashes, and the
// per-key database grant with a FIX that names what the key may use.
#include "gateway/auth/keys.hpp"

#include <gtest/gtest.h>

#include <array>

namespace qg::auth {
namespace {

// sha256("secret-token-for-tests") and sha256("other-token-for-tests").
constexpr const char* kAgentHash = "616382bda5dc2703ba7cf580beac6306e38f67fd1144bd06ce86734810569981";
constexpr const char* kOpsHash = "e37c75a6e8016394e01a6e07badeb4aa911b49d31f366575111b02d07fd4a6c7";

KeyRing ring() {
  return KeyRing({config::ApiKey{"agent", kAgentHash, {"demo"}}, config::ApiKey{"ops", kOpsHash, {"demo", "billing"}}});
}

TEST(AuthKeysTest, ConstantTimeEqualComparesEveryByte) {
  const std::array<std::uint8_t, 4> a{1, 2, 3, 4};
  const std::array<std::uint8_t, 4> same{1, 2, 3, 4};
  const std::array<std::uint8_t, 4> first_differs{9, 2, 3, 4};
  const std::array<std::uint8_t, 4> last_differs{1, 2, 3, 9};
  const std::array<std::uint8_t, 3> shorter{1, 2, 3};
  EXPECT_TRUE(constant_time_equal(a, same));
  EXPECT_FALSE(constant_time_equal(a, first_differs));
  EXPECT_FALSE(constant_time_equal(a, last_differs));
  EXPECT_FALSE(constant_time_equal(a, shorter));
  EXPECT_TRUE(constant_time_equal(std::span<const std::uint8_t>(), std::span<const std::uint8_t>()));
}

TEST(AuthKeysTest, BearerTokenSyntax) {
  EXPECT_TRUE(is_bearer_token("abc123"));
  EXPECT_TRUE(is_bearer_token("a-b.c_d~e+f/g=="));
  EXPECT_FALSE(is_bearer_token(""));
  EXPECT_FALSE(is_bearer_token("=="));
  EXPECT_FALSE(is_bearer_token("ab=c"));
  EXPECT_FALSE(is_bearer_token("has space"));
  EXPECT_FALSE(is_bearer_token("quote\""));
}

TEST(AuthKeysTest, WithoutKeysEveryoneIsAnonymousAndMayUseAnyDatabase) {
  const KeyRing none({});
  EXPECT_FALSE(none.enabled());
  auto who = none.authenticate("");
  ASSERT_TRUE(who);
  EXPECT_EQ(*who, nullptr);
  EXPECT_TRUE(none.authorize(*who, "anything"));
}

TEST(AuthKeysTest, TheRightTokenNamesItsKey) {
  const KeyRing keys = ring();
  for (const char* header : {"Bearer secret-token-for-tests", "bearer secret-token-for-tests",
                             "BEARER   secret-token-for-tests  ", "\tBearer\tsecret-token-for-tests"}) {
    auto who = keys.authenticate(header);
    ASSERT_TRUE(who) << header << ": " << who.error().message;
    EXPECT_EQ((*who)->name, "agent") << header;
  }
  auto ops = keys.authenticate("Bearer other-token-for-tests");
  ASSERT_TRUE(ops);
  EXPECT_EQ((*ops)->name, "ops");
}

TEST(AuthKeysTest, NoHeaderIsMissing) {
  auto who = ring().authenticate("");
  ASSERT_FALSE(who);
  EXPECT_EQ(who.error().code, ErrorCode::AuthMissing);
  EXPECT_EQ(http_status(who.error().code), 401);
  EXPECT_NE(who.error().fix.find("Authorization: Bearer"), std::string::npos);
}

TEST(AuthKeysTest, WrongTokensAreInvalidAndNeverEchoed) {
  const KeyRing keys = ring();
  for (const char* header :
       {"Bearer secret-token-for-test", "Bearer SECRET-TOKEN-FOR-TESTS", "Bearer", "Bearer    ",
        "Basic c2VjcmV0LXRva2Vu", "Bearer secret token", "Token secret-token-for-tests", "secret-token-for-tests"}) {
    auto who = keys.authenticate(header);
    ASSERT_FALSE(who) << header;
    EXPECT_EQ(who.error().code, ErrorCode::AuthInvalid) << header;
    EXPECT_EQ(http_status(who.error().code), 401);
    EXPECT_EQ(who.error().message.find("secret"), std::string::npos)
        << "the token is never repeated: " << who.error().message;
    EXPECT_EQ(who.error().message.find("c2VjcmV0"), std::string::npos) << who.error().message;
    EXPECT_EQ(who.error().fix.rfind("FIX:", 0), 0u);
  }
}

// The FIX for a token that matches no key says how tokens are compared; each
// of its claims holds.
TEST(AuthKeysTest, TheWrongTokenFixSaysHowTokensAreComparedAndItIsTrue) {
  const KeyRing keys = ring();
  auto wrong = keys.authenticate("Bearer secret-token-for-test");
  ASSERT_FALSE(wrong);
  const std::string fix = wrong.error().fix;
  EXPECT_EQ(fix.find("no spaces"), std::string::npos) << fix;
  EXPECT_NE(fix.find("case-sensitive"), std::string::npos) << fix;
  EXPECT_NE(fix.find("spaces or tabs around it are ignored"), std::string::npos) << fix;
  // Spaces or tabs around it are ignored...
  EXPECT_TRUE(keys.authenticate("Bearer \t secret-token-for-tests \t"));
  // ...nothing else is: case, quotes, a space inside.
  for (const char* other : {"Bearer Secret-token-for-tests", "Bearer \"secret-token-for-tests\"",
                            "Bearer 'secret-token-for-tests'", "Bearer secret-token -for-tests"})
    EXPECT_FALSE(keys.authenticate(other)) << other;
}

TEST(AuthKeysTest, ForbiddenNamesTheDatabasesTheKeyMayUse) {
  const KeyRing keys = ring();
  auto agent = keys.authenticate("Bearer secret-token-for-tests");
  ASSERT_TRUE(agent);
  EXPECT_TRUE(keys.authorize(*agent, "demo"));
  auto refused = keys.authorize(*agent, "billing");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::AuthForbidden);
  EXPECT_EQ(http_status(refused.error().code), 403);
  EXPECT_NE(refused.error().message.find("'agent'"), std::string::npos);
  EXPECT_NE(refused.error().message.find("'billing'"), std::string::npos);
  EXPECT_NE(refused.error().fix.find("demo"), std::string::npos) << refused.error().fix;

  auto ops = keys.authenticate("Bearer other-token-for-tests");
  ASSERT_TRUE(ops);
  EXPECT_TRUE(keys.authorize(*ops, "billing"));
  auto other = keys.authorize(*ops, "hr");
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().fix.find("demo, billing"), std::string::npos) << other.error().fix;
}

TEST(AuthKeysTest, WithAnAnonymousKeyNoHeaderGetsItsScopeAndABadTokenIsStillRefused) {
  config::ApiKey local{"local", "", {"demo"}};
  local.anonymous = true;
  local.sql = false;
  const KeyRing keys({local, config::ApiKey{"agent", kAgentHash, {"demo", "billing"}}});
  EXPECT_TRUE(keys.enabled());
  for (const char* header : {"", "   "}) {
    auto who = keys.authenticate(header);
    ASSERT_TRUE(who) << who.error().message;
    ASSERT_NE(*who, nullptr);
    EXPECT_EQ((*who)->name, "local");
    EXPECT_TRUE((*who)->anonymous);
    EXPECT_FALSE((*who)->sql) << "the anonymous key's own scope";
    EXPECT_FALSE(keys.authorize(*who, "billing"));
    EXPECT_FALSE(KeyRing::authorize_sql(*who, "some_tool"));
  }
  auto agent = keys.authenticate("Bearer secret-token-for-tests");
  ASSERT_TRUE(agent);
  EXPECT_EQ((*agent)->name, "agent");
  // A token that proves nothing, or a malformed header, is never downgraded to the anonymous scope.
  for (const char* header : {"Bearer wrong-token", "Basic abc", "Bearer"}) {
    auto who = keys.authenticate(header);
    ASSERT_FALSE(who) << header;
    EXPECT_EQ(who.error().code, ErrorCode::AuthInvalid) << header;
  }
  // The anonymous key's (empty) hash is matched by no token: not even one hashing to zeros could pick it.
  const KeyRing only_anonymous({local});
  EXPECT_FALSE(only_anonymous.authenticate("Bearer anything"));
}

}  // namespace
}  // namespace qg::auth
