#include "toon/document.h"

#include <cstring>

#include "json/json.h"

namespace caveman::toon {

std::string_view Arena::copy(std::string_view s) {
  if (s.empty()) return {};
  if (s.size() > left_) {
    if (s.size() > kBlockSize / 4) {
      // Large strings get a block of their own so the current block keeps its free space.
      blocks_.push_back(std::make_unique<char[]>(s.size()));
      std::memcpy(blocks_.back().get(), s.data(), s.size());
      return {blocks_.back().get(), s.size()};
    }
    blocks_.push_back(std::make_unique<char[]>(kBlockSize));
    cursor_ = blocks_.back().get();
    left_ = kBlockSize;
  }
  char* at = cursor_;
  std::memcpy(at, s.data(), s.size());
  cursor_ += s.size();
  left_ -= s.size();
  return {at, s.size()};
}

void write_json(const Document& doc, std::uint32_t index, std::string& out) {
  const Node& n = doc.nodes[index];
  switch (n.kind) {
    case NodeKind::kNull:
      out += "null";
      return;
    case NodeKind::kFalse:
      out += "false";
      return;
    case NodeKind::kTrue:
      out += "true";
      return;
    case NodeKind::kNumber:
      out += n.text;
      return;
    case NodeKind::kString:
      json::write_string(n.text, out);
      return;
    case NodeKind::kArray:
    case NodeKind::kObject: {
      bool object = n.kind == NodeKind::kObject;
      out.push_back(object ? '{' : '[');
      for (std::uint32_t c = index + 1; c < n.end; c = doc.nodes[c].end) {
        if (c != index + 1) out.push_back(',');
        if (object) {
          json::write_string(doc.nodes[c].key, out);
          out.push_back(':');
        }
        write_json(doc, c, out);
      }
      out.push_back(object ? '}' : ']');
      return;
    }
  }
}

}  // namespace caveman::toon
