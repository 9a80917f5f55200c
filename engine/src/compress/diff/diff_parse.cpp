#include "compress/diff/diff_parse.h"

#include "compress/diff/diff_words.h"

namespace caveman::compress::diff {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …
constexpr std::string_view kElided = " lines elided (caveman)";

std::string_view noun(Kind k) {
  switch (k) {
    case Kind::kAdded: return "added";
    case Kind::kRemoved: return "removed";
    default: return "context";
  }
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

// "@@ -a[,b] +c[,d] @@…" → counts (default 1) and the new start. Combined diffs ("@@@")
// and anything else → false.
bool parse_hunk_header(std::string_view s, std::int64_t* old_count, std::int64_t* new_start,
                       std::int64_t* new_count) {
  if (s.substr(0, 4) != "@@ -") return false;
  std::size_t i = 4;
  std::int64_t old_start = 0;
  if (!parse_count(s, &i, &old_start)) return false;
  *old_count = 1;
  if (i < s.size() && s[i] == ',') {
    ++i;
    if (!parse_count(s, &i, old_count)) return false;
  }
  if (s.substr(i, 2) != " +") return false;
  i += 2;
  if (!parse_count(s, &i, new_start)) return false;
  *new_count = 1;
  if (i < s.size() && s[i] == ',') {
    ++i;
    if (!parse_count(s, &i, new_count)) return false;
  }
  return s.substr(i, 3) == " @@";
}

// One of our markers: its kind (a *Marker kind) and the count it stands for.
bool parse_marker(std::string_view s, Kind* kind, std::int64_t* count, std::string_view* note) {
  if (!s.starts_with(kEllipsis) || !s.ends_with(kEllipsis) || s.size() < 2 * kEllipsis.size() + 2) {
    return false;
  }
  s.remove_prefix(kEllipsis.size());
  if (s.empty() || s[0] != ' ') return false;
  std::size_t i = 1;
  std::int64_t n = 0;
  if (!parse_count(s, &i, &n) || i >= s.size() || s[i] != ' ') return false;
  std::string_view rest = s.substr(i);  // " <noun> lines elided (caveman)…" or " lines elided…"
  std::string_view tail = rest;
  Kind k = Kind::kBodyMarker;
  for (Kind run : {Kind::kContext, Kind::kAdded, Kind::kRemoved}) {
    std::string prefix = " " + std::string(noun(run));
    if (rest.starts_with(prefix) && rest.substr(prefix.size()).starts_with(kElided)) {
      k = run == Kind::kContext ? Kind::kContextMarker
          : run == Kind::kAdded ? Kind::kAddedMarker
                                : Kind::kRemovedMarker;
      tail = rest.substr(prefix.size());
      break;
    }
  }
  if (!tail.starts_with(kElided)) return false;
  tail.remove_prefix(kElided.size());
  bool plain = tail == " " + std::string(kEllipsis);
  bool noted = tail.starts_with(": ") && tail.size() > 2 + 1 + kEllipsis.size() &&
               tail.substr(tail.size() - kEllipsis.size() - 1, 1) == " ";
  if (k == Kind::kBodyMarker ? !noted : !(plain || noted)) return false;
  *note = noted ? tail.substr(2, tail.size() - 3 - kEllipsis.size()) : std::string_view();
  *kind = k;
  *count = n;
  return true;
}

// "b/src/x.c	2024-…" → "src/x.c"; "/dev/null" → "".
std::string header_path(std::string_view rest) {
  rest = rest.substr(0, rest.find('\t'));
  if (rest == "/dev/null") return "";
  if (rest.starts_with("a/") || rest.starts_with("b/")) rest.remove_prefix(2);
  return std::string(rest);
}

}  // namespace

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view body_of(std::string_view line) { return strip_cr(line).substr(1); }

std::string squash_spaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ' && c != '\t') out.push_back(c);
  }
  return out;
}

bool is_added(Kind k) { return k == Kind::kAdded || k == Kind::kAddedMarker; }
bool is_removed(Kind k) { return k == Kind::kRemoved || k == Kind::kRemovedMarker; }
bool is_change(Kind k) { return is_added(k) || is_removed(k) || k == Kind::kWordDiff; }

std::string run_marker(Kind k, std::int64_t n, std::string_view note) {
  std::string out(kEllipsis);
  out += " " + std::to_string(n) + " ";
  out += noun(k);
  out += kElided;
  if (!note.empty()) {
    out += ": ";
    out += note;
  }
  out += " ";
  out += kEllipsis;
  return out;
}

std::string body_marker(std::int64_t n, std::string_view note) {
  std::string out(kEllipsis);
  out += " " + std::to_string(n);
  out += kElided;
  out += ": ";
  out += note;
  out += " ";
  out += kEllipsis;
  return out;
}

Parsed parse(const std::vector<std::string_view>& lines) {
  Parsed p;
  const std::size_t n = lines.size();
  p.kinds.assign(n, Kind::kMeta);
  p.counts.assign(n, 0);
  p.notes.assign(n, std::string_view());
  p.new_line.assign(n, 0);
  p.hunk_of.assign(n, -1);
  std::int64_t old_left = 0, new_left = 0, new_pos = 0;
  std::string old_file, new_file, git_file;
  bool deleted = false;
  std::size_t scope = 0;
  auto close_hunk = [&](std::size_t end) {
    if (!p.hunks.empty() && p.hunks.back().end == 0) p.hunks.back().end = end;
  };
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view s = strip_cr(lines[i]);
    if (old_left > 0 || new_left > 0) {
      Kind mk;
      std::int64_t count = 0;
      char c = s.empty() ? ' ' : s[0];  // an empty line is context whose space was stripped
      bool handled = true;
      if (parse_marker(s, &mk, &count, &p.notes[i])) {
        p.kinds[i] = mk;
        p.counts[i] = count;
        if (mk == Kind::kBodyMarker) {
          old_left = new_left = 0;
        } else {
          if (mk != Kind::kAddedMarker) old_left -= count;
          if (mk != Kind::kRemovedMarker) {
            new_left -= count;
            new_pos += count;
          }
        }
      } else if (c == ' ' && old_left > 0 && new_left > 0) {
        p.kinds[i] = Kind::kContext;
        --old_left;
        --new_left;
        ++new_pos;
      } else if (c == '~' && old_left > 0 && new_left > 0 && split_word_diff(s)) {
        p.kinds[i] = Kind::kWordDiff;
        --old_left;
        --new_left;
        ++new_pos;
      } else if (c == '-' && old_left > 0) {
        p.kinds[i] = Kind::kRemoved;
        --old_left;
      } else if (c == '+' && new_left > 0) {
        p.kinds[i] = Kind::kAdded;
        p.new_line[i] = new_pos++;
        --new_left;
      } else if (c == '\\') {
        p.kinds[i] = Kind::kMeta;  // "\ No newline at end of file"
      } else {
        handled = false;  // malformed hunk: it ends here
        old_left = new_left = 0;
      }
      if (handled) {
        p.hunk_of[i] = static_cast<int>(p.hunks.size()) - 1;
        if (old_left <= 0 && new_left <= 0) close_hunk(i + 1);
        continue;
      }
      close_hunk(i);
    }
    std::int64_t o = 0, nc = 0;
    if (parse_hunk_header(s, &o, &new_pos, &nc)) {
      p.kinds[i] = Kind::kHunkHeader;
      old_left = o;
      new_left = nc;
      std::string file = !new_file.empty() ? new_file : !old_file.empty() ? old_file : git_file;
      p.hunk_of[i] = static_cast<int>(p.hunks.size());
      p.hunks.push_back(Hunk{i, 0, std::move(file), scope, deleted});
      if (o <= 0 && nc <= 0) close_hunk(i + 1);
    } else if (s.starts_with("--- ")) {
      old_file = header_path(s.substr(4));
    } else if (s.starts_with("+++ ")) {
      new_file = header_path(s.substr(4));
      if (s.substr(4).starts_with("/dev/null")) deleted = true;
    } else if (s.starts_with("deleted file mode")) {
      deleted = true;
    } else if (s.starts_with("diff ")) {
      old_file.clear();
      new_file.clear();
      git_file.clear();
      deleted = false;
      if (std::size_t b = s.rfind(" b/"); s.starts_with("diff --git a/") && b != std::string_view::npos) {
        git_file = std::string(s.substr(b + 3));
      }
    } else if (s.starts_with("commit ")) {
      ++scope;
    }
  }
  close_hunk(n);
  return p;
}

}  // namespace caveman::compress::diff
