#include "output_lines.h"

#include <algorithm>
#include <array>
#include <set>

#include "caveman/base/split.h"
#include "caveman/base/text.h"

namespace caveman::shrink {
namespace {

constexpr char kEsc = '\x1b';

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Removes CSI (ESC [ … final), OSC (ESC ] … BEL | ESC \) and two-byte ESC sequences.
std::string strip_escapes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] != kEsc || i + 1 >= s.size()) {
      if (s[i] != kEsc) out.push_back(s[i]);
      ++i;
      continue;
    }
    char kind = s[i + 1];
    if (kind == '[') {
      std::size_t j = i + 2;
      while (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x20 &&
             static_cast<unsigned char>(s[j]) <= 0x3F) {
        ++j;
      }
      while (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x20 &&
             static_cast<unsigned char>(s[j]) <= 0x2F) {
        ++j;
      }
      i = j < s.size() ? j + 1 : j;  // the final byte 0x40–0x7E
    } else if (kind == ']') {
      std::size_t j = i + 2;
      while (j < s.size() && s[j] != '\a' && !(s[j] == kEsc && j + 1 < s.size() && s[j + 1] == '\\')) {
        ++j;
      }
      if (j < s.size() && s[j] == '\a') {
        i = j + 1;
      } else {
        i = std::min(s.size(), j + 2);
      }
    } else {
      i += 2;
    }
  }
  return out;
}

constexpr std::array<std::string_view, 17> kErrorWords = {
    "error",  "errors", "err",      "fatal",     "fail",      "failed", "failure",
    "failures", "failing", "panic", "panicked",  "exception", "traceback", "abort",
    "aborted", "denied", "assertion"};
constexpr std::array<std::string_view, 6> kErrorPhrases = {
    "undefined reference", "segmentation fault", "core dumped",
    "no such file",        "not found",          "cannot"};

}  // namespace

std::string clean_line(std::string_view line) {
  // The last non-empty carriage-return segment is what stays on screen.
  std::string_view shown = line;
  std::size_t end = line.size();
  while (end > 0) {
    std::size_t cr = line.rfind('\r', end - 1);
    std::size_t begin = cr == std::string_view::npos ? 0 : cr + 1;
    if (end > begin) {
      shown = line.substr(begin, end - begin);
      break;
    }
    if (cr == std::string_view::npos) break;
    end = cr;
  }
  std::string out = strip_escapes(shown);
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t' || out.back() == '\r')) {
    out.pop_back();
  }
  return out;
}

bool is_error_line(std::string_view line) {
  std::string low = base::ascii_lower(line);
  for (std::string_view phrase : kErrorPhrases) {
    if (low.find(phrase) != std::string::npos) return true;
  }
  std::size_t i = 0;
  while (i < low.size()) {
    if (!is_alnum(low[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < low.size() && is_alnum(low[j])) ++j;
    std::string_view word(low.data() + i, j - i);
    if (std::find(kErrorWords.begin(), kErrorWords.end(), word) != kErrorWords.end()) return true;
    if ((word.size() > 5 && word.ends_with("error")) ||
        (word.size() > 9 && word.ends_with("exception"))) {
      return true;
    }
    i = j;
  }
  return false;
}

CleanLines::CleanLines(std::string_view text) {
  for (std::string_view line : base::split_lines(text)) {
    bool dirty = line.find('\r') != std::string_view::npos ||
                 line.find(kEsc) != std::string_view::npos ||
                 (!line.empty() && (line.back() == ' ' || line.back() == '\t'));
    if (!dirty) {
      lines_.push_back(line);
      continue;
    }
    owned_.push_back(clean_line(line));
    lines_.push_back(owned_.back());
  }
}

std::vector<std::size_t> failure_evidence(const std::vector<std::string_view>& clean_lines) {
  std::set<std::size_t> keep;
  for (std::size_t i = 0; i < clean_lines.size(); ++i) {
    if (is_error_line(clean_lines[i])) keep.insert(i);
  }
  std::size_t tail = 0;
  for (std::size_t i = clean_lines.size(); i > 0 && tail < kTailLines; --i) {
    if (clean_lines[i - 1].empty()) continue;
    keep.insert(i - 1);
    ++tail;
  }
  return {keep.begin(), keep.end()};
}

bool shows_lines(std::string_view shown, const std::vector<std::string_view>& clean_lines,
                 const std::vector<std::size_t>& required) {
  std::set<std::string, std::less<>> present;
  for (std::string_view line : base::split_lines(shown)) present.insert(clean_line(line));
  for (std::size_t i : required) {
    if (i < clean_lines.size() && !clean_lines[i].empty() && present.count(clean_lines[i]) == 0) {
      return false;
    }
  }
  return true;
}

namespace {

void append_marker(std::size_t n, std::string& out) {
  out += "\xE2\x80\xA6 " + std::to_string(n) + " lines elided (caveman) \xE2\x80\xA6\n";
}

}  // namespace

std::string keep_lines_view(const std::vector<std::string_view>& clean_lines,
                            const std::vector<std::size_t>& keep, std::size_t head) {
  std::vector<bool> kept(clean_lines.size(), false);
  for (std::size_t i = 0; i < clean_lines.size() && i < head; ++i) kept[i] = true;
  for (std::size_t i : keep) {
    if (i < kept.size()) kept[i] = true;
  }
  std::string out;
  std::size_t i = 0;
  while (i < clean_lines.size()) {
    if (kept[i]) {
      out += clean_lines[i];
      out.push_back('\n');
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < clean_lines.size() && !kept[j]) ++j;
    if (j - i == 1) {
      out += clean_lines[i];
      out.push_back('\n');
    } else {
      append_marker(j - i, out);
    }
    i = j;
  }
  return out;
}

std::string sparse_lines_view(const std::vector<std::pair<std::size_t, std::string>>& kept,
                              std::size_t total) {
  std::string out;
  std::size_t next = 0;  // first line index not yet accounted for
  for (const auto& [index, text] : kept) {
    if (index < next) continue;
    if (index > next) append_marker(index - next, out);
    out += text;
    out.push_back('\n');
    next = index + 1;
  }
  if (total > next) append_marker(total - next, out);
  return out;
}

}  // namespace caveman::shrink
