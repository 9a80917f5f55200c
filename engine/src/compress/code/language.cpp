#include "compress/code/language.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>

extern "C" {
const TSLanguage* tree_sitter_go(void);
const TSLanguage* tree_sitter_python(void);
const TSLanguage* tree_sitter_javascript(void);
const TSLanguage* tree_sitter_typescript(void);
const TSLanguage* tree_sitter_tsx(void);
const TSLanguage* tree_sitter_c(void);
const TSLanguage* tree_sitter_cpp(void);
}

namespace caveman::compress::code {
namespace {

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

constexpr std::array<std::string_view, 3> kGoFunctions = {"function_declaration",
                                                          "method_declaration", "func_literal"};
constexpr std::array<std::string_view, 7> kJsFunctions = {
    "function_declaration", "function_expression", "function",      "arrow_function",
    "generator_function_declaration", "generator_function", "method_definition"};

}  // namespace

std::string_view language_name(Language lang) {
  switch (lang) {
    case Language::kGo: return "go";
    case Language::kPython: return "python";
    case Language::kJavaScript: return "javascript";
    case Language::kTypeScript: return "typescript";
    case Language::kTsx: return "tsx";
    case Language::kC: return "c";
    case Language::kCpp: return "cpp";
  }
  return "unknown";
}

const TSLanguage* ts_language(Language lang) {
  switch (lang) {
    case Language::kGo: return tree_sitter_go();
    case Language::kPython: return tree_sitter_python();
    case Language::kJavaScript: return tree_sitter_javascript();
    case Language::kTypeScript: return tree_sitter_typescript();
    case Language::kTsx: return tree_sitter_tsx();
    case Language::kC: return tree_sitter_c();
    case Language::kCpp: return tree_sitter_cpp();
  }
  return nullptr;
}

bool is_function_like(Language lang, std::string_view t) {
  switch (lang) {
    case Language::kGo: return contains(kGoFunctions, t);
    case Language::kPython: return t == "function_definition";
    case Language::kJavaScript:
    case Language::kTypeScript:
    case Language::kTsx: return contains(kJsFunctions, t);
    case Language::kC: return t == "function_definition";
    case Language::kCpp: return t == "function_definition" || t == "lambda_expression";
  }
  return false;
}

bool is_elidable_body(Language lang, std::string_view t) {
  switch (lang) {
    case Language::kGo:
    case Language::kPython: return t == "block";
    case Language::kJavaScript:
    case Language::kTypeScript:
    case Language::kTsx: return t == "statement_block";
    case Language::kC: return t == "compound_statement";
    case Language::kCpp: return t == "compound_statement" || t == "try_statement";
  }
  return false;
}

bool has_block_doc_comments(Language lang) {
  return lang != Language::kGo && lang != Language::kPython;
}

}  // namespace caveman::compress::code
