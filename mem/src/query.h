// query.h — turning an untrusted recall query into FTS5 MATCH expressions that can only ever
// mean "any of these words".
//
// The query is split on everything that is not a letter or digit (FTS5 operators, quotes,
// colons, parentheses, `*` and `^` are separators), stopwords are dropped, and every remaining
// term is emitted as its own double-quoted FTS5 string (inner quotes doubled) joined by OR, so
// `NOT`, `NEAR(`, `col:`, `*` and friends are never interpreted. CJK text (no spaces between
// words) is cut into overlapping trigrams for the trigram index; 1–2 character CJK runs go to a
// LIKE scan with escaped patterns. Pure functions, thread-safe, no exceptions.
#ifndef CAVEMAN_MEM_QUERY_H_
#define CAVEMAN_MEM_QUERY_H_

#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::mem {

struct ParsedQuery {
  std::vector<std::string> terms;      // non-CJK words, ASCII-lowercased, distinct, no stopwords
  std::vector<std::string> cjk_grams;  // distinct 3-code-point windows of CJK runs (≥ 3 long)
  std::vector<std::string> cjk_short;  // distinct CJK runs of 1–2 code points
  bool empty() const { return terms.empty() && cjk_grams.empty() && cjk_short.empty(); }
};

// Errors: kInvalidArgument (codes::kInvalidArguments) for invalid UTF-8, more than
// kMaxQueryChars code points or more than kMaxQueryBytes bytes. A query made only of
// stopwords and punctuation parses to an empty ParsedQuery (recall then has no hits).
// At most kMaxQueryTerms items are kept per list, first occurrences first.
Result<ParsedQuery> parse_query(std::string_view query);

// `"term"` with every `"` doubled: an FTS5 string, never an operator.
std::string fts_quote(std::string_view term);
// fts_quote of each term joined by " OR "; empty for no terms.
std::string fts_any(const std::vector<std::string>& terms);
// `s` with `%`, `_` and `\` prefixed by `\`, for `LIKE ? ESCAPE '\'`.
std::string escape_like(std::string_view s);

// The recall stopwords: the original's 29 (docs/spec/ranking.md#bm25) plus common question/pronoun
// words.
bool is_stopword(std::string_view lower_word);
// Only the original's 29 stopwords (used by the full-scan reference ranker).
bool is_original_stopword(std::string_view lower_word);

// Character classes shared with the reference ranker and the CJK flag of stored texts.
enum class CharClass { kSeparator, kWord, kCjk };
CharClass classify(char32_t cp);
// Decodes one code point at `i` (valid UTF-8 assumed; an invalid byte yields U+FFFD and
// advances by one). Advances `i`.
char32_t next_code_point(std::string_view s, std::size_t& i);
// True when `text` contains at least one CJK code point.
bool has_cjk(std::string_view text);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_QUERY_H_
