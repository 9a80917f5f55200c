// Marker truth for tables: ≥ 1,000 generated CSV/TSV/Markdown tables (fixed seeds) go through
// the tabular compressor; the output is re-read as a table, every kept row must be an original
// row in order, every marker's count must cover exactly the rows it replaced, and each fact of
// its summary is checked (marker_truth.h) against ground truth built from the ORIGINAL cells.
#include "marker_truth.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compress/compressors.h"
#include "compress/tabular/csv_write.h"
#include "compress/common/summary.h"
#include "compress/tabular/table_parse.h"
#include "text/utf8.h"

namespace caveman::testing::marker_truth {
namespace {

// Deterministic generator (std distributions differ between standard libraries).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 7) {}
  std::uint64_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  int uniform(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
  bool chance(int percent) { return uniform(0, 99) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[next() % v.size()]; }

 private:
  std::uint64_t s_;
};

struct Column {
  std::string name;
  int kind;           // 0 constant, 1 enum, 2 integer, 3 decimal, 4 id sequence, 5 Go float forms, 6 free words
  int empty_percent;  // empty cell = the field is absent from that row
  std::vector<std::string> choices;
};

const std::vector<std::string> kNames = {"id", "status", "region", "latency_ms", "amount",
                                         "user", "host", "code", "attempt", "note",
                                         "published", "shard", "state", "delta", "id"};
const std::vector<std::string> kWords = {"ok", "charged", "refunded", "emea", "apac", "w1",
                                         "GET", "POST", "retry", "a,b", "say \"hi\"", "x\ty",
                                         "2×3", "absent", "v1.2", " padded ", "multi\nline",
                                         "|pipe|", "…", "caveman"};

std::string cell_value(const Column& c, Rng& rng, int row) {
  switch (c.kind) {
    case 0:
    case 1: return rng.pick(c.choices);
    case 2: return std::to_string(rng.uniform(-50, 5000));
    case 3: return std::to_string(rng.uniform(0, 999)) + "." + std::to_string(rng.uniform(10, 99));
    case 4: {
      static const std::vector<std::string> kPrefixes = {"ord-", "dlv-2", "n-", "", "id_0"};
      int id = 1000 + row * (rng.chance(20) ? 2 : 1);
      return kPrefixes[c.name.size() % kPrefixes.size()] + std::to_string(id);
    }
    case 5: {
      static const std::vector<std::string> kForms = {"1e2", "-3", "0x1p-2", "1_000", "inf",
                                                      "NaN", "5.", ".5", "+7", "0"};
      return rng.pick(kForms);
    }
    default: return rng.pick(kWords) + " " + rng.pick(kWords);
  }
}

enum class Shape { kCsv, kTsv, kMarkdown, kCommentedTsv };

struct TableCase {
  std::string text;
  Shape shape = Shape::kCsv;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // data rows as generated (cells)
};

// Cells a format cannot hold verbatim are replaced by plain words.
std::string fit(std::string v, Shape shape) {
  bool bad = false;
  if (shape == Shape::kMarkdown) {
    bad = v.find('|') != std::string::npos || v.find('\n') != std::string::npos ||
          v != std::string(text::trim_ascii(v));
  } else if (shape != Shape::kCsv) {
    bad = v.find('\t') != std::string::npos || v.find('\n') != std::string::npos ||
          v.find('"') != std::string::npos;
  }
  return bad ? "plain" : v;
}

TableCase make_table(std::uint64_t seed) {
  Rng rng(seed);
  TableCase t;
  int s = rng.uniform(0, 9);
  t.shape = s < 6 ? Shape::kCsv : s < 8 ? Shape::kTsv : s < 9 ? Shape::kMarkdown : Shape::kCommentedTsv;
  std::vector<Column> cols;
  int width = rng.uniform(2, 7);
  for (int i = 0; i < width; ++i) {
    Column c;
    c.name = rng.pick(kNames);  // duplicates allowed: the first column of a name wins
    if (rng.chance(5)) c.name = "";
    c.kind = rng.uniform(0, 6);
    c.empty_percent = rng.chance(30) ? rng.uniform(5, 50) : 0;
    int choices = c.kind == 0 ? 1 : rng.uniform(2, 7);
    for (int k = 0; k < choices; ++k) c.choices.push_back(rng.pick(kWords));
    cols.push_back(std::move(c));
  }
  // Empty column names only in CSV: a TSV header starting with TAB would lose its first
  // delimiter to the whitespace trim of delimiter sniffing, and Markdown trims cells.
  for (const Column& c : cols) {
    t.header.push_back(c.name.empty() && t.shape != Shape::kCsv ? "col" : c.name);
  }
  int n = rng.uniform(12, 120);
  for (int r = 0; r < n; ++r) {
    std::vector<std::string> row;
    for (const Column& c : cols) {
      std::string v = rng.chance(c.empty_percent) ? "" : cell_value(c, rng, r);
      row.push_back(fit(v, t.shape));
    }
    if (rng.chance(3)) row[0] = "FAILED";
    t.rows.push_back(std::move(row));
  }
  bool crlf = rng.chance(15);
  std::string eol = crlf ? "\r\n" : "\n";
  auto record = [&](const std::vector<std::string>& cells) {
    switch (t.shape) {
      case Shape::kCsv: return compress::csv_record(cells, ',', crlf);
      case Shape::kTsv:
      case Shape::kCommentedTsv: return compress::csv_record(cells, '\t', crlf);
      case Shape::kMarkdown: {
        std::string out = "|";
        for (const auto& c : cells) out += " " + c + " |";
        return out;
      }
    }
    return std::string();
  };
  if (t.shape == Shape::kCommentedTsv) {
    t.text += "# generated table" + eol + "#" + eol;
    std::string h = "#";
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      if (t.header[i].empty()) t.header[i] = "col" + std::to_string(i);
      h += (i ? "\t" : "") + t.header[i];
    }
    t.text += h + eol;
  } else {
    t.text += record(t.header) + eol;
  }
  if (t.shape == Shape::kMarkdown) {
    std::vector<std::string> sep(t.header.size(), "---");
    t.text += record(sep) + eol;
  }
  for (const auto& row : t.rows) t.text += record(row) + eol;
  if (rng.chance(10)) t.text.resize(t.text.size() - eol.size());  // no final newline
  return t;
}

// Ground truth of one row: header name → trimmed cell, first column of a name wins, empty
// names and values skipped.
Unit row_unit(const std::vector<std::string>& header, const std::vector<std::string>& row) {
  Unit u;
  for (std::size_t i = 0; i < header.size() && i < row.size(); ++i) {
    std::string name(text::trim_space(header[i]));
    std::string value(text::trim_space(row[i]));
    if (name.empty() || value.empty() || u.count(name)) continue;
    u[name] = value;
  }
  return u;
}

std::vector<std::string> trimmed(const std::vector<std::string>& cells) {
  std::vector<std::string> out;
  for (const auto& c : cells) out.emplace_back(text::trim_space(c));
  return out;
}

// "… N rows elided (caveman)[: summary] …" in the first cell, the other cells empty.
bool parse_marker(const std::vector<std::string>& cells, std::size_t* n, std::string* summary) {
  constexpr std::string_view kHead = "… ";
  constexpr std::string_view kTag = " rows elided (caveman)";
  constexpr std::string_view kTail = " …";
  std::string_view first = cells[0];
  if (!first.starts_with(kHead) || !first.ends_with(kTail)) return false;
  std::size_t tag = first.find(kTag);
  if (tag == std::string_view::npos) return false;
  std::string digits(first.substr(kHead.size(), tag - kHead.size()));
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  *n = std::stoul(digits);
  std::string_view rest = first.substr(tag + kTag.size());
  rest.remove_suffix(kTail.size());
  if (rest.empty()) {
    summary->clear();
  } else if (rest.starts_with(": ")) {
    *summary = std::string(rest.substr(2));
  } else {
    return false;
  }
  for (std::size_t i = 1; i < cells.size(); ++i) {
    if (!cells[i].empty()) return false;
  }
  return true;
}

::testing::AssertionResult check_table(const TableCase& c, const std::string& output,
                                       Stats* stats, int* markers) {
  std::optional<compress::Table> out = compress::parse_table(output);
  if (!out) return ::testing::AssertionFailure() << "output is not a table";
  const std::size_t first_data = out->header_rows();
  if (trimmed(out->rows[0]) != trimmed(c.header)) {
    return ::testing::AssertionFailure() << "header changed";
  }
  std::size_t i = 0, elided_bytes = 0;
  bool note_seen = false;
  for (std::size_t k = first_data; k < out->rows.size(); ++k) {
    const std::vector<std::string>& cells = out->rows[k];
    if (std::string_view(cells[0]).starts_with(compress::kNotePrefix)) {
      if (note_seen || k + 1 != out->rows.size()) {
        return ::testing::AssertionFailure() << "note not once at the end";
      }
      note_seen = true;
      continue;
    }
    std::size_t n = 0;
    std::string summary;
    if (parse_marker(cells, &n, &summary)) {
      if (n == 0 || i + n > c.rows.size()) return ::testing::AssertionFailure() << "bad count";
      std::vector<Unit> units;
      for (std::size_t r = i; r < i + n; ++r) {
        units.push_back(row_unit(c.header, c.rows[r]));
        std::string joined;
        for (std::size_t f = 0; f < c.rows[r].size(); ++f) joined += (f ? "," : "") + c.rows[r][f];
        elided_bytes += joined.size() + 1;
      }
      auto r = check_summary(summary, units, stats);
      if (!r) return r;
      ++*markers;
      i += n;
      continue;
    }
    if (i >= c.rows.size() || trimmed(cells) != trimmed(c.rows[i])) {
      return ::testing::AssertionFailure() << "kept row " << k << " differs from original row " << i;
    }
    ++i;
  }
  if (i != c.rows.size()) return ::testing::AssertionFailure() << "counts do not sum";
  if (note_seen != (elided_bytes >= compress::kNoteMinElidedBytes)) {
    return ::testing::AssertionFailure() << "note presence wrong";
  }
  return ::testing::AssertionSuccess();
}

TEST(MarkerTruthCsvTest, GeneratedTables) {
  GTEST_SKIP() << "issue 36: pins elision from before needle-safe elision (rare lines "
                  "stay, markers carry selectors); to be rewritten on inputs of repeated lines";
  auto compressor = compress::make_tabular_compressor();
  Stats stats;
  int markers = 0, compressed = 0, parsed = 0;
  constexpr int kCases = 1200;
  for (int seed = 1; seed <= kCases; ++seed) {
    TableCase c = make_table(static_cast<std::uint64_t>(seed));
    ASSERT_TRUE(compress::parse_table(c.text)) << "seed " << seed << " generated no table\n" << c.text;
    ++parsed;
    auto out = compressor->compress(c.text, "");
    if (!out) continue;
    ++compressed;
    ASSERT_TRUE(check_table(c, out->bytes, &stats, &markers)) << "seed " << seed << "\n"
                                                              << c.text << "\n---\n" << out->bytes;
    // Determinism: the same input gives the same bytes (sampled, to keep the test quick).
    if (seed % 10 == 0) {
      ASSERT_EQ(compressor->compress(c.text, "")->bytes, out->bytes) << "seed " << seed;
    }
  }
  RecordProperty("compressed", compressed);
  RecordProperty("markers", markers);
  RecordProperty("facts", stats.facts);
  // The property must not hold vacuously.
  EXPECT_EQ(parsed, kCases);
  EXPECT_GT(compressed, kCases / 2);
  EXPECT_GT(markers, kCases);
  EXPECT_GT(stats.summaries, kCases / 2);
  EXPECT_GT(stats.facts, kCases);
}

}  // namespace
}  // namespace caveman::testing::marker_truth
