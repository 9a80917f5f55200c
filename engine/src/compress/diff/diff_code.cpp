#include "compress/diff/diff_code.h"

#include <memory>
#include <string>

#include "compress/code/elide.h"
#include "compress/code/parse.h"

namespace caveman::compress::diff {
namespace {

std::optional<code::Language> language_of(std::string_view path) {
  std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return std::nullopt;
  std::string_view ext = path.substr(dot + 1);
  if (ext == "go") return code::Language::kGo;
  if (ext == "js" || ext == "mjs" || ext == "cjs" || ext == "jsx") return code::Language::kJavaScript;
  if (ext == "ts" || ext == "mts" || ext == "cts") return code::Language::kTypeScript;
  if (ext == "tsx") return code::Language::kTsx;
  if (ext == "c") return code::Language::kC;
  // .h: C++ grammar, which also reads the C headers seen in practice.
  if (ext == "h" || ext == "cc" || ext == "cpp" || ext == "cxx" || ext == "hpp" || ext == "hh" ||
      ext == "hxx") {
    return code::Language::kCpp;
  }
  return std::nullopt;
}

bool is_comment_line(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  if (t.starts_with("#")) return t.size() == 1 || t[1] == ' ' || t[1] == '#';
  return t.starts_with("//") || t.starts_with("/*") || t.starts_with("*") || t.starts_with("--") ||
         t.starts_with(";") || t.starts_with("<!--") || t.starts_with("\"\"\"") ||
         t.starts_with("rem ") || t.starts_with("REM ");
}

bool mentions_licence(std::string_view t) {
  for (std::string_view w : {"Copyright", "COPYRIGHT", "License", "LICENSE", "Licence", "SPDX-"}) {
    if (t.find(w) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::vector<std::size_t> licence_header_lines(const std::vector<std::string_view>& lines,
                                              const Parsed& p, const Hunk& hunk) {
  std::vector<std::size_t> block;  // the leading comment block, blank lines included
  bool licence = false;
  for (std::size_t i = hunk.header + 1; i < hunk.end; ++i) {
    Kind k = p.kinds[i];
    if (k == Kind::kMeta) continue;
    if (k != Kind::kAdded) {
      if (k == Kind::kAddedMarker) break;
      return {};  // not a whole new file
    }
    std::string_view body = strip_cr(lines[i]).substr(1);
    if (block.empty() && body.starts_with("#!")) continue;  // shebang
    bool blank = body.find_first_not_of(" \t") == std::string_view::npos;
    if (!blank && !is_comment_line(body)) break;
    if (block.empty() && blank) continue;
    block.push_back(i);
    licence = licence || mentions_licence(body);
  }
  while (!block.empty() && strip_cr(lines[block.back()]).substr(1).find_first_not_of(" \t") ==
                               std::string_view::npos) {
    block.pop_back();
  }
  if (!licence || block.size() < 4) return {};
  return std::vector<std::size_t>(block.begin() + 1, block.end());
}

std::optional<std::vector<std::size_t>> function_body_lines(
    const std::vector<std::string_view>& lines, const Parsed& p, const Hunk& hunk) {
  std::optional<code::Language> lang = language_of(hunk.file);
  if (!lang) return std::nullopt;
  // The new file's text, one added line at a time (markers' lines are simply absent).
  std::string text;
  std::vector<std::size_t> index, offset;
  for (std::size_t i = hunk.header + 1; i < hunk.end; ++i) {
    Kind k = p.kinds[i];
    if (k == Kind::kAdded) {
      index.push_back(i);
      offset.push_back(text.size());
      text += strip_cr(lines[i]).substr(1);
      text.push_back('\n');
    } else if (k != Kind::kAddedMarker && k != Kind::kMeta) {
      return std::nullopt;  // context or removed lines: not a whole new file
    }
  }
  if (index.empty() || text.size() > code::kMaxParseBytes) return std::nullopt;
  std::unique_ptr<code::CleanParse> parsed = code::parse_clean(*lang, text);
  if (!parsed) return std::nullopt;
  code::BodyScan scan = code::elide_bodies(*lang, ts_tree_root_node(parsed->tree.get()), text);
  // A line is inside a body when its text (from the first non-blank byte to the end)
  // lies within the body's byte range: the lines between `{` and `}`.
  std::vector<std::size_t> out;
  std::size_t e = 0;
  for (std::size_t k = 0; k < index.size(); ++k) {
    std::size_t begin = offset[k];
    std::size_t end = (k + 1 < index.size() ? offset[k + 1] : text.size()) - 1;  // the '\n'
    std::size_t first = begin;
    while (first < end && (text[first] == ' ' || text[first] == '\t')) ++first;
    while (e < scan.edits.size() && scan.edits[e].end <= first) ++e;
    if (e < scan.edits.size() && scan.edits[e].start < first && end < scan.edits[e].end) {
      out.push_back(index[k]);
    }
  }
  return out;
}

}  // namespace caveman::compress::diff
