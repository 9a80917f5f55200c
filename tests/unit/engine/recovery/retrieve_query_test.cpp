// Query-narrowed recovery (docs/spec/ccr.md#query-views): whole units only, gaps always marked,
// never larger than the original, blank queries return the exact bytes.
#include "recovery/retrieve_query.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "compress/tabular/table_parse.h"
#include "json/json.h"
#include "support/test_support.h"

namespace caveman::recovery {
namespace {

// Splits a rendered view into its pieces (units and sentinels) on the "\n\n" separators.
std::vector<std::string> pieces(std::string_view view) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (true) {
    std::size_t next = view.find("\n\n", pos);
    out.emplace_back(view.substr(pos, next == std::string_view::npos ? view.npos : next - pos));
    if (next == std::string_view::npos) break;
    pos = next + 2;
  }
  return out;
}

std::string orders_pretty(int n) {
  std::string s = "{\n  \"orders\": [\n";
  for (int i = 0; i < n; ++i) {
    s += "    {\n      \"id\": \"ord-" + std::to_string(1000 + i) + "\",\n";
    s += "      \"customer\": \"customer-" + std::to_string(i * 7 % 23) + "\",\n";
    s += std::string("      \"status\": \"") + (i == 13 ? "unfulfilled" : "fulfilled") + "\",\n";
    s += "      \"total\": " + std::to_string(10 + i) + ".50\n    }";
    s += i + 1 < n ? ",\n" : "\n";
  }
  s += "  ],\n  \"page\": 1\n}\n";
  return s;
}

TEST(RetrieveQueryTest, BlankQueryReturnsExactBytes) {
  std::string original = orders_pretty(30);
  EXPECT_EQ(narrow_to_query(original, ""), original);
  EXPECT_EQ(narrow_to_query(original, " \t\n"), original);
  EXPECT_EQ(narrow_to_query(original, "\xE3\x80\x80"), original);  // ideographic space
}

TEST(RetrieveQueryTest, SpecExampleRendersWholeRecordsButReturnsOriginalWhenNotSmaller) {
  std::string original =
      R"({"items":[{"id":"row-1","text":"delivery failed"},{"id":"row-2","text":"delivery ok"}]})";
  Decomposition d = decompose(original);
  ASSERT_EQ(d.kind, UnitKind::kJsonRecords);
  std::string view = render_view(d, select_units(d, "failed"));
  EXPECT_EQ(
      view,
      "\xE2\x80\xA6 [caveman: non-adjacent] \xE2\x80\xA6\n\n{\n  \"id\": \"row-1\",\n  "
      "\"text\": \"delivery failed\"\n}\n\n\xE2\x80\xA6 [caveman: non-adjacent] \xE2\x80\xA6");
  EXPECT_EQ(narrow_to_query(original, "failed"), original);  // view is 114 > 87 bytes
}

// Regression for the original's failure: a LINE view of a pretty-printed orders array put
// `"status": "unfulfilled"` beside another order's id. Only whole order objects may appear.
TEST(RetrieveQueryTest, PrettyPrintedOrdersReturnWholeOrderObjectsOnly) {
  std::string original = orders_pretty(40);
  std::string view = narrow_to_query(original, "unfulfilled");
  ASSERT_NE(view, original);
  std::vector<std::string> parts = pieces(view);
  int records = 0;
  for (const std::string& p : parts) {
    if (p == kGapSentinel) continue;
    std::optional<json::Value> v = json::parse(p);
    ASSERT_TRUE(v.has_value()) << "fragment in view: " << p;
    ASSERT_TRUE(v->is_object());
    ASSERT_NE(v->find("id"), nullptr);
    ASSERT_NE(v->find("status"), nullptr);
    ++records;
    // The unfulfilled status is shown with ITS order's id and nothing else's.
    EXPECT_EQ(v->find("status")->text, "unfulfilled");
    EXPECT_EQ(v->find("id")->text, "ord-1013");
  }
  EXPECT_EQ(records, 1);
  EXPECT_EQ(parts.front(), kGapSentinel);
  EXPECT_EQ(parts.back(), kGapSentinel);
  EXPECT_EQ(view.find("\"id\": \"ord-1012\""), std::string::npos);
  EXPECT_EQ(view.find("\"id\": \"ord-1014\""), std::string::npos);
}

TEST(RetrieveQueryTest, JsonUnitsEachParseAndKeepKeyOrder) {
  std::string original = R"({"meta":{"next":null},"results":[)";
  for (int i = 0; i < 30; ++i) {
    if (i) original += ",";
    original += R"({"zeta":)" + std::to_string(i) + R"(,"alpha":"host-)" + std::to_string(i) +
                R"(","tags":[{"k":"v"}],"msg":")" + (i % 9 == 4 ? "timeout talking to db" : "ok") +
                "\"}";
  }
  original += "]}";
  std::string view = narrow_to_query(original, "timeout db");
  ASSERT_NE(view, original);
  int units = 0;
  for (const std::string& p : pieces(view)) {
    if (p == kGapSentinel) continue;
    std::optional<json::Value> v = json::parse(p);
    ASSERT_TRUE(v.has_value()) << p;
    ASSERT_TRUE(v->is_object());
    ASSERT_FALSE(v->members.empty());
    EXPECT_EQ(v->members.front().key, "zeta");  // written order, not sorted
    EXPECT_EQ(v->find("msg")->text, "timeout talking to db");
    ++units;
  }
  EXPECT_EQ(units, 3);  // i = 4, 13, 22; the nested "tags" arrays are not units of their own
}

TEST(RetrieveQueryTest, JsonWithoutRecordArraysAndBrokenJsonAreNeverLineSplit) {
  std::string no_records = "{\n  \"a\": {\n    \"b\": \"needle\"\n  },\n  \"c\": [1, 2, 3]\n}";
  EXPECT_EQ(decompose(no_records).kind, UnitKind::kNone);
  EXPECT_EQ(narrow_to_query(no_records, "needle"), no_records);
  std::string truncated = orders_pretty(30);
  truncated.resize(truncated.size() / 2);
  EXPECT_EQ(decompose(truncated).kind, UnitKind::kNone);
  EXPECT_EQ(narrow_to_query(truncated, "unfulfilled"), truncated);
}

TEST(RetrieveQueryTest, NdjsonLinesAreWholeRecords) {
  std::string original;
  for (int i = 0; i < 50; ++i) {
    original += R"({"ts":"2026-01-01T00:00:)" + std::to_string(10 + i) + R"(Z","level":")" +
                (i == 33 ? "error" : "info") + R"(","msg":"request )" + std::to_string(i) + "\"}\n";
  }
  Decomposition d = decompose(original);
  ASSERT_EQ(d.kind, UnitKind::kNdjsonLines);
  std::string view = narrow_to_query(original, "error");
  for (const std::string& p : pieces(view)) {
    if (p == kGapSentinel) continue;
    EXPECT_TRUE(json::is_valid(p)) << p;
    EXPECT_NE(p.find("\"error\""), std::string::npos);
  }
}

TEST(RetrieveQueryTest, CsvRowsComeFromOriginalBytesWithHeaderOnce) {
  std::string original = "id,customer,region,status,note\n";
  for (int i = 0; i < 60; ++i) {
    original += "r" + std::to_string(i) + ",customer-" + std::to_string(i) + ",emea," +
                (i % 17 == 5 ? "FAILED" : "ok") + ",";
    original += i == 22 ? "\"multi\nline, FAILED-adjacent note\"" : "plain";
    original += "\r\n";
  }
  Decomposition d = decompose(original);
  ASSERT_EQ(d.kind, UnitKind::kTableRows);
  EXPECT_EQ(d.prelude, "id,customer,region,status,note");
  std::string view = narrow_to_query(original, "FAILED");
  ASSERT_NE(view, original);
  ASSERT_TRUE(view.starts_with(d.prelude + "\n"));
  EXPECT_EQ(view.find("id,customer", 1), std::string::npos);  // header shown once
  std::string body = view.substr(d.prelude.size() + 1);
  int rows = 0;
  for (const std::string& p : pieces(body)) {
    if (p == kGapSentinel) continue;
    EXPECT_NE(original.find(p), std::string::npos) << "not sliced from the original: " << p;
    // Each unit re-parses as one record with the header's column count.
    std::optional<compress::Table> t = compress::parse_table(d.prelude + "\n" + p + "\n" + p);
    ASSERT_TRUE(t.has_value()) << p;
    EXPECT_EQ(t->rows.back().size(), 5u);
    ++rows;
  }
  EXPECT_EQ(rows, 4);  // i = 5, 22 (with its quoted multi-line note), 39, 56
}

TEST(RetrieveQueryTest, GutteredJsonIsDecomposedFromItsBodyNeverLineSplit) {
  // A Read tool's numbered listing of a pretty-printed file: line views would be fragments.
  std::string body = orders_pretty(30);
  std::string listing;
  int n = 1;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t nl = body.find('\n', pos);
    listing += std::to_string(n++) + "\t" + body.substr(pos, nl - pos) + "\n";
    pos = nl + 1;
  }
  Decomposition d = decompose(listing);
  ASSERT_EQ(d.kind, UnitKind::kJsonRecords);
  std::string view = narrow_to_query(listing, "unfulfilled");
  int records = 0;
  for (const std::string& p : pieces(view)) {
    if (p == kGapSentinel) continue;
    std::optional<json::Value> v = json::parse(p);
    ASSERT_TRUE(v.has_value()) << p;
    EXPECT_EQ(v->find("id")->text, "ord-1013");
    ++records;
  }
  EXPECT_EQ(records, 1);
}

TEST(RetrieveQueryTest, TsvAndMarkdownTablesShowTheirHeaderOnce) {
  std::string tsv = "host\tstate\tnote\n";
  for (int i = 0; i < 30; ++i) {
    tsv += "web-" + std::to_string(i) + "\t" + (i == 17 ? "degraded" : "healthy") + "\tok\n";
  }
  Decomposition t = decompose(tsv);
  ASSERT_EQ(t.kind, UnitKind::kTableRows);
  EXPECT_EQ(t.prelude, "host\tstate\tnote");
  EXPECT_EQ(
      narrow_to_query(tsv, "degraded"),
      "host\tstate\tnote\n\xE2\x80\xA6 [caveman: non-adjacent] \xE2\x80\xA6\n\nweb-17\tdegraded\tok"
      "\n\n\xE2\x80\xA6 [caveman: non-adjacent] \xE2\x80\xA6");

  std::string md = "| host | state |\n| ---- | ----- |\n";
  for (int i = 0; i < 30; ++i) {
    md += "| web-" + std::to_string(i) + " | " + (i == 0 ? "degraded" : "healthy") + " |\n";
  }
  Decomposition m = decompose(md);
  ASSERT_EQ(m.kind, UnitKind::kTableRows);
  EXPECT_EQ(m.prelude, "| host | state |\n| ---- | ----- |");
  // The first row is unit 0: no sentinel before it.
  EXPECT_EQ(narrow_to_query(md, "degraded"),
            "| host | state |\n| ---- | ----- |\n| web-0 | degraded |\n\n\xE2\x80\xA6 [caveman: "
            "non-adjacent] \xE2\x80\xA6");
}

// Every gap between shown units carries the sentinel, and units shown as adjacent are
// adjacent in the original (only whitespace between their byte spans).
TEST(RetrieveQueryTest, SentinelAtEveryGapVerifiedAgainstOriginalOffsets) {
  std::string original;
  for (int i = 0; i < 120; ++i) {
    std::string level = (i % 11 == 3 || i % 11 == 4) ? "ERROR" : "INFO";
    original += "2026-01-01T00:01:" + std::to_string(10 + i % 50) + "Z " + level + " worker=w" +
                std::to_string(i % 3) + " step=" + std::to_string(i) + "\n";
  }
  for (std::string query : {"error", "worker w1 error", "step 7", "info w2"}) {
    Decomposition d = decompose(original);
    ASSERT_EQ(d.kind, UnitKind::kSections);
    std::vector<std::size_t> sel = select_units(d, query);
    ASSERT_FALSE(sel.empty());
    ASSERT_LE(sel.size(), kMaxUnits);
    std::string view = render_view(d, sel);
    std::vector<std::string> parts = pieces(view);
    std::size_t k = 0;
    std::size_t prev_end = kNoOffset;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      if (parts[p] == kGapSentinel) {
        EXPECT_FALSE(p > 0 && parts[p - 1] == kGapSentinel) << "two sentinels in a row";
        continue;
      }
      ASSERT_LT(k, sel.size());
      const Unit& u = d.units[sel[k]];
      ASSERT_EQ(parts[p], u.text);
      ASSERT_EQ(original.substr(u.begin, u.end - u.begin), u.text);
      if (prev_end != kNoOffset) {
        std::string between = original.substr(prev_end, u.begin - prev_end);
        bool adjacent = between.find_first_not_of(" \t\r\n") == std::string::npos;
        bool gap_marked = p > 0 && parts[p - 1] == kGapSentinel;
        EXPECT_NE(adjacent, gap_marked) << "query " << query << " unit " << sel[k];
      } else {
        EXPECT_EQ(sel.front() != 0, p > 0 && parts[p - 1] == kGapSentinel);
      }
      prev_end = u.end;
      ++k;
    }
    EXPECT_EQ(k, sel.size());
    bool trailing = parts.back() == kGapSentinel;
    EXPECT_EQ(trailing, sel.back() + 1 != d.units.size());
  }
}

TEST(RetrieveQueryTest, ViewIsNeverLargerThanOriginal) {
  std::vector<std::string> originals = {orders_pretty(3), orders_pretty(50),
                                        "alpha beta\n\ngamma delta\n\nalpha",
                                        "a,b\n1,alpha\n2,beta\n", "x needle\ny needle\nz needle\n"};
  for (const std::string& o : originals) {
    for (std::string q : {"alpha", "needle", "unfulfilled", "customer-7 fulfilled", "zzz", "ord"}) {
      std::string v = narrow_to_query(o, q);
      EXPECT_LE(v.size(), o.size());
      if (v.size() == o.size()) EXPECT_EQ(v, o);
    }
  }
}

TEST(RetrieveQueryTest, AtMostTwentyUnitsBestFirstThenOriginalOrder) {
  std::string original;
  for (int i = 0; i < 200; ++i) {
    original += "line " + std::to_string(i) + (i % 5 == 0 ? " match match" : " match") +
                " filler words here\n";
  }
  Decomposition d = decompose(original);
  std::vector<std::size_t> sel = select_units(d, "match");
  ASSERT_EQ(sel.size(), kMaxUnits);
  // The 40 double-match lines outscore the rest; ties resolve by index: the first 20 of them.
  for (std::size_t k = 0; k < sel.size(); ++k) EXPECT_EQ(sel[k], k * 5);
  EXPECT_EQ(select_units(d, "match"), sel);  // deterministic
}

TEST(RetrieveQueryTest, TenKilobyteQueryWorks) {
  std::string original = orders_pretty(60);
  std::string query;
  while (query.size() < 10 * 1024) query += "unfulfilled ord-1013 customer status total ";
  std::string view = narrow_to_query(original, query);
  EXPECT_LE(view.size(), original.size());
  EXPECT_NE(view.find("ord-1013"), std::string::npos);
}

TEST(RetrieveQueryTest, NoScoringUnitReturnsOriginal) {
  std::string original = orders_pretty(20);
  EXPECT_EQ(narrow_to_query(original, "kubernetes"), original);
}

class EngineRetrieveQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<ccr::Store>> s = ccr::open_store(std::string(ccr::kMemoryPath));
    ASSERT_OK(s);
    store_ = std::shared_ptr<ccr::Store>(std::move(s).value());
  }
  std::shared_ptr<ccr::Store> store_;
};

TEST_F(EngineRetrieveQueryTest, UnknownHandleIsCaveUnknownHandle) {
  Engine engine(store_);
  Result<std::string> r = engine.retrieve_query("ccr_00000000000000000000000000000000", "x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_unknown_handle");
}

TEST_F(EngineRetrieveQueryTest, BlobAndTypedObjectIdsResolve) {
  Engine engine(store_);
  std::string original = orders_pretty(40);
  ccr::Record rec;
  rec.content_type = "json";
  rec.compressor = "json";
  rec.original = original;
  Result<std::string> h = store_->put(rec);
  ASSERT_OK(h);
  Result<std::string> blob = engine.retrieve_query(h.value(), "");
  ASSERT_OK(blob);
  EXPECT_EQ(blob.value(), original);
  Result<std::string> narrowed = engine.retrieve_query(h.value(), "unfulfilled");
  ASSERT_OK(narrowed);
  EXPECT_NE(narrowed.value().find("ord-1013"), std::string::npos);
  EXPECT_LT(narrowed.value().size(), original.size());

  ccr::TypedObject obj;
  obj.type = "CommandResult";
  obj.session_id = "s1";
  obj.data = original;
  Result<ccr::TypedObject> put = store_->put_object(obj);
  ASSERT_OK(put);
  Result<std::string> typed = engine.retrieve_query(put->object_id, "unfulfilled");
  ASSERT_OK(typed);
  EXPECT_EQ(typed.value(), narrowed.value());
}

}  // namespace
}  // namespace caveman::recovery
