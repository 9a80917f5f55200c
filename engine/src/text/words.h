// Keyword and term matching shared by detect, the compressors, BM25 and the packer.
#ifndef CAVEMAN_TEXT_WORDS_H_
#define CAVEMAN_TEXT_WORDS_H_

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::text {

inline bool is_word_byte(char c) {  // RE2 \w (ASCII)
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// True when `text` contains one of `words` as a whole word (ASCII \b on both sides),
// compared ASCII-case-insensitively. `words` are given in lowercase; a word may contain
// spaces ("caused by").
bool contains_word_ci(std::string_view text, std::initializer_list<std::string_view> words);
bool contains_word_ci(std::string_view text, const std::vector<std::string_view>& words);

// Like contains_word_ci but also finds the word as a component of an identifier:
// `Z_BUF_ERROR`, `ERR_CONNECTION_REFUSED`, `TimeoutError`, `failedCount`. A component
// boundary is a non-letter, a '_' or a lower→upper case change.
bool contains_word_in_identifiers_ci(std::string_view text,
                                     std::initializer_list<std::string_view> words);

// Case-insensitive (ASCII) substring search.
bool contains_ci(std::string_view haystack, std::string_view needle_lower);

// Bytes `a` and `b` share at their start / at their end.
inline std::size_t common_prefix(std::string_view a, std::string_view b) {
  std::size_t n = a.size() < b.size() ? a.size() : b.size(), i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}
inline std::size_t common_suffix(std::string_view a, std::string_view b) {
  std::size_t n = a.size() < b.size() ? a.size() : b.size(), i = 0;
  while (i < n && a[a.size() - 1 - i] == b[b.size() - 1 - i]) ++i;
  return i;
}

// Maximal runs of Unicode letters, Unicode decimal digits and '_' in the lowercased text.
std::vector<std::string> word_tokens_lower(std::string_view text);

}  // namespace caveman::text

#endif  // CAVEMAN_TEXT_WORDS_H_
