// Issue 36: nested data read as a file — innermost blocks hidden behind markers that state
// their lines (docs/formats.md#indented-blocks).
#include "compress/common/indent_blocks.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman::compress {
namespace {

// A lockfile-like document: `n` packages of 8 interior lines each under "packages".
std::string lockfile(int n) {
  std::string s = "{\n  \"name\": \"demo\",\n  \"packages\": {\n";
  for (int i = 0; i < n; ++i) {
    std::string k = std::to_string(i);
    s +=
        "    \"node_modules/pkg" + k + "\": {\n      \"version\": \"1." + k + ".0\",\n" +
        "      \"resolved\": \"https://registry.example/pkg" + k + "\",\n" +
        "      \"integrity\": \"sha512-" + k + "\",\n      \"license\": \"MIT\",\n" +
        "      \"engines\": {\n        \"node\": \">=18\"\n      },\n      \"dev\": true\n    },\n";
  }
  return s + "  }\n}\n";
}

TEST(IndentBlocksTest, InnermostBlocksBecomeOneLineThatStatesThem) {
  std::optional<std::string> view = elide_indented_blocks(lockfile(3), "");
  ASSERT_TRUE(view);
  // pkg0: header on line 4, interior 5–12 (the `engines` block inside is too small to stand
  // alone), `},` on line 13.
  EXPECT_EQ(
      view->rfind("{\n  \"name\": \"demo\",\n  \"packages\": {\n    \"node_modules/pkg0\": {\n"
                  "      \xE2\x80\xA6 lines 5\xE2\x80\x93"
                  "12 elided (caveman)\n    },\n",
                  0),
      0u)
      << *view;
  // Every line of the view but the markers is a line of the input.
  std::string in = lockfile(3);
  std::size_t start = 0;
  for (std::size_t nl; (nl = view->find('\n', start)) != std::string::npos; start = nl + 1) {
    std::string line = view->substr(start, nl - start);
    if (line.find("(caveman)") == std::string::npos) {
      EXPECT_NE(in.find(line + "\n"), std::string::npos) << line;
    }
  }
}

TEST(IndentBlocksTest, AQueryWordThatNamesFewBlocksKeepsThem) {
  std::optional<std::string> view = elide_indented_blocks(lockfile(8), "which version is pkg5 at?");
  ASSERT_TRUE(view);
  EXPECT_NE(view->find("\"version\": \"1.5.0\""), std::string::npos) << *view;  // pkg5: kept
  EXPECT_EQ(view->find("\"version\": \"1.4.0\""), std::string::npos)
      << *view;  // "version" is everywhere
}

// A whole prompt as the query: its common words (in every block, or in many) keep nothing more.
TEST(IndentBlocksTest, APromptsCommonWordsKeepAtMostAQuarter) {
  std::string q =
      "Read the lockfile: which version of pkg5 is resolved, its license and engines? "
      "pkg1 pkg2 pkg3 are dev only.";
  std::optional<std::string> view = elide_indented_blocks(lockfile(16), q);
  ASSERT_TRUE(view);
  int kept = 0;
  for (int i = 0; i < 16; ++i) {
    kept += view->find("\"version\": \"1." + std::to_string(i) + ".0\"") != std::string::npos;
  }
  EXPECT_GE(kept, 1);
  EXPECT_LE(kept, 4);
  EXPECT_NE(view->find("\"version\": \"1.5.0\""), std::string::npos);
}

TEST(IndentBlocksTest, FlatOrSmallInputHidesNothing) {
  EXPECT_FALSE(elide_indented_blocks("a = 1\nb = 2\nc = 3\n", ""));
  EXPECT_FALSE(elide_indented_blocks("{\n  \"a\": {\n    \"b\": 1\n  }\n}\n", ""));
  EXPECT_FALSE(elide_indented_blocks("", ""));
}

}  // namespace
}  // namespace caveman::compress
