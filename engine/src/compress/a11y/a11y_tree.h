// The accessibility outline model behind the a11y compressor (docs/spec/compressors.md#a11y):
// Chrome DevTools `Accessibility.getFullAXTree` nodes → a flat, pre-order list of records (one per
// meaningful node, with depth, display role, text and states). Ignored and decorative nodes
// are transparent; text that repeats its control's name is pruned; adjacent text fragments
// of one parent are merged into one line, as a reader sees them. Pure; thread-safe.
#ifndef CAVEMAN_COMPRESS_A11Y_A11Y_TREE_H_
#define CAVEMAN_COMPRESS_A11Y_A11Y_TREE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::a11y {

struct States {
  std::optional<bool> disabled, checked, expanded, selected, focused, editable;
  bool any() const {
    return disabled || checked || expanded || selected || focused || editable;
  }
  // Labels in the fixed order: disabled, checked/unchecked, expanded/collapsed, selected,
  // focused, editable (false disabled/selected/focused/editable are omitted).
  std::vector<std::string_view> labels() const;
};

struct AxNode {
  std::string node_id;
  bool ignored = false;
  std::string role;      // CDP role value, e.g. "RootWebArea", "button"
  std::string raw_name;  // name.value as given (text fragments keep their spaces)
  std::string name;      // normalized: whitespace collapsed and trimmed
  std::string value;     // normalized
  States states;
  bool focusable_or_clickable = false;
  std::vector<std::string> child_ids;
  std::int64_t backend_id = 0;  // backendDOMNodeId, 0 when absent
  std::string frame_id;
  int level = 0;  // the "level" property (heading level), 0 when absent
};

struct Record {
  int parent = -1;   // record index
  int node = -1;     // AxNode index
  int depth = 0;
  std::string role;  // display role: "page", "text", "label", or the lowercased role
  std::string name;
  std::string value;
  States states;
  std::string uid;   // "u" + base-36 backend id (+ "_2"…), empty when not actionable
  bool is_text = false;
  int level = 0;                 // heading level, 0 for other roles
  std::int64_t backend_id = 0;   // of its node, 0 when absent (text split from one node shares it)
  std::vector<int> children;
};

// Parses a getFullAXTree result (the object with "nodes", or the bare array). nullopt on
// malformed JSON, an empty node list, a missing nodeId, a non-ignored node without role, or
// no non-ignored node at all. A repeated nodeId keeps its first entry: Chrome lists some
// InlineTextBox nodes twice (identically) on large pages.
std::optional<std::vector<AxNode>> parse_ax_nodes(std::string_view json);

// Walks the nodes from their roots (nodes no one lists as a child, in input order; then
// any node not reached) and returns the records in document order.
std::vector<Record> build_records(const std::vector<AxNode>& nodes);

// Marks `root` and every record below it in `marks` (sized like `records`).
void mark_subtree(const std::vector<Record>& records, int root, std::vector<bool>& marks);

// Whitespace runs → one space, trimmed.
std::string collapse_whitespace(std::string_view s);

}  // namespace caveman::compress::a11y

#endif  // CAVEMAN_COMPRESS_A11Y_A11Y_TREE_H_
