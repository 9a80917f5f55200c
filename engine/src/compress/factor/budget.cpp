#include "compress/factor/budget.h"

#include <algorithm>
#include <map>
#include <vector>

#include "compress/common/elide_lines.h"
#include "compress/common/problem_lines.h"
#include "compress/common/selector.h"
#include "compress/factor/line_blocks.h"
#include "text/bm25.h"
#include "text/lines.h"
#include "text/words.h"

namespace caveman::compress::factor {
namespace {

constexpr std::size_t kHead = 20;
constexpr std::size_t kTail = 10;
constexpr std::size_t kMinLines = kHead + kTail + 8;
constexpr int kQueryLimit = 64;
constexpr int kRounds = 5;

// The outline of a document: Markdown headings and INI/TOML section headers. Kept so that a
// cut view still shows what is where.
bool is_heading(std::string_view line) {
  if (line.starts_with("#")) {
    std::size_t i = line.find_first_not_of('#');
    return i != std::string_view::npos && i <= 6 && line[i] == ' ';
  }
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  return line.size() > 2 && line.front() == '[' && line.back() == ']' &&
         line.find(' ') == std::string_view::npos;
}

// A line's template, roughly: its first three space-separated words with digits masked, and
// its word count. Lines of a frequent template are the repetitive ones.
std::string signature(std::string_view line) {
  std::string sig;
  std::size_t words = 1, shown = 0;
  for (char c : line) {
    if (c == ' ') {
      ++words;
      if (++shown >= 3) continue;
    }
    if (shown >= 3) continue;
    sig.push_back(c >= '0' && c <= '9' ? '#' : c);
  }
  return sig + '|' + std::to_string(words);
}

// The lines in the order they are given up: most frequent template first, later lines of a
// template before earlier ones (the first occurrences stay longest).
std::vector<std::size_t> give_up_order(const std::vector<std::string_view>& lines,
                                       const std::vector<bool>& pinned) {
  std::map<std::string, std::size_t> freq;
  std::vector<std::string> sigs(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    sigs[i] = signature(lines[i]);
    ++freq[sigs[i]];
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!pinned[i]) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    std::size_t fa = freq[sigs[a]], fb = freq[sigs[b]];
    return fa != fb ? fa > fb : a > b;
  });
  return order;
}

std::string elide(const text::Lines& split, const std::vector<bool>& keep) {
  ElidedLines out = elide_runs(split.lines, keep, split.trailing_newline, split.crlf_majority,
                               [](std::size_t, std::size_t run, std::string_view selector) {
                                 return selector_marker(run, "lines", selector);
                               });
  return std::move(out.text);
}

}  // namespace

std::optional<Fitted> fit_budget(std::string_view text, std::string_view query,
                                 std::int64_t budget, std::string_view barrier_needle,
                                 const tokens::Counter& counter) {
  text::Lines split = text::split_lines(text);
  const std::vector<std::string_view>& lines = split.lines;
  const std::size_t n = lines.size();
  if (budget <= 0 || n < kMinLines) return std::nullopt;
  std::vector<bool> pinned(n, false);
  const std::vector<bool> needles = needle_lines(lines);
  for (std::size_t i = 0; i < n; ++i) {
    pinned[i] = needles[i] || i < kHead || i + kTail >= n || names_a_problem(lines[i]) ||
                is_heading(lines[i]) || lines[i].find(barrier_needle) != std::string_view::npos;
  }
  text::keep_query_relevant(lines, query, pinned, kQueryLimit);
  const std::vector<std::size_t> order = give_up_order(lines, pinned);

  std::size_t total_bytes = text.size();
  std::size_t total_tokens = counter.count(text);
  double share = static_cast<double>(budget) / static_cast<double>(std::max<std::size_t>(total_tokens, 1));
  std::optional<Fitted> best;
  for (int round = 0; round < kRounds; ++round) {
    // Give up lines in order until what stays is about `share` of the bytes.
    std::vector<bool> keep(n, true);
    std::size_t kept = total_bytes;
    const double target = share * static_cast<double>(total_bytes);
    for (std::size_t i : order) {
      if (static_cast<double>(kept) <= target) break;
      keep[i] = false;
      kept -= std::min(kept, lines[i].size() + 1);
    }
    std::string cut = elide(split, keep);
    std::optional<std::string> view = factor_text(cut, [barrier_needle](std::string_view l) {
      return l.find(barrier_needle) != std::string_view::npos || names_a_problem(l);
    });
    std::string& chosen = view ? *view : cut;
    std::size_t tokens = counter.count(chosen);
    if (!best || tokens < best->tokens) best = Fitted{std::move(chosen), tokens};
    if (static_cast<std::int64_t>(tokens) <= budget) break;
    share *= 0.95 * static_cast<double>(budget) / static_cast<double>(tokens);
  }
  if (!best || best->tokens >= total_tokens) return std::nullopt;
  return best;
}

}  // namespace caveman::compress::factor
