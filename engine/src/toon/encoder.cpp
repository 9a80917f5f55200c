// TOON encoder (spec v3.3 §2–§12, §13.4 key folding) over the Document built by read_json().
#include <string>
#include <string_view>
#include <vector>

#include "caveman/toon.h"
#include "toon/document.h"
#include "toon/json_reader.h"
#include "toon/options.h"
#include "toon/strings.h"

namespace caveman::toon {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

// Where a key-value line sits, for safe key folding (§13.4): the dotted keys of the root
// object (a folded path must not equal one of them), the dotted path of the enclosing
// object, and how many segments a fold may still take.
struct FoldContext {
  const std::vector<std::string_view>* root_dotted_keys = nullptr;
  std::string path;
  int flatten_depth = kUnlimitedFlattenDepth;
};

class Encoder {
 public:
  Encoder(const Document& doc, const EncodeOptions& options, std::string& out)
      : n_(doc.nodes),
        delim_(options.delimiter),
        indent_(static_cast<std::size_t>(options.indent)),
        fold_(options.key_folding == KeyFolding::kSafe),
        flatten_depth_(options.flatten_depth),
        out_(out) {}

  void encode_root() {
    const Node& root = n_[0];
    if (root.is_primitive()) {
      primitive(root);
      return;
    }
    if (root.kind == NodeKind::kArray) {
      array(nullptr, 0, 0);
      return;
    }
    std::vector<std::string_view> root_dotted;
    for (std::uint32_t c = 1; c < root.end; c = n_[c].end) {
      if (n_[c].key.find('.') != std::string_view::npos) root_dotted.push_back(n_[c].key);
    }
    FoldContext ctx;
    ctx.root_dotted_keys = &root_dotted;
    ctx.flatten_depth = flatten_depth_;
    object_fields(0, 0, ctx, kNone);
  }

 private:
  void begin_line(std::size_t depth) {
    if (!first_line_) out_.push_back('\n');
    first_line_ = false;
    out_.append(depth * indent_, ' ');
  }
  void begin_list_item(std::size_t depth) {
    begin_line(depth);
    out_ += "- ";
  }

  void primitive(const Node& n) {
    switch (n.kind) {
      case NodeKind::kNull:
        out_ += "null";
        return;
      case NodeKind::kFalse:
        out_ += "false";
        return;
      case NodeKind::kTrue:
        out_ += "true";
        return;
      case NodeKind::kNumber:
        out_ += n.text;
        return;
      case NodeKind::kString:
        append_string_value(out_, n.text, delim_);
        return;
      default:
        return;
    }
  }

  bool all_primitive(std::uint32_t arr) const {
    for (std::uint32_t c = arr + 1; c < n_[arr].end; c = n_[c].end) {
      if (!n_[c].is_primitive()) return false;
    }
    return true;
  }
  bool all_primitive_arrays(std::uint32_t arr) const {
    for (std::uint32_t c = arr + 1; c < n_[arr].end; c = n_[c].end) {
      if (n_[c].kind != NodeKind::kArray || !all_primitive(c)) return false;
    }
    return true;
  }

  // Member of `row` named `key`; `hint` is its expected position (rows hold only primitives
  // when this is called, so child j is node row + 1 + j).
  std::uint32_t member_of_flat_row(std::uint32_t row, std::string_view key,
                                   std::uint32_t hint) const {
    if (hint < n_[row].size && n_[row + 1 + hint].key == key) return row + 1 + hint;
    for (std::uint32_t c = row + 1; c < n_[row].end; ++c) {
      if (n_[c].key == key) return c;
    }
    return kNone;
  }

  // §9.3: every element a non-empty object with the first element's key set and only
  // primitive values. Keys are unique per object, so equal size + containment = same set.
  bool is_tabular(std::uint32_t arr) const {
    if (n_[arr].size == 0) return false;
    std::uint32_t first = arr + 1;
    if (n_[first].kind != NodeKind::kObject || n_[first].size == 0) return false;
    std::uint32_t width = n_[first].size;
    for (std::uint32_t row = first; row < n_[arr].end; row = n_[row].end) {
      const Node& r = n_[row];
      if (r.kind != NodeKind::kObject || r.size != width) return false;
      for (std::uint32_t c = row + 1; c < r.end; c = n_[c].end) {
        if (!n_[c].is_primitive()) return false;
      }
      if (row == first) continue;
      for (std::uint32_t j = 0; j < width; ++j) {
        if (member_of_flat_row(row, n_[first + 1 + j].key, j) == kNone) return false;
      }
    }
    return true;
  }

  // key[N<delim>]{fields}: — `key` may be null (root or list item); `fields_row` is the
  // first row of a tabular array or kNone.
  void header(const std::string_view* key, std::uint32_t length, std::uint32_t fields_row) {
    if (key != nullptr) append_key(out_, *key);
    out_.push_back('[');
    out_ += std::to_string(length);
    if (delim_ != ',') out_.push_back(delim_);
    out_.push_back(']');
    if (fields_row != kNone) {
      out_.push_back('{');
      for (std::uint32_t j = 0; j < n_[fields_row].size; ++j) {
        if (j > 0) out_.push_back(delim_);
        append_key(out_, n_[fields_row + 1 + j].key);
      }
      out_.push_back('}');
    }
    out_.push_back(':');
  }

  void inline_array(const std::string_view* key, std::uint32_t arr) {
    header(key, n_[arr].size, kNone);
    bool first = true;
    for (std::uint32_t c = arr + 1; c < n_[arr].end; c = n_[c].end) {
      out_.push_back(first ? ' ' : delim_);
      first = false;
      primitive(n_[c]);
    }
  }

  void rows(std::uint32_t arr, std::size_t depth) {
    std::uint32_t first = arr + 1;
    std::uint32_t width = n_[first].size;
    for (std::uint32_t row = first; row < n_[arr].end; row = n_[row].end) {
      begin_line(depth);
      for (std::uint32_t j = 0; j < width; ++j) {
        if (j > 0) out_.push_back(delim_);
        primitive(n_[member_of_flat_row(row, n_[first + 1 + j].key, j)]);
      }
    }
  }

  // An array in field or root position (§9.1–§9.4).
  void array(const std::string_view* key, std::uint32_t arr, std::size_t depth) {
    const Node& a = n_[arr];
    begin_line(depth);
    if (a.size == 0) {
      if (key != nullptr) {
        append_key(out_, *key);
        out_ += ": []";
      } else {
        out_ += "[]";
      }
      return;
    }
    if (all_primitive(arr)) {
      inline_array(key, arr);
      return;
    }
    if (all_primitive_arrays(arr)) {
      header(key, a.size, kNone);
      for (std::uint32_t c = arr + 1; c < a.end; c = n_[c].end) {
        begin_list_item(depth + 1);
        inline_array(nullptr, c);
      }
      return;
    }
    if (is_tabular(arr)) {
      header(key, a.size, arr + 1);
      rows(arr, depth + 1);
      return;
    }
    header(key, a.size, kNone);
    for (std::uint32_t c = arr + 1; c < a.end; c = n_[c].end) list_item(c, depth + 1);
  }

  void list_item(std::uint32_t i, std::size_t depth) {
    const Node& n = n_[i];
    if (n.is_primitive()) {
      begin_list_item(depth);
      primitive(n);
    } else if (n.kind == NodeKind::kArray) {
      begin_list_item(depth);
      if (all_primitive(i)) {
        inline_array(nullptr, i);
        return;
      }
      // §9.4: no tabular form here (no room for a field list); nested list items instead.
      header(nullptr, n.size, kNone);
      for (std::uint32_t c = i + 1; c < n.end; c = n_[c].end) list_item(c, depth + 1);
    } else {
      object_list_item(i, depth);
    }
  }

  // §10: the first field shares the hyphen line; the other fields follow at depth + 1.
  void object_list_item(std::uint32_t obj, std::size_t depth) {
    const Node& o = n_[obj];
    if (o.size == 0) {
      begin_line(depth);
      out_.push_back('-');
      return;
    }
    std::uint32_t first = obj + 1;
    const Node& f = n_[first];
    begin_list_item(depth);
    if (f.is_primitive()) {
      append_key(out_, f.key);
      out_ += ": ";
      primitive(f);
    } else if (f.kind == NodeKind::kArray) {
      if (f.size == 0) {
        append_key(out_, f.key);
        out_ += ": []";
      } else if (all_primitive(first)) {
        inline_array(&f.key, first);
      } else if (is_tabular(first)) {
        header(&f.key, f.size, first + 1);
        rows(first, depth + 2);
      } else {
        header(&f.key, f.size, kNone);
        for (std::uint32_t c = first + 1; c < f.end; c = n_[c].end) list_item(c, depth + 2);
      }
    } else {
      append_key(out_, f.key);
      out_.push_back(':');
      if (f.size > 0) {
        FoldContext nested;
        nested.flatten_depth = flatten_depth_;
        object_fields(first, depth + 2, nested, kNone);
      }
    }
    FoldContext rest;
    rest.flatten_depth = flatten_depth_;
    object_fields(obj, depth + 1, rest, f.end);
  }

  // Fields of object `obj` at `depth`, starting at child `from` (kNone = the first child).
  void object_fields(std::uint32_t obj, std::size_t depth, const FoldContext& ctx,
                     std::uint32_t from) {
    const Node& o = n_[obj];
    std::vector<std::string_view> dotted_siblings;
    if (fold_) {
      for (std::uint32_t c = obj + 1; c < o.end; c = n_[c].end) {
        if (n_[c].key.find('.') != std::string_view::npos) dotted_siblings.push_back(n_[c].key);
      }
    }
    for (std::uint32_t c = from == kNone ? obj + 1 : from; c < o.end; c = n_[c].end) {
      key_value(c, depth, ctx, dotted_siblings);
    }
  }

  struct Fold {
    std::string key;
    std::uint32_t leaf = kNone;  // value at the end of the folded chain
    bool remainder = false;      // leaf is a non-empty object emitted nested
    int segments = 0;
  };

  // §13.4 safe folding of the single-key chain starting at member `c`.
  bool try_fold(std::uint32_t c, const FoldContext& ctx,
                const std::vector<std::string_view>& dotted_siblings, Fold& fold) const {
    if (n_[c].kind != NodeKind::kObject) return false;
    int segments = 1;
    std::uint32_t cur = c;
    while (segments < ctx.flatten_depth && n_[cur].kind == NodeKind::kObject && n_[cur].size == 1) {
      cur = cur + 1;
      ++segments;
    }
    if (segments < 2) return false;
    fold.key.clear();
    for (std::uint32_t k = c;; ++k) {
      if (!is_identifier_segment(n_[k].key)) return false;
      fold.key += n_[k].key;
      if (k == cur) break;
      fold.key.push_back('.');
    }
    // A folded key always holds a dot, so only dotted literal keys can collide with it.
    for (std::string_view sibling : dotted_siblings) {
      if (sibling == fold.key) return false;
    }
    if (ctx.root_dotted_keys != nullptr && !ctx.root_dotted_keys->empty()) {
      std::string absolute = ctx.path.empty() ? fold.key : ctx.path + "." + fold.key;
      for (std::string_view k : *ctx.root_dotted_keys) {
        if (k == absolute) return false;
      }
    }
    fold.leaf = cur;
    fold.remainder = n_[cur].kind == NodeKind::kObject && n_[cur].size > 0;
    fold.segments = segments;
    return true;
  }

  void key_value(std::uint32_t c, std::size_t depth, const FoldContext& ctx,
                 const std::vector<std::string_view>& dotted_siblings) {
    const Node& n = n_[c];
    if (fold_) {
      Fold fold;
      if (try_fold(c, ctx, dotted_siblings, fold)) {
        const Node& leaf = n_[fold.leaf];
        std::string_view key = fold.key;
        if (leaf.kind == NodeKind::kArray) {
          array(&key, fold.leaf, depth);
          return;
        }
        begin_line(depth);
        append_key(out_, key);
        if (leaf.is_primitive()) {
          out_ += ": ";
          primitive(leaf);
          return;
        }
        out_.push_back(':');
        if (fold.remainder) {
          FoldContext nested;
          nested.root_dotted_keys = ctx.root_dotted_keys;
          if (has_root_keys(ctx)) nested.path = join(ctx.path, fold.key);
          nested.flatten_depth = ctx.flatten_depth - fold.segments;
          object_fields(fold.leaf, depth + 1, nested, kNone);
        }
        return;
      }
    }
    if (n.kind == NodeKind::kArray) {
      array(&n.key, c, depth);
      return;
    }
    begin_line(depth);
    append_key(out_, n.key);
    if (n.is_primitive()) {
      out_ += ": ";
      primitive(n);
      return;
    }
    out_.push_back(':');
    if (n.size > 0) {
      FoldContext nested;
      nested.root_dotted_keys = ctx.root_dotted_keys;
      if (fold_ && has_root_keys(ctx)) nested.path = join(ctx.path, n.key);
      nested.flatten_depth = ctx.flatten_depth;
      object_fields(c, depth + 1, nested, kNone);
    }
  }

  static bool has_root_keys(const FoldContext& ctx) {
    return ctx.root_dotted_keys != nullptr && !ctx.root_dotted_keys->empty();
  }
  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  const std::vector<Node>& n_;
  char delim_;
  std::size_t indent_;
  bool fold_;
  int flatten_depth_;
  std::string& out_;
  bool first_line_ = true;
};

}  // namespace

Result<std::string> toon_encode(std::string_view json, const EncodeOptions& options) {
  CAVEMAN_RETURN_IF_ERROR(validate(options));
  Document doc;
  CAVEMAN_RETURN_IF_ERROR(read_json(json, doc));
  std::string out;
  out.reserve(json.size());
  Encoder(doc, options, out).encode_root();
  return out;
}

}  // namespace caveman::toon
