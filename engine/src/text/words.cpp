#include "text/words.h"

#include <array>

#include "caveman/base/text.h"
#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::text {
namespace {


bool match_at(std::string_view text, std::size_t i, std::string_view word) {
  if (i + word.size() > text.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k) {
    if (base::ascii_lower_char(text[i + k]) != word[k]) return false;
  }
  return true;
}

// is_word_byte as a table: the scans below run over every line of every log.
constexpr std::array<bool, 256> make_word_bytes() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) {
    t[static_cast<std::size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                     (c >= '0' && c <= '9') || c == '_';
  }
  return t;
}
constexpr std::array<bool, 256> kWordByte = make_word_bytes();

inline bool word_byte(char c) { return kWordByte[static_cast<unsigned char>(c)]; }

template <typename Words>
bool contains_word_impl(std::string_view text, const Words& words) {
  // Only bytes that can start one of the words are worth a closer look.
  bool first[256] = {};
  for (std::string_view w : words) {
    if (w.empty()) continue;
    unsigned char c = static_cast<unsigned char>(w[0]);
    first[c] = true;
    if (c >= 'a' && c <= 'z') first[c - 32] = true;
  }
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    if (!word_byte(text[i])) {
      ++i;
      continue;
    }
    // text[i] starts a word (the previous byte is not a word byte).
    if (first[static_cast<unsigned char>(text[i])]) {
      for (std::string_view w : words) {
        if (!match_at(text, i, w)) continue;
        std::size_t end = i + w.size();
        if (end < n && word_byte(text[end])) continue;
        return true;
      }
    }
    while (i < n && word_byte(text[i])) ++i;  // skip to the end of this word
  }
  return false;
}

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_upper_ascii(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower_ascii(char c) { return c >= 'a' && c <= 'z'; }

// A component starts where the previous byte is not a letter, or at a lower→upper change.
bool component_start(std::string_view t, std::size_t i) {
  if (i == 0) return true;
  char prev = t[i - 1];
  if (!is_alpha(prev)) return true;
  return is_lower_ascii(prev) && is_upper_ascii(t[i]);
}

bool component_end(std::string_view t, std::size_t end) {
  if (end >= t.size()) return true;
  char next = t[end];
  if (!is_alpha(next)) return !(next >= '0' && next <= '9');
  // "TimeoutError": the word "timeout" ends before an uppercase letter that follows a
  // lowercase one; "ERRORS" does not end "error" (same-case continuation).
  return is_upper_ascii(next) && is_lower_ascii(t[end - 1]);
}

}  // namespace

bool contains_word_ci(std::string_view text, std::initializer_list<std::string_view> words) {
  return contains_word_impl(text, words);
}

bool contains_word_ci(std::string_view text, const std::vector<std::string_view>& words) {
  return contains_word_impl(text, words);
}

bool contains_word_in_identifiers_ci(std::string_view text,
                                     std::initializer_list<std::string_view> words) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!is_alpha(text[i]) || !component_start(text, i)) continue;
    for (std::string_view w : words) {
      if (!match_at(text, i, w)) continue;
      if (component_end(text, i + w.size())) return true;
    }
  }
  return false;
}

bool contains_ci(std::string_view haystack, std::string_view needle_lower) {
  if (needle_lower.empty()) return true;
  if (needle_lower.size() > haystack.size()) return false;
  for (std::size_t i = 0; i + needle_lower.size() <= haystack.size(); ++i) {
    if (match_at(haystack, i, needle_lower)) return true;
  }
  return false;
}

std::vector<std::string> word_tokens_lower(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < text.size();) {
    Decoded d = decode_utf8(text, i);
    i += d.len;
    char32_t cp = d.cp;
    bool word = d.valid && (cp == '_' || is_letter(cp) || is_decimal_digit(cp));
    if (word) {
      append_utf8(cur, to_lower(cp));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

}  // namespace caveman::text
