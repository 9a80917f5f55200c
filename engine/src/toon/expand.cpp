#include "toon/expand.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "toon/decoder.h"
#include "toon/strings.h"

namespace caveman::toon {
namespace {

struct Member;

// A mutable value. Objects keep members in order plus, once large, a key → position index
// used only for lookups (output always walks `members`).
struct Value {
  NodeKind kind = NodeKind::kNull;
  std::string_view text;
  std::uint32_t line = 0;
  std::vector<Value> items;
  std::vector<Member> members;
  std::unordered_map<std::string_view, std::size_t> index;

  bool is_object() const { return kind == NodeKind::kObject; }
  std::size_t find(std::string_view key) const;
  void add(std::string_view key, bool quoted, Value v);
};

struct Member {
  std::string_view key;
  bool quoted = false;
  Value value;
};

constexpr std::size_t kIndexAbove = 16;
constexpr std::size_t kMissing = static_cast<std::size_t>(-1);

std::size_t Value::find(std::string_view key) const {
  if (members.size() > kIndexAbove) {
    auto it = index.find(key);
    return it == index.end() ? kMissing : it->second;
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i].key == key) return i;
  }
  return kMissing;
}

void Value::add(std::string_view key, bool quoted, Value v) {
  members.push_back(Member{key, quoted, std::move(v)});
  if (members.size() > kIndexAbove) {
    if (index.empty()) {
      for (std::size_t i = 0; i < members.size(); ++i) index.emplace(members[i].key, i);
    } else {
      index.emplace(key, members.size() - 1);
    }
  }
}

// Containers on the longest path down from `v` (0 for a primitive).
int height(const Value& v) {
  int h = 0;
  for (const Value& item : v.items) h = std::max(h, height(item));
  for (const Member& m : v.members) h = std::max(h, height(m.value));
  return v.kind == NodeKind::kArray || v.kind == NodeKind::kObject ? h + 1 : 0;
}

// Document subtree → Value, applying last-write-wins to repeated keys.
Value build(const Document& doc, std::uint32_t i) {
  const Node& n = doc.nodes[i];
  Value v;
  v.kind = n.kind;
  v.text = n.text;
  v.line = n.line;
  for (std::uint32_t c = i + 1; c < n.end; c = doc.nodes[c].end) {
    if (n.kind == NodeKind::kArray) {
      v.items.push_back(build(doc, c));
      continue;
    }
    const Node& m = doc.nodes[c];
    std::size_t at = v.find(m.key);
    if (at == kMissing) {
      v.add(m.key, m.key_quoted, build(doc, c));
    } else {
      v.members[at].quoted = m.key_quoted;
      v.members[at].value = build(doc, c);
    }
  }
  return v;
}

std::string_view kind_name(const Value& v) {
  switch (v.kind) {
    case NodeKind::kObject:
      return "object";
    case NodeKind::kArray:
      return "array";
    default:
      return "primitive";
  }
}

class Expander {
 public:
  explicit Expander(bool strict) : strict_(strict) {}
  const Status& error() const { return error_; }

  // Expands every object below and including `v`, which sits at nesting `depth` (1 = root).
  bool expand(Value& v, int depth) {
    for (Value& item : v.items) {
      if (!expand(item, depth + 1)) return false;
    }
    if (!v.is_object()) return true;
    std::vector<Member> members = std::move(v.members);
    v.members.clear();
    v.index.clear();
    for (Member& m : members) {
      if (!expand(m.value, depth + 1)) return false;
      std::vector<std::string_view> segments;
      if (!m.quoted && m.key.find('.') != std::string_view::npos) split_path(m.key, segments);
      if (segments.size() > 1) {
        if (depth + static_cast<int>(segments.size()) - 1 + height(m.value) > kMaxNesting) {
          return fail(m.value, "path expansion of \"" + std::string(m.key) +
                                   "\" nests deeper than 512 levels");
        }
        if (!insert_path(v, segments, std::move(m.value))) return false;
        continue;
      }
      if (!put(v, m.key, std::move(m.value))) return false;
    }
    return true;
  }

 private:
  bool fail(const Value& at, const std::string& reason) {
    error_ = toon_error(at.line, reason);
    return false;
  }

  bool conflict(const Value& existing, const Value& incoming, std::string_view key) {
    return fail(incoming, "path expansion conflict at \"" + std::string(key) + "\" (" +
                              std::string(kind_name(existing)) + " vs " +
                              std::string(kind_name(incoming)) + ")");
  }

  // Sets `key` in `target`: new keys append, object+object deep-merges, anything else is a
  // conflict (strict) or an in-place overwrite (last write wins).
  bool put(Value& target, std::string_view key, Value v) {
    std::size_t at = target.find(key);
    if (at == kMissing) {
      target.add(key, false, std::move(v));
      return true;
    }
    Value& existing = target.members[at].value;
    if (existing.is_object() && v.is_object()) return merge(existing, std::move(v));
    if (strict_) return conflict(existing, v, key);
    existing = std::move(v);
    return true;
  }

  bool merge(Value& target, Value source) {
    for (Member& m : source.members) {
      if (!put(target, m.key, std::move(m.value))) return false;
    }
    return true;
  }

  bool insert_path(Value& root, const std::vector<std::string_view>& segments, Value v) {
    Value* cur = &root;
    for (std::size_t s = 0; s + 1 < segments.size(); ++s) {
      std::size_t at = cur->find(segments[s]);
      if (at == kMissing) {
        Value obj;
        obj.kind = NodeKind::kObject;
        obj.line = v.line;
        cur->add(segments[s], false, std::move(obj));
        cur = &cur->members.back().value;
        continue;
      }
      Value& next = cur->members[at].value;
      if (!next.is_object()) {
        Value obj;
        obj.kind = NodeKind::kObject;
        obj.line = v.line;
        if (strict_) return conflict(next, obj, segments[s]);
        next = std::move(obj);
      }
      cur = &next;
    }
    return put(*cur, segments.back(), std::move(v));
  }

  // Splits an unquoted dotted key; leaves `out` empty unless every segment is an
  // IdentifierSegment.
  static void split_path(std::string_view key, std::vector<std::string_view>& out) {
    std::size_t start = 0;
    while (true) {
      std::size_t dot = key.find('.', start);
      std::string_view seg = key.substr(start, dot == std::string_view::npos ? dot : dot - start);
      if (!is_identifier_segment(seg)) {
        out.clear();
        return;
      }
      out.push_back(seg);
      if (dot == std::string_view::npos) return;
      start = dot + 1;
    }
  }

  bool strict_;
  Status error_;
};

void flatten(const Value& v, std::string_view key, Document& out) {
  auto index = static_cast<std::uint32_t>(out.nodes.size());
  Node n;
  n.kind = v.kind;
  n.key = key;
  n.text = v.text;
  n.line = v.line;
  out.nodes.push_back(n);
  for (const Value& item : v.items) flatten(item, {}, out);
  for (const Member& m : v.members) flatten(m.value, m.key, out);
  Node& done = out.nodes[index];
  done.size =
      static_cast<std::uint32_t>(v.kind == NodeKind::kArray ? v.items.size() : v.members.size());
  done.end = static_cast<std::uint32_t>(out.nodes.size());
}

}  // namespace

Status postprocess(Document& doc, bool strict, bool expand_paths) {
  Value root = build(doc, 0);
  if (expand_paths) {
    Expander expander(strict);
    if (!expander.expand(root, 1)) return expander.error();
  }
  Document out;
  out.arena = std::move(doc.arena);  // keeps the views into decoded strings valid
  out.nodes.reserve(doc.nodes.size());
  flatten(root, {}, out);
  doc = std::move(out);
  return Status::Ok();
}

}  // namespace caveman::toon
