#include "compress/factor/line_blocks.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <utility>

#include "caveman/base/text.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/config_sections.h"
#include "compress/factor/expand.h"
#include "text/lines.h"
#include "text/words.h"

namespace caveman::compress::factor {
namespace {

using base::is_ascii_digit;

constexpr std::size_t kMaxPeriod = 4;
constexpr std::size_t kMaxSectionLines = 24;  // a config section tried as one record
constexpr std::size_t kMaxLineBytes = 4096;
constexpr std::size_t kMaxRecords = 20000;
constexpr std::size_t kMaxSlots = 64;
// At most this many placeholders in one block's template: a handful a reader can follow
// (issue 36, readable views); a record shape that varies in more places is not a block.
constexpr std::size_t kMaxPlaceholders = 6;
constexpr std::size_t kMinConstBytes = 6;   // literal bytes a record must share
constexpr double kKeepConst = 0.6;          // a run ends when its template loses more
constexpr std::size_t kMinPrefix = 8;
constexpr std::size_t kMinRootLines = 16;  // a shared root is factored over this many lines
constexpr std::size_t kMinSavingBytes = 24;
constexpr double kMinSavingShare = 0.08;
constexpr std::size_t kMaxInlineValue = 64;
constexpr std::size_t kMaxInlineRecords = 400;
constexpr std::size_t kMaxLookAheadBlock = 64;

bool is_sep(char c) {
  switch (c) {
    case ' ': case '\t': case '/': case ':': case '=': case ',': case ';': case '@': case '-':
    case '.': case '(': case ')': case '[': case ']':
      return true;
    default:
      return false;
  }
}

// Largest k ≤ len (len ≤ their common prefix) at which both `a` and `b` split at a
// separator: just after one, or just before one in both ("file.js-58-" / "file.js:60:").
// Marks inside a number: a decimal point, a thousands comma, a clock's colon (`14:37:35`).
bool is_number_mark(char c) { return c == '.' || c == ',' || c == ':'; }

// A cut of a shared prefix of length len that would fall inside a number: after `1.` or `1,`,
// before `.5`, or between a sign and its digits (docs/formats.md: templates split only at
// field boundaries).
bool prefix_cut_in_number(std::string_view a, std::string_view b, std::size_t len) {
  const char last = a[len - 1];
  auto digit_at = [](std::string_view s, std::size_t k) {
    return k < s.size() && is_ascii_digit(s[k]);
  };
  if (is_number_mark(last) && len >= 2 && is_ascii_digit(a[len - 2])) return true;
  if (digit_at(a, len + 1) && len < a.size() && is_number_mark(a[len]) && is_ascii_digit(last))
    return true;
  if (digit_at(b, len + 1) && len < b.size() && is_number_mark(b[len]) && is_ascii_digit(last))
    return true;
  if ((last == '-' || last == '+') &&
      (len == 1 || !std::isalnum(static_cast<unsigned char>(a[len - 2]))) &&
      (digit_at(a, len) || digit_at(b, len))) {
    return true;
  }
  return false;
}

std::size_t snap_prefix(std::string_view a, std::string_view b, std::size_t len) {
  auto sep_at = [](std::string_view s, std::size_t k) { return k < s.size() && is_sep(s[k]); };
  while (len > 0 && ((!is_sep(a[len - 1]) && !(sep_at(a, len) && sep_at(b, len))) ||
                     prefix_cut_in_number(a, b, len))) {
    --len;
  }
  return len;
}

// The same for a common suffix of length len: it starts with a separator, or follows one in
// both strings.
std::size_t snap_suffix(std::string_view a, std::string_view b, std::size_t len) {
  auto sep_before = [](std::string_view s, std::size_t m) {
    return m < s.size() && is_sep(s[s.size() - m - 1]);
  };
  // Inside a number: a suffix `.5ms` after a digit, or `5ms` after `1.`.
  auto in_number = [](std::string_view s, std::size_t m) {
    const std::size_t k = s.size() - m;  // the suffix starts at s[k]
    if (is_number_mark(s[k]) && k + 1 < s.size() && is_ascii_digit(s[k + 1]) && k > 0 &&
        is_ascii_digit(s[k - 1])) {
      return true;
    }
    return k >= 2 && is_number_mark(s[k - 1]) && is_ascii_digit(s[k - 2]) && is_ascii_digit(s[k]);
  };
  while (len > 0 && ((!is_sep(a[a.size() - len]) && !(sep_before(a, len) && sep_before(b, len))) ||
                     in_number(a, len) || in_number(b, len))) {
    --len;
  }
  return len;
}

// Space-separated tokens of every line, as end offsets in one flat array.
class Tokens {
 public:
  explicit Tokens(const std::vector<std::string_view>& lines) : lines_(&lines) {
    start_.reserve(lines.size() + 1);
    for (std::string_view l : lines) {
      start_.push_back(static_cast<std::uint32_t>(ends_.size()));
      for (std::size_t p = l.find(' '); p != std::string_view::npos; p = l.find(' ', p + 1)) {
        ends_.push_back(static_cast<std::uint32_t>(p));
      }
      ends_.push_back(static_cast<std::uint32_t>(l.size()));
    }
    start_.push_back(static_cast<std::uint32_t>(ends_.size()));
  }
  std::size_t count(std::size_t i) const { return start_[i + 1] - start_[i]; }
  std::string_view token(std::size_t i, std::size_t t) const {
    std::size_t b = t == 0 ? 0 : ends_[start_[i] + t - 1] + 1;
    return (*lines_)[i].substr(b, ends_[start_[i] + t] - b);
  }

 private:
  const std::vector<std::string_view>* lines_;
  std::vector<std::uint32_t> start_, ends_;
};

struct Slot {
  bool constant = true;
  std::string_view ref;
  std::size_t pre = 0, suf = 0, minlen = 0;

  void add(std::string_view tok) {
    minlen = std::min(minlen, tok.size());
    if (constant) {
      if (tok == ref) return;
      constant = false;
      pre = ref.size();
      suf = ref.size();
    }
    pre = snap_prefix(ref, tok, std::min(pre, text::common_prefix(ref, tok)));
    suf = snap_suffix(ref, tok, std::min(suf, text::common_suffix(ref, tok)));
    if (pre + suf > minlen) suf = snap_suffix(ref, tok, minlen > pre ? minlen - pre : 0);
    if (pre + suf > minlen) pre = snap_prefix(ref, tok, minlen);
  }
  std::size_t shared_bytes() const { return constant ? ref.size() : pre + suf; }
  std::string_view value(std::string_view tok) const {
    return tok.substr(pre, tok.size() - pre - suf);
  }
};

// A candidate block, priced but not yet written: most candidates lose, so their rows are
// only written for the one that is emitted.
struct Block {
  std::size_t begin = 0, end = 0;  // lines [begin, end)
  std::string header;
  // The rows' values, `width` a row, in one array: a candidate is priced for every line of
  // the input, and one allocation a row was most of that work. Empty when inline.
  std::vector<std::string_view> values;
  std::size_t width = 1;
  std::vector<std::string> rows;  // rows already written (nested root)
  std::size_t saving = 0;

  void write(std::vector<std::string>& out) {
    out.push_back(std::move(header));
    for (std::string& r : rows) out.push_back(std::move(r));
    for (std::size_t at = 0; at < values.size(); at += width) {
      std::string row;
      for (std::size_t k = 0; k < width; ++k) {
        if (k > 0) row += ' ';
        row += values[at + k];
      }
      out.push_back(std::move(row));
    }
  }
};

class Factorer {
 public:
  // `nested`: these lines are the rows of an enclosing prefix block (one level only).
  Factorer(const std::vector<std::string_view>& lines, const std::vector<bool>& barrier,
           bool nested = false, bool sections = false)
      : lines_(lines), barrier_(barrier), tokens_(lines), budget_(64 * lines.size() + 200000),
        nested_(nested), sections_(sections) {}

  std::optional<std::vector<std::string>> run() {
    std::vector<std::string> out;
    bool any = false;
    std::optional<Block> ahead;  // best_block(i) when it was computed as the look-ahead
    bool have_ahead = false;
    for (std::size_t i = 0; i < lines_.size();) {
      std::optional<Block> best = have_ahead ? std::exchange(ahead, std::nullopt) : best_block(i);
      have_ahead = false;
      // One line of look-ahead: when the block starting on the next line saves more per
      // line, this line stays literal (the last hit of one file before the next file's).
      // A long block is taken as it is: one line more or less hardly changes what it saves.
      if (best && best->end > i + 1 && best->end - i <= kMaxLookAheadBlock) {
        ahead = best_block(i + 1);
        have_ahead = true;
        if (ahead && better(*ahead, *best)) best.reset();
      }
      if (!best) {
        out.emplace_back(lines_[i++]);
        continue;
      }
      have_ahead = false;
      any = true;
      best->write(out);
      i = best->end;
    }
    if (!any) return std::nullopt;
    return out;
  }

 private:
  bool usable(std::size_t i) const {
    return i < lines_.size() && !barrier_[i] && lines_[i].size() <= kMaxLineBytes;
  }

  std::optional<Block> best_block(std::size_t i) {
    if (budget_ <= 0) return std::nullopt;
    std::optional<Block> best = prefix_block(i);
    if (std::optional<Block> root = root_block(i); root && (!best || better(*root, *best))) {
      best = std::move(root);
    }
    bool shaped = false;
    for (std::size_t p = 1; p <= kMaxPeriod; ++p) {
      std::optional<Block> b = shape_block(i, p);
      shaped = shaped || b.has_value();
      if (b && (!best || better(*b, *best))) best = std::move(b);
    }
    // A config section longer than a period above: whole sections as the records.
    std::size_t p = sections_ ? section_length(lines_, i, kMaxSectionLines) : 0;
    if (p > kMaxPeriod && p <= kMaxSectionLines) {
      std::optional<Block> b = shape_block(i, p);
      shaped = shaped || b.has_value();
      if (b && (!best || better(*b, *best))) best = std::move(b);
    }
    // Lines of different lengths only: where words line up fully, a shape block is the answer.
    if (std::optional<Block> tail = shaped ? std::nullopt : tail_block(i);
        tail && (!best || better(*tail, *best))) {
      best = std::move(tail);
    }
    return best;
  }

  // The block that saves more per line it covers: a long block that shares little must not
  // swallow the short, tight ones inside it (one file's grep hits, one package's dpkg lines).
  static bool better(const Block& a, const Block& b) {
    return a.saving * (b.end - b.begin) > b.saving * (a.end - a.begin);
  }

  bool same_shape(std::size_t base, std::size_t first, std::size_t p) const {
    for (std::size_t j = 0; j < p; ++j) {
      if (!usable(base + j) || tokens_.count(base + j) != tokens_.count(first + j)) return false;
    }
    return true;
  }

  std::optional<Block> shape_block(std::size_t i, std::size_t p) {
    if (i + 2 * p > lines_.size() || !same_shape(i, i, p)) return std::nullopt;
    std::vector<Slot>& slots = slots_;
    std::vector<Slot>& next = next_;
    slots.clear();
    for (std::size_t j = 0; j < p; ++j) {
      for (std::size_t t = 0; t < tokens_.count(i + j); ++t) {
        std::string_view tok = tokens_.token(i + j, t);
        slots.push_back({true, tok, 0, 0, tok.size()});
      }
    }
    if (slots.size() > kMaxSlots) return std::nullopt;
    std::size_t records = 1;
    double initial = 0;
    for (; records < kMaxRecords && i + (records + 1) * p <= lines_.size(); ++records) {
      std::size_t base = i + records * p;
      if (!same_shape(base, i, p)) break;
      next = slots;
      std::size_t k = 0, shared = 0;
      for (std::size_t j = 0; j < p; ++j) {
        for (std::size_t t = 0; t < tokens_.count(base + j); ++t) next[k++].add(tokens_.token(base + j, t));
      }
      std::size_t varying = 0;
      for (const Slot& s : next) {
        shared += s.shared_bytes();
        varying += s.constant ? 0 : 1;
      }
      budget_ -= static_cast<std::int64_t>(next.size());
      if (varying > kMaxPlaceholders) {
        if (records == 1) return std::nullopt;
        break;
      }
      if (records == 1) {
        if (shared < kMinConstBytes) return std::nullopt;
        initial = static_cast<double>(shared);
      } else if (static_cast<double>(shared) < initial * kKeepConst || budget_ <= 0) {
        break;
      }
      slots.swap(next);
    }
    return render_shape(i, p, records, slots);
  }

  // Single lines whose first words line up while the rest of each line differs in length
  // (a grep hit's "line:" and indentation, then code): the words are slots as above, the rest
  // of the line is the last value of the row.
  // Tried only on the rows of a shared root, where the rest of the line is the hit itself;
  // at the top level such blocks would crowd out longer ones that share more.
  std::optional<Block> tail_block(std::size_t i) {
    if (!nested_ || !usable(i) || !usable(i + 1)) return std::nullopt;
    std::size_t m = std::min(tokens_.count(i), tokens_.count(i + 1));
    if (m < 2 || m - 1 > kMaxSlots) return std::nullopt;
    m -= 1;  // positional words; at least one word stays in the rest
    std::vector<Slot>& slots = slots_;
    std::vector<Slot>& next = next_;
    slots.clear();
    for (std::size_t t = 0; t < m; ++t) {
      std::string_view tok = tokens_.token(i, t);
      slots.push_back({true, tok, 0, 0, tok.size()});
    }
    std::size_t end = i + 1;
    double initial = 0;
    for (; end < lines_.size() && end - i < kMaxRecords && usable(end); ++end) {
      std::size_t width = std::min(m, tokens_.count(end) - 1);
      if (width == 0) break;
      next.assign(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(width));
      std::size_t shared = 0, varying = 1;  // the rest of the line is one more value
      for (std::size_t t = 0; t < width; ++t) {
        next[t].add(tokens_.token(end, t));
        shared += next[t].shared_bytes();
        varying += next[t].constant ? 0 : 1;
      }
      budget_ -= static_cast<std::int64_t>(width);
      if (varying > kMaxPlaceholders) {
        if (end == i + 1) return std::nullopt;
        break;
      }
      if (end == i + 1) {
        if (shared < kMinConstBytes) return std::nullopt;
        initial = static_cast<double>(shared);
      } else if (static_cast<double>(shared) < initial * kKeepConst || budget_ <= 0) {
        break;
      }
      slots.swap(next);
      m = width;
    }
    if (end - i < 2) return std::nullopt;
    return render_shape(i, 1, end - i, slots, m);
  }

  // `tail_at`: with one-line records, the words after this many make one last value.
  std::optional<Block> render_shape(std::size_t i, std::size_t p, std::size_t records,
                                    const std::vector<Slot>& slots,
                                    std::optional<std::size_t> tail_at = std::nullopt) {
    // Value columns of the varying slots; equal columns share one placeholder.
    std::vector<int>& number = number_;
    number.assign(slots.size(), -1);
    std::vector<std::size_t>& reps = reps_;  // slot index of each placeholder
    reps.clear();
    std::vector<std::pair<std::size_t, std::size_t>>& where = where_;  // slot -> (line in record, token)
    where.clear();
    auto words = [&](std::size_t line) { return tail_at ? *tail_at : tokens_.count(line); };
    for (std::size_t j = 0; j < p; ++j) {
      for (std::size_t t = 0; t < words(i + j); ++t) where.emplace_back(j, t);
    }
    auto value = [&](std::size_t s, std::size_t r) {
      return slots[s].value(tokens_.token(i + r * p + where[s].first, where[s].second));
    };
    for (std::size_t s = 0; s < slots.size(); ++s) {
      if (slots[s].constant) continue;
      for (std::size_t q = 0; q < reps.size() && number[s] < 0; ++q) {
        bool equal = true;
        for (std::size_t r = 0; r < records && equal; ++r) equal = value(s, r) == value(reps[q], r);
        if (equal) number[s] = static_cast<int>(q);
      }
      if (number[s] < 0) {
        number[s] = static_cast<int>(reps.size());
        reps.push_back(s);
      }
    }
    if (reps.empty() && !tail_at) return std::nullopt;
    BlockHeader h;
    h.records = records;
    h.slots = static_cast<int>(reps.size() + (tail_at ? 1 : 0));
    std::size_t s = 0;
    for (std::size_t j = 0; j < p; ++j) {
      TemplateLine line;
      auto literal = [&line](std::string_view text) {
        if (text.empty()) return;
        if (!line.empty() && line.back().slot < 0) line.back().text += text;
        else line.push_back({std::string(text), -1});
      };
      for (std::size_t t = 0; t < words(i + j); ++t, ++s) {
        if (t > 0) literal(" ");
        const Slot& sl = slots[s];
        if (sl.constant) {
          literal(sl.ref);
          continue;
        }
        literal(sl.ref.substr(0, sl.pre));
        line.push_back({"", number[s]});
        literal(sl.ref.substr(sl.ref.size() - sl.suf));
      }
      if (tail_at) {
        literal(" ");
        line.push_back({"", static_cast<int>(reps.size())});
      }
      h.lines.push_back(std::move(line));
    }
    const std::size_t width = reps.size() + (tail_at ? 1 : 0);
    std::vector<std::string_view> rows;
    rows.reserve(records * width);
    for (std::size_t r = 0; r < records; ++r) {
      for (std::size_t rep : reps) rows.push_back(value(rep, r));
      if (tail_at) {
        std::string_view line = lines_[i + r], last = tokens_.token(i + r, *tail_at - 1);
        rows.push_back(line.substr(static_cast<std::size_t>(last.data() + last.size() - line.data()) + 1));
      }
    }
    return finish(i, i + records * p, std::move(h), std::move(rows), width);
  }

  std::optional<Block> prefix_block(std::size_t i) {
    if (!usable(i) || !usable(i + 1)) return std::nullopt;
    std::string_view first = lines_[i];
    std::size_t len = snap_prefix(first, lines_[i + 1], text::common_prefix(first, lines_[i + 1]));
    if (len < kMinPrefix) return std::nullopt;
    const double initial = static_cast<double>(len);
    std::size_t end = i + 2;
    for (; end < lines_.size() && end - i < kMaxRecords && usable(end); ++end) {
      std::size_t next =
          snap_prefix(first, lines_[end], std::min(len, text::common_prefix(first, lines_[end])));
      if (next < kMinPrefix || static_cast<double>(next) < initial * kKeepConst) break;
      len = next;
    }
    budget_ -= static_cast<std::int64_t>(end - i);
    BlockHeader h;
    h.records = end - i;
    h.slots = 1;
    h.lines.push_back({{std::string(first.substr(0, len)), -1}, {"", 0}});
    std::vector<std::string_view> rows;
    rows.reserve(end - i);
    for (std::size_t k = i; k < end; ++k) rows.push_back(lines_[k].substr(len));
    return finish(i, end, std::move(h), std::move(rows), 1);
  }

  // A long run under one shared root (a directory every grep hit is in): one block for the
  // root whose rows are factored again, so each file's hits still share their own path.
  // Tried once per run: a root that lost to tighter blocks is not tried again inside it.
  std::optional<Block> root_block(std::size_t i) {
    if (nested_ || i < root_tried_until_ || !usable(i) || !usable(i + 1)) return std::nullopt;
    std::string_view first = lines_[i];
    std::size_t len = snap_prefix(first, lines_[i + 1], text::common_prefix(first, lines_[i + 1]));
    std::size_t end = i + 2;
    for (; len >= kMinPrefix && end < lines_.size() && end - i < kMaxRecords && usable(end); ++end) {
      std::size_t next =
          snap_prefix(first, lines_[end], std::min(len, text::common_prefix(first, lines_[end])));
      if (next < kMinPrefix) break;
      len = next;
    }
    if (len < kMinPrefix || end - i < kMinRootLines) return std::nullopt;
    root_tried_until_ = end;
    std::vector<std::string_view> rest;
    for (std::size_t k = i; k < end; ++k) rest.push_back(lines_[k].substr(len));
    budget_ -= static_cast<std::int64_t>(rest.size());
    std::vector<bool> no_barrier(rest.size(), false);
    std::optional<std::vector<std::string>> inner = Factorer(rest, no_barrier, true).run();
    if (!inner) inner.emplace(rest.begin(), rest.end());
    BlockHeader h;
    h.records = end - i;
    h.slots = 1;
    h.lines.push_back({{std::string(first.substr(0, len)), -1}, {"", 0}});
    std::size_t written = 0;
    for (const std::string& r : *inner) written += r.size() + 1;
    return priced(Block{i, end, {}, {}, 1, std::move(*inner), 0}, h, written);
  }

  // Prices the block (inline when one short placeholder allows it) in bytes. `rows` holds
  // `width` values a row.
  std::optional<Block> finish(std::size_t begin, std::size_t end, BlockHeader h,
                              std::vector<std::string_view> rows, std::size_t width) {
    if (h.slots == 1 && h.records <= kMaxInlineRecords && width == 1) {
      std::vector<std::string> values;
      for (std::string_view v : rows) {
        if (v.empty() || v.size() > kMaxInlineValue || v.find(' ') != std::string_view::npos) break;
        values.emplace_back(v);
      }
      if (values.size() == rows.size()) h.inline_values = std::move(values);
    }
    if (h.inline_values && !write_header(h)) h.inline_values.reset();
    std::size_t written = 0;
    if (h.inline_values) {
      rows.clear();
    } else if (width > 0) {
      written = rows.size();  // a separator or the newline after each value
      for (std::string_view v : rows) written += v.size();
    }
    Block b{begin, end, {}, std::move(rows), width, {}, 0};
    return priced(std::move(b), h, written);
  }

  // The block with its header, kept when it saves enough bytes; `written` = its rows' bytes.
  std::optional<Block> priced(Block b, const BlockHeader& h, std::size_t written) {
    std::size_t original = 0;
    for (std::size_t k = b.begin; k < b.end; ++k) original += lines_[k].size() + 1;
    std::optional<std::string> header = write_header(h);
    if (!header) return std::nullopt;
    written += header->size() + 1;
    if (written >= original) return std::nullopt;
    b.header = std::move(*header);
    b.saving = original - written;
    if (b.saving < kMinSavingBytes ||
        static_cast<double>(b.saving) < kMinSavingShare * static_cast<double>(original)) {
      return std::nullopt;
    }
    return b;
  }

  const std::vector<std::string_view>& lines_;
  const std::vector<bool>& barrier_;
  Tokens tokens_;
  std::int64_t budget_;  // token comparisons left: bounds the work on adversarial input
  bool nested_;
  bool sections_;
  std::size_t root_tried_until_ = 0;
  // Scratch of shape_block/tail_block and render_shape, reused: they run for every line and
  // period, and most of them give up after a record or two.
  std::vector<Slot> slots_, next_;
  std::vector<int> number_;
  std::vector<std::size_t> reps_;
  std::vector<std::pair<std::size_t, std::size_t>> where_;
};

}  // namespace

std::optional<std::vector<std::string>> factor_lines(const std::vector<std::string_view>& lines,
                                                     const std::vector<bool>& barrier,
                                                     bool sections) {
  if (barrier.size() != lines.size()) return std::nullopt;
  return Factorer(lines, barrier, false, sections).run();
}

std::optional<std::string> factor_text(std::string_view text,
                                       const std::function<bool(std::string_view)>& verbatim,
                                       bool sections) {
  if (text.size() > kMaxViewInputBytes || contains_block(text)) return std::nullopt;
  std::vector<std::string_view> lines = text::split_all(text);
  std::vector<bool> barrier(lines.size(), false);
  if (verbatim) {
    for (std::size_t i = 0; i < lines.size(); ++i) barrier[i] = verbatim(lines[i]);
  }
  std::optional<std::vector<std::string>> view = factor_lines(lines, barrier, sections);
  if (!view) return std::nullopt;
  return checked_view(text::join_lines(*view, false), text);
}

}  // namespace caveman::compress::factor
