#include "compress/factor/config_sections.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "caveman/tokens.h"
#include "compress/compressors.h"
#include "compress/factor/expand.h"
#include "compress/factor/line_blocks.h"
#include "text/lines.h"

namespace caveman::compress::factor {
namespace {

std::size_t length_at(const std::string& text, std::size_t i) {
  std::vector<std::string_view> lines = text::split_all(text);
  return section_length(lines, i);
}

TEST(ConfigSectionsTest, ATableHeaderRunsToTheNextHeader) {
  std::string toml = "[a]\nx = 1\n# note\n\n[[b]]\ny = 2\n[c \"d\"]\n";
  EXPECT_EQ(length_at(toml, 0), 4u);
  EXPECT_EQ(length_at(toml, 4), 2u);
  EXPECT_EQ(length_at(toml, 6), 2u);  // up to the end: the empty last line belongs to it
  EXPECT_EQ(length_at(toml, 1), 0u);
}

TEST(ConfigSectionsTest, AYamlListItemRunsToTheNextLineNoDeeperThanItsDash) {
  std::string yaml = "steps:\n  - name: a\n    run: x\n\n  - name: b\n    with:\n      k: v\nnext: 1\n";
  EXPECT_EQ(length_at(yaml, 1), 3u);
  EXPECT_EQ(length_at(yaml, 4), 3u);
  EXPECT_EQ(length_at(yaml, 0), 0u);
  EXPECT_EQ(length_at("- \n", 0), 0u);
}

// `n` TOML sections of one shape, as in a Rust channel manifest.
std::string manifest(std::size_t n, std::mt19937& rng) {
  static const char* kTargets[] = {"aarch64-apple-darwin", "x86_64-unknown-linux-gnu",
                                   "i686-pc-windows-msvc", "riscv64gc-unknown-linux-gnu"};
  std::string s = "manifest-version = \"2\"\n\n";
  for (std::size_t i = 0; i < n; ++i) {
    std::string t = std::string(kTargets[i % 4]) + std::to_string(i);
    std::string hash;
    for (int k = 0; k < 16; ++k) hash += "0123456789abcdef"[rng() % 16];
    s += "[pkg.cargo.target." + t + "]\navailable = true\nurl = \"https://static.rust-lang.org/dist/cargo-" +
         t + ".tar.gz\"\nhash = \"" + hash + "\"\nxz_url = \"https://static.rust-lang.org/dist/cargo-" + t +
         ".tar.xz\"\nxz_hash = \"" + hash + "0\"\ncomponents = []\n\n";
  }
  return s;
}

TEST(ConfigSectionsTest, DeepNestingIsScannedOnlyAsFarAsASectionIsTried) {
  std::string yaml;
  for (int i = 0; i < 5000; ++i) yaml += std::string(static_cast<std::size_t>(i % 200), ' ') + "- k: v\n";
  EXPECT_EQ(length_at(yaml, 0), 65u);  // stopped past the limit: not a section to try
  std::optional<std::string> view = factor_text(yaml, {}, true);
  if (view) {
    EXPECT_EQ(expand_blocks(*view), yaml);
  }
}

TEST(ConfigSectionsTest, RepeatedSectionsBecomeOneTable) {
  std::mt19937 rng(1);
  std::string input = manifest(12, rng);
  std::optional<std::string> view = factor_text(input, {}, true);
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(expand_blocks(*view), input);
  EXPECT_NE(view->find("[12 records of 8 lines \"[pkg.cargo.target.{1}]\" / \"available = true\" / "
                       "\"url = \"https://static.rust-lang.org/dist/cargo-{1}.tar.gz\"\" / \"hash = {2}\" / "),
            std::string::npos)
      << *view;
  EXPECT_EQ(factor_text(*view, {}, true), std::nullopt) << "a view is factored again";
  EXPECT_EQ(factor_text(input, {}, true), view) << "not deterministic";
  // Without sections, no block spans a whole section.
  std::optional<std::string> lines_only = factor_text(input);
  EXPECT_TRUE(!lines_only || lines_only->find("records of 8 lines") == std::string::npos);
}

TEST(ConfigSectionsTest, TheConfigViewIsCheaperAndLossless) {
  std::mt19937 rng(2);
  std::string input = manifest(30, rng);
  auto c = make_factored(make_declining_compressor("config"), tokens::default_counter(),
                         FactorViews{.sections = true});
  std::optional<CompressorOutput> out = c->compress(input, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_TRUE(out->lossless_to_model);
  EXPECT_EQ(expand_blocks(out->bytes), input);
  EXPECT_LT(tokens::default_counter().count(out->bytes), tokens::default_counter().count(input) / 2);
  EXPECT_EQ(c->compress(out->bytes, ""), std::nullopt);
}

TEST(ConfigSectionsTest, GeneratedConfigsRoundTripExactly) {
  std::mt19937 rng(2026);
  const char* keys[] = {"name", "url", "os", "python-version", "run", "uses"};
  for (int round = 0; round < 200; ++round) {
    std::string input;
    const bool yaml = rng() % 2;
    for (int s = 0, n = 2 + static_cast<int>(rng() % 12); s < n; ++s) {
      const int width = 3 + static_cast<int>(rng() % 6);
      input += yaml ? "  - " : "[section." + std::to_string(rng() % 5) + "]\n";
      for (int k = 0; k < width; ++k) {
        input += std::string(yaml && k > 0 ? "    " : "") + keys[(k + rng() % 2) % 6] +
                 (yaml ? ": " : " = ") + std::to_string(rng() % 1000) + (rng() % 7 ? "" : " x") + "\n";
      }
      if (rng() % 3) input += "\n";
    }
    std::optional<std::string> view = factor_text(input, {}, true);
    if (!view) continue;
    EXPECT_EQ(expand_blocks(*view), input);
    EXPECT_EQ(factor_text(*view, {}, true), std::nullopt);
  }
}

}  // namespace
}  // namespace caveman::compress::factor
