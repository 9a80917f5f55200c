#include "compress/markup/markup.h"

#include <gumbo.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace caveman::compress::markup {
namespace {

constexpr std::size_t kMaxTag = 1 << 16;  // a longer "tag" is text with a stray '<'

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool name_start(char c) { return is_alpha(c) || c == '_'; }
bool name_char(char c) {
  return is_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == ':';
}
bool starts_ci(std::string_view s, std::size_t i, std::string_view p) {
  if (i + p.size() > s.size()) return false;
  for (std::size_t k = 0; k < p.size(); ++k) {
    char c = s[i + k];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != p[k]) return false;
  }
  return true;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool html_name(std::string_view name) {
  if (name.find(':') != std::string_view::npos) return false;
  std::string n = lower(name);
  return gumbo_tagn_enum(n.data(), static_cast<unsigned>(n.size())) != GUMBO_TAG_UNKNOWN;
}

bool void_element(std::string_view lowered) {
  for (std::string_view v : {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                             "meta", "param", "source", "track", "wbr", "keygen", "image"}) {
    if (lowered == v) return true;
  }
  return false;
}

// End of a start tag's attributes: the index of its '>' (quotes respected), or npos when a
// '<' comes first or the tag runs past kMaxTag.
std::size_t tag_end(std::string_view s, std::size_t i) {
  char quote = 0;
  std::size_t limit = std::min(s.size(), i + kMaxTag);
  for (; i < limit; ++i) {
    char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i;
    } else if (c == '<') {
      return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

}  // namespace

MarkupStats scan(std::string_view text) {
  MarkupStats st;
  std::string_view s = text;
  if (s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  std::size_t lead = 0;
  while (lead < s.size() && is_space(s[lead])) ++lead;
  st.xml_prolog = s.substr(lead, 5) == "<?xml";
  std::vector<std::pair<std::size_t, std::size_t>> spans;  // [begin, end) of each construct
  bool seen_element = false, seen_decl = false, leading_text = false;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t lt = s.find('<', i);
    if (lt == std::string_view::npos) {
      if (!seen_element && s.find_first_not_of(" \t\r\n\f", i) != std::string_view::npos)
        leading_text = true;
      break;
    }
    if (!seen_element) {
      for (std::size_t k = i; k < lt; ++k) {
        if (!is_space(s[k])) leading_text = true;
      }
    }
    std::size_t end = std::string_view::npos;  // one past the construct
    auto close = [&](std::string_view marker, std::size_t from) {
      std::size_t p = s.find(marker, from);
      return p == std::string_view::npos ? s.size() : p + marker.size();
    };
    if (s.substr(lt, 4) == "<!--") {
      end = close("-->", lt + 4);
    } else if (s.substr(lt, 9) == "<![CDATA[") {
      end = close("]]>", lt + 9);
    } else if (s.substr(lt, 2) == "<?") {
      end = close("?>", lt + 2);
    } else if (lt + 2 < s.size() && s[lt + 1] == '!' && is_alpha(s[lt + 2])) {
      std::size_t gt = s.find('>', lt);
      std::size_t br = s.find('[', lt);
      if (br != std::string_view::npos && gt != std::string_view::npos && br < gt) {
        std::size_t rb = s.find("]", br);
        gt = rb == std::string_view::npos ? rb : s.find('>', rb);
      }
      end = gt == std::string_view::npos ? s.size() : gt + 1;
      if (starts_ci(s, lt, "<!doctype") && !seen_decl && !seen_element && !leading_text) {
        std::size_t n = lt + 9;
        while (n < s.size() && is_space(s[n])) ++n;
        if (starts_ci(s, n, "html") && (n + 4 >= s.size() || !name_char(s[n + 4])))
          st.doctype_html = true;
        else
          st.other_doctype = true;
      }
      seen_decl = true;
    } else if (lt + 1 < s.size() &&
               (name_start(s[lt + 1]) ||
                (s[lt + 1] == '/' && lt + 2 < s.size() && name_start(s[lt + 2])))) {
      bool is_end = s[lt + 1] == '/';
      std::size_t n0 = lt + (is_end ? 2 : 1), n = n0;
      while (n < s.size() && name_char(s[n])) ++n;
      std::string_view name = s.substr(n0, n - n0);
      bool delimited = n < s.size() && (is_space(s[n]) || s[n] == '>' || s[n] == '/');
      std::size_t gt = delimited ? tag_end(s, n) : std::string_view::npos;
      if (gt != std::string_view::npos && is_end) {
        // An end tag holds nothing but its name and blanks.
        for (std::size_t k = n; k < gt; ++k) {
          if (!is_space(s[k])) {
            gt = std::string_view::npos;
            break;
          }
        }
      }
      if (gt != std::string_view::npos) {
        end = gt + 1;
        ++st.tags;
        if (name.find(':') != std::string_view::npos) st.qualified_names = true;
        std::string low = lower(name);
        if (!is_end && !seen_element && !leading_text) {
          st.root_html = low == "html";
          st.root_svg = low == "svg";
        }
        if (!is_end) seen_element = true;
        bool html = html_name(name);
        if (html) {
          ++st.html_tags;
          if (is_end)
            ++st.html_ends;
          else if (!void_element(low) && s[gt - 1] != '/')
            ++st.html_starts;
        }
        // Raw text: a script's or style's body is no markup of its own.
        if (!is_end && s[gt - 1] != '/' && (low == "script" || low == "style")) {
          std::string closing = "</" + low;
          std::size_t p = end;
          while (p < s.size()) {
            p = s.find("</", p);
            if (p == std::string_view::npos) break;
            if (starts_ci(s, p, closing)) break;
            p += 2;
          }
          std::size_t body_end = p == std::string_view::npos ? s.size() : p;
          spans.emplace_back(lt, end);
          i = body_end;
          continue;
        }
      }
    }
    if (end == std::string_view::npos) {
      ++st.stray_lt;
      i = lt + 1;
      continue;
    }
    spans.emplace_back(lt, end);
    i = end;
  }
  // Lines: a non-blank line is a markup line when its first non-blank byte starts or lies
  // inside a construct.
  std::size_t sp = 0, start = 0;
  while (start < s.size()) {
    std::size_t nl = s.find('\n', start);
    std::size_t line_end = nl == std::string_view::npos ? s.size() : nl;
    std::size_t first = start;
    while (first < line_end && is_space(s[first])) ++first;
    if (first < line_end) {
      ++st.lines;
      while (sp < spans.size() && spans[sp].second <= first) ++sp;
      if (sp < spans.size() && spans[sp].first <= first) ++st.markup_lines;
    }
    start = line_end + 1;
  }
  return st;
}

Kind classify(const MarkupStats& st) {
  if (st.tags == 0) return Kind::kNone;
  if (st.doctype_html || st.root_html) return Kind::kHtml;
  if (st.xml_prolog || st.other_doctype || st.root_svg) return Kind::kXml;
  bool markup = st.tags >= 4 && st.stray_lt * 10 <= st.tags && st.markup_lines * 2 >= st.lines;
  if (!markup) return Kind::kNone;
  bool html = !st.qualified_names && st.html_tags * 10 >= st.tags * 9;
  if (!html) return Kind::kXml;
  // HTML elements with end tags: a fragment of a page, not a list of words in angle brackets.
  return st.html_ends > 0 && st.html_ends * 3 >= st.html_starts ? Kind::kHtml : Kind::kNone;
}

Kind classify(std::string_view text) { return classify(scan(text)); }

bool declared(const MarkupStats& st) {
  return st.doctype_html || st.root_html || st.xml_prolog || st.other_doctype || st.root_svg;
}

}  // namespace caveman::compress::markup
