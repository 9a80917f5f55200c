// The tabular compressor (docs/spec/compressors.md#tabular): CSV, TSV and Markdown tables. Keeps
// the header, the first 3 and last 2 data rows, rows with problem words, the rows holding each
// numeric column's minimum and maximum, query-relevant rows and every row the redundancy gate calls
// novel, and rows whose shape breaks the table's dominant pattern (keep_minority_shapes);
// each elided run becomes a selector marker line `… N rows matching "TEMPLATE" elided
// (caveman) …` true of every row it hides (docs/formats.md#markers). Kept rows and comment
// lines are copied byte for byte.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compress/common/elide_lines.h"
#include "compress/common/go_float.h"
#include "compress/common/keep_policy.h"
#include "compress/common/selector.h"
#include "compress/common/summary.h"
#include "compress/compressors.h"
#include "compress/tabular/table_parse.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

// head: the first data rows (after the header rows, which are always kept).
constexpr KeepPolicy kTabularKeep{.min_units = 12, .head = 3, .tail = 2, .query_limit = 24};
constexpr double kNumericShare = 0.70;
constexpr std::string_view kReentryNeedle = "rows elided (caveman)";
// Minority shapes: applies when one shape covers ≥ kDominantShare of the data rows; rows of
// shapes covering ≤ kMinorityShare are kept, unless that would keep more than kMinorityCap.
constexpr double kDominantShare = 0.50;
constexpr double kMinorityShare = 0.10;
constexpr double kMinorityCap = 0.25;
constexpr std::size_t kShapeCellBytes = 48;

std::string join(const std::vector<std::string>& cells, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += sep;
    out += cells[i];
  }
  return out;
}

bool has_problem_word(std::string_view row) {
  return text::contains_word_ci(row, {"error", "fail", "failed", "fatal", "panic", "exception",
                                      "warning", "security", "denied", "rejected"});
}

// Keeps the first row holding each numeric column's minimum and maximum (a column is
// numeric when ≥ 70% of the data rows parse as Go floats; NaN never wins).
void keep_extremes(const Table& t, std::size_t first_data, std::vector<bool>& keep) {
  const std::size_t data_rows = t.rows.size() - first_data;
  for (std::size_t c = 0; c < t.width; ++c) {
    std::size_t parsed = 0;
    std::optional<std::size_t> min_row, max_row;
    double min_v = 0, max_v = 0;
    for (std::size_t r = first_data; r < t.rows.size(); ++r) {
      if (c >= t.rows[r].size()) continue;
      std::optional<double> v = parse_go_float(text::trim_ascii(t.rows[r][c]));
      if (!v) continue;
      ++parsed;
      if (std::isnan(*v)) continue;
      if (!min_row || *v < min_v) min_row = r, min_v = *v;
      if (!max_row || *v > max_v) max_row = r, max_v = *v;
    }
    if (static_cast<double>(parsed) < kNumericShare * static_cast<double>(data_rows)) continue;
    if (min_row) keep[*min_row] = true;
    if (max_row) keep[*max_row] = true;
  }
}

// The row's shape: per cell, digit runs → '#', letter runs (and non-ASCII) → 'a', other
// bytes kept, cells separated by '|'. `5.6.3,2024-10-23T19:09:23.8+00:00` → `#.#.#|#-#-#a#:#:#.#+#:#`.
std::string row_shape(const std::vector<std::string>& row) {
  std::string shape;
  for (const std::string& cell : row) {
    std::size_t start = shape.size();
    char last = 0;
    for (char ch : cell) {
      auto b = static_cast<unsigned char>(ch);
      char cls = (b >= '0' && b <= '9')                                  ? '#'
                 : (b >= 0x80 || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')) ? 'a'
                                                                         : ch;
      if ((cls == '#' || cls == 'a') && cls == last) continue;
      shape.push_back(cls);
      last = cls;
      if (shape.size() - start >= kShapeCellBytes) break;
    }
    shape.push_back('|');
  }
  return shape;
}

// When most rows share one shape (nightly builds, one log format), the rows that break it
// (the stable releases among them, a differently formatted entry) are what a reader looks
// for: keep rows of rare shapes. No dominant shape → no rule (every row looks different).
void keep_minority_shapes(const Table& t, std::size_t first_data, std::vector<bool>& keep) {
  const std::size_t data_rows = t.rows.size() - first_data;
  std::vector<std::string> shapes;
  shapes.reserve(data_rows);
  std::map<std::string_view, std::size_t> counts;
  for (std::size_t r = first_data; r < t.rows.size(); ++r) shapes.push_back(row_shape(t.rows[r]));
  for (const std::string& s : shapes) ++counts[s];
  std::size_t dominant = 0;
  for (const auto& [shape, n] : counts) dominant = std::max(dominant, n);
  const auto rows = static_cast<double>(data_rows);
  if (static_cast<double>(dominant) < kDominantShare * rows) return;
  std::size_t minority = 0;
  for (const auto& [shape, n] : counts) {
    if (static_cast<double>(n) <= kMinorityShare * rows) minority += n;
  }
  if (static_cast<double>(minority) > kMinorityCap * rows) return;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (static_cast<double>(counts[shapes[i]]) <= kMinorityShare * rows) keep[first_data + i] = true;
  }
}

std::optional<CompressorOutput> compress_tabular(std::string_view input, std::string_view query) {
  if (input.find(kReentryNeedle) != std::string_view::npos || has_count_marker(input, "rows")) {
    return std::nullopt;
  }
  std::optional<Table> parsed = parse_table(input);
  if (!parsed) return std::nullopt;
  const Table& t = *parsed;
  const std::size_t n = t.rows.size();
  const std::size_t header_rows = t.header_rows();
  if (n < kTabularKeep.min_units || n <= header_rows + 6) return std::nullopt;

  std::vector<std::string> joined;
  joined.reserve(n);
  for (const auto& row : t.rows) joined.push_back(join(row, " "));
  std::vector<std::string_view> docs(joined.begin(), joined.end());

  std::vector<bool> keep(n, false);
  for (std::size_t r = 0; r < n; ++r) {
    keep[r] = r < header_rows + kTabularKeep.head || r + kTabularKeep.tail >= n ||
              has_problem_word(docs[r]);
  }
  keep_extremes(t, header_rows, keep);
  keep_minority_shapes(t, header_rows, keep);
  keep_relevant_and_novel(docs, query, kTabularKeep, keep);
  std::vector<std::string_view> row_texts;
  row_texts.reserve(n);
  for (std::size_t r = 0; r < n; ++r) {
    row_texts.push_back(input.substr(t.spans[r].first, t.spans[r].second - t.spans[r].first));
  }
  {
    std::vector<bool> needles = needle_lines(row_texts);
    for (std::size_t r = 0; r < n; ++r) keep[r] = keep[r] || needles[r];
  }

  const std::string_view nl = t.crlf ? "\r\n" : "\n";
  std::vector<std::string> records;  // output records, line endings added at the end
  std::size_t next_comment = 0;
  auto emit_comments_before = [&](std::size_t row) {
    while (next_comment < t.comments.size() && t.comments[next_comment].before_row <= row) {
      const Table::Comment& c = t.comments[next_comment++];
      records.emplace_back(input.substr(c.begin, c.end - c.begin));
    }
  };
  auto verbatim = [&](std::size_t r) {
    return std::string(input.substr(t.spans[r].first, t.spans[r].second - t.spans[r].first));
  };

  std::size_t elided_rows = 0;
  for (std::size_t r = 0; r < n;) {
    emit_comments_before(r);
    if (keep[r]) {
      if (!(r == 0 && t.header_in_prelude)) records.push_back(verbatim(r));
      ++r;
      continue;
    }
    // A run ends at the next kept row or the next comment line.
    std::size_t j = r;
    while (
        j < n && !keep[j] &&
        (j == r || next_comment >= t.comments.size() || t.comments[next_comment].before_row > j)) {
      ++j;
    }
    // Needle-safe (selector.h): only stretches one selector covers are hidden.
    std::size_t at = r;
    for (const Covered& c : cover_run(row_texts, r, j, 2)) {
      for (; at < c.begin; ++at) records.push_back(verbatim(at));
      std::string marker = selector_marker(c.end - c.begin, "rows", c.selector);
      std::size_t bytes = 0;
      for (std::size_t k = c.begin; k < c.end; ++k) bytes += row_texts[k].size() + 1;
      if (bytes <= marker.size() + 1) {
        for (std::size_t k = c.begin; k < c.end; ++k) records.push_back(verbatim(k));
      } else {
        records.push_back(std::move(marker));
        elided_rows += c.end - c.begin;
      }
      at = c.end;
    }
    for (; at < j; ++at) records.push_back(verbatim(at));
    r = j;
  }
  emit_comments_before(n);
  if (elided_rows == 0) return std::nullopt;

  std::string out = t.prelude;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (i > 0) out += nl;
    out += records[i];
  }
  if (t.trailing_newline) out += nl;
  if (out.size() >= input.size()) return std::nullopt;
  return output_of(std::move(out));
}

}  // namespace

std::unique_ptr<Compressor> make_tabular_compressor() {
  return make_compressor("tabular", compress_tabular);
}

}  // namespace caveman::compress
