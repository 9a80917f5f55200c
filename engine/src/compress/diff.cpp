// diff — unified diffs (git diff, git show, git log -p), ENGINE.md §4.4.
//
// The diff is parsed, not pattern-matched: hunk headers give the exact number of old and
// new lines, so only lines inside a hunk are candidates, and everything outside (commit
// headers and messages, `diff --git`, `index`, `---`/`+++`, mode lines) is always kept.
// Inside hunks:
//  * context lines more than kContext lines away from every change are elided;
//  * a long run of only-added (or only-removed) lines keeps its head, tail and its
//    "outline" (the least-indented code lines: declarations, signatures, directives) and
//    elides the rest — a new file shrinks to its skeleton, the full text stays in CCR;
//  * a hunk whose changed lines repeat an earlier hunk's (one edit applied in many places,
//    a change re-landed in `git log -p`) keeps its header and points at the first one.
// ⚠ The original elided any run, even one line, behind a longer marker, and treated only
// context as elidable; with git's default 3-line context that made outputs *larger*. Here
// a run is elided only when its marker is at most half as long as the run.
// Markers carry the line count, and a second pass counts them back into the hunk, so the
// output re-compresses to itself (idempotent).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compress/compressors.h"
#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMinLines = 12;
constexpr std::size_t kContext = 2;
constexpr std::int64_t kLongRun = 12;  // change runs longer than this are outlined
constexpr std::size_t kRunHead = 4;
constexpr std::size_t kRunTail = 2;
constexpr std::int64_t kMinOutlineCap = 6;  // outline kept only if ≤ max(this, run/4) lines

enum class Kind {
  kMeta,           // outside any hunk: always kept
  kHunkHeader,     // "@@ -a,b +c,d @@"
  kContext,        // " …" inside a hunk
  kAdded,          // "+…" inside a hunk
  kRemoved,        // "-…" inside a hunk
  kContextMarker,  // "… N context lines elided (caveman) …"
  kAddedMarker,
  kRemovedMarker,
  kSameMarker,     // "… N lines elided (caveman): same change as <file> @@ … @@ …" (a whole body)
};

constexpr std::string_view kSameChange = " lines elided (caveman): same change as ";

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view marker_noun(Kind k) {
  switch (k) {
    case Kind::kAdded: return "added";
    case Kind::kRemoved: return "removed";
    default: return "context";
  }
}

std::string marker_text(Kind k, std::int64_t n) {
  std::string out(kEllipsis);
  out += " " + std::to_string(n) + " ";
  out += marker_noun(k);
  out += " lines elided (caveman) ";
  out += kEllipsis;
  return out;
}

// Parses one of our markers; sets the kind and the count it stands for.
bool parse_marker(std::string_view line, Kind* kind, std::int64_t* count) {
  std::string_view s = line;
  if (s.substr(0, kEllipsis.size() + 1) != std::string(kEllipsis) + " ") return false;
  s.remove_prefix(kEllipsis.size() + 1);
  std::size_t digits = 0;
  std::int64_t n = 0;
  while (digits < s.size() && digits < 12 && s[digits] >= '0' && s[digits] <= '9') {
    n = n * 10 + (s[digits] - '0');
    ++digits;
  }
  if (digits == 0) return false;
  s.remove_prefix(digits);
  for (Kind k : {Kind::kContext, Kind::kAdded, Kind::kRemoved}) {
    std::string tail = " " + std::string(marker_noun(k)) + " lines elided (caveman) " +
                       std::string(kEllipsis);
    if (s == tail) {
      *kind = k == Kind::kContext ? Kind::kContextMarker
              : k == Kind::kAdded ? Kind::kAddedMarker
                                  : Kind::kRemovedMarker;
      *count = n;
      return true;
    }
  }
  return false;
}

bool parse_count(std::string_view s, std::size_t* i, std::int64_t* out) {
  std::size_t start = *i;
  std::int64_t v = 0;
  while (*i < s.size() && s[*i] >= '0' && s[*i] <= '9' && *i - start < 12) {
    v = v * 10 + (s[*i] - '0');
    ++*i;
  }
  if (*i == start) return false;
  *out = v;
  return true;
}

// "@@ -a[,b] +c[,d] @@…" → old and new line counts (default 1). Combined diffs ("@@@")
// and anything else → false.
bool parse_hunk_header(std::string_view s, std::int64_t* old_count, std::int64_t* new_count) {
  if (s.substr(0, 4) != "@@ -") return false;
  std::size_t i = 4;
  std::int64_t start = 0;
  if (!parse_count(s, &i, &start)) return false;
  *old_count = 1;
  if (i < s.size() && s[i] == ',') {
    ++i;
    if (!parse_count(s, &i, old_count)) return false;
  }
  if (s.substr(i, 2) != " +") return false;
  i += 2;
  if (!parse_count(s, &i, &start)) return false;
  *new_count = 1;
  if (i < s.size() && s[i] == ',') {
    ++i;
    if (!parse_count(s, &i, new_count)) return false;
  }
  return s.substr(i, 3) == " @@";
}

struct Hunk {
  std::size_t header = 0;  // line index of "@@ … @@"
  std::size_t end = 0;     // one past its last body line
  std::string file;        // path from the preceding "+++ " (or "--- ") line
};

bool is_same_marker(std::string_view s) {
  return s.starts_with(kEllipsis) && s.find(kSameChange) != std::string_view::npos &&
         s.ends_with(kEllipsis);
}

// "+++ b/src/x.c	2024-…" → "src/x.c"; "/dev/null" → "".
std::string header_path(std::string_view rest) {
  rest = rest.substr(0, rest.find('\t'));
  if (rest == "/dev/null") return "";
  if (rest.starts_with("a/") || rest.starts_with("b/")) rest.remove_prefix(2);
  return std::string(rest);
}

std::vector<Kind> classify(const std::vector<std::string_view>& lines,
                           std::vector<std::int64_t>* marker_counts, std::vector<Hunk>* hunks) {
  std::vector<Kind> kinds(lines.size(), Kind::kMeta);
  marker_counts->assign(lines.size(), 0);
  std::int64_t old_left = 0, new_left = 0;
  std::string old_file, new_file;
  auto close_hunk = [&](std::size_t end) {
    if (!hunks->empty() && hunks->back().end == 0) hunks->back().end = end;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view s = strip_cr(lines[i]);
    if (old_left > 0 || new_left > 0) {
      Kind mk;
      std::int64_t n = 0;
      char c = s.empty() ? ' ' : s[0];  // an empty line is context whose space was stripped
      bool handled = true;
      if (parse_marker(s, &mk, &n)) {
        kinds[i] = mk;
        (*marker_counts)[i] = n;
        if (mk != Kind::kAddedMarker) old_left -= n;
        if (mk != Kind::kRemovedMarker) new_left -= n;
      } else if (is_same_marker(s)) {
        kinds[i] = Kind::kSameMarker;
        old_left = new_left = 0;
      } else if (c == ' ' && old_left > 0 && new_left > 0) {
        kinds[i] = Kind::kContext;
        --old_left;
        --new_left;
      } else if (c == '-' && old_left > 0) {
        kinds[i] = Kind::kRemoved;
        --old_left;
      } else if (c == '+' && new_left > 0) {
        kinds[i] = Kind::kAdded;
        --new_left;
      } else if (c == '\\') {
        kinds[i] = Kind::kMeta;  // "\ No newline at end of file"
      } else {
        handled = false;  // malformed hunk: it ends here
        old_left = new_left = 0;
      }
      if (handled) {
        if (old_left <= 0 && new_left <= 0) close_hunk(i + 1);
        continue;
      }
      close_hunk(i);
    }
    std::int64_t o = 0, n = 0;
    if (parse_hunk_header(s, &o, &n)) {
      kinds[i] = Kind::kHunkHeader;
      old_left = o;
      new_left = n;
      hunks->push_back(Hunk{i, 0, new_file.empty() ? old_file : new_file});
      if (o <= 0 && n <= 0) close_hunk(i + 1);
    } else if (s.starts_with("--- ")) {
      old_file = header_path(s.substr(4));
    } else if (s.starts_with("+++ ")) {
      new_file = header_path(s.substr(4));
    } else if (s.starts_with("diff ")) {
      old_file.clear();
      new_file.clear();
    }
  }
  close_hunk(lines.size());
  return kinds;
}

bool is_change(Kind k) {
  return k == Kind::kAdded || k == Kind::kRemoved || k == Kind::kAddedMarker ||
         k == Kind::kRemovedMarker;
}

std::size_t indent_of(std::string_view body) {
  std::size_t n = 0;
  while (n < body.size() && (body[n] == ' ' || body[n] == '\t')) ++n;
  return n;
}

bool has_word_char(std::string_view s) {
  for (char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
      return true;
    }
  }
  return false;
}

// Comment lines are not outline: "// x", "/* x", "* x", "# x", "-- x", "; x", "<!-- x".
// "#include"/"#define" (a letter right after '#') are directives and stay outline.
bool is_comment(std::string_view body) {
  std::string_view t = body.substr(indent_of(body));
  if (t.starts_with("//") || t.starts_with("/*") || t.starts_with("*") || t.starts_with("--") ||
      t.starts_with(";") || t.starts_with("<!--")) {
    return true;
  }
  if (t.starts_with("#")) {
    return t.size() == 1 || !((t[1] >= 'a' && t[1] <= 'z') || (t[1] >= 'A' && t[1] <= 'Z'));
  }
  return false;
}

// Marks the lines of one same-sign change run [begin, end) to drop.
void outline_run(const std::vector<std::string_view>& lines, const std::vector<Kind>& kinds,
                 const std::vector<std::int64_t>& marker_counts, std::size_t begin,
                 std::size_t end, std::vector<bool>& keep) {
  std::vector<std::size_t> present;  // real change lines, in order
  std::int64_t total = 0;
  for (std::size_t i = begin; i < end; ++i) {
    if (kinds[i] == Kind::kAdded || kinds[i] == Kind::kRemoved) {
      present.push_back(i);
      ++total;
    } else {
      total += marker_counts[i];
    }
  }
  if (total <= kLongRun || present.size() <= kRunHead + kRunTail) return;
  std::size_t min_indent = std::string_view::npos;
  for (std::size_t i : present) {
    std::string_view body = strip_cr(lines[i]).substr(1);
    if (has_word_char(body)) min_indent = std::min(min_indent, indent_of(body));
  }
  std::vector<std::size_t> outline;
  for (std::size_t p = kRunHead; p + kRunTail < present.size(); ++p) {
    std::string_view body = strip_cr(lines[present[p]]).substr(1);
    if (has_word_char(body) && indent_of(body) == min_indent && !is_comment(body)) {
      outline.push_back(present[p]);
    }
  }
  std::int64_t cap = std::max<std::int64_t>(kMinOutlineCap, total / 4);
  bool keep_outline = static_cast<std::int64_t>(outline.size()) <= cap;
  for (std::size_t p = kRunHead; p + kRunTail < present.size(); ++p) keep[present[p]] = false;
  if (keep_outline) {
    for (std::size_t i : outline) keep[i] = true;
  }
}

// A hunk whose changed lines repeat an earlier hunk's exactly (the same edit in many files,
// a change re-landed or cherry-picked in `git log -p`) keeps its header; its body becomes
// one marker naming the first occurrence. Returns the lines replaced; the marker text sits
// at the first of them.
std::vector<bool> repeated_hunks(const std::vector<std::string_view>& lines,
                                 const std::vector<Kind>& kinds,
                                 const std::vector<std::int64_t>& marker_counts,
                                 const std::vector<Hunk>& hunks, std::vector<std::string>* markers) {
  std::vector<bool> replaced(lines.size(), false);
  std::map<std::string, std::size_t, std::less<>> first_seen;  // changed lines → hunk
  for (std::size_t h = 0; h < hunks.size(); ++h) {
    const Hunk& hunk = hunks[h];
    std::size_t begin = hunk.header + 1;
    std::string key;
    bool outlined = false;
    std::int64_t count = 0;
    std::size_t bytes = 0;
    for (std::size_t i = begin; i < hunk.end; ++i) {
      Kind k = kinds[i];
      if (k == Kind::kAddedMarker || k == Kind::kRemovedMarker || k == Kind::kSameMarker) outlined = true;
      if (k == Kind::kAdded || k == Kind::kRemoved) {
        key += strip_cr(lines[i]);
        key.push_back('\n');
      }
      count += k == Kind::kContextMarker ? marker_counts[i] : 1;
      bytes += lines[i].size() + 1;
    }
    if (outlined || key.empty()) continue;
    auto [it, inserted] = first_seen.emplace(std::move(key), h);
    if (inserted) continue;
    const Hunk& first = hunks[it->second];
    std::string_view header = strip_cr(lines[first.header]);
    header = header.substr(0, header.find(" @@", 3) + 3);
    std::string marker(kEllipsis);
    marker += " " + std::to_string(count) + std::string(kSameChange);
    if (!first.file.empty()) marker += first.file + " ";
    marker += std::string(header) + " " + std::string(kEllipsis);
    if (marker.size() + 1 >= bytes) continue;
    for (std::size_t i = begin; i < hunk.end; ++i) replaced[i] = true;
    (*markers)[begin] = std::move(marker);
  }
  return replaced;
}

class DiffCompressor final : public Compressor {
 public:
  std::string_view type() const override { return "diff"; }

  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view /*query*/) const override {
    if (!text::is_valid_utf8(input)) return std::nullopt;
    text::Lines split = text::split_lines(input);
    const std::vector<std::string_view>& lines = split.lines;
    if (lines.size() < kMinLines) return std::nullopt;

    std::vector<std::int64_t> marker_counts;
    std::vector<Hunk> hunks;
    std::vector<Kind> kinds = classify(lines, &marker_counts, &hunks);
    const std::size_t n = lines.size();

    std::vector<bool> keep(n, true);
    // Context far from every change.
    std::vector<bool> near(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (!is_change(kinds[i])) continue;
      std::size_t lo = i >= kContext ? i - kContext : 0;
      std::size_t hi = std::min(n - 1, i + kContext);
      for (std::size_t j = lo; j <= hi; ++j) near[j] = true;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (kinds[i] == Kind::kContext && !near[i]) keep[i] = false;
    }
    // Long same-sign change runs (markers of the same sign continue a run).
    for (std::size_t i = 0; i < n;) {
      bool added = kinds[i] == Kind::kAdded || kinds[i] == Kind::kAddedMarker;
      bool removed = kinds[i] == Kind::kRemoved || kinds[i] == Kind::kRemovedMarker;
      if (!added && !removed) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < n && (added ? (kinds[j] == Kind::kAdded || kinds[j] == Kind::kAddedMarker)
                             : (kinds[j] == Kind::kRemoved || kinds[j] == Kind::kRemovedMarker))) {
        ++j;
      }
      outline_run(lines, kinds, marker_counts, i, j, keep);
      i = j;
    }

    std::vector<std::string> same_marker(n);
    std::vector<bool> in_same = repeated_hunks(lines, kinds, marker_counts, hunks, &same_marker);

    std::vector<std::string> out;
    out.reserve(n);
    bool dropped_any = false;
    for (std::size_t i = 0; i < n;) {
      if (in_same[i]) {
        if (!same_marker[i].empty()) {
          out.push_back(text::marker_line(same_marker[i], split.crlf_majority));
          dropped_any = true;
        }
        ++i;
        continue;
      }
      if (keep[i]) {
        out.emplace_back(lines[i]);
        ++i;
        continue;
      }
      // A run of one kind (context, added or removed).
      Kind k = kinds[i];
      std::size_t j = i;
      std::size_t run_bytes = 0;
      while (j < n && !keep[j] && kinds[j] == k) run_bytes += lines[j++].size() + 1;
      std::string marker = text::marker_line(marker_text(k, static_cast<std::int64_t>(j - i)),
                                             split.crlf_majority);
      // Worth eliding (as §5.3 has it for short runs): the marker is at most half the run.
      if (2 * (marker.size() + 1) <= run_bytes) {
        out.push_back(std::move(marker));
        dropped_any = true;
      } else {
        for (std::size_t x = i; x < j; ++x) out.emplace_back(lines[x]);
      }
      i = j;
    }
    if (!dropped_any) return std::nullopt;
    std::string result = text::join_lines(out, split.trailing_newline);
    if (result.size() >= input.size()) return std::nullopt;
    return CompressorOutput{std::move(result), "diff", std::nullopt, {}};
  }
};

}  // namespace

std::unique_ptr<Compressor> make_diff_compressor() { return std::make_unique<DiffCompressor>(); }

}  // namespace caveman::compress
