#include "compress/records/stanzas.h"

#include <set>
#include <string>
#include <vector>

#include "text/lines.h"

namespace caveman::compress {
namespace {

// The field name of `line`, or empty when it is no field line.
std::string_view field_name(std::string_view line) {
  std::size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) return {};
  if (line[0] == '#' || line[0] == '-') return {};
  for (std::size_t i = 0; i < colon; ++i) {
    auto c = static_cast<unsigned char>(line[i]);
    if (c <= 0x20 || c >= 0x7F) return {};
  }
  if (colon + 1 < line.size() && line[colon + 1] != ' ' && line[colon + 1] != '\t') return {};
  return line.substr(0, colon);
}

// `Package`, `Installed-Size`, `MD5sum`: names open with a capital.
bool capitalised(std::string_view name) { return name[0] >= 'A' && name[0] <= 'Z'; }

}  // namespace

bool is_records(std::string_view text) {
  std::vector<std::set<std::string_view>> stanzas;
  bool in_stanza = false, any_field = false, all_capitalised = true;
  std::size_t fields = 0;
  bool repeated = false;
  std::set<std::string_view> seen;  // names of earlier stanzas
  for (std::string_view line : text::split_all(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      if (in_stanza) {
        for (std::string_view n : stanzas.back()) seen.insert(n);
      }
      in_stanza = false;
      continue;
    }
    if (line[0] == ' ' || line[0] == '\t') {
      if (in_stanza || !any_field) continue;  // a continuation (or the tail of a cut field)
      return false;
    }
    std::string_view name = field_name(line);
    if (name.empty()) return false;
    if (!in_stanza) stanzas.emplace_back();
    in_stanza = any_field = true;
    ++fields;
    all_capitalised = all_capitalised && capitalised(name);
    if (seen.count(name) > 0) repeated = true;
    stanzas.back().insert(name);
  }
  return repeated || (fields >= 3 && all_capitalised);
}

}  // namespace caveman::compress
