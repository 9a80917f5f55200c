#include "evals/marker_facts.h"

#include <functional>
#include <optional>
#include <tuple>
#include <utility>

#include "compress/common/selector.h"
#include "compress/common/summary.h"
#include "compress/diff/diff_facts.h"
#include "compress/diff/diff_words.h"
#include "compress/tabular/table_parse.h"
#include "compress/terminal/terminal_clean.h"
#include "compress/text/text_sections.h"
#include "evals/summary_facts.h"
#include "json/json.h"
#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::evals {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …

struct Marker {
  std::size_t count = 0;
  std::string summary;
  std::optional<std::string> selector;  // docs/formats.md#markers, unescaped
};

std::string_view strip_cr(std::string_view s) {
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

// The selector quoted at the start of `s` (`"…"`, a backslash escaping the next character),
// consumed from `s`; nullopt when `s` does not start with a closed quote.
std::optional<std::string> take_quoted(std::string_view& s) {
  if (!s.starts_with('"')) return std::nullopt;
  std::string out;
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] == '"') {
      s.remove_prefix(i + 1);
      return out;
    }
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    out += s[i];
  }
  return std::nullopt;
}

// "… N <noun> elided (caveman) …", "… N <noun> matching "SELECTOR" elided (caveman) …" or,
// when summaries are allowed, either with ": <summary>" before the closing "…".
std::optional<Marker> parse_count_marker(std::string_view line, std::string_view noun,
                                         bool allow_summary) {
  std::string head = std::string(kEllipsis) + " ";
  std::string tail = std::string(" ") + std::string(kEllipsis);
  if (!line.starts_with(head) || !line.ends_with(tail)) return std::nullopt;
  std::string_view s = line.substr(head.size(), line.size() - head.size() - tail.size());
  std::size_t digits = 0;
  Marker m;
  while (digits < s.size() && digits < 12 && s[digits] >= '0' && s[digits] <= '9') {
    m.count = m.count * 10 + static_cast<std::size_t>(s[digits] - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  s.remove_prefix(digits);
  std::string unit = " " + std::string(noun);
  if (!s.starts_with(unit)) return std::nullopt;
  s.remove_prefix(unit.size());
  if (s.starts_with(" matching ")) {
    s.remove_prefix(10);
    m.selector = take_quoted(s);
    if (!m.selector) return std::nullopt;
  }
  constexpr std::string_view kTag = " elided (caveman)";
  if (!s.starts_with(kTag)) return std::nullopt;
  s.remove_prefix(kTag.size());
  if (s.empty()) return m;
  if (!allow_summary || !s.starts_with(": ")) return std::nullopt;
  m.summary = std::string(s.substr(2));
  return m;
}

// Checks the elided original units [begin, end); returns a failure or "".
using VerifyRun = std::function<std::string(std::size_t begin, std::size_t end, const Marker&)>;
using ParseLine = std::function<std::optional<Marker>(std::string_view line)>;

// Aligns output lines with original lines: every output line is the next original line, a
// marker consuming exactly its count of original lines, or the trailing elision note.
void align_lines(const std::vector<std::string>& original, std::string_view output,
                 const ParseLine& parse, const VerifyRun& verify, MarkerFacts& r) {
  text::Lines out = text::split_lines(output);
  std::size_t idx = 0;
  for (std::size_t k = 0; k < out.lines.size(); ++k) {
    std::string_view line = strip_cr(out.lines[k]);
    if (idx < original.size() && line == original[idx]) {
      ++idx;
      continue;
    }
    if (std::optional<Marker> m = parse(line)) {
      ++r.markers;
      if (m->count == 0 || idx + m->count > original.size()) {
        r.failures.push_back("marker on output line " + std::to_string(k + 1) + " claims " +
                             std::to_string(m->count) + " lines but only " +
                             std::to_string(original.size() - idx) + " remain");
        return;
      }
      if (std::string e = verify(idx, idx + m->count, *m); !e.empty()) {
        r.failures.push_back("marker on output line " + std::to_string(k + 1) + ": " + e);
      }
      for (std::size_t i = idx; m->selector && i < idx + m->count; ++i) {
        if (compress::selector_matches(*m->selector, original[i])) continue;
        r.failures.push_back("marker on output line " + std::to_string(k + 1) +
                             ": its selector is false of original line " + std::to_string(i + 1));
        break;
      }
      idx += m->count;
      continue;
    }
    if (line.starts_with(compress::kNotePrefix)) continue;
    r.failures.push_back("output line " + std::to_string(k + 1) +
                         " is neither the next original line nor a marker");
    return;
  }
  if (idx != original.size()) {
    r.failures.push_back(std::to_string(original.size() - idx) +
                         " original lines are neither shown nor counted by a marker");
  }
}

std::vector<std::string> plain_lines(std::string_view s) {
  std::vector<std::string> out;
  for (std::string_view l : text::split_lines(s).lines) out.emplace_back(strip_cr(l));
  return out;
}

std::string no_check(std::size_t, std::size_t, const Marker&) { return ""; }

void check_log(std::string_view original, std::string_view output, MarkerFacts& r) {
  std::vector<std::string> lines = plain_lines(original);
  align_lines(
      lines, output, [](std::string_view l) { return parse_count_marker(l, "lines", true); },
      [&](std::size_t b, std::size_t e, const Marker& m) {
        std::vector<FieldUnit> units;
        for (std::size_t i = b; i < e; ++i) units.push_back(log_line_fields(lines[i]));
        return check_summary_facts(m.summary, units, &r.facts);
      },
      r);
}

void check_terminal(std::string_view original, std::string_view output, MarkerFacts& r) {
  std::vector<std::string> lines;
  for (std::string_view l : text::split_lines(original).lines) {
    lines.emplace_back(strip_cr(compress::clean_terminal_line(l)));
  }
  align_lines(
      lines, output, [](std::string_view l) { return parse_count_marker(l, "lines", false); },
      no_check, r);
}

void check_search(std::string_view original, std::string_view output, MarkerFacts& r) {
  align_lines(
      plain_lines(original), output,
      [](std::string_view l) { return parse_count_marker(l, "search result lines", false); },
      no_check, r);
}

void check_config(std::string_view original, std::string_view output, MarkerFacts& r) {
  align_lines(
      plain_lines(original), output,
      [](std::string_view l) -> std::optional<Marker> {
        std::string_view t = text::trim_ascii(l);
        if (!t.starts_with("# ")) return std::nullopt;
        return parse_count_marker(t.substr(2), "config lines", false);
      },
      no_check, r);
}

void check_repetition(std::string_view original, std::string_view output, MarkerFacts& r) {
  std::vector<std::string> lines = plain_lines(original);
  align_lines(
      lines, output,
      [](std::string_view l) -> std::optional<Marker> {
        std::string head = std::string(kEllipsis) + " caveman: ";
        std::string tail = " identical lines elided " + std::string(kEllipsis);
        if (!l.starts_with(head) || !l.ends_with(tail)) return std::nullopt;
        std::string_view n = l.substr(head.size(), l.size() - head.size() - tail.size());
        if (n.empty() || n.size() > 12 || n.find_first_not_of("0123456789") != n.npos) {
          return std::nullopt;
        }
        return Marker{std::stoul(std::string(n)), ""};
      },
      [&](std::size_t b, std::size_t e, const Marker&) -> std::string {
        if (b == 0) return "no line precedes the identical run";
        for (std::size_t i = b; i < e; ++i) {
          if (lines[i] != lines[b - 1])
            return "line " + std::to_string(i + 1) + " is not identical";
        }
        return "";
      },
      r);
}

// `output` with each run of word-diff lines read back as the removed lines, then the added
// lines, they stand for.
std::string without_word_diffs(std::string_view output) {
  std::vector<std::string_view> lines = text::split_all(output);
  std::vector<std::string> out;
  for (std::size_t k = 0; k < lines.size();) {
    std::vector<std::string> added;
    for (; k < lines.size(); ++k) {
      auto pair = compress::diff::split_word_diff(lines[k]);
      if (!pair) break;
      out.push_back(std::move(pair->first));
      added.push_back(std::move(pair->second));
    }
    for (std::string& a : added) out.push_back(std::move(a));
    if (added.empty()) out.emplace_back(lines[k++]);
  }
  std::string joined;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k > 0) joined += '\n';
    joined += out[k];
  }
  return joined;
}

void check_diff(std::string_view original, std::string_view raw_output, MarkerFacts& r) {
  const std::string output = without_word_diffs(raw_output);
  std::vector<std::string> lines = plain_lines(original);
  compress::diff::NoteChecker notes(text::split_lines(original).lines);
  std::string expected_prefix;
  compress::diff::Kind kind = compress::diff::Kind::kContextMarker;
  using compress::diff::Kind;
  align_lines(
      lines, output,
      [&](std::string_view l) -> std::optional<Marker> {
        for (auto [noun, prefix, k] :
             {std::tuple{"context lines", " ", Kind::kContextMarker},
              std::tuple{"added lines", "+", Kind::kAddedMarker},
              std::tuple{"removed lines", "-", Kind::kRemovedMarker}}) {
          if (std::optional<Marker> m = parse_count_marker(l, noun, true)) {
            expected_prefix = prefix;
            kind = k;
            return m;
          }
        }
        // "… N lines elided (caveman): <note> …" stands for a hunk body (a repeated change,
        // a generated file).
        std::optional<Marker> m = parse_count_marker(l, "lines", true);
        if (m && (m->summary.starts_with("same change as ") ||
                  m->summary.starts_with("generated file, "))) {
          expected_prefix = "+- ";
          kind = Kind::kBodyMarker;
          return m;
        }
        return std::nullopt;
      },
      [&](std::size_t b, std::size_t e, const Marker& m) -> std::string {
        for (std::size_t i = b; i < e; ++i) {
          char c = lines[i].empty() ? ' ' : lines[i][0];
          if (expected_prefix.find(c) == std::string::npos) {
            return "elided line " + std::to_string(i + 1) + " is not a " +
                   (expected_prefix == " "   ? "context"
                    : expected_prefix == "+" ? "added"
                    : expected_prefix == "-" ? "removed"
                                             : "hunk body") +
                   " line";
          }
        }
        if (!m.summary.empty()) ++r.facts;
        return notes.check(b, e, kind, m.summary);
      },
      r);
}

void check_text(std::string_view original, std::string_view output, MarkerFacts& r) {
  compress::Sections secs = compress::split_sections(original);
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t pos = 0, idx = 0;
  const std::size_t n = secs.sections.size();
  while (true) {
    std::size_t ws = pos;
    while (ws < output.size() && is_space(output[ws])) ++ws;
    if (ws >= output.size()) break;
    if (idx < n) {
      const compress::Section& s = secs.sections[idx];
      std::string_view body = original.substr(s.begin, s.end - s.begin);
      // The section starts with its own indentation, which lies inside the skipped span.
      std::size_t at = output.substr(pos, ws - pos + body.size()).find(body);
      if (at != std::string_view::npos && pos + at <= ws) {
        pos += at + body.size();
        ++idx;
        continue;
      }
    }
    std::size_t eol = output.find('\n', ws);
    std::string_view line =
        strip_cr(output.substr(ws, eol == output.npos ? output.npos : eol - ws));
    if (std::optional<Marker> m = parse_count_marker(line, "sections", false)) {
      ++r.markers;
      if (m->count == 0 || idx + m->count > n) {
        r.failures.push_back("a sections marker claims " + std::to_string(m->count) +
                             " sections but only " + std::to_string(n - idx) + " remain");
        return;
      }
      idx += m->count;
      pos = ws + line.size();
      continue;
    }
    r.failures.push_back("output at byte " + std::to_string(ws) +
                         " is neither the next original section nor a marker");
    return;
  }
  if (idx != n) {
    r.failures.push_back(std::to_string(n - idx) +
                         " original sections are neither shown nor counted by a marker");
  }
}

// Whether the original (`in`) and the output both parsed as `what`; if not, a failure says
// which one did not.
template <typename T>
bool both_parsed(const std::optional<T>& in, const std::optional<T>& out, std::string_view what,
                 MarkerFacts& r) {
  if (in && out) return true;
  r.failures.push_back(std::string(in ? "output" : "original") + " is not " + std::string(what));
  return false;
}

void check_tabular(std::string_view original, std::string_view output, MarkerFacts& r) {
  std::optional<compress::Table> in = compress::parse_table(original);
  std::optional<compress::Table> out = compress::parse_table(output);
  if (!both_parsed(in, out, "a table", r)) return;
  const std::size_t h = in->header_rows();
  if (out->rows.size() < h ||
      !std::equal(in->rows.begin(), in->rows.begin() + h, out->rows.begin())) {
    r.failures.push_back("header rows changed");
    return;
  }
  const std::vector<std::string>& header = in->rows[0];
  std::size_t idx = h;
  for (std::size_t k = h; k < out->rows.size(); ++k) {
    const std::vector<std::string>& row = out->rows[k];
    if (idx < in->rows.size() && row == in->rows[idx]) {
      ++idx;
      continue;
    }
    std::string_view first = row.empty() ? std::string_view() : text::trim_space(row[0]);
    bool rest_empty = true;
    for (std::size_t c = 1; c < row.size(); ++c) rest_empty = rest_empty && row[c].empty();
    if (rest_empty && first.starts_with(compress::kNotePrefix)) continue;
    std::optional<Marker> m = rest_empty ? parse_count_marker(first, "rows", true) : std::nullopt;
    if (!m) {
      r.failures.push_back("output row " + std::to_string(k + 1) +
                           " is neither the next original row nor a marker");
      return;
    }
    ++r.markers;
    if (m->count == 0 || idx + m->count > in->rows.size()) {
      r.failures.push_back("a rows marker claims more rows than remain");
      return;
    }
    std::vector<FieldUnit> units;
    for (std::size_t i = idx; i < idx + m->count; ++i) {
      FieldUnit u;
      for (std::size_t c = 0; c < header.size() && c < in->rows[i].size(); ++c) {
        std::string name(text::trim_space(header[c]));
        std::string value(text::trim_space(in->rows[i][c]));
        if (!name.empty() && !value.empty() && !u.count(name)) u[name] = value;
      }
      units.push_back(std::move(u));
    }
    if (std::string e = check_summary_facts(m->summary, units, &r.facts); !e.empty()) {
      r.failures.push_back("rows marker: " + e);
    }
    idx += m->count;
  }
  if (idx != in->rows.size()) {
    r.failures.push_back(std::to_string(in->rows.size() - idx) +
                         " original rows are neither shown nor counted by a marker");
  }
}

// A JSON elision marker: {"__caveman_elided__": N, "__caveman_invariants__": "…", …}.
std::optional<Marker> json_marker(const json::Value& v) {
  if (!v.is_object() || v.members.empty()) return std::nullopt;
  std::optional<Marker> m;
  for (const json::Member& mem : v.members) {
    if (mem.key.starts_with("__caveman_elided") && mem.value.is_number()) {
      std::string_view digits = mem.value.text;
      if (digits.empty() || digits.size() > 12 ||
          digits.find_first_not_of("0123456789") != std::string_view::npos) {
        return std::nullopt;
      }
      if (!m) m = Marker{};
      m->count = std::stoul(std::string(digits));
    } else if (mem.key.starts_with("__caveman_invariants") && mem.value.is_string()) {
      if (!m) m = Marker{};
      m->summary = mem.value.text;
    } else if (!mem.key.starts_with("__caveman_note")) {
      return std::nullopt;
    }
  }
  return m;
}

void align_json(const json::Value& in, const json::Value& out, const std::string& path,
                MarkerFacts& r) {
  if (!r.failures.empty()) return;
  if (in.kind != out.kind) {
    r.failures.push_back(path + ": value kind changed");
    return;
  }
  if (out.is_object()) {
    std::vector<bool> used(in.members.size(), false);
    for (const json::Member& m : out.members) {
      std::size_t j = 0;
      while (j < in.members.size() && (used[j] || in.members[j].key != m.key)) ++j;
      if (j == in.members.size()) {
        r.failures.push_back(path + ": member \"" + m.key + "\" is not in the original");
        return;
      }
      used[j] = true;
      align_json(in.members[j].value, m.value, path + "." + m.key, r);
    }
    return;
  }
  if (out.is_array()) {
    std::size_t idx = 0;
    for (const json::Value& e : out.items) {
      if (std::optional<Marker> m = json_marker(e)) {
        ++r.markers;
        if (m->count == 0 || idx + m->count > in.items.size()) {
          r.failures.push_back(path + ": a marker claims " + std::to_string(m->count) +
                               " elements but only " + std::to_string(in.items.size() - idx) +
                               " remain");
          return;
        }
        std::vector<FieldUnit> units;
        for (std::size_t i = idx; i < idx + m->count; ++i)
          units.push_back(json_element_fields(in.items[i]));
        if (std::string f = check_summary_facts(m->summary, units, &r.facts); !f.empty()) {
          r.failures.push_back(path + ": " + f);
        }
        idx += m->count;
        continue;
      }
      if (idx >= in.items.size()) {
        r.failures.push_back(path + ": more elements than the original");
        return;
      }
      align_json(in.items[idx], e, path + "[" + std::to_string(idx) + "]", r);
      ++idx;
    }
    if (idx != in.items.size()) {
      r.failures.push_back(path + ": " + std::to_string(in.items.size() - idx) +
                           " original elements are neither shown nor counted by a marker");
    }
    return;
  }
  if (in.text != out.text || in.boolean != out.boolean) {
    r.failures.push_back(path + ": scalar changed");
  }
}

void check_json(std::string_view original, std::string_view output, MarkerFacts& r) {
  std::optional<json::Value> in = json::parse(original);
  std::optional<json::Value> out = json::parse(output);
  if (!both_parsed(in, out, "JSON", r)) return;
  align_json(*in, *out, "$", r);
}

}  // namespace

MarkerFacts check_marker_facts(std::string_view content_type, std::string_view original,
                               std::string_view output) {
  using Check = void (*)(std::string_view, std::string_view, MarkerFacts&);
  // One marker grammar per content type whose compressor writes markers.
  static constexpr std::pair<std::string_view, Check> kChecks[] = {
      {"json", check_json},
      {"log", check_log},
      {"terminal", check_terminal},
      {"search-result", check_search},
      {"config", check_config},
      {"diff", check_diff},
      {"text", check_text},
      {"tabular", check_tabular},
      {"repetition", check_repetition}};
  MarkerFacts r;
  for (const auto& [type, check] : kChecks) {
    if (type == content_type) {
      check(original, output, r);
      return r;
    }
  }
  r.failures.push_back("no marker grammar for content type " + std::string(content_type));
  return r;
}

}  // namespace caveman::evals
