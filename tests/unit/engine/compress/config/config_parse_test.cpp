#include "compress/config/config_parse.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/lines.h"

namespace caveman::compress {
namespace {

std::vector<ConfigLine> kinds(std::string_view input) {
  std::vector<ConfigLine> out;
  for (const ConfigLineInfo& i : classify_config_lines(text::split_all(input, '\n'))) {
    out.push_back(i.kind);
  }
  return out;
}

TEST(ConfigParseTest, LineKinds) {
  using K = ConfigLine;
  EXPECT_EQ(kinds("[server]\nport = 8080\n# note\n; ini note\n\nname: x\n- item\nfree text"),
            (std::vector<K>{K::kSection, K::kAssignment, K::kComment, K::kComment, K::kBlank,
                            K::kYamlKey, K::kListItem, K::kProse}));
  EXPECT_EQ(kinds("[[bin]]\n- name: x"), (std::vector<K>{K::kSection, K::kYamlKey}));
}

TEST(ConfigParseTest, BlockScalarContent) {
  using K = ConfigLine;
  std::string y = "steps:\n  - run: |\n      echo key: value\n\n      make\n  - name: next\n";
  auto info = classify_config_lines(text::split_all(y, '\n'));
  ASSERT_EQ(info.size(), 7u);
  EXPECT_TRUE(info[1].block_header);
  EXPECT_EQ(info[2].kind, K::kBlockContent);  // looks like a key, but is script text
  EXPECT_EQ(info[3].kind, K::kBlank);
  EXPECT_EQ(info[4].kind, K::kBlockContent);
  EXPECT_EQ(info[5].kind, K::kYamlKey);
  EXPECT_FALSE(info[5].block_header);
}

TEST(ConfigParseTest, ClassifiesFiles) {
  std::string toml;
  for (int s = 0; s < 3; ++s) {
    toml += "[s" + std::to_string(s) + "]\n";
    for (int k = 0; k < 3; ++k) toml += "k" + std::to_string(k) + " = 1\n";
  }
  auto t = classify_config(toml);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kind, ConfigKind::kToml);
  // Flat key = value file with comments (postgresql.conf style).
  std::string flat = "# header\n";
  for (int k = 0; k < 8; ++k) flat += "key" + std::to_string(k) + " = 'v'   # why\n";
  ASSERT_TRUE(classify_config(flat));
  // YAML with a block scalar still classifies (and parses).
  std::string yaml = "a: 1\nb: 2\nc:\n  d: 3\n  e: |\n    text: here\n    more\nf: 5\ng: 6\n";
  auto y = classify_config(yaml);
  ASSERT_TRUE(y);
  EXPECT_EQ(y->kind, ConfigKind::kYaml);
  EXPECT_TRUE(y->has_block_scalar);
  // Not config: prose, invalid YAML, triple-quoted TOML.
  EXPECT_FALSE(classify_config("This is a sentence.\nAnother one here.\n"));
  EXPECT_FALSE(classify_config("a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: [unclosed\n"));
  EXPECT_FALSE(classify_config(toml + "x = \"\"\"\nmulti\n\"\"\"\n"));
  EXPECT_FALSE(classify_config("k = \xff\n"));
}

// The items of a TOML array written over several lines (pyproject's dependencies, a policy's
// tool list) belong to their key: without that they read as prose and the file as no config.
TEST(ConfigParseTest, MultiLineTomlArrayItemsAreTheirKeysContent) {
  std::string toml =
      "[project]\nname = \"x\"\ndependencies = [\n  \"a>=1\",\n  # pinned\n  \"b[c]==2\",\n]\n"
      "[tool.x]\nk = 1\nlist = [\"]\", [1,\n  2]]\nafter = 3\n";
  std::vector<ConfigLineInfo> kinds = classify_config_lines(text::split_all(toml, '\n'));
  EXPECT_EQ(kinds[3].kind, ConfigLine::kBlockContent);  // "a>=1",
  EXPECT_EQ(kinds[4].kind, ConfigLine::kComment);
  EXPECT_EQ(kinds[5].kind, ConfigLine::kBlockContent);  // "b[c]==2", — brackets in a string
  EXPECT_EQ(kinds[6].kind, ConfigLine::kBlockContent);  // ]
  EXPECT_EQ(kinds[7].kind, ConfigLine::kSection);
  EXPECT_EQ(kinds[10].kind, ConfigLine::kBlockContent);  // 2]]
  EXPECT_EQ(kinds[11].kind, ConfigLine::kAssignment);
  EXPECT_TRUE(classify_config(toml));
}

TEST(ConfigParseTest, YamlParsesAndIndent) {
  EXPECT_TRUE(yaml_parses("a: 1\n---\nb: 2\n"));
  EXPECT_FALSE(yaml_parses("a: [1, 2\n"));
  EXPECT_EQ(yaml_indent("    x"), 4);
  EXPECT_EQ(yaml_indent("\t x"), 3);
}

// yaml-cpp 0.7's LoadAll never returns on a stray flow entry (a fuzzer found it in a 3.6 KB
// mix of JSON and a workflow file); these must return at once.
TEST(ConfigParseTest, StrayFlowEntryIsNotYamlAndTerminates) {
  EXPECT_FALSE(yaml_parses(","));
  EXPECT_FALSE(yaml_parses(" ,\"a\":1"));
  // After a valid document yaml-cpp's verdict varies; what matters is that it returns.
  std::string config = "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\n ,\"response-body\"]}\n";
  (void)classify_config(config);
}

TEST(ConfigParseTest, DeepNestingDoesNotCrash) {
  std::string deep = "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: " + std::string(100000, '[') + "\n";
  EXPECT_FALSE(classify_config(deep));
}

}  // namespace
}  // namespace caveman::compress
