// TOON string rules: quoting decisions (§7.2), key syntax (§7.3, §1.9), escaping (§7.1) and the
// whitespace set decoders trim. Pure functions.
#ifndef CAVEMAN_TOON_STRINGS_H_
#define CAVEMAN_TOON_STRINGS_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace caveman::toon {

// White space as JavaScript's String.prototype.trim sees it (ASCII TAB/LF/VT/FF/CR/SP, NBSP,
// BOM, U+1680, U+2000–U+200A, U+2028/2029, U+202F, U+205F, U+3000). Decoders trim tokens
// with this set, so encoders quote strings that start or end with any of it.
bool is_trim_space(char32_t cp);
std::string_view trim_space(std::string_view s);

// ^[A-Za-z_][A-Za-z0-9_.]*$ — keys that may be written without quotes.
bool is_unquoted_key(std::string_view key);
// ^[A-Za-z_][A-Za-z0-9_]*$ — the segments key folding and path expansion may touch.
bool is_identifier_segment(std::string_view segment);

// True when `s` may be emitted bare where `delimiter` is the relevant delimiter.
bool is_safe_unquoted(std::string_view s, char delimiter);

// Appends `s` as a TOON quoted string: \\ \" \n \r \t, other controls as \u00xx.
void append_quoted(std::string& out, std::string_view s);
// Appends a string value, quoted only when §7.2 requires it.
inline void append_string_value(std::string& out, std::string_view s, char delimiter) {
  if (is_safe_unquoted(s, delimiter)) {
    out += s;
  } else {
    append_quoted(out, s);
  }
}
// Appends a key (or field name), quoted unless it matches the unquoted-key pattern.
inline void append_key(std::string& out, std::string_view key) {
  if (is_unquoted_key(key)) {
    out += key;
  } else {
    append_quoted(out, key);
  }
}

// Index of the quote closing the string that opens at s[open] (backslash escapes skipped), or
// npos when unterminated.
std::size_t find_closing_quote(std::string_view s, std::size_t open);

// Decodes the body of a quoted string (between the quotes). On failure returns false and sets
// `error` to a short reason.
bool unescape(std::string_view body, std::string& out, std::string& error);

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_STRINGS_H_
