#include "toon/decoder.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "toon/expand.h"
#include "toon/key_set.h"
#include "toon/number.h"
#include "toon/options.h"
#include "toon/strings.h"

namespace caveman::toon {
namespace {

struct Line {
  std::string_view content;  // after the indentation, without a trailing CR
  std::uint32_t depth = 0;
  std::uint32_t number = 0;  // 1-based
};

struct Key {
  std::string_view text;
  bool present = false;
  bool quoted = false;
};

struct Header {
  Key key;
  std::uint32_t length = 0;
  char delimiter = ',';
  bool tabular = false;
  std::vector<Key> fields;
  std::string_view inline_values;  // trimmed text after the colon
};

enum class HeaderParse { kNo, kYes, kError };

bool is_list_item(std::string_view content) {
  return content == "-" || (content.size() >= 2 && content[0] == '-' && content[1] == ' ');
}

// Scans `s` left to right from `from` (outside quotes), skipping quoted sections (backslash
// escapes inside quotes), and returns the position of the first unquoted `a` or `b`, or npos.
std::size_t find_unquoted(std::string_view s, std::size_t from, char a, char b) {
  bool quoted = false;
  for (std::size_t i = from; i < s.size(); ++i) {
    char c = s[i];
    if (quoted) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == a || c == b) {
      return i;
    }
  }
  return std::string_view::npos;
}

// The first unquoted character among `a` and `b`, or '\0'.
char first_unquoted_of(std::string_view s, char a, char b) {
  std::size_t at = find_unquoted(s, 0, a, b);
  return at == std::string_view::npos ? '\0' : s[at];
}

bool has_unquoted(std::string_view s, char c) { return first_unquoted_of(s, c, c) == c; }

// §9.3 row disambiguation: a row unless an unquoted colon comes before any unquoted delimiter.
bool is_data_row(std::string_view content, char delimiter) {
  return first_unquoted_of(content, ':', delimiter) != ':';
}

// Splits on unquoted `delimiter`; tokens are trimmed. Empty input yields one empty token.
void split_values(std::string_view s, char delimiter, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t start = 0;
  // A delimiter is outside quotes, so each scan starts outside them too.
  for (std::size_t at = find_unquoted(s, 0, delimiter, delimiter); at != std::string_view::npos;
       at = find_unquoted(s, start, delimiter, delimiter)) {
    out.push_back(trim_space(s.substr(start, at - start)));
    start = at + 1;
  }
  out.push_back(trim_space(s.substr(start)));
}

// §5: does a root line read as key-value (quoted key followed by a colon, or any colon)?
bool is_key_value_line(std::string_view content) {
  if (!content.empty() && content[0] == '"') {
    std::size_t close = find_closing_quote(content, 0);
    return close != std::string_view::npos &&
           content.find(':', close + 1) != std::string_view::npos;
  }
  return content.find(':') != std::string_view::npos;
}

class Decoder {
 public:
  Decoder(std::string_view text, const DecodeOptions& options, Document& doc, DecodeStats& stats)
      : text_(text),
        indent_(static_cast<std::uint32_t>(options.indent)),
        strict_(options.strict),
        doc_(doc),
        stats_(stats) {}

  Status run() {
    if (std::size_t bad = base::find_invalid_utf8(text_); bad != std::string_view::npos) {
      std::uint32_t line = 1;
      for (std::size_t i = 0; i < bad; ++i) line += text_[i] == '\n';
      return toon_error(line, "invalid UTF-8");
    }
    doc_.nodes.clear();
    doc_.nodes.reserve(text_.size() / 6 + 1);
    if (!scan_lines() || !root()) return error_;
    return Status::Ok();
  }

 private:
  // ---- lines -------------------------------------------------------------------------

  bool scan_lines() {
    std::uint32_t number = 0;
    std::size_t pos = 0;
    while (pos <= text_.size()) {
      std::size_t nl = text_.find('\n', pos);
      if (nl == std::string_view::npos) nl = text_.size();
      std::string_view raw = text_.substr(pos, nl - pos);
      pos = nl + 1;
      ++number;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      std::size_t i = 0;
      std::size_t spaces = 0;  // a 64 MiB line of tabs must not wrap
      bool tab = false;
      while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t')) {
        if (raw[i] == '\t') {
          tab = true;
          spaces += indent_;  // non-strict policy: a tab is one level
        } else {
          ++spaces;
        }
        ++i;
      }
      std::string_view content = raw.substr(i);
      if (trim_space(content).empty()) continue;  // blank, whatever its indentation
      if (strict_) {
        if (tab) return fail(number, "tab in indentation");
        if (spaces % indent_ != 0) {
          return fail(number, "indentation of " + std::to_string(spaces) +
                                  " spaces is not a multiple of " + std::to_string(indent_));
        }
      }
      lines_.push_back(Line{content, static_cast<std::uint32_t>(spaces / indent_), number});
    }
    return true;
  }

  const Line* peek() const { return next_ < lines_.size() ? &lines_[next_] : nullptr; }

  // Strict mode: no blank line between lines_[from] and lines_[to] (inclusive range).
  bool check_no_blank_lines(std::size_t from, std::size_t to, std::string_view what) {
    if (!strict_ || from >= to) return true;
    if (lines_[to].number - lines_[from].number == to - from) return true;
    for (std::size_t k = from; k < to; ++k) {
      if (lines_[k + 1].number != lines_[k].number + 1) {
        return fail(lines_[k].number + 1, "blank line inside " + std::string(what));
      }
    }
    return true;
  }

  // ---- errors and nodes --------------------------------------------------------------

  bool fail(std::uint32_t line, std::string_view reason) {
    error_ = toon_error(line, reason);
    return false;
  }

  std::uint32_t push(NodeKind kind, const Key& key, std::uint32_t line,
                     std::string_view text = {}) {
    Node n;
    n.kind = kind;
    n.key = key.text;
    n.key_quoted = key.quoted;
    n.text = text;
    n.line = line;
    return doc_.append(n);
  }

  bool open(NodeKind kind, const Key& key, std::uint32_t line, std::uint32_t* index) {
    if (nesting_ >= kMaxNesting) return fail(line, "nesting deeper than 512 levels");
    ++nesting_;
    *index = push(kind, key, line);
    return true;
  }

  void close(std::uint32_t index, std::uint32_t count) {
    --nesting_;
    Node& n = doc_.nodes[index];
    n.size = count;
    n.end = static_cast<std::uint32_t>(doc_.nodes.size());
  }

  void empty_container(NodeKind kind, const Key& key, std::uint32_t line) {
    push(kind, key, line);  // a leaf: no nesting limit to check
  }

  // Deque: references stay valid while deeper levels are added.
  KeySet& keys_for_level() {
    while (static_cast<std::size_t>(nesting_) >= key_sets_.size()) key_sets_.emplace_back();
    KeySet& set = key_sets_[static_cast<std::size_t>(nesting_)];
    set.clear();
    return set;
  }

  bool note_key(KeySet& seen, const Key& key, std::uint32_t line) {
    if (seen.insert(key.text)) return true;
    if (strict_) return fail(line, "duplicate key \"" + std::string(key.text) + "\"");
    stats_.duplicate_keys = true;
    return true;
  }

  // ---- tokens ------------------------------------------------------------------------

  // A quoted token (opening quote at tok[0], closing quote exactly at the end).
  bool quoted_string(std::string_view tok, std::uint32_t line, std::string_view* out) {
    std::size_t close = find_closing_quote(tok, 0);
    if (close == std::string_view::npos) return fail(line, "unterminated string");
    if (close != tok.size() - 1) return fail(line, "unexpected characters after closing quote");
    std::string_view body = tok.substr(1, close - 1);
    if (body.find('\\') == std::string_view::npos) {
      *out = body;
      return true;
    }
    std::string reason;
    if (!unescape(body, scratch_, reason)) return fail(line, reason);
    *out = doc_.arena.copy(scratch_);
    return true;
  }

  // §4 primitive token (already trimmed) → one leaf node.
  bool primitive(std::string_view tok, const Key& key, std::uint32_t line) {
    if (tok.empty()) {
      push(NodeKind::kString, key, line);
      return true;
    }
    char c = tok[0];
    if (c == '"') {
      std::string_view s;
      if (!quoted_string(tok, line, &s)) return false;
      push(NodeKind::kString, key, line, s);
      return true;
    }
    if (c == 't' && tok == "true") {
      push(NodeKind::kTrue, key, line);
      return true;
    }
    if (c == 'f' && tok == "false") {
      push(NodeKind::kFalse, key, line);
      return true;
    }
    if (c == 'n' && tok == "null") {
      push(NodeKind::kNull, key, line);
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      if (is_canonical_number(tok)) {
        push(NodeKind::kNumber, key, line, tok);
        return true;
      }
      if (canonical_number(tok, number_) == NumberForm::kNumber) {
        push(NodeKind::kNumber, key, line, doc_.arena.copy(number_));
        return true;
      }
    }
    push(NodeKind::kString, key, line, tok);
    return true;
  }

  // A key written as a quoted token `"…"` (tok[0] is the quote, close its closing quote).
  bool quoted_key(std::string_view content, std::size_t close, std::uint32_t line, Key* key) {
    std::string_view body = content.substr(1, close - 1);
    key->present = true;
    key->quoted = true;
    if (body.find('\\') == std::string_view::npos) {
      key->text = body;
      return true;
    }
    std::string reason;
    if (!unescape(body, scratch_, reason)) return fail(line, reason);
    key->text = doc_.arena.copy(scratch_);
    return true;
  }

  // ---- headers (§6) ------------------------------------------------------------------

  HeaderParse malformed(std::uint32_t line, std::string_view reason) {
    if (!strict_) return HeaderParse::kNo;  // non-strict: read the line as key-value instead
    fail(line, reason);
    return HeaderParse::kError;
  }

  HeaderParse parse_header(std::string_view content, std::uint32_t line, Header& h) {
    h = Header{};
    std::size_t bracket;
    if (!content.empty() && content[0] == '"') {
      std::size_t close = find_closing_quote(content, 0);
      if (close == std::string_view::npos || close + 1 >= content.size() ||
          content[close + 1] != '[') {
        return HeaderParse::kNo;
      }
      if (!quoted_key(content, close, line, &h.key)) return HeaderParse::kError;
      bracket = close + 1;
    } else {
      bracket = content.find('[');
      std::size_t colon = content.find(':');
      if (bracket == std::string_view::npos ||
          (colon != std::string_view::npos && colon < bracket)) {
        return HeaderParse::kNo;
      }
      h.key.text = trim_space(content.substr(0, bracket));
      h.key.present = !h.key.text.empty();
    }
    std::size_t close = content.find(']', bracket + 1);
    if (close == std::string_view::npos) return malformed(line, "unterminated array length");
    std::string_view length = content.substr(bracket + 1, close - bracket - 1);
    if (!length.empty() && (length.back() == '\t' || length.back() == '|')) {
      h.delimiter = length.back();
      length.remove_suffix(1);
    }
    bool digits = !length.empty() && (length[0] != '0' || length.size() == 1);
    std::uint64_t n = 0;
    for (char c : length) {
      if (c < '0' || c > '9' || n > 0xFFFFFFFEULL / 10) {
        digits = false;
        break;
      }
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (!digits || n > 0xFFFFFFFEULL) {
      return malformed(line, "invalid array length [" + std::string(length) + "]");
    }
    h.length = static_cast<std::uint32_t>(n);
    std::size_t pos = close + 1;
    if (pos < content.size() && content[pos] == '{') {
      std::size_t end = find_unquoted(content, pos + 1, '}', '}');
      if (end == std::string_view::npos) return malformed(line, "unterminated field list");
      std::string_view fields = content.substr(pos + 1, end - pos - 1);
      for (char other : {',', '\t', '|'}) {
        if (other != h.delimiter && has_unquoted(fields, other)) {
          return malformed(line, "field list delimiter differs from the length's delimiter");
        }
      }
      split_values(fields, h.delimiter, tokens_);
      for (std::string_view tok : tokens_) {
        Key field;
        if (tok.empty()) return malformed(line, "empty field name");
        if (tok[0] == '"') {
          std::size_t q = find_closing_quote(tok, 0);
          if (q != tok.size() - 1) return malformed(line, "malformed quoted field name");
          if (!quoted_key(tok, q, line, &field)) return HeaderParse::kError;
        } else {
          field.text = tok;
          field.present = true;
        }
        h.fields.push_back(field);
      }
      h.tabular = true;
      pos = end + 1;
    }
    if (pos >= content.size() || content[pos] != ':') {
      return malformed(line, "expected ':' right after the array header");
    }
    h.inline_values = trim_space(content.substr(pos + 1));
    return HeaderParse::kYes;
  }

  // ---- structure ---------------------------------------------------------------------

  bool root() {
    if (lines_.empty()) {
      empty_container(NodeKind::kObject, {}, 1);
      return true;
    }
    const Line& first = lines_[0];
    if (first.depth != 0) return fail(first.number, "unexpected indentation");
    if (lines_.size() == 1 && trim_space(first.content) == "[]") {
      empty_container(NodeKind::kArray, {}, first.number);
      return true;
    }
    if (first.content[0] == '[') {
      Header h;
      HeaderParse hp = parse_header(first.content, first.number, h);
      if (hp == HeaderParse::kError) return false;
      if (hp == HeaderParse::kYes && !h.key.present) {
        next_ = 1;
        if (!array_body(h, first, 0, {})) return false;
        if (const Line* extra = peek()) {
          return fail(extra->number, "content after the root array");
        }
        return true;
      }
    }
    if (lines_.size() == 1) {
      std::string_view only = trim_space(first.content);
      if (!is_key_value_line(first.content)) {
        next_ = 1;
        return primitive(only, {}, first.number);
      }
    }
    std::uint32_t obj = 0;
    if (!open(NodeKind::kObject, {}, first.number, &obj)) return false;
    KeySet& seen = keys_for_level();
    std::uint32_t count = 0;
    if (!object_fields(0, seen, count)) return false;
    close(obj, count);
    return true;
  }

  // Fields at exactly `depth` until a shallower line; deeper lines are orphans (error).
  bool object_fields(std::uint32_t depth, KeySet& seen, std::uint32_t& count) {
    while (const Line* l = peek()) {
      if (l->depth < depth) break;
      if (l->depth > depth) return fail(l->number, "unexpected indentation");
      ++next_;
      if (!field(*l, l->content, depth, seen)) return false;
      ++count;
    }
    return true;
  }

  // One object field written on line `l` (content may be the part after "- ").
  bool field(const Line& l, std::string_view content, std::uint32_t depth, KeySet& seen) {
    if (is_list_item(content)) return fail(l.number, "list item outside an array");
    Header h;
    HeaderParse hp = parse_header(content, l.number, h);
    if (hp == HeaderParse::kError) return false;
    if (hp == HeaderParse::kYes) {
      if (!h.key.present) return fail(l.number, "array header without a key inside an object");
      if (!note_key(seen, h.key, l.number)) return false;
      return array_body(h, l, depth, h.key);
    }
    Key key;
    std::size_t colon;
    if (!content.empty() && content[0] == '"') {
      std::size_t close = find_closing_quote(content, 0);
      if (close == std::string_view::npos) return fail(l.number, "unterminated quoted key");
      if (!quoted_key(content, close, l.number, &key)) return false;
      colon = close + 1;
      while (colon < content.size() && content[colon] == ' ') ++colon;
      if (colon >= content.size() || content[colon] != ':') {
        return fail(l.number, "missing ':' after key");
      }
    } else {
      colon = content.find(':');
      if (colon == std::string_view::npos) return fail(l.number, "missing ':' after key");
      key.text = trim_space(content.substr(0, colon));
      key.present = true;
    }
    if (!note_key(seen, key, l.number)) return false;
    std::string_view rest = trim_space(content.substr(colon + 1));
    if (!rest.empty()) {
      if (rest == "[]") {
        empty_container(NodeKind::kArray, key, l.number);
        return true;
      }
      return primitive(rest, key, l.number);
    }
    // `key:` opens a nested object when deeper lines follow, else it is an empty object.
    const Line* next = peek();
    if (next == nullptr || next->depth <= depth) {
      empty_container(NodeKind::kObject, key, l.number);
      return true;
    }
    // The first nested line fixes the children's depth (v3.3 does not forbid deeper jumps).
    std::uint32_t obj = 0;
    if (!open(NodeKind::kObject, key, l.number, &obj)) return false;
    KeySet& nested = keys_for_level();
    std::uint32_t count = 0;
    if (!object_fields(next->depth, nested, count)) return false;
    close(obj, count);
    return true;
  }

  // The values of an array whose header sits at `depth` on line `hl`.
  bool array_body(const Header& h, const Line& hl, std::uint32_t depth, const Key& key) {
    std::uint32_t arr = 0;
    if (!open(NodeKind::kArray, key, hl.number, &arr)) return false;
    std::uint32_t count = 0;
    bool ok;
    if (h.tabular) {
      ok = h.inline_values.empty() ? tabular_rows(h, hl, depth + 1, count)
                                   : fail(hl.number, "values after a tabular array header");
    } else if (!h.inline_values.empty()) {
      ok = inline_values(h, hl, count);
    } else {
      ok = list_items(h, hl, depth + 1, count);
    }
    if (!ok) return false;
    close(arr, count);
    return true;
  }

  bool count_mismatch(std::uint32_t line, const Header& h, std::uint32_t found,
                      std::string_view what) {
    return fail(line, "array declares " + std::to_string(h.length) + " " + std::string(what) +
                          " but has " + std::to_string(found));
  }

  bool inline_values(const Header& h, const Line& hl, std::uint32_t& count) {
    std::vector<std::string_view>& values = values_;
    split_values(h.inline_values, h.delimiter, values);
    if (strict_ && values.size() != h.length) {
      return count_mismatch(hl.number, h, static_cast<std::uint32_t>(values.size()), "values");
    }
    for (std::string_view v : values) {
      if (!primitive(v, {}, hl.number)) return false;
      ++count;
    }
    return true;
  }

  bool tabular_rows(const Header& h, const Line& hl, std::uint32_t row_depth,
                    std::uint32_t& count) {
    std::size_t first = next_;
    std::vector<std::string_view>& values = values_;  // rows hold no nested arrays
    std::uint32_t width = static_cast<std::uint32_t>(h.fields.size());
    KeySet* fields_seen = nullptr;
    if (width > 1) {
      // Repeated field names make every row repeat a key: strict error, else LWW later.
      fields_seen = &keys_for_level();
      for (const Key& f : h.fields) {
        if (!note_key(*fields_seen, f, hl.number)) return false;
      }
    }
    while (const Line* l = peek()) {
      if (l->depth != row_depth || !is_data_row(l->content, h.delimiter)) break;
      if (strict_ && count == h.length) return count_mismatch(l->number, h, count + 1, "rows");
      ++next_;
      split_values(l->content, h.delimiter, values);
      if (strict_ && values.size() != width) {
        return fail(l->number, "row has " + std::to_string(values.size()) +
                                   " values but the header declares " + std::to_string(width) +
                                   " fields");
      }
      std::uint32_t row = 0;
      if (!open(NodeKind::kObject, {}, l->number, &row)) return false;
      std::uint32_t cells = 0;
      for (std::uint32_t j = 0; j < width && j < values.size(); ++j) {
        if (!primitive(values[j], h.fields[j], l->number)) return false;
        ++cells;
      }
      close(row, cells);
      ++count;
    }
    if (strict_ && count != h.length) return count_mismatch(hl.number, h, count, "rows");
    return count == 0 || check_no_blank_lines(first, next_ - 1, "a tabular array");
  }

  bool list_items(const Header& h, const Line& hl, std::uint32_t item_depth, std::uint32_t& count) {
    std::size_t first = next_;
    while (const Line* l = peek()) {
      if (l->depth < item_depth) break;
      if (l->depth > item_depth) return fail(l->number, "unexpected indentation");
      if (!is_list_item(l->content)) return fail(l->number, "expected a list item (\"- \")");
      if (strict_ && count == h.length) return count_mismatch(l->number, h, count + 1, "items");
      ++next_;
      if (!list_item(*l, item_depth)) return false;
      ++count;
    }
    if (strict_ && count != h.length) return count_mismatch(hl.number, h, count, "items");
    return count == 0 || check_no_blank_lines(first, next_ - 1, "a list array");
  }

  // §9.4 / §10: one "- …" item at `depth`.
  bool list_item(const Line& l, std::uint32_t depth) {
    std::string_view after = l.content.size() > 2 ? trim_space(l.content.substr(2)) : "";
    if (after.empty()) {
      empty_container(NodeKind::kObject, {}, l.number);
      return true;
    }
    if (after == "[]") {
      empty_container(NodeKind::kArray, {}, l.number);
      return true;
    }
    if (after[0] == '[') {
      Header h;
      HeaderParse hp = parse_header(after, l.number, h);
      if (hp == HeaderParse::kError) return false;
      if (hp == HeaderParse::kYes && !h.key.present) return array_body(h, l, depth, {});
    }
    if (!has_unquoted(after, ':')) return primitive(after, {}, l.number);
    // An object whose first field shares the hyphen line: that field sits one level deeper
    // (its nested lines at depth + 2), the other fields at depth + 1.
    std::uint32_t obj = 0;
    if (!open(NodeKind::kObject, {}, l.number, &obj)) return false;
    KeySet& seen = keys_for_level();
    std::uint32_t count = 1;
    if (!field(l, after, depth + 1, seen)) return false;
    if (!object_fields(depth + 1, seen, count)) return false;
    close(obj, count);
    return true;
  }

  std::string_view text_;
  std::uint32_t indent_;
  bool strict_;
  Document& doc_;
  DecodeStats& stats_;
  std::vector<Line> lines_;
  std::size_t next_ = 0;  // next unconsumed entry of lines_
  int nesting_ = 0;       // open containers
  std::deque<KeySet> key_sets_;
  std::vector<std::string_view> tokens_;  // field names while parsing a header
  std::vector<std::string_view> values_;  // cells of the current row or inline array
  std::string scratch_;
  std::string number_;
  Status error_;
};

}  // namespace

Status toon_error(std::uint32_t line, std::string_view reason) {
  return Status::InvalidArgument(codes::kInvalidToon,
                                 "line " + std::to_string(line) + ": " + std::string(reason));
}

Status parse_toon(std::string_view text, const DecodeOptions& options, Document& doc,
                  DecodeStats& stats) {
  return Decoder(text, options, doc, stats).run();
}

Result<std::string> toon_decode(std::string_view toon, const DecodeOptions& options) {
  CAVEMAN_RETURN_IF_ERROR(validate(options));
  Document doc;
  DecodeStats stats;
  CAVEMAN_RETURN_IF_ERROR(parse_toon(toon, options, doc, stats));
  bool expand = options.expand_paths == ExpandPaths::kSafe;
  if (expand || stats.duplicate_keys) {
    CAVEMAN_RETURN_IF_ERROR(postprocess(doc, options.strict, expand));
  }
  std::string out;
  out.reserve(toon.size() + toon.size() / 2);
  write_json(doc, 0, out);
  return out;
}

}  // namespace caveman::toon
