// Marker truth for tables: ≥ 1,000 generated CSV/TSV/Markdown tables (fixed seeds) go through
// the tabular compressor; every kept row must be an original row in order, every marker's count
// must cover exactly the rows it replaced, and its selector must be true of each of them
// (issue 36), none a failure signal.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "compress/tabular/csv_write.h"
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
  int uniform(int lo, int hi) {
    return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return uniform(0, 99) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[next() % v.size()];
  }

 private:
  std::uint64_t s_;
};

struct Column {
  std::string name;
  int kind;  // 0 constant, 1 enum, 2 integer, 3 decimal, 4 id sequence, 5 Go float forms, 6 free
             // words
  int empty_percent;  // empty cell = the field is absent from that row
  std::vector<std::string> choices;
};

const std::vector<std::string> kNames = {"id",        "status", "region", "latency_ms", "amount",
                                         "user",      "host",   "code",   "attempt",    "note",
                                         "published", "shard",  "state",  "delta",      "id"};
const std::vector<std::string> kWords = {
    "ok",   "charged",  "refunded",    "emea",       "apac", "w1",     "GET",
    "POST", "retry",    "a,b",         "say \"hi\"", "x\ty", "2×3",    "absent",
    "v1.2", " padded ", "multi\nline", "|pipe|",     "…",    "caveman"};

std::string cell_value(const Column& c, Rng& rng, int row) {
  switch (c.kind) {
    case 0:
    case 1:
      return rng.pick(c.choices);
    case 2:
      return std::to_string(rng.uniform(-50, 5000));
    case 3:
      return std::to_string(rng.uniform(0, 999)) + "." + std::to_string(rng.uniform(10, 99));
    case 4: {
      static const std::vector<std::string> kPrefixes = {"ord-", "dlv-2", "n-", "", "id_0"};
      int id = 1000 + row * (rng.chance(20) ? 2 : 1);
      return kPrefixes[c.name.size() % kPrefixes.size()] + std::to_string(id);
    }
    case 5: {
      static const std::vector<std::string> kForms = {"1e2", "-3", "0x1p-2", "1_000", "inf",
                                                      "NaN", "5.", ".5",     "+7",    "0"};
      return rng.pick(kForms);
    }
    default:
      return rng.pick(kWords) + " " + rng.pick(kWords);
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
  t.shape = s < 6   ? Shape::kCsv
            : s < 8 ? Shape::kTsv
            : s < 9 ? Shape::kMarkdown
                    : Shape::kCommentedTsv;
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
      case Shape::kCsv:
        return compress::csv_record(cells, ',', crlf);
      case Shape::kTsv:
      case Shape::kCommentedTsv:
        return compress::csv_record(cells, '\t', crlf);
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

// Parses "… N rows matching "SELECTOR" elided (caveman) …" (`\"` is a quote, `\\` a backslash).
bool parse_selector_marker(std::string_view line, std::size_t* n, std::string* selector) {
  constexpr std::string_view kHead = "… ";
  constexpr std::string_view kMid = " rows matching \"";
  constexpr std::string_view kTail = "\" elided (caveman) …";
  if (!line.starts_with(kHead) || !line.ends_with(kTail)) return false;
  std::size_t mid = line.find(kMid);
  if (mid == std::string_view::npos) return false;
  std::string digits(line.substr(kHead.size(), mid - kHead.size()));
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  *n = std::stoul(digits);
  std::string_view body = line.substr(mid + kMid.size());
  body.remove_suffix(kTail.size());
  selector->clear();
  for (std::size_t k = 0; k < body.size(); ++k) {
    if (body[k] == '\\' && k + 1 < body.size()) ++k;
    selector->push_back(body[k]);
  }
  return true;
}

// Reads the view record by record against the input's records (a marker is a line of its
// own, not a table record): the prelude and header rows as written, then each data row
// either verbatim and in order or hidden behind a marker whose selector is true of it.
::testing::AssertionResult check_table(const TableCase& c, const std::string& output,
                                       int* markers) {
  std::optional<compress::Table> in = compress::parse_table(c.text);
  if (!in) return ::testing::AssertionFailure() << "input is not a table";
  if (!in->comments.empty()) return ::testing::AssertionFailure() << "comments not generated";
  const std::string nl = in->crlf ? "\r\n" : "\n";
  auto record = [&](std::size_t r) {
    return std::string_view(c.text).substr(in->spans[r].first,
                                           in->spans[r].second - in->spans[r].first);
  };
  std::string_view rest = output;
  bool first = true;
  // Each record but the first is preceded by the line ending.
  auto take = [&](std::string_view what) {
    if (!first) {
      if (!rest.starts_with(nl)) return false;
      rest.remove_prefix(nl.size());
    }
    if (!rest.starts_with(what)) return false;
    rest.remove_prefix(what.size());
    first = false;
    return true;
  };
  if (!rest.starts_with(in->prelude)) return ::testing::AssertionFailure() << "prelude changed";
  rest.remove_prefix(in->prelude.size());
  const std::size_t n = in->rows.size();
  const std::size_t data = in->header_rows();
  for (std::size_t r = in->header_in_prelude ? 1 : 0; r < data; ++r) {
    if (!take(record(r))) return ::testing::AssertionFailure() << "header row " << r << " changed";
  }
  for (std::size_t i = data; i < n;) {
    std::string_view line = rest.substr(first ? 0 : nl.size());
    line = line.substr(0, line.find(nl));
    std::size_t hidden = 0;
    std::string selector;
    if (line.starts_with("… ") && line.find(" rows matching \"") != std::string_view::npos &&
        !line.ends_with("\" elided (caveman) …")) {
      return ::testing::AssertionFailure() << "a marker spans lines: " << line;
    }
    if (parse_selector_marker(line, &hidden, &selector)) {
      if (hidden < 2 || i + hidden > n) return ::testing::AssertionFailure() << "bad count";
      for (std::size_t r = i; r < i + hidden; ++r) {
        if (!compress::selector_matches(selector, record(r))) {
          return ::testing::AssertionFailure() << "selector " << selector << " false of row " << r;
        }
        if (compress::is_failure_signal(record(r))) {
          return ::testing::AssertionFailure() << "a failure signal hidden: row " << r;
        }
      }
      if (!take(line)) return ::testing::AssertionFailure() << "marker not a line of its own";
      ++*markers;
      i += hidden;
      continue;
    }
    if (!take(record(i)))
      return ::testing::AssertionFailure() << "row " << i << " not kept verbatim";
    ++i;
  }
  if (rest != (in->trailing_newline ? std::string_view(nl) : std::string_view())) {
    return ::testing::AssertionFailure() << "bytes after the last row";
  }
  return ::testing::AssertionSuccess();
}

TEST(MarkerTruthCsvTest, GeneratedTables) {
  auto compressor = compress::make_tabular_compressor();
  int markers = 0, compressed = 0, parsed = 0;
  constexpr int kCases = 1200;
  for (int seed = 1; seed <= kCases; ++seed) {
    TableCase c = make_table(static_cast<std::uint64_t>(seed));
    ASSERT_TRUE(compress::parse_table(c.text)) << "seed " << seed << " generated no table\n"
                                               << c.text;
    ++parsed;
    auto out = compressor->compress(c.text, "");
    if (!out) continue;
    ++compressed;
    ::testing::AssertionResult checked = check_table(c, out->bytes, &markers);
    ASSERT_TRUE(checked) << "seed " << seed << "\n" << c.text << "\n---\n" << out->bytes;
    // Determinism: the same input gives the same bytes (sampled, to keep the test quick).
    if (seed % 10 == 0) {
      ASSERT_EQ(compressor->compress(c.text, "")->bytes, out->bytes) << "seed " << seed;
    }
  }
  RecordProperty("compressed", compressed);
  RecordProperty("markers", markers);
  // The property must not hold vacuously.
  EXPECT_EQ(parsed, kCases);
  EXPECT_GT(compressed, kCases / 10) << compressed;
  EXPECT_GT(markers, kCases / 2) << markers;
}

}  // namespace
}  // namespace caveman::testing::marker_truth
