#include "compress/code/sniff.h"

#include <gtest/gtest.h>

namespace caveman::compress::code {
namespace {

Language first(std::string_view s) {
  auto c = candidate_languages(s);
  EXPECT_FALSE(c.empty()) << s;
  return c.empty() ? Language::kGo : c.front();
}

TEST(CodeSniffTest, GoNeedsPackageClauseAndFunc) {
  EXPECT_EQ(first("package http\n\nimport \"io\"\n\nfunc Get() {}\n"), Language::kGo);
  // Words inside prose are not line-anchored signals.
  EXPECT_TRUE(candidate_languages("the package func is here\n").empty());
}

// A slice read with an offset has no package clause; a `func ` at the start of a line is Go.
TEST(CodeSniffTest, AGoSliceWithoutPackageClauseIsGo) {
  EXPECT_EQ(first("\treturn c.Do(req)\n}\n\nvar ErrUseLastResponse = errors.New(\"x\")\n\n"
                  "func (c *Client) Get(url string) error {\n\treturn nil\n}\n"),
            Language::kGo);
  // Indented, it is not enough (a Go closure inside prose or another language's text).
  EXPECT_TRUE(candidate_languages("  func is a word here\n").empty());
}

TEST(CodeSniffTest, PythonNeedsADefinitionLine) {
  EXPECT_EQ(first("import os\n\ndef run(cmd):\n    return os.system(cmd)\n"), Language::kPython);
  EXPECT_EQ(first("class A(object):\n    pass\n"), Language::kPython);
}

TEST(CodeSniffTest, UndefinedInJavaScriptDoesNotLookLikePython) {
  // The original's first-match sniff (`def ` and `:`) would pick Python here.
  std::string_view js = "var x = undefined ? a : b;\nfunction f() { return x; }\n";
  EXPECT_EQ(first(js), Language::kJavaScript);
}

TEST(CodeSniffTest, IncludeChoosesCOrCpp) {
  EXPECT_EQ(first("#include <stdio.h>\nint main(void) { return 0; }\n"), Language::kC);
  EXPECT_EQ(first("#include <string>\nstd::string f();\n"), Language::kCpp);
  auto both = candidate_languages("#include <stdio.h>\nint x;\n");
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1], Language::kCpp);
}

TEST(CodeSniffTest, TypeScriptSyntaxPrefersTypeScriptThenTsx) {
  auto c = candidate_languages("export interface A { x: string }\n");
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(c[0], Language::kTypeScript);
  EXPECT_EQ(c[1], Language::kTsx);
  EXPECT_EQ(c[2], Language::kJavaScript);
  EXPECT_EQ(first("const C = (p: {n: string}) => <div>{p.n}</div>;\n"), Language::kTsx);
}

TEST(CodeSniffTest, PlainJavaScriptTriesJavaScriptFirst) {
  auto c = candidate_languages("const f = require('x');\nmodule.exports = f;\n");
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0], Language::kJavaScript);
  EXPECT_EQ(c[1], Language::kTypeScript);
}

TEST(CodeSniffTest, ProseHasNoCandidates) {
  EXPECT_TRUE(candidate_languages("Hello world.\nThis is a note about a meeting.\n").empty());
  EXPECT_TRUE(candidate_languages("").empty());
}

}  // namespace
}  // namespace caveman::compress::code
