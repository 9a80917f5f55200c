#include "compress/code/elide.h"

#include <algorithm>
#include <array>
#include <optional>

namespace caveman::compress::code {
namespace {

std::string_view node_type(TSNode n) { return ts_node_type(n); }

std::string_view node_text(TSNode n, std::string_view text) {
  std::uint32_t s = ts_node_start_byte(n);
  std::uint32_t e = ts_node_end_byte(n);
  return text.substr(s, e - s);
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// The docstring statement opening a Python block, or a null node.
TSNode python_docstring(TSNode block) {
  TSNode none{};
  std::uint32_t n = ts_node_named_child_count(block);
  for (std::uint32_t i = 0; i < n; ++i) {
    TSNode stmt = ts_node_named_child(block, i);
    if (node_type(stmt) == "comment") continue;
    if (node_type(stmt) != "expression_statement" || ts_node_named_child_count(stmt) != 1) {
      return none;
    }
    std::string_view t = node_type(ts_node_named_child(stmt, 0));
    return t == "string" || t == "concatenated_string" ? stmt : none;
  }
  return none;
}

// 1-based line numbers of byte offsets, so a marker can state the lines it hides.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  std::size_t line_of(std::size_t byte) const {
    return 1 + static_cast<std::size_t>(std::lower_bound(newlines_.begin(), newlines_.end(), byte) -
                                        newlines_.begin());
  }

 private:
  std::vector<std::size_t> newlines_;
};

std::string lines_marker(std::string_view lead, std::size_t first, std::size_t last) {
  return std::string(lead) + std::to_string(first) + "–" + std::to_string(last) +
         " elided (caveman)";
}

// The line before `byte` ends with "\r\n": keep a CRLF file CRLF.
std::string_view eol_before(std::string_view text, std::size_t newline) {
  return newline > 0 && text[newline - 1] == '\r' ? "\r\n" : "\n";
}

// A brace body that owns its lines (`{` ends its line, `}` starts its own): the lines between
// become `// … lines A–B elided (caveman)` at their indentation, unless that is no shorter or
// they already are that marker. Any other brace body becomes the inline marker, when shorter.
std::optional<Edit> brace_edit(TSNode body, std::string_view text, const LineIndex& index) {
  std::size_t s = ts_node_start_byte(body);
  std::size_t e = ts_node_end_byte(body);
  std::string_view current = text.substr(s, e - s);
  std::size_t open_end = text.find('\n', s);
  std::size_t close_start = text.rfind('\n', e - 1) + 1;
  bool owns_lines = e > s + 1 && text[s] == '{' && text[e - 1] == '}' && open_end < e &&
                    trim(text.substr(s + 1, open_end - s - 1)).empty() &&
                    close_start > open_end + 1 &&
                    trim(text.substr(close_start, e - 1 - close_start)).empty();
  if (!owns_lines) {
    if (current.size() <= kBraceBodyMarker.size() || trim(current) == kBraceBodyMarker) {
      return std::nullopt;
    }
    return Edit{static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(e),
                std::string(kBraceBodyMarker)};
  }
  std::string_view inner = text.substr(open_end + 1, close_start - open_end - 1);
  if (trim(inner).starts_with(kBraceLinesMarker)) return std::nullopt;
  std::size_t first = inner.find_first_not_of(" \t\r\n");
  std::size_t line_start = first == std::string_view::npos ? 0 : inner.rfind('\n', first) + 1;
  std::string out(
      inner.substr(line_start, first == std::string_view::npos ? 0 : first - line_start));
  out +=
      lines_marker(kBraceLinesMarker, index.line_of(open_end + 1), index.line_of(close_start - 1));
  out += eol_before(text, close_start - 1);
  if (out.size() >= inner.size()) return std::nullopt;
  return Edit{static_cast<std::uint32_t>(open_end + 1), static_cast<std::uint32_t>(close_start),
              std::move(out), "", true};
}

// A Python block on lines of its own: its statements after any docstring become `...  # …
// lines A–B elided (caveman)`; a block on the `def` line becomes `...` (stating no lines).
std::optional<Edit> python_edit(TSNode block, std::string_view text, const LineIndex& index) {
  std::size_t start = ts_node_start_byte(block);
  std::size_t end = ts_node_end_byte(block);
  std::size_t line_start = text.rfind('\n', start == 0 ? 0 : start - 1);
  line_start = (line_start == std::string_view::npos || start == 0) ? 0 : line_start + 1;
  std::string_view indent = text.substr(line_start, start - line_start);
  auto edit = [&](std::string out, bool states_lines) -> std::optional<Edit> {
    if (out.size() >= end - start || trim(text.substr(start, end - start)) == trim(out)) {
      return std::nullopt;
    }
    return Edit{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end), std::move(out),
                "", states_lines};
  };
  if (indent.find_first_not_of(" \t") != std::string_view::npos) {
    return edit(std::string(kPythonBodyMarker), false);
  }
  TSNode doc = python_docstring(block);
  std::size_t kept = ts_node_is_null(doc) ? start : ts_node_end_byte(doc);
  std::size_t hidden_from = text.find('\n', kept);
  if (!ts_node_is_null(doc) && (hidden_from == std::string_view::npos || hidden_from >= end)) {
    return std::nullopt;  // a docstring and nothing else
  }
  std::string_view rest = trim(text.substr(kept, end - kept));
  if (rest.starts_with(kPythonLinesMarker)) return std::nullopt;
  std::string out(text.substr(start, kept - start));
  if (!ts_node_is_null(doc)) {
    out += eol_before(text, hidden_from);
    out += indent;
  }
  std::size_t first = ts_node_is_null(doc) ? index.line_of(start) : index.line_of(hidden_from + 1);
  out += lines_marker(kPythonLinesMarker, first, index.line_of(end - 1));
  return edit(std::move(out), true);
}

// The trailing identifier of a name as written: `Write` of `DBImpl::Write`, `redirect` of
// `res.redirect`; "" for operators and other names no call site spells.
std::string_view last_identifier(std::string_view s) {
  s = trim(s);
  std::size_t b = s.size();
  while (b > 0 && is_identifier_char(s[b - 1])) --b;
  return s.substr(b);
}

TSNode field(TSNode n, std::string_view name) {
  return ts_node_child_by_field_name(n, name.data(), static_cast<std::uint32_t>(name.size()));
}

// The name a caller uses for function node `fn`: its `name` field, the innermost C/C++
// declarator, or what an anonymous function is assigned to (`const f = () => {…}`,
// `res.redirect = function (…) {…}`, `{ f: function () {…} }`).
std::string_view function_name(TSNode fn, std::string_view text) {
  TSNode name = field(fn, "name");
  for (TSNode d = field(fn, "declarator"); ts_node_is_null(name) && !ts_node_is_null(d);) {
    TSNode inner = field(d, "declarator");
    if (ts_node_is_null(inner)) name = d;
    d = inner;
  }
  TSNode parent = ts_node_parent(fn);
  for (std::string_view f : {"name", "left", "key"}) {
    if (!ts_node_is_null(name) || ts_node_is_null(parent)) break;
    name = field(parent, f);
  }
  return ts_node_is_null(name) ? std::string_view() : last_identifier(node_text(name, text));
}

// --- doc comments -------------------------------------------------------------------

// Comment lines without the `*` gutter: " * text" → "text".
std::vector<std::string_view> doc_lines(std::string_view inner) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos <= inner.size()) {
    std::size_t nl = inner.find('\n', pos);
    std::string_view l = inner.substr(pos, nl == std::string_view::npos ? inner.npos : nl - pos);
    pos = nl == std::string_view::npos ? inner.size() + 1 : nl + 1;
    l = trim(l);
    if (!l.empty() && l.front() == '*') l = trim(l.substr(1));
    lines.push_back(l);
  }
  return lines;
}

// Words before a period that do not end a sentence.
constexpr std::array<std::string_view, 5> kAbbreviations = {"e.g", "i.e", "etc", "vs", "cf"};

// Length of the first sentence of `para` (a period, `!` or `?` followed by a space).
std::size_t first_sentence_length(std::string_view para) {
  for (std::size_t i = 0; i + 1 < para.size(); ++i) {
    char c = para[i];
    if ((c != '.' && c != '!' && c != '?') || para[i + 1] != ' ') continue;
    bool abbreviation = false;
    for (std::string_view a : kAbbreviations) {
      if (i >= a.size() && para.substr(i - a.size(), a.size()) == a &&
          (i == a.size() || para[i - a.size() - 1] == ' ' || para[i - a.size() - 1] == '(')) {
        abbreviation = true;
      }
    }
    if (!abbreviation) return i + 1;
  }
  return para.size();
}

// The trimmed form of one `/** … */` comment, or "" when nothing would be dropped.
std::string trimmed_doc(std::string_view comment) {
  if (comment.size() < 5 || !comment.starts_with("/**") || comment.starts_with("/**/") ||
      comment.substr(comment.size() - 2) != "*/" ||
      comment.find(kDocTrimmedMarker) != std::string_view::npos) {
    return "";
  }
  std::vector<std::string_view> lines = doc_lines(comment.substr(3, comment.size() - 5));
  std::string para;  // the first paragraph, lines joined by spaces
  std::size_t i = 0;
  while (i < lines.size() && lines[i].empty()) ++i;
  for (; i < lines.size() && !lines[i].empty() && lines[i].front() != '@'; ++i) {
    if (!para.empty()) para += ' ';
    para += lines[i];
  }
  if (para.empty()) return "";  // tags only: nothing that reads as a summary
  std::size_t keep = first_sentence_length(para);
  bool dropped = keep < para.size();
  bool deprecated = false;
  for (; i < lines.size(); ++i) {
    if (!lines[i].empty()) dropped = true;
    if (lines[i].starts_with("@deprecated")) deprecated = true;
  }
  if (!dropped) return "";
  std::string out = "/** ";
  out.append(para, 0, keep);
  if (deprecated) out += " @deprecated";
  out += ' ';
  out += kDocTrimmedMarker;
  out += " */";
  return out.size() < comment.size() ? out : "";
}

// Calls visit(node) for every node in document order; visit returns false to skip the
// node's children. Iterative, so deeply nested input cannot overflow the stack.
template <typename Visit>
void walk(TSNode root, Visit visit) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    bool descend = visit(ts_tree_cursor_current_node(&cursor));
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace

BodyScan elide_bodies(Language lang, TSNode root, std::string_view text) {
  BodyScan scan;
  LineIndex index(text);
  walk(root, [&](TSNode n) {
    // A function cut by a slice's edge is kept whole (its error says where the cut is); the
    // complete functions inside it are still elided.
    if (!is_function_like(lang, node_type(n)) || ts_node_has_error(n)) return true;
    TSNode body = ts_node_child_by_field_name(n, "body", 4);
    if (ts_node_is_null(body) || !is_elidable_body(lang, node_type(body))) return true;
    ++scan.bodies;
    std::optional<Edit> edit =
        is_python(lang) ? python_edit(body, text, index) : brace_edit(body, text, index);
    if (edit) {
      edit->name = function_name(n, text);
      scan.edits.push_back(std::move(*edit));
    }
    return false;  // outermost only: the body goes (or stays) as a whole
  });
  return scan;
}

std::vector<Edit> trim_doc_comments(Language lang, TSNode root, std::string_view text) {
  std::vector<Edit> edits;
  if (!has_block_doc_comments(lang)) return edits;
  walk(root, [&](TSNode n) {
    if (node_type(n) == "comment") {
      std::string t = trimmed_doc(node_text(n, text));
      if (!t.empty()) edits.push_back({ts_node_start_byte(n), ts_node_end_byte(n), std::move(t)});
      return false;
    }
    return true;
  });
  return edits;
}

std::string apply_edits(std::string_view source, const std::vector<Edit>& edits) {
  std::string out;
  out.reserve(source.size());
  std::size_t pos = 0;
  for (const Edit& e : edits) {
    if (e.start < pos) continue;  // overlapping: keep the earlier edit
    out.append(source, pos, e.start - pos);
    out += e.replacement;
    pos = e.end;
  }
  out.append(source, pos);
  return out;
}

}  // namespace caveman::compress::code
