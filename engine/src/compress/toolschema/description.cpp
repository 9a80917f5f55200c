#include "compress/toolschema/description.h"

#include <algorithm>
#include <array>
#include <set>

#include "caveman/base/text.h"

namespace caveman::toolschema {
namespace {

using base::is_ascii_digit;

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_letter(char c) { return is_upper(c) || is_lower(c); }
bool is_word(char c) { return is_letter(c) || is_ascii_digit(c) || c == '_'; }

// Trims and collapses every run of ASCII white space (newlines included) to one space.
std::string normalize_space(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  for (char c : text) {
    if (is_space(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

bool word_boundary_before(std::string_view s, std::size_t i) { return i == 0 || !is_word(s[i - 1]); }
bool word_boundary_after(std::string_view s, std::size_t end) {
  return end >= s.size() || !is_word(s[end]);
}

// `phrase` (lowercase) occurs in `low` (lowercased text) as whole words.
bool has_phrase(std::string_view low, std::string_view phrase) {
  for (std::size_t at = low.find(phrase); at != std::string_view::npos;
       at = low.find(phrase, at + 1)) {
    if (word_boundary_before(low, at) && word_boundary_after(low, at + phrase.size())) return true;
  }
  return false;
}

// A word of `low` starting with `prefix` ("required", "rejects", "exceeding").
bool has_word_prefix(std::string_view low, std::string_view prefix) {
  for (std::size_t at = low.find(prefix); at != std::string_view::npos;
       at = low.find(prefix, at + 1)) {
    if (word_boundary_before(low, at)) return true;
  }
  return false;
}

// Phrases that state a rule on their own (lowercase, matched as whole words).
constexpr std::array<std::string_view, 47> kConstraintPhrases = {
    "must",          "must not",       "cannot",          "can't",
    "can\xE2\x80\x99t", "can not",     "shall",           "forbidden",
    "invalid",       "not allowed",    "not permitted",   "not supported",
    "unsupported",   "exactly one",    "only one",        "one of",
    "at least",      "at most",        "mutually exclusive", "case sensitive",
    "case-sensitive", "case insensitive", "case-insensitive", "max",
    "min",           "maximum",        "minimum",         "range",
    "between",       "greater than",   "less than",       "more than",
    "fewer than",    "no more than",   "no less than",    "never",
    "do not",        "don't",          "not both",        "either",
    "incompatible",  "ignored",        "deprecated",      "formatted as",
    "in the format", "non-empty",      "nonempty"};
// Word prefixes: "required", "requires", "rejected", "disallows", "exceeding"…
constexpr std::array<std::string_view, 4> kConstraintPrefixes = {"require", "reject", "disallow",
                                                                 "exceed"};
// "only" states a rule at the start of a sentence or before one of these words.
constexpr std::array<std::string_view, 14> kOnlyFollowers = {
    "if",    "when",     "one",       "use",     "applies", "apply",   "for",
    "with",  "valid",    "accepts",   "accepted", "supported", "allowed", "works"};
// Comparison words that state a bound when a number follows ("over 3", "up to 100").
constexpr std::array<std::string_view, 7> kComparators = {"over",   "above",  "below", "under",
                                                          "beyond", "up to", "within"};

// "iso8601", "ISO-8601", "RFC 3339" as whole words.
bool has_standard_ref(std::string_view low) {
  for (std::string_view name : {std::string_view("iso"), std::string_view("rfc")}) {
    for (std::size_t at = low.find(name); at != std::string_view::npos;
         at = low.find(name, at + 1)) {
      if (!word_boundary_before(low, at)) continue;
      std::size_t j = at + name.size();
      if (j < low.size() && (low[j] == '-' || low[j] == ' ')) ++j;
      std::size_t d = j;
      while (d < low.size() && is_ascii_digit(low[d])) ++d;
      if (d > j && word_boundary_after(low, d)) return true;
    }
  }
  return false;
}

bool has_only_rule(std::string_view low) {
  std::size_t start = 0;
  while (start < low.size() && !is_letter(low[start])) ++start;
  if (low.substr(start, 5) == "only " || low.substr(start) == "only") return true;
  for (std::size_t at = low.find("only "); at != std::string_view::npos;
       at = low.find("only ", at + 1)) {
    if (!word_boundary_before(low, at)) continue;
    std::string_view rest = low.substr(at + 5);
    for (std::string_view f : kOnlyFollowers) {
      if (rest.substr(0, f.size()) == f && word_boundary_after(rest, f.size())) return true;
    }
  }
  return false;
}

// A comparator followed by a number: "over 3", "up to -1", "within 30".
bool has_bound(std::string_view low) {
  for (std::string_view word : kComparators) {
    for (std::size_t at = low.find(word); at != std::string_view::npos;
         at = low.find(word, at + 1)) {
      if (!word_boundary_before(low, at)) continue;
      std::size_t j = at + word.size();
      if (j >= low.size() || low[j] != ' ') continue;
      ++j;
      if (j < low.size() && (low[j] == '-' || low[j] == '+' || low[j] == '$')) ++j;
      if (j < low.size() && is_ascii_digit(low[j])) return true;
    }
  }
  return false;
}

// A numeric range: "0-100", "1 to 10", "1..5".
bool has_numeric_range(std::string_view low) {
  for (std::size_t i = 0; i < low.size(); ++i) {
    if (!is_ascii_digit(low[i]) || (i > 0 && is_word(low[i - 1]))) continue;
    std::size_t j = i;
    while (j < low.size() && (is_ascii_digit(low[j]) || low[j] == '.')) ++j;
    std::size_t k = j;
    if (k < low.size() && low[k] == ' ') ++k;
    std::size_t sep = 0;
    if (low.substr(k, 2) == ".." || low.substr(k, 3) == "to ") {
      sep = 2;
    } else if (k < low.size() && low[k] == '-') {
      sep = 1;
    } else if (low.substr(k, 3) == "\xE2\x80\x93") {  // en dash
      sep = 3;
    }
    if (sep == 0) {
      i = j;
      continue;
    }
    k += sep;
    if (k < low.size() && low[k] == ' ') ++k;
    if (k < low.size() && low[k] == '-') ++k;
    if (k < low.size() && is_ascii_digit(low[k])) return true;
    i = j;
  }
  return false;
}

// "absolute path"/"absolute URL" is a rule unless the sentence also allows relative ones.
bool has_absolute_rule(std::string_view low) {
  if (low.find("relative") != std::string_view::npos) return false;
  for (std::string_view p : {std::string_view("absolute path"), std::string_view("absolute url"),
                             std::string_view("absolute file path")}) {
    if (has_phrase(low, p) || low.find(std::string(p) + "s") != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool is_abbreviation(std::string_view s, std::size_t dot) {
  static constexpr std::array<std::string_view, 28> kAbbreviations = {
      "e.g", "i.e", "eg",  "ie",  "etc", "vs",  "cf",   "al",  "viz",  "resp",
      "approx", "no", "fig", "figs", "dr", "mr", "mrs", "ms",  "prof", "sr",
      "jr",  "st",  "inc", "ltd", "corp", "co", "dept", "est"};
  std::size_t b = dot;
  while (b > 0 && (is_letter(s[b - 1]) || s[b - 1] == '.')) --b;
  std::string_view word = s.substr(b, dot - b);
  if (word.empty()) return false;
  if (word.size() == 1) return true;
  if (word.find('.') != std::string_view::npos) return true;
  std::string low = base::ascii_lower(word);
  return std::find(kAbbreviations.begin(), kAbbreviations.end(), low) != kAbbreviations.end();
}

bool starts_sentence(char c) {
  return is_upper(c) || c == '"' || c == '\'' || c == '`' || c == '(';
}

// Example parentheticals inside a kept sentence: " (e.g. …)", " (for example …)".
std::string drop_example_parens(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '(') {
      std::string low = base::ascii_lower(s.substr(i + 1, 12));
      bool example = low.rfind("e.g.", 0) == 0 || low.rfind("e.g,", 0) == 0 ||
                     low.rfind("for example", 0) == 0 || low.rfind("such as", 0) == 0 ||
                     low.rfind("eg.", 0) == 0;
      std::size_t close = s.find(')', i);
      std::size_t nested = s.find('(', i + 1);
      if (example && close != std::string_view::npos &&
          (nested == std::string_view::npos || nested > close)) {
        while (!out.empty() && out.back() == ' ') out.pop_back();
        i = close + 1;
        continue;
      }
    }
    out.push_back(s[i]);
    ++i;
  }
  return out;
}

// Byte ranges of `s` that are quoted or code (`…`, "…", '…'): prose edits skip them.
std::vector<std::pair<std::size_t, std::size_t>> protected_spans(std::string_view s) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char q = s[i];
    if (q != '`' && q != '"' && q != '\'') continue;
    // An apostrophe inside a word ("page's", "can't") does not open a quote.
    if (q == '\'' && i > 0 && is_word(s[i - 1])) continue;
    std::size_t close = s.find(q, i + 1);
    if (q == '\'') {
      while (close != std::string_view::npos && close + 1 < s.size() && is_letter(s[close + 1])) {
        close = s.find(q, close + 1);
      }
    }
    if (close == std::string_view::npos) continue;
    spans.emplace_back(i, close + 1);
    i = close;
  }
  return spans;
}

// Filler words dropped from prose (lowercase, whole words, outside quotes and code).
constexpr std::array<std::string_view, 15> kFillers = {
    "the",     "a",       "an",       "just",    "simply",  "basically", "really", "actually",
    "please",  "various", "specific", "currently", "very",  "certain",   "particular"};
// Openers that add nothing once the schema says the parameter is a boolean or optional.
constexpr std::array<std::string_view, 10> kOpeners = {
    "whether or not to ", "whether to ", "set to true to ", "if set to true, ",
    "if set to true ",    "if true, ",   "when true, ",     "an optional ",
    "optional: ",         "optional "};

std::string caveman_prose(std::string_view sentence) {
  std::string s(sentence);
  std::string low = base::ascii_lower(s);
  for (std::string_view opener : kOpeners) {
    if (low.rfind(opener, 0) == 0 && s.size() > opener.size()) {
      s.erase(0, opener.size());
      break;
    }
  }
  // Sentence-initial "The ", "A ", "An " (capitalized forms are dropped only here).
  // ("A B" may name a thing, so a one-letter next word keeps it.)
  for (std::string_view article : {"The ", "An ", "A "}) {
    std::size_t next = article.size();
    if (s.rfind(article, 0) != 0 || s.size() <= next + 1 || !is_letter(s[next])) continue;
    if (!is_word(s[next + 1])) continue;
    s.erase(0, next);
    break;
  }
  auto spans = protected_spans(s);
  std::string out;
  out.reserve(s.size());
  std::size_t span = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    while (span < spans.size() && spans[span].second <= i) ++span;
    if (span < spans.size() && spans[span].first <= i) {
      out.append(s, i, spans[span].second - i);
      i = spans[span].second;
      continue;
    }
    if (is_lower(s[i]) && word_boundary_before(s, i)) {
      std::size_t end = i;
      while (end < s.size() && is_word(s[end])) ++end;
      std::string_view word(s.data() + i, end - i);
      bool filler = std::find(kFillers.begin(), kFillers.end(), word) != kFillers.end();
      if (filler && end < s.size() && s[end] == ' ') {
        i = end + 1;
        continue;
      }
      out.append(word);
      i = end;
      continue;
    }
    out.push_back(s[i]);
    ++i;
  }
  if (!out.empty() && is_lower(out[0])) out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

// Position ≤ `pos` that does not split a UTF-8 sequence.
std::size_t utf8_floor(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return s.size();
  while (pos > 0 && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

std::size_t count_words(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_word(s[i]) && (i == 0 || !is_word(s[i - 1]))) ++n;
  }
  return n;
}

std::string cap_lead(std::string_view s, std::size_t cap) {
  if (s.size() <= cap) return std::string(s);
  // Prefer ending at the first clause break when what precedes it already says something
  // (four words or more): "Bypass HTTP cache when reloading page…" rather than a cut clause.
  for (std::string_view brk : {std::string_view(", "), std::string_view("; ")}) {
    std::size_t at = s.find(brk);
    if (at != std::string_view::npos && at + kEllipsis.size() <= cap &&
        count_words(s.substr(0, at)) >= 4) {
      return std::string(s.substr(0, at)) + std::string(kEllipsis);
    }
  }
  std::size_t cut = utf8_floor(s, cap - kEllipsis.size());
  std::size_t space = s.substr(0, cut + 1).rfind(' ');
  if (space != std::string_view::npos && space > cap / 2) cut = space;
  std::string_view head = s.substr(0, cut);
  while (!head.empty() && (head.back() == ' ' || head.back() == ',' || head.back() == ';' ||
                           head.back() == ':' || head.back() == '(' || head.back() == '-')) {
    head.remove_suffix(1);
  }
  return std::string(head) + std::string(kEllipsis);
}

bool restates_default(std::string_view sentence) {
  std::string low = base::ascii_lower(sentence);
  for (std::string_view p : {"default is", "defaults to", "default:", "default value is",
                             "the default is", "(default", "default ="}) {
    if (low.rfind(p, 0) == 0) return true;
  }
  return false;
}

// Words of names and prose: camelCase/snake_case split, lowercase, plural "s" dropped.
void collect_words(std::string_view s, std::vector<std::string>& out) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (!is_letter(s[i]) && !is_ascii_digit(s[i])) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < s.size() && (is_letter(s[j]) || is_ascii_digit(s[j]))) {
      bool lower_to_upper = is_lower(s[j - 1]) && is_upper(s[j]);
      bool acronym_end = is_upper(s[j - 1]) && is_upper(s[j]) && j + 1 < s.size() &&
                         is_lower(s[j + 1]);
      if (lower_to_upper || acronym_end) break;
      ++j;
    }
    std::string w = base::ascii_lower(s.substr(i, j - i));
    if (w.size() > 3 && w.ends_with("ies")) {
      w.replace(w.size() - 3, 3, "y");
    } else if (w.size() > 2 && w.back() == 's' && w[w.size() - 2] != 's') {
      w.pop_back();
    }
    out.push_back(std::move(w));
    i = j;
  }
}

}  // namespace

std::vector<std::string_view> split_sentences(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    char c = text[i];
    std::size_t end = 0;  // one past the terminator
    if (c == '.' || c == '!' || c == '?') {
      end = i + 1;
    } else if (text.substr(i, kEllipsis.size()) == kEllipsis) {
      // A cut lead ends in '…': a second pass must see the same sentences as the first.
      end = i + kEllipsis.size();
    } else {
      continue;
    }
    if (end + 1 >= text.size() || text[end] != ' ' || !starts_sentence(text[end + 1])) continue;
    if (c == '.' && is_abbreviation(text, i)) continue;
    std::string_view sentence = text.substr(start, end - start);
    while (!sentence.empty() && sentence.front() == ' ') sentence.remove_prefix(1);
    if (!sentence.empty()) out.push_back(sentence);
    start = end + 1;
    i = end;
  }
  std::string_view last = text.substr(start);
  while (!last.empty() && last.front() == ' ') last.remove_prefix(1);
  while (!last.empty() && last.back() == ' ') last.remove_suffix(1);
  if (!last.empty()) out.push_back(last);
  return out;
}

bool states_constraint(std::string_view sentence) {
  std::string low = base::ascii_lower(sentence);
  for (std::string_view p : kConstraintPhrases) {
    if (has_phrase(low, p)) return true;
  }
  for (std::string_view p : kConstraintPrefixes) {
    if (has_word_prefix(low, p)) return true;
  }
  if (low.find("format:") != std::string::npos) return true;
  return has_standard_ref(low) || has_only_rule(low) || has_bound(low) ||
         has_numeric_range(low) || has_absolute_rule(low);
}

std::string condense_description(std::string_view text, const DescriptionOptions& options) {
  std::string normalized = normalize_space(text);
  std::vector<std::string_view> sentences = split_sentences(normalized);
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    std::string_view s = sentences[i];
    if (states_constraint(s)) {
      std::string trimmed = drop_example_parens(s);
      pieces.push_back(caveman_prose(states_constraint(trimmed) ? trimmed : s));
    } else if (options.has_default && restates_default(s)) {
      continue;  // the schema's `default` says it (even when it would be the lead)
    } else if (i == 0) {
      pieces.push_back(cap_lead(caveman_prose(drop_example_parens(s)), options.lead_cap));
    }
  }
  std::string out;
  for (const std::string& p : pieces) {
    if (p.empty()) continue;
    if (!out.empty()) out.push_back(' ');
    out += p;
  }
  // A final single '.' is a token the model does not need ("…" and "..." stay).
  if (out.size() >= 2 && out.back() == '.' && out[out.size() - 2] != '.') {
    out.pop_back();
    // "between ." must not leave a space that the next pass would trim.
    while (!out.empty() && out.back() == ' ') out.pop_back();
  }
  return out;
}

std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> words;
  collect_words(name, words);
  return words;
}

bool echoes_names(std::string_view description, const std::vector<std::string_view>& names) {
  static const std::set<std::string, std::less<>> kStop = {
      "the", "a",    "an",   "of",    "to",      "in",   "on",    "for",  "by",   "from",
      "with", "and", "or",   "is",    "are",     "be",   "this",  "that", "it",   "its",
      "as",  "at",   "into", "than",  "then",    "when", "if",    "which", "whether", "set",
      "true", "false", "use", "used", "using",   "will", "should", "can",  "may",  "whose"};
  std::set<std::string, std::less<>> known;
  for (std::string_view name : names) {
    std::vector<std::string> words;
    collect_words(name, words);
    known.insert(words.begin(), words.end());
  }
  std::vector<std::string> words;
  collect_words(description, words);
  std::size_t content = 0;
  std::size_t unknown = 0;
  for (const std::string& w : words) {
    if (kStop.count(w) != 0) continue;
    ++content;
    if (known.count(w) == 0) ++unknown;
  }
  // A three-word description with two of its words in the names says one word more than
  // the name ("Include snapshot in response" for `includeSnapshot`): still an echo.
  return unknown == 0 || (content == 3 && unknown == 1);
}

}  // namespace caveman::toolschema
