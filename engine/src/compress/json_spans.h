// A JSON syntax tree that records byte ranges instead of building values, for edits that
// must leave every other input byte untouched (toolschema-annotations deletes members in
// place). Parsing is strict JSON; nesting deeper than max_depth fails. Pure; thread-safe.
#ifndef CAVEMAN_COMPRESS_JSON_SPANS_H_
#define CAVEMAN_COMPRESS_JSON_SPANS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"

namespace caveman::compress::json_spans {

struct Member;

struct Node {
  json::Kind kind = json::Kind::kNull;
  std::size_t begin = 0;  // first byte of the value
  std::size_t end = 0;    // one past its last byte ('}' / ']' included)
  std::vector<Member> members;  // kObject, in input order
  std::vector<Node> items;      // kArray
};

struct Member {
  std::string key;            // decoded
  std::size_t key_begin = 0;  // the opening quote of the key
  Node value;
};

// Exactly one JSON value with optional surrounding whitespace; nullopt otherwise.
std::optional<Node> parse(std::string_view text, int max_depth = 512);

// `text` without the given byte ranges [first, second). Ranges may overlap or touch.
std::string erase_ranges(std::string_view text,
                         std::vector<std::pair<std::size_t, std::size_t>> ranges);

}  // namespace caveman::compress::json_spans

#endif  // CAVEMAN_COMPRESS_JSON_SPANS_H_
