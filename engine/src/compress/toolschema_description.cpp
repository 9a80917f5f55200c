#include "compress/toolschema_description.h"

#include <algorithm>
#include <array>

#include "caveman/base/text.h"
#include "text/unicode.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::compress::toolschema {
namespace {

constexpr std::size_t kKeepWhole = 160;
constexpr std::size_t kFirstSentenceCap = 80;
constexpr std::size_t kBackOffFrom = 40;
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

constexpr std::array<std::string_view, 28> kAbbreviations = {
    "e.g", "i.e",  "eg",  "ie",   "etc", "vs", "cf",  "al",  "viz",  "resp",
    "approx", "no", "fig", "figs", "dr", "mr", "mrs", "ms",  "prof", "sr",
    "jr",  "st",   "inc", "ltd",  "corp", "co", "dept", "est"};

// Whole words / phrases (ASCII \b on both sides), lowercase.
const std::initializer_list<std::string_view> kConstraintWords = {
    "must", "must not", "cannot", "can't", "can\xE2\x80\x99t", "shall", "forbidden",
    "invalid", "not allowed", "not permitted", "exactly one", "only one of", "one of",
    "at least", "at most", "mutually exclusive", "only", "unique", "case sensitive",
    "case-sensitive", "casesensitive", "max", "min", "maximum", "minimum", "range",
    "between", "greater than", "less than", "more than", "fewer than", "no more than",
    "no less than", "over", "above", "below", "under", "beyond", "absolute"};
// Word prefixes: "required", "rejects", "disallowed", "exceeding", "formatted"…
constexpr std::array<std::string_view, 5> kConstraintPrefixes = {"require", "reject", "disallow",
                                                                 "exceed", "format"};

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool starts_word_ci(std::string_view s, std::size_t i, std::string_view word) {
  if (i + word.size() > s.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k) {
    if (base::ascii_lower_char(s[i + k]) != word[k]) return false;
  }
  return true;
}

// "iso8601", "ISO-8601", "ISO 8601", "rfc3339", "RFC 3339" as whole words.
bool has_standard_ref(std::string_view s) {
  for (std::size_t i = 0; i + 3 < s.size(); ++i) {
    if (i > 0 && text::is_word_byte(s[i - 1])) continue;
    if (!starts_word_ci(s, i, "iso") && !starts_word_ci(s, i, "rfc")) continue;
    std::size_t j = i + 3;
    if (j < s.size() && (s[j] == '-' || s[j] == ' ')) ++j;
    std::size_t d = j;
    while (d < s.size() && s[d] >= '0' && s[d] <= '9') ++d;
    if (d > j && (d == s.size() || !text::is_word_byte(s[d]))) return true;
  }
  return false;
}

// The letters and dots right before the dot at `dot` end an abbreviation.
bool is_abbreviation(std::string_view s, std::size_t dot) {
  std::size_t b = dot;
  while (b > 0 && (is_ascii_letter(s[b - 1]) || s[b - 1] == '.')) --b;
  std::string_view word = s.substr(b, dot - b);
  if (word.empty()) return false;
  if (word.size() == 1) return is_ascii_letter(word[0]);
  if (word.find('.') != std::string_view::npos) return true;
  std::string low = text::ascii_lower(word);
  return std::find(kAbbreviations.begin(), kAbbreviations.end(), low) != kAbbreviations.end();
}

// After a terminator ending at `end`: whitespace, then an uppercase letter?
bool boundary_follows(std::string_view s, std::size_t end) {
  std::size_t i = end;
  bool saw_space = false;
  while (i < s.size()) {
    text::Decoded d = text::decode_utf8(s, i);
    if (!text::is_white_space(d.cp)) break;
    saw_space = true;
    i += d.len;
  }
  if (!saw_space || i >= s.size()) return false;
  return text::is_upper(text::decode_utf8(s, i).cp);
}

// Cuts a sentence to ≤ 80 bytes on a UTF-8 boundary, backing off to the last space after
// byte 40, and marks the cut with '…' (counted in the 80, so a cut sentence is not cut again).
std::string cut_sentence(std::string_view s) {
  if (s.size() <= kFirstSentenceCap) return std::string(s);
  std::size_t cut = text::utf8_safe_cut(s, kFirstSentenceCap - kEllipsis.size());
  std::size_t space = s.substr(0, cut).rfind(' ');
  if (space != std::string_view::npos && space > kBackOffFrom) cut = space;
  std::string_view head = s.substr(0, cut);
  while (!head.empty() && (head.back() == ' ' || head.back() == '\t')) head.remove_suffix(1);
  return std::string(head) + std::string(kEllipsis);
}

}  // namespace

std::vector<std::string_view> split_sentences(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::size_t end = 0;
    if (text[i] == '.' && !is_abbreviation(text, i)) {
      end = i + 1;
    } else if (text.substr(i, kEllipsis.size()) == kEllipsis) {
      end = i + kEllipsis.size();
    } else {
      continue;
    }
    if (!boundary_follows(text, end)) continue;
    std::string_view sentence = text::trim_space(text.substr(start, end - start));
    if (!sentence.empty()) out.push_back(sentence);
    start = end;
    i = end - 1;
  }
  std::string_view last = text::trim_space(text.substr(start));
  if (!last.empty()) out.push_back(last);
  return out;
}

bool has_constraint(std::string_view sentence) {
  if (text::contains_word_ci(sentence, kConstraintWords)) return true;
  for (std::size_t i = 0; i < sentence.size(); ++i) {
    if (i > 0 && text::is_word_byte(sentence[i - 1])) continue;
    for (std::string_view p : kConstraintPrefixes) {
      if (starts_word_ci(sentence, i, p)) return true;
    }
  }
  return has_standard_ref(sentence);
}

std::string shorten_description(std::string_view text) {
  std::string_view trimmed = text::trim_space(text);
  if (trimmed.size() <= kKeepWhole) return std::string(trimmed);
  std::string out;
  bool first_other_done = false;
  for (std::string_view sentence : split_sentences(trimmed)) {
    std::string piece;
    if (has_constraint(sentence)) {
      piece = std::string(sentence);
    } else if (!first_other_done) {
      first_other_done = true;
      piece = cut_sentence(sentence);
      // A mid-word cut can create a marker ("max…" from "maximal"); such a piece would
      // read as a constraint on the next pass, so leave it out (keeps this idempotent).
      if (piece.size() < sentence.size() && has_constraint(piece)) piece.clear();
    }
    if (piece.empty()) continue;
    if (!out.empty()) out.push_back(' ');
    out += piece;
  }
  return out;
}

}  // namespace caveman::compress::toolschema
