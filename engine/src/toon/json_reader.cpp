#include "toon/json_reader.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "caveman/base/codes.h"
#include "caveman/base/json_scan.h"
#include "caveman/base/text.h"
#include "text/utf8.h"
#include "toon/key_set.h"
#include "toon/number.h"

namespace caveman::toon {
namespace {

using base::JsonError;
using base::JsonToken;

std::string_view reason(JsonError e) {
  if (e == JsonError::kTooDeep) return "nesting deeper than 512 levels";
  if (e == JsonError::kLoneSurrogate) return "lone UTF-16 surrogate escape (TOON cannot represent it)";
  return base::json_error_text(e);
}

// Builds the flat node list from base::JsonScanner's tokens (docs/base.md); only the TOON
// rules (unique keys, canonical numbers, no lone surrogates) are checked here.
class JsonReader {
 public:
  JsonReader(std::string_view s, Document& doc)
      : s_(s), doc_(doc), sc_(s, {.max_depth = kMaxNesting, .reject_lone_surrogates = true}) {}

  Status run() {
    if (std::size_t bad = base::find_invalid_utf8(s_); bad != std::string_view::npos) {
      return fail(bad, "invalid UTF-8");
    }
    doc_.nodes.clear();
    doc_.nodes.reserve(s_.size() / 12 + 1);
    while (true) {
      JsonToken t = sc_.next();
      switch (t) {
        case JsonToken::kEnd: return Status::Ok();
        case JsonToken::kError: return fail(sc_.error_offset(), reason(sc_.error()));
        case JsonToken::kKey:
          key_ = stable_text();
          if (!keys_at(open_.size() - 1).insert(key_)) {
            return fail(sc_.begin(), "duplicate key (TOON objects need unique keys)");
          }
          continue;
        case JsonToken::kEndObject:
        case JsonToken::kEndArray: close(); continue;
        case JsonToken::kBeginObject:
        case JsonToken::kBeginArray: open(t == JsonToken::kBeginObject); break;
        case JsonToken::kString: push(NodeKind::kString, stable_text()); break;
        case JsonToken::kNumber:
          if (!number()) return fail(sc_.begin(), number_error_);
          break;
        case JsonToken::kTrue: push(NodeKind::kTrue); break;
        case JsonToken::kFalse: push(NodeKind::kFalse); break;
        case JsonToken::kNull: push(NodeKind::kNull); break;
      }
      key_ = {};
    }
  }

 private:
  Status fail(std::size_t at, std::string_view reason) const {
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < at; ++i) {
      if (s_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    std::size_t column = text::rune_count(s_.substr(line_start, at - line_start)) + 1;
    return Status::InvalidArgument(codes::kInvalidJson, "line " + std::to_string(line) +
                                                            ", column " + std::to_string(column) +
                                                            ": " + std::string(reason));
  }

  // Unescaped strings are views into the input; decoded ones move to the arena.
  std::string_view stable_text() { return sc_.escaped() ? doc_.arena.copy(sc_.text()) : sc_.text(); }

  std::uint32_t push(NodeKind kind, std::string_view text = {}) {
    if (!open_.empty()) ++doc_.nodes[open_.back()].size;
    Node n;
    n.kind = kind;
    n.key = key_;
    n.text = text;
    return doc_.append(n);
  }

  void open(bool object) {
    std::uint32_t index = push(object ? NodeKind::kObject : NodeKind::kArray);
    doc_.nodes[index].size = 0;
    open_.push_back(index);
    if (object) keys_at(open_.size() - 1).clear();
  }

  void close() {
    doc_.nodes[open_.back()].end = static_cast<std::uint32_t>(doc_.nodes.size());
    open_.pop_back();
  }

  // Deque: references stay valid while deeper levels are added.
  KeySet& keys_at(std::size_t depth) {
    while (depth >= key_sets_.size()) key_sets_.emplace_back();
    return key_sets_[depth];
  }

  bool number() {
    std::string_view literal = sc_.text();
    if (is_canonical_number(literal)) {
      push(NodeKind::kNumber, literal);
      return true;
    }
    switch (canonical_number(literal, scratch_)) {
      case NumberForm::kNotNumber:
        number_error_ = "invalid number";
        return false;
      case NumberForm::kOutOfDomain:
        number_error_ = "number exponent out of range (|exponent| > 10^15)";
        return false;
      case NumberForm::kNumber:
        break;
    }
    push(NodeKind::kNumber, doc_.arena.copy(scratch_));
    return true;
  }

  std::string_view s_;
  Document& doc_;
  base::JsonScanner sc_;
  std::vector<std::uint32_t> open_;  // node index of each open container
  std::string_view key_;             // the key of the value that comes next
  std::string scratch_;
  std::string_view number_error_;
  std::deque<KeySet> key_sets_;  // one per depth, reused
};

}  // namespace

Status read_json(std::string_view json, Document& doc) { return JsonReader(json, doc).run(); }

}  // namespace caveman::toon
