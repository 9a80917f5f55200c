// The individual Detect rules (ENGINE.md §2), exposed for unit tests and for compressors
// that need the same predicates (e.g. the text compressor's HTML check).
#ifndef CAVEMAN_CORE_DETECT_RULES_H_
#define CAVEMAN_CORE_DETECT_RULES_H_

#include <string>
#include <string_view>

namespace caveman::core {

bool has_ansi_csi(std::string_view s);
bool looks_terminal(std::string_view s);
bool looks_diff(std::string_view s);
bool has_code_structure(std::string_view s);
bool looks_html(std::string_view s);
bool looks_tabular(std::string_view s);
bool looks_code(std::string_view s);
bool looks_log(std::string_view s);
bool looks_search_result(std::string_view s);
bool looks_config(std::string_view s);
// Detect on already-unwrapped text.
std::string detect_body(std::string_view body);

}  // namespace caveman::core

#endif  // CAVEMAN_CORE_DETECT_RULES_H_
