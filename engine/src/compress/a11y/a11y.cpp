// a11y — Chrome DevTools AX tree JSON → an indented outline, forced only
// (docs/spec/compressors.md#a11y).
//
// One line per meaningful node: `  [u2x] button "Refund" {disabled}`. Only actionable nodes
// get a uid (u + base-36 backendDOMNodeId); the uid → {backendDOMNodeId, frameId, nodeId}
// map of the uids shown is returned as recovery metadata, so a browser tool can act on a
// line. With a query, the view narrows to the best-matching records (≤ 12), their
// ancestors, and whole table rows / list items around them.
// Tighter than the original on purpose (caveman-browse's full view must not exceed
// Playwright's ARIA snapshot): text fragments are merged per parent, inline formatting is
// transparent, and a container's name is left out when its children already show it
// (a row named by its cells).
// With a budget (Request::budget_tokens > 0) a view over it becomes the outline of
// a11y_outline.h, and the query `expand:<uid>` asks for the section a marker names; the
// outline is cut at the budget as a last resort, so a large page never fails.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/tokens.h"
#include "compress/a11y/a11y_outline.h"
#include "compress/a11y/a11y_tree.h"
#include "compress/compressors.h"
#include "json/json.h"
#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

using a11y::Record;

constexpr std::string_view kExpandPrefix = "expand:";

constexpr std::size_t kMaxFocusRecords = 12;

bool is_interactive_role(std::string_view role) {
  static constexpr std::string_view kRoles[] = {
      "button", "checkbox", "combobox", "link", "menuitem", "menuitemcheckbox", "menuitemradio",
      "option", "radio", "searchbox", "slider", "spinbutton", "switch", "tab", "textbox",
      "treeitem"};
  return std::find(std::begin(kRoles), std::end(kRoles), role) != std::end(kRoles);
}

// Go's strconv.Quote: `"` and `\` escaped, C escapes for control characters, \x for bytes
// of invalid UTF-8, \u / \U for non-printable code points, printable Unicode literal.
std::string go_quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    text::Decoded d = text::decode_utf8(s, i);
    char32_t cp = d.cp;
    if (!d.valid) {
      auto b = static_cast<unsigned char>(s[i]);
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
      i += 1;
      continue;
    }
    switch (cp) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default: {
        auto cat = text::general_category(cp);
        bool printable = cp == ' ' || (cat >= text::GeneralCategory::kLu &&
                                       cat <= text::GeneralCategory::kSo &&
                                       cat != text::GeneralCategory::kZs);
        if (printable) {
          out.append(s.substr(i, d.len));
        } else if (cp < 0x80) {
          out += "\\x";
          out.push_back(kHex[cp >> 4]);
          out.push_back(kHex[cp & 0xF]);
        } else {
          int digits = cp > 0xFFFF ? 8 : 4;
          out += cp > 0xFFFF ? "\\U" : "\\u";
          for (int k = digits - 1; k >= 0; --k) out.push_back(kHex[(cp >> (4 * k)) & 0xF]);
        }
      }
    }
    i += d.len;
  }
  out.push_back('"');
  return out;
}

std::string strip_space(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    text::Decoded d = text::decode_utf8(s, i);
    if (!(d.valid && text::is_white_space(d.cp))) out.append(s.substr(i, d.len));
    i += d.len;
  }
  return out;
}

// Which records' names are left out: non-interactive containers whose kept children
// already show exactly that text (whitespace ignored). Shown texts are capped, so deep
// trees cost O(records × cap) at most; longer names are simply never left out.
std::vector<bool> redundant_names(const std::vector<Record>& records, const std::vector<bool>& kept) {
  constexpr std::size_t kCap = 2048;
  std::vector<bool> omit(records.size(), false);
  std::vector<std::string> shown(records.size());
  for (std::size_t i = records.size(); i-- > 0;) {
    if (!kept[i]) continue;
    const Record& r = records[i];
    std::string children;
    bool has_child = false;
    for (int c : r.children) {
      if (!kept[static_cast<std::size_t>(c)]) continue;
      has_child = true;
      if (children.size() <= kCap) children += shown[static_cast<std::size_t>(c)];
    }
    if (children.size() > kCap) children.resize(kCap + 1);
    std::string own = strip_space(r.name);
    if (!r.is_text && has_child && !own.empty() && own.size() <= kCap && r.role != "page" &&
        !is_interactive_role(r.role) && own == children) {
      omit[i] = true;
    }
    shown[i] = (own.empty() || omit[i]) ? std::move(children) : std::move(own);
    if (shown[i].size() > kCap) shown[i].resize(kCap + 1);
    for (int c : r.children) std::string().swap(shown[static_cast<std::size_t>(c)]);
  }
  return omit;
}

// nullopt once the outline outgrows `budget` bytes (it could never be smaller than the
// input then; pathological depth makes indentation quadratic).
// Depth of a line under record `parent`: one below its nearest kept ancestor.
int depth_under(const std::vector<Record>& records, const std::vector<bool>& kept, const std::vector<int>& depth,
                int parent) {
  for (int a = parent; a >= 0; a = records[static_cast<std::size_t>(a)].parent) {
    if (kept[static_cast<std::size_t>(a)]) return depth[static_cast<std::size_t>(a)] + 1;
  }
  return 0;
}

std::optional<std::string> render(const std::vector<Record>& records, const std::vector<bool>& kept,
                                  std::size_t budget, const a11y::Markers& markers = {}) {
  std::vector<bool> omit = redundant_names(records, kept);
  std::vector<int> depth(records.size(), 0);
  std::string out;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!kept[i]) {
      auto m = markers.find(static_cast<int>(i));
      if (m == markers.end()) continue;
      if (!out.empty()) out.push_back('\n');
      out.append(static_cast<std::size_t>(2 * depth_under(records, kept, depth, records[i].parent)), ' ');
      out += m->second;
      continue;
    }
    const Record& r = records[i];
    int d = depth_under(records, kept, depth, r.parent);
    depth[i] = d;
    if (!out.empty()) out.push_back('\n');
    out.append(static_cast<std::size_t>(2 * d), ' ');
    if (!r.uid.empty()) out += "[" + r.uid + "] ";
    out += r.role;
    if (!r.name.empty() && !omit[i]) out += " " + go_quote(r.name);
    if (!r.value.empty() && r.value != r.name) out += " = " + go_quote(r.value);
    std::vector<std::string_view> labels = r.states.labels();
    if (!labels.empty()) {
      out += " {";
      for (std::size_t k = 0; k < labels.size(); ++k) {
        if (k > 0) out.push_back(',');
        out += labels[k];
      }
      out.push_back('}');
    }
    if (out.size() > budget) return std::nullopt;
  }
  return out;
}

std::vector<std::string> query_terms(std::string_view query) {
  std::vector<std::string> terms;
  std::string cur;
  std::string low = text::to_lower_utf8(query);
  for (std::size_t i = 0; i < low.size();) {
    text::Decoded d = text::decode_utf8(low, i);
    if (d.valid && (text::is_letter(d.cp) || text::is_number(d.cp))) {
      cur.append(low.substr(i, d.len));
    } else if (!cur.empty()) {
      terms.push_back(std::move(cur));
      cur.clear();
    }
    i += d.len;
  }
  if (!cur.empty()) terms.push_back(std::move(cur));
  return terms;
}

// Marks the records of the focused view; false when nothing matches.
bool focus(const std::vector<Record>& records, const std::vector<std::string>& terms,
           std::vector<bool>& kept) {
  constexpr std::size_t kItemTextCap = 8192;
  std::vector<std::string> hay(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    std::string h = r.role + " " + r.name + " " + r.value;
    for (std::string_view l : r.states.labels()) {
      h += " ";
      h += l;
    }
    hay[i] = text::to_lower_utf8(h);
  }
  // A table row or list item is scored on its whole subtree's text (Chrome often leaves
  // rows unnamed), so "refund 1003" finds the row holding both, and the view shows that
  // row whole anyway. Records are in pre-order: a subtree is a contiguous index range.
  std::vector<std::size_t> last(records.size());
  for (std::size_t i = records.size(); i-- > 0;) {
    last[i] = i;
    for (int c : records[i].children) last[i] = std::max(last[i], last[static_cast<std::size_t>(c)]);
  }
  std::vector<int> score(records.size(), 0);
  int best = 0;
  bool any_full = false;
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::string item;
    const std::string* h = &hay[i];
    if (records[i].role == "row" || records[i].role == "listitem") {
      for (std::size_t k = i; k <= last[i] && item.size() < kItemTextCap; ++k) {
        item += hay[k];
        item.push_back('\n');
      }
      h = &item;
    }
    for (const std::string& t : terms) {
      if (h->find(t) != std::string::npos) ++score[i];
    }
    best = std::max(best, score[i]);
    any_full = any_full || score[i] == static_cast<int>(terms.size());
  }
  if (best == 0) return false;
  std::vector<int> order;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (score[i] > 0 && (!any_full || score[i] == static_cast<int>(terms.size()))) {
      order.push_back(static_cast<int>(i));
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return score[static_cast<std::size_t>(a)] > score[static_cast<std::size_t>(b)];
  });
  if (order.size() > kMaxFocusRecords) order.resize(kMaxFocusRecords);
  for (int sel : order) {
    for (int a = sel; a >= 0; a = records[static_cast<std::size_t>(a)].parent) {
      kept[static_cast<std::size_t>(a)] = true;
    }
    // A matched container shows its own text (a status line, a paragraph, a cell's words).
    for (int c : records[static_cast<std::size_t>(sel)].children) {
      if (records[static_cast<std::size_t>(c)].is_text) kept[static_cast<std::size_t>(c)] = true;
    }
    for (int a = sel; a >= 0; a = records[static_cast<std::size_t>(a)].parent) {
      const std::string& role = records[static_cast<std::size_t>(a)].role;
      if (role == "row" || role == "listitem") {
        mark_subtree(records, a, kept);
        break;
      }
    }
  }
  return true;
}

// {"uids":{"<uid>":{"backendDOMNodeId":N,"frameId":"…","nodeId":"…"}}} for the uids shown,
// keys sorted (Go encoding/json map order).
std::string uid_metadata(const std::vector<a11y::AxNode>& nodes, const std::vector<Record>& records,
                         const std::vector<bool>& kept) {
  std::vector<std::pair<std::string, int>> uids;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (kept[i] && !records[i].uid.empty()) uids.emplace_back(records[i].uid, records[i].node);
  }
  std::sort(uids.begin(), uids.end());
  json::Value map = json::Value::object();
  for (const auto& [uid, node] : uids) {
    const a11y::AxNode& n = nodes[static_cast<std::size_t>(node)];
    json::Value entry = json::Value::object();
    entry.add("backendDOMNodeId", json::Value::number(std::to_string(n.backend_id)));
    if (!n.frame_id.empty()) entry.add("frameId", json::Value::string(n.frame_id));
    entry.add("nodeId", json::Value::string(n.node_id));
    map.add(uid, std::move(entry));
  }
  json::Value root = json::Value::object();
  root.add("uids", std::move(map));
  return json::to_compact(root);
}

// The view's last lines go, until it fits the budget; the marker says how many.
std::string cut_to_budget(std::string view, std::int64_t budget, const tokens::Counter& counter) {
  std::int64_t tokens = static_cast<std::int64_t>(counter.count(view));
  std::size_t keep = view.size();
  while (tokens > budget && keep > 0) {
    keep = static_cast<std::size_t>(static_cast<double>(keep) * static_cast<double>(budget) /
                                    static_cast<double>(tokens) * 0.95);
    keep = view.rfind('\n', keep);
    if (keep == std::string::npos) keep = 0;
    auto lines = std::count(view.begin() + static_cast<long>(keep), view.end(), '\n') + (keep == 0 ? 1 : 0);
    std::string head = view.substr(0, keep);
    head += std::string(head.empty() ? "" : "\n") + "… hidden: the last " + std::to_string(lines) +
            " lines (over the token budget); query or expand a section";
    tokens = static_cast<std::int64_t>(counter.count(head));
    if (tokens <= budget || keep == 0) return head;
  }
  return view;
}

class A11yCompressor final : public Compressor {
 public:
  explicit A11yCompressor(const tokens::Counter& counter) : counter_(&counter) {}

  std::string_view type() const override { return "a11y"; }

  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    return compress_with(input, Request{query, 0});
  }

  std::optional<CompressorOutput> compress_with(std::string_view input, const Request& request) const override {
    std::optional<std::vector<a11y::AxNode>> nodes = a11y::parse_ax_nodes(input);
    if (!nodes) return std::nullopt;
    std::vector<Record> records = a11y::build_records(*nodes);
    if (records.empty()) return std::nullopt;

    std::vector<bool> kept(records.size(), true);
    int expanded = -1;
    if (request.query.starts_with(kExpandPrefix)) {
      std::string uid = a11y::collapse_whitespace(request.query.substr(kExpandPrefix.size()));
      expanded = a11y::find_expansion(records, uid);
      std::fill(kept.begin(), kept.end(), false);
      if (expanded < 0) return no_match(input, *nodes, records, "no node " + uid + " on this page");
      a11y::keep_section(records, expanded, kept);
    } else if (std::vector<std::string> terms = query_terms(request.query); !terms.empty()) {
      std::fill(kept.begin(), kept.end(), false);
      if (!focus(records, terms, kept)) return no_match(input, *nodes, records, "no accessible match");
    }
    std::optional<std::string> out = render(records, kept, input.size());
    if (request.budget_tokens <= 0 ||
        (out && static_cast<std::int64_t>(counter_->count(*out)) <= request.budget_tokens)) {
      return finish(std::move(out), *nodes, records, kept);
    }
    return budgeted(input, *nodes, records, kept, expanded, request.budget_tokens);
  }

 private:
  // The most detailed outline level that fits, else the last one cut to the budget.
  std::optional<CompressorOutput> budgeted(std::string_view input, const std::vector<a11y::AxNode>& nodes,
                                           const std::vector<Record>& records, const std::vector<bool>& kept,
                                           int expanded, std::int64_t budget) const {
    std::optional<std::string> out;
    a11y::Outline o;
    for (int level = 0; level < a11y::kOutlineLevels; ++level) {
      o = a11y::outline(records, kept, level, expanded);
      out = render(records, o.kept, input.size(), o.markers);
      if (out && static_cast<std::int64_t>(counter_->count(*out)) <= budget) break;
    }
    if (out) out = cut_to_budget(std::move(*out), budget, *counter_);
    return finish(std::move(out), nodes, records, o.kept);
  }

  static std::optional<CompressorOutput> no_match(std::string_view input, const std::vector<a11y::AxNode>& nodes,
                                                  const std::vector<Record>& records, const std::string& note) {
    std::vector<bool> kept(records.size(), false);
    kept[0] = true;  // the first record (the page) and a note
    std::optional<std::string> out = render(records, kept, input.size());
    if (out) *out += "\n  note " + go_quote(note);
    return finish(std::move(out), nodes, records, kept);
  }

  static std::optional<CompressorOutput> finish(std::optional<std::string> out,
                                                const std::vector<a11y::AxNode>& nodes,
                                                const std::vector<Record>& records,
                                                const std::vector<bool>& kept) {
    if (!out) return std::nullopt;
    return CompressorOutput{std::move(*out), "a11y", std::nullopt,
                            uid_metadata(nodes, records, kept)};
  }

  const tokens::Counter* counter_;
};

}  // namespace

std::unique_ptr<Compressor> make_a11y_compressor(const tokens::Counter& counter) {
  return std::make_unique<A11yCompressor>(counter);
}

}  // namespace caveman::compress
