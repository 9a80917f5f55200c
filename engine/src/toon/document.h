// The value tree both TOON directions share: a flat preorder array of nodes. A container's
// children follow it; `end` is one past its subtree, so siblings are reached by jumping to
// `end`. Strings and numbers are views, either into the caller's input (which must outlive the
// document) or into the document's arena. One allocation-light pass builds it; nothing mutates
// it afterwards (non-strict LWW and path expansion rebuild a new document, see expand.h).
#ifndef CAVEMAN_TOON_DOCUMENT_H_
#define CAVEMAN_TOON_DOCUMENT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caveman::toon {

// Containers may nest this deep (JSON input and decoded TOON alike), so recursion is bounded.
inline constexpr int kMaxNesting = 512;

enum class NodeKind : std::uint8_t { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };

struct Node {
  std::string_view key;    // member key when the parent is an object
  std::string_view text;   // kNumber: canonical literal; kString: the decoded string
  std::uint32_t end = 0;   // index one past the last node of this subtree
  std::uint32_t size = 0;  // number of children (containers only)
  std::uint32_t line = 0;  // decoder: TOON line the value starts on (for error messages)
  NodeKind kind = NodeKind::kNull;
  bool key_quoted = false;  // decoder: the key was quoted in TOON (never path-expanded)

  bool is_container() const { return kind == NodeKind::kArray || kind == NodeKind::kObject; }
  bool is_primitive() const { return !is_container(); }
};

// Bump allocator for decoded strings: views into it stay valid for the arena's lifetime.
class Arena {
 public:
  Arena() = default;
  Arena(Arena&& other) noexcept { *this = std::move(other); }
  Arena& operator=(Arena&& other) noexcept {
    blocks_ = std::move(other.blocks_);
    cursor_ = other.cursor_;
    left_ = other.left_;
    other.blocks_.clear();
    other.cursor_ = nullptr;
    other.left_ = 0;
    return *this;
  }

  std::string_view copy(std::string_view s);

 private:
  static constexpr std::size_t kBlockSize = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* cursor_ = nullptr;
  std::size_t left_ = 0;
};

struct Document {
  std::vector<Node> nodes;  // nodes[0] is the root once built
  Arena arena;

  const Node& root() const { return nodes[0]; }
  // Index of the first child of container `i` (valid only when nodes[i].size > 0).
  static std::uint32_t first_child(std::uint32_t i) { return i + 1; }
  std::uint32_t next_sibling(std::uint32_t i) const { return nodes[i].end; }
  // Appends `n` with no children yet (end = its own index + 1); returns its index.
  std::uint32_t append(Node n) {
    n.end = static_cast<std::uint32_t>(nodes.size() + 1);
    nodes.push_back(n);
    return n.end - 1;
  }
};

// Compact JSON of the subtree at `index` (members in stored order, numbers as stored).
void write_json(const Document& doc, std::uint32_t index, std::string& out);

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_DOCUMENT_H_
