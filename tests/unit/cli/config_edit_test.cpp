// The entry kinds `caveman enable` adds (issue 24): nested JSON keys, array items (hook
// groups), top-level TOML keys, dotenv lines and whole files — each removed exactly, a
// hand-written one never overwritten.
#include "config_edit.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace caveman::cli {
namespace {

TEST(ConfigEditNested, JsonPathCreatesAndPrunesOnlyWhatItAdded) {
  ConfigEntry e{ConfigFormat::kJson, "provider.openai.options", "baseURL", "\"http://g/v1\""};
  const std::string text = "{\n  \"provider\": {\n    \"x\": 1\n  }\n}\n";
  auto added = add_entry(text, e);
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_NE(added->find("\"baseURL\": \"http://g/v1\""), std::string::npos);
  auto removed = remove_entry(*added, e);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, text);  // openai/options pruned, provider.x kept
  auto again = add_entry(*added, e);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().error_code(), "cave_config_entry_exists");
}

TEST(ConfigEditNested, ArrayItemAppendsAndRemovesOnlyItsItem) {
  ConfigEntry e{ConfigFormat::kJsonItem, "hooks.SessionStart", "x", R"({"hooks":[{"command":"c"}]})"};
  const std::string text = R"({"hooks":{"SessionStart":[{"hooks":[{"command":"mine"}]}]}})";
  auto added = add_entry(text, e);
  ASSERT_TRUE(added.ok());
  auto doc = nlohmann::json::parse(*added);
  ASSERT_EQ(doc["hooks"]["SessionStart"].size(), 2u);
  EXPECT_EQ(doc["hooks"]["SessionStart"][0]["hooks"][0]["command"], "mine");
  auto removed = remove_entry(*added, e);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(nlohmann::json::parse(*removed), nlohmann::json::parse(text));
  auto empty = remove_entry(*add_entry("", e), e);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, "{}\n");  // hooks and SessionStart pruned
  auto edited = remove_entry(R"({"hooks":{"SessionStart":[{"hooks":[{"command":"d"}]}]}})", e);
  ASSERT_FALSE(edited.ok());
  EXPECT_EQ(edited.status().error_code(), "cave_config_entry_changed");
}

TEST(ConfigEditNested, TomlTopLevelKeyGoesFirstAndSeesAHandWrittenOne) {
  ConfigEntry e{ConfigFormat::kTomlKey, "", "model_provider", "\"caveman\""};
  const std::string text = "# mine\nmodel = \"o3\"\n[profiles.x]\nmodel_provider = \"p\"\n";
  auto added = add_entry(text, e);
  ASSERT_TRUE(added.ok()) << "a key inside a table is not the top-level key";
  EXPECT_EQ(*added, "model_provider = \"caveman\"\n" + text);
  EXPECT_EQ(*remove_entry(*added, e), text);
  auto mine = add_entry("model_provider = \"openai\"\n", e);
  ASSERT_FALSE(mine.ok());
  EXPECT_EQ(mine.status().error_code(), "cave_config_entry_exists");
}

TEST(ConfigEditNested, EnvLineAndWholeFile) {
  ConfigEntry env{ConfigFormat::kEnvLine, "", "GOOGLE_GEMINI_BASE_URL", "http://g/w/gemini"};
  auto added = add_entry("FOO=1", env);
  ASSERT_TRUE(added.ok());
  EXPECT_EQ(*added, "FOO=1\nGOOGLE_GEMINI_BASE_URL=http://g/w/gemini\n");
  EXPECT_EQ(*remove_entry(*added, env), "FOO=1\n");
  EXPECT_FALSE(add_entry("export GOOGLE_GEMINI_BASE_URL=x\n", env).ok());
  ConfigEntry file{ConfigFormat::kFile, "", "p.js", "code\n"};
  EXPECT_EQ(*add_entry("", file), "code\n");
  EXPECT_FALSE(add_entry("other\n", file).ok());
  EXPECT_FALSE(remove_entry("code\nmore\n", file).ok());
}

TEST(ConfigEditNested, EntryJsonRoundTrip) {
  ConfigEntry e{ConfigFormat::kEnvLine, "t", "n", "v"};
  auto back = entry_from_json(nlohmann::json::parse(entry_to_json(e).dump()));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->format, e.format);
  EXPECT_EQ(back->value, "v");
  EXPECT_FALSE(entry_from_json(nlohmann::json::parse(R"({"format":"nope"})")).has_value());
}

}  // namespace
}  // namespace caveman::cli
