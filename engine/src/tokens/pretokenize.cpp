#include "tokens/pretokenize.h"

#include <array>
#include <cstdint>

#include "text/unicode.h"

namespace caveman::tokens {
namespace {

// Character classes: the pattern's sets are unions of these disjoint bits.
enum : std::uint8_t {
  kLu = 1,       // Lu, Lt: upper-case set only
  kLl = 2,       // Ll: lower-case set only
  kLmo = 4,      // Lm, Lo: both letter sets
  kMark = 8,     // Mn, Mc, Me: both letter sets, and (not being \p{L}) the prefix set too
  kNum = 16,     // Nd, Nl, No
  kSpace = 32,   // White_Space other than \r and \n
  kCrLf = 64,    // \r, \n
  kOther = 128,  // everything else, including each invalid UTF-8 byte (as U+FFFD would be)
};
constexpr std::uint8_t kUpperSet = kLu | kLmo | kMark;        // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
constexpr std::uint8_t kLowerSet = kLl | kLmo | kMark;        // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
constexpr std::uint8_t kPrefixSet = kMark | kSpace | kOther;  // [^\r\n\p{L}\p{N}]
constexpr std::uint8_t kPunctSet = kMark | kOther;            // [^\s\p{L}\p{N}]
constexpr std::uint8_t kWhiteSet = kSpace | kCrLf;            // \s
constexpr std::size_t kFail = static_cast<std::size_t>(-1);

constexpr std::array<std::uint8_t, 128> make_ascii_classes() {
  std::array<std::uint8_t, 128> t{};
  for (int c = 0; c < 128; ++c) {
    std::uint8_t k = kOther;
    if (c >= 'A' && c <= 'Z')
      k = kLu;
    else if (c >= 'a' && c <= 'z')
      k = kLl;
    else if (c >= '0' && c <= '9')
      k = kNum;
    else if (c == '\r' || c == '\n')
      k = kCrLf;
    else if (c == ' ' || (c >= 0x09 && c <= 0x0D))
      k = kSpace;  // \t \v \f and space
    t[static_cast<std::size_t>(c)] = k;
  }
  return t;
}
constexpr std::array<std::uint8_t, 128> kAsciiClass = make_ascii_classes();

inline bool is_ascii_lower(unsigned char b) { return b >= 'a' && b <= 'z'; }

std::uint8_t class_of(char32_t cp) {
  using text::GeneralCategory;
  switch (text::general_category(cp)) {
    case GeneralCategory::kLu:
    case GeneralCategory::kLt:
      return kLu;
    case GeneralCategory::kLl:
      return kLl;
    case GeneralCategory::kLm:
    case GeneralCategory::kLo:
      return kLmo;
    case GeneralCategory::kMn:
    case GeneralCategory::kMc:
    case GeneralCategory::kMe:
      return kMark;
    case GeneralCategory::kNd:
    case GeneralCategory::kNl:
    case GeneralCategory::kNo:
      return kNum;
    case GeneralCategory::kZs:
    case GeneralCategory::kZl:
    case GeneralCategory::kZp:
    case GeneralCategory::kCc:  // U+0085 is White_Space; other C1 controls are not
      return text::is_white_space(cp) ? kSpace : kOther;
    default:
      return kOther;
  }
}

struct Char {
  std::uint8_t cls;
  std::uint8_t len;
};

// Strict UTF-8 (Unicode Table 3-7). A byte that does not start a well-formed sequence is a
// one-byte kOther character.
Char decode_multibyte(const unsigned char* s, std::size_t n, std::size_t i) {
  unsigned char b0 = s[i];
  auto cont = [&](std::size_t k, unsigned char lo, unsigned char hi) {
    return i + k < n && s[i + k] >= lo && s[i + k] <= hi;
  };
  char32_t cp;
  std::uint8_t len;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    if (!cont(1, 0x80, 0xBF)) return {kOther, 1};
    cp = (char32_t(b0 & 0x1F) << 6) | (s[i + 1] & 0x3F);
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    unsigned char lo = b0 == 0xE0 ? 0xA0 : 0x80;
    unsigned char hi = b0 == 0xED ? 0x9F : 0xBF;
    if (!cont(1, lo, hi) || !cont(2, 0x80, 0xBF)) return {kOther, 1};
    cp = (char32_t(b0 & 0x0F) << 12) | (char32_t(s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
    len = 3;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    unsigned char lo = b0 == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = b0 == 0xF4 ? 0x8F : 0xBF;
    if (!cont(1, lo, hi) || !cont(2, 0x80, 0xBF) || !cont(3, 0x80, 0xBF)) return {kOther, 1};
    cp = (char32_t(b0 & 0x07) << 18) | (char32_t(s[i + 1] & 0x3F) << 12) |
         (char32_t(s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
    len = 4;
  } else {
    return {kOther, 1};
  }
  return {class_of(cp), len};
}

// The scanner: each alternative of the pattern as a function from a start offset to the end
// of its (leftmost-first) match, or kFail.
class Scanner {
 public:
  explicit Scanner(std::string_view text)
      : s_(reinterpret_cast<const unsigned char*>(text.data())), n_(text.size()) {}

  std::size_t piece_end(std::size_t p) const {
    // Fast path for the most common piece, an ASCII lower-case word with or without one
    // leading space: exactly what alternative 1 matches when the word ends at an ASCII byte
    // other than an apostrophe (anything else takes the general path below).
    {
      std::size_t q = p;
      if (s_[q] == ' ' && q + 1 < n_) ++q;
      if (is_ascii_lower(s_[q])) {
        std::size_t e = q + 1;
        while (e < n_ && is_ascii_lower(s_[e])) ++e;
        if (e == n_ || (s_[e] < 0x80 && s_[e] != '\'')) return e;
      }
    }
    if (std::size_t e = ascii_piece_end(p); e != kNotDecided) return e;
    return general_piece_end(p);
  }

  // The pattern's alternatives in order, without any fast path (the reference for tests).
  std::size_t general_piece_end(std::size_t p) const {
    Char c0 = at(p);
    std::size_t after = p + c0.len;
    std::size_t e;
    // Alternatives 1 and 2: letter runs, optionally after one prefix character. Backtracking
    // order: the prefix is tried first (greedy `?`), then the same body without it.
    if (c0.cls & kPrefixSet) {
      if ((e = lower_tail_word(after)) != kFail) return e;
    }
    if (c0.cls & (kUpperSet | kLowerSet)) {
      if ((e = lower_tail_word(p)) != kFail) return e;
    }
    if (c0.cls & kPrefixSet) {
      if ((e = upper_word(after)) != kFail) return e;
    }
    if (c0.cls & kUpperSet) {
      if ((e = upper_word(p)) != kFail) return e;
    }
    // Alternative 3: \p{N}{1,3}.
    if (c0.cls & kNum) {
      e = after;
      for (int k = 1; k < 3 && e < n_; ++k) {
        Char c = at(e);
        if (!(c.cls & kNum)) break;
        e += c.len;
      }
      return e;
    }
    // Alternative 4: ` ?[^\s\p{L}\p{N}]+[\r\n/]*`.
    std::size_t punct = kFail;
    if (c0.cls & kPunctSet) {
      punct = p;
    } else if (s_[p] == ' ' && after < n_ && (at(after).cls & kPunctSet)) {
      punct = after;
    }
    if (punct != kFail) {
      e = run(punct, kPunctSet);
      while (e < n_ && (s_[e] == '\r' || s_[e] == '\n' || s_[e] == '/')) ++e;
      return e;
    }
    // Alternatives 5–7 on the whitespace run starting here.
    if (c0.cls & kWhiteSet) return whitespace_end(p);
    return after;  // unreachable: every class is covered above
  }

 private:
  static constexpr std::size_t kNotDecided = 0;  // no piece ends at offset 0

  // Punctuation, digit and white-space pieces whose extent ASCII bytes alone decide (JSON
  // and log syntax): the same ends the general path computes. A letter, or a non-ASCII byte
  // where the class matters, leaves the piece to the general path (kNotDecided).
  std::size_t ascii_piece_end(std::size_t p) const {
    unsigned char b = s_[p];
    if (b >= 0x80) return kNotDecided;
    std::uint8_t cls = kAsciiClass[b];
    if (cls == kNum) {  // \p{N}{1,3}
      std::size_t e = p + 1;
      for (int k = 1; k < 3 && e < n_; ++k) {
        if (s_[e] >= 0x80) return kNotDecided;  // maybe a non-ASCII digit
        if (kAsciiClass[s_[e]] != kNum) break;
        ++e;
      }
      return e;
    }
    if (cls == kCrLf) return ascii_whitespace_end(p);
    if (cls != kOther && cls != kSpace) return kNotDecided;  // letters
    // A prefix character followed by a letter starts a word; at the end of the text the
    // general path is as quick.
    if (p + 1 >= n_ || s_[p + 1] >= 0x80) return kNotDecided;
    std::uint8_t next = kAsciiClass[s_[p + 1]];
    if (next & (kLu | kLl)) return kNotDecided;
    if (cls == kOther) return ascii_punct_end(p);                    // [^\s\p{L}\p{N}]+[\r\n/]*
    if (b == ' ' && next == kOther) return ascii_punct_end(p + 1);  // ` ?` then the same
    return ascii_whitespace_end(p);
  }

  // run(i, kPunctSet) then [\r\n/]*, or kNotDecided when the run meets a non-ASCII byte.
  std::size_t ascii_punct_end(std::size_t i) const {
    while (i < n_ && s_[i] < 0x80 && kAsciiClass[s_[i]] == kOther) ++i;
    if (i < n_ && s_[i] >= 0x80) return kNotDecided;
    while (i < n_ && (s_[i] == '\r' || s_[i] == '\n' || s_[i] == '/')) ++i;
    return i;
  }

  // whitespace_end over an ASCII run, or kNotDecided when the run meets a non-ASCII byte
  // (which may be white space too).
  std::size_t ascii_whitespace_end(std::size_t p) const {
    std::size_t i = p;
    std::size_t last_crlf_end = kFail;
    while (i < n_ && s_[i] < 0x80 && (kAsciiClass[s_[i]] & kWhiteSet)) {
      if (kAsciiClass[s_[i]] & kCrLf) last_crlf_end = i + 1;
      ++i;
    }
    if (i < n_ && s_[i] >= 0x80) return kNotDecided;
    if (last_crlf_end != kFail) return last_crlf_end;
    if (i == n_ || i - p == 1) return i;
    return i - 1;
  }

  Char at(std::size_t i) const {
    unsigned char b = s_[i];
    if (b < 0x80) return {kAsciiClass[b], 1};
    return decode_multibyte(s_, n_, i);
  }

  std::size_t run(std::size_t i, std::uint8_t set) const {
    while (i < n_) {
      Char c = at(i);
      if (!(c.cls & set)) break;
      i += c.len;
    }
    return i;
  }

  // (?i:'s|'t|'re|'ve|'m|'ll|'d)? at e. `b | 0x20` maps only the ASCII letter pair to the
  // lower-case letter; U+017F (LATIN SMALL LETTER LONG S, C5 BF) case-folds to s.
  std::size_t contraction(std::size_t e) const {
    if (e + 1 >= n_ || s_[e] != '\'') return e;
    unsigned char c = s_[e + 1] | 0x20;
    switch (c) {
      case 's':
      case 't':
      case 'm':
      case 'd':
        return e + 2;
      case 'r':
      case 'v':
        return (e + 2 < n_ && (s_[e + 2] | 0x20) == 'e') ? e + 3 : e;
      case 'l':
        return (e + 2 < n_ && (s_[e + 2] | 0x20) == 'l') ? e + 3 : e;
      default:
        break;
    }
    if (s_[e + 1] == 0xC5 && e + 2 < n_ && s_[e + 2] == 0xBF) return e + 3;
    return e;
  }

  // Alternative 1 body: [upper]*[lower]+ contraction?. Greedy [upper]* then backtracking: if
  // the character after the whole upper-set run is Ll, [lower]+ starts there; otherwise the
  // match ends just after the run's last Lm/Lo/M character (the only run members that are in
  // the lower set too), or fails when there is none.
  std::size_t lower_tail_word(std::size_t q) const {
    std::size_t i = q;
    std::size_t last_both_end = kFail;
    while (i < n_) {
      Char c = at(i);
      if (!(c.cls & kUpperSet)) break;
      i += c.len;
      if (c.cls & (kLmo | kMark)) last_both_end = i;
    }
    std::size_t e;
    if (i < n_ && (at(i).cls & kLl)) {
      e = run(i, kLowerSet);
    } else if (last_both_end != kFail) {
      e = last_both_end;
    } else {
      return kFail;
    }
    return contraction(e);
  }

  // Alternative 2 body: [upper]+[lower]* contraction?.
  std::size_t upper_word(std::size_t q) const {
    std::size_t i = run(q, kUpperSet);
    if (i == q) return kFail;
    return contraction(run(i, kLowerSet));
  }

  // \s*[\r\n]+ | \s+(?!\S) | \s+ on the maximal whitespace run from p: through its last \r or
  // \n if it has one; else all of it at the end of the text; else all but its last character
  // when that leaves one or more; else the single character.
  std::size_t whitespace_end(std::size_t p) const {
    std::size_t i = p;
    std::size_t last_crlf_end = kFail;
    std::size_t last_start = p;
    std::size_t chars = 0;
    while (i < n_) {
      Char c = at(i);
      if (!(c.cls & kWhiteSet)) break;
      last_start = i;
      i += c.len;
      ++chars;
      if (c.cls & kCrLf) last_crlf_end = i;
    }
    if (last_crlf_end != kFail) return last_crlf_end;
    if (i == n_ || chars == 1) return i;
    return last_start;
  }

  const unsigned char* s_;
  std::size_t n_;
};

}  // namespace

std::size_t next_piece_end(std::string_view text, std::size_t pos) {
  return Scanner(text).piece_end(pos);
}

std::size_t reference_piece_end(std::string_view text, std::size_t pos) {
  return Scanner(text).general_piece_end(pos);
}

std::vector<std::string_view> pretokenize(std::string_view text) {
  std::vector<std::string_view> pieces;
  Scanner scanner(text);
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = scanner.piece_end(pos);
    pieces.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return pieces;
}

}  // namespace caveman::tokens
