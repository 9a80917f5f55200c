#include "compress/diff/diff_moves.h"

#include <cstdint>
#include <map>
#include <utility>

namespace caveman::compress::diff {
namespace {

constexpr std::size_t kMaxCandidates = 64;        // added lines indexed per distinct text
constexpr std::int64_t kCompareBudget = 4000000;  // line comparisons per input, at most

bool has_word_char(std::string_view s) {
  for (char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
      return true;
    }
  }
  return false;
}

}  // namespace

bool worth_eliding(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end,
                   const std::string& marker) {
  std::size_t bytes = 0;
  for (std::size_t i = begin; i < end; ++i) bytes += lines[i].size() + 1;
  return 2 * (marker.size() + 1) <= bytes;
}

std::vector<Elision> find_reindented(const std::vector<std::string_view>& lines, const Parsed& p,
                                     const std::vector<bool>& taken) {
  std::vector<Elision> out;
  const std::size_t n = lines.size();
  for (std::size_t a = 0; a < n;) {
    if (p.kinds[a] != Kind::kRemoved) {
      ++a;
      continue;
    }
    std::size_t b = a;
    while (b < n && p.kinds[b] == Kind::kRemoved) ++b;
    std::size_t c = b;
    while (c < n && p.kinds[c] == Kind::kAdded) ++c;
    bool match = c - b == b - a;
    bool differs = false, words = false;
    for (std::size_t k = 0; match && k < b - a; ++k) {
      if (taken[a + k] || taken[b + k]) match = false;
      std::string_view old_line = body_of(lines[a + k]), new_line = body_of(lines[b + k]);
      if (!match || squash_spaces(old_line) != squash_spaces(new_line)) {
        match = false;
        break;
      }
      differs = differs || old_line != new_line;
      words = words || has_word_char(old_line);
    }
    if (match && differs && words) {
      std::string note = "the next " + std::to_string(b - a) + " added lines differ only in whitespace";
      if (worth_eliding(lines, a, b, run_marker(Kind::kRemoved, static_cast<std::int64_t>(b - a), note))) {
        out.push_back(Elision{a, b, std::move(note), {}});
      }
    }
    a = c > b ? c : b;
  }
  return out;
}

std::vector<Elision> find_moved(const std::vector<std::string_view>& lines, const Parsed& p,
                                const std::vector<bool>& taken) {
  const std::size_t n = lines.size();
  auto scope_of = [&](std::size_t i) {
    return p.hunks[static_cast<std::size_t>(p.hunk_of[i])].scope;
  };
  std::map<std::pair<std::size_t, std::string_view>, std::vector<std::size_t>> added;
  for (std::size_t i = 0; i < n; ++i) {
    if (p.kinds[i] != Kind::kAdded || taken[i] || p.hunk_of[i] < 0) continue;
    std::vector<std::size_t>& at = added[{scope_of(i), body_of(lines[i])}];
    if (at.size() < kMaxCandidates) at.push_back(i);
  }
  std::vector<Elision> out;
  std::vector<bool> claimed(n, false);
  std::int64_t budget = kCompareBudget;
  auto usable_removed = [&](std::size_t i) { return p.kinds[i] == Kind::kRemoved && !taken[i]; };
  for (std::size_t i = 0; i < n && budget > 0;) {
    if (!usable_removed(i) || p.hunk_of[i] < 0) {
      ++i;
      continue;
    }
    std::size_t scope = scope_of(i);
    auto it = added.find({scope, body_of(lines[i])});
    std::size_t best_len = 0, best_j = 0;
    if (it != added.end()) {
      for (std::size_t j : it->second) {
        std::size_t len = 0;
        while (i + len < n && j + len < n && usable_removed(i + len) &&
               p.kinds[j + len] == Kind::kAdded && !taken[j + len] && !claimed[j + len] &&
               body_of(lines[i + len]) == body_of(lines[j + len])) {
          ++len;
        }
        budget -= static_cast<std::int64_t>(len) + 1;
        if (len > best_len) {
          best_len = len;
          best_j = j;
        }
      }
    }
    std::size_t words = 0;
    for (std::size_t k = 0; k < best_len; ++k) words += has_word_char(body_of(lines[i + k])) ? 1 : 0;
    if (best_len >= kMinMovedLines && words >= kMinMovedLines) {
      const std::string& file = p.hunks[static_cast<std::size_t>(p.hunk_of[best_j])].file;
      std::string note = "identical to added " + (file.empty() ? std::string("lines ") : file + ":") +
                         std::to_string(p.new_line[best_j]) + "-" +
                         std::to_string(p.new_line[best_j + best_len - 1]);
      if (worth_eliding(lines, i, i + best_len,
                        run_marker(Kind::kRemoved, static_cast<std::int64_t>(best_len), note))) {
        for (std::size_t k = 0; k < best_len; ++k) claimed[best_j + k] = true;
        out.push_back(Elision{i, i + best_len, std::move(note), file});
        i += best_len;
        continue;
      }
    }
    ++i;
  }
  return out;
}

}  // namespace caveman::compress::diff
