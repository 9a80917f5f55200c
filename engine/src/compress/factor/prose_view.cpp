#include "compress/factor/prose_view.h"

#include <algorithm>
#include <vector>

#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"
#include "compress/factor/prose_syntax.h"
#include "text/lines.h"

namespace caveman::compress::factor {
namespace {

using Lines = std::vector<std::string_view>;

// Widths outside this range are not a fill column (a line of code, a table).
constexpr std::size_t kMinWidth = 40;
constexpr std::size_t kMaxWidth = 200;
// A block is written only when it joins at least this many line breaks: a join saves about
// one token (a line break and indentation become a space), the header costs about 45.
constexpr std::size_t kMinJoins = 48;

struct LineShape {
  std::size_t indent = 0;  // leading spaces
  std::size_t cols = 0;
  std::size_t first_word = 0;  // columns of the text up to its first space
  bool fillable = false;       // text after the indent, no trailing space, no tab
};

LineShape shape_of(std::string_view line) {
  LineShape s;
  s.cols = columns(line);
  std::size_t indent = line.find_first_not_of(' ');
  if (indent == std::string_view::npos) return s;
  s.indent = indent;
  std::string_view body = line.substr(indent);
  s.fillable = body.back() != ' ' && body.find('\t') == std::string_view::npos &&
               body.find('\r') == std::string_view::npos;
  s.first_word = columns(body.substr(0, body.find(' ')));
  return s;
}

// The widths at which line k and line k+1 are one paragraph filled greedily: both fit, and
// line k+1's first word would not have fit after line k. Empty range: lo > hi.
std::pair<std::size_t, std::size_t> join_range(const LineShape& a, const LineShape& b) {
  if (!a.fillable || !b.fillable || a.indent != b.indent) return {1, 0};
  return {std::max(a.cols, b.cols), a.cols + b.first_word};  // a.cols + 1 + fw - 1
}

// The width joining the most pairs (ties: the narrower); 0 when none joins.
std::size_t choose_width(const std::vector<LineShape>& shapes) {
  std::vector<long> delta(kMaxWidth + 2, 0);
  for (std::size_t k = 0; k + 1 < shapes.size(); ++k) {
    auto [lo, hi] = join_range(shapes[k], shapes[k + 1]);
    lo = std::max(lo, kMinWidth);
    hi = std::min(hi, kMaxWidth);
    if (lo > hi) continue;
    ++delta[lo];
    --delta[hi + 1];
  }
  std::size_t best = 0;
  long best_count = 0, run = 0;
  for (std::size_t w = 0; w <= kMaxWidth; ++w) {
    run += delta[w];
    if (run > best_count) {
      best_count = run;
      best = w;
    }
  }
  return best;
}

// The rows of lines [begin, end) (each one the fill leaves as it is): joinable neighbours
// joined.
std::vector<std::string> join_rows(const Lines& lines, const std::vector<LineShape>& shapes,
                                   std::size_t begin, std::size_t end, std::size_t width,
                                   std::size_t* joins) {
  std::vector<std::string> rows;
  for (std::size_t k = begin; k < end; ++k) {
    if (k > begin) {
      auto [lo, hi] = join_range(shapes[k - 1], shapes[k]);
      if (lo <= width && width <= hi) {
        rows.back() += ' ';
        rows.back() += lines[k].substr(shapes[k].indent);
        ++*joins;
        continue;
      }
    }
    rows.emplace_back(lines[k]);
  }
  return rows;
}

}  // namespace

std::optional<std::string> unwrap_view(std::string_view text) {
  if (text.size() > kMaxViewInputBytes || contains_block(text)) return std::nullopt;
  Lines lines = text::split_all(text);
  std::vector<LineShape> shapes;
  shapes.reserve(lines.size());
  for (std::string_view l : lines) shapes.push_back(shape_of(l));
  const std::size_t width = choose_width(shapes);
  if (width == 0) return std::nullopt;
  // A line the fill leaves as it is: within the width, or with no space to break at within
  // it (a long link or path). Other lines stay outside blocks.
  auto as_is = [&](std::size_t k) {
    return shapes[k].cols <= width || refill(lines[k], width).size() == 1;
  };
  std::vector<std::string> out;
  bool any = false;
  for (std::size_t i = 0; i < lines.size();) {
    if (!as_is(i)) {
      out.emplace_back(lines[i++]);
      continue;
    }
    // A run of lines the fill leaves as they are: one block when it joins enough of them.
    std::size_t end = i;
    while (end < lines.size() && as_is(end)) ++end;
    std::size_t joins = 0;
    std::vector<std::string> rows = join_rows(lines, shapes, i, end, width, &joins);
    if (joins >= kMinJoins) {
      out.push_back(write_prose_header({end - i, width}));
      for (std::string& r : rows) out.push_back(std::move(r));
      any = true;
    } else {
      for (std::size_t k = i; k < end; ++k) out.emplace_back(lines[k]);
    }
    i = end;
  }
  if (!any) return std::nullopt;
  return checked_view(text::join_lines(out, false), text);
}

}  // namespace caveman::compress::factor
