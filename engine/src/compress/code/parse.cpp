#include "compress/code/parse.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace caveman::compress::code {
namespace {

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

// A significant token of C/C++ text: an identifier, or one punctuation byte.
struct Token {
  bool ident;
  std::size_t start;
  std::size_t end;
};

// Skips a quoted literal starting at s[i] (the quote); returns the index after it.
std::size_t skip_quoted(std::string_view s, std::size_t i) {
  char q = s[i++];
  while (i < s.size() && s[i] != q && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
  return std::min(s.size(), i + 1);
}

// Skips a raw string R"delim( … )delim" whose `"` is at s[i].
std::size_t skip_raw_string(std::string_view s, std::size_t i) {
  std::size_t open = s.find('(', i + 1);
  if (open == std::string_view::npos || open - i > 17) return skip_quoted(s, i);
  std::string close = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
  std::size_t end = s.find(close, open + 1);
  return end == std::string_view::npos ? s.size() : end + close.size();
}

// Identifiers and punctuation outside comments, literals and preprocessor lines.
std::vector<Token> significant_tokens(std::string_view s) {
  std::vector<Token> out;
  bool line_start = true;  // only whitespace since the last newline
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '#' && line_start) {  // preprocessor line, with backslash continuations
      while (i < s.size() && s[i] != '\n') i += (s[i] == '\\' && i + 1 < s.size()) ? 2 : 1;
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      std::size_t nl = s.find('\n', i);
      i = nl == std::string_view::npos ? s.size() : nl;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      std::size_t e = s.find("*/", i + 2);
      i = e == std::string_view::npos ? s.size() : e + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      i = skip_quoted(s, i);
      continue;
    }
    if (c >= '0' && c <= '9') {  // numbers, including 1'000 and 0x1p-2 forms
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.' || s[i] == '\'')) ++i;
      continue;
    }
    if (ident_start(c)) {
      std::size_t b = i;
      while (i < s.size() && ident_char(s[i])) ++i;
      if (i < s.size() && s[i] == '"') {  // encoding prefixes and raw strings
        std::string_view p = s.substr(b, i - b);
        if (p == "R" || p == "u8R" || p == "uR" || p == "UR" || p == "LR") {
          i = skip_raw_string(s, i);
          continue;
        }
        if (p == "u8" || p == "u" || p == "U" || p == "L") {
          i = skip_quoted(s, i);
          continue;
        }
      }
      out.push_back({true, b, i});
      continue;
    }
    out.push_back({false, i, i + 1});
    ++i;
  }
  return out;
}

// GUARDED_BY, EXCLUSIVE_LOCKS_REQUIRED, ABSL_MUST_USE_RESULT: upper case, digits, `_`,
// at least one `_`, not starting or ending with `_`.
bool macro_shaped(std::string_view w) {
  if (w.size() < 3 || w.front() == '_' || w.back() == '_' ||
      !(w.front() >= 'A' && w.front() <= 'Z'))
    return false;
  bool underscore = false;
  for (char c : w) {
    if (c == '_') {
      underscore = true;
    } else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
      return false;
    }
  }
  return underscore;
}

// Keywords after which a name starts an expression, not a declarator suffix.
constexpr std::array<std::string_view, 14> kExpressionKeywords = {
    "return", "case", "throw",  "co_return", "co_yield", "else",     "do",
    "goto",   "new",  "delete", "sizeof",    "alignof",  "decltype", "typeid"};
// Keywords that may sit between a declarator and an annotation macro.
constexpr std::array<std::string_view, 5> kDeclaratorSuffixes = {"const", "override", "final",
                                                                 "noexcept", "volatile"};

template <std::size_t N>
bool in(const std::array<std::string_view, N>& set, std::string_view w) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

}  // namespace

std::uint64_t parse_budget_micros(std::size_t bytes) {
  return kParseBaseMicros + kParseMicrosPerByte * bytes;
}

TreePtr parse_raw(Language lang, std::string_view text, std::uint64_t budget_micros) {
  if (text.size() > kMaxParseBytes) return nullptr;
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!parser || !ts_parser_set_language(parser.get(), ts_language(lang))) return nullptr;
  ts_parser_set_timeout_micros(
      parser.get(), budget_micros != 0 ? budget_micros : parse_budget_micros(text.size()));
  return TreePtr(ts_parser_parse_string(parser.get(), nullptr, text.data(),
                                        static_cast<std::uint32_t>(text.size())));
}

std::unique_ptr<CleanParse> parse_clean(Language lang, std::string_view source) {
  TreePtr tree = parse_raw(lang, source);
  if (!tree) return nullptr;
  if (!ts_node_has_error(ts_tree_root_node(tree.get()))) {
    return std::make_unique<CleanParse>(CleanParse{std::move(tree), std::string(source)});
  }
  if (lang != Language::kC && lang != Language::kCpp) return nullptr;
  std::string masked = mask_annotation_macros(source);
  if (masked == source) return nullptr;
  tree = parse_raw(lang, masked);
  if (!tree || ts_node_has_error(ts_tree_root_node(tree.get()))) return nullptr;
  return std::make_unique<CleanParse>(CleanParse{std::move(tree), std::move(masked)});
}

std::string mask_annotation_macros(std::string_view source) {
  std::string out(source);
  std::vector<Token> toks = significant_tokens(source);
  auto text = [&](std::size_t k) {
    return source.substr(toks[k].start, toks[k].end - toks[k].start);
  };
  auto is_punct = [&](std::size_t k, char c) {
    return !toks[k].ident && source[toks[k].start] == c;
  };
  // Index of the token closing the argument list opened at `open`, or npos.
  auto matching_paren = [&](std::size_t open) {
    int depth = 0;
    for (std::size_t k = open; k < toks.size(); ++k) {
      if (is_punct(k, '(')) ++depth;
      if (is_punct(k, ')') && --depth == 0) return k;
    }
    return std::string_view::npos;
  };
  for (std::size_t i = 1; i < toks.size(); ++i) {
    if (!toks[i].ident || !macro_shaped(text(i))) continue;
    std::size_t p = i - 1;
    bool after_paren = is_punct(p, ')');
    bool after_name = toks[p].ident && !in(kExpressionKeywords, text(p));
    if (!after_paren && !after_name) continue;
    std::size_t last = i;
    if (i + 1 < toks.size() && is_punct(i + 1, '(')) {
      last = matching_paren(i + 1);
      if (last == std::string_view::npos) continue;
    } else if (!after_paren) {
      continue;  // a bare ALL_CAPS name after a type is more likely a variable
    }
    if (last + 1 >= toks.size()) continue;
    std::size_t n = last + 1;
    bool ok = toks[n].ident
                  ? (macro_shaped(text(n)) || in(kDeclaratorSuffixes, text(n)))
                  : std::string_view(";{,=:").find(source[toks[n].start]) != std::string_view::npos;
    if (!ok) continue;
    for (std::size_t b = toks[i].start; b < toks[last].end; ++b) {
      if (out[b] != '\n' && out[b] != '\r') out[b] = ' ';
    }
    i = last;
  }
  return out;
}

}  // namespace caveman::compress::code
