#include "compress/factor/json_table.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "caveman/tokens.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"
#include "support/corpus.h"

namespace caveman::compress::factor {
namespace {

const tokens::Counter& counter() { return tokens::default_counter(); }

// The view, after checking that it expands to exactly `input`; `input` when there is none.
std::string view_of(const std::string& input) {
  std::optional<std::string> view = json_table_view(input, counter());
  if (!view) return input;
  std::optional<std::string> back = expand_blocks(*view);
  EXPECT_TRUE(back.has_value()) << *view;
  EXPECT_EQ(back.value_or(""), input) << *view;
  return *view;
}

std::string nodes_minified() {
  std::string s = "{\"nodes\":[";
  for (int i = 0; i < 12; ++i) {
    if (i > 0) s += ',';
    s += "{\"nodeId\":\"" + std::to_string(i + 2) + "\",\"ignored\":" + (i % 3 ? "false" : "true") +
         ",\"role\":{\"type\":\"internalRole\",\"value\":\"role" + std::to_string(i % 4) + "\"}";
    if (i > 0) s += ",\"parentId\":\"" + std::to_string(i + 1) + "\"";
    s += ",\"childIds\":[\"" + std::to_string(i + 3) + "\"]}";
  }
  return s + "]}";
}

TEST(JsonTableTest, AnArrayOfObjectsBecomesOneRowPerObjectWithDottedColumns) {
  std::string view = view_of(nodes_minified());
  EXPECT_NE(view.find("{\"nodes\":\n[JSON table of 12 objects at nodes (minified JSON), columns: "
                      "nodeId, ignored, role.type = \"internalRole\", role.value, parentId, "
                      "childIds; a row per object:"),
            std::string::npos)
      << view;
  EXPECT_NE(view.find("\n[\"2\",true,\"role0\",,[\"3\"]]\n"), std::string::npos) << view;
  EXPECT_TRUE(view.ends_with("\n}")) << view;
}

TEST(JsonTableTest, AConstantColumnIsStatedOnceInTheHeaderAndLeftOutOfTheRows) {
  std::string view = view_of(nodes_minified());
  EXPECT_NE(view.find("role.type = \"internalRole\""), std::string::npos);
  EXPECT_EQ(view.find("\"internalRole\"", view.find("\n[\"")), std::string::npos) << view;
}

TEST(JsonTableTest, AnAbsentKeyIsAnEmptyCellAndNullStaysNull) {
  std::string in = "[{\"alpha\":1,\"beta\":null,\"gamma\":\"x\"},{\"alpha\":2,\"gamma\":\"y\"}";
  for (int i = 3; i < 40; ++i) {
    in += ",{\"alpha\":" + std::to_string(i) + ",\"beta\":" + std::to_string(i) + ",\"gamma\":\"z\"}";
  }
  in += "]";
  std::string view = view_of(in);
  EXPECT_NE(view.find("\n[2,,\"y\"]\n"), std::string::npos) << view;
  EXPECT_NE(view.find("\n[1,null,\"x\"]\n"), std::string::npos) << view;
}

TEST(JsonTableTest, PrettyJsonWithTwoSpaceIndentIsRebuiltExactly) {
  std::string in = "{\n  \"packages\": {\n";
  for (int i = 0; i < 10; ++i) {
    in += std::string(i ? ",\n" : "") + "    \"node_modules/pkg" + std::to_string(i) +
          "\": {\n      \"version\": \"1." + std::to_string(i) +
          ".0\",\n      \"license\": \"MIT\",\n      \"engines\": {\n        \"node\": \">=" +
          std::to_string(10 + i) + "\"\n      },\n      \"bin\": [\n        \"x" + std::to_string(i) +
          "\"\n      ]\n    }";
  }
  in += "\n  }\n}\n";
  std::string view = view_of(in);
  EXPECT_NE(view.find("[JSON table of 10 members at packages (JSON indented 2 spaces, level 1), "
                      "columns: version, license = \"MIT\", engines.node, bin; a row per member:"),
            std::string::npos)
      << view;
  EXPECT_NE(view.find("\n[\"node_modules/pkg0\",\"1.0.0\",\">=10\",[\"x0\"]]\n"), std::string::npos)
      << view;
}

TEST(JsonTableTest, OtherLayoutsAreLeftAsWritten) {
  std::string four_space = "[\n    {\"a\": 1, \"b\": 2},\n    {\"a\": 3, \"b\": 4},\n    {\"a\": 5, \"b\": 6}\n]";
  EXPECT_FALSE(json_table_view(four_space, counter()).has_value());
  std::string spaced = "[{\"a\": 1}, {\"a\": 2}, {\"a\": 3}]";
  EXPECT_FALSE(json_table_view(spaced, counter()).has_value());
}

TEST(JsonTableTest, ObjectsThatOrderTheirKeysDifferentlyAreNotATable) {
  std::string in = "[";
  for (int i = 0; i < 20; ++i) {
    in += std::string(i ? "," : "") + (i % 2 ? "{\"name\":\"n\",\"id\":1}" : "{\"id\":1,\"name\":\"n\"}");
  }
  in += "]";
  EXPECT_FALSE(json_table_view(in, counter()).has_value());
}

TEST(JsonTableTest, NonUniformJsonIsNeverGrown) {
  std::string in = "[{\"a\":1},{\"b\":2},{\"c\":3},{\"d\":4}]";
  std::optional<std::string> view = json_table_view(in, counter());
  if (view) EXPECT_LT(counter().count(*view), counter().count(in));
}

TEST(JsonTableTest, AViewIsNotTabledAgain) {
  std::string view = view_of(nodes_minified());
  EXPECT_TRUE(contains_block(view));
  EXPECT_FALSE(json_table_view(view, counter()).has_value());
}

TEST(JsonTableTest, ARowCutShortIsNotAView) {
  std::string view = view_of(nodes_minified());
  std::size_t last_row = view.rfind("\n[");
  ASSERT_NE(last_row, std::string::npos);
  EXPECT_FALSE(expand_blocks(view.substr(0, last_row) + "\n}").has_value());
  std::string broken = view;
  broken.replace(view.find("\n[\"2\",") + 1, 1, "(");
  EXPECT_FALSE(expand_blocks(broken).has_value());
}

TEST(JsonTableTest, KeysThatAreNotPlainWordsAreWrittenAsJsonStrings) {
  std::string in = "[";
  for (int i = 0; i < 6; ++i) {
    in += std::string(i ? "," : "") + "{\"a.b\":" + std::to_string(i) + ",\"x y\":{\"\\u00e9\":\"v" +
          std::to_string(i) + "\"}}";
  }
  in += "]";
  std::string view = view_of(in);
  EXPECT_NE(view.find("columns: \"a.b\", \"x y\".\"\\u00e9\";"), std::string::npos) << view;
}

// Generated arrays of objects (minified and pretty, absent keys, nulls, nested values)
// always round-trip exactly, and a view is final.
TEST(JsonTableTest, PropertyGeneratedArraysRoundTripExactly) {
  std::mt19937 rng(21);
  const char* values[] = {"1", "-2.5e3", "true", "false", "null", "\"s\"", "\"a, b; c\"",
                          "\"\\\"q\\\"\"", "[]", "{}", "[1,{\"k\":[2]}]", "{\"z\":{\"y\":1}}"};
  for (int round = 0; round < 300; ++round) {
    bool pretty = round % 2;
    int rows = 3 + static_cast<int>(rng() % 12);
    int keys = 1 + static_cast<int>(rng() % 5);
    std::string in = pretty ? "[\n" : "[";
    for (int r = 0; r < rows; ++r) {
      std::string obj = "{";
      bool any = false;
      for (int k = 0; k < keys; ++k) {
        if (rng() % 4 == 0) continue;
        std::string v = values[rng() % std::size(values)];
        if (k == 0 && rng() % 2) v = "{\"in\":" + std::to_string(rng() % 3) + "}";
        obj += std::string(any ? "," : "") + "\"k" + std::to_string(k) + "\":" + v;
        any = true;
      }
      obj += "}";
      if (pretty) {
        // Objects on their own lines: not JSON.stringify's layout, so only minified parts
        // could be tabled; whatever is tabled must still round-trip.
        in += std::string(r ? ",\n" : "") + "  " + obj;
      } else {
        in += std::string(r ? "," : "") + obj;
      }
    }
    in += pretty ? "\n]" : "]";
    std::optional<std::string> view = json_table_view(in, counter());
    if (!view) continue;
    std::optional<std::string> back = expand_blocks(*view);
    ASSERT_TRUE(back.has_value()) << in;
    ASSERT_EQ(*back, in) << *view;
    EXPECT_FALSE(json_table_view(*view, counter()).has_value());
  }
}

// Decoding arbitrary bytes never crashes: views with random bytes changed either fail to
// expand or expand to some text.
TEST(JsonTableTest, MutatedViewsNeverCrashTheDecoder) {
  std::string view = view_of(nodes_minified());
  std::mt19937 rng(7);
  const char alphabet[] = "[]{},:\"\\ .=;\n0123456789abcnull";
  for (int round = 0; round < 2000; ++round) {
    std::string v = view;
    for (int k = 0; k < 3; ++k) v[rng() % v.size()] = alphabet[rng() % (sizeof alphabet - 1)];
    (void)expand_blocks(v);
    std::size_t at = v.find('\n') + 1;
    std::string_view line = std::string_view(v).substr(at, v.find('\n', at) - at);
    if (std::optional<TableHeader> h = parse_table_header(line)) {
      EXPECT_TRUE(write_table_header(*h).has_value());
    }
  }
}

TEST(JsonTableTest, CorpusJsonFilesRoundTripExactly) {
  for (const auto& f : corpus::corpus_manifest()) {
    if (f.kind != "json" || f.name.starts_with("listing-")) continue;
    std::string input = corpus::read_file(f.path);
    std::optional<std::string> view = json_table_view(input, counter());
    if (!view) continue;
    EXPECT_EQ(expand_blocks(*view).value_or(""), input) << f.name;
    EXPECT_LT(counter().count(*view), counter().count(input)) << f.name;
  }
}

}  // namespace
}  // namespace caveman::compress::factor
