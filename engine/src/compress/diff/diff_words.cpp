#include "compress/diff/diff_words.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace caveman::compress::diff {
namespace {

constexpr std::string_view kDelOpen = "[-", kDelClose = "-]", kAddOpen = "{+", kAddClose = "+}";
constexpr std::size_t kMaxWords = 256;  // the alignment is quadratic in words

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (static_cast<unsigned char>(c) & 0x80) != 0;
}

// Words: runs of letters, digits, '_' and non-ASCII bytes; runs of spaces; any other byte alone.
std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t j = i + 1;
    if (is_word_char(s[i])) {
      while (j < s.size() && is_word_char(s[j])) ++j;
    } else if (s[i] == ' ') {
      while (j < s.size() && s[j] == ' ') ++j;
    }
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool holds_markup(std::string_view s) {
  for (std::string_view m : {kDelOpen, kDelClose, kAddOpen, kAddClose}) {
    if (s.find(m) != std::string_view::npos) return true;
  }
  return false;
}

// The longest common subsequence of words, as a flag per word of `a` and of `b`.
void align(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
           std::vector<bool>& in_a, std::vector<bool>& in_b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::uint32_t> len((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return len[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  in_a.assign(n, false);
  in_b.assign(m, false);
  for (std::size_t i = 0, j = 0; i < n && j < m;) {
    if (a[i] == b[j]) {
      in_a[i++] = in_b[j++] = true;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
}

}  // namespace

std::optional<std::string> word_diff_line(std::string_view removed, std::string_view added) {
  if (!removed.starts_with('-') || !added.starts_with('+')) return std::nullopt;
  std::string_view a = removed.substr(1), b = added.substr(1);
  if (a.ends_with('\r') || b.ends_with('\r') || holds_markup(a) || holds_markup(b)) return std::nullopt;
  std::vector<std::string_view> wa = words_of(a), wb = words_of(b);
  if (wa.size() > kMaxWords || wb.size() > kMaxWords) return std::nullopt;
  std::vector<bool> in_a, in_b;
  align(wa, wb, in_a, in_b);
  // Alike by their visible text: shared indentation says nothing about a pair.
  auto visible = [](std::string_view w) { return w.front() == ' ' ? std::size_t{0} : w.size(); };
  std::size_t shared = 0, total = 0;
  for (std::size_t i = 0; i < wa.size(); ++i) {
    shared += in_a[i] ? visible(wa[i]) : 0;
    total += visible(wa[i]);
  }
  for (std::string_view w : wb) total += visible(w);
  if (total == 0 || 2.0 * static_cast<double>(shared) < kAlike * static_cast<double>(total)) {
    return std::nullopt;
  }
  // Between two shared words: the removed words, then the added ones.
  std::string out = "~";
  std::size_t i = 0, j = 0;
  while (i < wa.size() || j < wb.size()) {
    std::string del, add;
    while (i < wa.size() && !in_a[i]) del += wa[i++];
    while (j < wb.size() && !in_b[j]) add += wb[j++];
    if (!del.empty()) out += std::string(kDelOpen) + del + std::string(kDelClose);
    if (!add.empty()) out += std::string(kAddOpen) + add + std::string(kAddClose);
    if (i < wa.size() && j < wb.size()) {
      out += wa[i++];
      ++j;
    }
  }
  std::optional<std::pair<std::string, std::string>> back = split_word_diff(out);
  if (!back || back->first != removed || back->second != added) return std::nullopt;
  return out;
}

std::optional<std::pair<std::string, std::string>> split_word_diff(std::string_view line) {
  if (!line.starts_with('~')) return std::nullopt;
  std::string removed = "-", added = "+";
  bool marked = false;
  for (std::size_t i = 1; i < line.size();) {
    std::size_t del = line.find(kDelOpen, i), add = line.find(kAddOpen, i);
    std::size_t next = std::min(del, add);
    std::string_view both = line.substr(i, next == std::string_view::npos ? line.npos : next - i);
    removed += both;
    added += both;
    if (next == std::string_view::npos) break;
    const bool is_del = next == del;
    std::string_view close = is_del ? kDelClose : kAddClose;
    std::size_t end = line.find(close, next + 2);
    if (end == std::string_view::npos) return std::nullopt;
    (is_del ? removed : added) += line.substr(next + 2, end - next - 2);
    marked = true;
    i = end + 2;
  }
  if (!marked) return std::nullopt;
  return std::pair{std::move(removed), std::move(added)};
}

}  // namespace caveman::compress::diff
