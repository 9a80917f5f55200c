// Which file a tool result shows (docs/spec/detect.md#hints).
#include "caveman/tool_source.h"

#include <algorithm>
#include <optional>

#include "caveman/base/text.h"
#include "core/detect_rules.h"

namespace caveman {
namespace {

const std::string* arg(const ToolArgs& args, std::string_view key) {
  for (const auto& [k, v] : args) {
    if (k == key) return &v;
  }
  return nullptr;
}

// Words of a command with '…' and "…" quoting; nullopt on anything a shell would expand or
// redirect, so that only a plain command names its file.
std::optional<std::vector<std::string>> words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\'' || c == '"') {
      std::size_t close = s.find(c, i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view quoted = s.substr(i + 1, close - i - 1);
      if (c == '"' && quoted.find_first_of("$`\\") != std::string_view::npos) return std::nullopt;
      cur += quoted;
      in_word = true;
      i = close;
    } else if (c == ' ' || c == '\t') {
      if (in_word) out.push_back(std::move(cur));
      cur.clear();
      in_word = false;
    } else if (std::string_view("|;&<>$`\\(){}*?\n").find(c) != std::string_view::npos) {
      return std::nullopt;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(std::move(cur));
  return out;
}

// Options of the printing commands that take a value (`head -n 40`, `sed -e …` is refused).
bool takes_value(std::string_view cmd, std::string_view opt) {
  if (cmd == "head" || cmd == "tail") return opt == "-n" || opt == "-c";
  if (cmd == "nl") return opt == "-b" || opt == "-w" || opt == "-s" || opt == "-v";
  return false;
}

// The file of one `cat`-like command, or "" (none, or more than one).
std::string printed_file(std::string_view segment) {
  std::optional<std::vector<std::string>> w = words(segment);
  if (!w || w->empty()) return {};
  const std::string& cmd = (*w)[0];
  static const std::vector<std::string_view> kPrinters = {"cat", "head", "tail", "nl",
                                                          "sed", "less", "bat",  "more"};
  if (std::find(kPrinters.begin(), kPrinters.end(), cmd) == kPrinters.end()) return {};
  std::vector<std::string> operands;
  for (std::size_t i = 1; i < w->size(); ++i) {
    const std::string& a = (*w)[i];
    if (a.size() > 1 && a[0] == '-') {
      if (cmd == "sed" && a != "-n") return {};  // -i edits, -e/-f scripts
      if (takes_value(cmd, a)) ++i;
      continue;
    }
    operands.push_back(a);
  }
  if (cmd == "sed") {  // its first operand is the script: `A,Bp` or `Ap` only
    if (operands.empty() || operands[0].empty() || operands[0].back() != 'p' ||
        operands[0].find_first_not_of("0123456789,$p") != std::string::npos) {
      return {};
    }
    operands.erase(operands.begin());
  }
  return operands.size() == 1 ? operands[0] : std::string();
}

}  // namespace

std::string_view bare_tool_name(std::string_view name) {
  if (std::size_t sep = name.rfind("__"); sep != std::string_view::npos)
    name.remove_prefix(sep + 2);
  return name;
}

std::string shell_source_path(std::string_view command) {
  // `cat -n f | head -80`: the first command names the file, the rest only cut lines.
  std::size_t bar = command.find('|');
  std::string_view first = command.substr(0, bar);
  while (bar != std::string_view::npos) {
    std::size_t next = command.find('|', bar + 1);
    std::string_view rest = command.substr(
        bar + 1, next == std::string_view::npos ? std::string_view::npos : next - bar - 1);
    std::optional<std::vector<std::string>> w = words(rest);
    if (!w || w->empty() || ((*w)[0] != "head" && (*w)[0] != "tail" && (*w)[0] != "nl")) return {};
    bar = next;
  }
  return printed_file(first);
}

std::string_view source_family(std::string_view path) { return core::type_of_path(path); }

std::string tool_source_path(std::string_view tool_name, const ToolArgs& args) {
  std::string name = base::ascii_lower(bare_tool_name(tool_name));
  for (std::string_view key : {"command", "cmd"}) {
    if (const std::string* c = arg(args, key)) {
      bool shell = name == "bash" || name == "shell" || name == "run_shell_command" ||
                   name == "exec_command" || name == "local_shell" || name == "execute_command";
      return shell ? shell_source_path(*c) : std::string();
    }
  }
  if (name.find("read") == std::string::npos && name != "view" && name != "cat") return {};
  for (std::string_view key : {"file_path", "filePath", "absolute_path", "path", "filename"}) {
    if (const std::string* p = arg(args, key)) return *p;
  }
  return {};
}

}  // namespace caveman
