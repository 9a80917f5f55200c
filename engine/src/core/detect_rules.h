// The individual Detect rules (docs/spec/detect.md), exposed for unit tests and for compressors
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
bool looks_xml(std::string_view s);
bool looks_tabular(std::string_view s);
bool looks_code(std::string_view s);
bool code_rule(std::string_view s);  // looks_code without the "not a log" check
bool looks_log(std::string_view s);
bool looks_search_result(std::string_view s);
bool looks_config(std::string_view s);
// Line-shape statistics over the first 3000 non-blank lines (beyond the original rules).
struct LineStats {
  std::size_t lines = 0;           // non-blank lines examined
  std::size_t unindented = 0;      // lines starting in column 0 (not pure punctuation)
  std::size_t unindented_log = 0;  // …with a log signal or a repeating template
  std::size_t search_hits = 0;     // "path:N:" / "N:" grep hits
  std::size_t search_like = 0;     // hits + "path-N-" context lines + "--" separators
  std::size_t non_comment = 0;
  std::size_t code_lines = 0;      // keyword starts or code-like line endings
  std::size_t prose_lines = 0;     // ≥ 5 words, no code punctuation
  std::size_t md_headings = 0;
  std::size_t md_fences = 0;
};
LineStats line_stats(std::string_view s);
bool strongly_log(const LineStats& st);
bool strongly_search(const LineStats& st);
bool markdown_document(const LineStats& st);
bool markdown_prose(const LineStats& st);
bool code_dense(const LineStats& st);

// Lines cut from pretty-printed JSON that are no whole document (a Read with offset/limit):
// ≥ 8 non-blank lines, at least 90% of them a JSON member, value or bracket line.
bool looks_json_fragment(std::string_view s);

// Detect on already-unwrapped text.
std::string detect_body(std::string_view body);

// The family a file's name declares by its extension (config, code, html, xml, json), or
// empty (docs/spec/detect.md#hints).
std::string_view type_of_path(std::string_view path);

// detect_body, then the name of the file the body shows: when detection proved no type
// strongly and the body carries the marks of the family the name declares, that family.
std::string detect_body(std::string_view body, std::string_view source_path);

}  // namespace caveman::core

#endif  // CAVEMAN_CORE_DETECT_RULES_H_
