#include "compress/code/sniff.h"

#include <algorithm>
#include <array>

namespace caveman::compress::code {
namespace {

bool has(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

template <std::size_t N>
bool starts_with_any(std::string_view s, const std::array<std::string_view, N>& ps) {
  return std::any_of(ps.begin(), ps.end(), [&](std::string_view p) { return s.starts_with(p); });
}
template <std::size_t N>
bool has_any(std::string_view s, const std::array<std::string_view, N>& ps) {
  return std::any_of(ps.begin(), ps.end(), [&](std::string_view p) { return has(s, p); });
}

std::string_view trim_left(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}
std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

constexpr std::array<std::string_view, 4> kPythonDefs = {"def ", "async def ", "class ", "@"};
constexpr std::array<std::string_view, 5> kPreprocessor = {"#include", "#define", "#ifndef",
                                                           "#ifdef", "#pragma"};
constexpr std::array<std::string_view, 8> kCppOnly = {"std::",  "template<", "template <",
                                                      "namespace ", "public:", "private:",
                                                      "nullptr", "::"};
constexpr std::array<std::string_view, 9> kJsLineStarts = {
    "const ", "let ", "var ", "export ", "import ", "class ", "async ", "module.exports", "return "};
constexpr std::array<std::string_view, 3> kJsAnywhere = {"function", "=>", "require("};
constexpr std::array<std::string_view, 10> kTsLineStarts = {
    "interface ", "export interface ", "type ",          "export type ",   "declare ",
    "export declare ", "enum ",            "export enum ", "abstract class ", "namespace "};
constexpr std::array<std::string_view, 8> kTsAnywhere = {
    ": string", ": number", ": boolean", ": void", "readonly ", "implements ", "as const", ": any"};

struct Signals {
  bool go_package = false, go_func = false, go_func_top = false;
  bool py_def = false, py_import = false, braces_at_end = false;
  bool preprocessor = false, cpp = false;
  bool js = false, ts = false, jsx = false;
};

Signals scan(std::string_view source) {
  Signals s;
  std::size_t pos = 0;
  while (pos <= source.size()) {
    std::size_t nl = source.find('\n', pos);
    std::string_view line =
        source.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? source.size() + 1 : nl + 1;
    std::string_view t = trim_left(line);
    std::string_view r = trim_right(t);
    if (r.empty()) continue;
    if (line.starts_with("package ")) s.go_package = true;
    if (t.starts_with("func ")) s.go_func = true;
    if (line.starts_with("func ")) s.go_func_top = true;
    if (starts_with_any(t, kPythonDefs) && r.back() == ':') s.py_def = true;
    if (t.starts_with("import ") || (t.starts_with("from ") && has(t, " import "))) {
      s.py_import = true;
    }
    if (r.back() == '{' || r.back() == ';') s.braces_at_end = true;
    if (starts_with_any(t, kPreprocessor)) s.preprocessor = true;
    if (has_any(t, kCppOnly)) s.cpp = true;
    if (starts_with_any(t, kJsLineStarts) || has_any(t, kJsAnywhere)) s.js = true;
    if (starts_with_any(t, kTsLineStarts) || has_any(t, kTsAnywhere)) s.ts = true;
    if (has(t, "</") || has(t, "/>")) s.jsx = true;
  }
  return s;
}

}  // namespace

std::vector<Language> candidate_languages(std::string_view source) {
  Signals s = scan(source.substr(0, kSniffBytes));
  std::vector<Language> out;
  auto add = [&](Language l) {
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
  };
  // A slice of a Go file (a Read with an offset) has no package clause, but no other language
  // starts a line with `func `.
  if ((s.go_package && s.go_func) || s.go_func_top) add(Language::kGo);
  if (s.py_def || (s.py_import && !s.braces_at_end)) add(Language::kPython);
  if (s.preprocessor) {
    add(s.cpp ? Language::kCpp : Language::kC);
    add(s.cpp ? Language::kC : Language::kCpp);
  }
  if (s.ts) {
    add(s.jsx ? Language::kTsx : Language::kTypeScript);
    add(s.jsx ? Language::kTypeScript : Language::kTsx);
    add(Language::kJavaScript);
  } else if (s.js) {
    add(Language::kJavaScript);
    add(Language::kTypeScript);
  }
  if (s.cpp && s.braces_at_end) add(Language::kCpp);  // C++ without any #include
  return out;
}

}  // namespace caveman::compress::code
