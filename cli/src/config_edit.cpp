#include "config_edit.h"

#include <nlohmann/json.hpp>
#include <regex>

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
  bool blank = text.find_first_not_of(" \t\r\n") == std::string_view::npos;
  if (blank) return Json::object();
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::InvalidArgument("cave_config_unparsable", "not a JSON object");
  }
  return doc;
}

}  // namespace

std::string toml_server_body(const std::string& command, const std::vector<std::string>& args) {
  std::string body = "command = " + nlohmann::json(command).dump() + "\nargs = [";
  for (std::size_t i = 0; i < args.size(); ++i) {
    body += (i ? ", " : "") + nlohmann::json(args[i]).dump();
  }
  return body + "]\n";
}

Result<bool> has_entry(std::string_view text, const ConfigEntry& entry) {
  if (entry.format == ConfigFormat::kToml) return toml_has(text, entry);
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_json(text));
  auto it = doc.find(entry.table);
  if (it == doc.end()) return false;
  if (!it->is_object()) {
    return Status::InvalidArgument("cave_config_unparsable", entry.table + " is not an object");
  }
  return it->contains(entry.name);
}

Result<std::string> add_entry(std::string_view text, const ConfigEntry& entry) {
  CAVEMAN_ASSIGN_OR_RETURN(bool exists, has_entry(text, entry));
  if (exists) {
    return Status::InvalidArgument("cave_config_entry_exists",
                                   entry.table + "." + entry.name + " is already defined");
  }
  if (entry.format == ConfigFormat::kToml) return std::string(text) + toml_insert(text, entry);
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_json(text));
  doc[entry.table][entry.name] = Json::parse(entry.value);
  return doc.dump(2) + "\n";
}

Result<std::string> remove_entry(std::string_view text, const ConfigEntry& entry) {
  auto changed = [&] {
    return Status::InvalidArgument("cave_config_entry_changed",
                                   entry.table + "." + entry.name +
                                       " is missing or was edited since caveman added it");
  };
  if (entry.format == ConfigFormat::kToml) {
    std::string s(text);
    std::string block = toml_block(entry);
    std::size_t at = s.rfind(block);
    bool line_start = at != std::string::npos && (at == 0 || s[at - 1] == '\n');
    if (!line_start) return changed();
    std::size_t from = at;
    // Take back the separator add_entry wrote (one blank line) when it is still there.
    if (from >= 2 && s.compare(from - 2, 2, "\n\n") == 0) from -= 1;
    else if (from == 1 && s[0] == '\n') from = 0;
    return s.erase(from, at + block.size() - from);
  }
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_json(text));
  auto it = doc.find(entry.table);
  if (it == doc.end() || !it->is_object() || !it->contains(entry.name) ||
      (*it)[entry.name] != Json::parse(entry.value)) {
    return changed();
  }
  it->erase(entry.name);
  if (it->empty()) doc.erase(it);
  return doc.dump(2) + "\n";
}

}  // namespace caveman::cli
