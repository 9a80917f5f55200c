// Large pages through the engine exactly as take_snapshot() asks for them (forced a11y, a
// token budget, `expand:<uid>` for an expansion): the view over the budget is an outline
// whose markers say what they hide and which uid shows it, never a pass-through.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/engine.h"

namespace caveman::browse {
namespace {

std::string q(const std::string& s) { return "\"" + s + "\""; }

struct Builder {
  std::string nodes;
  int next = 1;

  // Adds a node; returns its id (also its backendDOMNodeId).
  int add(const std::string& role, const std::string& name, const std::vector<int>& kids, int level = 0) {
    int id = next++;
    if (!nodes.empty()) nodes += ",";
    nodes += "{\"nodeId\":" + q(std::to_string(id)) + ",\"ignored\":false,\"role\":{\"type\":\"role\",\"value\":" +
             q(role) + "}";
    if (!name.empty()) nodes += ",\"name\":{\"type\":\"computedString\",\"value\":" + q(name) + "}";
    if (level > 0) nodes += ",\"properties\":[{\"name\":\"level\",\"value\":{\"type\":\"integer\",\"value\":" +
                            std::to_string(level) + "}}]";
    nodes += ",\"childIds\":[";
    for (std::size_t k = 0; k < kids.size(); ++k) nodes += (k ? "," : "") + q(std::to_string(kids[k]));
    nodes += "],\"backendDOMNodeId\":" + std::to_string(id) + "}";
    return id;
  }
  int text(const std::string& s) { return add("StaticText", s, {}); }
  int para(const std::string& s) { return add("paragraph", "", {text(s)}); }
  std::string json() const { return "{\"nodes\":[" + nodes + "]}"; }
};

std::string base36(int n) {
  std::string out;
  do {
    out.insert(out.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36]);
    n /= 36;
  } while (n > 0);
  return out;
}

// main > h2 Alpha, 40 long paragraphs, h2 Beta, a 50-row table, a 30-item list, h2 Gamma, a form.
struct Doc {
  std::string json;
  int alpha = 0, table = 0, list = 0;
};

Doc make_doc() {
  Builder b;
  Doc d;
  std::vector<int> main_kids;
  d.alpha = b.add("heading", "Alpha", {}, 2);
  main_kids.push_back(d.alpha);
  for (int i = 0; i < 40; ++i) {
    main_kids.push_back(b.para("Alpha paragraph " + std::to_string(i) +
                               " explains the option set in enough words to weigh on the budget"));
  }
  main_kids.push_back(b.add("heading", "Beta", {}, 2));
  std::vector<int> rows;
  for (int r = 0; r < 50; ++r) {
    int c1 = b.add("cell", "order " + std::to_string(1000 + r), {});
    int c2 = b.add("cell", r == 42 ? "refunded" : "paid", {});
    rows.push_back(b.add("row", "", {c1, c2}));
  }
  d.table = b.add("table", "Orders", rows);
  main_kids.push_back(d.table);
  std::vector<int> items;
  for (int i = 0; i < 30; ++i) items.push_back(b.add("listitem", "", {b.add("link", "topic " + std::to_string(i), {})}));
  main_kids.push_back(b.add("heading", "Gamma", {}, 2));
  main_kids.push_back(b.para("Gamma opens with a short note."));
  d.list = b.add("list", "", items);
  main_kids.push_back(d.list);
  main_kids.push_back(b.add("form", "Search", {b.add("textbox", "Find", {}), b.add("button", "Go", {})}));
  int main = b.add("main", "", main_kids);
  // The page comes last in the array but is nobody's child: it is the root.
  b.add("RootWebArea", "Reference", {main});
  d.json = b.json();
  return d;
}

CompressResult snap(const std::string& json, const std::string& query, std::int64_t budget) {
  static const auto engine =
      std::make_shared<Engine>(std::shared_ptr<ccr::Store>(ccr::open_store(std::string(ccr::kMemoryPath)).value()));
  Options o;
  o.mode = "compress";
  o.type = "a11y";
  o.query = query;
  o.budget_tokens = budget;
  return engine->compress(json, o);
}

const tokens::Counter& counter() { return tokens::default_counter(); }

TEST(LargePageTest, OverTheBudgetTheViewIsAnOutlineWithFactBearingMarkers) {
  Doc d = make_doc();
  CompressResult full = snap(d.json, "", 0);
  ASSERT_FALSE(full.passed_through());
  CompressResult r = snap(d.json, "", 400);
  ASSERT_FALSE(r.passed_through());
  EXPECT_LE(static_cast<std::int64_t>(counter().count(r.output)), 400) << r.output;
  EXPECT_LT(r.tokens_after, full.tokens_after / 2);
  for (const char* want : {"heading \"Alpha\"", "heading \"Beta\"", "heading \"Gamma\"", "table \"Orders\"",
                           "order 1000", "47 more rows (50 in all)", "27 more items (30 in all)",
                           "textbox \"Find\"", "button \"Go\""}) {
    EXPECT_NE(r.output.find(want), std::string::npos) << want << "\n" << r.output;
  }
  // The hidden paragraphs under Alpha: counted, and the heading's uid shows them.
  EXPECT_NE(r.output.find("paragraphs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("; expand u" + base36(d.alpha)), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Alpha paragraph 39"), std::string::npos) << r.output;
}

TEST(LargePageTest, UnderTheBudgetTheViewIsUnchanged) {
  Doc d = make_doc();
  EXPECT_EQ(snap(d.json, "", 1000000).output, snap(d.json, "", 0).output);
}

TEST(LargePageTest, ExpandingAMarkersUidShowsThatSectionWhole) {
  Doc d = make_doc();
  CompressResult r = snap(d.json, "expand:u" + base36(d.alpha), 2000);
  ASSERT_FALSE(r.passed_through());
  EXPECT_NE(r.output.find("Alpha paragraph 39"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Beta"), std::string::npos) << r.output;
  CompressResult t = snap(d.json, "expand:u" + base36(d.table), 2000);
  EXPECT_NE(t.output.find("order 1049"), std::string::npos) << t.output;
  EXPECT_EQ(t.output.find("more rows"), std::string::npos) << t.output;
}

TEST(LargePageTest, AnExpansionStillOverTheBudgetIsCutWithAMarker) {
  Doc d = make_doc();
  CompressResult t = snap(d.json, "expand:u" + base36(d.table), 150);
  ASSERT_FALSE(t.passed_through());
  EXPECT_LE(static_cast<std::int64_t>(counter().count(t.output)), 150) << t.output;
  EXPECT_NE(t.output.find("order 1000"), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("(over the token budget); query or expand a section"), std::string::npos) << t.output;
}

TEST(LargePageTest, AFocusedQueryFindsAHiddenRow) {
  Doc d = make_doc();
  CompressResult r = snap(d.json, "refunded", 400);
  EXPECT_NE(r.output.find("order 1042"), std::string::npos) << r.output;
}

TEST(LargePageTest, AnUnknownExpansionUidIsANote) {
  Doc d = make_doc();
  CompressResult r = snap(d.json, "expand:uzzzz", 400);
  EXPECT_NE(r.output.find("note \"no node uzzzz on this page\""), std::string::npos) << r.output;
}

// Chrome lists some InlineTextBox nodes twice on large pages; that used to decline the tree.
TEST(LargePageTest, RepeatedNodeEntriesKeepTheFirst) {
  std::string json =
      "{\"nodes\":[{\"nodeId\":\"1\",\"role\":{\"value\":\"RootWebArea\"},\"name\":{\"value\":\"P\"},"
      "\"childIds\":[\"2\"]},{\"nodeId\":\"2\",\"role\":{\"value\":\"button\"},\"name\":{\"value\":\"Go\"},"
      "\"backendDOMNodeId\":11},{\"nodeId\":\"2\",\"role\":{\"value\":\"button\"},\"name\":{\"value\":\"Go\"},"
      "\"backendDOMNodeId\":11}]}";
  CompressResult r = snap(json, "", 25000);
  ASSERT_FALSE(r.passed_through());
  EXPECT_EQ(r.output, "page \"P\"\n  [ub] button \"Go\"");
}

// A tree with no skeleton at all (a 5,000-deep chain) still answers: the page and a marker.
TEST(LargePageTest, NoSkeletonStillAnswers) {
  Builder b;
  int last = b.text("leaf words here");
  for (int i = 0; i < 5000; ++i) last = b.add("group", "g", {last});
  b.add("RootWebArea", "Deep", {last});
  CompressResult r = snap(b.json(), "", 2000);
  ASSERT_FALSE(r.passed_through());
  EXPECT_NE(r.output.find("… hidden:"), std::string::npos) << r.output.substr(0, 500);
}

}  // namespace
}  // namespace caveman::browse
