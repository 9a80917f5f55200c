#include "compress/factor/json_table.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>

#include "compress/factor/expand.h"
#include "text/lines.h"

namespace caveman::compress::factor {
namespace {

constexpr int kMaxTableDepth = 200;       // deeper documents are not tabled
constexpr int kMaxFlattenDepth = 6;       // dotted columns at most this many keys deep
constexpr std::size_t kMinRows = 3;       // smaller containers stay as written
constexpr std::size_t kMinLineRows = 8;   // a JSON-lines run shorter than this stays as written
constexpr std::size_t kMaxColumns = 256;  // wider tables are not worth a header

// A parsed JSON value that remembers its bytes: scalars and keys keep their literal text.
struct Node {
  enum class Kind { kScalar, kArray, kObject };
  Kind kind = Kind::kScalar;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view raw;                // scalar literal
  std::vector<std::string_view> keys;  // object: key literals, quotes included
  std::vector<Node> kids;
  // The span's layout, noted while parsing so the encoder need not rewrite every container
  // at every depth to compare: minified (no white space at all), or JSON.stringify(x, null, 2)
  // at the node's depth (write_pretty below).
  bool minified = true;
  bool pretty = true;
  bool is_object() const { return kind == Kind::kObject; }
};

// `gap` is a line break indented to `level` (two spaces a level).
bool is_break(std::string_view gap, int level) {
  if (gap.size() != 1 + 2 * static_cast<std::size_t>(level) || gap[0] != '\n') return false;
  return gap.find_first_not_of(' ', 1) == std::string_view::npos;
}

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  // The one value `s` holds (surrounding whitespace allowed); nullopt otherwise.
  std::optional<Node> document() {
    skip_ws();
    Node v;
    bool ok = value(v, 0);
    skip_ws();
    if (!ok || i_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  // Skips white space; returns what it skipped.
  std::string_view skip_ws() {
    std::size_t from = i_;
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) {
      ++i_;
    }
    return s_.substr(from, i_ - from);
  }

  bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }

  // Parses the value at i_ into `n` (a fresh node), in place: a node is large, and moving
  // each one out of an optional into its parent was a good part of the parse.
  bool value(Node& n, int depth) {
    if (depth > kMaxTableDepth || i_ >= s_.size()) return false;
    n.begin = i_;
    char c = s_[i_];
    if (c == '[' || c == '{') {
      n.kind = c == '[' ? Node::Kind::kArray : Node::Kind::kObject;
      if (!container(n, c == '[' ? ']' : '}', depth)) return false;
    } else {
      std::size_t e = minified_value_end(s_, i_);
      if (e == std::string_view::npos) return false;
      n.raw = s_.substr(i_, e - i_);
      i_ = e;
    }
    n.end = i_;
    return true;
  }

  // The members of `n` from its opening bracket through `close`, and its layout.
  bool container(Node& n, char close, int depth) {
    ++i_;
    std::string_view gap = skip_ws();
    if (at(close)) {
      ++i_;
      n.minified = n.pretty = gap.empty();
      return true;
    }
    bool min = gap.empty(), pretty = is_break(gap, depth + 1);
    while (true) {
      if (n.is_object()) {
        std::size_t e = minified_value_end(s_, i_);
        if (!at('"') || e == std::string_view::npos) return false;
        n.keys.push_back(s_.substr(i_, e - i_));
        i_ = e;
        std::string_view before = skip_ws();
        if (!at(':')) return false;
        ++i_;
        std::string_view after = skip_ws();
        min = min && before.empty() && after.empty();
        pretty = pretty && before.empty() && after == " ";
      }
      Node& kid = n.kids.emplace_back();
      if (!value(kid, depth + 1)) return false;
      min = min && kid.minified;
      pretty = pretty && kid.pretty;
      std::string_view tail = skip_ws();
      if (at(',')) {
        ++i_;
        std::string_view next = skip_ws();
        min = min && tail.empty() && next.empty();
        pretty = pretty && tail.empty() && is_break(next, depth + 1);
        continue;
      }
      if (!at(close)) return false;
      ++i_;
      n.minified = min && tail.empty();
      n.pretty = pretty && is_break(tail, depth);
      return true;
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

void indent(int level, std::string& out) { out.append(2 * static_cast<std::size_t>(level), ' '); }

void write_min(const Node& n, std::string& out) {
  if (n.kind == Node::Kind::kScalar) {
    out += n.raw;
    return;
  }
  out += n.is_object() ? '{' : '[';
  for (std::size_t i = 0; i < n.kids.size(); ++i) {
    if (i > 0) out += ',';
    if (n.is_object()) {
      out += n.keys[i];
      out += ':';
    }
    write_min(n.kids[i], out);
  }
  out += n.is_object() ? '}' : ']';
}

// JSON.stringify(x, null, 2) layout for a value at nesting `level`.
void write_pretty(const Node& n, int level, std::string& out) {
  if (n.kind == Node::Kind::kScalar) {
    out += n.raw;
    return;
  }
  out += n.is_object() ? '{' : '[';
  for (std::size_t i = 0; i < n.kids.size(); ++i) {
    out += i > 0 ? ",\n" : "\n";
    indent(level + 1, out);
    if (n.is_object()) {
      out += n.keys[i];
      out += ": ";
    }
    write_pretty(n.kids[i], level + 1, out);
  }
  if (!n.kids.empty()) {
    out += '\n';
    indent(level, out);
  }
  out += n.is_object() ? '}' : ']';
}

std::string minified(const Node& n) {
  std::string s;
  write_min(n, s);
  return s;
}

const Node* member(const Node& obj, std::string_view key) {
  for (std::size_t i = 0; i < obj.keys.size(); ++i) {
    if (obj.keys[i] == key) return &obj.kids[i];
  }
  return nullptr;
}

// ---- Encoder ----

struct ColumnTree {
  std::string_view key;
  bool flat = false;  // every row holds an object here: its keys are dotted columns
  std::vector<ColumnTree> kids;
};

// True when the "comes right after" graph has no cycle (Kahn's algorithm).
bool acyclic(const std::vector<std::set<std::size_t>>& next) {
  std::vector<std::size_t> preceding(next.size(), 0);
  for (const auto& n : next) {
    for (std::size_t k : n) ++preceding[k];
  }
  std::vector<std::size_t> ready;
  for (std::size_t k = 0; k < next.size(); ++k) {
    if (preceding[k] == 0) ready.push_back(k);
  }
  std::size_t seen = 0;
  while (!ready.empty()) {
    std::size_t k = ready.back();
    ready.pop_back();
    ++seen;
    for (std::size_t n : next[k]) {
      if (--preceding[n] == 0) ready.push_back(n);
    }
  }
  return seen == next.size();
}

struct KeyOrder {
  std::vector<std::string_view> keys;
  std::vector<bool> excluded;  // rows whose key order (or a repeated key) fits no common order
};

// The merged key order of `objs`: every object's keys in its own order, ties broken by first
// appearance (a topological order of "comes right after" pairs). An object that would break
// the order is excluded when `allow_excluded`, else there is no order (nullopt).
std::optional<KeyOrder> key_order(const std::vector<const Node*>& objs, bool allow_excluded) {
  std::map<std::string_view, std::size_t> id;
  std::vector<std::string_view> keys;
  std::vector<std::set<std::size_t>> next;
  KeyOrder result;
  result.excluded.assign(objs.size(), false);
  for (std::size_t r = 0; r < objs.size(); ++r) {
    const Node* o = objs[r];
    const std::size_t old_keys = keys.size();
    std::vector<std::pair<std::size_t, std::size_t>> added;
    std::set<std::size_t> mine;
    bool fits = true;
    std::size_t prev = SIZE_MAX;
    for (std::string_view k : o->keys) {
      auto [it, fresh] = id.emplace(k, keys.size());
      if (fresh) {
        keys.push_back(k);
        next.emplace_back();
      }
      if (!mine.insert(it->second).second) fits = false;  // a repeated key
      if (prev != SIZE_MAX && next[prev].insert(it->second).second)
        added.emplace_back(prev, it->second);
      prev = it->second;
    }
    if (fits && !added.empty()) fits = acyclic(next);
    if (fits && keys.size() <= kMaxColumns) continue;
    if (!allow_excluded) return std::nullopt;
    result.excluded[r] = true;
    for (auto [from, to] : added) next[from].erase(to);
    while (keys.size() > old_keys) {
      id.erase(keys.back());
      keys.pop_back();
      next.pop_back();
    }
  }
  std::vector<std::size_t> preceding(keys.size(), 0);
  for (const auto& n : next) {
    for (std::size_t k : n) ++preceding[k];
  }
  std::set<std::size_t> ready;  // ordered: the earliest-seen key first
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (preceding[k] == 0) ready.insert(k);
  }
  while (!ready.empty()) {
    std::size_t k = *ready.begin();
    ready.erase(ready.begin());
    result.keys.push_back(keys[k]);
    for (std::size_t n : next[k]) {
      if (--preceding[n] == 0) ready.insert(n);
    }
  }
  if (result.keys.size() != keys.size()) return std::nullopt;
  return result;
}

// Each key of `objs` in `order`: a leaf, or a flattened object — every row that has the key
// holds a non-empty object there whose keys share one order, and those objects fill at least
// half of their columns. A flattened object is present
// exactly when one of its columns is.
std::vector<ColumnTree> columns_of(const std::vector<const Node*>& objs,
                                   const std::vector<std::string_view>& order, int depth) {
  std::vector<ColumnTree> cols;
  for (std::string_view k : order) {
    ColumnTree c{k, false, {}};
    std::vector<const Node*> subs;
    bool objects = true;
    for (const Node* o : objs) {
      const Node* v = member(*o, k);
      if (v == nullptr) continue;
      if (!v->is_object() || v->kids.empty()) {
        objects = false;
        break;
      }
      subs.push_back(v);
    }
    if (objects && depth < kMaxFlattenDepth) {
      std::optional<KeyOrder> sub = key_order(subs, false);
      std::size_t cells = 0;
      for (const Node* v : subs) cells += v->keys.size();
      // Dense only: objects keyed by names (dependency maps) stay JSON cells.
      if (sub && cells * 2 >= sub->keys.size() * subs.size()) {
        c.flat = true;
        c.kids = columns_of(subs, sub->keys, depth + 1);
      }
    }
    cols.push_back(std::move(c));
  }
  return cols;
}

void leaf_paths(const std::vector<ColumnTree>& cols, std::vector<std::string_view>& prefix,
                std::vector<std::vector<std::string_view>>& out) {
  for (const ColumnTree& c : cols) {
    prefix.push_back(c.key);
    if (c.flat) {
      leaf_paths(c.kids, prefix, out);
    } else {
      out.push_back(prefix);
    }
    prefix.pop_back();
  }
}

const Node* at_path(const Node& obj, const std::vector<std::string_view>& path) {
  const Node* cur = &obj;
  for (std::string_view k : path) {
    cur = member(*cur, k);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

// The block (header and rows) for container `n` at `at` in `level`'s layout, or nullopt when
// it is not a table; with `lines`, `n` is the array a JSON-lines text's lines make and the
// rows stand for those lines.
std::optional<std::string> table_block(const Node& n, const std::string& at, int level,
                                       bool lines = false) {
  if (n.kind == Node::Kind::kScalar || n.kids.size() < kMinRows) return std::nullopt;
  std::vector<const Node*> objs;
  for (const Node& k : n.kids) {
    if (!k.is_object()) return std::nullopt;
    objs.push_back(&k);
  }
  std::optional<KeyOrder> order = key_order(objs, true);
  if (!order || order->keys.empty()) return std::nullopt;
  std::vector<const Node*> fitting;
  for (std::size_t r = 0; r < objs.size(); ++r) {
    if (!order->excluded[r]) fitting.push_back(objs[r]);
  }
  if (fitting.size() * 2 < objs.size()) return std::nullopt;
  std::vector<ColumnTree> tree = columns_of(fitting, order->keys, 0);
  std::vector<std::vector<std::string_view>> paths;
  std::vector<std::string_view> prefix;
  leaf_paths(tree, prefix, paths);

  TableHeader h;
  h.members = n.is_object();
  h.lines = lines;
  h.rows = objs.size();
  h.at = lines ? "" : at;
  h.indent_level = lines ? -1 : level;
  // cells[c][r]: column c of row r, minified; nullopt when absent.
  std::vector<std::vector<std::optional<std::string>>> cells(paths.size());
  for (std::size_t c = 0; c < paths.size(); ++c) {
    TableColumn col;
    for (std::string_view k : paths[c]) col.path.emplace_back(k);
    bool constant = fitting.size() >= 2;
    for (const Node* o : fitting) {
      const Node* v = at_path(*o, paths[c]);
      cells[c].push_back(v ? std::optional<std::string>(minified(*v)) : std::nullopt);
      if (!cells[c].back() || *cells[c].back() != *cells[c].front()) constant = false;
    }
    if (constant) col.constant = *cells[c].front();
    h.columns.push_back(std::move(col));
  }
  std::optional<std::string> block = write_table_header(h);
  if (!block) return std::nullopt;
  for (std::size_t r = 0, f = 0; r < objs.size(); ++r) {
    *block += '\n';
    if (order->excluded[r]) {  // the object as written, minified
      if (h.members) *block += "{" + std::string(n.keys[r]) + ":";
      write_min(*objs[r], *block);
      if (h.members) *block += "}";
      continue;
    }
    std::vector<std::optional<std::string>> row;
    if (h.members) row.emplace_back(std::string(n.keys[r]));
    for (std::size_t c = 0; c < paths.size(); ++c) {
      if (!h.columns[c].constant) row.push_back(cells[c][f]);
    }
    ++f;
    *block += write_table_row(row);
  }
  return block;
}

struct Splice {
  std::size_t begin;
  std::size_t end;
  std::string block;
};

class Encoder {
 public:
  Encoder(std::string_view text, const tokens::Counter& counter) : text_(text), counter_(counter) {}

  // Tables inside `n` (appended to `out` in document order); returns the tokens they save.
  // A table of `n` itself is taken when it saves more than the tables inside it.
  std::size_t visit(const Node& n, const std::string& at, int depth, std::vector<Splice>& out) {
    if (n.kind == Node::Kind::kScalar) return 0;
    std::vector<Splice> inner;
    std::size_t inner_saving = 0;
    for (std::size_t i = 0; i < n.kids.size(); ++i) {
      std::string sub = n.is_object() ? write_key(n.keys[i]) : "[" + std::to_string(i) + "]";
      std::string kid_at = at.empty() || sub.front() == '[' ? at + sub : at + "." + sub;
      inner_saving += visit(n.kids[i], kid_at, depth + 1, inner);
    }
    if (n.kids.size() >= kMinRows) {
      if (std::optional<Splice> table = try_table(n, at, depth)) {
        std::string_view span = text_.substr(n.begin, n.end - n.begin);
        std::size_t after = counter_.count(table->block) + 2;
        // A token is at least one byte: when the span's bytes cannot beat the table, its
        // tokens cannot either, and they are not counted.
        std::size_t before = after + inner_saving < span.size() ? counter_.count(span) : 0;
        if (after < before && before - after > inner_saving) {
          out.push_back(std::move(*table));
          return before - after;
        }
      }
    }
    for (Splice& s : inner) out.push_back(std::move(s));
    return inner_saving;
  }

 private:
  std::optional<Splice> try_table(const Node& n, const std::string& at, int depth) {
    int level = -1;
    if (n.pretty) {
      level = depth;
    } else if (!n.minified) {
      return std::nullopt;  // another layout: not reproducible, left as written
    }
    std::optional<std::string> block = table_block(n, at.empty() ? "the top level" : at, level);
    if (!block) return std::nullopt;
    return Splice{n.begin, n.end, std::move(*block)};
  }

  std::string_view text_;
  const tokens::Counter& counter_;
};

// ---- Decoder ----

struct DecodedColumn {
  std::string key;
  bool leaf = true;
  std::optional<std::string> constant;
  std::size_t cell = 0;  // index into a row's cells when not constant
  std::vector<DecodedColumn> kids;
};

void insert_column(std::vector<DecodedColumn>& level, const TableColumn& c, std::size_t k,
                   std::size_t cell) {
  if (k + 1 == c.path.size()) {
    level.push_back(DecodedColumn{c.path[k], true, c.constant, cell, {}});
    return;
  }
  if (level.empty() || level.back().leaf || level.back().key != c.path[k]) {
    level.push_back(DecodedColumn{c.path[k], false, std::nullopt, 0, {}});
  }
  insert_column(level.back().kids, c, k + 1, cell);
}

// One value of a row at `level`: minified as it is, or re-laid out in pretty JSON.
bool write_cell(std::string_view cell, int level, std::string& out) {
  if (level < 0) {
    out += cell;
    return true;
  }
  std::optional<Node> n = Parser(cell).document();
  if (!n) return false;
  write_pretty(*n, level, out);
  return true;
}

// Is any column under `c` present in the row?
bool present(const DecodedColumn& c, const std::vector<std::optional<std::string_view>>& cells) {
  if (c.leaf) return c.constant || (c.cell < cells.size() && cells[c.cell]);
  for (const DecodedColumn& k : c.kids) {
    if (present(k, cells)) return true;
  }
  return false;
}

bool write_object(const std::vector<DecodedColumn>& cols,
                  const std::vector<std::optional<std::string_view>>& cells, int level,
                  std::string& out) {
  const bool pretty = level >= 0;
  const int inner = pretty ? level + 1 : -1;
  out += '{';
  bool any = false;
  for (const DecodedColumn& c : cols) {
    if (!present(c, cells)) continue;
    std::optional<std::string_view> v;
    if (c.leaf) {
      if (c.constant) {
        v = *c.constant;
      } else if (c.cell < cells.size()) {
        v = cells[c.cell];
      }
      if (!v) continue;
    }
    if (pretty) {
      out += any ? ",\n" : "\n";
      indent(inner, out);
    } else if (any) {
      out += ',';
    }
    any = true;
    out += c.key;
    out += pretty ? ": " : ":";
    if (c.leaf ? !write_cell(*v, inner, out) : !write_object(c.kids, cells, inner, out)) {
      return false;
    }
  }
  if (pretty && any) {
    out += '\n';
    indent(level, out);
  }
  out += '}';
  return true;
}

// One minified JSON object, the whole line.
bool object_line(std::string_view line) {
  return line.size() >= 2 && line.front() == '{' && minified_value_end(line, 0) == line.size();
}

// The table of a run of object lines, when it costs fewer tokens than the lines.
std::optional<std::string> lines_block(const std::vector<std::string_view>& run,
                                       const tokens::Counter& counter) {
  std::string array = "[";
  std::size_t bytes = 0;
  for (std::size_t k = 0; k < run.size(); ++k) {
    if (k > 0) array += ',';
    array += run[k];
    bytes += run[k].size() + 1;
  }
  array += ']';
  std::optional<Node> root = Parser(array).document();
  if (!root || !root->minified) return std::nullopt;
  std::optional<std::string> block = table_block(*root, "", -1, true);
  if (!block || block->size() >= bytes) return std::nullopt;
  std::string_view text(array.data() + 1, array.size() - 2);
  if (counter.count(*block) >= counter.count(text)) return std::nullopt;
  return block;
}

}  // namespace

std::optional<std::string> decode_json_table(const TableHeader& h,
                                             const std::vector<std::string_view>& rows) {
  if (rows.size() != h.rows || h.indent_level > kMaxTableDepth) return std::nullopt;
  std::vector<DecodedColumn> cols;
  std::size_t cell = h.members ? 1 : 0;
  for (const TableColumn& c : h.columns) {
    if (c.path.size() > static_cast<std::size_t>(kMaxFlattenDepth) + 1) return std::nullopt;
    insert_column(cols, c, 0, c.constant ? 0 : cell);
    if (!c.constant) ++cell;
  }
  const int level = h.indent_level;
  const bool pretty = level >= 0;
  if (h.lines && (pretty || h.members)) return std::nullopt;
  std::string out = h.lines ? "" : std::string(1, h.members ? '{' : '[');
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (pretty) {
      out += r > 0 ? ",\n" : "\n";
      indent(level + 1, out);
    } else if (r > 0) {
      out += h.lines ? '\n' : ',';
    }
    if (!rows[r].empty() && rows[r].front() == '{') {  // the object as written
      std::optional<Node> whole = Parser(rows[r]).document();
      if (!whole || !whole->is_object()) return std::nullopt;
      const Node* obj = &*whole;
      if (h.members) {
        if (whole->kids.size() != 1) return std::nullopt;
        out += whole->keys[0];
        out += pretty ? ": " : ":";
        obj = &whole->kids[0];
        if (!obj->is_object()) return std::nullopt;
      }
      if (pretty) {
        write_pretty(*obj, level + 1, out);
      } else {
        write_min(*obj, out);
      }
      continue;
    }
    auto cells = split_table_row(rows[r], h.row_cells());
    if (!cells) return std::nullopt;
    if (h.members) {
      const std::optional<std::string_view>& key = (*cells)[0];
      if (!key || key->front() != '"') return std::nullopt;
      out += *key;
      out += pretty ? ": " : ":";
    }
    if (!write_object(cols, *cells, pretty ? level + 1 : -1, out)) return std::nullopt;
  }
  if (pretty) {
    out += '\n';
    indent(level, out);
  }
  if (!h.lines) out += h.members ? '}' : ']';
  return out;
}

std::optional<std::string> json_table_view(std::string_view json, const tokens::Counter& counter) {
  std::optional<Node> root = Parser(json).document();
  if (!root) return std::nullopt;
  std::vector<Splice> splices;
  Encoder(json, counter).visit(*root, "", 0, splices);
  if (splices.empty()) return std::nullopt;
  // Each block stands on its own lines; the text around it keeps its bytes.
  std::string view;
  std::size_t at = 0;
  for (const Splice& s : splices) {
    view += json.substr(at, s.begin - at);
    view += '\n';
    view += s.block;
    view += '\n';
    at = s.end;
  }
  view += json.substr(at);
  return checked_view(std::move(view), json);
}

std::optional<std::string> json_lines_view(std::string_view text,
                                           const std::function<bool(std::string_view)>& verbatim,
                                           const tokens::Counter& counter) {
  // Most texts hold no such run: that is decided before anything is copied (a million-line
  // log must not pay a second copy of itself for this view).
  if (!text.starts_with('{') && text.find("\n{") == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> lines = text::split_all(text);
  auto tabled = [&](std::string_view l) { return object_line(l) && !(verbatim && verbatim(l)); };
  bool long_run = false;
  for (std::size_t i = 0, run = 0; i < lines.size() && !long_run; ++i) {
    run = tabled(lines[i]) ? run + 1 : 0;
    long_run = run >= kMinLineRows;
  }
  if (!long_run) return std::nullopt;
  std::string view;
  bool any = false;
  auto emit = [&](std::string_view piece, bool first) {
    if (!first) view += '\n';
    view += piece;
  };
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t j = i;
    while (j < lines.size() && tabled(lines[j])) ++j;
    std::optional<std::string> block;
    if (j - i >= kMinLineRows) {
      block = lines_block({lines.begin() + static_cast<std::ptrdiff_t>(i),
                           lines.begin() + static_cast<std::ptrdiff_t>(j)},
                          counter);
    }
    if (block) {
      emit(*block, i == 0);
      any = true;
      i = j;
      continue;
    }
    for (std::size_t end = std::max(j, i + 1); i < end; ++i) emit(lines[i], i == 0);
  }
  if (!any) return std::nullopt;
  return checked_view(std::move(view), text);
}

}  // namespace caveman::compress::factor
