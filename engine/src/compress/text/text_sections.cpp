#include "compress/text/text_sections.h"

#include "caveman/base/text.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMaxHeadingBytes = 96;
constexpr std::size_t kMaxHeadingWords = 8;

struct LineSpan {
  std::size_t begin;
  std::size_t end;  // excludes '\n'
};

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

bool blank(std::string_view s) {
  for (char c : s) {
    if (!is_ws(c)) return false;
  }
  return true;
}

// CommonMark closing fence: 0–3 spaces, ≥ len of `ch`, then only whitespace.
bool is_fence_close(std::string_view line, char ch, std::size_t len) {
  std::size_t i = base::leading_blanks(line);
  if (i > 3) return false;
  std::size_t run = 0;
  while (i < line.size() && line[i] == ch) ++i, ++run;
  return run >= len && blank(line.substr(i));
}

}  // namespace

bool is_fence_open(std::string_view line, char* fence_char, std::size_t* fence_len) {
  std::size_t i = base::leading_blanks(line);
  if (i > 3 || i >= line.size()) return false;
  char ch = line[i];
  if (ch != '`' && ch != '~') return false;
  std::size_t run = 0;
  while (i < line.size() && line[i] == ch) ++i, ++run;
  if (run < 3) return false;
  *fence_char = ch;
  *fence_len = run;
  return true;
}

bool is_heading(std::string_view trimmed) {
  if (trimmed.empty()) return false;
  if (trimmed[0] == '#') return true;
  if (trimmed.size() > kMaxHeadingBytes) return false;
  if (trimmed.find_first_of(".!?") != std::string_view::npos) return false;
  std::size_t words = 0;
  bool in_word = false;
  for (char c : trimmed) {
    if (is_ws(c)) {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++words;
    }
  }
  return words >= 1 && words <= kMaxHeadingWords;
}

Sections split_sections(std::string_view text) {
  std::vector<LineSpan> lines;
  for (std::size_t pos = 0;;) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      lines.push_back({pos, text.size()});
      break;
    }
    lines.push_back({pos, nl});
    pos = nl + 1;
  }
  auto line_at = [&](std::size_t i) {
    return text.substr(lines[i].begin, lines[i].end - lines[i].begin);
  };

  Sections out;
  // Paragraph mode when a blank line separates blocks (the empty remainder after a final
  // newline does not count).
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = line_at(i);
    if (blank(l) && !(i + 1 == lines.size() && l.empty())) {
      out.paragraph_mode = true;
      break;
    }
  }
  // Section [first line, last line], trailing whitespace excluded.
  auto add = [&](std::size_t a, std::size_t b, bool fence) {
    std::size_t begin = lines[a].begin;
    std::size_t end = lines[b].end;
    while (end > begin && is_ws(text[end - 1])) --end;
    if (end > begin) out.sections.push_back({begin, end, fence});
  };
  auto add_paragraph = [&](std::size_t a, std::size_t b) {
    if (b > a) {
      std::string_view first = line_at(a);
      std::string_view t = text::trim_ascii(first);
      bool atx = !t.empty() && t[0] == '#';
      bool term =
          is_heading(t) && base::leading_blanks(line_at(a + 1)) > base::leading_blanks(first);
      if (atx || term) {
        add(a, a, false);
        add(a + 1, b, false);
        return;
      }
    }
    add(a, b, false);
  };

  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t para = kNone;
  auto flush = [&](std::size_t before) {
    if (para != kNone && before > para) add_paragraph(para, before - 1);
    para = kNone;
  };
  for (std::size_t i = 0; i < lines.size();) {
    std::string_view line = line_at(i);
    char fc = 0;
    std::size_t fl = 0;
    if (is_fence_open(line, &fc, &fl)) {
      flush(i);
      std::size_t j = i + 1;
      while (j < lines.size() && !is_fence_close(line_at(j), fc, fl)) ++j;
      if (j >= lines.size()) j = lines.size() - 1;  // unterminated: swallows the rest
      add(i, j, true);
      i = j + 1;
      continue;
    }
    if (blank(line)) {
      flush(i);
    } else if (!out.paragraph_mode) {
      add(i, i, false);
    } else if (para == kNone) {
      para = i;
    }
    ++i;
  }
  flush(lines.size());
  return out;
}

std::string strip_html_noise(std::string_view text, std::string_view marker) {
  std::string lower = text::ascii_lower(text);
  std::string_view trimmed = text::trim_ascii(lower);
  bool html = trimmed.substr(0, 14) == "<!doctype html" || trimmed.substr(0, 5) == "<html" ||
              lower.find("<body") != std::string::npos;
  if (!html) return std::string(text);
  std::string out;
  out.reserve(text.size());
  // Once a closing delimiter is missing after some position it is missing after every
  // later one: remembering that keeps unterminated input linear.
  bool no_comment_end = false;
  bool no_end[3] = {false, false, false};
  static constexpr std::string_view kTags[3] = {"script", "style", "svg"};
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t lt = lower.find('<', i);
    if (lt == std::string::npos) break;
    out.append(text.substr(i, lt - i));
    std::string_view rest = std::string_view(lower).substr(lt);
    if (!no_comment_end && rest.substr(0, 4) == "<!--") {
      std::size_t close = lower.find("-->", lt + 4);
      if (close != std::string::npos) {
        i = close + 3;
        continue;
      }
      no_comment_end = true;
    }
    bool replaced = false;
    for (std::size_t k = 0; k < 3 && !replaced; ++k) {
      std::string_view tag = kTags[k];
      if (no_end[k] || rest.size() < tag.size() + 1 || rest.substr(1, tag.size()) != tag) continue;
      std::size_t gt = lower.find('>', lt + 1 + tag.size());
      std::string close = "</" + std::string(tag) + ">";
      std::size_t end = gt == std::string::npos ? gt : lower.find(close, gt + 1);
      if (end == std::string::npos) {
        no_end[k] = true;
        continue;
      }
      out.append(marker);
      i = end + close.size();
      replaced = true;
    }
    if (replaced) continue;
    out.push_back(text[lt]);
    i = lt + 1;
  }
  if (i < text.size()) out.append(text.substr(i));
  return out;
}

}  // namespace caveman::compress
