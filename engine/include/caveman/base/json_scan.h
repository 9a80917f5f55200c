// caveman/base/json_scan.h — the one JSON tokenizer every JSON reader builds on (docs/base.md).
//
// A pull scanner over strict RFC 8259 text that reports each token with its byte range, so
// callers can build a DOM (json::parse), a span table (the proxy's request documents, which
// splice bytes in place) or their own documents (TOON) from one grammar. Iterative: nesting
// costs one byte of state per level and is capped, so hostile input cannot exhaust the stack.
// Strings are decoded (escapes, surrogate pairs); a token's text is a view into the input when
// the string has no escapes, else into the scanner's buffer until the next call.
#ifndef CAVEMAN_BASE_JSON_SCAN_H_
#define CAVEMAN_BASE_JSON_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace caveman::base {

enum class JsonToken : std::uint8_t {
  kBeginObject,
  kEndObject,
  kBeginArray,
  kEndArray,
  kKey,  // a member name; its value follows
  kString,
  kNumber,
  kTrue,
  kFalse,
  kNull,
  kEnd,    // the one value and trailing white space are consumed
  kError,  // see error() and error_offset(); every later call returns kError again
};

enum class JsonError : std::uint8_t {
  kNone,
  kEmpty,
  kUnexpectedEnd,
  kUnexpectedEndInObject,
  kUnexpectedEndInArray,
  kUnexpectedCharacter,
  kInvalidLiteral,
  kInvalidNumber,
  kExpectedKey,
  kExpectedColon,
  kExpectedCommaOrBrace,
  kExpectedCommaOrBracket,
  kUnterminatedString,
  kControlCharacter,
  kInvalidUnicodeEscape,
  kInvalidEscape,
  kLoneSurrogate,
  kTooDeep,
  kTrailingData,
};

// A short English reason ("unexpected end of input", "expected ':' after the key", …).
std::string_view json_error_text(JsonError error);

struct JsonScanOptions {
  int max_depth = 512;                  // nested containers allowed; one more is kTooDeep
  bool decode_strings = true;           // false: escapes are checked, text() is the raw body
  bool reject_lone_surrogates = false;  // true: kLoneSurrogate; false: decoded as U+FFFD
};

class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text, JsonScanOptions options = {});

  JsonToken next();

  // The last token: its bytes [begin, end) (quotes and brackets included), its text (decoded
  // string or key, number literal) and whether that text came from escapes.
  std::size_t begin() const { return begin_; }
  std::size_t end() const { return end_; }
  std::string_view text() const { return text_; }
  bool escaped() const { return escaped_; }
  // Containers open after the last token.
  std::size_t depth() const { return stack_.size(); }

  JsonError error() const { return error_; }
  // The byte the error is reported at (the input's size when it ended too soon).
  std::size_t error_offset() const { return error_offset_; }

 private:
  enum class State : std::uint8_t {
    kStart, kValue, kObjectFirst, kArrayFirst, kKey, kColon, kAfterValue, kDone, kFailed
  };

  JsonToken value();
  JsonToken key();
  JsonToken after_value();
  JsonToken open(char bracket, JsonToken token, State state);
  JsonToken close(JsonToken token);
  JsonToken literal(std::string_view word, JsonToken token);
  JsonToken number();
  bool string();
  bool escape();
  bool unicode_escape();
  bool hex4(std::uint32_t* cp);
  void skip_ws();
  JsonToken fail(JsonError error, std::size_t at);
  bool broken(JsonError error, std::size_t at);  // fail() inside a string

  std::string_view s_;
  JsonScanOptions options_;
  std::size_t pos_ = 0;
  State state_ = State::kStart;
  std::string stack_;   // '{' or '[' per open container
  std::string buffer_;  // decoded text of an escaped string
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::string_view text_;
  bool escaped_ = false;
  JsonError error_ = JsonError::kNone;
  std::size_t error_offset_ = 0;
};

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_JSON_SCAN_H_
