// Each grader passes on what it promises and fails otherwise.
#include "evals/graders.h"

#include <gtest/gtest.h>

#include <string>

#include "evals/manifest.h"

namespace caveman::evals {
namespace {

GraderSpec spec(std::string yaml_grader) {
  Result<Manifest> m = parse_manifest(
      "fixtures:\n  - name: f\n    file: x\n    graders:\n      - " + yaml_grader + "\n");
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? m->fixtures[0].graders[0] : GraderSpec{};
}

CompressResult result(std::string output, std::string type = "json", std::string method = "elision",
                      double ratio = 0.5) {
  CompressResult r;
  r.output = std::move(output);
  r.content_type = std::move(type);
  r.method = std::move(method);
  r.ratio = ratio;
  r.recovery_handle = r.method.empty() ? "" : "ccr_0123";
  return r;
}

std::string run(const std::string& grader, std::string_view input, const CompressResult& r,
                bool recoverable = true) {
  return grade(spec(grader), GradeInput{input, r, recoverable});
}

TEST(GradersTest, ContainsAndNotContains) {
  CompressResult r = result("alpha beta gamma");
  EXPECT_EQ(run("{type: contains, value: beta}", "", r), "");
  EXPECT_NE(run("{type: must_contain, value: delta}", "", r), "");
  EXPECT_EQ(run("{type: contains, options: {values: [alpha, gamma]}}", "", r), "");
  EXPECT_NE(run("{type: contains, options: {values: [alpha, delta]}}", "", r), "");
  EXPECT_NE(run("{type: contains}", "", r), "");  // nothing to look for fails closed
  EXPECT_EQ(run("{type: not_contains, value: delta}", "", r), "");
  EXPECT_NE(run("{type: must_not_contain, value: alpha}", "", r), "");
}

TEST(GradersTest, RatioBand) {
  EXPECT_EQ(run("{type: ratio_threshold, min: 0.4, max: 0.6}", "", result("x")), "");
  EXPECT_NE(run("{type: ratio_threshold, min: 0.6}", "", result("x")), "");
  EXPECT_NE(run("{type: ratio_threshold, min: 0.1, max: 0.4}", "", result("x")), "");
  EXPECT_EQ(run("{type: ratio_threshold, min: 0.1, max: 0}", "", result("x")),
            "");  // max ≤ 0: open
}

TEST(GradersTest, IdentityCompressionAndRecovery) {
  CompressResult same = result("abc", "text", "", 0);
  EXPECT_EQ(run("{type: byte_identical}", "abc", same), "");
  EXPECT_NE(run("{type: compressed}", "abc", same), "");
  CompressResult smaller = result("ab");
  EXPECT_NE(run("{type: byte_identical}", "abc", smaller), "");
  EXPECT_EQ(run("{type: compressed}", "abc", smaller), "");
  EXPECT_EQ(run("{type: recovery_exact}", "abc", smaller, true), "");
  EXPECT_NE(run("{type: recovery_exact}", "abc", smaller, false), "");
}

TEST(GradersTest, JsonToonAndReparse) {
  EXPECT_EQ(run("{type: valid_json}", "", result("{\"a\":1}")), "");
  EXPECT_NE(run("{type: valid_json}", "", result("{\"a\":")), "");
  std::string input = R"({"users":[{"id":1,"name":"ana"},{"id":2,"name":"sam"}],"n":1.50})";
  CompressResult toon = result("n: 1.5\nusers[2]{id,name}:\n  1,ana\n  2,sam", "toon", "toon");
  EXPECT_EQ(run("{type: toon_round_trip}", input, toon), "");
  EXPECT_EQ(run("{type: json_or_toon_round_trip}", input, toon), "");
  CompressResult wrong = result("n: 1.5\nusers[2]{id,name}:\n  1,ana\n  2,bob", "toon", "toon");
  EXPECT_NE(run("{type: toon_round_trip}", input, wrong), "");
  EXPECT_EQ(run("{type: reparses}", "", result("k: [1, 2]\n", "config")), "");
  EXPECT_NE(run("{type: reparses}", "", result("k: [1, 2\n", "config")), "");
  EXPECT_EQ(run("{type: reparses, options: {language: python}}", "",
                result("def f():\n    ...\n", "code")),
            "");
  EXPECT_NE(run("{type: reparses, options: {language: python}}", "", result("def f(:\n", "code")),
            "");
  EXPECT_NE(run("{type: reparses}", "", result("x", "html")), "");  // no parser: fails closed
}

TEST(GradersTest, RecallKeysAndExactMatch) {
  CompressResult r = result("id=7 name=ana");
  EXPECT_EQ(run("{type: recall_keys, options: {must_contain: [ana, 7]}}", "", r), "");
  EXPECT_NE(run("{type: recall_keys, options: {must_contain: [ana, sam]}}", "", r), "");
  EXPECT_EQ(run("{type: recall_keys, options: {must_contain: [ana, sam], min_recall: 0.5}}", "", r),
            "");
  EXPECT_EQ(run("{type: exact_match, value: \"  id=7 name=ana\\n\"}", "", r), "");
  EXPECT_NE(run("{type: exact_match, value: id=7}", "", r), "");
}

TEST(GradersTest, JsonSchemaSubset) {
  const std::string schema =
      "{type: json_schema, options: {schema: {type: object, required: [id, tags], "
      "additionalProperties: false, properties: {id: {type: integer, minimum: 1, maximum: 9}, "
      "name: {type: string, minLength: 2, maxLength: 5, pattern: \"^[a-z]+$\"}, "
      "kind: {enum: [a, b]}, v: {const: 2}, tags: {type: array, minItems: 1, maxItems: 2, "
      "items: {type: string}}}}}}";
  EXPECT_EQ(run(schema, "", result(R"({"id":3,"name":"ana","kind":"a","v":2.0,"tags":["x"]})")),
            "");
  for (std::string bad :
       {R"({"id":3.5,"tags":["x"]})", R"({"id":0,"tags":["x"]})", R"({"id":3})",
        R"({"id":3,"tags":[]})", R"({"id":3,"tags":[1]})", R"({"id":3,"tags":["x"],"name":"A"})",
        R"({"id":3,"tags":["x"],"kind":"c"})", R"({"id":3,"tags":["x"],"v":3})",
        R"({"id":3,"tags":["x"],"extra":1})", R"({"id":3,"tags":["x"],"name":"abcdef"})", "[1]",
        "not json"}) {
    EXPECT_NE(run(schema, "", result(bad)), "") << bad;
  }
  EXPECT_EQ(run("{type: json_schema, reference: '{\"type\":\"array\"}'}", "", result("[]")), "");
  EXPECT_NE(run("{type: json_schema}", "", result("[]")), "");
}

TEST(GradersTest, ToolSequence) {
  const std::string want = "{type: tool_sequence, options: {tools: [search, open, edit]}}";
  EXPECT_EQ(run(want, "", result("search > open > edit")), "");
  EXPECT_EQ(run(want, "", result("search|open\tedit\n")), "");
  EXPECT_EQ(
      run(want, "",
          result(
              R"({"tool_calls":[{"name":"search"},{"function":{"name":"open"}},{"tool":"edit"}]})")),
      "");
  EXPECT_NE(run(want, "", result("open, search, edit")), "");
  EXPECT_EQ(
      run("{type: tool_sequence, reference: 'a, b'}", "", result(R"([{"tool_name":"a"},"b"])")),
      "");
  EXPECT_NE(run("{type: tool_sequence}", "", result("a")), "");
}

TEST(GradersTest, UnknownTypeFailsClosed) {
  EXPECT_EQ(run("{type: vibes}", "", result("x")), "unknown grader type: vibes");
  EXPECT_FALSE(known_grader_types().empty());
}

}  // namespace
}  // namespace caveman::evals
