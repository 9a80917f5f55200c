#include "compress/diff/diff_facts.h"

#include <cstdint>
#include <map>
#include <utility>

namespace caveman::compress::diff {
namespace {

// Leading decimal number of `s` (consumed), or -1.
std::int64_t take_number(std::string_view* s) {
  std::size_t i = 0;
  std::int64_t v = 0;
  while (i < s->size() && i < 12 && (*s)[i] >= '0' && (*s)[i] <= '9') v = v * 10 + ((*s)[i++] - '0');
  if (i == 0) return -1;
  s->remove_prefix(i);
  return v;
}

}  // namespace

NoteChecker::NoteChecker(std::vector<std::string_view> lines)
    : lines_(std::move(lines)), parsed_(parse(lines_)) {}

std::string NoteChecker::check(std::size_t begin, std::size_t end, Kind kind,
                               std::string_view note) const {
  const std::int64_t count = static_cast<std::int64_t>(end - begin);
  auto file_of = [&](std::size_t i) -> const std::string& {
    return parsed_.hunks[static_cast<std::size_t>(parsed_.hunk_of[i])].file;
  };
  if (kind == Kind::kBodyMarker) {
    if (note.starts_with("same change as ")) return "";  // checked by the line prefixes
    constexpr std::string_view kGenerated = "generated file, ";
    if (!note.starts_with(kGenerated)) return "unknown hunk-body note";
    std::string_view s = note.substr(kGenerated.size());
    std::int64_t added = take_number(&s);
    if (!s.starts_with(" added, ")) return "malformed generated-file note";
    s.remove_prefix(8);
    std::int64_t removed = take_number(&s);
    if (s != " removed") return "malformed generated-file note";
    std::int64_t a = 0, r = 0;
    for (std::size_t i = begin; i < end; ++i) {
      a += parsed_.kinds[i] == Kind::kAdded ? 1 : 0;
      r += parsed_.kinds[i] == Kind::kRemoved ? 1 : 0;
    }
    if (a != added || r != removed) return "added/removed counts differ from the elided lines";
    return "";
  }
  if (note.empty()) return "";
  // Which lines form a function body is the parser's reading; the lines are added ones.
  if (kind == Kind::kAddedMarker && note == "function body") return "";
  if (kind == Kind::kAddedMarker && note == "licence header") {
    for (std::size_t i = begin; i < end; ++i) {
      std::string_view t = body_of(lines_[i]);
      std::size_t first = t.find_first_not_of(" \t");
      if (first != std::string_view::npos && std::string_view("/*#;-<\"r").find(t[first]) == std::string_view::npos) {
        return "licence-header line " + std::to_string(i + 1) + " is not a comment";
      }
    }
    return "";
  }
  if (kind != Kind::kRemovedMarker) return "only removed-lines markers carry a note";
  constexpr std::string_view kIdentical = "identical to added ";
  constexpr std::string_view kNext = "the next ";
  if (note.starts_with(kIdentical)) {
    // "<file>:L-M" or "lines L-M": the elided lines equal the new file's lines L..M.
    std::string_view s = note.substr(kIdentical.size());
    std::string file;
    if (s.starts_with("lines ")) {
      s.remove_prefix(6);
    } else {
      std::size_t colon = s.rfind(':');
      if (colon == std::string_view::npos) return "malformed moved note";
      file = std::string(s.substr(0, colon));
      s.remove_prefix(colon + 1);
    }
    std::int64_t from = take_number(&s);
    if (!s.starts_with("-")) return "malformed moved note";
    s.remove_prefix(1);
    std::int64_t to = take_number(&s);
    if (!s.empty() || from < 0 || to - from + 1 != count) return "moved range and count differ";
    std::map<std::int64_t, std::size_t> at;  // new line → index, in that file
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      if (parsed_.kinds[i] == Kind::kAdded && file_of(i) == file) at.emplace(parsed_.new_line[i], i);
    }
    for (std::int64_t k = 0; k < count; ++k) {
      auto it = at.find(from + k);
      std::size_t i = begin + static_cast<std::size_t>(k);
      if (it == at.end() || parsed_.kinds[i] != Kind::kRemoved ||
          body_of(lines_[it->second]) != body_of(lines_[i])) {
        return "removed line " + std::to_string(i + 1) + " is not the added line " +
               std::to_string(from + k);
      }
    }
    return "";
  }
  if (note.starts_with(kNext)) {
    std::string_view s = note.substr(kNext.size());
    std::int64_t n = take_number(&s);
    if (s != " added lines differ only in whitespace" || n != count) return "malformed whitespace note";
    for (std::size_t k = 0; k < end - begin; ++k) {
      std::size_t a = end + k;
      if (a >= lines_.size() || parsed_.kinds[a] != Kind::kAdded ||
          squash_spaces(body_of(lines_[a])) != squash_spaces(body_of(lines_[begin + k]))) {
        return "line " + std::to_string(begin + k + 1) + " differs from its re-added line beyond whitespace";
      }
    }
    return "";
  }
  // "<k> identical to added lines in <file>" (a deleted file's body).
  std::string_view s = note;
  std::int64_t k = take_number(&s);
  constexpr std::string_view kIn = " identical to added lines in ";
  if (k < 0 || !s.starts_with(kIn)) return "unknown removed-lines note";
  std::string file(s.substr(kIn.size()));
  std::map<std::string_view, std::int64_t> bodies;
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    if (parsed_.kinds[i] == Kind::kAdded && file_of(i) == file) ++bodies[body_of(lines_[i])];
  }
  std::int64_t found = 0;
  for (std::size_t i = begin; i < end; ++i) {
    auto it = bodies.find(body_of(lines_[i]));
    if (parsed_.kinds[i] == Kind::kRemoved && it != bodies.end() && it->second > 0) {
      --it->second;
      ++found;
    }
  }
  if (found < k) return "only " + std::to_string(found) + " of the elided lines are added in " + file;
  return "";
}

}  // namespace caveman::compress::diff
