#include "compress/a11y/a11y_tree.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "json/json.h"
#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::compress::a11y {
namespace {

using json::Value;

bool in_list(std::string_view s, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

bool is_interactive(std::string_view role_lower) {
  return in_list(role_lower, {"button", "checkbox", "combobox", "link", "menuitem",
                              "menuitemcheckbox", "menuitemradio", "option", "radio", "searchbox",
                              "slider", "spinbutton", "switch", "tab", "textbox", "treeitem"});
}

// Roles that never need a handle on their own (docs/spec/compressors.md#a11y, plus Chrome's
// text-level and grouping roles, which would otherwise each get a uid and bloat the view;
// a focusable/clickable one still gets its uid from that property).
bool is_structural(std::string_view role_lower) {
  return in_list(role_lower,
                 {"main", "navigation", "region", "group", "generic", "none", "presentational",
                  "heading", "paragraph", "statictext", "inlinetextbox", "labeltext", "list",
                  "listitem", "table", "row", "cell", "rowheader", "columnheader", "grid", "tree",
                  "directory", "separator", "toolbar", "banner", "complementary", "contentinfo",
                  "article", "figure", "img", "image", "form", "status", "alert", "log", "timer",
                  "tooltip", "document",
                  // additions
                  "emphasis", "strong", "code", "mark", "subscript", "superscript", "time",
                  "abbr", "linebreak", "listmarker", "caption", "rowgroup", "section",
                  "sectionheader", "sectionfooter", "blockquote", "term", "definition",
                  "descriptionlist", "descriptionlistterm", "descriptionlistdetail", "figcaption",
                  "note", "math", "mathmlmath", "pre", "legend", "labeltext", "dialog",
                  "progressbar", "meter", "contentdeletion", "contentinsertion", "deletion",
                  "insertion", "ruby", "canvas", "iframe", "iframepresentational", "svgroot",
                  "graphics-document", "graphics-symbol", "graphics-object", "search",
                  "menulistpopup", "listbox", "tablist", "menu", "menubar", "radiogroup",
                  "tabpanel", "feed", "definitionlist", "columnheader", "rowheader"});
}

// Inline formatting that adds nothing to a reader's view when it has no name of its own;
// transparent like a nameless generic, so the text around it reads as one line.
bool is_inline_formatting(std::string_view role_lower) {
  return in_list(role_lower, {"emphasis", "strong", "code", "mark", "subscript", "superscript",
                              "time", "abbr"});
}

std::string lower(std::string_view s) { return text::ascii_lower(s); }

// AX value → text (docs/spec/compressors.md#a11y): strings collapsed; booleans; numbers as shortest
// decimal without exponent; anything else as compact JSON, collapsed.
std::string value_text(const Value& v) {
  switch (v.kind) {
    case json::Kind::kString: return collapse_whitespace(v.text);
    case json::Kind::kBool: return v.boolean ? "true" : "false";
    case json::Kind::kNumber: {
      char* end = nullptr;
      double d = std::strtod(v.text.c_str(), &end);
      char buf[400];
      auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
      if (res.ec != std::errc()) return v.text;
      return std::string(buf, res.ptr);
    }
    case json::Kind::kNull: return "";
    default: return collapse_whitespace(json::to_compact(v));
  }
}

// `{"value": …}` wrapper → its inner value, or nullptr.
const Value* inner(const Value* wrapper) {
  if (wrapper == nullptr || !wrapper->is_object()) return nullptr;
  return wrapper->find("value");
}

std::optional<bool> state_value(std::string_view name, const Value& v) {
  bool editable = name == "editable";
  switch (v.kind) {
    case json::Kind::kBool: return v.boolean;
    case json::Kind::kNumber: {
      if (editable) return std::nullopt;
      return std::strtod(v.text.c_str(), nullptr) != 0;
    }
    case json::Kind::kString: {
      std::string s = lower(v.text);
      if (s == "true" || s == "1" || s == "yes") return true;
      if (s == "false" || s == "0" || s == "no" || s.empty()) return false;
      if (s == "mixed" && name == "checked") return true;
      if ((s == "plaintext" || s == "richtext") && editable) return true;
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

bool truthy(const Value& v) {
  switch (v.kind) {
    case json::Kind::kBool: return v.boolean;
    case json::Kind::kNumber: return std::strtod(v.text.c_str(), nullptr) != 0;
    case json::Kind::kString: {
      std::string s = lower(v.text);
      return s == "true" || s == "1" || s == "yes";
    }
    default: return false;
  }
}

std::string id_text(const Value* v) {
  if (v == nullptr) return "";
  if (v->is_string() || v->is_number()) return v->text;
  return "";
}

std::string base36(std::int64_t n) {
  static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string out;
  auto u = static_cast<std::uint64_t>(n);
  do {
    out.push_back(kDigits[u % 36]);
    u /= 36;
  } while (u > 0);
  std::reverse(out.begin(), out.end());
  return out;
}

std::string display_role(std::string_view role) {
  if (role == "RootWebArea" || role == "WebArea") return "page";
  if (role == "StaticText" || role == "LineBreak") return "text";
  if (role == "LabelText") return "label";
  return lower(role);
}

constexpr int kMaxAncestors = 64;  // how far up duplicate text is looked for

enum class Visit { kRecord, kTransparent, kSkipSubtree };

Visit classify(const AxNode& n) {
  if (n.ignored) return Visit::kTransparent;
  std::string role = lower(n.role);
  if (role == "inlinetextbox") return Visit::kTransparent;
  if (role == "listmarker") return Visit::kSkipSubtree;  // "•", "1." decorations
  bool bare = n.name.empty() && n.value.empty();
  if (role == "labeltext" && bare && !n.states.any()) return Visit::kTransparent;
  // A native <select>'s popup list adds a line and a level and nothing else: its options
  // read as the combobox's children.
  if (role == "menulistpopup" && bare && !n.states.any()) return Visit::kTransparent;
  if (role == "generic" || role == "presentational" || role == "none" ||
      is_inline_formatting(role)) {
    States s = n.states;
    bool only_editable = s.editable == true && !s.disabled && !s.checked && !s.expanded &&
                         !s.selected && !s.focused;
    if (bare && (!s.any() || only_editable) && !n.focusable_or_clickable) {
      return Visit::kTransparent;
    }
  }
  return Visit::kRecord;
}

// Fills each record's children from the parent links, in record order.
void link_children(std::vector<Record>& records) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].parent >= 0) {
      records[static_cast<std::size_t>(records[i].parent)].children.push_back(static_cast<int>(i));
    }
  }
}

// Appends what a kept record becomes (itself, or records that take its place) to `out`.
using Emit = void (*)(Record& r, std::vector<Record>& out);

void emit_itself(Record& r, std::vector<Record>& out) { out.push_back(std::move(r)); }

// `records` without the dropped ones, each kept one replaced by what `emit` appends; parents
// are remapped to the first record their parent became (a dropped parent, or one that became
// nothing, leaves a root) and children relinked.
std::vector<Record> rebuilt(std::vector<Record> records, const std::vector<bool>& drop,
                            Emit emit = emit_itself) {
  std::vector<int> remap(records.size(), -1);
  std::vector<Record> out;
  out.reserve(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (drop[i]) continue;
    Record& r = records[i];
    r.parent = r.parent >= 0 ? remap[static_cast<std::size_t>(r.parent)] : -1;
    r.children.clear();
    const std::size_t first = out.size();
    emit(r, out);
    if (out.size() > first) remap[i] = static_cast<int>(first);
  }
  link_children(out);
  return out;
}

// A text record as one record per line of its name (a '\n' in a StaticText name is a
// rendered break: <pre> lines, <br>), blank lines left out; any other record as itself.
void emit_text_lines(Record& r, std::vector<Record>& out) {
  if (!r.is_text) {
    out.push_back(std::move(r));
    return;
  }
  std::string_view rest = r.name;
  while (true) {
    std::size_t nl = rest.find('\n');
    std::string line = collapse_whitespace(rest.substr(0, nl));
    if (!line.empty()) {
      Record piece;
      piece.parent = r.parent;
      piece.node = r.node;
      piece.depth = r.depth;
      piece.role = "text";
      piece.is_text = true;
      piece.backend_id = r.backend_id;
      piece.name = std::move(line);
      out.push_back(std::move(piece));
    }
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
}

}  // namespace

std::vector<std::string_view> States::labels() const {
  std::vector<std::string_view> out;
  if (disabled == true) out.push_back("disabled");
  if (checked) out.push_back(*checked ? "checked" : "unchecked");
  if (expanded) out.push_back(*expanded ? "expanded" : "collapsed");
  if (selected == true) out.push_back("selected");
  if (focused == true) out.push_back("focused");
  if (editable == true) out.push_back("editable");
  return out;
}

void mark_subtree(const std::vector<Record>& records, int root, std::vector<bool>& marks) {
  std::vector<int> stack{root};
  while (!stack.empty()) {
    int i = stack.back();
    stack.pop_back();
    marks[static_cast<std::size_t>(i)] = true;
    for (int c : records[static_cast<std::size_t>(i)].children) stack.push_back(c);
  }
}

std::string collapse_whitespace(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  for (std::size_t i = 0; i < s.size();) {
    text::Decoded d = text::decode_utf8(s, i);
    if (d.valid && text::is_white_space(d.cp)) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out.push_back(' ');
      pending_space = false;
      out.append(s.substr(i, d.len));
    }
    i += d.len;
  }
  return out;
}

std::optional<std::vector<AxNode>> parse_ax_nodes(std::string_view input) {
  std::optional<Value> doc = json::parse(input);
  if (!doc) return std::nullopt;
  const Value* list = &*doc;
  if (doc->is_object()) list = doc->find("nodes");
  if (list == nullptr || !list->is_array() || list->items.empty()) return std::nullopt;

  std::vector<AxNode> nodes;
  nodes.reserve(list->items.size());
  std::set<std::string, std::less<>> ids;
  bool any_visible = false;
  for (const Value& item : list->items) {
    if (!item.is_object()) return std::nullopt;
    AxNode n;
    n.node_id = id_text(item.find("nodeId"));
    if (n.node_id.empty()) return std::nullopt;
    if (!ids.insert(n.node_id).second) continue;
    if (const Value* ig = item.find("ignored"); ig && ig->is_bool()) n.ignored = ig->boolean;
    if (const Value* r = inner(item.find("role")); r && r->is_string()) n.role = r->text;
    if (!n.ignored && n.role.empty()) return std::nullopt;
    any_visible = any_visible || !n.ignored;
    if (const Value* nm = inner(item.find("name"))) {
      n.raw_name = nm->is_string() ? nm->text : value_text(*nm);
      n.name = value_text(*nm);
    }
    if (const Value* v = inner(item.find("value"))) n.value = value_text(*v);
    if (const Value* props = item.find("properties"); props && props->is_array()) {
      for (const Value& p : props->items) {
        if (!p.is_object()) continue;
        const Value* pname = p.find("name");
        const Value* pval = inner(p.find("value"));
        if (pname == nullptr || !pname->is_string() || pval == nullptr) continue;
        const std::string& key = pname->text;
        std::optional<bool>* slot = key == "disabled"   ? &n.states.disabled
                                    : key == "checked"  ? &n.states.checked
                                    : key == "expanded" ? &n.states.expanded
                                    : key == "selected" ? &n.states.selected
                                    : key == "focused"  ? &n.states.focused
                                    : key == "editable" ? &n.states.editable
                                                        : nullptr;
        if (slot != nullptr) {
          if (auto b = state_value(key, *pval)) *slot = b;
        } else if ((key == "focusable" || key == "clickable") && truthy(*pval)) {
          n.focusable_or_clickable = true;
        } else if (key == "level" && pval->is_number()) {
          n.level = static_cast<int>(std::strtod(pval->text.c_str(), nullptr));
        }
      }
    }
    if (const Value* kids = item.find("childIds"); kids && kids->is_array()) {
      for (const Value& k : kids->items) {
        std::string id = id_text(&k);
        if (!id.empty()) n.child_ids.push_back(std::move(id));
      }
    }
    const Value* backend = item.find("backendDOMNodeId");
    if (backend == nullptr) backend = item.find("backendDOMNodeID");
    if (backend && backend->is_number()) {
      double d = std::strtod(backend->text.c_str(), nullptr);
      if (d > 0 && d < 9e15) n.backend_id = static_cast<std::int64_t>(d);
    }
    const Value* frame = item.find("frameId");
    if (frame == nullptr) frame = item.find("frameID");
    if (frame && frame->is_string()) n.frame_id = frame->text;
    nodes.push_back(std::move(n));
  }
  if (!any_visible) return std::nullopt;
  return nodes;
}

std::vector<Record> build_records(const std::vector<AxNode>& nodes) {
  // Lookups only (never iterated), so a hash map keeps the output deterministic.
  std::unordered_map<std::string_view, int> index;
  index.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    index.emplace(nodes[i].node_id, static_cast<int>(i));
  }
  std::vector<bool> referenced(nodes.size(), false);
  for (const AxNode& n : nodes) {
    for (const std::string& c : n.child_ids) {
      if (auto it = index.find(c); it != index.end()) referenced[static_cast<std::size_t>(it->second)] = true;
    }
  }

  std::vector<Record> records;
  std::vector<bool> visited(nodes.size(), false);
  std::map<std::string, int> uid_count;
  struct Frame {
    int node;
    int parent_record;
    int depth;
    int parent_node;  // the AX parent, transparent or not (-1 for a root)
  };
  auto walk_from = [&](int root) {
    std::vector<Frame> stack{{root, -1, 0, -1}};
    while (!stack.empty()) {
      Frame f = stack.back();
      stack.pop_back();
      auto ni = static_cast<std::size_t>(f.node);
      if (visited[ni]) continue;
      visited[ni] = true;
      const AxNode& n = nodes[ni];
      Visit kind = classify(n);
      if (kind == Visit::kSkipSubtree) continue;
      int child_parent = f.parent_record;
      int child_depth = f.depth;
      if (kind == Visit::kRecord) {
        Record r;
        r.parent = f.parent_record;
        r.node = f.node;
        r.depth = f.depth;
        r.role = display_role(n.role);
        r.is_text = n.role == "StaticText" || n.role == "LineBreak";
        r.name = r.is_text ? n.raw_name : n.name;  // text keeps its spaces until merged
        r.value = n.value;
        r.states = n.states;
        r.backend_id = n.backend_id;
        if (n.role == "heading") r.level = n.level > 0 ? n.level : 2;
        std::string role_lower = lower(n.role);
        // Options of a native <select> are chosen through the combobox (select action), never
        // clicked, so they need no handle of their own.
        bool native_option = role_lower == "option" && f.parent_node >= 0 &&
                             nodes[static_cast<std::size_t>(f.parent_node)].role == "MenuListPopup";
        if (n.backend_id > 0 && n.role != "RootWebArea" && n.role != "WebArea" && !native_option &&
            (is_interactive(role_lower) || n.focusable_or_clickable || !is_structural(role_lower))) {
          std::string uid = "u" + base36(n.backend_id);
          int count = ++uid_count[uid];
          if (count > 1) uid += "_" + std::to_string(count);
          r.uid = std::move(uid);
        }
        child_parent = static_cast<int>(records.size());
        child_depth = f.depth + 1;
        if (r.parent >= 0) records[static_cast<std::size_t>(r.parent)].children.push_back(child_parent);
        records.push_back(std::move(r));
      }
      for (auto it = n.child_ids.rbegin(); it != n.child_ids.rend(); ++it) {
        auto found = index.find(*it);
        if (found == index.end()) continue;  // cross-frame leaf: allowed, not shown
        if (!visited[static_cast<std::size_t>(found->second)]) {
          stack.push_back({found->second, child_parent, child_depth, f.node});
        }
      }
    }
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!referenced[i]) walk_from(static_cast<int>(i));
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!visited[i]) walk_from(static_cast<int>(i));
  }

  // Text that repeats the name or value of an enclosing record (the nearest kMaxAncestors)
  // or of a sibling control (link "View" → text "View"; label text beside its textbox) is
  // dropped. Lowercased names and per-parent sibling sets are computed once, so a flat page
  // with thousands of fragments stays linear-ish.
  std::vector<std::string> low_name(records.size()), low_value(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].is_text) continue;
    low_name[i] = text::to_lower_utf8(records[i].name);
    low_value[i] = text::to_lower_utf8(records[i].value);
  }
  std::map<int, std::set<std::string, std::less<>>> sibling_keys;
  auto siblings_of = [&](int parent) -> const std::set<std::string, std::less<>>& {
    auto [it, inserted] = sibling_keys.try_emplace(parent);
    if (inserted) {
      for (int c : records[static_cast<std::size_t>(parent)].children) {
        auto ci = static_cast<std::size_t>(c);
        if (records[ci].is_text) continue;
        if (!low_name[ci].empty()) it->second.insert(low_name[ci]);
        if (!low_value[ci].empty()) it->second.insert(low_value[ci]);
      }
    }
    return it->second;
  };
  std::vector<bool> removed(records.size(), false);
  for (std::size_t i = 0; i < records.size(); ++i) {
    Record& r = records[i];
    if (!r.is_text) continue;
    std::string key = text::to_lower_utf8(collapse_whitespace(r.name));
    if (key.empty()) continue;
    bool dup = false;
    int hops = 0;
    for (int a = r.parent; a >= 0 && !dup && hops < kMaxAncestors;
         a = records[static_cast<std::size_t>(a)].parent, ++hops) {
      auto ai = static_cast<std::size_t>(a);
      dup = low_name[ai] == key || low_value[ai] == key;
    }
    if (!dup && r.parent >= 0) dup = siblings_of(r.parent).count(key) > 0;
    removed[i] = dup;
  }
  // Adjacent text fragments of one parent become one line (raw names concatenated, so a
  // word split across <em> boundaries stays whole), then collapse.
  int run_head = -1;
  for (std::size_t i = 0; i < records.size(); ++i) {
    Record& r = records[i];
    if (removed[i]) continue;
    if (!r.is_text) {
      run_head = -1;
      continue;
    }
    r.states = States{};
    if (run_head >= 0 && records[static_cast<std::size_t>(run_head)].parent == r.parent) {
      records[static_cast<std::size_t>(run_head)].name += r.name;
      removed[i] = true;
      continue;
    }
    run_head = static_cast<int>(i);
  }
  // Compact: drop removed records, remap parents, and split text at its line breaks.
  std::vector<Record> out = rebuilt(std::move(records), removed, emit_text_lines);

  // Records left with nothing to show (a caption or legend whose text moved to the table
  // or group name, an emptied row group) go too; interactive ones keep their uid line.
  std::vector<bool> empty(out.size(), false);
  for (std::size_t i = out.size(); i-- > 0;) {
    const Record& r = out[i];
    bool kids_empty = std::all_of(r.children.begin(), r.children.end(),
                                  [&](int c) { return empty[static_cast<std::size_t>(c)]; });
    empty[i] = !r.is_text && r.parent >= 0 && r.name.empty() && r.value.empty() &&
               !r.states.any() && r.uid.empty() && kids_empty;
  }
  return rebuilt(std::move(out), empty);
}

}  // namespace caveman::compress::a11y
