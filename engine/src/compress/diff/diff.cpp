// diff — unified diffs (git diff, git show, git log -p), docs/spec/compressors.md#diff, extended.
//
// The diff is parsed, not pattern-matched (diff_parse.h): hunk headers give the exact
// number of old and new lines, so only lines inside a hunk are candidates, and everything
// outside (commit headers and messages, `diff --git`, `index`, `---`/`+++`, mode lines) is
// always kept, as is every hunk header. What an agent reading a diff needs is what changed,
// where; text it can find elsewhere in the view, or that nobody reads line by line, goes:
//  * context: only the nearest line on each side of a change is kept (the original kept
//    2); it locates the change, the hunk header gives the line numbers;
//  * a block removed here and added verbatim elsewhere in the same commit (moved code, a
//    file moved by delete + add) and a block re-added right below with only whitespace
//    changed: the removed copy becomes a marker naming where the identical text is;
//  * a deleted file's body: one marker with its line count (the hunk header and
//    `deleted file mode` line stay);
//  * a lock file, minified or vendored file (package-lock.json, *.min.js, vendor/…): each
//    hunk body becomes one marker with its added/removed counts;
//  * a new file in a brace language (Go, JS/TS, C, C++; from its path) that parses
//    cleanly loses the lines inside its function bodies (diff_code.h): signatures,
//    declarations, members, imports and comments stay; a new file's leading licence
//    comment keeps only its first (copyright) line;
//  * any other long run of only-added (or only-removed) lines keeps its head, tail and its
//    "outline" (the least-indented code lines: declarations, signatures, directives);
//  * a hunk whose changed lines repeat an earlier hunk's (one edit applied in many places,
//    a change re-landed in `git log -p`) keeps its header and points at the first one.
// The output is for reading, not for `git apply`: an elided hunk no longer applies; the
// exact original is in CCR. ⚠ The original elided any run, even one line, behind a longer
// marker; here a run is elided only when its marker is at most half as long as the run.
// Markers carry their line counts, and a second pass counts them back into the hunk. A diff
// that already holds a marker is passed through: which lines are rare is counted over the
// text, and a view's counts are not its input's, so a second pass could hide what the first
// kept; passing through keeps the output a fixed point.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/text.h"
#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "compress/diff/diff_code.h"
#include "compress/diff/diff_moves.h"
#include "compress/diff/diff_parse.h"
#include "compress/diff/diff_words.h"
#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

using diff::Kind;

constexpr std::size_t kMinLines = 12;
constexpr std::string_view kElidedNeedle = "elided (caveman)";  // every marker holds it
constexpr std::size_t kContext = 1;
constexpr std::int64_t kLongRun = 12;  // change runs longer than this are outlined
constexpr std::size_t kRunHead = 4;
constexpr std::size_t kRunTail = 2;
constexpr std::int64_t kMinOutlineCap = 6;  // outline kept only if ≤ max(this, run/4) lines
constexpr double kWordDiffCost = 0.75;      // a word-diff line costs under this share of its pair

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
  std::string_view t = body.substr(base::leading_blanks(body));
  if (t.starts_with("//") || t.starts_with("/*") || t.starts_with("*") || t.starts_with("--") ||
      t.starts_with(";") || t.starts_with("<!--")) {
    return true;
  }
  if (t.starts_with("#")) {
    return t.size() == 1 || !((t[1] >= 'a' && t[1] <= 'z') || (t[1] >= 'A' && t[1] <= 'Z'));
  }
  return false;
}

// Lock files, minified bundles, source maps and vendored trees: regenerated, not written,
// so their lines are not what a reader of the diff reviews.
bool is_generated_path(std::string_view path) {
  std::string_view base =
      path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  static constexpr std::string_view kLockFiles[] = {"package-lock.json",
                                                    "npm-shrinkwrap.json",
                                                    "yarn.lock",
                                                    "pnpm-lock.yaml",
                                                    "bun.lock",
                                                    "Cargo.lock",
                                                    "go.sum",
                                                    "poetry.lock",
                                                    "Pipfile.lock",
                                                    "uv.lock",
                                                    "composer.lock",
                                                    "Gemfile.lock",
                                                    "flake.lock",
                                                    "packages.lock.json",
                                                    "pubspec.lock",
                                                    "mix.lock"};
  for (std::string_view f : kLockFiles) {
    if (base == f) return true;
  }
  for (std::string_view suffix : {".min.js", ".min.css", ".min.mjs", ".js.map", ".css.map"}) {
    if (base.ends_with(suffix)) return true;
  }
  for (std::string_view dir : {"vendor/", "node_modules/"}) {
    if (path.starts_with(dir) || path.find("/" + std::string(dir)) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// What happens to each line. Dropped lines of one kind and one note become one marker.
struct Plan {
  explicit Plan(std::size_t n) : keep(n, true), note(n, 0), body(n) {}
  std::vector<bool> keep;
  std::vector<std::size_t> note;  // index into notes (0 = plain marker)
  std::vector<std::string> notes{std::string()};
  std::vector<std::string> body;   // a body marker, at the first line of the body it replaces
  std::vector<bool> in_body = {};  // line replaced by a body marker
};

// Marks the lines of one same-sign change run [begin, end) to drop. Lines already handled
// (`taken`) count as elided, like the markers a second pass sees in their place.
void outline_run(const std::vector<std::string_view>& lines, const diff::Parsed& p,
                 const std::vector<bool>& taken, std::size_t begin, std::size_t end, Plan& plan) {
  std::vector<std::size_t> present;  // real change lines, in order
  std::int64_t total = 0;
  for (std::size_t i = begin; i < end; ++i) {
    if ((p.kinds[i] == Kind::kAdded || p.kinds[i] == Kind::kRemoved) && !taken[i]) {
      present.push_back(i);
      ++total;
    } else {
      total += p.kinds[i] == Kind::kAdded || p.kinds[i] == Kind::kRemoved ? 1 : p.counts[i];
    }
  }
  if (total <= kLongRun || present.size() <= kRunHead + kRunTail) return;
  std::size_t min_indent = std::string_view::npos;
  for (std::size_t i : present) {
    std::string_view body = diff::strip_cr(lines[i]).substr(1);
    if (has_word_char(body)) min_indent = std::min(min_indent, base::leading_blanks(body));
  }
  std::vector<std::size_t> outline;
  for (std::size_t k = kRunHead; k + kRunTail < present.size(); ++k) {
    std::string_view body = diff::strip_cr(lines[present[k]]).substr(1);
    if (has_word_char(body) && base::leading_blanks(body) == min_indent && !is_comment(body)) {
      outline.push_back(present[k]);
    }
  }
  std::int64_t cap = std::max<std::int64_t>(kMinOutlineCap, total / 4);
  bool keep_outline = static_cast<std::int64_t>(outline.size()) <= cap;
  for (std::size_t k = kRunHead; k + kRunTail < present.size(); ++k) plan.keep[present[k]] = false;
  if (keep_outline) {
    for (std::size_t i : outline) plan.keep[i] = true;
  }
}

// Replaces whole hunk bodies: a generated file's (one marker with its counts), and a hunk
// whose changed lines repeat an earlier hunk's exactly (the same edit in many files, a
// change re-landed or cherry-picked in `git log -p`), which points at the first one.
void replace_bodies(const std::vector<std::string_view>& lines, const diff::Parsed& p, Plan& plan) {
  plan.in_body.assign(lines.size(), false);
  std::map<std::string, std::size_t, std::less<>> first_seen;  // changed lines → hunk
  for (std::size_t h = 0; h < p.hunks.size(); ++h) {
    const diff::Hunk& hunk = p.hunks[h];
    std::size_t begin = hunk.header + 1;
    std::string key;
    bool has_marker = false;
    std::int64_t count = 0, added = 0, removed = 0;
    std::size_t bytes = 0;
    for (std::size_t i = begin; i < hunk.end; ++i) {
      Kind k = p.kinds[i];
      if (k == Kind::kAddedMarker || k == Kind::kRemovedMarker || k == Kind::kBodyMarker)
        has_marker = true;
      if (k == Kind::kAdded || k == Kind::kRemoved || k == Kind::kWordDiff) {
        key += diff::strip_cr(lines[i]);
        key.push_back('\n');
      }
      // A word-diff line stands for a removed and an added line.
      std::int64_t c = k == Kind::kContextMarker ? p.counts[i]
                       : k == Kind::kMeta        ? 0
                       : k == Kind::kWordDiff    ? 2
                                                 : 1;
      count += c;
      if (k == Kind::kAdded || k == Kind::kWordDiff) ++added;
      if (k == Kind::kRemoved || k == Kind::kWordDiff) ++removed;
      bytes += lines[i].size() + 1;
    }
    if (has_marker || key.empty()) continue;
    std::string marker;
    if (is_generated_path(hunk.file)) {
      marker = diff::body_marker(count, "generated file, " + std::to_string(added) + " added, " +
                                            std::to_string(removed) + " removed");
    } else {
      auto [it, inserted] = first_seen.emplace(std::move(key), h);
      if (inserted) continue;
      const diff::Hunk& first = p.hunks[it->second];
      std::string_view header = diff::strip_cr(lines[first.header]);
      header = header.substr(0, header.find(" @@", 3) + 3);
      marker = diff::body_marker(
          count, "same change as " + (first.file.empty() ? std::string() : first.file + " ") +
                     std::string(header));
    }
    if (marker.size() + 1 >= bytes) continue;
    for (std::size_t i = begin; i < hunk.end; ++i) plan.in_body[i] = true;
    plan.body[begin] = std::move(marker);
  }
}

Plan plan_diff(const std::vector<std::string_view>& lines, const diff::Parsed& p) {
  const std::size_t n = lines.size();
  Plan plan(n);
  replace_bodies(lines, p, plan);

  // Removed text that is still in view elsewhere, then deleted files' bodies.
  std::vector<bool> taken = plan.in_body;
  auto take = [&](const std::vector<diff::Elision>& segments) {
    for (const diff::Elision& e : segments) {
      plan.notes.push_back(e.note);
      for (std::size_t i = e.begin; i < e.end; ++i) {
        taken[i] = true;
        plan.keep[i] = false;
        plan.note[i] = plan.notes.size() - 1;
      }
    }
  };
  take(diff::find_reindented(lines, p, taken));
  // A deleted file's body becomes one marker; moved parts of it only add a count to it.
  std::map<std::size_t, std::map<std::string, std::size_t>> moved_out;  // hunk → file → lines
  std::vector<diff::Elision> moved;
  for (diff::Elision& e : diff::find_moved(lines, p, taken)) {
    auto h = static_cast<std::size_t>(p.hunk_of[e.begin]);
    if (!p.hunks[h].deleted_file) {
      moved.push_back(std::move(e));
    } else if (!e.target.empty()) {
      moved_out[h][e.target] += e.end - e.begin;
    }
  }
  take(moved);
  for (std::size_t h = 0; h < p.hunks.size(); ++h) {
    if (!p.hunks[h].deleted_file) continue;
    std::size_t note = 0;
    if (auto it = moved_out.find(h); it != moved_out.end()) {
      auto best = it->second.begin();
      for (auto f = it->second.begin(); f != it->second.end(); ++f) {
        if (f->second > best->second) best = f;
      }
      plan.notes.push_back(std::to_string(best->second) + " identical to added lines in " +
                           best->first);
      note = plan.notes.size() - 1;
    }
    for (std::size_t i = p.hunks[h].header + 1; i < p.hunks[h].end; ++i) {
      if (p.kinds[i] != Kind::kRemoved || taken[i]) continue;
      taken[i] = true;
      plan.keep[i] = false;
      plan.note[i] = note;
    }
  }

  // A new file in a brace language: its function bodies. Once a body marker is in the
  // hunk (a second pass), the hunk stays on this path even if its skeleton no longer parses.
  std::vector<bool> code_hunk(p.hunks.size(), false);
  std::size_t body_note = 0;
  for (std::size_t h = 0; h < p.hunks.size(); ++h) {
    const diff::Hunk& hunk = p.hunks[h];
    bool body_marker = false, other_marker = false, any_taken = false;
    for (std::size_t i = hunk.header + 1; i < hunk.end; ++i) {
      if (p.kinds[i] == Kind::kAddedMarker && p.notes[i] == diff::kBodyNote) body_marker = true;
      if (p.kinds[i] == Kind::kAddedMarker && p.notes[i] != diff::kBodyNote &&
          p.notes[i] != diff::kLicenceNote) {
        other_marker = true;
      }
      any_taken = any_taken || taken[i];
    }
    if (any_taken) continue;
    // A new file's licence text, whatever its language.
    if (std::vector<std::size_t> licence = diff::licence_header_lines(lines, p, hunk);
        !licence.empty()) {
      plan.notes.emplace_back(diff::kLicenceNote);
      for (std::size_t i : licence) {
        taken[i] = true;
        plan.keep[i] = false;
        plan.note[i] = plan.notes.size() - 1;
      }
    }
    if (other_marker) continue;
    std::optional<std::vector<std::size_t>> body = diff::function_body_lines(lines, p, hunk);
    // No function bodies (declarations only, or no clean parse): the outline rule below.
    if ((!body || body->empty()) && !body_marker) continue;
    code_hunk[h] = true;
    if (!body) continue;
    if (body_note == 0) {
      plan.notes.emplace_back(diff::kBodyNote);
      body_note = plan.notes.size() - 1;
    }
    for (std::size_t i : *body) {
      taken[i] = true;
      plan.keep[i] = false;
      plan.note[i] = body_note;
    }
  }

  // Long same-sign change runs (markers of the same sign continue a run).
  for (std::size_t i = 0; i < n;) {
    bool added = diff::is_added(p.kinds[i]);
    if (!added && !diff::is_removed(p.kinds[i])) {
      ++i;
      continue;
    }
    if (p.hunk_of[i] >= 0 && code_hunk[static_cast<std::size_t>(p.hunk_of[i])]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && (added ? diff::is_added(p.kinds[j]) : diff::is_removed(p.kinds[j]))) ++j;
    outline_run(lines, p, taken, i, j, plan);
    i = j;
  }

  // Context far from every change.
  std::vector<bool> near(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (!diff::is_change(p.kinds[i])) continue;
    std::size_t lo = i >= kContext ? i - kContext : 0;
    std::size_t hi = std::min(n - 1, i + kContext);
    for (std::size_t j = lo; j <= hi; ++j) near[j] = true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (p.kinds[i] == Kind::kContext && !near[i]) plan.keep[i] = false;
  }
  return plan;
}

// Output lines with the original line each one is (kNone: a marker).
constexpr std::size_t kNone = static_cast<std::size_t>(-1);
struct Kept {
  std::vector<std::string> lines;
  std::vector<std::size_t> source;
};

// The number n when out.lines[k] starts n removed lines that the next n added lines
// replaced (n ≤ kLongRun): the run is the whole change there (no other change line or
// marker next to it) and every line of it is shown, so a second pass sees the same run.
// 0 otherwise.
std::size_t replaced_run(const Kept& out, const diff::Parsed& p, std::size_t k) {
  const std::size_t r = out.source[k];
  if (r == kNone || p.kinds[r] != Kind::kRemoved || (r > 0 && diff::is_change(p.kinds[r - 1]))) {
    return 0;
  }
  std::size_t n = 0;
  while (r + n < p.kinds.size() && p.kinds[r + n] == Kind::kRemoved) ++n;
  const std::size_t end = r + 2 * n;
  if (n > static_cast<std::size_t>(kLongRun) || end > p.kinds.size() ||
      k + 2 * n > out.lines.size() || (end < p.kinds.size() && diff::is_change(p.kinds[end]))) {
    return 0;
  }
  for (std::size_t t = 0; t < 2 * n; ++t) {
    if (out.source[k + t] != r + t || p.kinds[r + t] != (t < n ? Kind::kRemoved : Kind::kAdded))
      return 0;
  }
  return n;
}

// Such a run written as n word-diff lines, the i-th removed line with the i-th added one,
// when every pair is alike and its word-diff line saves over a quarter of the pair's tokens
// (docs/formats.md): a short line with a small edit (a version number) stays as two lines
// that can be searched for, and so does its run. Returns whether any run was written.
bool write_word_diffs(Kept& out, const diff::Parsed& p, const tokens::Counter& counter,
                      const std::vector<bool>& needles) {
  bool any = false;
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < out.lines.size();) {
    const std::size_t n = replaced_run(out, p, k);
    if (n == 0) {
      lines.push_back(std::move(out.lines[k++]));
      continue;
    }
    std::vector<std::string> merged;
    for (std::size_t t = 0; t < n; ++t) {
      // A line an answer may depend on stays searchable as written (needle-safe).
      if (needles[out.source[k + t]] || needles[out.source[k + n + t]]) break;
      std::optional<std::string> w = diff::word_diff_line(out.lines[k + t], out.lines[k + n + t]);
      const std::size_t pair =
          counter.count(out.lines[k + t]) + counter.count(out.lines[k + n + t]);
      if (!w || static_cast<double>(counter.count(*w)) >= kWordDiffCost * static_cast<double>(pair))
        break;
      merged.push_back(std::move(*w));
    }
    if (merged.size() == n) {
      for (std::string& w : merged) lines.push_back(std::move(w));
      any = true;
    } else {
      for (std::size_t t = 0; t < 2 * n; ++t) lines.push_back(std::move(out.lines[k + t]));
    }
    k += 2 * n;
  }
  out.lines = std::move(lines);
  return any;
}

// The query is ignored; `counter` prices word-diff lines (write_word_diffs).
std::optional<CompressorOutput> compress_diff(std::string_view input,
                                              const tokens::Counter& counter) {
  if (!text::is_valid_utf8(input) || input.find(kElidedNeedle) != std::string_view::npos) {
    return std::nullopt;
  }
  text::Lines split = text::split_lines(input);
  const std::vector<std::string_view>& lines = split.lines;
  if (lines.size() < kMinLines) return std::nullopt;
  diff::Parsed parsed = diff::parse(lines);
  Plan plan = plan_diff(lines, parsed);
  const std::size_t n = lines.size();
  // Needle-safe (selector.h): a line an answer may depend on (a rare line, a failure signal)
  // is never hidden, and a body elided whole keeps its lines when one of them is such a line.
  const std::vector<bool> needles = needle_lines(lines);
  for (std::size_t b = 0; b < n;) {
    if (!plan.in_body[b]) {
      ++b;
      continue;
    }
    std::size_t e = b;
    bool needle = false;
    for (; e < n && plan.in_body[e] && (e == b || plan.body[e].empty()); ++e) {
      if (needles[e]) needle = true;
    }
    if (needle) {
      for (std::size_t i = b; i < e; ++i) {
        plan.in_body[i] = false;
        plan.body[i].clear();
        plan.keep[i] = true;
      }
    }
    b = e;
  }
  for (std::size_t i = 0; i < n; ++i) plan.keep[i] = plan.keep[i] || needles[i];

  Kept kept;
  std::vector<std::string>& out = kept.lines;
  out.reserve(n);
  bool dropped_any = false;
  for (std::size_t i = 0; i < n;) {
    if (plan.in_body[i]) {
      if (!plan.body[i].empty()) {
        out.push_back(text::marker_line(plan.body[i], split.crlf_majority));
        kept.source.push_back(kNone);
        dropped_any = true;
      }
      ++i;
      continue;
    }
    if (plan.keep[i]) {
      out.emplace_back(lines[i]);
      kept.source.push_back(i);
      ++i;
      continue;
    }
    // A run of one kind (context, added or removed) and one note.
    Kind k = parsed.kinds[i];
    std::size_t note = plan.note[i];
    std::size_t j = i;
    std::size_t run_bytes = 0;
    while (j < n && !plan.keep[j] && !plan.in_body[j] && parsed.kinds[j] == k &&
           plan.note[j] == note) {
      run_bytes += lines[j++].size() + 1;
    }
    std::string marker =
        text::marker_line(diff::run_marker(k, static_cast<std::int64_t>(j - i), plan.notes[note]),
                          split.crlf_majority);
    // Worth eliding (as docs/spec/markers.md#worth-eliding has it for short runs): the marker is
    // at most half the run.
    if (2 * (marker.size() + 1) <= run_bytes) {
      out.push_back(std::move(marker));
      kept.source.push_back(kNone);
      dropped_any = true;
    } else {
      for (std::size_t x = i; x < j; ++x) {
        out.emplace_back(lines[x]);
        kept.source.push_back(x);
      }
    }
    i = j;
  }
  const bool paired_any = write_word_diffs(kept, parsed, counter, needles);
  if (!dropped_any && !paired_any) return std::nullopt;
  std::string result = text::join_lines(out, split.trailing_newline);
  if (result.size() >= input.size()) return std::nullopt;
  return CompressorOutput{std::move(result), "diff", std::nullopt, {}};
}

}  // namespace

std::unique_ptr<Compressor> make_diff_compressor(const tokens::Counter& counter) {
  return make_compressor("diff", [&counter](std::string_view input, std::string_view /*query*/) {
    return compress_diff(input, counter);
  });
}

}  // namespace caveman::compress
