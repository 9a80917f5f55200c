#include "caveman/base/json_scan.h"

#include <cstring>

#include "caveman/base/text.h"
#include "text/utf8.h"

namespace caveman::base {
namespace {

// End of the run of string bytes from `from` that need no attention: not '"', not '\\', not
// a control byte. Tests 8 bytes per step: the proxy scans every request body, mostly long
// strings (docs/base.md); the byte loop then finds the exact stop.
std::size_t plain_run_end(std::string_view s, std::size_t from) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  std::size_t i = from;
  while (i + 8 <= s.size()) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    std::uint64_t quote = w ^ (kOnes * '"');
    std::uint64_t slash = w ^ (kOnes * '\\');
    // (v - 0x01…) & ~v & 0x80… is non-zero iff some byte of v is zero; with 0x20 instead of
    // 0x01, iff some byte is below 0x20.
    std::uint64_t hits = ((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash) |
                         ((w - kOnes * 0x20) & ~w);
    if ((hits & kHighs) != 0) break;
    i += 8;
  }
  while (i < s.size() && s[i] != '"' && s[i] != '\\' && static_cast<unsigned char>(s[i]) >= 0x20) {
    ++i;
  }
  return i;
}

bool is_number_byte(char c) {
  return base::is_ascii_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// The RFC 8259 number grammar over the whole of `lit`.
bool is_json_number(std::string_view lit) {
  std::size_t i = 0, n = lit.size();
  auto digits = [&] {
    std::size_t start = i;
    while (i < n && base::is_ascii_digit(lit[i])) ++i;
    return i > start;
  };
  if (i < n && lit[i] == '-') ++i;
  if (i < n && lit[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && lit[i] == '.' && (++i, !digits())) return false;
  if (i < n && (lit[i] == 'e' || lit[i] == 'E')) {
    ++i;
    if (i < n && (lit[i] == '+' || lit[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

}  // namespace

std::string_view json_error_text(JsonError error) {
  switch (error) {
    case JsonError::kNone: return "no error";
    case JsonError::kEmpty: return "empty input";
    case JsonError::kUnexpectedEnd: return "unexpected end of input";
    case JsonError::kUnexpectedEndInObject: return "unexpected end of input in object";
    case JsonError::kUnexpectedEndInArray: return "unexpected end of input in array";
    case JsonError::kUnexpectedCharacter: return "unexpected character";
    case JsonError::kInvalidLiteral: return "invalid literal";
    case JsonError::kInvalidNumber: return "invalid number";
    case JsonError::kExpectedKey: return "expected a string key";
    case JsonError::kExpectedColon: return "expected ':' after the key";
    case JsonError::kExpectedCommaOrBrace: return "expected ',' or '}'";
    case JsonError::kExpectedCommaOrBracket: return "expected ',' or ']'";
    case JsonError::kUnterminatedString: return "unterminated string";
    case JsonError::kControlCharacter: return "control character in string";
    case JsonError::kInvalidUnicodeEscape: return "invalid \\u escape";
    case JsonError::kInvalidEscape: return "invalid escape";
    case JsonError::kLoneSurrogate: return "lone UTF-16 surrogate escape";
    case JsonError::kTooDeep: return "nesting too deep";
    case JsonError::kTrailingData: return "trailing data after the JSON value";
  }
  return "invalid JSON";
}

JsonScanner::JsonScanner(std::string_view text, JsonScanOptions options)
    : s_(text), options_(options) {}

JsonToken JsonScanner::next() {
  escaped_ = false;
  text_ = {};
  switch (state_) {
    case State::kStart:
      skip_ws();
      if (pos_ >= s_.size()) return fail(JsonError::kEmpty, pos_);
      return value();
    case State::kValue:
      skip_ws();
      return value();
    case State::kObjectFirst:
    case State::kArrayFirst: {
      bool object = state_ == State::kObjectFirst;
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == (object ? '}' : ']')) {
        return close(object ? JsonToken::kEndObject : JsonToken::kEndArray);
      }
      return object ? key() : value();
    }
    case State::kKey:
      skip_ws();
      return key();
    case State::kColon:
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ':') return fail(JsonError::kExpectedColon, pos_);
      ++pos_;
      skip_ws();
      return value();
    case State::kAfterValue:
      return after_value();
    case State::kDone:
      return JsonToken::kEnd;
    case State::kFailed:
      break;
  }
  return JsonToken::kError;
}

void JsonScanner::skip_ws() {
  while (pos_ < s_.size()) {
    char c = s_[pos_];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    ++pos_;
  }
}

JsonToken JsonScanner::fail(JsonError error, std::size_t at) {
  error_ = error;
  error_offset_ = at;
  state_ = State::kFailed;
  return JsonToken::kError;
}

bool JsonScanner::broken(JsonError error, std::size_t at) {
  fail(error, at);
  return false;
}

JsonToken JsonScanner::value() {
  if (pos_ >= s_.size()) return fail(JsonError::kUnexpectedEnd, pos_);
  begin_ = pos_;
  char c = s_[pos_];
  switch (c) {
    case '{': return open('{', JsonToken::kBeginObject, State::kObjectFirst);
    case '[': return open('[', JsonToken::kBeginArray, State::kArrayFirst);
    case '"':
      if (!string()) return JsonToken::kError;
      state_ = State::kAfterValue;
      return JsonToken::kString;
    case 't': return literal("true", JsonToken::kTrue);
    case 'f': return literal("false", JsonToken::kFalse);
    case 'n': return literal("null", JsonToken::kNull);
    default:
      if (c == '-' || base::is_ascii_digit(c)) return number();
      return fail(JsonError::kUnexpectedCharacter, pos_);
  }
}

JsonToken JsonScanner::key() {
  if (pos_ >= s_.size() || s_[pos_] != '"') return fail(JsonError::kExpectedKey, pos_);
  begin_ = pos_;
  if (!string()) return JsonToken::kError;
  state_ = State::kColon;
  return JsonToken::kKey;
}

JsonToken JsonScanner::after_value() {
  skip_ws();
  if (stack_.empty()) {
    if (pos_ < s_.size()) return fail(JsonError::kTrailingData, pos_);
    state_ = State::kDone;
    begin_ = end_ = pos_;
    return JsonToken::kEnd;
  }
  bool object = stack_.back() == '{';
  if (pos_ >= s_.size()) {
    return fail(object ? JsonError::kUnexpectedEndInObject : JsonError::kUnexpectedEndInArray, pos_);
  }
  char c = s_[pos_];
  if (c == ',') {
    ++pos_;
    skip_ws();
    return object ? key() : value();
  }
  if (c == (object ? '}' : ']')) return close(object ? JsonToken::kEndObject : JsonToken::kEndArray);
  return fail(object ? JsonError::kExpectedCommaOrBrace : JsonError::kExpectedCommaOrBracket, pos_);
}

JsonToken JsonScanner::open(char bracket, JsonToken token, State state) {
  if (stack_.size() >= static_cast<std::size_t>(options_.max_depth)) {
    return fail(JsonError::kTooDeep, pos_);
  }
  stack_.push_back(bracket);
  end_ = ++pos_;
  state_ = state;
  return token;
}

JsonToken JsonScanner::close(JsonToken token) {
  stack_.pop_back();
  begin_ = pos_;
  end_ = ++pos_;
  state_ = State::kAfterValue;
  return token;
}

JsonToken JsonScanner::literal(std::string_view word, JsonToken token) {
  if (s_.substr(pos_, word.size()) != word) return fail(JsonError::kInvalidLiteral, pos_);
  end_ = pos_ += word.size();
  state_ = State::kAfterValue;
  return token;
}

// The greedy run of number bytes must be one number: "01" and "1-2" fail here, at their start.
JsonToken JsonScanner::number() {
  std::size_t start = pos_;
  while (pos_ < s_.size() && is_number_byte(s_[pos_])) ++pos_;
  text_ = s_.substr(start, pos_ - start);
  if (!is_json_number(text_)) return fail(JsonError::kInvalidNumber, start);
  end_ = pos_;
  state_ = State::kAfterValue;
  return JsonToken::kNumber;
}

// Cursor on the opening quote; sets text_ and end_.
bool JsonScanner::string() {
  std::size_t body = ++pos_;
  pos_ = plain_run_end(s_, pos_);
  if (pos_ < s_.size() && s_[pos_] == '"') {
    text_ = s_.substr(body, pos_ - body);
    end_ = ++pos_;
    return true;
  }
  escaped_ = true;
  buffer_.assign(s_.data() + body, options_.decode_strings ? pos_ - body : 0);
  while (true) {
    if (pos_ >= s_.size()) return broken(JsonError::kUnterminatedString, pos_);
    char c = s_[pos_];
    if (c == '"') break;
    if (c != '\\') return broken(JsonError::kControlCharacter, pos_);
    if (!escape()) return false;
    std::size_t run = plain_run_end(s_, pos_);
    if (options_.decode_strings) buffer_.append(s_.data() + pos_, run - pos_);
    pos_ = run;
  }
  text_ = options_.decode_strings ? std::string_view(buffer_) : s_.substr(body, pos_ - body);
  end_ = ++pos_;
  return true;
}

// Cursor on a backslash inside a string.
bool JsonScanner::escape() {
  std::size_t at = pos_;
  if (pos_ + 1 >= s_.size()) return broken(JsonError::kUnterminatedString, at);
  char e = s_[pos_ + 1];
  pos_ += 2;
  char plain;
  switch (e) {
    case '"': plain = '"'; break;
    case '\\': plain = '\\'; break;
    case '/': plain = '/'; break;
    case 'b': plain = '\b'; break;
    case 'f': plain = '\f'; break;
    case 'n': plain = '\n'; break;
    case 'r': plain = '\r'; break;
    case 't': plain = '\t'; break;
    case 'u': return unicode_escape();
    default: return broken(JsonError::kInvalidEscape, at);
  }
  if (options_.decode_strings) buffer_.push_back(plain);
  return true;
}

// Cursor after "\u". A high surrogate pairs with a following \uDC00–\uDFFF escape; a lone
// half is U+FFFD, or an error when options_.reject_lone_surrogates (TOON cannot carry it).
bool JsonScanner::unicode_escape() {
  std::uint32_t cp = 0;
  if (!hex4(&cp)) return broken(JsonError::kInvalidUnicodeEscape, pos_);
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    std::size_t save = pos_;
    std::uint32_t lo = 0;
    if (s_.substr(pos_, 2) == "\\u" && (pos_ += 2, hex4(&lo)) && lo >= 0xDC00 && lo <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else {
      if (options_.reject_lone_surrogates) return broken(JsonError::kLoneSurrogate, pos_);
      pos_ = save;
      cp = text::kReplacementChar;
    }
  } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
    if (options_.reject_lone_surrogates) return broken(JsonError::kLoneSurrogate, pos_);
    cp = text::kReplacementChar;
  }
  if (options_.decode_strings) text::append_utf8(buffer_, cp);
  return true;
}

// Four hex digits at the cursor; the cursor moves past them only on success.
bool JsonScanner::hex4(std::uint32_t* cp) {
  if (pos_ + 4 > s_.size()) return false;
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    char c = s_[pos_ + i];
    v <<= 4;
    if (base::is_ascii_digit(c)) {
      v |= static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= static_cast<std::uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v |= static_cast<std::uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
  }
  pos_ += 4;
  *cp = v;
  return true;
}

}  // namespace caveman::base
