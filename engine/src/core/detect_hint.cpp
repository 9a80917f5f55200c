// Detection with the name of the file an output shows (docs/spec/detect.md#hints): the
// extension proposes a family, the content must still carry that family's marks, and a type
// the content proves on its own wins over the name.
#include <array>
#include <utility>
#include <vector>

#include "caveman/base/text.h"
#include "compress/config/config_parse.h"
#include "compress/markup/markup.h"
#include "core/detect_rules.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::core {
namespace {

using Suffixes = std::vector<std::string_view>;

// Extension (or whole file name) → the family it names. Lower-case; compared lower-cased.
const std::array<std::pair<std::string_view, Suffixes>, 5>& families() {
  static const std::array<std::pair<std::string_view, Suffixes>, 5> kFamilies{{
      {"config",
       {".conf", ".cnf", ".cfg", ".ini", ".toml", ".yaml", ".yml", ".service", ".socket", ".timer",
        ".mount", ".target", ".path", ".desktop", ".properties", ".env", ".editorconfig",
        ".gitconfig", ".npmrc"}},
      {"code", {".c",     ".h",   ".cc",  ".cpp",  ".cxx", ".hh", ".hpp", ".hxx", ".py",
                ".pyi",   ".js",  ".mjs", ".cjs",  ".jsx", ".ts", ".mts", ".cts", ".tsx",
                ".vue",   ".go",  ".rs",  ".java", ".kt",  ".rb", ".php", ".cs",  ".swift",
                ".scala", ".lua", ".sh",  ".bash", ".zsh", ".pl"}},
      {"html", {".html", ".htm", ".xhtml"}},
      {"xml", {".xml", ".svg", ".xsd", ".xsl", ".xslt", ".plist", ".wsdl", ".rss", ".atom"}},
      {"json", {".json", ".jsonc", ".geojson", ".webmanifest"}},
  }};
  return kFamilies;
}

// What detection answers when nothing proved a type strongly: a name may overrule these.
bool weak(std::string_view type) {
  return type == "text" || type == "tabular" || type == "log" || type == "search-result" ||
         type == "records" || type == "config";
}

// `include "x.conf"`, `local all postgres peer`, `listen 80;`: a name, white space, a few
// values — no sentence (more fields, or a closing full stop, '!' or '?').
bool directive(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && (text::is_word_byte(t[i]) || t[i] == '-' || t[i] == '.')) ++i;
  if (i == 0 || i == t.size() || (t[i] != ' ' && t[i] != '\t')) return false;
  if (text::trim_space(t.substr(i)).empty()) return false;
  char last = t.back();
  if (last == '.' || last == '!' || last == '?') return false;
  std::size_t fields = 0;
  for (std::size_t j = 0; j < t.size(); ++j) {
    bool blank = t[j] == ' ' || t[j] == '\t';
    if (!blank && (j == 0 || t[j - 1] == ' ' || t[j - 1] == '\t')) ++fields;
  }
  return fields <= 8;
}

// The lines of a settings file: comments, sections, `key = value`, `key: value`, list items
// and directives make up at least four in five of the non-blank lines.
bool settings_marks(std::string_view body) {
  if (!text::is_valid_utf8(body)) return false;
  std::vector<std::string_view> lines = text::split_all(body, '\n');
  std::vector<compress::ConfigLineInfo> kinds = compress::classify_config_lines(lines);
  std::size_t counted = 0, settings = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (kinds[i].kind == compress::ConfigLine::kBlank) continue;
    ++counted;
    bool prose = kinds[i].kind == compress::ConfigLine::kProse;
    if (!prose || directive(text::trim_space(lines[i]))) ++settings;
  }
  return counted > 0 && settings * 5 >= counted * 4;
}

// Tags that carry the text: at least two, and few stray '<'.
bool markup_marks(std::string_view body) {
  compress::markup::MarkupStats st = compress::markup::scan(body);
  return st.tags >= 2 && st.stray_lt * 10 <= st.tags;
}

bool json_marks(std::string_view body) {
  std::string_view t = text::trim_space(body);
  return !t.empty() && (t.front() == '{' || t.front() == '[' || t.find("\": ") != t.npos);
}

bool carries_marks(std::string_view family, std::string_view body) {
  if (family == "config") return settings_marks(body);
  if (family == "html" || family == "xml") return markup_marks(body);
  if (family == "json") return json_marks(body);
  return family == "code";  // any text may be a slice of a source file
}

}  // namespace

std::string_view type_of_path(std::string_view path) {
  std::size_t slash = path.find_last_of("/\\");
  std::string name =
      base::ascii_lower(slash == std::string_view::npos ? path : path.substr(slash + 1));
  for (const auto& [family, suffixes] : families()) {
    for (std::string_view suffix : suffixes) {
      if (name.size() >= suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return family;
      }
    }
  }
  return {};
}

std::string detect_body(std::string_view body, std::string_view source_path) {
  std::string found = detect_body(body);
  std::string_view named = type_of_path(source_path);
  if (named.empty() || found == named || !weak(found)) return found;
  return carries_marks(named, body) ? std::string(named) : found;
}

}  // namespace caveman::core
