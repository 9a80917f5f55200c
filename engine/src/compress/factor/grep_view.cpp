#include "compress/factor/grep_view.h"

#include <vector>

#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"
#include "compress/factor/grep_syntax.h"
#include "text/lines.h"

namespace caveman::compress::factor {
namespace {

constexpr std::size_t kMinRunLines = 4;  // fewer lines hardly pay for a header

// One line of a run. `path_end` 0: the line is written as it is ("--", a verbatim hit).
struct GrepLine {
  std::string_view line;
  std::size_t path_end = 0;
  std::string_view path() const { return line.substr(0, path_end); }
};

// The line as a run holds it, or nullopt when it ends the run. `hint`: the last hit's path.
std::optional<GrepLine> read_line(std::string_view line,
                                  const std::function<bool(std::string_view)>& verbatim,
                                  std::string_view& hint) {
  std::optional<std::size_t> end = grep_path_end(line, hint);
  bool whole = !end || (verbatim && verbatim(line));
  // "--" between grep -C groups, a marker, a verbatim hit: written whole when the decoder
  // reads them back as they are; anything else ends the run.
  if (whole) {
    if (classify_grep_row(line) != GrepRow::kAsWritten) return std::nullopt;
    return GrepLine{line, 0};
  }
  hint = line.substr(0, *end);
  return GrepLine{line, *end};
}

// The hits' longest common path prefix, cut just after its last '/'.
std::string root_of(const std::vector<GrepLine>& run) {
  std::optional<std::string_view> root;
  for (const GrepLine& g : run) {
    if (g.path_end == 0) continue;
    std::string_view p = g.path();
    if (!root) {
      root = p;
      continue;
    }
    std::size_t n = 0;
    while (n < root->size() && n < p.size() && (*root)[n] == p[n]) ++n;
    root = root->substr(0, n);
  }
  std::size_t slash = root ? root->rfind('/') : std::string_view::npos;
  return slash == std::string_view::npos ? std::string() : std::string(root->substr(0, slash + 1));
}

// The block's body lines; nullopt when a line cannot be written so that it reads back.
std::optional<std::vector<std::string>> write_body(const std::vector<GrepLine>& run,
                                                   std::string_view root, bool* as_written) {
  std::vector<std::string> body;
  std::string_view current;
  bool have_path = false;
  for (const GrepLine& g : run) {
    std::string_view path = g.path();
    if (g.path_end > 0 && (!have_path || path != current)) {
      std::string_view rel = path.substr(root.size());
      if (!rel.empty() && classify_grep_row(rel) == GrepRow::kPath) {
        body.emplace_back(rel);
        current = path;
        have_path = true;
      }
    }
    if (g.path_end > 0 && have_path && path == current) {
      body.emplace_back(g.line.substr(g.path_end + 1));
    } else if (classify_grep_row(g.line) == GrepRow::kAsWritten) {
      body.emplace_back(g.line);
      *as_written = true;
    } else {
      return std::nullopt;
    }
  }
  return body;
}

// The block for `run`, or nullopt when it would not be shorter than the run.
std::optional<std::vector<std::string>> write_block(const std::vector<GrepLine>& run) {
  std::size_t hits = 0, original = 0;
  for (const GrepLine& g : run) {
    hits += g.path_end > 0 ? 1 : 0;
    original += g.line.size() + 1;
  }
  if (run.size() < kMinRunLines || hits < 2) return std::nullopt;
  // A root that cannot be quoted in the header: every path is written in full.
  for (std::string root : {root_of(run), std::string()}) {
    GrepHeader h{run.size(), std::move(root), false};
    std::optional<std::vector<std::string>> body = write_body(run, h.root, &h.as_written);
    std::optional<std::string> header = body ? write_grep_header(h) : std::nullopt;
    if (!header) continue;
    std::size_t written = header->size() + 1;
    for (const std::string& l : *body) written += l.size() + 1;
    if (written >= original) return std::nullopt;
    body->insert(body->begin(), std::move(*header));
    return body;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> grep_view(std::string_view text,
                                     const std::function<bool(std::string_view)>& verbatim) {
  if (text.size() > kMaxViewInputBytes || contains_block(text)) return std::nullopt;
  std::vector<std::string> out;
  std::vector<GrepLine> run;
  bool any = false;
  auto flush = [&] {
    std::optional<std::vector<std::string>> block = write_block(run);
    any = any || block.has_value();
    if (block) {
      for (std::string& l : *block) out.push_back(std::move(l));
    } else {
      for (const GrepLine& g : run) out.emplace_back(g.line);
    }
    run.clear();
  };
  std::string_view hint;
  for (std::string_view line : text::split_all(text)) {
    if (std::optional<GrepLine> g = read_line(line, verbatim, hint)) {
      run.push_back(*g);
      continue;
    }
    flush();
    out.emplace_back(line);
    hint = {};
  }
  flush();
  if (!any) return std::nullopt;
  return checked_view(text::join_lines(out, false), text);
}

}  // namespace caveman::compress::factor
