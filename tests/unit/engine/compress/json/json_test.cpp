#include "json/json.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "compress/common/summary.h"
#include "compress/compressors.h"
#include "compress/json/json_select.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

std::optional<std::string> run(std::string_view input, std::string_view query = "") {
  auto c = make_json_compressor();
  auto out = c->compress(input, query);
  if (!out) return std::nullopt;
  EXPECT_EQ(out->method, "elision");
  return out->bytes;
}

// n objects {"id":i,"state":"ok"} under "results".
std::string ok_records(int n, const std::string& extra_member = "") {
  std::string s = "{\"results\":[";
  for (int i = 0; i < n; ++i) {
    if (i) s += ",";
    s += "{\"id\":" + std::to_string(i) + ",\"state\":\"ok\"}";
  }
  return s + "]" + extra_member + "}";
}

TEST(JsonTest, E1InInputKeyOrder) {
  std::string in = ok_records(12, ",\"meta\":{\"page\":1}");
  EXPECT_EQ(run(in),
            "{\"results\":[{\"id\":0,\"state\":\"ok\"},{\"id\":1,\"state\":\"ok\"},{\"id\":2,"
            "\"state\":\"ok\"},{\"__caveman_elided__\":7,\"__caveman_invariants__\":\"all "
            "state=ok; range id=3..9\"},{\"id\":10,\"state\":\"ok\"},{\"id\":11,\"state\":\"ok\"}],"
            "\"meta\":{\"page\":1}}");
}

TEST(JsonTest, E1DistinctRecordsPassThrough) {
  static const char* kNames[] = {"alice", "bob",   "carol", "dave", "erin",    "frank",
                                 "grace", "heidi", "ivan",  "judy", "mallory", "niaj"};
  static const char* kTeams[] = {"platform", "storage", "network", "compiler", "security", "db",
                                 "infra",    "mobile",  "web",     "search",   "billing",  "ml"};
  std::string s = "{\"results\":[";
  for (int i = 0; i < 12; ++i) {
    if (i) s += ",";
    s += "{\"id\":" + std::to_string(i) + ",\"name\":\"" + kNames[i] + "\",\"team\":\"" +
         kTeams[i] + "\"}";
  }
  s += "]}";
  EXPECT_EQ(run(s), std::nullopt);
}

TEST(JsonTest, ShortArraysNeverCollapse) {
  EXPECT_EQ(run(ok_records(8)), std::nullopt);
  EXPECT_NE(run(ok_records(9)), std::nullopt);
}

TEST(JsonTest, KeepsInputKeyOrderAndNumberLiterals) {
  std::string s = "{\"z\":1.50,\"a\":[";
  for (int i = 0; i < 20; ++i) s += std::string(i ? "," : "") + "{\"b\":1e2,\"a\":\"x\"}";
  s += "],\"m\":-0.0}";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_TRUE(out->starts_with("{\"z\":1.50,\"a\":[{\"b\":1e2,\"a\":\"x\"}")) << *out;
  EXPECT_TRUE(out->ends_with("],\"m\":-0.0}")) << *out;
}

TEST(JsonTest, PreservedSubtreesNeverCollapse) {
  for (std::string key : {"errors", "Message", "stack_trace", "details", "WARNINGS"}) {
    std::string s = "{\"" + key + "\":" + ok_records(20) + "}";
    EXPECT_EQ(run(s), std::nullopt) << key;
  }
  // A sibling outside the preserved member still collapses.
  std::string s = "{\"error\":" + ok_records(20) + ",\"data\":" + ok_records(20) + "}";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->find("__caveman_elided__"), out->rfind("__caveman_elided__"));
  EXPECT_GT(out->find("__caveman_elided__"), out->find("\"data\""));
}

std::string records_with(int at, const std::string& member) {
  std::string s = "[";
  for (int i = 0; i < 30; ++i) {
    if (i) s += ",";
    s += "{\"id\":" + std::to_string(i) + ",\"state\":\"ok\"";
    if (i == at) s += "," + member;
    s += "}";
  }
  return s + "]";
}

TEST(JsonTest, ErrorWordsKeepElements) {
  for (std::string member :
       {"\"status\":\"failed\"", "\"error\":null", "\"code\":\"ERR_CONNECTION_REFUSED\"",
        "\"value\":\"Z_BUF_ERROR\"", "\"kind\":\"TimeoutError\"", "\"Denied\":true",
        "\"msg\":\"request timeout\""}) {
    auto out = run(records_with(15, member));
    ASSERT_TRUE(out) << member;
    EXPECT_NE(out->find(member), std::string::npos) << member << "\n" << *out;
  }
  EXPECT_TRUE(json_doc_has_error_word("{\"x\":\"Z_BUF_ERROR\"}"));
  EXPECT_TRUE(json_doc_has_error_word("{\"errorCount\":1}"));
  EXPECT_FALSE(json_doc_has_error_word("{\"terrors\":1,\"mirror\":\"x\"}"));
}

TEST(JsonTest, OutliersAreKept) {
  std::string s = "[";
  for (int i = 0; i < 40; ++i) {
    if (i) s += ",";
    int latency = i == 20 ? 9999 : 100 + i % 5;
    s += "{\"svc\":\"api\",\"latency\":" + std::to_string(latency) + "}";
  }
  s += "]";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("9999"), std::string::npos) << *out;
}

TEST(JsonTest, ChangePointSeamsAreKept) {
  // A level shift from 10 to 500 at index 25; the seam elements 24 and 25 stay.
  std::string s = "[";
  for (int i = 0; i < 50; ++i) {
    if (i) s += ",";
    s += "{\"seq\":\"s" + std::to_string(i) + "\",\"v\":" + std::to_string(i < 25 ? 10 : 500) + "}";
  }
  s += "]";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("{\"seq\":\"s24\",\"v\":10}"), std::string::npos) << *out;
  EXPECT_NE(out->find("{\"seq\":\"s25\",\"v\":500}"), std::string::npos) << *out;
}

TEST(JsonTest, ChangePointsSkipArithmeticProgressions) {
  JsonUnits units;
  std::vector<json::Value> values;
  for (int i = 0; i < 20; ++i) values.push_back(json::Value::number(std::to_string(i * 3)));
  for (const auto& v : values) {
    units.values.push_back(&v);
    units.docs.push_back(v.text);
  }
  std::vector<bool> keep(values.size(), false);
  mark_json_change_points(units, keep);
  EXPECT_EQ(std::count(keep.begin(), keep.end(), true), 0);
}

TEST(JsonTest, QueryRelevanceAddsKeeps) {
  std::string s = "[";
  for (int i = 0; i < 30; ++i) {
    if (i) s += ",";
    s +=
        "{\"id\":" + std::to_string(i) + ",\"city\":\"" + (i == 13 ? "Reykjavik" : "Paris") + "\"}";
  }
  s += "]";
  auto plain = run(s);
  ASSERT_TRUE(plain);
  auto with_query = run(s, "reykjavik");
  ASSERT_TRUE(with_query);
  EXPECT_NE(with_query->find("Reykjavik"), std::string::npos) << *with_query;
  // An empty query behaves exactly like no query.
  EXPECT_EQ(run(s, ""), plain);
}

TEST(JsonTest, UniformMapsCollapseLikeArrays) {
  std::string s = "{\"name\":\"x\",\"time\":{";
  for (int i = 0; i < 40; ++i) {
    if (i) s += ",";
    s += "\"1." + std::to_string(i) + ".0\":\"2024-01-01T00:00:00Z\"";
  }
  s += "}}";
  auto out = run(s);
  ASSERT_TRUE(out);
  auto v = json::parse(*out);
  ASSERT_TRUE(v);
  const json::Value* time = v->find("time");
  ASSERT_TRUE(time && time->is_object());
  EXPECT_EQ(time->members.front().key, "1.0.0");
  EXPECT_EQ(time->members.back().key, "1.39.0");
  const json::Value* marker = time->find("__caveman_elided__");
  ASSERT_TRUE(marker && marker->is_object()) << *out;
  ASSERT_TRUE(marker->find("__caveman_elided__"));
  const json::Value* inv = marker->find("__caveman_invariants__");
  ASSERT_TRUE(inv) << *out;
  EXPECT_NE(inv->text.find("all (value)=2024-01-01T00:00:00Z"), std::string::npos) << inv->text;
}

TEST(JsonTest, SeveralMapRunsGetUniqueMarkerKeys) {
  std::string s = "{";
  for (int i = 0; i < 60; ++i) {
    if (i) s += ",";
    std::string value = i == 30 ? "\"failed\"" : "\"ok\"";
    s += "\"k" + std::to_string(i) + "\":" + value;
  }
  s += "}";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\"__caveman_elided__\":{"), std::string::npos) << *out;
  EXPECT_NE(out->find("\"__caveman_elided_2__\":{"), std::string::npos) << *out;
  EXPECT_NE(out->find("\"k30\":\"failed\""), std::string::npos);
}

TEST(JsonTest, MixedOrSmallObjectsAreNotMaps) {
  std::string mixed = "{";
  for (int i = 0; i < 20; ++i) {
    if (i) mixed += ",";
    mixed += "\"k" + std::to_string(i) + "\":" + (i == 5 ? "1" : "\"v\"");
  }
  mixed += "}";
  EXPECT_EQ(run(mixed), std::nullopt);
  EXPECT_EQ(run("{\"a\":\"1\",\"b\":\"1\",\"c\":\"1\",\"d\":\"1\",\"e\":\"1\",\"f\":\"1\","
                "\"g\":\"1\",\"h\":\"1\"}"),
            std::nullopt);
}

TEST(JsonTest, NoteOnFirstMarkerInOutputOrderOnce) {
  // Two collapsing arrays; together they elide ≥ 4 KiB, the first marker carries the note.
  std::string pad(60, 'p');
  auto arr = [&](int n) {
    std::string s = "[";
    for (int i = 0; i < n; ++i) {
      s += std::string(i ? "," : "") + "{\"id\":" + std::to_string(i) + ",\"pad\":\"" + pad + "\"}";
    }
    return s + "]";
  };
  std::string s = "{\"b\":" + arr(12) + ",\"a\":" + arr(80) + "}";
  auto out = run(s);
  ASSERT_TRUE(out);
  std::size_t note = out->find("\"__caveman_note__\":\"" + elision_note("elements") + "\"");
  ASSERT_NE(note, std::string::npos) << *out;
  EXPECT_EQ(out->find("__caveman_note__"), out->rfind("__caveman_note__"));
  EXPECT_LT(note, out->find("\"a\":"));  // on the first marker (under "b")
  // Below 4 KiB elided: no note.
  EXPECT_EQ(run(ok_records(20))->find("__caveman_note__"), std::string::npos);
}

TEST(JsonTest, MalformedAndHostileInputPassThrough) {
  EXPECT_EQ(run(""), std::nullopt);
  EXPECT_EQ(run("{\"a\":"), std::nullopt);
  EXPECT_EQ(run(ok_records(20) + " {}"), std::nullopt);  // trailing value
  EXPECT_EQ(run("[1,2,3,4,5,6,7,8,9,10,]"), std::nullopt);
  std::string deep(10000, '[');
  deep += std::string(10000, ']');
  EXPECT_EQ(run(deep), std::nullopt);  // beyond the depth cap: no stack overflow
  std::string deep_obj;
  for (int i = 0; i < 10000; ++i) deep_obj += "{\"a\":";
  deep_obj += "1" + std::string(10000, '}');
  EXPECT_EQ(run(deep_obj), std::nullopt);
}

TEST(JsonTest, DeepButAllowedNestingStillCompresses) {
  std::string s;
  for (int i = 0; i < 400; ++i) s += "{\"a\":";
  s += ok_records(20);
  for (int i = 0; i < 400; ++i) s += "}";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("__caveman_elided__"), std::string::npos);
}

TEST(JsonTest, InvalidUtf8InStringsIsCarriedThrough) {
  std::string s = "[";
  for (int i = 0; i < 20; ++i)
    s += std::string(i ? "," : "") + "{\"id\":" + std::to_string(i) + ",\"s\":\"ok\xff\"}";
  s += "]";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("ok\xff"), std::string::npos);
  EXPECT_TRUE(json::is_valid(*out));
}

TEST(JsonTest, DeterministicAndIdempotent) {
  std::string s = "{\"items\":" + records_with(17, "\"status\":\"failed\"") + ",\"nested\":[" +
                  ok_records(30) + "," + ok_records(11) + "]}";
  auto a = run(s);
  auto b = run(s);
  ASSERT_TRUE(a);
  EXPECT_EQ(a, b);
  // A second pass over our own output declines (the engine then passes it through).
  EXPECT_EQ(run(*a), std::nullopt);
}

TEST(JsonTest, LargeArrayCompresses) {
  std::string s = "[";
  for (int i = 0; i < 20000; ++i) {
    s += std::string(i ? "," : "") + "{\"id\":" + std::to_string(i) + ",\"state\":\"ok\"}";
  }
  s += "]";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_LT(out->size(), s.size() / 10);
}

}  // namespace
}  // namespace caveman::compress

namespace caveman::compress {
namespace {

// The dispatched matcher must agree with the shared identifier-aware word matcher.
TEST(JsonTest, ErrorWordMatcherAgreesWithSharedMatcher) {
  static const char* kPieces[] = {
      "error",  "Error",   "ERRORS",  "errorless", "terror",    "_", "-",
      "Z_BUF_", "Timeout", "TIMEOUT", "time",      "out",       "5", "x",
      "failed", "Failure", "fatalx",  "\"",        ":",         " ", "abort",
      "Crash",  "panic",   "Denied",  "rejected",  "exception", "é"};
  std::uint64_t s = 12345;
  for (int round = 0; round < 20000; ++round) {
    std::string doc;
    int parts = 1 + static_cast<int>(s % 6);
    for (int p = 0; p < parts; ++p) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      doc += kPieces[(s >> 33) % (sizeof kPieces / sizeof kPieces[0])];
    }
    bool shared = text::contains_word_in_identifiers_ci(
        doc, {"error", "errors", "exception", "failed", "failure", "critical", "fatal", "crash",
              "panic", "abort", "timeout", "denied", "rejected"});
    ASSERT_EQ(json_doc_has_error_word(doc), shared) << doc;
  }
}

}  // namespace
}  // namespace caveman::compress
