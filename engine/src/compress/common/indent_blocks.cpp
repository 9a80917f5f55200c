#include "compress/common/indent_blocks.h"

#include <algorithm>
#include <set>
#include <vector>

#include "caveman/base/text.h"
#include "text/lines.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

bool is_blank(std::string_view l) { return l.find_first_not_of(" \t\r") == std::string_view::npos; }

struct Block {
  std::size_t header = 0, last = 0;  // interior: lines header+1 … last (no trailing blank line)
  bool big = false;                  // at least kMinBlockLines interior lines
  bool big_inside = false;           // a block of its interior is big
};

// Every non-blank line as a header; a line's block closes at the next non-blank line indented
// no deeper. The open headers form a stack of strictly increasing indents, so the one below a
// closing header is the block it sits in.
std::vector<Block> blocks_of(const std::vector<std::string_view>& lines) {
  std::vector<Block> blocks;
  std::vector<std::size_t> open;  // indexes into blocks
  auto close = [&](std::size_t end) {
    Block& b = blocks[open.back()];
    b.last = end - 1;
    while (b.last > b.header && is_blank(lines[b.last])) --b.last;
    b.big = b.last - b.header >= kMinBlockLines;
    bool inside = b.big || b.big_inside;
    open.pop_back();
    if (!open.empty() && inside) blocks[open.back()].big_inside = true;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (is_blank(lines[i])) continue;
    std::size_t indent = base::leading_blanks(lines[i]);
    while (!open.empty() && base::leading_blanks(lines[blocks[open.back()].header]) >= indent)
      close(i);
    open.push_back(blocks.size());
    blocks.push_back(Block{i, i});
  }
  while (!open.empty()) close(lines.size());
  return blocks;
}

// Query words (4+ characters) found in few of the blocks keep those blocks, rarest word
// first, while at most a quarter of them is kept: a query is often a whole prompt, whose
// common words name everything and so say nothing.
std::vector<bool> relevant(const std::vector<Block>& cands,
                           const std::vector<std::string_view>& lines, std::string_view query) {
  std::vector<bool> keep(cands.size(), false);
  std::set<std::string> words;
  for (std::string& w : text::word_tokens_lower(query)) {
    if (w.size() >= 4) words.insert(std::move(w));
  }
  std::vector<std::vector<std::size_t>> hits;  // per word, the blocks that hold it
  for (const std::string& w : words) {
    std::vector<std::size_t> h;
    for (std::size_t c = 0; c < cands.size(); ++c) {
      for (std::size_t l = cands[c].header; l <= cands[c].last; ++l) {
        if (text::contains_ci(lines[l], w)) {
          h.push_back(c);
          break;
        }
      }
    }
    if (!h.empty()) hits.push_back(std::move(h));
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const auto& a, const auto& b) { return a.size() < b.size(); });
  std::size_t kept = 0;
  for (const std::vector<std::size_t>& h : hits) {
    std::size_t more = 0;
    for (std::size_t c : h) more += keep[c] ? 0 : 1;
    if ((kept + more) * 4 > cands.size()) break;
    for (std::size_t c : h) keep[c] = true;
    kept += more;
  }
  return keep;
}

}  // namespace

std::optional<std::string> elide_indented_blocks(std::string_view text, std::string_view query) {
  std::vector<std::string_view> lines = text::split_all(text);
  std::vector<Block> cands;
  for (const Block& b : blocks_of(lines)) {
    if (b.big && !b.big_inside) cands.push_back(b);
  }
  std::vector<bool> keep = relevant(cands, lines, query);  // cands are in header order
  std::string out;
  out.reserve(text.size());
  std::size_t hidden = 0, next = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += '\n';
    out += lines[i];
    while (next < cands.size() && cands[next].header < i) ++next;
    if (next == cands.size() || cands[next].header != i || keep[next]) continue;
    const Block& b = cands[next];
    std::size_t first = i + 1;
    while (is_blank(lines[first])) ++first;
    out += '\n';
    out += lines[first].substr(0, base::leading_blanks(lines[first]));
    out += "\xE2\x80\xA6 lines " + std::to_string(i + 2) + "\xE2\x80\x93" +
           std::to_string(b.last + 1) + " elided (caveman)";
    if (lines[b.last].ends_with('\r')) out += '\r';
    hidden += b.last - i;
    i = b.last;
  }
  if (hidden == 0) return std::nullopt;
  return out;
}

}  // namespace caveman::compress
