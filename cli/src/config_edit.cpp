#include "config_edit.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>

#include "caveman/base/codes.h"

namespace caveman::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string regex_escape(std::string_view s) {
  static const std::regex kSpecial(R"([.^$|()\[\]{}*+?\\-])");
  return std::regex_replace(std::string(s), kSpecial, R"(\$&)");
}

// `[table.name]`, `[table.name.sub]`, `[[table.name…`, `table.name.key = …` or
// `table = { name = …` / a `name = …` key inside `[table]`: any way TOML can define it.
bool toml_has(std::string_view text, const ConfigEntry& e) {
  std::string t = regex_escape(e.table);
  std::string n = "(" + regex_escape(e.name) + "|\"" + regex_escape(e.name) + "\"|'" +
                  regex_escape(e.name) + "')";
  std::regex header(R"(^\s*\[\[?\s*)" + t + R"(\s*\.\s*)" + n + R"(\s*[\].])");
  std::regex dotted(R"(^\s*)" + t + R"(\s*\.\s*)" + n + R"(\s*[.=])");
  std::regex inline_table(R"(^\s*)" + t + R"(\s*=\s*\{.*\b)" + regex_escape(e.name) + R"(\b)");
  std::regex table_header(R"(^\s*\[\s*)" + t + R"(\s*\]\s*(#.*)?$)");
  std::regex any_header(R"(^\s*\[)");
  std::regex key_in_table(R"(^\s*)" + n + R"(\s*[.=])");
  bool in_table = false;
  std::string s(text);
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t end = s.find('\n', pos);
    std::string line = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (std::regex_search(line, header) || std::regex_search(line, dotted) ||
        std::regex_search(line, inline_table)) {
      return true;
    }
    if (std::regex_search(line, any_header)) in_table = std::regex_search(line, table_header);
    else if (in_table && std::regex_search(line, key_in_table)) return true;
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return false;
}

std::string toml_block(const ConfigEntry& e) {
  return "[" + e.table + "." + e.name + "]\n" + e.value;
}

// What add_entry appends after `text`: a separating newline or blank line, then the block.
std::string toml_insert(std::string_view text, const ConfigEntry& e) {
  std::string sep;
  if (!text.empty() && text.back() != '\n') sep = "\n";
  if (!text.empty()) sep += "\n";
  return sep + toml_block(e);
}

Result<Json> parse_json(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return Json::object();
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::InvalidArgument(codes::kConfigUnparsable, "not a JSON object");
  }
  return doc;
}


// The value at dotted `table` (nullptr when a step is missing). Errors: a step is not an object.
Result<Json*> find_path(Json& doc, const std::string& table) {
  Json* node = &doc;
  for (const auto& key : split_dotted(table)) {
    if (!node->is_object()) {
      return Status::InvalidArgument(codes::kConfigUnparsable, table + " is not an object");
    }
    auto it = node->find(key);
    if (it == node->end()) return static_cast<Json*>(nullptr);
    node = &*it;
  }
  return node;
}

// Drops the objects/arrays along `table` that are empty now, deepest first.
void prune_empty(Json& doc, const std::string& table) {
  std::vector<std::string> parts = split_dotted(table);
  for (std::size_t depth = parts.size(); depth > 0; --depth) {
    Json* parent = &doc;
    for (std::size_t i = 0; i + 1 < depth; ++i) parent = &(*parent)[parts[i]];
    auto it = parent->find(parts[depth - 1]);
    if (it == parent->end() || !it->empty() || it->is_primitive()) return;
    parent->erase(it);
  }
}

Status changed_error(const ConfigEntry& e) {
  return Status::InvalidArgument(codes::kConfigEntryChanged,
                                 (e.table.empty() ? "" : e.table + ".") + e.name +
                                     " is missing or was edited since caveman added it");
}

// Position of `line` (which ends in '\n') at a line start of `text`, or npos.
std::size_t find_line(const std::string& text, const std::string& line) {
  for (std::size_t at = text.find(line); at != std::string::npos; at = text.find(line, at + 1)) {
    if (at == 0 || text[at - 1] == '\n') return at;
  }
  return std::string::npos;
}

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Any line `name =` / `export name=` of a dotenv file, or a top-level TOML key `name =`
// (before the first table header).
bool line_key_has(std::string_view text, const ConfigEntry& e) {
  bool toml = e.format == ConfigFormat::kTomlKey;
  std::regex key(toml ? R"(^\s*("?))" + regex_escape(e.name) + R"(\1\s*=)"
                      : R"(^\s*(export\s+)?)" + regex_escape(e.name) + R"(\s*=)");
  std::regex header(R"(^\s*\[)");
  std::string s(text);
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t end = std::min(s.find('\n', pos), s.size());
    std::string line = s.substr(pos, end - pos);
    if (toml && std::regex_search(line, header)) return false;
    if (std::regex_search(line, key)) return true;
    pos = end + 1;
  }
  return false;
}

std::string line_of(const ConfigEntry& e) {
  if (e.format == ConfigFormat::kTomlKey) return e.name + " = " + e.value + "\n";
  return e.name + "=" + e.value + "\n";
}

const char* const kFormatNames[] = {"toml", "json", "toml-key", "json-item", "env-line", "file"};

}  // namespace

std::vector<std::string> split_dotted(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t dot = std::min(path.find('.', start), path.size());
    parts.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

std::string toml_server_body(const std::string& command, const std::vector<std::string>& args) {
  std::string body = "command = " + nlohmann::json(command).dump() + "\nargs = [";
  for (std::size_t i = 0; i < args.size(); ++i) {
    body += (i ? ", " : "") + nlohmann::json(args[i]).dump();
  }
  return body + "]\n";
}

Result<bool> has_entry(std::string_view text, const ConfigEntry& entry) {
  switch (entry.format) {
    case ConfigFormat::kToml:
      return toml_has(text, entry);
    case ConfigFormat::kTomlKey:
    case ConfigFormat::kEnvLine:
      return line_key_has(text, entry);
    case ConfigFormat::kFile:
      return !blank(text);
    case ConfigFormat::kJson:
    case ConfigFormat::kJsonItem:
      break;
  }
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_json(text));
  CAVEMAN_ASSIGN_OR_RETURN(Json * node, find_path(doc, entry.table));
  if (node == nullptr) return false;
  if (entry.format == ConfigFormat::kJsonItem) {
    if (!node->is_array()) {
      return Status::InvalidArgument(codes::kConfigUnparsable, entry.table + " is not an array");
    }
    return std::find(node->begin(), node->end(), Json::parse(entry.value)) != node->end();
  }
  if (!node->is_object()) {
    return Status::InvalidArgument(codes::kConfigUnparsable, entry.table + " is not an object");
  }
  return node->contains(entry.name);
}

Result<std::string> add_entry(std::string_view text, const ConfigEntry& entry) {
  CAVEMAN_ASSIGN_OR_RETURN(bool exists, has_entry(text, entry));
  if (exists) {
    return Status::InvalidArgument(
        codes::kConfigEntryExists,
        (entry.table.empty() ? "" : entry.table + ".") + entry.name + " is already defined");
  }
  switch (entry.format) {
    case ConfigFormat::kToml:
      return std::string(text) + toml_insert(text, entry);
    case ConfigFormat::kTomlKey:  // a top-level key must precede every table
      return line_of(entry) + std::string(text);
    case ConfigFormat::kEnvLine:
      return std::string(text) + (text.empty() || text.back() == '\n' ? "" : "\n") + line_of(entry);
    case ConfigFormat::kFile:
      return entry.value;
    case ConfigFormat::kJson:
    case ConfigFormat::kJsonItem:
      break;
  }
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_json(text));
  Json* node = &doc;
  for (const auto& key : split_dotted(entry.table)) node = &(*node)[key];
  if (entry.format == ConfigFormat::kJsonItem) {
    node->push_back(Json::parse(entry.value));
  } else {
    (*node)[entry.name] = Json::parse(entry.value);
  }
  return doc.dump(2) + "\n";
}

Result<std::string> remove_entry(std::string_view text, const ConfigEntry& entry) {
  std::string s(text);
  switch (entry.format) {
    case ConfigFormat::kToml: {
      std::string block = toml_block(entry);
      std::size_t at = s.rfind(block);
      bool line_start = at != std::string::npos && (at == 0 || s[at - 1] == '\n');
      if (!line_start) return changed_error(entry);
      std::size_t from = at;
      // Take back the separator add_entry wrote (one blank line) when it is still there.
      if (from >= 2 && s.compare(from - 2, 2, "\n\n") == 0) from -= 1;
      else if (from == 1 && s[0] == '\n') from = 0;
      return s.erase(from, at + block.size() - from);
    }
    case ConfigFormat::kTomlKey:
    case ConfigFormat::kEnvLine: {
      std::string line = line_of(entry);
      std::size_t at = find_line(s, line);
      if (at == std::string::npos) return changed_error(entry);
      return s.erase(at, line.size());
    }
    case ConfigFormat::kFile:
      if (s != entry.value) return changed_error(entry);
      return std::string();
    case ConfigFormat::kJson:
    case ConfigFormat::kJsonItem:
      break;
  }
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_json(text));
  CAVEMAN_ASSIGN_OR_RETURN(Json * node, find_path(doc, entry.table));
  const Json value = Json::parse(entry.value);
  if (entry.format == ConfigFormat::kJsonItem) {
    if (node == nullptr || !node->is_array()) return changed_error(entry);
    auto it = std::find(node->rbegin(), node->rend(), value);
    if (it == node->rend()) return changed_error(entry);
    node->erase(std::next(it).base());
  } else {
    if (node == nullptr || !node->is_object() || !node->contains(entry.name) ||
        (*node)[entry.name] != value) {
      return changed_error(entry);
    }
    node->erase(entry.name);
  }
  prune_empty(doc, entry.table);
  return doc.dump(2) + "\n";
}

nlohmann::ordered_json entry_to_json(const ConfigEntry& entry) {
  return {{"format", kFormatNames[static_cast<int>(entry.format)]},
          {"table", entry.table},
          {"name", entry.name},
          {"value", entry.value}};
}

std::optional<ConfigEntry> entry_from_json(const nlohmann::json& doc) {
  if (!doc.is_object()) return std::nullopt;
  ConfigEntry e;
  std::string format = doc.value("format", "");
  auto it = std::find(std::begin(kFormatNames), std::end(kFormatNames), format);
  if (it == std::end(kFormatNames)) return std::nullopt;
  e.format = static_cast<ConfigFormat>(it - std::begin(kFormatNames));
  e.table = doc.value("table", "");
  e.name = doc.value("name", "");
  e.value = doc.value("value", "");
  return e;
}

}  // namespace caveman::cli
