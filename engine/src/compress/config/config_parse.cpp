#include "compress/config/config_parse.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <sstream>

#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

bool is_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

bool is_section(std::string_view t) {
  std::size_t i = 0;
  bool doubled = t.substr(0, 2) == "[[";
  i = doubled ? 2 : 1;
  if (t.empty() || t[0] != '[') return false;
  std::size_t start = i;
  while (i < t.size()) {
    char c = t[i];
    if (is_name_char(c) || c == ':' || c == '"' || c == '\'' || c == ' ') {
      ++i;
      continue;
    }
    break;
  }
  if (i == start) return false;
  if (doubled) {
    if (t.substr(i, 2) != "]]") return false;
    i += 2;
  } else {
    if (i >= t.size() || t[i] != ']') return false;
    ++i;
  }
  std::string_view rest = text::trim_ascii(t.substr(i));
  return rest.empty() || rest[0] == '#' || rest[0] == ';';
}

bool is_assignment(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && is_name_char(t[i])) ++i;
  if (i == 0) return false;
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  if (i >= t.size() || t[i] != '=') return false;
  ++i;
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  return i < t.size();
}

// "key:" or "- key:" followed by whitespace or end of line.
bool is_yaml_key(std::string_view t, std::size_t* colon = nullptr) {
  std::size_t i = 0;
  if (t.substr(0, 2) == "- ") {
    i = 2;
    while (i < t.size() && t[i] == ' ') ++i;
  }
  std::size_t start = i;
  while (i < t.size() && is_name_char(t[i])) ++i;
  if (i == start || i >= t.size() || t[i] != ':') return false;
  if (i + 1 < t.size() && t[i + 1] != ' ' && t[i + 1] != '\t') return false;
  if (colon) *colon = i;
  return true;
}

// "2004:", "a3f0:", "- 0x1f:", "10.2:": a key of hex digits and separators with at least one
// decimal digit — an address or offset, not a setting's name.
bool numeric_key(std::string_view t) {
  if (t.substr(0, 2) == "- ") t = text::trim_ascii(t.substr(2));
  std::string_view key = t.substr(0, t.find(':'));
  if (key.substr(0, 2) == "0x") key.remove_prefix(2);
  return key.find_first_of("0123456789") != std::string_view::npos &&
         key.find_first_not_of("0123456789abcdefABCDEF._-") == std::string_view::npos;
}

// "key: |", "key: >-", "key: |2 # comment"
bool ends_with_block_scalar(std::string_view t) {
  std::size_t colon = 0;
  if (!is_yaml_key(t, &colon)) return false;
  std::string_view v = text::trim_ascii(t.substr(colon + 1));
  if (v.empty() || (v[0] != '|' && v[0] != '>')) return false;
  std::size_t i = 1;
  while (i < v.size() && ((v[i] >= '0' && v[i] <= '9') || v[i] == '+' || v[i] == '-')) ++i;
  std::string_view rest = text::trim_ascii(v.substr(i));
  return rest.empty() || rest[0] == '#';
}

// '[' minus ']' outside quoted strings and comments: a TOML array left open by its line.
int open_brackets(std::string_view t) {
  int depth = 0;
  char quote = 0;
  for (char c : t) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      break;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    }
  }
  return depth;
}

}  // namespace

int yaml_indent(std::string_view line) {
  int n = 0;
  for (char c : line) {
    if (c == ' ')
      n += 1;
    else if (c == '\t')
      n += 2;
    else
      break;
  }
  return n;
}

// Counts documents and notices a parser that stops consuming input: yaml-cpp 0.7's LoadAll
// loops forever, allocating a null document per turn, on a stray flow entry such as a line
// " ," (yaml-cpp issue 1040, fixed upstream after 0.7). A document that starts where the
// previous one did is that loop.
class DocumentCounter : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    stalled_ = documents_ > 0 && mark.pos == last_start_;
    last_start_ = mark.pos;
    ++documents_;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

  bool stalled() const { return stalled_; }
  std::size_t documents() const { return documents_; }

 private:
  std::size_t documents_ = 0;
  int last_start_ = -1;
  bool stalled_ = false;
};

bool yaml_parses(std::string_view input) {
  try {
    std::istringstream stream{std::string(input)};
    YAML::Parser parser(stream);
    DocumentCounter counter;
    while (parser.HandleNextDocument(counter)) {
      if (counter.stalled()) return false;
    }
    return counter.documents() > 0;
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<ConfigLineInfo> classify_config_lines(const std::vector<std::string_view>& lines) {
  std::vector<ConfigLineInfo> out(lines.size());
  int block_indent = -1;  // indent of the key that opened a block scalar
  int array_depth = 0;    // brackets a TOML `key = [` line left open
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view raw = lines[i];
    std::string_view t = text::trim_ascii(raw);
    ConfigLineInfo& info = out[i];
    if (array_depth > 0) {  // the items of a multi-line array, and its closing bracket
      if (!t.empty()) info.kind = t[0] == '#' ? ConfigLine::kComment : ConfigLine::kBlockContent;
      array_depth += open_brackets(t);
      continue;
    }
    if (block_indent >= 0) {
      if (t.empty()) continue;  // blank (possibly inside the block)
      if (yaml_indent(raw) > block_indent) {
        info.kind = ConfigLine::kBlockContent;
        continue;
      }
      block_indent = -1;
    }
    if (t.empty()) continue;
    if (t[0] == '#' || t[0] == ';') {
      info.kind = ConfigLine::kComment;
      continue;
    }
    if (ends_with_block_scalar(t)) {
      info.block_header = true;
      block_indent = yaml_indent(raw);
    }
    if (is_section(t)) {
      info.kind = ConfigLine::kSection;
    } else if (is_assignment(t)) {
      info.kind = ConfigLine::kAssignment;
      array_depth = std::max(0, open_brackets(t.substr(t.find('='))));
    } else if (is_yaml_key(t)) {
      info.kind = ConfigLine::kYamlKey;
    } else if (t.substr(0, 2) == "- ") {
      info.kind = ConfigLine::kListItem;
    } else {
      info.kind = ConfigLine::kProse;
    }
  }
  return out;
}

std::optional<ConfigShape> classify_config(std::string_view input) {
  if (input.empty() || !text::is_valid_utf8(input)) return std::nullopt;
  ConfigShape shape{ConfigKind::kToml};
  std::vector<std::string_view> lines = text::split_all(input, '\n');
  std::vector<ConfigLineInfo> kinds = classify_config_lines(lines);
  int numeric_keys = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const ConfigLineInfo& info = kinds[i];
    shape.has_block_scalar = shape.has_block_scalar || info.block_header;
    switch (info.kind) {
      case ConfigLine::kSection:
        ++shape.sections;
        break;
      case ConfigLine::kAssignment:
        ++shape.assignments;
        break;
      case ConfigLine::kYamlKey:
        ++shape.yaml_keys;
        if (numeric_key(text::trim_ascii(lines[i]))) ++numeric_keys;
        break;
      case ConfigLine::kProse:
        ++shape.prose;
        break;
      default:
        break;  // blank, comment, plain list item, block content: uncounted
    }
  }
  bool triple_quotes =
      input.find("\"\"\"") != std::string_view::npos || input.find("'''") != std::string_view::npos;
  bool sectioned = shape.sections >= 2 && shape.assignments >= 4;
  bool flat = shape.sections == 0 && shape.yaml_keys == 0 && shape.assignments >= 8;
  if (shape.prose == 0 && !triple_quotes && (sectioned || flat)) {
    shape.kind = ConfigKind::kToml;
    return shape;
  }
  int significant = shape.yaml_keys + shape.assignments + shape.sections + shape.prose;
  // Keys that are numbers (`2004:` in a disassembly, `0x1f:` in a dump) are addresses, not
  // settings: YAML allows them, but a file of mostly such keys is a listing.
  int named_keys = shape.yaml_keys - numeric_keys;
  if (named_keys >= 6 && named_keys * 2 >= significant && shape.prose * 4 <= significant &&
      yaml_parses(input)) {
    shape.kind = ConfigKind::kYaml;
    return shape;
  }
  return std::nullopt;
}

}  // namespace caveman::compress
