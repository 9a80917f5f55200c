// Every vendored grammar loads into Debian's tree-sitter runtime and parses its language.
#include "compress/code/language.h"

#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <string>

#include "compress/code/parse.h"

namespace caveman::compress::code {
namespace {

struct Sample {
  Language lang;
  const char* source;
};

class CodeLanguageTest : public ::testing::TestWithParam<Sample> {};

TEST_P(CodeLanguageTest, GrammarLoadsIntoRuntimeAndParses) {
  const TSLanguage* grammar = ts_language(GetParam().lang);
  ASSERT_NE(grammar, nullptr);
  EXPECT_GE(ts_language_version(grammar),
            static_cast<std::uint32_t>(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION));
  EXPECT_LE(ts_language_version(grammar), static_cast<std::uint32_t>(TREE_SITTER_LANGUAGE_VERSION));
  TSParser* parser = ts_parser_new();
  EXPECT_TRUE(ts_parser_set_language(parser, grammar));
  ts_parser_delete(parser);

  TreePtr tree = parse_raw(GetParam().lang, GetParam().source);
  ASSERT_NE(tree, nullptr);
  TSNode root = ts_tree_root_node(tree.get());
  EXPECT_FALSE(ts_node_has_error(root)) << ts_node_string(root);
  EXPECT_GT(ts_node_named_child_count(root), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    AllGrammars, CodeLanguageTest,
    ::testing::Values(
        Sample{Language::kGo, "package main\n\nfunc main() { println(1) }\n"},
        Sample{Language::kPython, "def f(x):\n    return x + 1\n"},
        Sample{Language::kJavaScript, "const f = (x) => { return <b>{x}</b>; };\n"},
        Sample{Language::kTypeScript, "interface A { x: number }\nfunction f(a: A): number { return a.x; }\n"},
        Sample{Language::kTsx, "const C = (p: {n: string}) => <div>{p.n}</div>;\n"},
        Sample{Language::kC, "#include <stdio.h>\nint main(void) { return 0; }\n"},
        Sample{Language::kCpp, "#include <string>\nnamespace a { std::string f() { return {}; } }\n"}),
    [](const ::testing::TestParamInfo<Sample>& info) {
      return std::string(language_name(info.param.lang));
    });

TEST(CodeLanguageNamesTest, AreStableAndDistinct) {
  std::string all;
  for (Language l : kAllLanguages) all += std::string(language_name(l)) + ",";
  EXPECT_EQ(all, "go,python,javascript,typescript,tsx,c,cpp,");
}

}  // namespace
}  // namespace caveman::compress::code
