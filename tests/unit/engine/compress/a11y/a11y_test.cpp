#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "caveman/engine.h"
#include "compress/a11y/a11y_tree.h"
#include "compress/compressors.h"
#include "support/corpus_skip.h"
#include "support/test_support.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> run(std::string_view in, std::string_view query = "") {
  static const auto c = make_a11y_compressor();
  return c->compress(in, query);
}

struct N {
  std::string id;
  std::string role;
  std::string name;
  std::vector<std::string> kids;
  int backend = 0;
  std::string extra;  // raw JSON members appended, e.g. "\"ignored\":true"
};

std::string q(const std::string& s) { return "\"" + s + "\""; }

std::string tree(const std::vector<N>& nodes) {
  std::string out = "{\"nodes\":[";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const N& n = nodes[i];
    if (i > 0) out += ",";
    bool ignored = n.extra == "\"ignored\":true";
    out += "{\"nodeId\":" + q(n.id) + ",\"ignored\":" + (ignored ? "true" : "false");
    out += ",\"role\":{\"type\":\"role\",\"value\":" + q(n.role) + "}";
    if (!n.name.empty()) out += ",\"name\":{\"type\":\"computedString\",\"value\":" + q(n.name) + "}";
    out += ",\"childIds\":[";
    for (std::size_t k = 0; k < n.kids.size(); ++k) out += (k ? "," : "") + q(n.kids[k]);
    out += "]";
    if (n.backend > 0) out += ",\"backendDOMNodeId\":" + std::to_string(n.backend);
    if (!n.extra.empty() && !ignored) out += "," + n.extra;
    out += "}";
  }
  return out + "]}";
}

std::string prop(const std::string& name, const std::string& json_value) {
  return "{\"name\":" + q(name) + ",\"value\":{\"type\":\"x\",\"value\":" + json_value + "}}";
}

std::string props(const std::vector<std::string>& ps) {
  std::string out = "\"properties\":[";
  for (std::size_t i = 0; i < ps.size(); ++i) out += (i ? "," : "") + ps[i];
  return out + "]";
}

std::string form_page() {
  return tree({
      {"1", "RootWebArea", "Shop", {"2"}, 1, props({prop("focused", "true")})},
      {"2", "generic", "", {"3", "5", "6", "7", "8", "9", "10", "13"}, 2},
      {"3", "heading", "Cart", {"4"}, 3},
      {"4", "StaticText", "Cart", {"4b"}, 4},
      {"4b", "InlineTextBox", "Cart", {}, 0},
      {"5", "button", "Save", {}, 42},
      {"6", "button", "Delete", {}, 43, props({prop("disabled", "true")})},
      {"7", "checkbox", "Gift wrap", {}, 44, props({prop("checked", "\"false\"")})},
      {"8", "textbox", "Note", {}, 45,
       props({prop("editable", "\"plaintext\"")}) + ",\"value\":{\"type\":\"string\",\"value\":\"  hi  there \"}"},
      {"9", "combobox", "Size", {}, 46, props({prop("expanded", "true")})},
      {"10", "paragraph", "", {"11", "12", "12b", "12c"}, 10},
      {"11", "StaticText", "Hello ", {}, 11},
      {"12", "emphasis", "", {"12a"}, 12},
      {"12a", "StaticText", "big", {}, 0},
      {"12b", "StaticText", " world", {}, 0},
      {"12c", "StaticText", "Say \\\"hi\\\"", {}, 0, "\"ignored\":true"},
      {"13", "link", "Docs", {"14"}, 50, props({prop("focusable", "true")}) + ",\"frameId\":\"F1\""},
      {"14", "StaticText", "Docs", {}, 0},
  });
}

TEST(A11yCompressorTest, RendersTheOutline) {
  auto out = run(form_page());
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->method, "a11y");
  EXPECT_EQ(out->bytes,
            "page \"Shop\" {focused}\n"
            "  heading \"Cart\"\n"
            "  [u16] button \"Save\"\n"
            "  [u17] button \"Delete\" {disabled}\n"
            "  [u18] checkbox \"Gift wrap\" {unchecked}\n"
            "  [u19] textbox \"Note\" = \"hi there\" {editable}\n"
            "  [u1a] combobox \"Size\" {expanded}\n"
            "  paragraph\n"
            "    text \"Hello big world\"\n"
            "  [u1e] link \"Docs\"");
  EXPECT_EQ(out->recovery_metadata,
            "{\"uids\":{\"u16\":{\"backendDOMNodeId\":42,\"nodeId\":\"5\"},"
            "\"u17\":{\"backendDOMNodeId\":43,\"nodeId\":\"6\"},"
            "\"u18\":{\"backendDOMNodeId\":44,\"nodeId\":\"7\"},"
            "\"u19\":{\"backendDOMNodeId\":45,\"nodeId\":\"8\"},"
            "\"u1a\":{\"backendDOMNodeId\":46,\"nodeId\":\"9\"},"
            "\"u1e\":{\"backendDOMNodeId\":50,\"frameId\":\"F1\",\"nodeId\":\"13\"}}}");
}

TEST(A11yCompressorTest, QuotesLikeGoAndNormalisesValues) {
  std::string in = tree({
      {"1", "RootWebArea", "P", {"2", "3", "4"}, 0},
      {"2", "button", "Say \\\"hi\\\" \\\\ now\\u0007", {}, 7},
      {"3", "slider", "Vol", {}, 8, "\"value\":{\"type\":\"number\",\"value\":3.50}"},
      {"4", "StaticText", "line one\\nline  two", {}, 0},
  });
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes,
            "page \"P\"\n"
            "  [u7] button \"Say \\\"hi\\\" \\\\ now\\a\"\n"
            "  [u8] slider \"Vol\" = \"3.5\"\n"
            "  text \"line one\"\n"
            "  text \"line two\"");
}

TEST(A11yCompressorTest, UidRepeatsAndUnknownRolesGetHandles) {
  std::string in = tree({
      {"1", "RootWebArea", "P", {"2", "3", "4", "5"}, 9},
      {"2", "button", "A", {}, 5},
      {"3", "button", "B", {}, 5},
      {"4", "customwidget", "C", {}, 6},
      {"5", "generic", "", {}, 7, props({prop("clickable", "true")})},
  });
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes,
            "page \"P\"\n  [u5] button \"A\"\n  [u5_2] button \"B\"\n  [u6] customwidget \"C\"\n"
            "  [u7] generic");
}

TEST(A11yCompressorTest, RowNamedByItsCellsShowsTheCells) {
  std::string in = tree({
      {"1", "RootWebArea", "T", {"2"}, 0},
      {"2", "table", "Orders", {"3"}, 0},
      {"3", "row", "1000 Shipped View", {"4", "5", "6"}, 0},
      {"4", "cell", "1000", {"4a"}, 0},
      {"4a", "StaticText", "1000", {}, 0},
      {"5", "cell", "Shipped", {}, 0},
      {"6", "cell", "View", {"7"}, 0},
      {"7", "link", "View", {"8"}, 70},
      {"8", "StaticText", "View", {}, 0},
  });
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes,
            "page \"T\"\n  table \"Orders\"\n    row\n      cell \"1000\"\n      cell \"Shipped\"\n"
            "      cell\n        [u1y] link \"View\"");
}

std::string orders_table() {
  std::vector<N> nodes = {{"1", "RootWebArea", "Orders", {"2", "h"}, 0},
                          {"h", "heading", "Recent orders", {}, 0},
                          {"2", "table", "", {}, 0}};
  for (int i = 0; i < 20; ++i) {
    std::string id = std::to_string(100 + i);
    std::string status = i == 7 ? "Failed" : "Shipped";
    nodes[2].kids.push_back("r" + id);
    nodes.push_back({"r" + id, "row", id + " " + status + " Refund", {"c" + id, "s" + id, "b" + id}, 0});
    nodes.push_back({"c" + id, "cell", id, {}, 0});
    nodes.push_back({"s" + id, "cell", status, {}, 0});
    nodes.push_back({"b" + id, "button", "Refund", {}, 1000 + i});
  }
  return tree(nodes);
}

TEST(A11yCompressorTest, QueryFocusKeepsMatchesAncestorsAndWholeRows) {
  auto out = run(orders_table(), "failed refund");
  ASSERT_TRUE(out.has_value());
  // Only the row matching every term qualifies; its whole subtree comes along.
  EXPECT_EQ(out->bytes,
            "page \"Orders\"\n  table\n    row\n      cell \"107\"\n      cell \"Failed\"\n"
            "      [urz] button \"Refund\"");
  EXPECT_EQ(out->recovery_metadata, "{\"uids\":{\"urz\":{\"backendDOMNodeId\":1007,\"nodeId\":\"b107\"}}}");
  auto partial = run(orders_table(), "refund");
  ASSERT_TRUE(partial.has_value());
  std::size_t buttons = 0;
  for (std::size_t p = 0; (p = partial->bytes.find("button", p)) != std::string::npos; ++p) ++buttons;
  EXPECT_EQ(buttons, 6u);  // 12 selected records: rows 100–105 and their buttons
}

TEST(A11yCompressorTest, UnnamedRowsAreScoredOnTheirCells) {
  // Chrome often leaves rows unnamed: "refund 103" must find the row holding both words.
  std::vector<N> nodes = {{"1", "RootWebArea", "Orders", {"2"}, 0}, {"2", "table", "", {}, 0}};
  for (int i = 0; i < 8; ++i) {
    std::string id = std::to_string(100 + i);
    nodes[1].kids.push_back("r" + id);
    nodes.push_back({"r" + id, "row", "", {"c" + id, "b" + id}, 0});
    nodes.push_back({"c" + id, "cell", id, {}, 0});
    nodes.push_back({"b" + id, "button", "Refund", {}, 2000 + i});
  }
  auto out = run(tree(nodes), "refund 103");
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes, "page \"Orders\"\n  table\n    row\n      cell \"103\"\n      [u1jn] button \"Refund\"");
}

TEST(A11yCompressorTest, QueryWithoutMatchShowsThePageAndANote) {
  auto out = run(orders_table(), "zebra");
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes, "page \"Orders\"\n  note \"no accessible match\"");
  EXPECT_EQ(out->recovery_metadata, "{\"uids\":{}}");
  // Punctuation-only query = no query.
  EXPECT_EQ(run(orders_table(), " ,; ")->bytes, run(orders_table())->bytes);
}

TEST(A11yCompressorTest, CyclesUnknownChildrenAndOrphans) {
  std::string in = tree({
      {"1", "RootWebArea", "P", {"2", "missing"}, 0},
      {"2", "group", "G", {"3"}, 0},
      {"3", "group", "H", {"2"}, 0},  // cycle back to 2
      {"8", "button", "Orphan", {"9"}, 3},
      {"9", "button", "Child", {"8"}, 4},  // 8 ↔ 9: nobody is a root
  });
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes,
            "page \"P\"\n  group \"G\"\n    group \"H\"\n[u3] button \"Orphan\"\n  [u4] button \"Child\"");
}

TEST(A11yCompressorTest, PathologicalDepthDeclinesInsteadOfGrowing) {
  // A 5,000-deep chain: the indented outline would be quadratic in depth, far larger than
  // the input, so rendering stops at the input's size and the compressor declines.
  std::vector<N> chain;
  for (int i = 0; i < 5000; ++i) {
    chain.push_back({std::to_string(i), "group", "g", {std::to_string(i + 1)}, 0});
  }
  chain.back().kids.clear();
  EXPECT_FALSE(run(tree(chain)).has_value());
}

TEST(A11yCompressorTest, BareArrayInputIsAccepted) {
  std::string in = tree({{"1", "RootWebArea", "P", {"2"}, 0}, {"2", "button", "Go", {}, 11}});
  std::string array = in.substr(std::string("{\"nodes\":").size());
  array.pop_back();
  auto out = run(array);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes, "page \"P\"\n  [ub] button \"Go\"");
}

TEST(A11yCompressorTest, DeclinesInvalidTrees) {
  EXPECT_FALSE(run("").has_value());
  EXPECT_FALSE(run("{\"nodes\":[{\"nodeId\":\"1\"").has_value());  // malformed
  EXPECT_FALSE(run("{\"nodes\":[]}").has_value());
  EXPECT_FALSE(run("[1,2]").has_value());
  EXPECT_FALSE(run("{\"other\":[]}").has_value());
  EXPECT_FALSE(run(tree({{"", "button", "A", {}, 1}})).has_value());
  EXPECT_FALSE(run(tree({{"1", "", "A", {}, 1}})).has_value());  // no role
  EXPECT_FALSE(run(tree({{"1", "button", "A", {}, 1, "\"ignored\":true"}})).has_value());
}

TEST(A11yCompressorTest, DeterministicAndIdempotent) {
  auto once = run(form_page());
  ASSERT_TRUE(once.has_value());
  EXPECT_EQ(run(form_page())->bytes, once->bytes);
  EXPECT_FALSE(run(once->bytes).has_value());  // the outline is not an AX tree
}

TEST(A11yCompressorTest, ForcedOnly) {
  std::string in = orders_table();
  EXPECT_EQ(detect(in), "json");
  Engine engine(nullptr);
  Options o;
  o.mode = "compress";
  o.external_recovery = true;
  EXPECT_NE(engine.compress(in, o).method, "a11y");
  o.type = "a11y";
  CompressResult r = engine.compress(in, o);
  EXPECT_EQ(r.method, "a11y");
  EXPECT_GT(r.ratio, 0.5);
}

TEST(A11yCompressorTest, CorpusAxTree) {
  for (const auto& f : corpus::corpus_manifest()) {
    if (f.name != "json-cdp-axtree-zlib-how.json") continue;
    std::string in = corpus::read_file(f.path);
    auto full = run(in);
    ASSERT_TRUE(full.has_value());
    EXPECT_TRUE(full->bytes.starts_with("page \"zlib Usage Example\""));
    EXPECT_NE(full->bytes.find("heading \"zlib Usage Example\""), std::string::npos);
    EXPECT_NE(full->bytes.find("Z_BUF_ERROR"), std::string::npos);
    EXPECT_LT(full->bytes.size() * 10, in.size());
    auto focused = run(in, "Z_BUF_ERROR");
    ASSERT_TRUE(focused.has_value());
    EXPECT_NE(focused->bytes.find("Z_BUF_ERROR"), std::string::npos);
    EXPECT_LT(focused->bytes.size() * 4, full->bytes.size());
    return;
  }
  CAVEMAN_CORPUS_MISSING() << "corpus not available";
}

// A native <select>: Chrome nests its options in a bare MenuListPopup. The popup adds nothing
// (no line, no level) and the options get no uids (they are chosen through the combobox);
// options of an ARIA listbox are clicked, so they keep theirs.
TEST(A11yCompressorTest, NativeSelectOptionsSitUnderTheComboboxWithoutUids) {
  std::string in = tree({
      {"1", "RootWebArea", "Shop", {"2", "6"}, 1},
      {"2", "combobox", "Plan", {"3"}, 46, "\"value\":{\"type\":\"string\",\"value\":\"Free\"}"},
      {"3", "MenuListPopup", "", {"4", "5"}, 47},
      {"4", "option", "Free", {}, 48, props({prop("selected", "true")})},
      {"5", "option", "Pro", {}, 49},
      {"6", "listbox", "Colour", {"7"}, 60},
      {"7", "option", "Red", {}, 61},
  });
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("  [u1a] combobox \"Plan\" = \"Free\"\n    option \"Free\" {selected}\n    option \"Pro\"\n"),
            std::string::npos)
      << out->bytes;
  EXPECT_EQ(out->bytes.find("enulistpopup"), std::string::npos) << out->bytes;
  EXPECT_EQ(out->bytes.find("[u1c]"), std::string::npos) << out->bytes;  // option Free (48)
  EXPECT_NE(out->bytes.find("[u1p] option \"Red\""), std::string::npos) << out->bytes;
}

// A query that matches a container (here the status role) shows the container's own text,
// not just an empty "status" line.
TEST(A11yCompressorTest, MatchedContainerShowsItsText) {
  std::string in = tree({
      {"1", "RootWebArea", "Checkout", {"2", "4", "5"}, 1},
      {"2", "heading", "Checkout", {"3"}, 2},
      {"3", "StaticText", "Checkout", {}, 3},
      {"4", "button", "Save order", {}, 42},
      {"5", "status", "", {"6"}, 50},
      {"6", "StaticText", "Saved order for ada@example.com", {}, 51},
  });
  auto out = run(in, "status");
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("status\n    text \"Saved order for ada@example.com\""), std::string::npos) << out->bytes;
  EXPECT_EQ(out->bytes.find("Save order\""), std::string::npos) << out->bytes;
}

}  // namespace
}  // namespace caveman::compress
