#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "compress/code/parse.h"

namespace caveman::compress::code {
namespace {

TEST(CodeParseTest, CleanParseKeepsTheCallersText) {
  auto p = parse_clean(Language::kPython, "def f():\n    return 1\n");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->text, "def f():\n    return 1\n");
}

TEST(CodeParseTest, SyntaxErrorsAndMissingNodesAreRejected) {
  EXPECT_EQ(parse_clean(Language::kPython, "def f(:\n    return 1\n"), nullptr);
  EXPECT_EQ(parse_clean(Language::kJavaScript, "function f() { return (1; }\n"), nullptr);
  EXPECT_EQ(parse_clean(Language::kGo, "package a\nfunc f() {\n"), nullptr);  // MISSING }
}

TEST(CodeParseTest, MasksAnnotationMacrosAfterDeclarators) {
  std::string src =
      "struct S {\n  Version* const version GUARDED_BY(mu);\n"
      "  void F() EXCLUSIVE_LOCKS_REQUIRED(mu_, other(x));\n"
      "  void G() NO_THREAD_SAFETY_ANALYSIS {}\n};\n";
  std::string masked = mask_annotation_macros(src);
  ASSERT_EQ(masked.size(), src.size());
  EXPECT_EQ(masked.find("GUARDED_BY"), std::string::npos);
  EXPECT_EQ(masked.find("EXCLUSIVE_LOCKS_REQUIRED"), std::string::npos);
  EXPECT_EQ(masked.find("NO_THREAD_SAFETY_ANALYSIS"), std::string::npos);
  EXPECT_NE(masked.find("Version* const version "), std::string::npos);
  EXPECT_EQ(std::count(masked.begin(), masked.end(), '\n'),
            std::count(src.begin(), src.end(), '\n'));
}

TEST(CodeParseTest, LeavesExpressionsCommentsStringsAndDirectivesAlone) {
  std::string src =
      "int f() { return MAKE_VALUE(1); }\n"
      "// x GUARDED_BY(mu);\n"
      "const char* s = \"a GUARDED_BY(mu);\";\n"
      "#define LOCKED_BY(x) __attribute__((x))\n"
      "int MAX_SIZE;\n";
  EXPECT_EQ(mask_annotation_macros(src), src);
}

TEST(CodeParseTest, CppWithAnnotationMacrosParsesOnlyThroughTheMask) {
  std::string src =
      "#include <mutex>\nstruct IterState {\n  std::mutex* const mu;\n"
      "  int* const version GUARDED_BY(mu);\n};\n";
  TreePtr raw = parse_raw(Language::kCpp, src);
  ASSERT_NE(raw, nullptr);
  EXPECT_TRUE(ts_node_has_error(ts_tree_root_node(raw.get())));
  auto clean = parse_clean(Language::kCpp, src);
  ASSERT_NE(clean, nullptr);
  EXPECT_NE(clean->text, src);
  EXPECT_EQ(clean->text.size(), src.size());
}

TEST(CodeParseTest, OtherLanguagesAreNeverMasked) {
  EXPECT_EQ(parse_clean(Language::kJavaScript, "x GUARDED_BY(mu);\n"), nullptr);
}

// A parse that outlives its budget yields no tree, so the compressor declines and the input
// passes through: a fuzzed file once kept tree-sitter's error recovery busy for minutes.
TEST(CodeParseTest, AParseThatOutlivesItsBudgetYieldsNoTree) {
  std::string src;
  for (int i = 0; i < 4000; ++i)
    src += "int f" + std::to_string(i) + "(int a) { return a * 2 + 1; }\n";
  EXPECT_NE(parse_raw(Language::kC, src), nullptr);
  EXPECT_EQ(parse_raw(Language::kC, src, /*budget_micros=*/1), nullptr);
}

TEST(CodeParseTest, TheBudgetGrowsWithTheInput) {
  EXPECT_EQ(parse_budget_micros(0), kParseBaseMicros);
  EXPECT_EQ(parse_budget_micros(28'000), kParseBaseMicros + 28'000 * kParseMicrosPerByte);
}

}  // namespace
}  // namespace caveman::compress::code
