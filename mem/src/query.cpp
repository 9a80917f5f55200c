#include "query.h"

#include <algorithm>
#include <array>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "memory.h"

namespace caveman::mem {
namespace {

constexpr std::array<std::string_view, 29> kOriginalStopwords = {
    "a",    "an",   "and",  "are",   "as",    "at",   "be",    "by",  "for",  "from",
    "how",  "in",   "is",   "it",    "of",    "on",   "or",    "that", "the", "this",
    "to",   "was",  "what", "when",  "where", "which", "who",  "why", "with"};

// Question and pronoun words that natural recall queries are full of ("how do we …") and
// that no memory is about; sorted for binary search.
constexpr std::array<std::string_view, 31> kExtraStopwords = {
    "any",  "been",   "can",  "could", "did", "do",    "does", "had",  "has",  "have", "i",
    "if",   "into",   "its",  "me",    "my",  "our",   "should", "so", "some", "there", "these",
    "they", "those",  "us",   "we",    "were", "will", "would", "you", "your"};

struct Range {
  char32_t lo, hi;
};

// Han, kana and Hangul: scripts written without spaces between words (trigram index).
constexpr Range kCjk[] = {
    {0x1100, 0x11FF},   {0x3040, 0x309F},   {0x30A0, 0x30FF}, {0x3130, 0x318F},
    {0x31F0, 0x31FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF}, {0xAC00, 0xD7AF},
    {0xF900, 0xFAFF},   {0xFF66, 0xFF9F},   {0x20000, 0x2FA1F}};

// Non-ASCII punctuation, symbols and spaces that unicode61 treats as separators (the common
// blocks; anything missed is harmless: inside a quoted FTS5 string it is split again).
constexpr Range kSeparators[] = {
    {0x0080, 0x00A9},  {0x00AB, 0x00B1}, {0x00B4, 0x00B4}, {0x00B6, 0x00B8}, {0x00BB, 0x00BB},
    {0x00BF, 0x00BF},  {0x00D7, 0x00D7}, {0x00F7, 0x00F7}, {0x2000, 0x206F}, {0x20A0, 0x20CF},
    {0x2100, 0x214F},  {0x2190, 0x2BFF}, {0x2E00, 0x2E7F}, {0x3000, 0x3004}, {0x3008, 0x3020},
    {0x3030, 0x3030},  {0xFE10, 0xFE1F}, {0xFE30, 0xFE4F}, {0xFF00, 0xFF0F}, {0xFF1A, 0xFF20},
    {0xFF3B, 0xFF40},  {0xFF5B, 0xFF65}, {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF}};

bool in(const Range* begin, const Range* end, char32_t cp) {
  return std::any_of(begin, end, [cp](const Range& r) { return cp >= r.lo && cp <= r.hi; });
}

void push_distinct(std::vector<std::string>& list, std::string item) {
  if (list.size() >= kMaxQueryTerms) return;
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(std::move(item));
}

}  // namespace

bool is_original_stopword(std::string_view w) {
  return std::find(kOriginalStopwords.begin(), kOriginalStopwords.end(), w) !=
         kOriginalStopwords.end();
}

bool is_stopword(std::string_view w) {
  return is_original_stopword(w) ||
         std::binary_search(kExtraStopwords.begin(), kExtraStopwords.end(), w);
}

CharClass classify(char32_t cp) {
  if (cp < 0x80) {
    const bool word = (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    return word ? CharClass::kWord : CharClass::kSeparator;
  }
  if (in(std::begin(kCjk), std::end(kCjk), cp)) return CharClass::kCjk;
  if (in(std::begin(kSeparators), std::end(kSeparators), cp)) return CharClass::kSeparator;
  return CharClass::kWord;
}

char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (std::size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cc & 0x3Fu);
  }
  i += len;
  return cp;
}

bool has_cjk(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    if (classify(next_code_point(text, i)) == CharClass::kCjk) return true;
  }
  return false;
}

Result<ParsedQuery> parse_query(std::string_view query) {
  if (query.size() > kMaxQueryBytes) {
    return Status::InvalidArgument(
        codes::kInvalidArguments,
        "query is longer than " + std::to_string(kMaxQueryBytes) + " bytes");
  }
  if (!base::is_valid_utf8(query)) {
    return Status::InvalidArgument(codes::kInvalidArguments, "query is not valid UTF-8");
  }
  ParsedQuery out;
  std::string word;
  std::vector<std::string> cjk_run;  // code points of the current CJK run, as UTF-8 pieces
  std::size_t chars = 0;

  auto flush_word = [&] {
    if (word.empty()) return;
    if (!is_stopword(word)) push_distinct(out.terms, word);
    word.clear();
  };
  auto flush_cjk = [&] {
    if (cjk_run.empty()) return;
    if (cjk_run.size() < 3) {
      std::string run;
      for (const std::string& piece : cjk_run) run += piece;
      push_distinct(out.cjk_short, std::move(run));
    } else {
      for (std::size_t k = 0; k + 3 <= cjk_run.size(); ++k) {
        push_distinct(out.cjk_grams, cjk_run[k] + cjk_run[k + 1] + cjk_run[k + 2]);
      }
    }
    cjk_run.clear();
  };

  std::size_t i = 0;
  while (i < query.size()) {
    const std::size_t start = i;
    const char32_t cp = next_code_point(query, i);
    ++chars;
    switch (classify(cp)) {
      case CharClass::kWord: {
        flush_cjk();
        std::string piece(query.substr(start, i - start));
        if (piece.size() == 1 && piece[0] >= 'A' && piece[0] <= 'Z') piece[0] = static_cast<char>(piece[0] - 'A' + 'a');
        word += piece;
        break;
      }
      case CharClass::kCjk:
        flush_word();
        cjk_run.emplace_back(query.substr(start, i - start));
        break;
      case CharClass::kSeparator:
        flush_word();
        flush_cjk();
        break;
    }
  }
  flush_word();
  flush_cjk();
  if (chars > kMaxQueryChars) {
    return Status::InvalidArgument(
        codes::kInvalidArguments,
        "query is longer than " + std::to_string(kMaxQueryChars) + " characters");
  }
  return out;
}

std::string fts_quote(std::string_view term) {
  std::string out = "\"";
  for (char c : term) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string fts_any(const std::vector<std::string>& terms) {
  std::string out;
  for (const std::string& t : terms) {
    if (!out.empty()) out += " OR ";
    out += fts_quote(t);
  }
  return out;
}

std::string escape_like(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '%' || c == '_' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace caveman::mem
