#include "compress/html/html_extract.h"

#include <gumbo.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "caveman/base/text.h"
#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::compress::html {
namespace {

constexpr std::size_t kMinParagraph = 25;  // trimmed bytes for a paragraph to score
constexpr int kClassWeight = 25;

// Never rendered or scored: code, media, controls and site navigation.
bool is_dropped_tag(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE: case GUMBO_TAG_NOSCRIPT: case GUMBO_TAG_SVG:
    case GUMBO_TAG_IFRAME: case GUMBO_TAG_TEMPLATE: case GUMBO_TAG_BUTTON: case GUMBO_TAG_INPUT:
    case GUMBO_TAG_SELECT: case GUMBO_TAG_TEXTAREA: case GUMBO_TAG_NAV: case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED: case GUMBO_TAG_CANVAS: case GUMBO_TAG_HEAD: case GUMBO_TAG_MATH:
      return true;
    default:
      return false;
  }
}

bool is_scoring_tag(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_P: case GUMBO_TAG_PRE: case GUMBO_TAG_TD: case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_LI: case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3:
    case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
      return true;
    default:
      return false;
  }
}

bool is_container_tag(GumboTag t) {
  return t == GUMBO_TAG_DIV || t == GUMBO_TAG_ARTICLE || t == GUMBO_TAG_MAIN ||
         t == GUMBO_TAG_SECTION || t == GUMBO_TAG_TD;
}

int heading_level(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_H1: return 1;
    case GUMBO_TAG_H2: return 2;
    case GUMBO_TAG_H3: return 3;
    case GUMBO_TAG_H4: return 4;
    case GUMBO_TAG_H5: return 5;
    case GUMBO_TAG_H6: return 6;
    default: return 0;
  }
}

// 2 = separated by a blank line, 1 = starts its own line, 0 = inline.
int block_kind(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_P: case GUMBO_TAG_PRE: case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_TABLE:
    case GUMBO_TAG_UL: case GUMBO_TAG_OL: case GUMBO_TAG_DL: case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE: case GUMBO_TAG_HR: case GUMBO_TAG_FIGURE: case GUMBO_TAG_H1:
    case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
      return 2;
    case GUMBO_TAG_DIV: case GUMBO_TAG_LI: case GUMBO_TAG_TR: case GUMBO_TAG_DT:
    case GUMBO_TAG_DD: case GUMBO_TAG_BR: case GUMBO_TAG_CAPTION: case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_SUMMARY: case GUMBO_TAG_DETAILS: case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_CENTER: case GUMBO_TAG_FIELDSET: case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_HEADER: case GUMBO_TAG_FOOTER: case GUMBO_TAG_MAIN: case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_BODY:
      return 1;
    default:
      return 0;
  }
}

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Concatenated-text statistics, combinable left to right without building the text.
struct TextStat {
  std::size_t len = 0;    // bytes
  std::size_t lead = 0;   // leading whitespace bytes
  std::size_t trail = 0;  // trailing whitespace bytes
  bool all_space = true;
  std::size_t commas = 0;

  static TextStat of(std::string_view s) {
    TextStat st;
    st.len = s.size();
    while (st.lead < s.size() && is_ascii_space(s[st.lead])) ++st.lead;
    st.all_space = st.lead == s.size();
    if (!st.all_space) {
      while (st.trail < s.size() && is_ascii_space(s[s.size() - 1 - st.trail])) ++st.trail;
    } else {
      st.trail = st.lead;
    }
    st.commas = static_cast<std::size_t>(std::count(s.begin(), s.end(), ','));
    return st;
  }
  void append(const TextStat& b) {
    std::size_t new_lead = all_space ? len + b.lead : lead;
    std::size_t new_trail = b.all_space ? b.len + trail : b.trail;
    len += b.len;
    lead = new_lead;
    trail = new_trail;
    all_space = all_space && b.all_space;
    commas += b.commas;
  }
  std::size_t trimmed() const { return all_space ? 0 : len - lead - trail; }
};

struct Node {
  int parent = -1;
  std::vector<int> children;
  GumboTag tag = GUMBO_TAG_UNKNOWN;
  bool is_text = false;
  std::string text;   // text nodes
  std::string hints;  // lowercase class + ' ' + id (elements)
  bool removed = false;
  TextStat stat;
  std::size_t anchor = 0;  // trimmed text bytes inside outermost <a> descendants
  bool has_paragraph = false;
  bool has_heading = false;  // an h1–h3 inside
  std::int64_t score = 0;
  bool credited = false;
};

bool attr_is(const GumboElement& e, const char* name, std::string_view value) {
  const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
  return a != nullptr && base::ascii_lower(a->value) == value;
}

struct Document {
  std::vector<Node> nodes;
  int body = -1;
  std::string title;
};

// Copies gumbo's tree into a flat pre-order arena (children have larger indices than their
// parent), leaving out dropped subtrees, comments and hidden elements.
Document convert(const GumboOutput* out) {
  Document doc;
  std::vector<std::pair<const GumboNode*, int>> stack{{out->root, -1}};
  while (!stack.empty()) {
    auto [g, parent] = stack.back();
    stack.pop_back();
    Node n;
    n.parent = parent;
    const GumboVector* kids = nullptr;
    switch (g->type) {
      case GUMBO_NODE_TEXT: case GUMBO_NODE_WHITESPACE: case GUMBO_NODE_CDATA:
        n.is_text = true;
        n.text = g->v.text.text;
        break;
      case GUMBO_NODE_ELEMENT: {
        const GumboElement& e = g->v.element;
        if (e.tag == GUMBO_TAG_TITLE && doc.title.empty() && e.children.length > 0) {
          const auto* t = static_cast<const GumboNode*>(e.children.data[0]);
          if (t->type == GUMBO_NODE_TEXT) doc.title = t->v.text.text;
        }
        if (e.tag == GUMBO_TAG_TITLE || is_dropped_tag(e.tag) ||
            gumbo_get_attribute(&e.attributes, "hidden") != nullptr ||
            attr_is(e, "aria-hidden", "true")) {
          if (e.tag != GUMBO_TAG_HEAD) continue;
          // <head> is dropped but searched for <title>.
          for (unsigned i = e.children.length; i-- > 0;) {
            stack.emplace_back(static_cast<const GumboNode*>(e.children.data[i]), -2);
          }
          continue;
        }
        n.tag = e.tag;
        std::string hints;
        if (const GumboAttribute* a = gumbo_get_attribute(&e.attributes, "class")) hints = a->value;
        if (const GumboAttribute* a = gumbo_get_attribute(&e.attributes, "id")) {
          hints += ' ';
          hints += a->value;
        }
        n.hints = base::ascii_lower(hints);
        kids = &e.children;
        break;
      }
      case GUMBO_NODE_DOCUMENT:
        kids = &g->v.document.children;
        break;
      default:
        continue;  // comments, templates
    }
    if (parent == -2) continue;  // inside <head>: only the title mattered
    int index = static_cast<int>(doc.nodes.size());
    if (parent >= 0) doc.nodes[static_cast<std::size_t>(parent)].children.push_back(index);
    if (!n.is_text && n.tag == GUMBO_TAG_BODY && doc.body < 0) doc.body = index;
    doc.nodes.push_back(std::move(n));
    if (kids != nullptr) {
      for (unsigned i = kids->length; i-- > 0;) {
        stack.emplace_back(static_cast<const GumboNode*>(kids->data[i]), index);
      }
    }
  }
  return doc;
}

// Bottom-up text statistics; forms without any paragraph (search boxes, login forms) are
// removed, while a form wrapping the whole page (ASP.NET) stays.
void compute_stats(Document& doc) {
  for (std::size_t i = doc.nodes.size(); i-- > 0;) {
    Node& n = doc.nodes[i];
    if (n.is_text) {
      n.stat = TextStat::of(n.text);
      continue;
    }
    for (int c : n.children) {
      const Node& child = doc.nodes[static_cast<std::size_t>(c)];
      if (child.removed) continue;
      n.stat.append(child.stat);
      n.anchor += child.anchor;
      n.has_paragraph = n.has_paragraph || child.has_paragraph;
      n.has_heading = n.has_heading || child.has_heading;
    }
    if (n.tag == GUMBO_TAG_H1 || n.tag == GUMBO_TAG_H2 || n.tag == GUMBO_TAG_H3) n.has_heading = true;
    if (n.tag == GUMBO_TAG_A) n.anchor = n.stat.trimmed();
    if (is_scoring_tag(n.tag) && n.stat.trimmed() >= kMinParagraph) n.has_paragraph = true;
    if (n.tag == GUMBO_TAG_FORM && !n.has_paragraph) n.removed = true;
  }
}

bool contains_any(std::string_view hay, std::initializer_list<std::string_view> needles) {
  for (std::string_view n : needles) {
    if (hay.find(n) != std::string_view::npos) return true;
  }
  return false;
}

int class_weight(std::string_view hints) {
  int w = 0;
  if (contains_any(hints, {"article", "body", "content", "entry", "main", "page", "post", "story",
                           "text", "blog"})) {
    w += kClassWeight;
  }
  if (contains_any(hints, {"comment", "nav", "sidebar", "footer", "header", "menu", "promo",
                           "banner", "ad-", "share", "social", "related", "breadcrumb", "cookie",
                           "popup", "modal", "widget"})) {
    w -= kClassWeight;
  }
  return w;
}

// Pre-order walk that skips removed subtrees; visit(index) returns false to skip children.
template <typename Visit>
void walk(const Document& doc, int root, Visit visit) {
  std::vector<int> stack{root};
  while (!stack.empty()) {
    int i = stack.back();
    stack.pop_back();
    const Node& n = doc.nodes[static_cast<std::size_t>(i)];
    if (n.removed || !visit(i)) continue;
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.push_back(*it);
  }
}

int pick_winner(Document& doc) {
  std::vector<int> paragraphs;
  walk(doc, doc.body, [&](int i) {
    const Node& n = doc.nodes[static_cast<std::size_t>(i)];
    if (!n.is_text && is_scoring_tag(n.tag) && n.stat.trimmed() >= kMinParagraph) {
      paragraphs.push_back(i);
    }
    return !n.is_text;
  });
  for (int p : paragraphs) {
    const Node& para = doc.nodes[static_cast<std::size_t>(p)];
    std::int64_t base = 1 + static_cast<std::int64_t>(para.stat.commas) +
                        static_cast<std::int64_t>(std::min<std::size_t>(para.stat.len / 100, 3));
    for (int a = para.parent; a >= 0 && a != doc.body; a = doc.nodes[static_cast<std::size_t>(a)].parent) {
      Node& anc = doc.nodes[static_cast<std::size_t>(a)];
      if (!is_container_tag(anc.tag)) continue;
      anc.score += base;
      if (!anc.credited) {
        anc.credited = true;
        anc.score += class_weight(anc.hints);
      }
    }
  }
  int winner = -1;
  std::int64_t best = 0;
  walk(doc, doc.body, [&](int i) {
    const Node& n = doc.nodes[static_cast<std::size_t>(i)];
    if (n.is_text) return false;
    std::size_t len = n.stat.trimmed();
    if (n.credited && len > 0) {
      std::size_t own = len > n.anchor ? len - n.anchor : 0;
      std::int64_t final_score = n.score * static_cast<std::int64_t>(own) /
                                 static_cast<std::int64_t>(len);
      if (final_score > best) {
        best = final_score;
        winner = i;
      }
    }
    return true;
  });
  // Pages whose paragraphs sit directly in <body> (no container at all) extract the body,
  // and so do pages where the winner holds less than half of the page's non-link text
  // (text with a few tags, legacy pages with loose text): better too much than a fragment.
  const Node& body = doc.nodes[static_cast<std::size_t>(doc.body)];
  auto own_text = [](const Node& n) {
    std::size_t len = n.stat.trimmed();
    return len > n.anchor ? len - n.anchor : 0;
  };
  if (winner < 0 && body.has_paragraph) winner = doc.body;
  if (winner >= 0 && own_text(doc.nodes[static_cast<std::size_t>(winner)]) * 2 < own_text(body)) {
    winner = doc.body;
  }
  if (winner < 0) return -1;
  const Node& w = doc.nodes[static_cast<std::size_t>(winner)];
  if (w.anchor * 2 >= w.stat.trimmed()) return -1;  // a link farm, not an article
  return winner;
}

bool is_prunable_block(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_DIV: case GUMBO_TAG_UL: case GUMBO_TAG_OL: case GUMBO_TAG_DL:
    case GUMBO_TAG_TABLE: case GUMBO_TAG_SECTION: case GUMBO_TAG_ASIDE: case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER: case GUMBO_TAG_DETAILS: case GUMBO_TAG_MENU:
      return true;
    default:
      return false;
  }
}

// Inside the winner, blocks that are mostly links (tables of contents, link lists, site
// menus) or whose class/id says boilerplate (sidebar, footer, comments…) are dropped,
// unless they carry most of the winner's text. A block holding an h1–h3 is examined part
// by part instead, so headlines in <header class="header"> survive.
void prune_boilerplate(Document& doc, int winner) {
  std::size_t total = doc.nodes[static_cast<std::size_t>(winner)].stat.trimmed();
  std::vector<int> drop;
  walk(doc, winner, [&](int i) {
    const Node& n = doc.nodes[static_cast<std::size_t>(i)];
    if (n.is_text) return false;
    if (i == winner || !is_prunable_block(n.tag)) return true;
    std::size_t len = n.stat.trimmed();
    bool link_dense = len > 0 && n.anchor * 2 >= len;
    bool boilerplate = class_weight(n.hints) < 0 && len * 2 < total;
    if ((link_dense || boilerplate) && !n.has_heading) {
      drop.push_back(i);
      return false;
    }
    return true;
  });
  for (int i : drop) doc.nodes[static_cast<std::size_t>(i)].removed = true;
}

bool is_icon_text(std::string_view s) {
  std::string_view t = text::trim_space(s);
  if (t.size() > 4) return false;
  for (std::size_t i = 0; i < t.size();) {
    text::Decoded d = text::decode_utf8(t, i);
    if (text::is_letter(d.cp) || text::is_number(d.cp)) return false;
    i += d.len;
  }
  return true;
}

class Renderer {
 public:
  void text(std::string_view t) {
    for (std::size_t i = 0; i < t.size();) {
      text::Decoded d = text::decode_utf8(t, i);
      bool space = d.cp == ' ' || d.cp == '\t' || d.cp == '\n' || d.cp == '\r' || d.cp == '\f' ||
                   d.cp == 0xA0;
      if (space) {
        if (!cur_.empty() && cur_.back() != ' ') cur_.push_back(' ');
      } else {
        cur_.append(t.substr(i, d.len));
      }
      i += d.len;
    }
  }
  void space() {
    if (!cur_.empty() && cur_.back() != ' ') cur_.push_back(' ');
  }
  void line_prefix(std::string prefix) {
    flush();
    prefix_ = std::move(prefix);
  }
  void brk(int kind) {
    flush();
    pending_ = std::max(pending_, kind);
  }
  void verbatim(std::string_view block) {
    while (!block.empty() && (block.front() == '\n' || block.front() == '\r')) block.remove_prefix(1);
    while (!block.empty() && (block.back() == '\n' || block.back() == '\r' || block.back() == ' ')) {
      block.remove_suffix(1);
    }
    if (block.empty()) return;
    brk(2);
    emit(std::string(block));
    pending_ = 2;
  }
  std::string finish() {
    flush();
    std::string out;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      if (i > 0) out.push_back('\n');
      out += lines_[i];
    }
    return out;
  }

 private:
  void flush() {
    std::string_view t = cur_;
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    if (!t.empty()) {
      emit(prefix_ + std::string(t));
      prefix_.clear();
    }
    cur_.clear();
  }
  void emit(std::string line) {
    if (!lines_.empty() && pending_ >= 2) lines_.emplace_back();
    lines_.push_back(std::move(line));
    pending_ = 0;
  }

  std::vector<std::string> lines_;
  std::string cur_;
  std::string prefix_;
  int pending_ = 0;
};

// Concatenated text of a subtree. In <pre>, sibling <code> blocks (one per language
// variant, as in the Node.js docs) start on their own line.
void collect_text(const Document& doc, int root, std::string& out) {
  walk(doc, root, [&](int i) {
    const Node& n = doc.nodes[static_cast<std::size_t>(i)];
    if (n.is_text) out += n.text;
    if (!n.is_text && n.tag == GUMBO_TAG_CODE && !out.empty() && out.back() != '\n') {
      out.push_back('\n');
    }
    return !n.is_text;
  });
}

std::string render(const Document& doc, int root) {
  Renderer r;
  // Explicit stack of (node, entering?) so deep trees cannot overflow the call stack.
  std::vector<std::pair<int, bool>> stack{{root, true}};
  while (!stack.empty()) {
    auto [i, entering] = stack.back();
    stack.pop_back();
    const Node& n = doc.nodes[static_cast<std::size_t>(i)];
    if (n.removed) continue;
    if (n.is_text) {
      r.text(n.text);
      continue;
    }
    int kind = block_kind(n.tag);
    bool cell = n.tag == GUMBO_TAG_TD || n.tag == GUMBO_TAG_TH;
    if (!entering) {
      if (kind > 0) r.brk(kind);
      if (cell) r.space();
      continue;
    }
    if (n.tag == GUMBO_TAG_PRE) {
      std::string body;
      collect_text(doc, i, body);
      r.verbatim(body);
      continue;
    }
    if (n.tag == GUMBO_TAG_A && n.stat.trimmed() <= 4) {
      std::string t;
      collect_text(doc, i, t);
      if (is_icon_text(t)) continue;  // permalink marks such as "#" or "¶"
    }
    if (kind > 0) r.brk(kind);
    if (cell) r.space();
    if (int level = heading_level(n.tag); level > 0) {
      r.line_prefix(std::string(static_cast<std::size_t>(level), '#') + " ");
    } else if (n.tag == GUMBO_TAG_LI) {
      r.line_prefix("- ");
    }
    stack.emplace_back(i, false);
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.emplace_back(*it, true);
  }
  return r.finish();
}

std::string collapse_spaces(std::string_view s) {
  Renderer r;
  r.text(s);
  return r.finish();
}

}  // namespace

std::size_t estimate_nesting(std::string_view html) {
  static constexpr std::string_view kVoid[] = {
      "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
      "source", "track", "wbr", "p", "li", "td", "th", "tr", "dt", "dd", "option", "!doctype"};
  std::size_t depth = 0, max_depth = 0;
  std::size_t next_gt = 0;  // cached position of the next '>' (keeps the scan linear)
  for (std::size_t i = 0; i + 1 < html.size(); ++i) {
    if (html[i] != '<') continue;
    bool closing = html[i + 1] == '/';
    std::size_t b = i + (closing ? 2 : 1);
    std::size_t e = b;
    while (e < html.size() && ((html[e] >= 'a' && html[e] <= 'z') || (html[e] >= 'A' && html[e] <= 'Z') ||
                               (html[e] >= '0' && html[e] <= '9') || html[e] == '!')) {
      ++e;
    }
    if (e == b) continue;
    std::string name = base::ascii_lower(html.substr(b, e - b));
    if (closing) {
      if (depth > 0) --depth;
      continue;
    }
    if (name == "script" || name == "style") {  // raw text: skip to the end tag
      std::string close = "</" + name;
      std::size_t j = e;
      bool found = false;
      for (; j + close.size() <= html.size(); ++j) {
        if (html[j] == '<' && base::ascii_lower(html.substr(j, close.size())) == close) {
          found = true;
          break;
        }
      }
      i = found ? j + close.size() : html.size();
      continue;
    }
    if (std::find(std::begin(kVoid), std::end(kVoid), name) != std::end(kVoid)) continue;
    if (next_gt != std::string_view::npos && next_gt < e) next_gt = html.find('>', e);
    std::size_t gt = next_gt;
    if (gt != std::string_view::npos && gt > 0 && html[gt - 1] == '/') continue;
    max_depth = std::max(max_depth, ++depth);
  }
  return max_depth;
}

std::optional<std::string> extract_article(std::string_view input) {
  if (estimate_nesting(input) > kMaxNesting) return std::nullopt;
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // recording parse errors costs memory quadratic in depth
  GumboOutput* out = gumbo_parse_with_options(&options, input.data(), input.size());
  if (out == nullptr) return std::nullopt;
  Document doc = convert(out);
  gumbo_destroy_output(&options, out);
  if (doc.body < 0) return std::nullopt;
  compute_stats(doc);
  int winner = pick_winner(doc);
  if (winner < 0) return std::nullopt;
  prune_boilerplate(doc, winner);
  std::string body = render(doc, winner);
  std::string title = collapse_spaces(doc.title);
  if (title.empty() || body.substr(0, body.find('\n')).find(title) != std::string::npos) {
    return body;
  }
  return title + "\n\n" + body;
}

}  // namespace caveman::compress::html
