#include <gtest/gtest.h>

#include "caveman/pixel.h"

namespace caveman::pixel {
namespace {

using List = std::vector<std::string>;

TEST(PixelModels, AllowlistFromEnv) {
  EXPECT_EQ(allowlist_from_env(std::nullopt), (List{"claude-fable-5", "gpt-5.6"}));
  EXPECT_EQ(allowlist_from_env("  "), (List{"claude-fable-5", "gpt-5.6"}));
  for (const char* off : {"0", "false", "no", "off", "none", "OFF"}) {
    EXPECT_TRUE(allowlist_from_env(off).empty()) << off;
  }
  EXPECT_EQ(allowlist_from_env(" claude-x , ,gpt-9 "), (List{"claude-x", "gpt-9"}));
}

TEST(PixelModels, MatchingRules) {
  List allow = allowlist_from_env(std::nullopt);
  EXPECT_TRUE(model_allowed("claude-fable-5", allow));
  EXPECT_TRUE(model_allowed("claude-fable-5-20261101", allow));       // base + '-'
  EXPECT_TRUE(model_allowed("anthropic/claude-fable-5", allow));      // '/' suffix
  EXPECT_TRUE(model_allowed("us.anthropic.claude-fable-5-v1:0", allow)); // '.' suffix
  EXPECT_TRUE(model_allowed("claude-fable-5@20261101", allow));       // '@' version
  EXPECT_TRUE(model_allowed("claude-fable-5[1m]", allow));            // variant tag
  EXPECT_TRUE(model_allowed("gpt-5.6", allow));
  EXPECT_TRUE(model_allowed("GPT-5.6-mini", allow));
  EXPECT_TRUE(model_allowed("openai/gpt-5.6", allow));
  EXPECT_FALSE(model_allowed("claude-fable-50", allow));              // not a '-' boundary
  EXPECT_FALSE(model_allowed("gpt-5.60", allow));
  EXPECT_FALSE(model_allowed("claude-3-5-sonnet", allow));
  EXPECT_FALSE(model_allowed("", allow));
  EXPECT_FALSE(model_allowed("claude-fable-5", {}));                  // empty list: nothing
}

TEST(PixelModels, DensityFromEnv) {
  EXPECT_EQ(density_from_env(std::nullopt), Density::kBalanced);
  EXPECT_EQ(density_from_env("max"), Density::kMax);
  EXPECT_EQ(density_from_env("Balanced"), Density::kBalanced);
  EXPECT_EQ(density_from_env("off"), Density::kConservative);
  EXPECT_EQ(density_from_env("ultra"), Density::kConservative);
  EXPECT_EQ(parse_density("max"), Density::kMax);
  EXPECT_FALSE(parse_density("Max").has_value());
}

TEST(PixelModels, OnlyDensityCapableReadersGetMore) {
  EXPECT_EQ(reader_for("claude-fable-5", Density::kMax).tier, Tier::kHiRes);
  EXPECT_EQ(reader_for("claude-fable-5", Density::kMax).density, Density::kMax);
  EXPECT_EQ(reader_for("claude-mythos-5-x", Density::kBalanced).tier, Tier::kHiRes);
  EXPECT_EQ(reader_for("claude-sonnet-5-2", Density::kBalanced).tier, Tier::kHiRes);
  EXPECT_EQ(reader_for("claude-opus-4-8", Density::kMax).tier, Tier::kHiRes);
  EXPECT_EQ(reader_for("claude-opus-4-10", Density::kMax).tier, Tier::kHiRes);
  EXPECT_EQ(reader_for("claude-opus-5", Density::kMax).tier, Tier::kHiRes);
  // A date is not a minor version: claude-opus-4-20250514 is Opus 4.0.
  EXPECT_EQ(reader_for("claude-opus-4-20250514", Density::kMax).density, Density::kConservative);
  EXPECT_EQ(reader_for("claude-opus-4-7", Density::kMax).density, Density::kConservative);
  Reader gpt = reader_for("gpt-5.6", Density::kMax);
  EXPECT_EQ(gpt.tier, Tier::kStandard);
  EXPECT_EQ(gpt.density, Density::kMax);
  Reader other = reader_for("claude-3-5-sonnet", Density::kMax);
  EXPECT_EQ(other.tier, Tier::kStandard);
  EXPECT_EQ(other.density, Density::kConservative);
  EXPECT_EQ(reader_for("", Density::kBalanced).density, Density::kConservative);
}

}  // namespace
}  // namespace caveman::pixel
