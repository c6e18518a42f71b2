// The `keys:` section and `shutdown_grace_ms` of the configuration: hashes
// only (never a token, never echoed), names and databases checked at load.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "config/config.hpp"

namespace qg::config {
namespace {

constexpr std::string_view kDatabases = R"(
databases:
  demo: { backend: sqlite, path: demo.db }
  billing: { backend: sqlite, path: billing.db }
)";
constexpr std::string_view kHash = "616382bda5dc2703ba7cf580beac6306e38f67fd1144bd06ce86734810569981";

Result<Config> parse(const std::string& extra) {
  return parse_config(std::string(kDatabases) + extra, "/srv/querygate");
}

std::string message_of(const Result<Config>& r) {
  return r ? std::string("(parsed)") : r.error().message;
}

TEST(AuthConfigTest, NoKeysByDefaultAndTenSecondsOfGrace) {
  auto config = parse("");
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_TRUE(config->keys.empty());
  EXPECT_EQ(config->shutdown_grace_ms, 10000);
  EXPECT_EQ(Config{}.shutdown_grace_ms, 10000) << "header default and key table agree";
}

TEST(AuthConfigTest, KeysAreReadInFileOrderWithLowerCaseHashes) {
  std::string upper(kHash);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto config = parse("keys:\n  - name: agent\n    sha256: " + upper +
                      "\n    databases: [demo]\n"
                      "  - { name: ops-team, sha256: " +
                      std::string(64, 'a') +
                      ", databases: [demo, billing] }\n"
                      "shutdown_grace_ms: 2500\n");
  ASSERT_TRUE(config) << config.error().message;
  ASSERT_EQ(config->keys.size(), 2u);
  EXPECT_EQ(config->keys[0].name, "agent");
  EXPECT_EQ(config->keys[0].sha256, kHash);
  EXPECT_EQ(config->keys[0].databases, std::vector<std::string>{"demo"});
  EXPECT_EQ(config->keys[1].name, "ops-team");
  EXPECT_EQ(config->keys[1].databases, (std::vector<std::string>{"demo", "billing"}));
  EXPECT_EQ(config->shutdown_grace_ms, 2500);
}

TEST(AuthConfigTest, APastedTokenIsRefusedWithoutBeingRepeated) {
  auto config = parse("keys:\n  - { name: agent, sha256: my-secret-token-123, databases: [demo] }\n");
  ASSERT_FALSE(config);
  EXPECT_NE(message_of(config).find("keys[0].sha256"), std::string::npos) << message_of(config);
  EXPECT_NE(message_of(config).find("64 hex digits"), std::string::npos);
  EXPECT_EQ(message_of(config).find("my-secret"), std::string::npos) << "never echo what may be a token";
  EXPECT_NE(config.error().fix.find("hash-key"), std::string::npos);
}

TEST(AuthConfigTest, EveryFieldIsRequired) {
  const std::string h(kHash);
  for (const auto& [item, missing] :
       std::vector<std::pair<std::string, std::string>>{{"{ sha256: " + h + ", databases: [demo] }", "keys[0].name"},
                                                        {"{ name: a, databases: [demo] }", "keys[0].sha256"},
                                                        {"{ name: a, sha256: " + h + " }", "keys[0].databases"}}) {
    auto config = parse("keys:\n  - " + item + "\n");
    ASSERT_FALSE(config) << item;
    EXPECT_NE(message_of(config).find(missing), std::string::npos) << message_of(config);
  }
}

TEST(AuthConfigTest, UnknownFieldsAndShapesAreNamed) {
  auto typo = parse("keys:\n  - { name: a, sha256: " + std::string(kHash) + ", databases: [demo], databse: x }\n");
  ASSERT_FALSE(typo);
  EXPECT_NE(message_of(typo).find("keys[0].databse"), std::string::npos) << message_of(typo);
  auto mapping = parse("keys:\n  agent: { sha256: " + std::string(kHash) + " }\n");
  ASSERT_FALSE(mapping);
  EXPECT_NE(message_of(mapping).find("'keys' must be a list"), std::string::npos) << message_of(mapping);
  auto empty_list = parse("keys:\n  - { name: a, sha256: " + std::string(kHash) + ", databases: [] }\n");
  ASSERT_FALSE(empty_list);
  EXPECT_NE(message_of(empty_list).find("keys[0].databases"), std::string::npos) << message_of(empty_list);
  auto bad_name = parse("keys:\n  - { name: 'a b', sha256: " + std::string(kHash) + ", databases: [demo] }\n");
  ASSERT_FALSE(bad_name);
  EXPECT_NE(message_of(bad_name).find("keys[0].name"), std::string::npos) << message_of(bad_name);
}

TEST(AuthConfigTest, DatabasesMustExistWithASuggestion) {
  auto config = parse("keys:\n  - { name: a, sha256: " + std::string(kHash) + ", databases: [demo, biling] }\n");
  ASSERT_FALSE(config);
  EXPECT_NE(message_of(config).find("'biling'"), std::string::npos) << message_of(config);
  EXPECT_NE(message_of(config).find("did you mean 'billing'"), std::string::npos) << message_of(config);
  auto repeated = parse("keys:\n  - { name: a, sha256: " + std::string(kHash) + ", databases: [demo, demo] }\n");
  ASSERT_FALSE(repeated);
  EXPECT_NE(message_of(repeated).find("repeats database 'demo'"), std::string::npos) << message_of(repeated);
}

TEST(AuthConfigTest, NamesAndHashesAreUnique) {
  const std::string h(kHash);
  auto names = parse("keys:\n  - { name: a, sha256: " + h + ", databases: [demo] }\n  - { name: a, sha256: " +
                     std::string(64, 'b') + ", databases: [demo] }\n");
  ASSERT_FALSE(names);
  EXPECT_NE(message_of(names).find("repeats the key name 'a'"), std::string::npos) << message_of(names);
  auto hashes = parse("keys:\n  - { name: a, sha256: " + h + ", databases: [demo] }\n  - { name: b, sha256: " + h +
                      ", databases: [billing] }\n");
  ASSERT_FALSE(hashes);
  EXPECT_NE(message_of(hashes).find("same hash as key 'a'"), std::string::npos) << message_of(hashes);
}

TEST(AuthConfigTest, GraceIsRangeChecked) {
  auto config = parse("shutdown_grace_ms: -1\n");
  ASSERT_FALSE(config);
  EXPECT_NE(message_of(config).find("shutdown_grace_ms"), std::string::npos) << message_of(config);
}

TEST(AuthConfigTest, OneAnonymousKeyWithoutAHashGivesRequestsWithoutATokenItsScope) {
  auto config = parse(
      "keys:\n  - { name: local, anonymous: true, databases: [demo], sql: false }\n"
      "  - { name: agent, sha256: " +
      std::string(kHash) + ", databases: [demo, billing] }\n");
  ASSERT_TRUE(config) << config.error().message;
  ASSERT_NE(config->anonymous_key(), nullptr);
  EXPECT_EQ(config->anonymous_key()->name, "local");
  EXPECT_TRUE(config->anonymous_key()->sha256.empty());
  EXPECT_FALSE(config->anonymous_key()->sql);
  EXPECT_FALSE(config->keys[1].anonymous);
  EXPECT_TRUE(config->anonymous_allowed());
  auto tokens_only = parse("keys:\n  - { name: agent, sha256: " + std::string(kHash) + ", databases: [demo] }\n");
  ASSERT_TRUE(tokens_only);
  EXPECT_EQ(tokens_only->anonymous_key(), nullptr);
  EXPECT_FALSE(tokens_only->anonymous_allowed());
  EXPECT_TRUE(parse("")->anonymous_allowed()) << "no keys at all: anonymous, as before";
}

TEST(AuthConfigTest, AnAnonymousKeyHasNoHashAndThereIsAtMostOne) {
  auto hashed =
      parse("keys:\n  - { name: local, anonymous: true, sha256: " + std::string(kHash) + ", databases: [demo] }\n");
  ASSERT_FALSE(hashed);
  EXPECT_NE(message_of(hashed).find("'keys[0]' is anonymous: true and has a sha256"), std::string::npos)
      << message_of(hashed);
  auto two = parse(
      "keys:\n  - { name: a, anonymous: true, databases: [demo] }\n  - { name: b, anonymous: true, databases: "
      "[billing] }\n");
  ASSERT_FALSE(two);
  EXPECT_NE(message_of(two).find("second anonymous key (after 'a')"), std::string::npos) << message_of(two);
  auto neither = parse("keys:\n  - { name: a, anonymous: false, databases: [demo] }\n");
  ASSERT_FALSE(neither);
  EXPECT_NE(message_of(neither).find("'keys[0].sha256' is required"), std::string::npos) << message_of(neither);
  EXPECT_NE(neither.error().fix.find("anonymous: true"), std::string::npos) << neither.error().fix;
  auto not_bool = parse("keys:\n  - { name: a, anonymous: yes-please, databases: [demo] }\n");
  EXPECT_FALSE(not_bool);
}

}  // namespace
}  // namespace qg::config
